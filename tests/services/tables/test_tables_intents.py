"""Intents: seq, double taps, redelivery, seat ownership, and replies to the sender alone."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable

from tables_clients import LobbyClient, Phone

from protocol import topics
from services.tables.runner import TablesRunner


def started_table(lobby: LobbyClient, phones: Callable[..., Phone]) -> tuple[str, Phone, Phone]:
    table = lobby.create("kings-corner", first_dealer="random")
    first, second = phones(table, "Ana"), phones(table, "Ben")
    assert lobby.host(table, "start")["status"] == "ok"
    for phone in (first, second):  # until each phone holds its dealt hand
        phone.box.wait(phone.view_topic, lambda m: m["state"] is not None)
    return table, first, second


def whose_turn(first: Phone, second: Phone) -> tuple[Phone, Phone]:
    public = first.box.wait(first.public_topic, lambda m: m["status"] == "playing")
    turn = public["state"]["current_seat"]
    return (first, second) if first.seat == turn else (second, first)


def test_a_double_tap_is_refused_as_stale_and_applied_once(
    tables: TablesRunner, lobby: LobbyClient, phones: Callable[..., Phone]
) -> None:
    table, first, second = started_table(lobby, phones)
    mover, _ = whose_turn(first, second)
    view = mover.view()
    action = view["state"]["legal_actions"][0]
    assert mover.act(action, seq=view["seq"])["status"] == "ok"
    again = mover.act(action, seq=view["seq"])
    assert again["status"] == "error"
    assert again["error"] == {
        "code": "stale_seq",
        "params": {"seq": view["seq"], "current": view["seq"] + 1},
    }
    assert tables.store is not None
    assert tables.store.log_length(table) == view["seq"] + 1


def test_a_redelivered_intent_is_answered_again_but_not_applied_twice(
    tables: TablesRunner, lobby: LobbyClient, phones: Callable[..., Phone]
) -> None:
    table, first, second = started_table(lobby, phones)
    mover, _ = whose_turn(first, second)
    view = mover.view()
    action = view["state"]["legal_actions"][0]
    intent_id = uuid.uuid4().hex[:10]
    reply = mover.act(action, seq=view["seq"], intent_id=intent_id)
    assert reply["status"] == "ok"
    mover.box.messages.pop(mover.reply_topic)
    assert mover.act(action, seq=view["seq"], intent_id=intent_id) == reply
    assert tables.store is not None
    assert tables.store.log_length(table) == reply["seq"]


def test_acting_out_of_turn_or_for_another_seat_is_refused_to_the_sender_only(
    tables: TablesRunner, lobby: LobbyClient, phones: Callable[..., Phone]
) -> None:
    table, first, second = started_table(lobby, phones)
    mover, waiter = whose_turn(first, second)
    view = waiter.view()
    out_of_turn = waiter.act({"type": "draw"}, seq=view["seq"])
    assert out_of_turn["status"] == "error"
    assert out_of_turn["error"]["code"] == "not_your_turn"
    # Signing with the other player's id on one's own topic: the service checks ownership.
    impostor = waiter.act({"type": "draw"}, seq=view["seq"], player=mover.player_id)
    assert impostor["error"]["code"] == "not_your_seat"
    # Publishing on the other seat's topic: the broker drops it, nothing happens.
    message = {
        "v": 1,
        "id": "impostor2",
        "op": "act",
        "seq": view["seq"],
        "player": mover.player_id,
        "action": {"type": "draw"},
    }
    waiter.client.publish(mover.intent_topic, json.dumps(message).encode())
    # The mover's own next action still sees the untouched table.
    assert mover.act(mover.view()["state"]["legal_actions"][0])["status"] == "ok"
    assert all(m["id"] != "impostor2" for m in mover.box.messages.get(mover.reply_topic, []))
    refused_ids = {m["id"] for m in waiter.box.messages.get(waiter.reply_topic, [])}
    assert not refused_ids & {m["id"] for m in mover.box.messages.get(mover.reply_topic, [])}
    assert tables.store is not None
    assert tables.store.log_length(table) == view["seq"] + 1


def test_sync_republishes_the_current_view(
    tables: TablesRunner, lobby: LobbyClient, phones: Callable[..., Phone]
) -> None:
    _, first, _ = started_table(lobby, phones)
    seq = first.view()["seq"]
    first.box.messages.pop(first.view_topic)
    reply = first.send({"v": 1, "id": "sync1", "op": "sync"})
    assert reply == {"v": 1, "id": "sync1", "status": "ok", "seq": seq}
    assert first.view()["seq"] == seq


def test_host_parameters_cannot_smuggle_a_move_or_a_seed(
    tables: TablesRunner, lobby: LobbyClient, phones: Callable[..., Phone]
) -> None:
    table, first, second = started_table(lobby, phones)
    mover, _ = whose_turn(first, second)
    view = mover.view()
    action = view["state"]["legal_actions"][0]
    # A host op whose parameters try to become a move for the mover's seat.
    smuggled = lobby.host(table, "lock", kind="act", seat=mover.seat, action=action)
    assert smuggled["status"] == "ok"
    assert tables.store is not None
    kinds = [entry["kind"] for entry in tables.store.entries(table)]
    assert kinds[-1] == "lock"
    assert "act" not in kinds
    assert all("action" not in entry for entry in tables.store.entries(table))


def test_on_one_machine_the_service_asks_intents_at_qos_1(
    tables: TablesRunner, lobby: LobbyClient
) -> None:
    """Its status tells the senders the QoS of intents: 1 where a QoS 1 publish is cheap
    (on NATS it is 0: ``test_with_the_nats_store_replies_come_at_qos_0``)."""
    status = lobby.box.wait(topics.service_status("tables"), lambda m: m["online"])
    assert status["intent_qos"] == 1
