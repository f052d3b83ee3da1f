"""Both games: a seat's view is exactly the public view plus its private part."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.playout import random_playout
from engine.registry import game_rules

# Five Crowns rounds are long under random play: the first steps show every phase.
STEPS = 120


@settings(max_examples=25, deadline=None)
@given(
    game=st.sampled_from(["kings-corner", "five-crowns"]),
    seats=st.integers(min_value=2, max_value=5),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_a_seat_view_is_the_public_view_and_its_private_part(
    game: str, seats: int, seed: int
) -> None:
    rules = game_rules(game)
    playout = random_playout(rules, seats, seed, chooser=random.Random(seed))
    for step in itertools.islice(playout, STEPS):
        public = step.state.view_for(None)
        for seat in range(seats):
            private = step.state.private_view(seat)
            assert private["seat"] == seat
            assert not set(private) & set(public)  # adds, never overrides
            assert step.state.view_for(seat) == {**public, **private}
            # Without the hint: the same view, less the hint (a game that has one).
            unadvised = step.state.private_view(seat, hint=False)
            assert "hint" not in unadvised
            assert unadvised == {key: value for key, value in private.items() if key != "hint"}
