"""Every Kings in the Corner level, under every rule variant rules.md names, answers one
of the seat view's legal actions, from random positions, having followed its views."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.errors import OptionError
from engine.kings_corner import OPTIONS, State, new_game, parse_action
from services.bots.players import LEVELS, OMNISCIENT, make_player

# One game per named variant: each choice of each option (the target is a number: a few).
VARIANTS: list[tuple[str, Any]] = [
    (spec.name, value)
    for spec in OPTIONS
    for value in (spec.choices or (1, 25, 250))
    if value != spec.default
]


def play_checked(
    level: str, state: State, random_steps: int, seed: int, bot_steps: int = 60
) -> int:
    """Random play for ``random_steps`` actions, then the level in every seat for
    ``bot_steps``; every seat's player follows all its views. Returns the bot decisions."""
    chooser = random.Random(seed)
    players = [make_player("kings-corner", level, f"{seed}:{seat}") for seat in range(state.seats)]
    checked = 0
    for step in range(random_steps + bot_steps):
        seat = state.current_seat
        public = state.view_for(None)
        for other, player in enumerate(players):
            player.observe({**public, **state.private_view(other)})
        if seat is None:
            if not state.can_start_next_round():
                break
            state, _ = state.start_next_round()
            continue
        legal = state.legal_actions(seat)
        if step < random_steps:
            action = legal[chooser.randrange(len(legal))]
        else:
            see = getattr(players[seat], "see_everything", None)
            if see is not None:
                see(state)
            wire = players[seat].choose({**public, **state.private_view(seat)})
            action = parse_action(wire)
            assert action in legal, (level, wire, state.to_position())
            checked += 1
        state, _ = state.apply(seat, action)
    return checked


@pytest.mark.parametrize("level", [*LEVELS, OMNISCIENT])
@pytest.mark.parametrize(("option", "value"), VARIANTS)
@settings(
    max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_every_level_plays_every_variant_legally(
    option: str, value: Any, level: str, data: st.DataObject
) -> None:
    seats = data.draw(st.integers(2, 6), label="seats")
    try:
        state = new_game(seats, data.draw(st.integers(0, 10_000), label="seed"), {option: value})
    except OptionError:
        assume(False)  # e.g. nine cards each at four seats
    steps = data.draw(st.integers(0, 80), label="random steps")
    play_checked(level, state, steps, data.draw(st.integers(0, 1000)))


@pytest.mark.parametrize("level", [*LEVELS, OMNISCIENT])
@settings(max_examples=8, deadline=None)
@given(
    seats=st.integers(2, 5),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 60),
    draw=st.sampled_from(["start", "end", "never"]),
    deal=st.sampled_from([6, 7, 10, 13]),
    flags=st.lists(st.booleans(), min_size=4, max_size=4),
)
def test_every_level_plays_mixed_variants_legally(
    level: str, seats: int, seed: int, steps: int, draw: str, deal: int, flags: list[bool]
) -> None:
    names = ("kings_to_corners", "king_pile_to_corner", "mandatory_kings", "royal_kings")
    options: dict[str, Any] = {"draw": draw, "deal": deal, **dict(zip(names, flags, strict=True))}
    try:
        state = new_game(seats, seed, options)
    except OptionError:
        assume(False)
    play_checked(level, state, steps, seed)
