"""Five Crowns solo: a round lasts at most ``solo_turns`` turns, then the hand is scored."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.five_crowns import new_game, parse_position, state_from_dict
from engine.five_crowns.melds import min_penalty
from engine.five_crowns.model import Phase
from engine.playout import random_playout
from engine.registry import game_rules

RULES = game_rules("five-crowns")
DRAW_STOCK = {"type": "draw", "source": "stock"}


def test_a_solo_round_ends_after_its_turns_and_scores_the_hand() -> None:
    # The player keeps 3H 9D KS, which never meld (3H is wild, alone it scores 20).
    state = parse_position("fc solo_turns=3 | hands: 3H 9D KS | discard: 4C | stock: 6T 8S ...")
    assert state.view_for(None)["solo_turns_left"] == 3
    codes: list[str] = []
    for number in range(3):
        held = Counter(state.hands[0])
        state, _ = state.apply(0, DRAW_STOCK)
        (drawn,) = Counter(state.hands[0]) - held
        state, events = state.apply(0, {"type": "discard", "card": str(drawn)})
        state.check_invariants()
        codes = [event.code for event in events]
        if number < 2:
            assert state.phase == Phase.DRAW
            assert state.view_for(None)["solo_turns_left"] == 2 - number
    assert codes == ["discarded", "turn_limit", "round_ended"]
    assert state.phase == Phase.ROUND_OVER
    # Before: no limit, the round went on until the player went out, and scored 0.
    assert state.history[-1] == (min_penalty(state.hands[0], 3),) == (20 + 9 + 13,)
    assert state.totals() == (42,)


def test_going_out_before_the_limit_still_ends_the_round_at_once() -> None:
    state = parse_position("fc solo_turns=2 | hands: 4H 5H 6H | discard: KC | stock: QS ...")
    state, _ = state.apply(0, DRAW_STOCK)
    state, events = state.apply(0, {"type": "go_out", "discard": "QS"})
    assert [event.code for event in events][:2] == ["went_out", "round_ended"]
    assert state.history[-1] == (0,)


def test_the_limit_is_for_solo_play_only() -> None:
    state = new_game(2, 5, {"solo_turns": 1})
    for _ in range(3):  # three turns, round 1 still on: only solo play has a limit
        seat = state.turn
        assert seat is not None
        state, _ = state.apply(seat, DRAW_STOCK)
        discard = next(a for a in state.legal_actions(seat) if a.to_wire()["type"] == "discard")
        state, _ = state.apply(seat, discard)
        assert state.phase == Phase.DRAW
    assert state.view_for(None)["solo_turns_left"] is None


def test_turns_taken_are_kept_by_the_notation_and_the_stored_form() -> None:
    state = parse_position("fc turns=4 | hands: 3H 9D KS | discard: 4C")
    assert state.round_turns == 4 and state.view_for(None)["solo_turns_left"] == 6
    assert parse_position(state.to_position()) == state
    assert state_from_dict(state.to_dict()) == state


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    limit=st.integers(1, 12),
    start_round=st.integers(1, 11),
    chooser=st.integers(0, 2**16),
)
def test_every_solo_round_ends_within_its_turns_and_scores_what_is_left(
    seed: int, limit: int, start_round: int, chooser: int
) -> None:
    options = {"solo_turns": limit, "start_round": start_round}
    turns = 0
    rounds = 0
    previous = None
    for step in random_playout(RULES, 1, seed, options, random.Random(chooser)):
        state = step.state
        if step.seat is None:  # a new round
            assert turns == 0
            continue
        if step.action.to_wire()["type"] != "draw":
            turns += 1
        assert turns <= limit
        if state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            rounds += 1
            went_out = state.went_out == 0
            assert went_out or turns == limit
            assert state.history[-1] == (min_penalty(state.hands[0], state.wild_rank),)
            assert state_from_dict(state.to_dict()) == state
            turns = 0
        previous = state
    assert previous is not None and previous.phase == Phase.GAME_OVER
    assert rounds == 11 - start_round + 1
    outcome = previous.outcome()
    assert outcome is not None and outcome.reason == "solo"
    assert outcome.scores == (sum(row[0] for row in previous.history),)
