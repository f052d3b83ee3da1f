"""Every level of every game answers one of the seat view's legal actions, from random
positions reached under random rule options, having followed the seat's views."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.errors import OptionError
from engine.registry import game_rules
from services.bots.players import LEVELS, UnknownPlayerError, hint_action, make_player

GAMES = ("kings-corner", "five-crowns")


@st.composite
def positions(draw: st.DrawFn, game: str) -> tuple[Any, int, dict[str, Any]]:
    """A game with random options and seats, played at random for a random while."""
    rules = game_rules(game)
    options = {
        spec.name: draw(st.sampled_from(spec.choices))
        for spec in rules.OPTIONS
        if spec.choices and spec.name != "packs"
    }
    if game == "five-crowns":
        options["start_round"] = draw(st.integers(1, 11))
    seats = draw(st.integers(2, min(rules.MAX_SEATS, 5)))
    seed = draw(st.integers(0, 10_000))
    try:
        state = rules.new_game(seats, seed, options)
    except OptionError:
        assume(False)
    return state, draw(st.integers(0, 120)), options


def play_and_check(game: str, level: str, state: Any, steps: int, seed: int) -> int:
    """Random play for ``steps`` actions while every seat's player follows its views; then
    the bots play on; every choice must be legal. Returns the decisions checked."""
    rules = game_rules(game)
    chooser = random.Random(seed)
    players = [make_player(game, level, seat) for seat in range(state.seats)]
    checked = 0
    for step in range(steps + 40):
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
        if step < steps:
            action = legal[chooser.randrange(len(legal))]
        else:
            wire = players[seat].choose({**public, **state.private_view(seat)})
            action = rules.parse_action(wire)
            assert action in legal, (level, wire)
            checked += 1
        state, _ = state.apply(seat, action)
    return checked


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game", GAMES)
@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_every_level_only_chooses_legal_actions(game: str, level: str, data: st.DataObject) -> None:
    state, steps, _ = data.draw(positions(game))
    play_and_check(game, level, state, steps, data.draw(st.integers(0, 1000)))


@settings(max_examples=20, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10_000), steps=st.integers(0, 60))
def test_the_hint_is_a_legal_action_of_the_seat(game: str, seed: int, steps: int) -> None:
    rules = game_rules(game)
    state = rules.new_game(2, seed, {"start_round": 9} if game == "five-crowns" else {})
    chooser = random.Random(seed)
    for _ in range(steps):
        seat = state.current_seat
        if seat is None:
            break
        legal = state.legal_actions(seat)
        state, _ = state.apply(seat, legal[chooser.randrange(len(legal))])
    seat = state.current_seat
    assume(seat is not None)
    hint = hint_action(game, state.view_for(seat))
    assert hint is not None and rules.parse_action(hint) in state.legal_actions(seat)
    other = 1 - seat
    assert hint_action(game, state.view_for(other)) is None  # not its turn: nothing to hint


def test_unknown_games_and_levels_are_refused() -> None:
    with pytest.raises(UnknownPlayerError):
        make_player("chess", "normal", 1)
    with pytest.raises(UnknownPlayerError):
        make_player("five-crowns", "grandmaster", 1)
