"""Accounts and access rules of the embedded broker, driven by Mosquitto's dynsec commands.

The embedded broker accepts the same JSON commands as Mosquitto's dynamic-security plugin
(the subset we use) on ``$CONTROL/dynamic-security/v1``, so ``BrokerAccounts`` works
against both brokers unchanged. Roles hold ACL entries; a client's entries are tried in
priority order and the first matching one decides, else the default applies (deny for
publish, receive and subscribe: stricter than Mosquitto's own default, and what our
Mosquitto configuration sets too). Service accounts are not stored: they come from the
service secret at every start. Player passwords are kept only as PBKDF2 hashes.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from protocol.topics import Grants, service_grants
from services.broker.credentials import ServiceCredentials
from services.broker.topicfilter import (
    filter_covers,
    filters_intersect,
    is_valid_filter,
    topic_matches,
)

CONTROL_TOPIC = "$CONTROL/dynamic-security/v1"
CONTROL_RESPONSE_TOPIC = f"{CONTROL_TOPIC}/response"
CONTROL_FILTER = "$CONTROL/dynamic-security/#"
SERVICE_ROLE = "gamenight-service"

SEND = "publishClientSend"
RECEIVE = "publishClientReceive"
SUBSCRIBE_LITERAL = "subscribeLiteral"
SUBSCRIBE_PATTERN = "subscribePattern"
UNSUBSCRIBE_LITERAL = "unsubscribeLiteral"
UNSUBSCRIBE_PATTERN = "unsubscribePattern"
ACL_TYPES = frozenset(
    {SEND, RECEIVE, SUBSCRIBE_LITERAL, SUBSCRIBE_PATTERN, UNSUBSCRIBE_LITERAL, UNSUBSCRIBE_PATTERN}
)
ACL_PRIORITY = 0  # Mosquitto's default for an ACL entry without one
ROLE_PRIORITY = -1  # and for a client's role without one
# Player passwords are 192-bit random tokens, so the work factor guards only against a
# leaked file being checked for weak manual passwords; 50k rounds cost ~10 ms per login.
PBKDF2_ITERATIONS = 50_000
ACCOUNTS_FILE = "broker-accounts.json"
FILE_VERSION = 1


@dataclass(frozen=True, slots=True)
class AclEntry:
    """One dynsec ACL entry: ``acltype`` on ``topic``, allowed or denied."""

    acltype: str
    topic: str
    allow: bool = True
    priority: int = ACL_PRIORITY

    def to_json(self) -> dict[str, Any]:
        return {
            "acltype": self.acltype,
            "topic": self.topic,
            "priority": self.priority,
            "allow": self.allow,
        }

    @classmethod
    def from_json(cls, data: Any) -> AclEntry:
        if not isinstance(data, dict):
            raise CommandError("Invalid ACL")
        acltype, topic = data.get("acltype"), data.get("topic")
        if acltype not in ACL_TYPES:
            raise CommandError("Invalid/missing acltype")
        if not isinstance(topic, str) or not is_valid_filter(topic):
            raise CommandError("Invalid/missing topic")
        allow = _bool(data, "allow", False)
        return cls(acltype, topic, allow, _int(data, "priority", ACL_PRIORITY))


def acls_for_grants(grants: Grants) -> tuple[AclEntry, ...]:
    """The ACL entries that give exactly ``grants``: read = subscribe + receive."""
    entries: list[AclEntry] = []
    for topic_filter in grants.read:
        entries.append(AclEntry(SUBSCRIBE_PATTERN, topic_filter))
        entries.append(AclEntry(RECEIVE, topic_filter))
    entries.extend(AclEntry(SEND, topic) for topic in grants.write)
    return tuple(entries)


def service_acls() -> tuple[AclEntry, ...]:
    """Services: everything under the base topic, and the dynsec control topics."""
    control = (
        AclEntry(SEND, CONTROL_FILTER),
        AclEntry(RECEIVE, CONTROL_FILTER),
        AclEntry(SUBSCRIBE_PATTERN, CONTROL_FILTER),
    )
    return acls_for_grants(service_grants()) + control


@dataclass(frozen=True, slots=True)
class PasswordHash:
    """A PBKDF2-SHA256 password hash; the password itself is never kept."""

    salt: bytes = field(repr=False)
    key: bytes = field(repr=False)
    iterations: int = PBKDF2_ITERATIONS

    @classmethod
    def make(cls, password: str, iterations: int = PBKDF2_ITERATIONS) -> PasswordHash:
        salt = secrets.token_bytes(16)
        return cls(salt, _derive(password, salt, iterations), iterations)

    def verify(self, password: str) -> bool:
        """Constant-time check; slow on purpose (call it off the event loop)."""
        return hmac.compare_digest(self.key, _derive(password, self.salt, self.iterations))

    def to_json(self) -> dict[str, Any]:
        return {
            "algorithm": "pbkdf2-sha256",
            "iterations": self.iterations,
            "salt": base64.b64encode(self.salt).decode("ascii"),
            "hash": base64.b64encode(self.key).decode("ascii"),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PasswordHash:
        if data.get("algorithm") != "pbkdf2-sha256":
            raise ValueError(f"unknown password hash: {data.get('algorithm')!r}")
        return cls(
            base64.b64decode(data["salt"]), base64.b64decode(data["hash"]), int(data["iterations"])
        )


def _derive(password: str, salt: bytes, iterations: int) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, iterations)


@dataclass(slots=True)
class _Client:
    username: str
    password: PasswordHash | None
    roles: dict[str, int] = field(default_factory=dict)  # rolename -> priority
    textname: str = ""
    client_id: str | None = None  # if set, the only client id this account may use


@dataclass(slots=True)
class _Role:
    rolename: str
    acls: list[AclEntry] = field(default_factory=list)


class CommandError(Exception):
    """A dynsec command failed; the message is what Mosquitto would answer."""


@dataclass(frozen=True, slots=True)
class ControlResult:
    """The response payload of one control message, and the usernames to disconnect."""

    response: bytes
    disconnect: frozenset[str]


class AccountStore:
    """Clients, roles and access decisions; persisted to a JSON file if given a path.

    Used from the broker's event loop only, except ``PasswordHash.verify`` which may run
    in a worker thread on a hash fetched beforehand (hashes are immutable).
    """

    def __init__(self, credentials: ServiceCredentials, path: Path | None = None) -> None:
        self._services = credentials
        self._path = path
        self._clients: dict[str, _Client] = {}
        self._roles: dict[str, _Role] = {}
        self._service_acls = service_acls()
        self._hashes: dict[str, PasswordHash] = {}  # made beforehand, off the event loop
        if path is not None and path.exists():
            self._load(path)

    # ------------------------------------------------------------------ identity
    def is_service(self, username: str | None) -> bool:
        return username is not None and self._services.is_service(username)

    def check_service(self, username: str, password: str) -> bool:
        return self._services.check(username, password)

    def password_hash(self, username: str) -> PasswordHash | None:
        """The stored hash of a (non-service) client, or None if it cannot log in."""
        client = self._clients.get(username)
        return None if client is None else client.password

    def client_id_allowed(self, username: str, client_id: str | None) -> bool:
        """False if the account is bound to another client id (dynsec ``clientid``)."""
        client = self._clients.get(username)
        return client is None or client.client_id is None or client.client_id == client_id

    def authenticate(self, username: str, password: str) -> bool:
        """Blocking check of any account (services first, then stored clients)."""
        if self.is_service(username):
            return self.check_service(username, password)
        stored = self.password_hash(username)
        return stored is not None and stored.verify(password)

    def usernames(self) -> list[str]:
        return sorted(self._clients)

    # ------------------------------------------------------------------ access
    def _entries(self, username: str | None) -> Iterable[AclEntry]:
        if username is None:
            return
        if self.is_service(username):
            yield from self._service_acls
            return
        client = self._clients.get(username)
        if client is None:
            return
        # Mosquitto's order: higher role priority first, then higher ACL priority first.
        for rolename, _ in sorted(client.roles.items(), key=lambda item: -item[1]):
            role = self._roles.get(rolename)
            if role is not None:
                yield from sorted(role.acls, key=lambda entry: -entry.priority)

    def _decide(self, username: str | None, applies: Callable[[AclEntry], bool]) -> bool:
        for entry in self._entries(username):
            if applies(entry):
                return entry.allow
        return False  # default: deny publish, receive and subscribe

    def may_publish(self, username: str | None, topic: str) -> bool:
        return self._decide(username, lambda e: e.acltype == SEND and topic_matches(e.topic, topic))

    def may_receive(self, username: str | None, topic: str) -> bool:
        return self._decide(
            username, lambda e: e.acltype == RECEIVE and topic_matches(e.topic, topic)
        )

    def may_subscribe(self, username: str | None, topic_filter: str) -> bool:
        """Allowed only if every topic the filter can match is granted (never widened)."""

        def applies(entry: AclEntry) -> bool:
            if entry.acltype == SUBSCRIBE_LITERAL:
                return entry.topic == topic_filter
            if entry.acltype != SUBSCRIBE_PATTERN:
                return False
            if entry.allow:
                return filter_covers(entry.topic, topic_filter)
            return filters_intersect(entry.topic, topic_filter)

        return is_valid_filter(topic_filter) and self._decide(username, applies)

    # ------------------------------------------------------------------ commands
    def execute(
        self,
        payload: bytes,
        hashes: dict[str, PasswordHash] | None = None,
        save: bool = True,
    ) -> ControlResult:
        """Run one control message; answer in Mosquitto's response format.

        ``hashes`` (from ``prehash``) spares the caller's thread the slow hashing;
        ``save=False`` leaves writing the file to the caller (``saved_text``/``write``).
        """
        self._hashes = hashes or {}
        disconnect: set[str] = set()
        try:
            message = json.loads(payload)
            commands = message["commands"]
            if not isinstance(commands, list):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            response = {"command": "Unknown command", "error": "Payload not valid JSON"}
            return ControlResult(_encode([response]), frozenset())
        responses: list[dict[str, Any]] = []
        changed = False
        for command in commands:
            name = command.get("command") if isinstance(command, dict) else None
            reply: dict[str, Any] = {"command": name if isinstance(name, str) else "Unknown"}
            try:
                handler = self._COMMANDS.get(name) if isinstance(name, str) else None
                if handler is None:
                    raise CommandError("Unknown command")
                disconnect.update(handler(self, command))
                changed = True
            except CommandError as error:
                reply["error"] = str(error)
            if isinstance(command, dict) and isinstance(command.get("correlationData"), str):
                reply["correlationData"] = command["correlationData"]
            responses.append(reply)
        self._hashes = {}
        if changed and save:
            self._save()
        return ControlResult(_encode(responses), frozenset(disconnect))

    @staticmethod
    def prehash(payload: bytes) -> dict[str, PasswordHash]:
        """The hashes of the passwords a control message sets (slow: call it in a thread)."""
        try:
            commands = json.loads(payload)["commands"]
        except (ValueError, KeyError, TypeError):
            return {}
        hashes: dict[str, PasswordHash] = {}
        for command in commands if isinstance(commands, list) else []:
            password = command.get("password") if isinstance(command, dict) else None
            if isinstance(password, str) and password and password not in hashes:
                hashes[password] = PasswordHash.make(password)
        return hashes

    def _hash(self, password: str) -> PasswordHash:
        return self._hashes.get(password) or PasswordHash.make(password)

    def _client(self, command: dict[str, Any]) -> _Client:
        client = self._clients.get(_name(command, "username"))
        if client is None:
            raise CommandError("Client not found")
        return client

    def _role(self, command: dict[str, Any]) -> _Role:
        role = self._roles.get(_name(command, "rolename"))
        if role is None:
            raise CommandError("Role not found")
        return role

    def _create_client(self, command: dict[str, Any]) -> set[str]:
        username = _name(command, "username")
        if username in self._clients or self.is_service(username):
            raise CommandError("Client already exists")
        if command.get("groups"):
            raise CommandError("Groups are not supported")
        client_id = command.get("clientid") or None
        if client_id is not None and not isinstance(client_id, str):
            raise CommandError("Invalid/missing client id")
        roles: dict[str, int] = {}
        for item in command.get("roles") or []:
            rolename = _name(item, "rolename") if isinstance(item, dict) else ""
            if rolename not in self._roles:
                raise CommandError("Role not found")
            roles[rolename] = _int(item, "priority", ROLE_PRIORITY)
        password = command.get("password")
        if password is not None and not isinstance(password, str):
            raise CommandError("Invalid/missing password")
        textname = command.get("textname")
        self._clients[username] = _Client(
            username,
            self._hash(password) if password else None,
            roles,
            textname if isinstance(textname, str) else "",
            client_id,
        )
        return set()

    def _delete_client(self, command: dict[str, Any]) -> set[str]:
        client = self._client(command)
        del self._clients[client.username]
        return {client.username}

    def _set_client_password(self, command: dict[str, Any]) -> set[str]:
        client = self._client(command)
        password = command.get("password")
        if not isinstance(password, str) or not password:
            raise CommandError("Invalid/missing password")
        client.password = self._hash(password)
        return {client.username}

    def _create_role(self, command: dict[str, Any]) -> set[str]:
        rolename = _name(command, "rolename")
        if rolename in self._roles:
            raise CommandError("Role already exists")
        acls = [AclEntry.from_json(item) for item in command.get("acls") or []]
        self._roles[rolename] = _Role(rolename, acls)
        return set()

    def _delete_role(self, command: dict[str, Any]) -> set[str]:
        role = self._role(command)
        del self._roles[role.rolename]
        for client in self._clients.values():
            client.roles.pop(role.rolename, None)
        return set()

    def _add_role_acl(self, command: dict[str, Any]) -> set[str]:
        role = self._role(command)
        entry = AclEntry.from_json(command)
        if any(e.acltype == entry.acltype and e.topic == entry.topic for e in role.acls):
            raise CommandError("ACL with this topic already exists")
        role.acls.append(entry)
        return set()

    def _remove_role_acl(self, command: dict[str, Any]) -> set[str]:
        role = self._role(command)
        acltype, topic = command.get("acltype"), command.get("topic")
        kept = [e for e in role.acls if not (e.acltype == acltype and e.topic == topic)]
        if len(kept) == len(role.acls):
            raise CommandError("ACL not found")
        role.acls = kept
        return set()

    def _add_client_role(self, command: dict[str, Any]) -> set[str]:
        client, role = self._client(command), self._role(command)
        client.roles[role.rolename] = _int(command, "priority", ROLE_PRIORITY)
        return set()

    def _remove_client_role(self, command: dict[str, Any]) -> set[str]:
        client, role = self._client(command), self._role(command)
        if client.roles.pop(role.rolename, None) is None:
            raise CommandError("Client does not have this role")
        return set()

    _COMMANDS: ClassVar[dict[str, Callable[[AccountStore, dict[str, Any]], set[str]]]] = {
        "createClient": _create_client,
        "deleteClient": _delete_client,
        "setClientPassword": _set_client_password,
        "createRole": _create_role,
        "deleteRole": _delete_role,
        "addRoleACL": _add_role_acl,
        "removeRoleACL": _remove_role_acl,
        "addClientRole": _add_client_role,
        "removeClientRole": _remove_client_role,
    }

    # ------------------------------------------------------------------ file
    def _save(self) -> None:
        text = self.saved_text()
        if text is not None:
            self.write(text)

    def write(self, text: str) -> None:
        """Replace the accounts file with ``text`` (from ``saved_text``); fsynced."""
        if self._path is not None:
            _write_private(self._path, text)

    def saved_text(self) -> str | None:
        """What the accounts file holds now (None without a file)."""
        if self._path is None:
            return None
        document = {
            "version": FILE_VERSION,
            "clients": [
                {
                    "username": c.username,
                    "textname": c.textname,
                    "password": None if c.password is None else c.password.to_json(),
                    "roles": [{"rolename": r, "priority": p} for r, p in c.roles.items()],
                    "clientid": c.client_id,
                }
                for c in self._clients.values()
            ],
            "roles": [
                {"rolename": r.rolename, "acls": [e.to_json() for e in r.acls]}
                for r in self._roles.values()
            ],
        }
        return json.dumps(document, indent=1, sort_keys=True) + "\n"

    def _load(self, path: Path) -> None:
        document = json.loads(path.read_text("utf-8"))
        if document.get("version") != FILE_VERSION:
            raise ValueError(f"{path}: unknown accounts file version")
        for item in document.get("roles", []):
            acls = [AclEntry.from_json(entry) for entry in item.get("acls", [])]
            self._roles[item["rolename"]] = _Role(item["rolename"], acls)
        for item in document.get("clients", []):
            password = item.get("password")
            self._clients[item["username"]] = _Client(
                item["username"],
                None if password is None else PasswordHash.from_json(password),
                {r["rolename"]: int(r.get("priority", ROLE_PRIORITY)) for r in item["roles"]},
                item.get("textname", ""),
                item.get("clientid"),
            )


def _write_private(path: Path, text: str) -> None:
    """Replace ``path`` atomically with a file only its owner can read."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        temporary.replace(path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
        raise


def _encode(responses: list[dict[str, Any]]) -> bytes:
    return json.dumps({"responses": responses}, separators=(",", ":")).encode("utf-8")


def _name(command: dict[str, Any], key: str) -> str:
    value = command.get(key)
    if not isinstance(value, str) or not value:
        raise CommandError(f"Invalid/missing {key}")
    return value


def _int(data: dict[str, Any], key: str, default: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise CommandError(f"Invalid {key}")
    return value


def _bool(data: dict[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise CommandError(f"Invalid {key}")
    return value
