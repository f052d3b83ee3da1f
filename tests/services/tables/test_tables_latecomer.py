"""A latecomer (issue 9, item 15): seated beyond the game under way, watching, and dealt
into the next game; the table model alone, as the tables service replays it."""

from __future__ import annotations

from typing import Any

import pytest

from services.tables.table import Table, TableError
from services.tables.views import seat_view, table_view


def join(table: Table, name: str, **extra: Any) -> int:
    seat = table.free_seat()
    assert seat is not None
    table.apply({"kind": "join", "seat": seat, "player_id": f"p-{name}", "name": name, **extra})
    return seat


def playing_table() -> Table:
    table = Table(code="LATE")
    table.apply({"kind": "create", "game": "kings-corner", "options": {}})
    join(table, "Ana", host=True)
    join(table, "Bob")
    table.apply({"kind": "start", "seed": 7})
    assert table.status == "playing" and table.state is not None
    return table


def test_a_latecomer_watches_the_game_under_way_and_plays_the_next() -> None:
    table = playing_table()
    hands_before = table_view(table)["state"]["hand_counts"]
    seat = join(table, "Zoé")
    assert seat == 2
    public = table_view(table)
    # The game under way is unchanged; Zoé is listed, with no hand yet.
    assert public["state"]["hand_counts"] == hands_before
    assert [player["name"] for player in public["players"]] == ["Ana", "Bob", "Zoé"]
    view = seat_view(table, seat)
    assert view["state"] is None and view["name"] == "Zoé"
    # Zoé cannot act in a game she is not dealt into.
    with pytest.raises(TableError):
        table.apply({"kind": "act", "seat": seat, "action": {"type": "draw"}})
    table.apply({"kind": "end_session"})
    table.apply({"kind": "rematch", "seed": 8})
    assert table.state is not None and table.state.seats == 3
    assert seat_view(table, seat)["state"]["hand"]


def test_a_locked_table_refuses_a_latecomer_and_a_removed_latecomer_leaves_no_bot() -> None:
    table = playing_table()
    table.apply({"kind": "lock"})
    with pytest.raises(TableError) as refused:
        join(table, "Zoé")
    assert refused.value.code == "table_locked"
    table.apply({"kind": "unlock"})
    seat = join(table, "Zoé")
    table.apply({"kind": "kick", "seat": seat, "bot_id": "bot-x"})
    assert seat not in table.seats  # not in the game: nobody needs to take over
    # A player of the game under way is still handed to a computer player.
    table.apply({"kind": "kick", "seat": 1, "bot_id": "bot-y"})
    assert table.seats[1].bot
