"""Hand values from the engine's exact meld solver: the penalty left after the best discard,
and its expectation over the cards a draw from the stock could bring.

The many near-identical hands of one draw choice (the hand plus each possible card,
less each possible discard) go through ``engine.five_crowns.swaps.SwapSolver``, which
solves the hand once and re-solves only what a drawn or thrown card touches.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

from engine.cards import JOKER, Card
from engine.five_crowns.deck import card_penalty, is_wild
from engine.five_crowns.melds import penalties_after_discards
from engine.five_crowns.swaps import SwapSolver


def after_discard(
    hand: Sequence[Card], wild_rank: int, banned: Card | None = None, bound: int | None = None
) -> int:
    """The lowest penalty left once one card of ``hand`` (not ``banned``) is thrown;
    with ``bound`` (a penalty known to be reachable) at most ``bound``."""
    return SwapSolver(hand, wild_rank).after_discard(banned, bound)


def after_taking(hand: Sequence[Card], wild_rank: int, card: Card, banned: Card | None) -> int:
    """The lowest penalty after taking ``card`` and throwing one card other than ``banned``."""
    return SwapSolver(hand, wild_rank).after_swap(card, banned)


def can_go_out(hand: Sequence[Card], wild_rank: int) -> bool:
    """Could ``hand`` (drawn already) go out: throw one card and meld all the rest?"""
    return len(hand) > 1 and after_discard(hand, wild_rank, bound=1) == 0


def discard_ranking(
    hand: Sequence[Card], wild_rank: int, choices: Iterable[Card]
) -> list[tuple[int, Card]]:
    """(penalty left, card) for every allowed discard, best first."""
    penalties = penalties_after_discards(hand, wild_rank)
    ranked = [(penalties[card], card) for card in dict.fromkeys(choices)]
    ranked.sort(key=lambda item: (item[0], is_wild(item[1], wild_rank), -item[1].rank))
    return ranked


def canonical(card: Card, wild_rank: int) -> Card:
    """Wild cards of the round's rank are interchangeable in melds and in penalty."""
    if card.rank == wild_rank and card != JOKER:
        return Card(wild_rank, "H")
    return card


def _kinds(unseen: Counter[Card], wild_rank: int) -> Counter[Card]:
    kinds: Counter[Card] = Counter()
    for card, copies in unseen.items():
        kinds[canonical(card, wild_rank)] += copies
    return kinds


class DrawPricer:
    """What a stock draw is worth to ``hand``: for each card it may bring, the penalty
    after drawing it and throwing the best card.

    Each value lies between 0 and the card's ceiling ``min(keep, swap + value(card))``
    (throw the drawn card back, or keep it over and throw the best other card); a card
    that can join no meld is exactly at its ceiling, the others are solved.
    """

    def __init__(self, hand: Sequence[Card], wild_rank: int) -> None:
        self.solver = SwapSolver(hand, wild_rank)
        self.wild_rank = wild_rank
        self.keep = self.solver.keep
        self.swap = self.solver.after_discard() if hand else self.keep

    def ceiling(self, card: Card) -> int:
        return min(self.keep, self.swap + card_penalty(card, self.wild_rank))

    def settled(self, card: Card) -> bool:
        """Is ``card``'s value its ceiling without solving (it can join no meld)?"""
        return not self.solver.may_meld(card)

    def value(self, card: Card) -> int:
        # Not shortcut when the whole hand's best arrangement leaves the card over: after
        # another discard it may meld (wilds freed), so that hand is solved too.
        return self.solver.after_swap(card, bound=self.ceiling(card))

    def values(self, unseen: Counter[Card]) -> Iterator[tuple[int, int]]:
        """``(copies, value)`` for every kind of card in ``unseen``."""
        for card, copies in _kinds(unseen, self.wild_rank).items():
            yield copies, self.ceiling(card) if self.settled(card) else self.value(card)


def stock_at_least_as_good(
    hand: Sequence[Card], wild_rank: int, unseen: Counter[Card], taking: int
) -> bool:
    """Is the expected penalty after a stock draw at most ``taking``?

    The kinds that cannot meld are priced at once; the others are solved, the most
    uncertain first, only until the bounds (0 and each kind's ceiling) decide.
    """
    total = sum(unseen.values())
    if not total:
        return True
    pricer = DrawPricer(hand, wild_rank)
    if pricer.keep <= taking:
        return True
    target = taking * total
    priced, open_ceiling = 0, 0
    pending: list[tuple[int, int, Card]] = []
    for card, copies in _kinds(unseen, wild_rank).items():
        ceiling = pricer.ceiling(card)
        if pricer.settled(card):
            priced += copies * ceiling
        else:
            pending.append((copies * ceiling, copies, card))
            open_ceiling += copies * ceiling
    if priced > target:
        return False
    pending.sort(key=lambda item: -item[0])
    for most, copies, card in pending:
        if priced + open_ceiling <= target:
            return True
        open_ceiling -= most
        priced += copies * pricer.value(card)
        if priced > target:
            return False
    return True


def expected_after_draw(hand: Sequence[Card], wild_rank: int, unseen: Counter[Card]) -> float:
    """The expected penalty after drawing from the stock (a card of ``unseen``, uniformly)
    and throwing the best card."""
    total = sum(unseen.values())
    pricer = DrawPricer(hand, wild_rank)
    if not total:
        return float(pricer.keep)
    return sum(copies * value for copies, value in pricer.values(unseen)) / total
