"""What each screen may see: the TV (no hidden card) and each seat (its own hand too)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from engine.cards import Card
from engine.errors import IllegalActionError
from engine.five_crowns import turns
from engine.five_crowns.deck import card_text
from engine.five_crowns.melds import best_arrangement
from engine.five_crowns.model import TIEBREAK_ROUND, LastRound, Phase, cards_dealt
from engine.five_crowns.rounds import game_outcome, seats_in_order
from engine.five_crowns.variants import Variant

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


@dataclass(frozen=True, slots=True, eq=False)
class _RoundPart:
    """What a public view shows that changes only between rounds, for the values it was
    made from (compared by identity: a round's states share them, being immutable)."""

    history: tuple[tuple[int, ...], ...]
    variant: Variant
    last_round: LastRound | None
    round: int
    seats: int
    players: tuple[int, ...]
    scores: tuple[int, ...]
    score_sheet: list[dict[str, Any]]  # shared by the views: read only
    last_round_view: dict[str, Any] | None  # likewise
    options: dict[str, Any]


# The parts of the last few rounds seen (a service keeps several tables going).
_round_parts: deque[_RoundPart] = deque(maxlen=8)


def _round_part(state: FiveCrownsState) -> _RoundPart:
    history, variant, last = state.history, state.variant, state.last_round
    for part in reversed(_round_parts):  # the latest first
        if (
            part.history is history
            and part.variant is variant
            and part.last_round is last
            and part.round == state.round
            and part.seats == len(state.hands)
        ):
            return part
    part = _RoundPart(
        state.history,
        state.variant,
        state.last_round,
        state.round,
        len(state.hands),
        state.players,
        state.totals(),
        _score_sheet(state),
        _last_round(state),
        state.variant.to_dict(),
    )
    _round_parts.append(part)
    return part


def public_view(state: FiveCrownsState) -> dict[str, Any]:
    """The TV's view: counts, the discard pile's top, scores; never a hidden card."""
    playing = state.phase in (Phase.DRAW, Phase.DISCARD)
    went_out = state.went_out
    laid_down = None
    if playing and went_out is not None:  # laid face up on the table
        laid_down = _laid_down(state.hands[went_out], state.wild_rank)
    outcome = game_outcome(state)
    part = _round_part(state)
    discard, taken = state.discard, state.taken
    return {
        "game": GAME,
        "phase": state.phase.value,
        "last_turn": playing and went_out is not None,
        "last_turns_left": _last_turns_left(state),
        "round": state.round,
        "tiebreak_round": state.round == TIEBREAK_ROUND,
        "first_round": state.variant.start_round,
        "cards_dealt": state.cards_dealt,
        "wild_rank": state.wild_rank,
        "dealer": state.dealer,
        "current_seat": state.turn,
        "players": list(part.players),
        "stock_count": len(state.stock),
        "discard_top": card_text(discard[-1]) if discard else None,
        "discard_count": len(discard),
        "round_turns": state.round_turns,
        "solo_turns_left": state.solo_turns_left if playing else None,
        "taken_from_discard": None if taken is None else card_text(taken),
        "hand_counts": [len(hand) for hand in state.hands],
        "went_out": went_out,
        "laid_down": laid_down,
        "scores": list(part.scores),
        "score_sheet": part.score_sheet,
        "last_round": part.last_round_view,
        "outcome": None if outcome is None else outcome.to_dict(),
        "options": dict(part.options),
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
        "legal_actions": [action.to_wire() for action in turns.legal_actions(state, seat)],
    }
    if hint:
        playing = state.phase in (Phase.DRAW, Phase.DISCARD) and seat in state.players
        view["hint"] = _hint(state, seat) if playing else None
    return view


@lru_cache(maxsize=1024)
def _texts(cards: tuple[Card, ...]) -> tuple[str, ...]:
    """Cards' text forms: a hand is shown in every view until its seat plays."""
    return tuple(card_text(card) for card in cards)


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
        found = _HINTS[key] = turns.hint(state, seat)
    return dict(found)
