"""Intents go at the QoS the tables service's status asks (``services.delivery``)."""

from __future__ import annotations

from collections.abc import Callable

from protocol import topics
from services.delivery import Deliveries
from services.wire import encode

Handler = Callable[[str, bytes], None]
INTENT = topics.seat_topic("K7Q2", 1, "intent")
STATUS = topics.service_status("tables")


class RecordingClient:
    """The part of ``MqttClient`` that ``Deliveries`` uses, recording each publish's QoS."""

    def __init__(self) -> None:
        self.handlers: dict[str, Handler] = {}
        self.published: list[tuple[str, int]] = []

    def add_connected_hook(self, hook: Callable[[], None]) -> None:
        pass

    def subscribe(self, topic_filter: str, handler: Handler, qos: int = 1) -> None:
        self.handlers[topic_filter] = handler

    def publish(self, topic: str, payload: bytes, qos: int = 1, retain: bool = False) -> None:
        self.published.append((topic, qos))


def status(**details: object) -> bytes:
    return encode("service_status", {"v": 1, "service": "tables", "online": True, **details})


def test_intents_follow_the_qos_the_tables_service_asks() -> None:
    client = RecordingClient()
    deliveries = Deliveries(client, resend_after=3600)  # type: ignore[arg-type]
    try:
        deliveries.send(INTENT, {"v": 1, "id": "a-1", "op": "sync"})
        assert client.published == [(INTENT, 1)]  # no status yet: QoS 1
        client.handlers[STATUS](STATUS, status(intent_qos=0))  # a NATS cluster's service
        # "online" sends what is unanswered again, now at QoS 0; so are new intents.
        deliveries.send(INTENT, {"v": 1, "id": "a-2", "op": "sync"})
        assert client.published[1:] == [(INTENT, 0), (INTENT, 0)]
        client.handlers[STATUS](STATUS, b"{broken")  # ignored: nothing sent, QoS kept
        assert len(client.published) == 3 and deliveries.qos == 0
        client.handlers[STATUS](STATUS, status())  # one machine's service: QoS 1 again
        assert deliveries.qos == 1
        assert set(client.published[3:]) == {(INTENT, 1)}
    finally:
        deliveries.stop()
