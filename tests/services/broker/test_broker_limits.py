"""What one client may cost a broker: packet size, idle sockets, connections, queues, retain."""

from __future__ import annotations

import socket
import struct
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect
from websockets.typing import Subprotocol

from protocol.topics import player_grants, seat_topic, table_events
from services.broker.accounts import BrokerAccounts
from services.broker.credentials import ServiceCredentials
from services.broker.embedded import EmbeddedBroker
from services.broker.limits import MAX_PACKET_BYTES, BrokerLimits
from services.broker.settings import Address, BrokerEndpoint, BrokerSettings
from services.mqtt import ConnectRefusedError, MqttClient

Factory = Callable[..., Any]


def _remaining_length(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value % 128, value // 128
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _connect_packet(client_id: str, username: str, password: str) -> bytes:
    def field(text: str) -> bytes:
        data = text.encode()
        return struct.pack("!H", len(data)) + data

    body = field("MQTT") + bytes([4, 0xC2]) + struct.pack("!H", 30)
    body += field(client_id) + field(username) + field(password)
    return bytes([0x10]) + _remaining_length(len(body)) + body


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the broker closes ``sock`` within ``seconds`` (reading whatever it sends)."""
    sock.settimeout(0.2)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if sock.recv(4096) == b"":
                return True
        except TimeoutError:
            continue
        except OSError:
            return True
    return False


@pytest.fixture
def strict_broker(service_credentials: ServiceCredentials) -> Iterator[BrokerEndpoint]:
    limits = BrokerLimits(
        max_queued_messages=5,
        max_queued_bytes=4000,
        connect_timeout=0.5,
        max_connections_per_address=3,
        cap_loopback=True,
        publish_burst=5,
        publish_rate=1.0,
    )
    settings = BrokerSettings(
        service_credentials, tcp=Address("127.0.0.1", 0), ws=Address("127.0.0.1", 0), limits=limits
    )
    with EmbeddedBroker(settings) as running:
        yield running.endpoint


def test_an_oversized_publish_closes_its_connection_and_reaches_nobody(
    broker: BrokerEndpoint, mqtt_recorder: Factory, table_code: str
) -> None:
    topic = table_events(table_code)
    watcher = mqtt_recorder(broker.service_url("web"), [topic])
    sock = socket.create_connection((broker.host, broker.tcp_port))
    sock.sendall(_connect_packet("big-sender", "bots", broker.credentials.password("bots")))
    assert sock.recv(4) == b"\x20\x02\x00\x00"  # CONNACK, accepted
    # A 10 MB publish announced; only its first bytes are sent: the broker must not wait
    # for (or buffer) the rest before closing.
    header = struct.pack("!H", len(topic)) + topic.encode()
    sock.sendall(bytes([0x30]) + _remaining_length(10_000_000 + len(header)) + header + b"0" * 1000)
    assert _closed_within(sock, 5.0)
    sock.close()
    small = mqtt_recorder(broker.service_url("bots")).client
    small.publish(topic, b"x" * (MAX_PACKET_BYTES // 2))
    small.publish(topic, b"marker")
    watcher.wait_for(topic, b"marker")
    assert [len(p) for p in watcher.payloads(topic)] == [MAX_PACKET_BYTES // 2, 6]


def test_a_socket_that_never_sends_connect_is_closed(strict_broker: BrokerEndpoint) -> None:
    with socket.create_connection((strict_broker.host, strict_broker.tcp_port)) as sock:
        assert _closed_within(sock, 5.0)
    url = f"ws://{strict_broker.host}:{strict_broker.ws_port}/mqtt"
    with (
        ws_connect(url, subprotocols=[Subprotocol("mqtt")]) as upgraded,
        pytest.raises(ConnectionClosed),
    ):
        upgraded.recv(timeout=5.0)


def test_connections_per_address_are_capped(strict_broker: BrokerEndpoint) -> None:
    address = (strict_broker.host, strict_broker.tcp_port)
    held = [socket.create_connection(address) for _ in range(3)]
    try:
        with socket.create_connection(address) as extra:
            assert _closed_within(extra, 0.4)  # at once, before any CONNECT timeout
    finally:
        for sock in held:
            sock.close()


def test_an_offline_queue_is_bounded_in_messages(
    strict_broker: BrokerEndpoint, mqtt_client: Factory, mqtt_recorder: Factory, table_code: str
) -> None:
    topic = table_events(table_code)
    got: list[bytes] = []
    url = strict_broker.service_url("tables")
    offline = mqtt_client(url, {topic: lambda _t, p: got.append(p)}, client_id="q", persistent=True)
    offline.stop()
    sender = mqtt_client(strict_broker.service_url("web"))
    live = mqtt_recorder(strict_broker.service_url("web"), [topic])
    for number in range(20):
        sender.publish_and_wait(topic, f"m{number}".encode())
    live.wait_for(topic, b"m19")  # every message has been handed out (or queued)
    time.sleep(0.2)
    mqtt_client(url, {topic: lambda _t, p: got.append(p)}, client_id="q", persistent=True)
    deadline = time.monotonic() + 3
    while len(got) < 5 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    assert got == [f"m{number}".encode() for number in range(5)]  # the first five, no more


def test_an_offline_queue_is_bounded_in_bytes(
    strict_broker: BrokerEndpoint, mqtt_client: Factory, mqtt_recorder: Factory, table_code: str
) -> None:
    topic = table_events(table_code)
    got: list[bytes] = []
    url = strict_broker.service_url("tables")
    offline = mqtt_client(url, {topic: lambda _t, p: got.append(p)}, client_id="b", persistent=True)
    offline.stop()
    sender = mqtt_client(strict_broker.service_url("web"))
    live = mqtt_recorder(strict_broker.service_url("web"), [topic])
    for _ in range(4):
        sender.publish_and_wait(topic, b"z" * 1500)
    sender.publish_and_wait(f"{topic}/end", b"end")
    time.sleep(0.3)  # every message handed out (or queued) before the client returns
    assert len(live.payloads(topic)) == 4
    mqtt_client(url, {topic: lambda _t, p: got.append(p)}, client_id="b", persistent=True)
    time.sleep(0.8)
    assert len(got) == 2  # 3 x 1,500 bytes would pass the 4,000-byte bound


@pytest.mark.mosquitto
def test_mosquitto_bounds_an_offline_queue_in_bytes(
    mosquitto_broker: BrokerEndpoint, mqtt_client: Factory, table_code: str
) -> None:
    topic = table_events(table_code)
    got: list[bytes] = []
    url = mosquitto_broker.service_url("tables")
    name = f"q-{table_code}"
    keep = {topic: lambda _t, p: got.append(p)}
    offline = mqtt_client(url, keep, client_id=name, persistent=True)
    offline.stop()
    sender = mqtt_client(mosquitto_broker.service_url("web"))
    for _ in range(50):  # 50 x 200 KB = 10 MB, over the 8 MiB bound
        sender.publish_and_wait(topic, b"z" * 200_000)
    sender.publish_and_wait(topic, b"end")
    mqtt_client(url, keep, client_id=name, persistent=True)
    time.sleep(1.5)
    assert 30 <= len(got) < 50


def test_a_player_cannot_leave_a_retained_intent(
    embedded_broker: BrokerEndpoint, mqtt_recorder: Factory, table_code: str
) -> None:
    with BrokerAccounts.connect(embedded_broker.service_url("web")) as accounts:
        accounts.provision("u-retain", "pw-retain", player_grants(table_code, 0))
    player = MqttClient(embedded_broker.url("u-retain", "pw-retain")).start()
    try:
        player.wait_connected(5)
        intent = seat_topic(table_code, 0, "intent")
        presence = seat_topic(table_code, 0, "presence")
        player.publish_and_wait(intent, b'{"v":1}', retain=True)
        player.publish_and_wait(presence, b'{"v":1,"online":true}', retain=True)
    finally:
        player.stop()
    later = mqtt_recorder(embedded_broker.service_url("tables"), [intent, presence])
    later.wait_for(presence)
    time.sleep(0.3)
    assert later.payloads(intent) == []


def test_a_players_publish_rate_is_bounded(
    strict_broker: BrokerEndpoint, mqtt_recorder: Factory, table_code: str
) -> None:
    with BrokerAccounts.connect(strict_broker.service_url("web")) as accounts:
        accounts.provision("u-fast", "pw-fast", player_grants(table_code, 0))
    say = seat_topic(table_code, 0, "say")
    watcher = mqtt_recorder(strict_broker.service_url("tables"), [say])
    drops: list[bool] = []
    player = MqttClient(strict_broker.url("u-fast", "pw-fast"), reconnect_delay=(5.0, 5.0))
    player._paho.on_disconnect = lambda *args: drops.append(True)
    player.start()
    try:
        player.wait_connected(5)
        for number in range(30):
            player.publish(say, b"line %d" % number)
        time.sleep(1.0)
    finally:
        player.stop()
    assert 5 <= len(watcher.payloads(say)) <= 8  # the burst, and what a second refills
    assert drops  # far over its rate: disconnected, and kept out a while
    again = MqttClient(strict_broker.url("u-fast", "pw-fast"))
    with pytest.raises(ConnectRefusedError):
        again.start().wait_connected(5)
    again.stop()
    marker = mqtt_recorder(strict_broker.service_url("web")).client  # services: no bound
    for number in range(30):
        marker.publish(say, b"service %d" % number)
    watcher.wait_for(say, b"service 29")


def test_a_remembered_login_still_refuses_a_wrong_or_replaced_password(
    embedded_broker: BrokerEndpoint, table_code: str
) -> None:
    # A reconnecting client costs one PBKDF2: the broker remembers the password it accepted.
    def logs_in(password: str) -> bool:
        client = MqttClient(embedded_broker.url("u-again", password)).start()
        try:
            client.wait_connected(5)
            return True
        except ConnectRefusedError:
            return False
        finally:
            client.stop()

    with BrokerAccounts.connect(embedded_broker.service_url("web")) as accounts:
        accounts.provision("u-again", "first", player_grants(table_code, 0))
        assert logs_in("first") and logs_in("first")
        assert not logs_in("wrong")
        accounts.provision("u-again", "second", player_grants(table_code, 0))
        assert not logs_in("first")
        assert logs_in("second")
