"""The checks every reachable position passes: run by the tests after every action."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from engine.cards import KING, standard_deck

if TYPE_CHECKING:
    from engine.kings_corner.state import State


class InvariantError(AssertionError):
    """A position the rules cannot reach."""


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise InvariantError(message)


def check_invariants(state: State) -> None:
    """Raise ``InvariantError`` naming the first broken invariant."""
    seats = state.seats
    piles = state.piles
    hands = [state.hand(seat) for seat in range(seats)]
    every = [card for hand in hands for card in hand]
    every += [card for pile in piles.values() for card in pile]
    every += state.stock
    counts = Counter(every)
    missing = sorted(str(card) for card in standard_deck() if counts[card] == 0)
    doubled = sorted(str(card) for card, count in counts.items() if count > 1)
    _require(len(every) == 52 and not missing, f"cards missing: {missing}, count {len(every)}")
    _require(not doubled, f"cards held twice: {doubled}")
    for name, pile in piles.items():
        if name in ("NE", "SE", "SW", "NW") and pile:
            _require(pile[0].rank == KING, f"corner {name} starts with {pile[0]}")
        for lower, upper in zip(pile[1:], pile, strict=False):
            _require(
                lower.rank == upper.rank - 1 and lower.is_red != upper.is_red,
                f"pile {name}: {lower} on {upper}",
            )
    _check_turn(state)
    _check_scores(state)


def _check_turn(state: State) -> None:
    seat, phase = state.current_seat, state.phase
    over = phase in ("round_over", "game_over")
    _require((seat is None) == over, f"current seat {seat} in phase {phase}")
    _require(0 <= state.dealer < state.seats, f"dealer {state.dealer}")
    _require(state.round_number >= 1, f"round {state.round_number}")
    if over:
        last = state.history[-1] if state.history else None
        _require(last is not None and last.number == state.round_number, "round over, no result")
        assert last is not None
        counts = state.hand_counts
        if last.reason == "went_out":
            _require(len(last.winners) == 1 and counts[last.winners[0]] == 0, "no winner went out")
        else:
            fewest = [seat for seat, count in enumerate(counts) if count == min(counts)]
            _require(list(last.winners) == fewest, f"blocked round won by {last.winners}")
        return
    assert seat is not None
    _require(0 <= seat < state.seats, f"current seat {seat}")
    _require(all(state.hand_counts), f"an empty hand while playing: {state.hand_counts}")
    _require(0 <= state.idle_turns < state.seats, f"idle turns {state.idle_turns}")
    if phase == "draw":
        _require(state.setup.options["draw"] == "start", "a draw phase without drawing first")
        _require(state.stock_count > 0, "a draw phase with an empty stock")
        _require(not state.acted_this_turn, "acted before drawing")
    if state.king_cornered_this_turn:
        _require(state.acted_this_turn, "a King cornered without acting")


def _check_scores(state: State) -> None:
    _require(len(state.scores) == state.seats, f"scores {state.scores}")
    _require(all(score >= 0 for score in state.scores), f"scores {state.scores}")
    for result in state.history:
        _require(bool(result.winners), f"round {result.number} has no winner")
        _require(len(result.penalties) == state.seats, f"penalties {result.penalties}")
        _require(all(result.penalties[w] == 0 for w in result.winners), "a winner was penalised")
    penalties = [sum(column) for column in zip(*(r.penalties for r in state.history), strict=True)]
    if penalties and len(state.history) == state.round_number:
        _require(list(state.scores) == penalties, f"scores {state.scores} ≠ rounds {penalties}")
