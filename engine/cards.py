"""Playing cards shared by every game: values, text form, colours.

A card is a small immutable tuple ``Card(rank, suit)`` so that equality, hashing and
sorting run in C. Ranks are numbers (Ace 1 … King 13, Joker 0); suits are one letter.
Text form: rank then suit, ``"7H"``, ``"10S"``, ``"QT"`` (a queen of stars), ``"JK"`` (joker).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

HEARTS, DIAMONDS, CLUBS, SPADES, STARS = "H", "D", "C", "S", "T"
JOKER_SUIT = "J"
JOKER_RANK = 0
ACE, JACK, QUEEN, KING = 1, 11, 12, 13

FRENCH_SUITS: tuple[str, ...] = (CLUBS, DIAMONDS, HEARTS, SPADES)
RED_SUITS = frozenset({HEARTS, DIAMONDS})
BLACK_SUITS = frozenset({CLUBS, SPADES})

_RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}
_TEXT_RANK = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}


class CardSyntaxError(ValueError):
    """A card's text form could not be read."""

    code = "bad_card"

    def __init__(self, text: str) -> None:
        super().__init__(f"not a card: {text!r}")
        self.text = text
        self.params = {"card": text}


class Card(NamedTuple):
    """One playing card. Jokers are ``Card(0, "J")``."""

    rank: int
    suit: str

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    def __str__(self) -> str:
        if self.rank == JOKER_RANK:
            return "JK"
        return _RANK_TEXT.get(self.rank, str(self.rank)) + self.suit

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``"7H"``, ``"10s"``, ``"TS"`` (ten), ``"qt"``, ``"JK"``."""
        return parse_card(text)


JOKER = Card(JOKER_RANK, JOKER_SUIT)
_SUITS = frozenset({HEARTS, DIAMONDS, CLUBS, SPADES, STARS})
_PARSE_CACHE: dict[str, Card] = {}


def parse_card(text: str) -> Card:
    """Parse one card's text form; raise ``CardSyntaxError`` if it is not one."""
    cached = _PARSE_CACHE.get(text)
    if cached is not None:
        return cached
    if not isinstance(text, str) or not 2 <= len(text) <= 3:
        raise CardSyntaxError(str(text))
    upper = text.upper()
    if upper == "JK":
        card = JOKER
    else:
        rank_text, suit = upper[:-1], upper[-1]
        if suit not in _SUITS:
            raise CardSyntaxError(text)
        if rank_text.isdigit():
            rank = int(rank_text)
            if not 2 <= rank <= 10:
                raise CardSyntaxError(text)
        elif rank_text in _TEXT_RANK:
            rank = _TEXT_RANK[rank_text]
        else:
            raise CardSyntaxError(text)
        card = Card(rank, suit)
    if len(_PARSE_CACHE) < 4096:  # bounded: hostile input must not grow memory
        _PARSE_CACHE[text] = card
    return card


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse a space-separated list of cards; ``"-"`` or ``""`` is the empty list."""
    words = text.split()
    if words == ["-"]:
        return ()
    return tuple(parse_card(word) for word in words)


def format_cards(cards: Iterable[Card]) -> str:
    """The inverse of ``parse_cards``."""
    text = " ".join(str(card) for card in cards)
    return text or "-"


def standard_deck() -> tuple[Card, ...]:
    """The 52-card French deck in a fixed order (suit by suit, Ace to King)."""
    return tuple(Card(rank, suit) for suit in FRENCH_SUITS for rank in range(ACE, KING + 1))


def same_multiset(first: Iterable[Card], second: Iterable[Card]) -> bool:
    """True when both hold the same cards the same number of times."""
    return Counter(first) == Counter(second)
