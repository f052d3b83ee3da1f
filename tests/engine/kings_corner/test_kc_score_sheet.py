"""The public view keeps every round of a session, for the TV's score sheet."""

from __future__ import annotations

import random

from engine import kings_corner
from engine.playout import random_playout


def test_every_round_of_a_session_is_in_the_view() -> None:
    options = {"session": True, "target": 10}
    last = None
    rounds_played = 0
    for step in random_playout(kings_corner, 3, 11, options, random.Random(11)):
        last = step.state
        if step.seat is None:
            rounds_played += 1
    assert last is not None and last.outcome() is not None
    sheet = last.view_for(None)["score_sheet"]
    assert [row["round"] for row in sheet] == list(range(1, rounds_played + 2))
    totals = [sum(row["penalties"][seat] for row in sheet) for seat in range(3)]
    assert totals == last.view_for(None)["scores"]
