"""Kings in the Corner ``hard``: its turn search, its quick judgement, its read of the
others' hands and the positions it samples from it."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import parse_card
from engine.kings_corner import END_TURN, State, new_game, parse_action, parse_position
from services.bots.kings_corner import hard, normal
from services.bots.kings_corner.board import tops_of
from services.bots.kings_corner.judge import Judge
from services.bots.kings_corner.position import deal_hidden, sample_state, unseen_cards
from services.bots.kings_corner.reading import WEIGHT_BY_AGE, Reading, fitting


def play_turn(player: hard.Player, state: State, seat: int) -> State:
    """Let ``player`` play ``seat``'s whole turn (from its views); the state after."""
    while state.current_seat == seat:
        view = state.view_for(seat)
        player.observe(view)
        wire = player.choose(view)
        state, _ = state.apply(seat, parse_action(wire))
    return state


def test_hard_finds_the_turn_that_empties_its_hand_through_a_pile_move() -> None:
    # Only E onto N frees a spot; the Queen fills it and the Jack follows.
    state = parse_position("9S/8D/3H/5S/-/-/-/- QC,JD/* - 0 play draw=never")
    after = play_turn(hard.Player(1), state, 0)
    assert after.current_seat is None and after.hand_counts[0] == 0


def test_the_search_visits_each_position_once_and_every_plan_replays_legally() -> None:
    # One empty side spot, a King for a corner, chains: many orders reach the same boards.
    state = parse_position("9S/3H/5S/-/-/-/-/- 8H,7C,QS,JH,KD,AD,AH/* - 0 play draw=never")
    endings = hard.turn_endings(state, 0, budget=100_000)
    keys = {(e.hand, tuple(e.top.values()), tuple(e.bottom.values())) for e in endings}
    assert len(keys) == len(endings) > 1
    assert any(e.plan == (END_TURN,) for e in endings)  # holding everything is a choice too
    for ending in endings:
        replay = state
        for action in ending.plan:
            assert action in replay.legal_actions(0)
            replay, _ = replay.apply(0, action)
        assert replay.hand(0) == ending.hand
        assert tops_of(replay.piles) == (ending.top, ending.bottom)


def test_the_node_budget_bounds_the_search() -> None:
    state = parse_position("9S/3H/5S/-/-/-/-/- 8H,7C,QS,JH,KD,AD,AH/* - 0 play draw=never")
    assert len(hard.turn_endings(state, 0, budget=50)) <= 50


def test_an_empty_side_spot_left_to_the_next_seat_judges_worse() -> None:
    state = parse_position("9S/8D/3H/5S/-/-/-/- QC,JD,4C/* - 0 play draw=never")
    judge = Judge(state, 0, {})
    top, _ = tops_of(state.piles)
    hand = tuple(parse_card(text) for text in ("JD", "4C"))
    filled = {**top, "N": parse_card("8D"), "E": parse_card("QC")}  # E onto N, Queen on E
    empty = {**top, "N": parse_card("8D"), "E": None}  # the same hand, E left empty
    assert judge.score(hand, filled) > judge.score(hand, empty)


def test_the_read_marks_the_cards_that_fitted_the_board_a_seat_left() -> None:
    reading = Reading()
    start = parse_position("9S/8D/3H/5S/-/-/-/- QC,JD/2C,4D * 1 play draw=never")
    reading.observe(start.view_for(0))
    after, _ = start.apply(1, END_TURN)  # seat 1 ends its turn on this board
    reading.observe(after.view_for(0))
    weights = reading.weights()[1]
    assert set(weights) == fitting(after.view_for(0)["piles"])
    assert {"8H", "8D", "7C", "7S", "2S", "2C", "4H", "4D", "KC"} <= set(weights)
    assert set(weights.values()) == {WEIGHT_BY_AGE[0]}
    again = parse_position("9S/8D/3H/5S/-/-/-/- QC,JD/2C,4D * 1 play draw=never round=2")
    reading.observe(again.view_for(0))
    assert reading.weights() == {}  # a new round: nothing is known any more


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), seats=st.integers(2, 4), turns=st.integers(1, 12))
def test_a_normal_player_never_holds_a_card_the_read_rules_out(
    seed: int, seats: int, turns: int
) -> None:
    """``normal`` never ends a turn with a play left: what it holds fitted no board it left
    (the newest read), so the sampled positions lose nothing by avoiding those cards."""
    state = new_game(seats, seed)
    reading = Reading()
    ended = 0
    while state.current_seat is not None and ended < turns * seats:
        reading.observe(state.view_for(0))
        mover = state.current_seat
        action = normal.pick_in(state, mover)
        state, _ = state.apply(mover, action)
        ended += state.current_seat != mover
        if state.current_seat == 0:
            reading.observe(state.view_for(0))
            for other, weights in reading.weights().items():
                ruled_out = {card for card, w in weights.items() if w == WEIGHT_BY_AGE[0]}
                assert not ruled_out & {str(card) for card in state.hand(other)}


def test_the_deal_of_the_hidden_cards_follows_the_counts_and_the_weights() -> None:
    state = parse_position("9S/8D/3H/5S/-/-/-/- QC,JD/* - 0 play draw=never")
    view = {**state.view_for(0), "hand_counts": [2, 7, 7]}
    hidden = unseen_cards(view)
    chooser = random.Random(3)
    held: Counter[str] = Counter()
    for _ in range(2000):
        hands, rest = deal_hidden(hidden, [2, 7, 7], 0, chooser, {1: {"8H": 0.03}})
        assert hands[0] == [] and [len(hand) for hand in hands[1:]] == [7, 7]
        assert sorted([*hands[1], *hands[2], *rest]) == sorted(hidden)
        held.update(hands[1])
    assert held["8H"] * 5 < held["8C"]  # an unlikely card is dealt there far less often
    sample = sample_state(state.view_for(0), chooser)
    assert sample.hand(0) == state.hand(0) and sample.piles == state.piles


def test_out_of_time_the_search_still_answers_a_whole_legal_turn() -> None:
    state = parse_position("9S/3H/5S/-/-/-/-/- 8H,7C,QS,JH,KD,AD,AH/* - 0 play draw=never")
    plan = hard.best_plan([state, state], 0, {}, think_seconds=0.0)
    for action in plan:
        assert action in state.legal_actions(0)
        state, _ = state.apply(0, action)
    assert state.current_seat != 0  # the plan ended the turn
