"""The privacy attacks of tests/services/broker/, on the NATS cluster: a player reads and
writes only its own seat and its table's public topics, whichever node it and the
services are on, over TCP or WebSocket; strangers and revoked players are refused."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

import pytest

from protocol.topics import (
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
from services.broker.settings import BrokerEndpoint
from services.cluster.accounts import NatsAccounts
from services.cluster.callout import ACCOUNTS_BUCKET, AccountRecord
from services.cluster.nodes import NatsCluster
from services.mqtt import ConnectRefusedError, MqttClient
from tests.services.broker.test_broker_acl import _connect_with_will
from tests.services.broker.test_broker_auth import anonymous_refused
from tests.services.broker.test_broker_privacy import (
    SECRET_LIVE,
    SECRET_REPLY,
    SECRET_RETAINED,
    _assert_nothing_of_seat_zero,
    snooping_filters,
)

Factory = Callable[..., Any]
SHORT = 15.0  # a login goes through the callout: roomy for a loaded CI machine


def refused(url: str, **options: Any) -> bool:
    """Whether the login is refused (a CONNACK refusal; a login that hangs fails the test)."""
    client = MqttClient(url, **options).start()
    try:
        client.wait_connected(SHORT)
    except ConnectRefusedError:
        return True
    finally:
        client.stop()
    return False


def _player(accounts: NatsAccounts, table: str, seat: int, host: bool = False) -> tuple[str, str]:
    username, password = f"u-{table.lower()}-{seat}", f"token-{table}-{seat}"
    grants = host_player_grants(table, seat) if host else player_grants(table, seat)
    accounts.provision(username, password, grants)
    return username, password


def _expect_grants(recorder: Any, allowed: list[str], refused_filters: list[str]) -> None:
    expected = {**dict.fromkeys(allowed, True), **dict.fromkeys(refused_filters, False)}
    assert recorder.granted == expected


@pytest.mark.parametrize("transport", ["tcp", "ws"])
def test_second_player_never_receives_first_players_hand(
    nats_endpoints: list[BrokerEndpoint],
    nats_accounts: NatsAccounts,
    mqtt_client: Factory,
    mqtt_recorder: Factory,
    table_code: str,
    transport: str,
) -> None:
    ws = transport == "ws"
    node_a, node_b, node_c = nats_endpoints
    t = table_code
    first_user, first_token = _player(nats_accounts, t, 0)
    second_user, second_token = _player(nats_accounts, t, 1)
    tables = mqtt_client(node_c.service_url("tables"))
    hand0, reply0, hand1 = (
        seat_topic(t, 0, "view"),
        seat_topic(t, 0, "reply"),
        seat_topic(t, 1, "view"),
    )
    tables.publish_and_wait(hand0, SECRET_RETAINED, retain=True)
    tables.publish_and_wait(hand1, b'{"hand":["2C"]}', retain=True)
    tables.publish_and_wait(table_view(t), b'{"public":true}', retain=True)

    first = mqtt_recorder(node_a.url(first_user, first_token, ws=ws), [hand0, reply0])
    first.wait_for(hand0, SECRET_RETAINED)
    snoops = snooping_filters(t)
    second = mqtt_recorder(
        node_b.url(second_user, second_token, ws=ws),
        [*snoops, hand1, table_view(t), table_events(t)],
    )
    second.wait_for(hand1)  # its own retained hand arrives: the recorder does see messages
    second.wait_for(table_view(t))
    assert {f: second.granted[f] for f in snoops} == dict.fromkeys(snoops, False)

    tables.publish(hand0, SECRET_LIVE, retain=True)
    tables.publish(reply0, SECRET_REPLY)
    tables.publish(table_events(t), b"marker-live")
    first.wait_for(hand0, SECRET_LIVE)
    first.wait_for(reply0, SECRET_REPLY)
    second.wait_for(table_events(t), b"marker-live")

    # A fresh connection of the second player on the first player's node, hand retained.
    again = mqtt_recorder(node_a.url(second_user, second_token, ws=ws), [*snoops, table_events(t)])
    tables.publish(table_events(t), b"marker-again")
    again.wait_for(table_events(t), b"marker-again")
    _assert_nothing_of_seat_zero(second, t)
    _assert_nothing_of_seat_zero(again, t)


def test_a_player_reads_only_its_table_and_its_own_seat(
    nats_endpoints: list[BrokerEndpoint],
    nats_accounts: NatsAccounts,
    mqtt_recorder: Factory,
    table_code: str,
) -> None:
    t = table_code
    allowed = [table_view(t), table_events(t), seat_topic(t, 0, "view"), seat_topic(t, 0, "reply")]
    refused_filters = [
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
        "$SYS/#",
        "$MQTT/#",
        "$MQTT/msgs/gamenight/v1/table/+/seat/+/view",
        f"$KV/{ACCOUNTS_BUCKET}/+",
        "$SYS/REQ/USER/AUTH",
        "_INBOX/#",
    ]
    username, password = _player(nats_accounts, t, 0)
    recorder = mqtt_recorder(nats_endpoints[1].url(username, password), allowed + refused_filters)
    _expect_grants(recorder, allowed, refused_filters)


def test_the_tv_and_the_host_read_the_host_replies(
    nats_endpoints: list[BrokerEndpoint],
    nats_accounts: NatsAccounts,
    mqtt_recorder: Factory,
    table_code: str,
) -> None:
    t = table_code
    nats_accounts.provision(f"tv-{t.lower()}", "tv-token", tv_grants(t))
    allowed = [table_view(t), table_events(t), host_topic(t, "reply")]
    refused_filters = [seat_topic(t, 0, "view"), seat_topic(t, 1, "reply"), host_topic(t, "intent")]
    tv = mqtt_recorder(
        nats_endpoints[2].url(f"tv-{t.lower()}", "tv-token", ws=True), allowed + refused_filters
    )
    _expect_grants(tv, allowed, refused_filters)
    username, password = _player(nats_accounts, t, 2, host=True)
    allowed = [host_topic(t, "reply"), seat_topic(t, 2, "view")]
    refused_filters = [seat_topic(t, 0, "view")]
    host = mqtt_recorder(nats_endpoints[0].url(username, password), allowed + refused_filters)
    _expect_grants(host, allowed, refused_filters)


def _publish_all_then_marker(client: MqttClient, topics: list[str], tag: str, marker: str) -> None:
    for topic in topics:
        client.publish(topic, f"{tag}|{topic}")
    client.publish(marker, f"{tag}|marker")


def _received(recorder: Any, tag: str) -> set[str]:
    return {topic for topic, payload in recorder.messages if payload.startswith(tag.encode())}


@pytest.mark.parametrize("ws", [False, True], ids=["tcp", "ws"])
def test_a_player_publishes_only_its_own_seat_topics(
    nats_endpoints: list[BrokerEndpoint],
    nats_accounts: NatsAccounts,
    mqtt_client: Factory,
    mqtt_recorder: Factory,
    table_code: str,
    ws: bool,
) -> None:
    t = table_code
    tables = mqtt_recorder(nats_endpoints[0].service_url("tables"), ["gamenight/v1/#"])
    username, password = _player(nats_accounts, t, 0)
    player = mqtt_client(nats_endpoints[1].url(username, password, ws=ws))
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


def test_a_player_cannot_leave_a_retained_hand_for_another_seat(
    nats_endpoints: list[BrokerEndpoint],
    nats_accounts: NatsAccounts,
    mqtt_client: Factory,
    mqtt_recorder: Factory,
    table_code: str,
) -> None:
    t = table_code
    username, password = _player(nats_accounts, t, 0)
    forger = mqtt_client(nats_endpoints[0].url(username, password))
    forger.publish(seat_topic(t, 1, "view"), b"forged hand", retain=True)
    forger.publish(table_view(t), b"forged table", retain=True)
    forger.publish_and_wait(seat_topic(t, 0, "intent"), b"after the forgeries")
    victim_user, victim_password = _player(nats_accounts, t, 1)
    tables = mqtt_client(nats_endpoints[2].service_url("tables"))
    tables.publish_and_wait(table_events(t), b"marker", retain=True)
    victim = mqtt_recorder(
        nats_endpoints[1].url(victim_user, victim_password),
        [seat_topic(t, 1, "view"), table_view(t), table_events(t)],
    )
    victim.wait_for(table_events(t), b"marker")
    assert victim.payloads(seat_topic(t, 1, "view")) == []
    assert victim.payloads(table_view(t)) == []


def test_the_tv_drives_only_its_host_controls(
    nats_endpoints: list[BrokerEndpoint],
    nats_accounts: NatsAccounts,
    mqtt_client: Factory,
    mqtt_recorder: Factory,
    table_code: str,
) -> None:
    t = table_code
    tables = mqtt_recorder(nats_endpoints[2].service_url("tables"), ["gamenight/v1/#"])
    nats_accounts.provision(f"tv-{t.lower()}", "tv-token", tv_grants(t))
    tv = mqtt_client(nats_endpoints[0].url(f"tv-{t.lower()}", "tv-token"))
    tag = f"tv-{t}"
    forged = [seat_topic(t, 0, "intent"), table_view(t), host_topic("OTHER1", "intent")]
    _publish_all_then_marker(tv, [*forged, host_topic(t, "intent")], tag, host_topic(t, "intent"))
    tables.wait_for(host_topic(t, "intent"), f"{tag}|marker".encode())
    assert _received(tables, tag) == {host_topic(t, "intent")}


@pytest.mark.parametrize("service", ["web", "bots", "assistant"])
def test_mqtt_services_reach_every_table_but_not_the_accounts(
    nats_endpoints: list[BrokerEndpoint],
    mqtt_recorder: Factory,
    service: str,
) -> None:
    allowed = [ALL_SEAT_INTENTS, "gamenight/v1/#"]
    refused_filters = ["#", "$SYS/#", f"$KV/{ACCOUNTS_BUCKET}/#", "$JS/API/#", "other/topic"]
    recorder = mqtt_recorder(nats_endpoints[1].service_url(service), allowed + refused_filters)
    _expect_grants(recorder, allowed, refused_filters)


def _forge_account_over_mqtt(client: MqttClient, username: str, password: str) -> None:
    """Write an account record straight into the bucket's subject, as MQTT maps it."""
    record = AccountRecord.make(password, player_grants("ABC", 0)).to_bytes()
    client.publish(f"$KV/{ACCOUNTS_BUCKET}/{username}", record)
    client.publish(f"$JS/API/STREAM/DELETE/KV_{ACCOUNTS_BUCKET}", b"")


@pytest.mark.parametrize("who", ["player", "web"])
def test_nobody_but_the_tables_service_writes_accounts(
    nats_endpoints: list[BrokerEndpoint],
    nats_accounts: NatsAccounts,
    mqtt_client: Factory,
    mqtt_recorder: Factory,
    table_code: str,
    who: str,
) -> None:
    t = table_code
    url = (
        nats_endpoints[0].service_url("web")
        if who == "web"
        else nats_endpoints[0].url(*_player(nats_accounts, t, 0))
    )
    sender = mqtt_client(url)
    intruder = f"intruder-{t.lower()}"
    _forge_account_over_mqtt(sender, intruder, "let-me-in")
    sender.publish_and_wait(seat_topic(t, 0, "intent"), b"after the forgery")
    assert refused(nats_endpoints[1].url(intruder, "let-me-in"))
    # The bucket is still there: accounts still log in.
    username, password = _player(nats_accounts, t, 1)
    assert not refused(nats_endpoints[2].url(username, password))


def test_a_last_will_is_a_publish_like_any_other(
    nats_endpoints: list[BrokerEndpoint],
    nats_accounts: NatsAccounts,
    mqtt_recorder: Factory,
    table_code: str,
) -> None:
    t = table_code
    tables = mqtt_recorder(nats_endpoints[0].service_url("tables"), ["gamenight/v1/#"])
    username, password = _player(nats_accounts, t, 0)
    _connect_with_will(nats_endpoints[1], username, password, seat_topic(t, 1, "presence"))
    _connect_with_will(nats_endpoints[1], username, password, seat_topic(t, 0, "presence"))
    own = seat_topic(t, 0, "presence")
    tables.wait_for(own, f"will|{own}".encode())
    assert _received(tables, "will|") == {own}


@pytest.mark.parametrize("ws", [False, True], ids=["tcp", "ws"])
def test_strangers_are_refused(nats_endpoints: list[BrokerEndpoint], ws: bool) -> None:
    node = nats_endpoints[2]
    port = node.ws_port if ws else node.tcp_port
    assert port is not None
    if not ws:
        assert anonymous_refused(node.host, port)
    assert refused(node.url("nobody", "guess", ws=ws))
    assert refused(node.url("tables", "wrong", ws=ws))
    assert refused(node.url("web", node.credentials.password("tables"), ws=ws))
    assert refused(node.url("tables", "", ws=ws))
    assert refused(node.url("callout", node.credentials.password("tables"), ws=ws))


def test_every_service_account_logs_in(nats_endpoints: list[BrokerEndpoint]) -> None:
    for i, name in enumerate(("tables", "web", "bots", "assistant")):
        assert not refused(nats_endpoints[i % 3].service_url(name))


def _wait_disconnected(client: MqttClient, timeout: float = SHORT) -> bool:
    disconnected = threading.Event()

    def watch() -> None:
        while client.connected:
            threading.Event().wait(0.01)
        disconnected.set()

    threading.Thread(target=watch, daemon=True).start()
    return disconnected.wait(timeout)


def test_a_revoked_player_is_cut_off_on_every_node_and_cannot_come_back(
    nats_endpoints: list[BrokerEndpoint], nats_accounts: NatsAccounts, table_code: str
) -> None:
    username = f"u-{table_code.lower()}"
    nats_accounts.provision(username, "first-token", player_grants(table_code, 3))
    phones = [
        MqttClient(nats_endpoints[0].url(username, "first-token", ws=True)).start(),
        MqttClient(nats_endpoints[1].url(username, "first-token")).start(),
    ]
    try:
        for phone in phones:
            phone.wait_connected(SHORT)  # no reload, no delay
        nats_accounts.revoke(username)
        for phone in phones:
            assert _wait_disconnected(phone), "a revoked account stays connected"
    finally:
        for phone in phones:
            phone.stop()
    for node in nats_endpoints:
        assert refused(node.url(username, "first-token"))
    nats_accounts.revoke(username)  # revoking twice is fine


def test_provisioning_again_replaces_the_password(
    nats_endpoints: list[BrokerEndpoint], nats_accounts: NatsAccounts, table_code: str
) -> None:
    username = f"tv-{table_code.lower()}"
    nats_accounts.provision(username, "old-token", tv_grants(table_code))
    old = MqttClient(nats_endpoints[0].url(username, "old-token")).start()
    try:
        old.wait_connected(SHORT)
        nats_accounts.provision(username, "new-token", tv_grants(table_code))
        assert _wait_disconnected(old), "the replaced account's connection stays open"
    finally:
        old.stop()
    assert refused(nats_endpoints[1].url(username, "old-token"))
    assert not refused(nats_endpoints[2].url(username, "new-token"))


def test_an_account_bound_to_a_client_id_cannot_use_another(
    nats_endpoints: list[BrokerEndpoint], nats_accounts: NatsAccounts, table_code: str
) -> None:
    username = f"u-{table_code.lower()}"
    nats_accounts.provision(username, "tok", player_grants(table_code, 0), client_id=username)
    assert not refused(nats_endpoints[0].url(username, "tok"), client_id=username)
    assert refused(nats_endpoints[1].url(username, "tok"), client_id="gamenight-tables")


def test_account_names_are_checked(nats_accounts: NatsAccounts) -> None:
    with pytest.raises(ValueError, match="service account"):
        nats_accounts.provision("tables", "x", player_grants("ABC", 0))
    with pytest.raises(ValueError, match="not a valid account name"):
        nats_accounts.provision("a.b", "x", player_grants("ABC", 0))
    with pytest.raises(ValueError, match="password"):
        nats_accounts.provision("someone", "", player_grants("ABC", 0))


def test_logins_survive_the_loss_of_a_callout_responder(
    nats_cluster: NatsCluster,
    nats_endpoints: list[BrokerEndpoint],
    nats_accounts: NatsAccounts,
    table_code: str,
) -> None:
    nats_cluster.kill_responder(0)
    try:
        for i in range(6):  # several logins: the queue group picks among the copies
            username, password = _player(nats_accounts, table_code, i)
            assert not refused(nats_endpoints[i % 3].url(username, password))
    finally:
        nats_cluster.restart_responder(0)


def test_a_second_accounts_client_sees_the_first_ones_accounts(
    nats_cluster: NatsCluster, nats_endpoints: list[BrokerEndpoint], table_code: str
) -> None:
    # Two copies of the tables service: one provisions, the other revokes.
    with (
        NatsAccounts(nats_cluster.nats_urls[:1], nats_cluster.credentials) as first,
        NatsAccounts(nats_cluster.nats_urls[2:], nats_cluster.credentials) as second,
    ):
        username = f"u-{table_code.lower()}"
        first.provision(username, "tok", player_grants(table_code, 0))
        client = MqttClient(nats_endpoints[1].url(username, "tok")).start()
        try:
            client.wait_connected(SHORT)
            second.revoke(username)
            assert _wait_disconnected(client)
        finally:
            client.stop()
        with pytest.raises(ConnectRefusedError):
            probe = MqttClient(nats_endpoints[0].url(username, "tok")).start()
            try:
                probe.wait_connected(SHORT)
            finally:
                probe.stop()


def test_the_accounts_bucket_holds_no_password(
    nats_cluster: NatsCluster, nats_accounts: NatsAccounts, table_code: str
) -> None:
    import asyncio
    import concurrent.futures

    import nats

    username = f"u-{table_code.lower()}"
    nats_accounts.provision(username, "plain-token-xyz", player_grants(table_code, 0))

    async def read() -> bytes:
        nc = await nats.connect(
            nats_cluster.nats_urls[1],
            user="tables",
            password=nats_cluster.credentials.password("tables"),
        )
        try:
            kv = await nc.jetstream().key_value(ACCOUNTS_BUCKET)
            entry = await kv.get(username)
            return entry.value or b""
        finally:
            await nc.close()

    # On a loop of its own thread: a browser test's Playwright may hold this thread's loop.
    with concurrent.futures.ThreadPoolExecutor(1) as worker:
        stored = worker.submit(asyncio.run, read()).result(timeout=60)
    assert b"plain-token-xyz" not in stored
    assert json.loads(stored)["read"] == list(player_grants(table_code, 0).read)


def test_the_forgery_would_work_with_the_rights_of_the_tables_service(
    nats_endpoints: list[BrokerEndpoint], mqtt_client: Factory, table_code: str
) -> None:
    # Shows that the test above can fail: the same MQTT publish, from the one account
    # allowed to write the bucket, does create a login.
    sender = mqtt_client(nats_endpoints[0].service_url("tables"))
    intruder = f"intruder-{table_code.lower()}"
    record = AccountRecord.make("let-me-in", player_grants("ABC", 0)).to_bytes()
    sender.publish_and_wait(f"$KV/{ACCOUNTS_BUCKET}/{intruder}", record)
    assert not refused(nats_endpoints[1].url(intruder, "let-me-in"))
