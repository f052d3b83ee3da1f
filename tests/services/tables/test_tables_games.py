"""Whole games of both games played by scripted phones through the real broker."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from tables_clients import LobbyClient, Phone

from services.bots.players import hint_action
from services.tables.runner import TablesRunner

MAX_STEPS = 3000


def play_to_the_end(lobby: LobbyClient, table: str, players: list[Phone]) -> dict[str, Any]:
    """Every seat plays its own view until the game is over; returns the last public view."""
    by_seat = {phone.seat: phone for phone in players}
    public = players[0].box.wait(players[0].public_topic, lambda m: m["status"] != "lobby")
    for _ in range(MAX_STEPS):
        public = players[0].public(newer_than=public["seq"] - 1)
        if public["status"] == "finished":
            return public
        if public["status"] == "round_over":
            assert lobby.host(table, "next_round")["status"] == "ok"
            public = players[0].public(newer_than=public["seq"])
            continue
        phone = by_seat[public["state"]["current_seat"]]
        view = phone.view(newer_than=public["seq"] - 1)
        assert view["seq"] == public["seq"]
        action = hint_action(view["state"]["game"], view["state"])
        assert action is not None, view
        reply = phone.act(action, seq=view["seq"])
        assert reply["status"] == "ok", (action, reply)
        assert reply["seq"] == view["seq"] + 1
        public = players[0].public(newer_than=view["seq"])
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("kings-corner", {"session": True, "target": 25}),
        ("five-crowns", {"start_round": 9}),
    ],
)
def test_a_whole_game_through_mqtt(
    game: str,
    options: dict[str, Any],
    tables: TablesRunner,
    lobby: LobbyClient,
    phones: Callable[..., Phone],
) -> None:
    table = lobby.create(game, **options)
    ana, ben = phones(table, "Ana"), phones(table, "Ben")
    assert lobby.host(table, "start")["status"] == "ok"
    final = play_to_the_end(lobby, table, [ana, ben])
    assert final["state"] is not None
    scores = final["state"]["scores"]
    assert len(scores) == 2
    # The finished game is in the database, with the same totals the TV shows.
    assert tables.store is not None
    rows = list(tables.store.db["results"].rows_where("table_code = ?", [table]))
    assert len(rows) == 1
    assert json.loads(rows[0]["outcome"])["scores"] == scores
    # Every accepted change is in the log, one entry per seq.
    assert tables.store.log_length(table) == final["seq"]
