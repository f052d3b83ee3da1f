"""What a handler publishes leaves its client in one write, whole and in order (``_Paho``)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from protocol.topics import BASE, seat_topic
from services.broker.settings import BrokerEndpoint
from services.mqtt import MqttClient

Factory = Callable[..., Any]
WAIT = 5.0


class CountedSends:
    """Wraps a client's socket writes: counts them, and can make each one short."""

    def __init__(self, client: MqttClient, most: int | None = None) -> None:
        self.paho = client._paho
        self.original = self.paho._sock_send
        self.most = most  # at most this many bytes taken per write (a socket nearly full)
        self.writes: list[int] = []
        self.paho._sock_send = self._send  # type: ignore[method-assign,assignment]

    def _send(self, data: bytes | bytearray) -> int:
        if self.most is not None:
            data = data[: self.most]
        written = self.original(data)
        self.writes.append(written)
        return int(written)


class CountedWakes:
    """Stands for paho's socket pair writer: counts the bytes that wake its loop."""

    def __init__(self, client: MqttClient) -> None:
        self.paho = client._paho
        self.real = self.paho._sockpairW
        self.count = 0
        self.paho._sockpairW = self  # type: ignore[assignment]

    def send(self, data: bytes) -> int:
        self.count += 1
        assert self.real is not None
        return self.real.send(data)

    def close(self) -> None:
        assert self.real is not None
        self.real.close()


def _views(code: str) -> list[tuple[str, bytes, int]]:
    """What the handler publishes for one intent: QoS 0 and QoS 1, several topics."""
    return [
        (seat_topic(code, seat % 3, "view" if seat % 2 else "reply"), f"m{seat}".encode(), seat % 2)
        for seat in range(8)
    ]


def test_a_handlers_publishes_go_out_in_one_write(
    broker: BrokerEndpoint, mqtt_client: Factory, mqtt_recorder: Factory, table_code: str
) -> None:
    # paho wrote each packet by itself and woke its own loop with a byte per publish:
    # 9 writes and 8 wakes for this handler (most of the tables service's cost per move).
    messages = _views(table_code)
    recorder = mqtt_recorder(broker.service_url("tables"), [f"{BASE}/table/{table_code}/#"])
    intent = seat_topic(table_code, 0, "intent")
    service: MqttClient | None = None
    during: list[int] = []

    def handler(topic: str, payload: bytes) -> None:
        assert service is not None
        during.append(len(sends.writes))
        for topic_out, body, qos in messages:
            service.publish(topic_out, body, qos)

    service = mqtt_client(broker.service_url("tables"), {intent: handler})
    sends, wakes = CountedSends(service), CountedWakes(service)
    recorder.client.publish(intent, b"{}", 1)
    for topic_out, body, _ in messages:
        recorder.wait_for(topic_out, body)
    assert [m for m in recorder.messages if m[0] != intent] == [(t, b) for t, b, _ in messages]
    assert wakes.count == 0
    # The handler's eight messages in one write (the intent's PUBACK may follow in another).
    assert len(sends.writes) - during[0] <= 2


def test_a_joined_write_cut_short_still_delivers_everything_once(
    broker: BrokerEndpoint, mqtt_client: Factory, mqtt_recorder: Factory, table_code: str
) -> None:
    messages = [(t, b * 700, q) for t, b, q in _views(table_code)]  # ~2 KB each
    recorder = mqtt_recorder(broker.service_url("tables"), [f"{BASE}/table/{table_code}/#"])
    intent = seat_topic(table_code, 0, "intent")
    service: MqttClient | None = None
    infos: list[Any] = []
    handled = threading.Event()

    def handler(topic: str, payload: bytes) -> None:
        assert service is not None
        for topic_out, body, qos in messages:
            infos.append(service._paho.publish(topic_out, body, qos))
        handled.set()

    service = mqtt_client(broker.service_url("tables"), {intent: handler})
    sends = CountedSends(service, most=1000)
    recorder.client.publish(intent, b"{}", 1)
    assert handled.wait(WAIT)
    for topic_out, body, _ in messages:
        recorder.wait_for(topic_out, body)
    received = [m for m in recorder.messages if m[0] != intent]
    assert received == [(t, b) for t, b, _ in messages]
    assert max(sends.writes) <= 1000
    for info in infos:  # QoS 0 marked published once written, QoS 1 once acknowledged
        info.wait_for_publish(WAIT)
        assert info.is_published()


def test_a_client_stopped_while_a_handler_publishes_still_stops(
    broker: BrokerEndpoint, mqtt_client: Factory, table_code: str
) -> None:
    # Writing the queue from inside the handler once wrote the DISCONNECT that stop()
    # had queued meanwhile, and paho ran on_disconnect under the lock the handler held.
    intent = seat_topic(table_code, 0, "intent")
    inside, release = threading.Event(), threading.Event()
    client: MqttClient | None = None

    def handler(topic: str, payload: bytes) -> None:
        assert client is not None
        client.publish(seat_topic(table_code, 0, "view"), b"before", 0)
        inside.set()
        release.wait(WAIT)
        client.publish(seat_topic(table_code, 0, "view"), b"after", 0)

    client = MqttClient(broker.service_url("tables"))
    client.subscribe(intent, handler)
    client.start().wait_connected(WAIT)
    sender = mqtt_client(broker.service_url("tables"))
    sender.publish(intent, b"{}", 1)
    assert inside.wait(WAIT)
    stopping = threading.Thread(target=client.stop, daemon=True)
    stopping.start()
    time.sleep(0.3)  # stop() has queued its DISCONNECT and waits for the network thread
    release.set()
    stopping.join(WAIT)
    assert not stopping.is_alive(), "stop() hung behind the handler"
