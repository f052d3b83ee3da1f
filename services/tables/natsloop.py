"""One NATS connection driven by an asyncio loop of its own, for synchronous callers.

The tables service is synchronous (it runs in the MQTT client's thread); nats-py is
asyncio. ``NatsLoop.run`` hands a coroutine to the loop's thread and waits for it, so
every caller (MQTT thread, lobby worker, lease keeper) shares one connection.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

import nats
from nats.aio.client import Client
from nats.js import JetStreamContext

from services.tables.store import StoreUnavailableError

T = TypeVar("T")
log = logging.getLogger("gamenight.tables")


class NatsUnavailableError(StoreUnavailableError):
    """NATS did not answer in time (a node down, the cluster electing a leader...)."""


class NatsLoop:
    """A connection to NATS, its JetStream context, and the thread that runs them."""

    def __init__(
        self,
        urls: list[str],
        user: str | None = None,
        password: str | None = None,
        timeout: float = 5.0,
    ) -> None:
        self.urls = urls
        self.timeout = timeout
        self._user, self._password = user, password
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="nats", daemon=True)
        self._nc: Client | None = None
        self._js: JetStreamContext | None = None

    @property
    def js(self) -> JetStreamContext:
        assert self._js is not None, "start() first"
        return self._js

    def start(self) -> NatsLoop:
        self._thread.start()
        self.run(self._connect())
        return self

    async def _connect(self) -> None:
        options: dict[str, Any] = {
            "servers": self.urls,
            "connect_timeout": self.timeout,
            "max_reconnect_attempts": -1,  # a node that dies: go on with another, forever
            "reconnect_time_wait": 0.2,
            "allow_reconnect": True,
            "error_cb": self._on_error,
            "reconnected_cb": self._on_reconnected,
        }
        if self._user is not None:
            options["user"], options["password"] = self._user, self._password
        self._nc = await nats.connect(**options)
        self._js = self._nc.jetstream(timeout=self.timeout)

    async def _on_error(self, error: Exception) -> None:
        log.warning("NATS: %s", error or type(error).__name__)  # a node down: we reconnect

    async def _on_reconnected(self) -> None:
        assert self._nc is not None
        log.info("NATS: reconnected to %s", self._nc.connected_url)

    def run(self, coroutine: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        """Run ``coroutine`` on the loop and return its result (its exception raised here)."""
        future = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        try:
            return future.result(self.timeout * 2 if timeout is None else timeout)
        except (concurrent.futures.TimeoutError, TimeoutError, nats.errors.TimeoutError):
            future.cancel()
            raise NatsUnavailableError("NATS did not answer in time") from None
        except (nats.errors.NoRespondersError, nats.errors.ConnectionClosedError) as error:
            raise NatsUnavailableError(str(error)) from None

    def stop(self) -> None:
        if self._nc is not None:
            with contextlib.suppress(Exception):  # closing a connection to a cluster gone
                self.run(self._nc.close(), timeout=self.timeout)
            self._nc = None
        if self._thread.is_alive():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(timeout=5)
        if not self._thread.is_alive() and not self.loop.is_closed():
            self.loop.close()
