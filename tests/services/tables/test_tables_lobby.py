"""Joining, host controls, presence and reconnection."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion
from tables_clients import WAIT, LobbyClient, Mailbox, Phone

from protocol import topics
from services.broker.settings import BrokerEndpoint
from services.mqtt import ConnectRefusedError, MqttClient
from services.tables.runner import TablesRunner


def test_join_hands_out_random_tokens_stored_only_as_hashes(
    tables: TablesRunner, lobby: LobbyClient, data_file: Path
) -> None:
    table = lobby.create("kings-corner")
    joined = lobby.request("join", table=table, name="Ana")["data"]
    assert joined["seat"] == 0 and joined["host"] is True
    assert len(joined["password"]) >= 32  # 192 random bits, URL-safe
    second = lobby.request("join", table=table, name="Ben")["data"]
    assert second["seat"] == 1 and second["host"] is False
    raw = data_file.read_bytes() + Path(f"{data_file}-wal").read_bytes()
    assert joined["password"].encode() not in raw
    with sqlite3.connect(data_file) as db:
        hashes = [row[0] for row in db.execute("SELECT token_hash FROM players")]
    assert len(hashes) == 2 and all(len(h) == 64 for h in hashes)


def test_refusals_name_their_reason(tables: TablesRunner, lobby: LobbyClient) -> None:
    assert lobby.request("join", table="NOPE", name="Ana")["error"] == {
        "code": "unknown_table",
        "params": {"table": "NOPE"},
    }
    table = lobby.create("kings-corner")
    assert lobby.request("join", table=table, name="Ana")["status"] == "ok"
    assert lobby.request("join", table=table, name="ana")["error"]["code"] == "name_taken"
    assert lobby.host(table, "lock")["status"] == "ok"
    assert lobby.request("join", table=table, name="Ben")["error"]["code"] == "table_locked"
    assert lobby.host(table, "unlock")["status"] == "ok"
    for name in ("Ben", "Cy", "Di", "Ed", "Flo"):
        assert lobby.request("join", table=table, name=name)["status"] == "ok"
    full = lobby.request("join", table=table, name="Gus")
    assert full["error"] == {"code": "table_full", "params": {"table": table, "seats": 6}}
    bad = lobby.request("create", game="chess")
    assert bad["error"] == {"code": "unknown_game", "params": {"game": "chess"}}


def test_start_fills_empty_seats_with_bots_and_kick_hands_the_seat_to_a_bot(
    tables: TablesRunner,
    lobby: LobbyClient,
    phones: Callable[..., Phone],
    broker: BrokerEndpoint,
) -> None:
    table = lobby.create("kings-corner")
    ana = phones(table, "Ana")
    assert lobby.host(table, "start")["status"] == "ok"
    public = ana.box.wait(ana.public_topic, lambda m: m["status"] == "playing")
    # Bots get friendly names in the table's language (the host's: English here), a level.
    assert [(p["name"], p["bot"]) for p in public["players"]] == [("Ana", False), ("Ada", True)]
    assert public["players"][1]["level"] == "normal"
    kicked = lobby.host(table, "kick", seat=0)
    assert kicked["status"] == "ok"
    public = lobby.public(table, lambda m: m["players"][0]["bot"])
    # The bot taking the removed player's seat has a name of its own, not the player's.
    assert public["players"][0]["name"] not in ("Ana", "Ada")
    # The kicked player's account is gone.
    client = MqttClient(broker.url(ana.username, ana.password))
    try:
        client.start()
        refused = False
        try:
            client.wait_connected(WAIT)
        except ConnectRefusedError:
            refused = True
        assert refused
    finally:
        client.stop()


def test_pause_refuses_moves_until_resumed(
    tables: TablesRunner, lobby: LobbyClient, phones: Callable[..., Phone]
) -> None:
    table = lobby.create("kings-corner", first_dealer="random")
    ana, ben = phones(table, "Ana"), phones(table, "Ben")
    assert lobby.host(table, "start")["status"] == "ok"
    assert lobby.host(table, "pause")["status"] == "ok"
    public = ana.box.wait(ana.public_topic, lambda m: m["paused"])
    mover = ana if public["state"]["current_seat"] == ana.seat else ben
    action = mover.view(newer_than=public["seq"] - 1)["state"]["legal_actions"][0]
    refused = mover.act(action, seq=public["seq"])
    assert refused["error"]["code"] == "table_paused"
    assert lobby.host(table, "resume")["status"] == "ok"
    resumed = ana.box.wait(ana.public_topic, lambda m: not m["paused"] and m["seq"] > public["seq"])
    assert mover.act(action, seq=resumed["seq"])["status"] == "ok"
    assert lobby.host(table, "set_options", options={"deal": 9})["error"]["code"] == (
        "options_locked"
    )


def test_presence_and_reconnection(
    tables: TablesRunner,
    lobby: LobbyClient,
    phones: Callable[..., Phone],
    broker: BrokerEndpoint,
) -> None:
    table = lobby.create("kings-corner")
    ana = phones(table, "Ana")
    seq = ana.view()["seq"]
    ana.stop()  # the page below takes over Ana's account (one client id per account)
    presence_topic = topics.seat_topic(table, ana.seat, "presence")
    online = json.dumps({"v": 1, "online": True}).encode()
    offline = json.dumps({"v": 1, "online": False}).encode()
    # A phone with a last will, as the page does it (plain paho: we need to cut its socket).
    phone = paho.Client(CallbackAPIVersion.VERSION2, client_id=ana.username, protocol=paho.MQTTv311)
    phone.username_pw_set(ana.username, ana.password)
    phone.will_set(presence_topic, offline, qos=1, retain=True)
    view_topic = topics.table_view(table)
    lobby.box.messages.pop(view_topic, None)  # from here on, only views published later
    phone.connect(broker.host, broker.tcp_port or 0)
    phone.loop_start()
    phone.publish(presence_topic, online, qos=1, retain=True).wait_for_publish(WAIT)
    lobby.public(table, lambda m: bool(m["players"]) and m["players"][0]["online"])
    phone.loop_stop()
    sock = phone.socket()
    assert sock is not None
    lobby.box.messages.pop(view_topic, None)
    sock.close()  # the connection dies without a DISCONNECT: the broker sends the will
    phone._reset_sockets()  # paho would close its wake-up pair only in __del__
    lobby.public(table, lambda m: bool(m["players"]) and not m["players"][0]["online"])
    # A client that reconnects gets its current view at once (retained), nothing asked.
    box = Mailbox()
    again = MqttClient(broker.url(ana.username, ana.password), client_id=ana.username)
    again.subscribe(ana.view_topic, box.put)
    again.start().wait_connected(WAIT)
    try:
        assert box.wait(ana.view_topic, lambda m: True)["seq"] == seq
    finally:
        again.stop()
