"""A second player never receives the first player's hand: live, retained, on connect,
or through any wildcard subscription; and the TV never receives a hidden card."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from tables_clients import LobbyClient, Phone

from protocol import topics
from services.broker.settings import BrokerEndpoint
from services.tables.runner import TablesRunner

GREEDY_FILTERS = (
    "#",
    "gamenight/#",
    "gamenight/v1/table/+/seat/+/view",
    "gamenight/v1/table/+/seat/#",
    "+/+/+/+/+/+",
)


def wait_until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def hidden_cards(payloads: list[bytes], hand: set[str]) -> list[str]:
    """Every card of ``hand`` that appears as a hand card in any received message."""
    leaks = []
    for payload in payloads:
        message: Any = json.loads(payload)
        state = message.get("state") if isinstance(message, dict) else None
        if isinstance(state, dict) and set(state.get("hand", ())) & hand:
            leaks.append(json.dumps(state)[:120])
    return leaks


def check_no_leak(
    recorder: Any, lobby: LobbyClient, table: str, other_seat: int, own_view: str, hand: set[str]
) -> None:
    # A sync republishes every view, the other seat's before this one's: once this seat's
    # copy arrives, anything of the other seat's would have arrived too.
    seen = len(recorder.payloads(own_view))
    assert lobby.host(table, "sync")["status"] == "ok"
    wait_until(lambda: len(recorder.payloads(own_view)) > seen)
    assert {t for t in recorder.topics() if f"/seat/{other_seat}/" in t} == set()
    every_payload = [p for t in recorder.topics() for p in recorder.payloads(t)]
    assert hidden_cards(every_payload, hand) == []


@pytest.mark.parametrize("filters", [GREEDY_FILTERS])
def test_second_player_never_receives_the_first_players_hand(
    filters: tuple[str, ...],
    tables: TablesRunner,
    broker: BrokerEndpoint,
    lobby: LobbyClient,
    phones: Callable[..., Phone],
    mqtt_recorder: Callable[..., Any],
) -> None:
    table = lobby.create("kings-corner")
    first = phones(table, "Ana")
    second = phones(table, "Ben")
    assert lobby.host(table, "start")["status"] == "ok"
    hand = set(first.box.wait(first.view_topic, lambda m: m["state"] is not None)["state"]["hand"])
    # The broker binds an account to one client id, so the recorders below take over the
    # second player's connection: they are that player, with every greedy filter.
    second.stop()
    own_view = topics.seat_topic(table, second.seat, "view")
    every_filter = (*filters, topics.table_view(table), own_view)
    url = broker.url(second.username, second.password)
    live = mqtt_recorder(url, every_filter, client_id=second.username)
    # Live: fresh private views are published while it listens (a move, if it is the
    # first player's turn, and a sync that republishes every seat's view).
    public = first.public()
    if public["state"]["current_seat"] == first.seat:
        assert first.act(first.view()["state"]["legal_actions"][0])["status"] == "ok"
    check_no_leak(live, lobby, table, first.seat, own_view, hand)
    live.client.stop()
    # Retained / on connect: a fresh connection after the hands were published retained.
    late = mqtt_recorder(url, every_filter, client_id=second.username)
    check_no_leak(late, lobby, table, first.seat, own_view, hand)
    # The second player does get its own hand (the recorder is not simply deaf).
    own = late.payloads(own_view)
    assert own and json.loads(own[-1])["state"]["hand"]


def test_the_tv_view_holds_no_hidden_card(
    tables: TablesRunner, lobby: LobbyClient, phones: Callable[..., Phone]
) -> None:
    table = lobby.create("five-crowns")
    first, second = phones(table, "Ana"), phones(table, "Ben")
    assert lobby.host(table, "start")["status"] == "ok"
    public = first.box.wait(first.public_topic, lambda m: m["status"] == "playing")
    text = json.dumps(public["state"])
    assert 'hand"' not in text.replace("hand_counts", "")
    for phone in (first, second):
        view = phone.box.wait(phone.view_topic, lambda m: m["state"] is not None)
        assert view["state"]["hand"]
        assert "legal_actions" not in public["state"]
