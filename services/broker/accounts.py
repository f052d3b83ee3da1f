"""Create and remove player and TV accounts while the broker runs, on either broker.

Both brokers take Mosquitto's dynamic-security commands on
``$CONTROL/dynamic-security/v1``: each account gets a role of its own whose ACL entries
are built from its ``Grants`` (no ``%u`` templates, which dynsec does not expand), and a
client with that role. ``provision`` replaces an existing account of the same name (its
connections are closed, as Mosquitto does when a client is deleted).

Call it from a message handler only through a connection of its own (``connect``): the
answer arrives on the network thread, which a handler would be blocking.
"""

from __future__ import annotations

import json
import re
import threading
import uuid
from collections.abc import Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from protocol.topics import Grants
from services.broker.credentials import SERVICE_NAMES
from services.broker.dynsec import CONTROL_RESPONSE_TOPIC, CONTROL_TOPIC, acls_for_grants
from services.mqtt import BrokerUrl, MqttClient, MqttError

USERNAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
NOT_FOUND = frozenset({"Client not found", "Role not found"})


class AccountError(MqttError):
    """The broker refused an account command, or did not answer in time."""


def role_name(username: str) -> str:
    """The role holding one account's ACL entries."""
    return f"acct-{username}"


def _check_username(username: str) -> str:
    if not USERNAME.match(username):
        raise ValueError(f"not a valid account name: {username!r}")
    if username in SERVICE_NAMES:
        raise ValueError(f"{username!r} is a service account")
    return username


def revoke_commands(username: str) -> list[dict[str, Any]]:
    _check_username(username)
    return [
        {"command": "deleteClient", "username": username},
        {"command": "deleteRole", "rolename": role_name(username)},
    ]


def provision_commands(
    username: str, password: str, grants: Grants, client_id: str | None = None
) -> list[dict[str, Any]]:
    """Replace any account ``username`` by one with ``password`` and exactly ``grants``."""
    if not password:
        raise ValueError("an account needs a password")
    role = role_name(username)
    create: dict[str, Any] = {
        "command": "createClient",
        "username": username,
        "password": password,
        "roles": [{"rolename": role, "priority": -1}],
    }
    if client_id is not None:
        create["clientid"] = client_id
    return [
        *revoke_commands(username),
        {
            "command": "createRole",
            "rolename": role,
            "acls": [entry.to_json() for entry in acls_for_grants(grants)],
        },
        create,
    ]


class BrokerAccounts:
    """Sends dynsec commands as a service account and waits for each answer."""

    def __init__(self, client: MqttClient, timeout: float = 5.0, *, owns_client: bool = False):
        self._client = client
        self._timeout = timeout
        self._owns_client = owns_client
        self._waiting: dict[str, Future[list[dict[str, Any]]]] = {}
        self._lock = threading.Lock()
        client.subscribe(CONTROL_RESPONSE_TOPIC, self._on_response, qos=1)

    @classmethod
    def connect(cls, url: str | BrokerUrl, timeout: float = 5.0) -> BrokerAccounts:
        """A provisioner with a connection of its own (``close()`` ends it)."""
        client = MqttClient(url, client_id=f"gn-accounts-{uuid.uuid4().hex[:12]}").start()
        return cls(client, timeout, owns_client=True)

    def close(self) -> None:
        if self._owns_client:
            self._client.stop()

    def __enter__(self) -> BrokerAccounts:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def provision(
        self, username: str, password: str, grants: Grants, client_id: str | None = None
    ) -> None:
        """Create (or replace) the account; it can connect as soon as this returns.

        ``client_id`` binds the account to that one client id (dynsec ``clientid``), so
        it can never use, and so disturb, the session of a service.
        """
        self._run(provision_commands(_check_username(username), password, grants, client_id))

    def revoke(self, username: str) -> None:
        """Delete the account (if it exists) and close its connections."""
        self._run(revoke_commands(username))

    def _run(self, commands: list[dict[str, Any]]) -> None:
        for command, response in zip(commands, self.execute(commands), strict=True):
            error = response.get("error")
            if error is not None and not (
                command["command"].startswith("delete") and error in NOT_FOUND
            ):
                raise AccountError(f"{command['command']}: {error}")

    def execute(self, commands: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """Send one batch of dynsec commands; return the broker's responses in order."""
        if self._client.in_network_thread():
            raise RuntimeError("use BrokerAccounts.connect() to provision from a handler")
        correlation = uuid.uuid4().hex
        batch = [{**command, "correlationData": correlation} for command in commands]
        future: Future[list[dict[str, Any]]] = Future()
        with self._lock:
            self._waiting[correlation] = future
        try:
            self._client.wait_connected(self._timeout)
            payload = json.dumps({"commands": batch}, separators=(",", ":")).encode("utf-8")
            self._client.publish(CONTROL_TOPIC, payload, qos=1)
            responses = future.result(self._timeout)
        except (FutureTimeout, TimeoutError):
            raise AccountError(f"no answer from the broker within {self._timeout} s") from None
        finally:
            with self._lock:
                self._waiting.pop(correlation, None)
        if len(responses) != len(batch):
            raise AccountError(f"{len(batch)} commands but {len(responses)} responses")
        return responses

    def _on_response(self, topic: str, payload: bytes) -> None:
        try:
            responses = json.loads(payload)["responses"]
            correlation = responses[0]["correlationData"]
        except (ValueError, KeyError, IndexError, TypeError):
            return  # someone else's answer, or one we cannot read
        with self._lock:
            future = self._waiting.get(correlation) if isinstance(correlation, str) else None
        if future is not None and not future.done():
            future.set_result([r if isinstance(r, dict) else {} for r in responses])
