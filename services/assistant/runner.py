"""The assistant service: every seat's ``say`` topic in, that seat's intent or reply out.

It keeps the newest view of every seat as received (decoded only when that seat speaks),
so it knows the hand and legal actions a line is read against. A line that names an action
becomes the seat's intent, under the line's own id: the tables service answers it on the
seat's reply topic, refusals included. Answers and "not understood" go there too, coded.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Self

from protocol import topics
from protocol.messages import ProtocolError, act_intent
from services.assistant.understand import Act, Answer, understand
from services.delivery import Deliveries
from services.mqtt import BrokerUrl, MqttClient
from services.wire import decode, encode

log = logging.getLogger("gamenight.assistant")
ALL_SEAT_VIEWS = f"{topics.BASE}/table/+/seat/+/view"


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

    def start(self, timeout: float = 10.0) -> Self:
        self.client.subscribe(ALL_SEAT_VIEWS, self._on_view, qos=1)
        self.client.subscribe(topics.ALL_SEAT_SAYS, self._on_say, qos=1)
        self.client.start()
        self.client.wait_connected(timeout)
        return self

    def stop(self) -> None:
        self.deliveries.stop()
        self.client.stop()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _on_view(self, topic: str, payload: bytes) -> None:
        parsed = topics.parse_topic(topic)
        if parsed is None or parsed.table is None or parsed.seat is None:
            return
        with self._lock:
            self._views[(parsed.table, parsed.seat)] = payload

    def _on_say(self, topic: str, payload: bytes) -> None:
        parsed = topics.parse_topic(topic)
        if parsed is None or parsed.table is None or parsed.seat is None:
            return
        reply_topic = topics.seat_topic(parsed.table, parsed.seat, "reply")
        try:
            said = decode("say", payload)
        except ProtocolError as error:
            self._reply(reply_topic, _error("-", error.code, error.params))
            return
        view = self._view(parsed.table, parsed.seat)
        state = view.get("state") if view else None
        understood = understand(str(said["text"]), state)
        if isinstance(understood, Act) and view is not None and "player" in view:
            intent = act_intent(said["id"], view["seq"], view["player"], understood.action)
            intent_topic = topics.seat_topic(parsed.table, parsed.seat, "intent")
            self.deliveries.send(intent_topic, intent)
        elif isinstance(understood, Answer):
            data = {"answer": understood.code, "params": understood.params}
            self._reply(reply_topic, {"v": 1, "id": said["id"], "status": "ok", "data": data})
        elif isinstance(understood, Act):
            self._reply(reply_topic, _error(said["id"], "no_game_yet", {}))
        else:
            self._reply(reply_topic, _error(said["id"], understood.code, understood.params))

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


def _error(reply_id: str, code: str, params: Any) -> dict[str, Any]:
    return {
        "v": 1,
        "id": reply_id,
        "status": "error",
        "error": {"code": code, "params": dict(params)},
    }
