"""Precomputed card and pile tables.

Inside the engine a card is its number 0..51 (its index in ``standard_deck()``: suit by
suit in the order clubs, diamonds, hearts, spades, Ace to King) and a hand is a bit mask
of those numbers. Everything the hot path asks about a card is a tuple lookup here.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import KING, Card, standard_deck

CARDS: tuple[Card, ...] = standard_deck()
CARD_NUMBER: dict[Card, int] = {card: number for number, card in enumerate(CARDS)}
RANK: tuple[int, ...] = tuple(card.rank for card in CARDS)
RED: tuple[bool, ...] = tuple(card.is_red for card in CARDS)
TEXT: tuple[str, ...] = tuple(str(card) for card in CARDS)
BIT: tuple[int, ...] = tuple(1 << number for number in range(52))
FULL_DECK_MASK = (1 << 52) - 1

KINGS: tuple[int, ...] = tuple(n for n in range(52) if RANK[n] == KING)
KING_MASK = sum(BIT[n] for n in KINGS)

# FITS_ON[top]: the cards that may be put on ``top`` (one rank lower, opposite colour).
FITS_ON: tuple[tuple[int, ...], ...] = tuple(
    tuple(n for n in range(52) if RANK[n] == RANK[top] - 1 and RED[n] != RED[top])
    for top in range(52)
)
FITS_MASK: tuple[int, ...] = tuple(sum(BIT[n] for n in fits) for fits in FITS_ON)
# ABOVE[bottom]: the top cards a pile starting with ``bottom`` may be moved onto.
ABOVE: tuple[tuple[int, ...], ...] = tuple(
    tuple(n for n in range(52) if RANK[n] == RANK[bottom] + 1 and RED[n] != RED[bottom])
    for bottom in range(52)
)
ABOVE_MASK: tuple[int, ...] = tuple(sum(BIT[n] for n in above) for above in ABOVE)

PILES: tuple[str, ...] = ("N", "E", "S", "W", "NE", "SE", "SW", "NW")
PILE_INDEX: dict[str, int] = {name: index for index, name in enumerate(PILES)}
SIDES: tuple[int, ...] = (0, 1, 2, 3)
CORNERS: tuple[int, ...] = (4, 5, 6, 7)

# Penalty points per card for each scoring scheme (rules.md section 1, "Scoring").
_SCHEME_BY_RANK: dict[str, dict[int, int]] = {
    "kings_ten": {rank: 10 if rank == KING else 1 for rank in range(1, 14)},
    "face_value": {rank: 10 if rank == KING else 1 if rank > 10 else rank for rank in range(1, 14)},
    "alternate": {rank: 25 if rank == 1 else 10 if rank > 10 else rank for rank in range(1, 14)},
}
PENALTY: dict[str, tuple[int, ...]] = {
    scheme: tuple(values[RANK[n]] for n in range(52)) for scheme, values in _SCHEME_BY_RANK.items()
}


# _BYTE_CARDS[k][byte]: the card numbers of the bits set in the k-th byte of a hand mask.
_BYTE_CARDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(k * 8 + bit for bit in range(8) if byte >> bit & 1) for byte in range(256))
    for k in range(7)
)
_B0, _B1, _B2, _B3, _B4, _B5, _B6 = _BYTE_CARDS


def cards_of(mask: int) -> tuple[int, ...]:
    """The card numbers in a hand mask, lowest first (a lookup per byte: this is hot)."""
    return (
        _B0[mask & 255]
        + _B1[mask >> 8 & 255]
        + _B2[mask >> 16 & 255]
        + _B3[mask >> 24 & 255]
        + _B4[mask >> 32 & 255]
        + _B5[mask >> 40 & 255]
        + _B6[mask >> 48]
    )


def mask_of(numbers: Iterable[int]) -> int:
    """The hand mask holding ``numbers``."""
    mask = 0
    for number in numbers:
        mask |= BIT[number]
    return mask
