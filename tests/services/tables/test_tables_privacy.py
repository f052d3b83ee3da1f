"""A second player never receives the first player's hand: live, retained, on connect,
or through any wildcard subscription; and the TV never receives a hidden card."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from conftest import LobbyClient, Phone  # type: ignore[import-not-found]

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
    # Live: a recorder with the second player's credentials and every greedy filter.
    own_view = topics.seat_topic(table, second.seat, "view")
    every_filter = (*filters, topics.table_view(table), own_view)
    live = mqtt_recorder(broker.url(second.username, second.password), every_filter)
    # The first player acts, so fresh private views are published while it listens.
    public = first.public()
    mover = first if public["state"]["current_seat"] == first.seat else second
    assert mover.act(mover.view()["state"]["legal_actions"][0])["status"] == "ok"
    # Retained / on connect: a fresh connection after the hands were published retained.
    late = mqtt_recorder(broker.url(second.username, second.password), every_filter)
    for recorder in (live, late):
        # A sync republishes every view, the first seat's before the second's: once the
        # second seat's copy arrives, anything of the first seat's would have arrived too.
        seen = len(recorder.payloads(own_view))
        assert lobby.host(table, "sync")["status"] == "ok"
        wait_until(lambda r=recorder, n=seen: len(r.payloads(own_view)) > n)
        first_seat_topics = {t for t in recorder.topics() if f"/seat/{first.seat}/" in t}
        assert first_seat_topics == set()
        every_payload = [p for t in recorder.topics() for p in recorder.payloads(t)]
        assert hidden_cards(every_payload, hand) == []
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
