"""The paho wrapper every service uses: URLs, sockets, subscriptions, status, sessions."""

from __future__ import annotations

import gc
import json
import os
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol.messages import decode
from protocol.topics import ALL_SEAT_INTENTS, player_grants, seat_topic, service_status
from services.broker.accounts import BrokerAccounts
from services.broker.credentials import ServiceCredentials
from services.broker.embedded import start_embedded_broker
from services.broker.settings import BrokerEndpoint
from services.mqtt import BrokerUrl, MqttClient, broker_url, set_tcp_nodelay, status_payload

Factory = Callable[..., Any]


def test_urls_parse_with_defaults_and_encoded_credentials() -> None:
    url = BrokerUrl.parse("mqtt://tables:p%40ss%3Aword@broker.lan:1884")
    assert (url.scheme, url.host, url.port) == ("mqtt", "broker.lan", 1884)
    assert (url.username, url.password) == ("tables", "p@ss:word")
    assert BrokerUrl.parse("mqtt://localhost").port == 1883
    ws = BrokerUrl.parse("ws://u:p@10.0.0.2:9001")
    assert (ws.scheme, ws.port, ws.path) == ("ws", 9001, "/mqtt")
    assert BrokerUrl.parse("ws://h:80/custom").path == "/custom"
    assert BrokerUrl.parse("mqtt://h").username is None
    for bad in ("http://h:1", "mqtt://:1883", "tcp://h"):
        with pytest.raises(ValueError):
            BrokerUrl.parse(bad)


def test_a_url_shown_in_logs_never_holds_the_password() -> None:
    url = BrokerUrl.parse("mqtt://tables:hunter2@h:1883")
    assert "hunter2" not in str(url)
    assert "tables@h:1883" in str(url)
    assert BrokerUrl.parse(url.geturl()) == url


@given(
    st.sampled_from(["mqtt", "ws"]),
    st.text(min_size=1, max_size=20),
    st.text(min_size=1, max_size=20),
    st.integers(1, 65535),
)
def test_built_urls_parse_back(scheme: str, username: str, password: str, port: int) -> None:
    url = BrokerUrl.parse(broker_url(scheme, "127.0.0.1", port, username, password))
    assert (url.scheme, url.port, url.username, url.password) == (scheme, port, username, password)


def test_nodelay_reaches_plain_and_wrapped_sockets() -> None:
    with socket.socket() as plain:
        set_tcp_nodelay(plain)
        assert plain.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)

    with socket.socket() as hidden:

        class Wrapper:  # like paho's WebSocket wrapper: only a file descriptor to offer
            def fileno(self) -> int:
                return hidden.fileno()

        set_tcp_nodelay(Wrapper())
        assert hidden.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


@pytest.mark.parametrize("ws", [False, True], ids=["tcp", "ws"])
def test_connected_sockets_have_nodelay(broker: BrokerEndpoint, ws: bool) -> None:
    client = MqttClient(broker.service_url("tables", ws=ws)).start()
    try:
        client.wait_connected(3.0)
        sock = client._paho.socket()  # the only way to look at the live socket
        assert sock is not None
        with socket.socket(fileno=os.dup(sock.fileno())) as view:
            assert view.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    finally:
        client.stop()


def test_a_missing_broker_times_out() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # bound, not listening: connections are refused
        client = MqttClient(f"mqtt://u:p@127.0.0.1:{port}").start()
        try:
            with pytest.raises(TimeoutError):
                client.wait_connected(0.3)
        finally:
            client.stop()


def test_json_and_a_failing_handler_do_not_stop_the_flow(
    broker: BrokerEndpoint, mqtt_client: Factory, table_code: str
) -> None:
    got: list[Any] = []
    done = threading.Event()
    topic = seat_topic(table_code, 0, "intent")

    def broken(topic: str, payload: bytes) -> None:
        raise RuntimeError("a bug in a handler")

    def keeper(topic: str, payload: bytes) -> None:
        got.append(json.loads(payload))
        if len(got) == 2:
            done.set()

    client = mqtt_client(broker.service_url("tables"), {topic: broken})
    client.subscribe(topic, keeper)
    client.wait_connected(3.0)
    client.publish_json(topic, {"n": 1, "text": "é"})
    client.publish_json(topic, {"n": 2})
    assert done.wait(3.0)
    assert got == [{"n": 1, "text": "é"}, {"n": 2}]


def test_a_service_says_online_and_its_will_says_offline(
    broker: BrokerEndpoint, mqtt_recorder: Factory
) -> None:
    watcher = mqtt_recorder(broker.service_url("web"), [service_status("bots")])
    bots = MqttClient(broker.service_url("bots"), service="bots").start()
    bots.wait_connected(3.0)
    online = watcher.wait_for(service_status("bots"), status_payload("bots", True))
    assert decode("service_status", online) == {"v": 1, "service": "bots", "online": True}
    # Die without DISCONNECT, so the broker sends the will (no public way to crash).
    sock = bots._paho.socket()
    assert sock is not None
    sock.close()
    watcher.wait_for(service_status("bots"), status_payload("bots", False))
    bots.stop()

    watcher.messages.clear()
    bots = MqttClient(broker.service_url("bots"), service="bots").start()
    bots.wait_connected(3.0)
    watcher.wait_for(service_status("bots"), status_payload("bots", True))
    bots.stop()  # a clean stop says offline itself
    watcher.wait_for(service_status("bots"), status_payload("bots", False))


def test_a_persistent_session_keeps_intents_sent_while_away(
    broker: BrokerEndpoint, broker_accounts: BrokerAccounts, mqtt_client: Factory, table_code: str
) -> None:
    got: list[bytes] = []
    arrived = threading.Event()

    def on_intent(topic: str, payload: bytes) -> None:
        got.append(payload)
        arrived.set()

    client_id = f"tables-{table_code.lower()}"
    tables = MqttClient(broker.service_url("tables"), client_id=client_id, persistent=True)
    tables.subscribe(ALL_SEAT_INTENTS, lambda topic, payload: None)
    tables.start().wait_connected(3.0)
    tables.stop()  # the broker keeps the session and its QoS 1 subscription

    username = f"u-{table_code.lower()}"
    broker_accounts.provision(username, "tok", player_grants(table_code, 0))
    player = mqtt_client(broker.url(username, "tok"))
    player.publish_and_wait(seat_topic(table_code, 0, "intent"), b"sent while away", qos=1)

    back = MqttClient(broker.service_url("tables"), client_id=client_id, persistent=True)
    back.subscribe(ALL_SEAT_INTENTS, on_intent)
    back.start()
    try:
        assert arrived.wait(3.0)
        assert got == [b"sent while away"]
    finally:
        back.stop()


def test_subscriptions_come_back_after_the_broker_restarts(
    service_credentials: ServiceCredentials, tmp_path: Path
) -> None:
    first = start_embedded_broker(service_credentials, tcp="127.0.0.1:0", data_dir=tmp_path)
    port = first.tcp_port
    got = threading.Event()
    client = MqttClient(first.endpoint.service_url("tables"))
    client.subscribe("gamenight/v1/table/+/events", lambda topic, payload: got.set())
    client.start().wait_connected(3.0)
    try:
        first.stop()
        # Else wait_connected below may still see the old connection, not yet found closed.
        deadline = time.monotonic() + 5.0
        while client.connected and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not client.connected
        second = start_embedded_broker(
            service_credentials, tcp=f"127.0.0.1:{port}", data_dir=tmp_path
        )
        with second:
            client.wait_connected(5.0)  # reconnected and subscribed again by itself
            publisher = MqttClient(second.endpoint.service_url("web")).start()
            publisher.wait_connected(3.0)
            publisher.publish("gamenight/v1/table/ABC/events", b"{}")
            assert got.wait(3.0)
            publisher.stop()
    finally:
        client.stop()


def test_a_persistent_session_needs_a_client_id() -> None:
    with pytest.raises(ValueError, match="client_id"):
        MqttClient("mqtt://u:p@h:1", persistent=True)


def test_a_stopped_client_keeps_no_socket_open(broker: BrokerEndpoint) -> None:
    def open_sockets() -> int:
        return sum(1 for o in gc.get_objects() if isinstance(o, socket.socket) and o.fileno() != -1)

    before = open_sockets()
    client = MqttClient(broker.service_url("web")).start()
    client.wait_connected(5.0)
    assert open_sockets() > before  # the connection, and paho's wake-up pair
    client.stop()
    # All closed by stop(), not when the collector gets to them (the embedded broker runs
    # in this process: its end of the connection closes a moment later).
    deadline = time.monotonic() + 3.0
    while open_sockets() != before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert open_sockets() == before


@pytest.mark.parametrize(("limit", "sent_at_once"), [(20, 20), (0, 50)])
def test_qos1_messages_wait_for_pubacks_only_past_the_limit_asked_for(
    broker: BrokerEndpoint,
    mqtt_client: Factory,
    mqtt_recorder: Factory,
    table_code: str,
    limit: int,
    sent_at_once: int,
) -> None:
    """paho's default holds QoS 1 messages back past 20 unacknowledged; 0 holds none.

    The tables service sends two a move (reply, events): a backlog of PUBACKs under load
    must not hold its next replies back (``max_inflight=0``).
    """
    replies = seat_topic(table_code, 0, "reply")
    watcher = mqtt_recorder(broker.service_url("web"), [replies])
    seen: list[int] = []
    done = threading.Event()

    def burst(topic: str, payload: bytes) -> None:
        for number in range(50):
            client.publish(replies, str(number).encode(), qos=1)
        client.flush()
        # Still in the network thread: no PUBACK is read before this returns.
        deadline = time.monotonic() + 3.0
        while len(watcher.payloads(replies)) < 50 and time.monotonic() < deadline:
            time.sleep(0.05)
        seen.append(len(watcher.payloads(replies)))
        done.set()

    trigger = seat_topic(table_code, 0, "intent")
    client = mqtt_client(broker.service_url("tables"), {trigger: burst}, max_inflight=limit)
    watcher.client.publish(trigger, b"go", qos=1)  # not by ``client``: none of its own in flight
    assert done.wait(10.0)
    assert seen == [sent_at_once]
    deadline = time.monotonic() + 5.0
    while len(watcher.payloads(replies)) < 50 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert watcher.payloads(replies) == [str(number).encode() for number in range(50)]
