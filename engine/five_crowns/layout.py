"""How melds lie on the table: the meld and arrangement values, and their display.

The solver (``melds``) decides which natural cards meld together and how many wilds
each meld needs; this module places the wilds (in gaps, as padding, and the spare ones)
and tidies the result for the screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import KING, Card, format_cards
from engine.five_crowns.deck import LOWEST_RANK, RANKS, is_wild

RUN, BOOK, WILDS = "run", "book", "wilds"
MIN_MELD = 3
LONGEST_RUN = len(RANKS)


@dataclass(frozen=True, slots=True)
class Meld:
    """Cards laid down together; a run lists its cards in rank order, wilds in place."""

    kind: str
    cards: tuple[Card, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "cards": [str(card) for card in self.cards]}

    def __str__(self) -> str:
        return format_cards(self.cards)


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A hand split into melds and leftover cards; ``penalty`` is what the leftover costs."""

    melds: tuple[Meld, ...]
    leftover: tuple[Card, ...]
    penalty: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "melds": [meld.to_dict() for meld in self.melds],
            "leftover": [str(card) for card in self.leftover],
            "penalty": self.penalty,
        }


def meld_kind(cards: Sequence[Card], wild_rank: int) -> str | None:
    """``"run"``, ``"book"`` or ``"wilds"`` when ``cards`` form a valid meld, else None."""
    if len(cards) < MIN_MELD:
        return None
    naturals = [card for card in cards if not is_wild(card, wild_rank)]
    if not naturals:
        return WILDS
    if len({card.rank for card in naturals}) == 1:
        return BOOK
    ranks = {card.rank for card in naturals}
    same_suit = len({card.suit for card in naturals}) == 1
    fits = max(ranks) - min(ranks) + 1 <= len(cards) <= LONGEST_RUN
    if same_suit and len(ranks) == len(naturals) and fits:
        return RUN
    return None


@dataclass(slots=True)
class _Draft:
    """A meld being assembled: runs remember their suit and lowest rank."""

    kind: str
    cards: list[Card]
    suit: str = ""
    low: int = 0

    @property
    def high(self) -> int:
        return self.low + len(self.cards) - 1


def _draft(kind: str, naturals: list[Card], spare: list[Card]) -> _Draft:
    if kind == BOOK:
        cards = naturals + [spare.pop(0) for _ in range(MIN_MELD - len(naturals))]
        return _Draft(BOOK, cards)
    by_rank = {card.rank: card for card in naturals}
    low, high = min(by_rank), max(by_rank)
    length = max(MIN_MELD, high - low + 1)
    low = min(low, KING - length + 1)  # pad upwards, or downwards at the king
    cards = [by_rank.get(rank) or spare.pop(0) for rank in range(low, low + length)]
    return _Draft(RUN, cards, naturals[0].suit, low)


def _absorb(drafts: list[_Draft], spare: list[Card]) -> None:
    """Place the wilds no meld needed. Any meld can take them: a book (or a meld of
    wilds) any number, a run until it spans 3 to K; three spare wilds meld alone; and a
    full 3-to-K run gives its 3 and 4 to a new run that the spare wilds complete."""
    while spare:
        book = next((draft for draft in drafts if draft.kind in (BOOK, WILDS)), None)
        if book is not None:
            book.cards += spare
            spare.clear()
            return
        run = next((draft for draft in drafts if len(draft.cards) < LONGEST_RUN), None)
        if run is not None:
            if run.high < KING:
                run.cards.append(spare.pop(0))
            else:
                run.cards.insert(0, spare.pop(0))
                run.low -= 1
        elif len(spare) >= MIN_MELD:
            drafts.append(_Draft(WILDS, spare[:]))
            spare.clear()
        elif drafts:  # only full 3-to-K runs: their 3 and 4 start a new run with the wilds
            full = drafts[0]
            drafts.append(_Draft(RUN, full.cards[:2] + spare, full.suit, LOWEST_RANK))
            full.cards, full.low = full.cards[2:], LOWEST_RANK + 2
            spare.clear()
        else:
            return


def _merge(drafts: list[_Draft]) -> list[_Draft]:
    """Join books of one rank and runs that continue each other, for a tidier display."""
    merged: list[_Draft] = []
    for draft in sorted(drafts, key=lambda d: (d.kind, d.suit, d.low)):
        previous = merged[-1] if merged else None
        if (
            previous is not None
            and previous.kind == draft.kind == RUN
            and previous.suit == draft.suit
            and previous.high + 1 == draft.low
            and len(previous.cards) + len(draft.cards) <= LONGEST_RUN
        ):
            previous.cards += draft.cards
        else:
            merged.append(draft)
    books: dict[int, _Draft] = {}
    result = []
    for draft in merged:
        if draft.kind == BOOK:
            rank = draft.cards[0].rank  # a book's drafts list their naturals first
            if rank in books:
                books[rank].cards += draft.cards
                continue
            books[rank] = draft
        result.append(draft)
    return result


def lay_out(
    chosen: Sequence[tuple[str, list[Card]]], wilds: Sequence[Card], wild_rank: int
) -> tuple[tuple[Meld, ...], list[Card]]:
    """Melds from the solver's choice (kind, natural cards), with ``wilds`` placed; also
    the wilds no meld could take (only when there is no meld and fewer than three)."""
    spare = list(wilds)
    drafts = [_draft(kind, naturals, spare) for kind, naturals in chosen]
    _absorb(drafts, spare)
    return tuple(_meld(draft, wild_rank) for draft in _merge(drafts)), spare


def _meld(draft: _Draft, wild_rank: int) -> Meld:
    # A run that gave its 3 and 4 away may have kept only wilds there (rare: nine or
    # more wilds in hand): such a meld is shown as what it is, wilds.
    if all(is_wild(card, wild_rank) for card in draft.cards):
        return Meld(WILDS, tuple(draft.cards))
    return Meld(draft.kind, tuple(draft.cards))
