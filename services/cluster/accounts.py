"""Player and TV accounts on the NATS cluster: the ``Accounts`` of the tables service.

``provision`` writes the account (password hash, grants, client id) into the replicated
``gamenight_accounts`` bucket that the callout responders read at every login
(``services/cluster/callout.py``); ``revoke`` deletes it. Both also close the account's
open connections on every node (the system account's ``CONNZ`` and ``KICK`` requests), as
Mosquitto does when a dynsec client is deleted, so a revoked phone cannot keep reading.

Any copy of the tables service may call them: nothing is kept in the process. The calls
block (their own asyncio loop runs in a thread), so they are safe from a message handler.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Coroutine, Sequence
from typing import Any, Self, TypeVar

from nats.aio.client import Client as Nats
from nats.js.errors import KeyNotFoundError
from nats.js.kv import KeyValue

from protocol.topics import Grants
from services.broker.accounts import AccountError, _check_username
from services.broker.credentials import ServiceCredentials
from services.cluster.callout import AccountRecord, accounts_bucket, connect, replicas_for
from services.cluster.natsconf import SYSTEM_USER, cluster_credentials

log = logging.getLogger("gamenight.cluster.accounts")
T = TypeVar("T")
CALL_TIMEOUT = 10.0
CONNZ_SUBJECT = "$SYS.REQ.SERVER.PING.CONNZ"
KICK_SUBJECT = "$SYS.REQ.SERVER.{server_id}.KICK"
# How long to wait for the nodes' CONNZ answers once no more are expected to come quickly.
CONNZ_WINDOW = 0.5


class NatsAccounts:
    """Provisions and revokes accounts on the cluster; see the module docstring."""

    def __init__(self, nats_urls: Sequence[str], credentials: ServiceCredentials) -> None:
        self.nats_urls = list(nats_urls)
        self.credentials = cluster_credentials(credentials)
        self._loop = asyncio.new_event_loop()
        self._thread: threading.Thread | None = None
        self._app: Nats | None = None
        self._system: Nats | None = None
        self._kv: KeyValue | None = None

    def start(self) -> Self:
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._loop.run_forever, name="nats-accounts", daemon=True
            )
            self._thread.start()
            try:
                self._run(self._connect())
            except BaseException:
                self.stop()
                raise
        return self

    def stop(self) -> None:
        if self._thread is None:
            return
        try:
            self._run(self._close(), timeout=5.0)
        except (AccountError, TimeoutError):
            log.debug("closing the NATS connections failed", exc_info=True)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5.0)
        self._thread = None
        self._loop.close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # ------------------------------------------------------------------ the Accounts protocol
    def provision(
        self, username: str, password: str, grants: Grants, client_id: str | None = None
    ) -> None:
        """Create or replace account ``username`` (a replaced one's connections are closed)."""
        _check_username(username)
        if not password:
            raise ValueError("an account needs a password")
        record = AccountRecord.make(password, grants, client_id)
        self._run(self._provision(username, record))

    def revoke(self, username: str) -> None:
        """Remove account ``username`` and close its connections on every node."""
        _check_username(username)
        self._run(self._revoke(username))

    # ------------------------------------------------------------------ in the loop
    def _run(self, coroutine: Coroutine[Any, Any, T], timeout: float = CALL_TIMEOUT) -> T:
        if self._thread is None:
            coroutine.close()
            raise AccountError("NatsAccounts is not started")
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        try:
            return future.result(timeout)
        except TimeoutError as error:
            future.cancel()
            raise AccountError(f"no answer from the cluster within {timeout} s") from error
        except AccountError:
            raise
        except Exception as error:
            raise AccountError(f"account command failed: {error}") from error

    async def _connect(self) -> None:
        tables_password = self.credentials.password("tables")
        self._app = await connect(self.nats_urls, "tables", tables_password, "gamenight-accounts")
        self._kv = await accounts_bucket(self._app.jetstream(), replicas_for(self.nats_urls))
        system_password = self.credentials.password(SYSTEM_USER)
        self._system = await connect(
            self.nats_urls, SYSTEM_USER, system_password, "gamenight-accounts-system"
        )

    async def _close(self) -> None:
        for connection in (self._app, self._system):
            if connection is not None:
                await connection.close()
        self._app = self._system = None

    async def _provision(self, username: str, record: AccountRecord) -> None:
        assert self._kv is not None
        existed = await self._exists(username)
        await self._kv.put(username, record.to_bytes())
        if existed:
            await self._disconnect(username)

    async def _revoke(self, username: str) -> None:
        assert self._kv is not None
        if await self._exists(username):
            await self._kv.delete(username)
        await self._disconnect(username)

    async def _exists(self, username: str) -> bool:
        assert self._kv is not None
        try:
            entry = await self._kv.get(username)
        except KeyNotFoundError:
            return False
        return bool(entry.value)

    async def _disconnect(self, username: str) -> None:
        """Close every open connection of ``username`` on every node that answers."""
        assert self._system is not None
        system = self._system
        inbox = system.new_inbox()
        answers: asyncio.Queue[bytes] = asyncio.Queue()

        async def collect(msg: Any) -> None:
            await answers.put(msg.data)

        subscription = await system.subscribe(inbox, cb=collect)
        request = {"user": username, "state": 0, "limit": 1024}  # state 0: open connections
        await system.publish(CONNZ_SUBJECT, json.dumps(request).encode(), reply=inbox)
        # Every node the connection knows answers; a dead one never will, hence the window.
        expected = max(1, len(system.servers))
        kicks: list[tuple[str, int]] = []
        loop = asyncio.get_running_loop()
        deadline = loop.time() + CONNZ_WINDOW
        received = 0
        while received < expected and loop.time() < deadline:
            try:
                data = await asyncio.wait_for(answers.get(), deadline - loop.time())
            except TimeoutError:
                break
            received += 1
            answer = json.loads(data)
            server_id = answer.get("server", {}).get("id")
            for conn in (answer.get("data") or {}).get("connections") or []:
                kicks.append((server_id, int(conn["cid"])))
        await subscription.unsubscribe()
        for server_id, cid in kicks:
            subject = KICK_SUBJECT.format(server_id=server_id)
            try:
                await system.request(subject, json.dumps({"cid": cid}).encode(), timeout=2.0)
            except Exception:  # the client left by itself, or its node just died
                log.info("could not close connection %s of %s on %s", cid, username, server_id)
