"""Random games for 1 to 7 players: invariants, replay, round trips and privacy."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from engine.cards import Card
from engine.five_crowns import describe_event, parse_position, state_from_dict
from engine.five_crowns.deck import sorted_hand
from engine.five_crowns.describe import EVENT_CODES
from engine.five_crowns.model import Phase
from engine.five_crowns.state import FiveCrownsState
from engine.playout import random_playout
from engine.registry import game_rules

RULES = game_rules("five-crowns")


def scramble(state: FiveCrownsState, viewer: int | None, rng: random.Random) -> FiveCrownsState:
    """The same position with every card ``viewer`` cannot see dealt differently."""
    playing = state.phase in (Phase.DRAW, Phase.DISCARD)
    hidden_seats = [
        seat for seat in range(state.seats) if playing and seat != viewer and seat != state.went_out
    ]
    hands = [list(hand) for hand in state.hands]
    kept: dict[int, list[Card]] = {}
    if state.taken is not None and state.turn in hidden_seats:  # taken in view of all
        hands[state.turn].remove(state.taken)
        kept[state.turn] = [state.taken]
    hidden = list(state.stock) + [card for seat in hidden_seats for card in hands[seat]]
    rng.shuffle(hidden)
    stock, rest = hidden[: len(state.stock)], hidden[len(state.stock) :]
    new_hands = list(state.hands)
    for seat in hidden_seats:
        size = len(hands[seat])
        new_hands[seat] = sorted_hand(rest[:size] + kept.get(seat, []))
        rest = rest[size:]
    return replace(state, stock=tuple(stock), hands=tuple(new_hands))


def check_privacy(state: FiveCrownsState, rng: random.Random) -> None:
    for viewer in [None, *range(state.seats)]:
        other = scramble(state, viewer, rng)
        other.check_invariants()
        assert other.view_for(viewer) == state.view_for(viewer)


def check_round_trips(state: FiveCrownsState) -> None:
    data = state.to_dict()
    assert state_from_dict(json.loads(json.dumps(data))) == state
    assert parse_position(state.to_position()) == state


@pytest.mark.parametrize(
    ("seats", "options"),
    [(seats, {"start_round": 9}) for seats in range(1, 8)]  # the long rounds: reshuffles
    + [(10, {"packs": 2, "start_round": 10})],
)
def test_random_games_keep_every_invariant(seats: int, options: dict[str, int]) -> None:
    rng = random.Random(seats)
    steps = list(
        random_playout(RULES, seats, seed=seats, options=options, chooser=random.Random(seats))
    )
    rounds = sum(step.seat is None for step in steps)
    final = steps[-1].state
    assert final.outcome() is not None and rounds == 11 - options["start_round"]
    for index, step in enumerate(steps):
        state = step.state
        assert isinstance(state, FiveCrownsState)
        state.check_invariants()
        for event in step.events:
            assert event.code in EVENT_CODES and describe_event(event)
            json.dumps(event.to_dict())
        if index % 40 == 0 or step.seat is None:
            check_round_trips(state)
            check_privacy(state, rng)
            json.dumps(state.view_for(None))


def test_a_game_replays_exactly() -> None:
    def transcript() -> list[object]:
        return [
            (step.seat, step.action, step.events, step.state.to_dict())
            for step in random_playout(
                RULES, 3, seed="replay", chooser=random.Random(5), options={"start_round": 10}
            )
        ]

    assert transcript() == transcript()


def test_whole_game_from_round_one() -> None:
    steps = list(random_playout(RULES, 4, seed=99, chooser=random.Random(99)))
    final = steps[-1].state
    assert isinstance(final, FiveCrownsState)
    outcome = final.outcome()
    assert outcome is not None
    assert len(final.history) == 11 and outcome.scores == final.totals()
    assert final.view_for(None)["score_sheet"][10]["round"] == 11


def test_states_are_never_changed_by_play() -> None:
    state = RULES.new_game(2, 3)
    before = state.to_dict()
    seat = state.current_seat
    assert seat is not None
    state.apply(seat, state.legal_actions(seat)[0])
    assert state.to_dict() == before
