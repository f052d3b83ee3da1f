"""A client given every node's URL survives the loss of its node: it reconnects to another
within 5 s and its subscriptions work again (kill -9 of a real nats-server)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest

from protocol.topics import player_grants, seat_topic, table_events
from services.cluster.accounts import NatsAccounts
from services.cluster.nodes import NatsCluster
from services.mqtt import MqttClient, broker_url

RECONNECT_LIMIT = 5.0


def _node_of(client: MqttClient) -> tuple[str, int]:
    return client._paho._host, client._paho._port


def _wait_until(check: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.01)
    return check()


@pytest.mark.parametrize("ws", [False, True], ids=["tcp", "ws"])
def test_a_player_moves_to_another_node_when_its_node_is_killed(
    fresh_cluster: Callable[..., NatsCluster], table_code: str, ws: bool
) -> None:
    cluster = fresh_cluster()
    t = table_code
    with NatsAccounts(cluster.nats_urls, cluster.credentials) as accounts:
        accounts.provision("u-phone", "tok", player_grants(t, 0), client_id="u-phone")
    scheme, port = ("ws", "websocket") if ws else ("mqtt", "mqtt")
    urls = ",".join(
        broker_url(scheme, s.host, getattr(s.ports, port), "u-phone", "tok") for s in cluster.specs
    )
    got: list[bytes] = []
    arrived = threading.Condition()

    def on_hand(topic: str, payload: bytes) -> None:
        with arrived:
            got.append(payload)
            arrived.notify_all()

    phone = MqttClient(urls, client_id="u-phone", reconnect_delay=(0.1, 1.0))
    phone.subscribe(seat_topic(t, 0, "view"), on_hand)
    tables = MqttClient(cluster.service_broker("tables").split(",")[2])
    try:
        phone.start().wait_connected(5)
        tables.start().wait_connected(5)
        first_node = _node_of(phone)
        assert first_node[1] == getattr(cluster.specs[0].ports, port)
        tables.publish_and_wait(seat_topic(t, 0, "view"), b"before")
        with arrived:
            assert arrived.wait_for(lambda: b"before" in got, 5)

        killed_at = time.monotonic()
        cluster.kill(0)
        assert _wait_until(lambda: not phone.connected, 5)
        phone.wait_connected(RECONNECT_LIMIT)
        took = time.monotonic() - killed_at
        assert took < RECONNECT_LIMIT
        assert _node_of(phone) != first_node

        tables.publish_and_wait(seat_topic(t, 0, "view"), b"after")
        with arrived:
            assert arrived.wait_for(lambda: b"after" in got, 5), got
    finally:
        phone.stop()
        tables.stop()


def test_a_service_keeps_its_persistent_session_across_nodes(
    fresh_cluster: Callable[..., NatsCluster], table_code: str
) -> None:
    cluster = fresh_cluster()
    received: list[bytes] = []
    lock = threading.Condition()

    def on_event(topic: str, payload: bytes) -> None:
        with lock:
            received.append(payload)
            lock.notify_all()

    service = MqttClient(
        cluster.service_broker("tables"),
        client_id="gamenight-tables-x",
        persistent=True,
        reconnect_delay=(0.1, 1.0),
    )
    service.subscribe(table_events(table_code), on_event)
    sender = MqttClient(cluster.service_broker("bots").split(",")[1])
    try:
        service.start().wait_connected(5)
        sender.start().wait_connected(5)
        cluster.kill(0)
        assert _wait_until(lambda: not service.connected, 5)
        # Sent while the service is between nodes: its session (in JetStream) keeps it.
        sender.publish_and_wait(table_events(table_code), b"while-away", qos=1)
        service.wait_connected(RECONNECT_LIMIT)
        sender.publish_and_wait(table_events(table_code), b"back", qos=1)
        with lock:
            assert lock.wait_for(lambda: b"back" in received, 5)
        cluster.restart(0)
        assert cluster.pids[0] is not None
        sender.publish_and_wait(table_events(table_code), b"restarted", qos=1)
        with lock:
            assert lock.wait_for(lambda: b"restarted" in received, 5)
        assert b"while-away" in received
    finally:
        service.stop()
        sender.stop()


def test_a_client_keeps_trying_round_the_list_until_a_node_answers(
    fresh_cluster: Callable[..., NatsCluster],
) -> None:
    cluster = fresh_cluster()
    cluster.kill(0)
    cluster.kill(1)
    client = MqttClient(cluster.service_broker("web"), reconnect_delay=(0.1, 0.5))
    try:
        client.start().wait_connected(RECONNECT_LIMIT)
        assert _node_of(client)[1] == cluster.specs[2].ports.mqtt
    finally:
        client.stop()
