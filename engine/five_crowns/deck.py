"""Five Crowns cards: the 116-card pack, wild cards, penalty values and hand order."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from engine.cards import CLUBS, DIAMONDS, HEARTS, JOKER, KING, SPADES, STARS, Card

SUITS: tuple[str, ...] = (HEARTS, DIAMONDS, CLUBS, SPADES, STARS)
LOWEST_RANK = 3
RANKS: tuple[int, ...] = tuple(range(LOWEST_RANK, KING + 1))
JOKERS_PER_PACK = 6
PACK_SIZE = len(SUITS) * len(RANKS) * 2 + JOKERS_PER_PACK  # 116
WILD_PENALTY = 20
JOKER_PENALTY = 50

_SUIT_ORDER = {suit: index for index, suit in enumerate(SUITS)}


@lru_cache(maxsize=4)  # every round deals from it: made once (a tuple, immutable)
def full_deck(packs: int = 1) -> tuple[Card, ...]:
    """Every card of ``packs`` packs in a fixed order (two of each card per pack, 6 jokers)."""
    one_pack = [Card(rank, suit) for _ in range(2) for suit in SUITS for rank in RANKS]
    one_pack += [JOKER] * JOKERS_PER_PACK
    return tuple(one_pack * packs)


_TEXTS = {card: str(card) for card in full_deck()}


def card_text(card: Card) -> str:
    """``str(card)``, looked up: views spell every card they show, after every move."""
    return _TEXTS.get(card) or str(card)


def is_five_crowns_card(card: Card) -> bool:
    """True for a card that exists in a Five Crowns pack."""
    return card == JOKER or (card.suit in _SUIT_ORDER and card.rank in RANKS)


def is_wild(card: Card, wild_rank: int) -> bool:
    """Jokers are always wild; so is every card of the round's wild rank."""
    return card.rank == wild_rank or card == JOKER


def card_penalty(card: Card, wild_rank: int) -> int:
    """What ``card`` costs when it is left in hand at the end of a round."""
    if card == JOKER:
        return JOKER_PENALTY
    if card.rank == wild_rank:
        return WILD_PENALTY
    return card.rank


def hand_order(card: Card) -> tuple[int, int]:
    """Sort key of a hand: by suit (H D C S T), then rank; jokers last."""
    return (_SUIT_ORDER.get(card.suit, len(SUITS)), card.rank)


_ORDER = {card: hand_order(card) for card in full_deck()}


def sorted_hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    listed = list(cards)
    try:  # looked up: every draw sorts a hand
        return tuple(sorted(listed, key=_ORDER.__getitem__))
    except KeyError:  # not a Five Crowns card (a position being checked)
        return tuple(sorted(listed, key=hand_order))
