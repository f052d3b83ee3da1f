"""Reading a Kings in the Corner seat view: cards, pile tops, what fits where."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import KING, Card, parse_card
from engine.kings_corner import Move, Play

CORNERS = ("NE", "SE", "SW", "NW")


def fits_on(card: Card, top: Card) -> bool:
    """One rank lower and the other colour: how every pile is built."""
    return card.rank == top.rank - 1 and card.is_red != top.is_red


def tops(view: Mapping[str, Any]) -> dict[str, Card | None]:
    piles: Mapping[str, Sequence[str]] = view.get("piles") or {}
    return {name: parse_card(cards[-1]) if cards else None for name, cards in piles.items()}


def hand_of(view: Mapping[str, Any]) -> list[Card]:
    return [parse_card(text) for text in view.get("hand", ())]


def is_king(card: Card | None) -> bool:
    return card is not None and card.rank == KING


def chain_below(card: Card, hand: Sequence[Card]) -> int:
    """How many cards of ``hand`` could follow ``card`` down a pile (the longest chain)."""
    length, top = 0, card
    while True:
        follower = next((other for other in hand if fits_on(other, top)), None)
        if follower is None:
            return length
        length, top = length + 1, follower


Tops = dict[str, Card | None]


def tops_of(piles: Mapping[str, Sequence[Card]]) -> tuple[Tops, Tops]:
    """Each pile's top and bottom card (None: empty), from an engine state's piles."""
    top = {name: pile[-1] if pile else None for name, pile in piles.items()}
    bottom = {name: pile[0] if pile else None for name, pile in piles.items()}
    return top, bottom


def follow(top: Tops, bottom: Tops, action: object) -> None:
    """Bring ``top`` and ``bottom`` up to date after a play or a move (in place).

    A search follows the piles this way rather than reading them again: what comes next
    depends on the tops (what may go on) and bottoms (what may move) alone.
    """
    if isinstance(action, Play):
        if top[action.pile] is None:
            bottom[action.pile] = action.card
        top[action.pile] = action.card
    elif isinstance(action, Move):
        if top[action.target] is None:
            bottom[action.target] = bottom[action.source]
        top[action.target] = top[action.source]
        top[action.source] = bottom[action.source] = None
