"""What each account may read and write, on both brokers alike."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as paho
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from protocol.topics import (
    ALL_LOBBY_REQUESTS,
    ALL_SEAT_INTENTS,
    host_player_grants,
    host_topic,
    lobby_request,
    lobby_response,
    player_grants,
    seat_topic,
    service_status,
    table_events,
    table_view,
    tv_grants,
)
from services.broker.accounts import BrokerAccounts
from services.broker.dynsec import CONTROL_RESPONSE_TOPIC, CONTROL_TOPIC
from services.broker.settings import BrokerEndpoint
from services.mqtt import ConnectRefusedError, MqttClient

Factory = Callable[..., Any]


def _player(accounts: BrokerAccounts, table: str, seat: int, host: bool = False) -> tuple[str, str]:
    username, password = f"u-{table.lower()}-{seat}", f"token-{table}-{seat}"
    grants = host_player_grants(table, seat) if host else player_grants(table, seat)
    accounts.provision(username, password, grants)
    return username, password


def _expect_grants(recorder: Any, allowed: list[str], refused: list[str]) -> None:
    assert recorder.granted == {**dict.fromkeys(allowed, True), **dict.fromkeys(refused, False)}


def test_a_player_reads_only_its_table_and_its_own_seat(
    broker: BrokerEndpoint, broker_accounts: BrokerAccounts, mqtt_recorder: Factory, table_code: str
) -> None:
    t = table_code
    allowed = [table_view(t), table_events(t), seat_topic(t, 0, "view"), seat_topic(t, 0, "reply")]
    refused = [
        seat_topic(t, 1, "view"),
        seat_topic(t, 1, "reply"),
        seat_topic(t, 0, "intent"),  # writes are not reads
        seat_topic(t, 0, "say"),
        seat_topic(t, 1, "presence"),
        host_topic(t, "reply"),
        table_view("OTHER1"),
        lobby_response("join"),
        service_status("tables"),
        f"gamenight/v1/table/{t}/+",
        CONTROL_RESPONSE_TOPIC,
        "$SYS/#",
    ]
    username, password = _player(broker_accounts, t, 0)
    _expect_grants(
        mqtt_recorder(broker.url(username, password), allowed + refused), allowed, refused
    )


def test_the_tv_and_the_host_read_the_host_replies(
    broker: BrokerEndpoint, broker_accounts: BrokerAccounts, mqtt_recorder: Factory, table_code: str
) -> None:
    t = table_code
    broker_accounts.provision(f"tv-{t.lower()}", "tv-token", tv_grants(t))
    allowed = [table_view(t), table_events(t), host_topic(t, "reply")]
    refused = [seat_topic(t, 0, "view"), seat_topic(t, 1, "reply"), host_topic(t, "intent")]
    tv = mqtt_recorder(broker.url(f"tv-{t.lower()}", "tv-token"), allowed + refused)
    _expect_grants(tv, allowed, refused)
    username, password = _player(broker_accounts, t, 2, host=True)
    allowed = [host_topic(t, "reply"), seat_topic(t, 2, "view")]
    refused = [seat_topic(t, 0, "view")]
    _expect_grants(
        mqtt_recorder(broker.url(username, password), allowed + refused), allowed, refused
    )


def _publish_all_then_marker(client: MqttClient, topics: list[str], tag: str, marker: str) -> None:
    for topic in topics:
        client.publish(topic, f"{tag}|{topic}")
    client.publish(marker, f"{tag}|marker")


def _received(recorder: Any, tag: str) -> set[str]:
    return {topic for topic, payload in recorder.messages if payload.startswith(tag.encode())}


def test_a_player_publishes_only_its_own_seat_topics(
    broker: BrokerEndpoint,
    broker_accounts: BrokerAccounts,
    mqtt_client: Factory,
    mqtt_recorder: Factory,
    table_code: str,
) -> None:
    t = table_code
    tables = mqtt_recorder(broker.service_url("tables"), ["gamenight/v1/#"])
    username, password = _player(broker_accounts, t, 0)
    player = mqtt_client(broker.url(username, password, ws=True))
    own = [seat_topic(t, 0, name) for name in ("intent", "say", "presence")]
    forged = [
        *(seat_topic(t, 1, name) for name in ("intent", "say", "presence", "view")),
        seat_topic(t, 0, "view"),
        seat_topic(t, 0, "reply"),
        table_view(t),
        table_events(t),
        host_topic(t, "intent"),
        lobby_request("create"),
        service_status("tables"),
        seat_topic("OTHER1", 0, "intent"),
    ]
    tag = f"acl-{t}"
    _publish_all_then_marker(player, forged + own, tag, seat_topic(t, 0, "intent"))
    tables.wait_for(seat_topic(t, 0, "intent"), f"{tag}|marker".encode())
    assert _received(tables, tag) == set(own)


def test_the_tv_drives_only_its_host_controls(
    broker: BrokerEndpoint,
    broker_accounts: BrokerAccounts,
    mqtt_client: Factory,
    mqtt_recorder: Factory,
    table_code: str,
) -> None:
    t = table_code
    tables = mqtt_recorder(broker.service_url("tables"), ["gamenight/v1/#"])
    broker_accounts.provision(f"tv-{t.lower()}", "tv-token", tv_grants(t))
    tv = mqtt_client(broker.url(f"tv-{t.lower()}", "tv-token"))
    tag = f"tv-{t}"
    forged = [seat_topic(t, 0, "intent"), table_view(t), host_topic("OTHER1", "intent")]
    _publish_all_then_marker(tv, [*forged, host_topic(t, "intent")], tag, host_topic(t, "intent"))
    tables.wait_for(host_topic(t, "intent"), f"{tag}|marker".encode())
    assert _received(tables, tag) == {host_topic(t, "intent")}


def test_services_reach_every_table_but_not_beyond(
    broker: BrokerEndpoint,
    broker_accounts: BrokerAccounts,
    mqtt_client: Factory,
    mqtt_recorder: Factory,
    table_code: str,
) -> None:
    t = table_code
    allowed = [ALL_SEAT_INTENTS, ALL_LOBBY_REQUESTS, "gamenight/v1/#", CONTROL_RESPONSE_TOPIC]
    refused = ["#", "gamenight/#", "$SYS/#", "other/topic"]
    tables = mqtt_recorder(broker.service_url("tables"), allowed + refused)
    _expect_grants(tables, allowed, refused)
    username, password = _player(broker_accounts, t, 1)
    player = mqtt_recorder(broker.url(username, password), [seat_topic(t, 1, "view")])
    player_client = player.client
    player_client.publish(seat_topic(t, 1, "intent"), b"play 7H")
    tables.wait_for(seat_topic(t, 1, "intent"), b"play 7H")
    bots = mqtt_client(broker.service_url("bots"))
    bots.publish(seat_topic(t, 1, "view"), b"your hand", retain=True)
    player.wait_for(seat_topic(t, 1, "view"), b"your hand")


def test_players_cannot_send_account_commands(
    broker: BrokerEndpoint,
    broker_accounts: BrokerAccounts,
    mqtt_client: Factory,
    mqtt_recorder: Factory,
    table_code: str,
) -> None:
    t = table_code
    tables = mqtt_recorder(broker.service_url("tables"), [ALL_SEAT_INTENTS])
    username, password = _player(broker_accounts, t, 0)
    player = mqtt_client(broker.url(username, password))
    intruder = f"intruder-{t.lower()}"
    command = {"command": "createClient", "username": intruder, "password": "let-me-in"}
    player.publish(CONTROL_TOPIC, json.dumps({"commands": [command]}))
    player.publish(seat_topic(t, 0, "intent"), b"after the command")
    tables.wait_for(seat_topic(t, 0, "intent"), b"after the command")
    client = MqttClient(broker.url(intruder, "let-me-in")).start()
    try:
        with pytest.raises(ConnectRefusedError):
            client.wait_connected(3.0)
    finally:
        client.stop()


def _connect_with_will(endpoint: BrokerEndpoint, username: str, password: str, will: str) -> None:
    """Connect with a last will on ``will``, then vanish without DISCONNECT."""
    client = paho.Client(
        CallbackAPIVersion.VERSION2, protocol=paho.MQTTv311, reconnect_on_failure=False
    )
    client.username_pw_set(username, password)
    client.will_set(will, f"will|{will}", qos=1)
    answered = threading.Event()
    client.on_connect = lambda *args: answered.set()
    assert endpoint.tcp_port is not None
    client.connect(endpoint.host, endpoint.tcp_port)
    deadline = time.monotonic() + 3.0
    while not answered.is_set() and time.monotonic() < deadline:
        client.loop(0.05)  # no network thread: nothing else will speak for this client
    assert answered.is_set()
    sock = client.socket()
    if sock is not None:
        sock.close()  # an abnormal end: the broker publishes the will, if it may
    client._reset_sockets(sockpair_only=True)  # paho would close these only in __del__


def test_a_last_will_is_a_publish_like_any_other(
    broker: BrokerEndpoint, broker_accounts: BrokerAccounts, mqtt_recorder: Factory, table_code: str
) -> None:
    t = table_code
    tables = mqtt_recorder(broker.service_url("tables"), ["gamenight/v1/#"])
    username, password = _player(broker_accounts, t, 0)
    _connect_with_will(broker, username, password, seat_topic(t, 1, "presence"))
    _connect_with_will(broker, username, password, seat_topic(t, 0, "presence"))
    own = seat_topic(t, 0, "presence")
    tables.wait_for(own, f"will|{own}".encode())
    assert _received(tables, "will|") == {own}
