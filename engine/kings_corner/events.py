"""Event codes and constructors.

Events are immutable, so the frequent ones (a play, a move, a draw, a turn's end) are
made once per distinct value and then shared: the tables below fill in on first use.
Parameters are read-only mappings, so a shared event cannot be changed by a reader.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from engine.game import Event
from engine.kings_corner.actions import MOVE_BASE
from engine.kings_corner.setup import MAX_SEATS
from engine.kings_corner.tables import PILES, TEXT


def event(code: str, seat: int | None = None, **params: Any) -> Event:
    """A new event with read-only parameters."""
    return Event(code, seat, MappingProxyType(params))


# Index: (seat * MOVE_BASE + op) * 2 + onto_empty.
PLAY_EVENTS: list[Event | None] = [None] * (MAX_SEATS * MOVE_BASE * 2)
# Index: (seat * 64 + source * 8 + target) * 2 + onto_empty.
MOVE_EVENTS: list[Event | None] = [None] * (MAX_SEATS * 64 * 2)
# Index: seat * 52 + card.
DRAW_EVENTS: list[Event | None] = [None] * (MAX_SEATS * 52)
# Index: seat * 8 + next seat.
TURN_EVENTS: list[Event | None] = [None] * (MAX_SEATS * 8)


def play_event(seat: int, op: int, onto_empty: int) -> Event:
    """``played`` on a pile, ``filled`` an empty side spot, or ``king_to_corner``."""
    card, pile = op >> 3, op & 7
    code = "played" if not onto_empty else "filled" if pile < 4 else "king_to_corner"
    made = event(code, seat, card=TEXT[card], pile=PILES[pile])
    PLAY_EVENTS[(seat * MOVE_BASE + op) * 2 + onto_empty] = made
    return made


def move_event(seat: int, source: int, target: int, onto_empty: int) -> Event:
    """``moved`` onto a pile, or ``moved_to_corner`` (a King-bottom pile into a corner)."""
    code = "moved_to_corner" if onto_empty else "moved"
    made = event(code, seat, **{"from": PILES[source], "to": PILES[target]})
    MOVE_EVENTS[(seat * 64 + source * 8 + target) * 2 + onto_empty] = made
    return made


def draw_event(seat: int, card: int) -> Event:
    """``drew``: the card itself is a secret only the drawer sees."""
    made = Event("drew", seat, MappingProxyType({}), MappingProxyType({"card": TEXT[card]}))
    DRAW_EVENTS[seat * 52 + card] = made
    return made


def turn_event(seat: int, next_seat: int) -> Event:
    """``turn_ended``, naming whose turn it is now."""
    made = event("turn_ended", seat, next_seat=next_seat)
    TURN_EVENTS[seat * 8 + next_seat] = made
    return made
