"""What each seat, and the TV, may see of a state: JSON-ready dicts, never a hidden card."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.errors import IllegalActionError
from engine.kings_corner.setup import NAME
from engine.kings_corner.tables import PILES, TEXT, cards_of

if TYPE_CHECKING:
    from engine.kings_corner.state import State


def view_for(state: State, seat: int | None) -> dict[str, Any]:
    """The public table, plus the seat's own hand and legal actions when ``seat`` is given.

    Nobody sees the stock's order or another seat's cards; the first-dealer draws and the
    piles are face up for everyone.
    """
    view = public_view(state)
    if seat is not None:
        view.update(private_view(state, seat))
    return view


def public_view(state: State) -> dict[str, Any]:
    """What everyone sees (the TV's view)."""
    last = state.history[-1].to_dict() if state.history else None
    outcome = state.outcome()
    return {
        "game": NAME,
        "phase": state.phase,
        "round": state.round_number,
        "dealer": state.dealer,
        "current_seat": state.current_seat,
        # Straight from the card numbers: views are built for every seat after every move.
        "piles": {
            name: [TEXT[card] for card in pile]
            for name, pile in zip(PILES, state._piles, strict=True)
        },
        "stock_count": state.stock_count,
        "hand_counts": list(state.hand_counts),
        "scores": list(state.scores),
        "options": state.options,
        "idle_turns": state.idle_turns,
        "extra_turn_due": state.king_cornered_this_turn and state.setup.royal_kings,
        "dealer_draws": [
            [{"seat": drawer, "card": TEXT[card]} for drawer, card in draw]
            for draw in state.setup.dealer_draws
        ],
        "last_round": last,
        "score_sheet": [result.to_dict() for result in state.history],
        "outcome": outcome.to_dict() if outcome is not None else None,
    }


def private_view(state: State, seat: int) -> dict[str, Any]:
    """What only ``seat`` sees: its hand and its legal actions."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
        raise IllegalActionError("no_such_seat", seat=seat)
    return {
        "seat": seat,
        "hand": [TEXT[card] for card in cards_of(state._hands[seat])],
        "legal_actions": [action.to_wire() for action in state.legal_actions(seat)],
    }
