"""Helpers shared by the Kings in the Corner tests (imported by their unique module name)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.errors import RuleError
from engine.game import Event
from engine.kings_corner import State, parse_action, parse_position, state_from_dict


def at(text: str) -> State:
    """The position written in the one-line notation."""
    return parse_position(text)


def act(state: State, wire: dict[str, Any]) -> tuple[State, tuple[Event, ...]]:
    """The seat to act does the action given by its wire form."""
    seat = state.current_seat
    assert seat is not None, "nobody is to act"
    return state.apply(seat, parse_action(wire))


def after(state: State, *wires: dict[str, Any]) -> State:
    """The state after the seat(s) to act do each action in turn."""
    for wire in wires:
        state, _ = act(state, wire)
    return state


def refusal(state: State, wire: dict[str, Any], seat: int | None = None) -> RuleError:
    """The error refusing the action; the state must be left exactly as it was."""
    before = state.to_dict()
    acting = state.current_seat if seat is None else seat
    with pytest.raises(RuleError) as caught:
        state.apply(acting if acting is not None else 0, parse_action(wire))
    assert state.to_dict() == before
    return caught.value


def wires(state: State) -> list[dict[str, Any]]:
    """The wire forms of the legal actions of the seat to act."""
    seat = state.current_seat
    return [] if seat is None else [action.to_wire() for action in state.legal_actions(seat)]


def play(card: str, pile: str) -> dict[str, Any]:
    return {"type": "play", "card": card, "pile": pile}


def move(source: str, target: str) -> dict[str, Any]:
    return {"type": "move", "from": source, "to": target}


DRAW: dict[str, Any] = {"type": "draw"}
END: dict[str, Any] = {"type": "end_turn"}


def scramble(state: State, viewer: int | None, rng: random.Random) -> State:
    """The same position with every card ``viewer`` cannot see dealt differently.

    Other seats' hands and the stock are pooled, shuffled and dealt back in the same
    counts; what is face up (piles) and the viewer's own hand stay.
    """
    data = state.to_dict()
    hidden_seats = [seat for seat in range(state.seats) if seat != viewer]
    pool = list(data["stock"]) + [card for seat in hidden_seats for card in data["hands"][seat]]
    rng.shuffle(pool)
    data["stock"], rest = pool[: len(data["stock"])], pool[len(data["stock"]) :]
    for seat in hidden_seats:
        size = len(data["hands"][seat])
        data["hands"][seat], rest = rest[:size], rest[size:]
    return state_from_dict(data)
