"""The assistant service: every seat's ``say`` topic in, that seat's intent or reply out.

It keeps the newest view of every seat as received (decoded only when that seat speaks),
so it knows the hand and legal actions a line is read against. Where views are not
retained (the NATS tier), a seat it has no view of yet (it was restarted, the table is
quiet) is asked for one, and its line waits for it, ``VIEW_WAIT_SECONDS`` at most.

A line that names an action becomes the seat's intent, under the line's own id: the tables
service answers it on the seat's reply topic, refusals included. Answers and "not
understood" go there too, coded.
"""

from __future__ import annotations

import logging
import threading
import uuid
from typing import Any, Self

from protocol import topics
from protocol.messages import ProtocolError
from services.assistant.respond import error_reply, respond
from services.assistant.similar import default_model
from services.assistant.speech.listener import VoiceListener
from services.delivery import Deliveries
from services.mqtt import BrokerUrl, MqttClient
from services.wire import decode, encode

log = logging.getLogger("gamenight.assistant")
ALL_SEAT_VIEWS = f"{topics.BASE}/table/+/seat/+/view"
ALL_TABLE_VIEWS = f"{topics.BASE}/table/+/view"
VIEW_WAIT_SECONDS = 3.0  # a line of a seat not yet seen waits this long for its view


class AssistantRunner:
    """Reads what seats say and acts or answers for them."""

    def __init__(self, broker: str | BrokerUrl) -> None:
        self.url = broker if isinstance(broker, BrokerUrl) else BrokerUrl.parse(broker)
        # A line left retained by a player would be read again at every reconnection.
        self.client = MqttClient(
            self.url, service="assistant", clear_retained=lambda topic: topic.endswith("/say")
        )
        self.deliveries = Deliveries(self.client)  # each intent kept until answered
        self._lock = threading.Lock()
        self._views: dict[tuple[str, int], bytes] = {}
        self._tables: dict[str, bytes] = {}  # the newest public view of each table
        # Lines of seats whose view was asked for: (table, seat) -> lines, oldest first.
        self._waiting: dict[tuple[str, int], list[dict[str, Any]]] = {}
        self._viewless: set[tuple[str, int]] = set()  # asked, and no view came in time
        self.voice = VoiceListener(self._view, self._reply, self._handle_line)

    def start(self, timeout: float = 10.0) -> Self:
        self.client.subscribe(ALL_SEAT_VIEWS, self._on_view, qos=1)
        self.client.subscribe(ALL_TABLE_VIEWS, self._on_table_view, qos=1)
        self.client.subscribe(topics.ALL_SEAT_SAYS, self._on_say, qos=1)
        self.client.subscribe(topics.ALL_SEAT_VOICES, self.voice.on_voice, qos=1)
        # The likeness's index takes a second or more to build: built now, beside the
        # connection, rather than by the first line that needs it.
        threading.Thread(target=default_model, name="assistant-likeness", daemon=True).start()
        self.voice.start(timeout)
        self.client.start()
        self.client.wait_connected(timeout)
        return self

    def stop(self) -> None:
        self.deliveries.stop()
        self.client.stop()
        self.voice.stop()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _on_view(self, topic: str, payload: bytes) -> None:
        parsed = topics.parse_topic(topic)
        if parsed is None or parsed.table is None or parsed.seat is None:
            return
        seat = (parsed.table, parsed.seat)
        with self._lock:
            self._views[seat] = payload
            self._viewless.discard(seat)
            waiting = self._waiting.pop(seat, [])
        for said in waiting:
            self._handle_line(*seat, said)

    def _on_table_view(self, topic: str, payload: bytes) -> None:
        """Keep the public view: "how many cards has Ana got?" needs the names."""
        parsed = topics.parse_topic(topic)
        if parsed is None or parsed.table is None or parsed.seat is not None:
            return
        with self._lock:
            self._tables[parsed.table] = payload

    def _on_say(self, topic: str, payload: bytes) -> None:
        parsed = topics.parse_topic(topic)
        if parsed is None or parsed.table is None or parsed.seat is None:
            return
        reply_topic = topics.seat_topic(parsed.table, parsed.seat, "reply")
        try:
            said = decode("say", payload)
        except ProtocolError as error:
            self._reply(reply_topic, error_reply("-", error.code, error.params))
            return
        self._handle_line(parsed.table, parsed.seat, said)

    def _handle_line(self, table: str, seat: int, said: dict[str, Any]) -> None:
        """One line of ``seat`` (a ``say`` message, typed or heard): its intent, or a reply."""
        view = self._view(table, seat)
        if view is None and self._wait_for_view(table, seat, said):
            return
        kind, message = respond(said, view, self._table_names(table))
        if kind == "intent":
            intent_topic = topics.seat_topic(table, seat, "intent")
            self.deliveries.send(intent_topic, message)
        else:
            self._reply(topics.seat_topic(table, seat, "reply"), message)

    def _wait_for_view(self, table: str, seat: int, said: dict[str, Any]) -> bool:
        """Ask for ``seat``'s view and keep the line until it comes; False: don't wait."""
        key = (table, seat)
        with self._lock:
            if key in self._views or key in self._viewless:
                return False  # a view came (undecodable?), or none came when asked
            waiting = self._waiting.setdefault(key, [])
            waiting.append(said)
            first = len(waiting) == 1
        if first:
            sync = {"v": 1, "id": uuid.uuid4().hex[:12], "op": "sync"}
            self.client.publish(topics.seat_topic(table, seat, "intent"), encode("intent", sync))
            timer = threading.Timer(VIEW_WAIT_SECONDS, self._no_view_came, (key,))
            timer.daemon = True
            timer.start()
        return True

    def _no_view_came(self, key: tuple[str, int]) -> None:
        """The lines are answered without a view (``no_game_yet`` and the like)."""
        with self._lock:
            waiting = self._waiting.pop(key, [])
            if waiting:
                self._viewless.add(key)
        for said in waiting:
            self._handle_line(*key, said)

    def _table_names(self, table: str) -> dict[int, str]:
        with self._lock:
            payload = self._tables.get(table)
        if payload is None:
            return {}
        try:
            view = decode("table_view", payload, limit=1 << 20)
        except ProtocolError:
            return {}
        return {int(p["seat"]): str(p["name"]) for p in view.get("players") or []}

    def _view(self, table: str, seat: int) -> dict[str, Any] | None:
        with self._lock:
            payload = self._views.get((table, seat))
        if payload is None:
            return None
        try:
            return decode("seat_view", payload, limit=1 << 20)
        except ProtocolError:
            return None

    def _reply(self, topic: str, reply: dict[str, Any]) -> None:
        self.client.publish(topic, encode("reply", reply), qos=1)


_error = error_reply  # the name this module used before respond.py
