"""Lobby requests to the tables service, over MQTT only.

A request is published on ``lobby/request/<op>`` with a fresh id; the tables service
answers on ``lobby/response/<op>`` echoing that id. Several web services may share the
broker: each one waits only for the ids it sent and ignores the rest.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Protocol

from protocol import PROTOCOL_VERSION
from protocol.messages import ProtocolError
from protocol.topics import BASE, LOBBY_OPS, lobby_request, lobby_response, service_status
from services.mqtt import intent_qos_asked
from services.wire import decode, encode

_REQUEST_KIND = {"create": "lobby_create", "join": "lobby_join", "claim": "lobby_claim"}


class LobbyError(Exception):
    """The tables service refused a request: its code and parameters."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code} {params}" if params else code)
        self.code = code
        self.params = params


class LobbyUnavailableError(LobbyError):
    """No answer in time: the broker or the tables service is down."""

    def __init__(self) -> None:
        super().__init__("tables_unavailable")


class Lobby(Protocol):
    """What the join API needs: one blocking request, its ``data`` or a ``LobbyError``."""

    def request(self, op: str, message: Mapping[str, Any]) -> dict[str, Any]: ...


def table_summary(view: Mapping[str, Any]) -> dict[str, Any]:
    """What a join page may show before a name is typed: public, no credentials in it."""
    return {
        "table": view["table"],
        "game": view["game"],
        "status": view["status"],
        "locked": bool(view.get("locked")),
        "players": [str(player.get("name", "")) for player in view.get("players", [])],
        "options": dict(view.get("options") or {}),
        "option_specs": list(view.get("option_specs") or []),
    }


class Transport(Protocol):
    """The little the lobby needs from an MQTT connection (see ``services.mqtt``)."""

    def subscribe(self, topic: str, handler: Callable[[str, bytes], None]) -> None: ...

    def publish(self, topic: str, payload: bytes, qos: int = 1, retain: bool = False) -> None: ...


def new_request_id() -> str:
    return "web-" + secrets.token_urlsafe(12)


class MqttLobby:
    """Lobby requests over an MQTT transport, matched to their responses by id."""

    def __init__(self, transport: Transport, timeout: float = 5.0) -> None:
        self._transport = transport
        self._timeout = timeout
        self._waiting: dict[str, Future[dict[str, Any]]] = {}
        self._lock = threading.Lock()
        # The public views (retained) tell a join page which game it joins, and whether
        # the table is locked, before the player types a name.
        self._summaries: dict[str, dict[str, Any]] = {}
        self._seen = threading.Condition(self._lock)
        # The QoS the pages send intents at, as the tables service's status asks (its
        # ``intent_qos``: 0 on a NATS cluster, where the pages' resends make delivery good).
        self.intent_qos = 1
        self.status_heard = threading.Event()
        for op in LOBBY_OPS:
            transport.subscribe(lobby_response(op), self._on_response)
        transport.subscribe(f"{BASE}/table/+/view", self._on_table_view)
        transport.subscribe(service_status("tables"), self._on_tables_status)

    def request(self, op: str, message: Mapping[str, Any]) -> dict[str, Any]:
        """Send one request and wait for its response; raise ``LobbyError`` if refused."""
        if op not in _REQUEST_KIND:
            raise ValueError(op)
        try:
            return self._request_once(op, message)
        except LobbyError as refused:
            # The table changed hands (copies of the tables service) while it was asked:
            # nothing was made, and its new owner answers the same request at once.
            if refused.code != "table_moved":
                raise
            return self._request_once(op, message)

    def _request_once(self, op: str, message: Mapping[str, Any]) -> dict[str, Any]:
        request_id = new_request_id()
        body = {"v": PROTOCOL_VERSION, "id": request_id, **message}
        try:
            payload = encode(_REQUEST_KIND[op], body)
        except ProtocolError as bad:
            raise LobbyError("bad_request", **bad.params) from None
        future: Future[dict[str, Any]] = Future()
        with self._lock:
            self._waiting[request_id] = future
        try:
            self._transport.publish(lobby_request(op), payload, qos=1)
            return future.result(timeout=self._timeout)
        except FutureTimeout:
            raise LobbyUnavailableError() from None
        finally:
            with self._lock:
                self._waiting.pop(request_id, None)

    def peek(self, table: str, wait: float = 1.0) -> dict[str, Any] | None:
        """The summary of ``table``'s newest public view, waiting up to ``wait`` s for one."""
        with self._seen:
            self._seen.wait_for(lambda: table in self._summaries, timeout=wait)
            known = self._summaries.get(table)
        if known is None:
            return None
        return {name: value for name, value in known.items() if name != "_order"}

    def _on_tables_status(self, topic: str, payload: bytes) -> None:
        asked = intent_qos_asked(payload)
        if asked is not None:
            self.intent_qos = asked
            self.status_heard.set()

    def _on_table_view(self, topic: str, payload: bytes) -> None:
        try:
            view = decode("table_view", payload)
        except ProtocolError:
            return
        with self._seen:
            known = self._summaries.get(view["table"])
            if known is None or known["_order"] <= (view["epoch"], view["seq"]):
                self._summaries[view["table"]] = {
                    **table_summary(view),
                    "_order": (view["epoch"], view["seq"]),
                }
                self._seen.notify_all()

    def _on_response(self, topic: str, payload: bytes) -> None:
        try:
            reply = decode("reply", payload)
        except ProtocolError:
            return  # not ours to judge: the tables service owns that topic
        with self._lock:
            future = self._waiting.get(reply["id"])
        if future is None or future.done():
            return
        if reply["status"] == "ok":
            future.set_result(dict(reply.get("data", {})))
        else:
            problem = reply["error"]
            future.set_exception(LobbyError(problem["code"], **problem["params"]))
