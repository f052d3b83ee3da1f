"""Reading a Kings in the Corner seat view: cards, pile tops, what fits where."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import KING, Card, parse_card

CORNERS = ("NE", "SE", "SW", "NW")


def fits_on(card: Card, top: Card) -> bool:
    """One rank lower and the other colour: how every pile is built."""
    return card.rank == top.rank - 1 and card.is_red != top.is_red


def tops(view: Mapping[str, Any]) -> dict[str, Card | None]:
    piles: Mapping[str, Sequence[str]] = view.get("piles") or {}
    return {name: parse_card(cards[-1]) if cards else None for name, cards in piles.items()}


def hand_of(view: Mapping[str, Any]) -> list[Card]:
    return [parse_card(text) for text in view.get("hand", ())]


def card_of(action: Mapping[str, Any]) -> Card | None:
    card = action.get("card")
    return parse_card(card) if isinstance(card, str) else None


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
