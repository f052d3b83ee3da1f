"""What each screen may see: the TV (no hidden card) and each seat (its own hand too)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from engine.cards import Card
from engine.errors import IllegalActionError
from engine.five_crowns.melds import best_arrangement
from engine.five_crowns.model import TIEBREAK_ROUND, LastRound, Phase, cards_dealt
from engine.five_crowns.rounds import game_outcome, seats_in_order
from engine.five_crowns.turns import hint, legal_actions

if TYPE_CHECKING:
    from engine.five_crowns.state import FiveCrownsState

GAME = "five-crowns"


def _last_turns_left(state: FiveCrownsState) -> int | None:
    """After someone went out: how many players still have their last turn (this one too)."""
    if state.went_out is None or state.turn is None:
        return None
    order = seats_in_order(state.players, state.went_out, state.seats)
    return len(order) - 1 - order.index(state.turn)


def _score_sheet(state: FiveCrownsState) -> list[dict[str, Any]]:
    start = state.variant.start_round
    return [
        {
            "round": start + index if index < state.regular_rounds else TIEBREAK_ROUND,
            "penalties": list(row),
        }
        for index, row in enumerate(state.history)
    ]


def _last_round(state: FiveCrownsState) -> dict[str, Any] | None:
    last = state.last_round
    if last is None:
        return None
    return _last_round_of(last, state.players_of(last.round))


# Views are built for every seat after every move, and these parts change seldom: the
# solver runs once per value (values are immutable, so a cached answer stays right).
@lru_cache(maxsize=64)
def _last_round_of(last: LastRound, players: tuple[int, ...]) -> dict[str, Any]:
    wild_rank = cards_dealt(last.round)
    return {
        "round": last.round,
        "wild_rank": wild_rank,
        "went_out": last.went_out,
        "results": [
            {"seat": seat, **best_arrangement(last.hands[seat], wild_rank).to_dict()}
            for seat in players
        ],
    }


def public_view(state: FiveCrownsState) -> dict[str, Any]:
    """The TV's view: counts, the discard pile's top, scores; never a hidden card."""
    playing = state.phase in (Phase.DRAW, Phase.DISCARD)
    laid_down = None
    if playing and state.went_out is not None:  # laid face up on the table
        laid_down = _laid_down(state.hands[state.went_out], state.wild_rank)
    outcome = game_outcome(state)
    return {
        "game": GAME,
        "phase": str(state.phase),
        "last_turn": playing and state.went_out is not None,
        "last_turns_left": _last_turns_left(state),
        "round": state.round,
        "tiebreak_round": state.round == TIEBREAK_ROUND,
        "first_round": state.variant.start_round,
        "cards_dealt": state.cards_dealt,
        "wild_rank": state.wild_rank,
        "dealer": state.dealer,
        "current_seat": state.turn,
        "players": list(state.players),
        "stock_count": len(state.stock),
        "discard_top": str(state.discard[-1]) if state.discard else None,
        "discard_count": len(state.discard),
        "round_turns": state.round_turns,
        "solo_turns_left": state.solo_turns_left if playing else None,
        "taken_from_discard": None if state.taken is None else str(state.taken),
        "hand_counts": [len(hand) for hand in state.hands],
        "went_out": state.went_out,
        "laid_down": laid_down,
        "scores": list(state.totals()),
        "score_sheet": _score_sheet(state),
        "last_round": _last_round(state),
        "outcome": None if outcome is None else outcome.to_dict(),
        "options": state.variant.to_dict(),
    }


@lru_cache(maxsize=256)
def _laid_down(hand: tuple[Card, ...], wild_rank: int) -> list[dict[str, Any]]:
    return [meld.to_dict() for meld in best_arrangement(hand, wild_rank).melds]


def view_for(state: FiveCrownsState, seat: int | None) -> dict[str, Any]:
    """``seat``'s view (its hand, legal actions and a hint); None: the TV's."""
    view = public_view(state)
    if seat is not None:
        view.update(private_view(state, seat))
    return view


def private_view(state: FiveCrownsState, seat: int, *, hint: bool = True) -> dict[str, Any]:
    """What only ``seat`` sees: its hand, its legal actions and a hint (``hint=False``:
    no ``hint`` key, for a reader that does not use it)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
        raise IllegalActionError("bad_seat", seat=seat)
    view = {
        "seat": seat,
        "hand": list(_texts(state.hands[seat])),
        "legal_actions": [action.to_wire() for action in legal_actions(state, seat)],
    }
    if hint:
        playing = state.phase in (Phase.DRAW, Phase.DISCARD) and seat in state.players
        view["hint"] = _hint(state, seat) if playing else None
    return view


@lru_cache(maxsize=1024)
def _texts(cards: tuple[Card, ...]) -> tuple[str, ...]:
    """Cards' text forms: a hand is shown in every view until its seat plays."""
    return tuple(str(card) for card in cards)


_HINTS: dict[tuple[Any, ...], dict[str, Any]] = {}
_HINTS_LIMIT = 4096


def _hint(state: FiveCrownsState, seat: int) -> dict[str, Any]:
    """``turns.hint``, solved once per hand: every view of every seat carries it, and a
    hand is shown many times unchanged (the other seats' turns)."""
    hand = state.hands[seat]
    to_discard = state.phase == Phase.DISCARD and seat == state.turn
    # Everything the hint depends on: the hand, the wild rank, and the taken-card rule.
    key = (hand, state.wild_rank, to_discard, state.taken, state.variant.discard_taken)
    found = _HINTS.get(key)
    if found is None:
        if len(_HINTS) >= _HINTS_LIMIT:
            _HINTS.clear()
        found = _HINTS[key] = hint(state, seat)
    return dict(found)
