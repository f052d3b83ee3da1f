"""The web service's own MQTT connection, made on first use.

Pages and unit tests that never create or join a table never open it, so the app can be
created (and its pages served) with no broker running.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from typing import Any

from services.mqtt import BrokerUrl, MqttClient, MqttError
from services.web.lobby import LobbyUnavailableError, MqttLobby
from services.web.settings import SERVICE_NAME, WebSettings

log = logging.getLogger("gamenight.web")


def broker_address(settings: WebSettings) -> BrokerUrl:
    """The broker URL with the service account's credentials (the URL's own win if given)."""
    url = BrokerUrl.parse(settings.broker_url)
    if url.username is None and settings.username:
        url = url.with_credentials(settings.username, settings.password)
    return url


STATUS_WAIT = 1.0  # seconds the first page's config waits for the tables service's status


class LazyMqttLobby:
    """A ``Lobby`` that connects as the service account the first time it is asked."""

    def __init__(self, settings: WebSettings) -> None:
        self._settings = settings
        self._lock = threading.Lock()
        self._lobby: MqttLobby | None = None
        self._client: MqttClient | None = None
        self._status_awaited = False

    def _connect(self) -> MqttLobby:
        client = MqttClient(broker_address(self._settings), service=SERVICE_NAME)
        lobby = MqttLobby(client, timeout=self._settings.request_timeout)
        client.start()
        try:
            client.wait_connected(timeout=self._settings.request_timeout)
        except (MqttError, TimeoutError) as problem:
            log.warning("no broker link: %s", problem)
            client.stop()
            raise LobbyUnavailableError() from None
        self._client = client
        return lobby

    def _connected(self) -> MqttLobby:
        with self._lock:
            if self._lobby is None:
                self._lobby = self._connect()
            return self._lobby

    def request(self, op: str, message: Mapping[str, Any]) -> dict[str, Any]:
        return self._connected().request(op, message)

    def peek(self, table: str, wait: float = 1.0) -> dict[str, Any] | None:
        """A table's public summary (see ``MqttLobby.peek``)."""
        return self._connected().peek(table, wait)

    @property
    def intent_qos(self) -> int:
        """The QoS the tables service asks intents at, for a page's config; 1 until the
        lobby has connected (a page's config never waits for the broker). The first page
        after that waits a moment for the service's retained status, which comes just
        after the connection: a phone joining the first table sends at the right QoS."""
        with self._lock:
            lobby = self._lobby
            first = lobby is not None and not self._status_awaited
            # Once: a service that is down costs no page a wait.
            self._status_awaited = self._status_awaited or first
        if lobby is None:
            return 1
        if first:
            lobby.status_heard.wait(STATUS_WAIT)  # outside the lock: requests go on
        return lobby.intent_qos

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.stop()
            self._client, self._lobby = None, None
            self._status_awaited = False
