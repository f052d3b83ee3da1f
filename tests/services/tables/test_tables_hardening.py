"""A clumsy or malicious player: refused joins make no account, idle tables close, two tabs."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memory_accounts import MemoryAccounts
from tables_clients import LobbyClient, Phone

from protocol.topics import player_grants, seat_topic
from services.broker.accounts import BrokerAccounts
from services.broker.settings import BrokerEndpoint
from services.mqtt import MqttClient
from services.tables.idle import IDLE_UNJOINED_LOBBY
from services.tables.service import TablesService
from services.tables.store import Store


def _service(tmp_path: Path) -> tuple[TablesService, MemoryAccounts, list[tuple[str, bytes]]]:
    sent: list[tuple[str, bytes]] = []
    accounts = MemoryAccounts()
    service = TablesService(
        Store(tmp_path / "gn.db"), lambda t, p, r: sent.append((t, p)), accounts, "me"
    )
    return service, accounts, sent


def _lobby(service: TablesService, sent: list[tuple[str, bytes]], op: str, **body: Any) -> Any:
    service.handle(
        f"gamenight/v1/lobby/request/{op}", json.dumps({"v": 1, "id": "r", **body}).encode()
    )
    return json.loads([p for t, p in sent if t.endswith(f"/response/{op}")][-1])


def test_a_join_refused_for_its_name_makes_no_broker_account(tmp_path: Path) -> None:
    service, accounts, sent = _service(tmp_path)
    table = _lobby(service, sent, "create")["data"]["table"]
    assert _lobby(service, sent, "join", table=table, name="Ana")["status"] == "ok"
    made = dict(accounts.made)
    for _ in range(20):
        reply = _lobby(service, sent, "join", table=table, name="ANA")
        assert reply["error"]["code"] == "name_taken"
    assert accounts.made == made and accounts.removed == []


def test_idle_tables_close_keep_their_log_and_are_not_restored(tmp_path: Path) -> None:
    service, accounts, sent = _service(tmp_path)
    empty = _lobby(service, sent, "create")["data"]["table"]
    joined = _lobby(service, sent, "create")["data"]["table"]
    assert _lobby(service, sent, "join", table=joined, name="Ana")["status"] == "ok"
    assert service.close_idle(time.time() + IDLE_UNJOINED_LOBBY / 2) == []
    assert service.close_idle(time.time() + IDLE_UNJOINED_LOBBY + 60) == [empty]
    assert f"tv-{empty.lower()}" in accounts.removed
    assert (f"gamenight/v1/table/{empty}/view", b"") in sent  # its retained view is cleared
    assert service.store.log_length(empty) == 1  # the log is kept
    later = TablesService(service.store, lambda t, p, r: None, MemoryAccounts(), "next")
    later.restore()
    assert set(later.tables) == {joined}


def test_removing_a_bot_mid_game_is_refused_with_a_code(
    tables: Any, lobby: LobbyClient, phones: Callable[..., Phone]
) -> None:
    table = lobby.create("kings-corner")
    phones(table, "Ana")
    assert lobby.host(table, "start")["status"] == "ok"  # a bot fills seat 1
    reply = lobby.host(table, "remove_bot", seat=1)
    assert reply["error"] == {
        "code": "bot_in_game",
        "params": {"seat": 1, "status": "playing"},
    }


def test_the_same_seat_in_two_tabs_the_older_steps_back(
    tables: Any, lobby: LobbyClient, phones: Callable[..., Phone]
) -> None:
    table = lobby.create("kings-corner")
    phone = phones(table, "Ana")
    presence = seat_topic(table, phone.seat, "presence")

    def say_online(tab: str) -> None:
        phone.client.publish(presence, json.dumps({"v": 1, "online": True, "tab": tab}).encode())

    say_online("tab-old")
    phone.public(newer_than=-1)
    say_online("tab-new")
    told = phone.box.wait(phone.reply_topic, lambda m: m["id"] == "tab-old")
    assert told["error"] == {"code": "opened_elsewhere", "params": {"seat": phone.seat}}
    # The old tab, reconnecting, is told again and changes nothing; the new one is not told.
    say_online("tab-old")
    phone.box.wait(
        phone.reply_topic,
        lambda m: m["id"] == "tab-old" and len(phone.box.messages[phone.reply_topic]) >= 2,
    )
    assert all(m["id"] != "tab-new" for m in phone.box.messages[phone.reply_topic])


def test_a_retained_player_intent_is_cleared_by_the_service_client(
    broker: BrokerEndpoint, broker_accounts: BrokerAccounts, mqtt_recorder: Any, table_code: str
) -> None:
    broker_accounts.provision("u-left", "pw-left", player_grants(table_code, 0))
    intent = seat_topic(table_code, 0, "intent")
    player = MqttClient(broker.url("u-left", "pw-left"), client_id="u-left").start()
    try:
        player.wait_connected(5)
        player.publish_and_wait(intent, b'{"v":1,"id":"x","op":"sync"}', retain=True)
    finally:
        player.stop()
    handled: list[bytes] = []
    service = MqttClient(
        broker.service_url("tables"), clear_retained=lambda t: t.endswith("/intent")
    )
    service.subscribe(intent, lambda _t, payload: handled.append(payload))
    service.start().wait_connected(5)
    time.sleep(0.5)
    service.stop()
    later = mqtt_recorder(broker.service_url("web"), [intent])
    time.sleep(0.5)
    # Handled: at most the empty message that cleared it (answered bad_json, never applied).
    assert [payload for payload in handled if payload] == []
    assert later.payloads(intent) == []


def test_one_seats_flood_is_dropped_unread_and_another_seat_is_answered(tmp_path: Path) -> None:
    service, _, sent = _service(tmp_path)
    table = _lobby(service, sent, "create")["data"]["table"]
    for name in ("Ana", "Ben"):
        assert _lobby(service, sent, "join", table=table, name=name)["status"] == "ok"
    flood = f"gamenight/v1/table/{table}/seat/0/intent"
    for number in range(2000):
        service.handle(flood, b'{"v":1,"id":"f%d","op":"sync"}' % number)
    answered = [t for t, _ in sent if t == f"gamenight/v1/table/{table}/seat/0/reply"]
    views = [t for t, _ in sent if t == f"gamenight/v1/table/{table}/seat/0/view"]
    assert len(answered) <= 400  # the seat's burst (and a little refill), not two thousand
    assert len(views) <= 30  # and views for the syncs' own burst only
    service.handle(f"gamenight/v1/table/{table}/seat/1/intent", b'{"v":1,"id":"b1","op":"sync"}')
    reply = json.loads(sent[-1][1])
    assert sent[-1][0].endswith("/seat/1/reply") and reply["id"] == "b1"
