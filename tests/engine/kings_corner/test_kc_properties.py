"""Random legal games for 2 to 6 players under random options, checked after every action."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kc_helpers import scramble

from engine.errors import RuleError
from engine.kings_corner import State, new_game, parse_action, parse_position
from engine.kings_corner.actions import ACTIONS


def options_for(seats: int) -> st.SearchStrategy[dict[str, Any]]:
    """Any options, with a deal that fits the table (the impossible ones: see test_kc_rounds)."""
    deals = [deal for deal in (7, 6, 9, 10, 13) if seats * deal + 4 <= 52]
    return st.fixed_dictionaries(
        {
            "deal": st.sampled_from([deal for deal in deals if deal != 9 or seats <= 3]),
            "draw": st.sampled_from(["start", "end", "never"]),
            "kings_to_corners": st.booleans(),
            "king_pile_to_corner": st.booleans(),
            "mandatory_kings": st.booleans(),
            "royal_kings": st.booleans(),
            "session": st.booleans(),
            "scoring": st.sampled_from(["kings_ten", "face_value", "alternate"]),
            "target": st.sampled_from([5, 15, 25]),
            "first_dealer": st.sampled_from(["high_card", "random"]),
        }
    )


TABLES = st.integers(2, 6).flatmap(lambda seats: st.tuples(st.just(seats), options_for(seats)))


def check_step(state: State, chooser: random.Random, step: int) -> None:
    """Everything that must hold in a position reached by legal play."""
    state.check_invariants()
    seat = state.current_seat
    if seat is None:
        return
    before = state.to_dict()
    legal = state.legal_actions(seat)
    assert legal, "the seat to act always has something to do"
    assert len(set(legal)) == len(legal)
    for action in legal:
        following, events = state.apply(seat, action)
        following.check_invariants()
        assert events
    unlisted = [action for action in ACTIONS if action not in legal]
    refused = unlisted[chooser.randrange(len(unlisted))]
    try:
        state.apply(seat, refused)
    except RuleError as error:
        assert error.code != "illegal_action", (state.to_position(), refused)
    else:
        raise AssertionError(f"{refused} was not listed but was accepted")
    other = (seat + 1) % state.seats
    assert state.legal_actions(other) == () or other == seat
    assert state.to_dict() == before, "refusals and look-ahead change nothing"
    if step % 4 == 0:
        text = state.to_position()
        assert parse_position(text).to_position() == text
        for viewer in (None, seat, other):
            assert scramble(state, viewer, chooser).view_for(viewer) == state.view_for(viewer)


def play_out(state: State, chooser: random.Random, check: bool) -> tuple[State, list[Any]]:
    """Play to the end of the game; the list records every action (None: a new round)."""
    record: list[Any] = []
    for step in range(5000):
        if check:
            check_step(state, chooser, step)
        seat = state.current_seat
        if seat is None:
            if not state.can_start_next_round():
                return state, record
            state, _ = state.start_next_round()
            record.append(None)
            continue
        legal = state.legal_actions(seat)
        action = legal[chooser.randrange(len(legal))]
        record.append(action.to_wire())
        state, _ = state.apply(seat, action)
    raise AssertionError("the game did not end")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=TABLES, seed=st.integers(0, 2**32), chooser_seed=st.integers(0, 2**16))
def test_random_games_keep_every_rule(
    table: tuple[int, dict[str, Any]], seed: int, chooser_seed: int
) -> None:
    seats, options = table
    first = new_game(seats, seed, options)
    final, record = play_out(first, random.Random(chooser_seed), check=True)
    outcome = final.outcome()
    assert outcome is not None
    assert outcome.winners
    if options["session"]:
        assert max(final.scores) >= options["target"]
        assert all(final.scores[seat] == min(final.scores) for seat in outcome.winners)
    # The same seed and actions give the same game.
    replayed = new_game(seats, seed, options)
    for wire in record:
        if wire is None:
            replayed, _ = replayed.start_next_round()
        else:
            assert replayed.current_seat is not None
            replayed, _ = replayed.apply(replayed.current_seat, parse_action(wire))
    assert replayed.to_dict() == final.to_dict()


@settings(max_examples=10, deadline=None)
@given(seats=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_the_old_state_is_left_unchanged(seats: int, seed: int) -> None:
    state = new_game(seats, seed)
    chooser = random.Random(seed)
    for _ in range(40):
        seat = state.current_seat
        if seat is None:
            break
        before = state.to_dict()
        legal = state.legal_actions(seat)
        following, _ = state.apply(seat, legal[chooser.randrange(len(legal))])
        assert state.to_dict() == before
        assert state.legal_actions(seat) == legal
        state = following
