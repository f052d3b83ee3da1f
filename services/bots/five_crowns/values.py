"""Hand values from the engine's exact meld solver: the penalty left after the best discard,
and its expectation over the cards a draw from the stock could bring."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

from engine.cards import JOKER, KING, Card
from engine.five_crowns.deck import LOWEST_RANK, card_penalty, is_wild
from engine.five_crowns.melds import min_penalty, penalties_after_discards, without_one
from engine.five_crowns.swaps import SwapSolver

def after_discard(
    hand: Sequence[Card],
    wild_rank: int,
    banned: Card | None = None,
    bound: int | None = None,
    whole: int | None = None,
) -> int:
    """The lowest penalty left once one card of ``hand`` (not ``banned``) is thrown.

    ``bound``: a penalty already known to be reachable (the search only looks below it);
    ``whole``: the whole hand's penalty, if the caller has it.
    """
    choices = [card for card in dict.fromkeys(hand) if card != banned] or list(hand)
    if whole is None:
        whole = min_penalty(hand, wild_rank)
    choices.sort(key=lambda card: -card_penalty(card, wild_rank))
    best: int | None = bound
    for card in choices:
        # hand less d never scores below whole - value(d) (d back as a leftover card)
        if best is not None and whole - card_penalty(card, wild_rank) >= best:
            continue
        penalty = min_penalty(without_one(hand, card), wild_rank)
        if best is None or penalty < best:
            best = penalty
            if best == 0:
                break
    assert best is not None
    return best


def discard_ranking(
    hand: Sequence[Card], wild_rank: int, choices: Iterable[Card]
) -> list[tuple[int, Card]]:
    """(penalty left, card) for every allowed discard, best first."""
    penalties = penalties_after_discards(hand, wild_rank)
    ranked = [(penalties[card], card) for card in dict.fromkeys(choices)]
    ranked.sort(key=lambda item: (item[0], is_wild(item[1], wild_rank), -item[1].rank))
    return ranked


def can_meld(card: Card, hand: Sequence[Card], wild_rank: int) -> bool:
    """Could ``card`` be part of some meld of ``hand`` plus ``card``? (Else it is a
    leftover in every arrangement.) A book needs two more cards of its rank, naturals or
    wilds; any run through the card holds three consecutive ranks through it, whose two
    other places are naturals of its suit or wilds."""
    if is_wild(card, wild_rank):
        return True
    wilds = sum(1 for other in hand if is_wild(other, wild_rank))
    naturals = [other for other in hand if not is_wild(other, wild_rank)]
    if sum(1 for other in naturals if other.rank == card.rank) + wilds >= 2:
        return True
    ranks = {other.rank for other in naturals if other.suit == card.suit}
    for low in range(card.rank - 2, card.rank + 1):
        window = [rank for rank in range(low, low + 3) if rank != card.rank]
        if low < LOWEST_RANK or low + 2 > KING:
            continue
        if sum(1 for rank in window if rank not in ranks) <= wilds:
            return True
    return False


def canonical(card: Card, wild_rank: int) -> Card:
    """Wild cards of the round's rank are interchangeable in melds and in penalty."""
    if card.rank == wild_rank and card != JOKER:
        return Card(wild_rank, "H")
    return card


def draw_values(
    hand: Sequence[Card], wild_rank: int, unseen: Counter[Card]
) -> tuple[int, Iterator[tuple[int, int]]]:
    """``(keep, values)``: the hand's penalty now, and for each kind of card a stock draw
    may bring, ``(copies, penalty after drawing it and throwing the best card)``, the
    cheap ones first. Every value is at most ``keep`` (the drawn card can go back)."""
    keep = min_penalty(hand, wild_rank)
    kinds: Counter[Card] = Counter()
    for card, copies in unseen.items():
        kinds[canonical(card, wild_rank)] += copies

    def values() -> Iterator[tuple[int, int]]:
        swap = after_discard(hand, wild_rank) if hand else keep
        costly = []
        for card, copies in kinds.items():
            if can_meld(card, hand, wild_rank):
                costly.append((card, copies))
            else:
                yield copies, min(keep, swap + card_penalty(card, wild_rank))
        for card, copies in costly:
            drawn = [*hand, card]
            whole = min_penalty(drawn, wild_rank)
            if whole >= keep + card_penalty(card, wild_rank):  # it melds with nothing
                yield copies, min(keep, swap + card_penalty(card, wild_rank))
            else:
                yield copies, after_discard(drawn, wild_rank, bound=keep, whole=whole)

    return keep, values()


def stock_at_least_as_good(
    hand: Sequence[Card], wild_rank: int, unseen: Counter[Card], taking: int
) -> bool:
    """Is the expected penalty after a stock draw at most ``taking``?

    Each kind's value lies between 0 and its ceiling ``min(keep, swap + value(card))``
    (throw the drawn card back, or keep it over and throw the best other card): the
    kinds that cannot meld are exactly their ceiling, and the others are solved, the
    most uncertain first, only until the bounds decide the answer.
    """
    total = sum(unseen.values())
    if not total:
        return True
    keep = min_penalty(hand, wild_rank)
    if keep <= taking:
        return True
    target = taking * total
    solver = SwapSolver(hand, wild_rank)
    swap = solver.after_discard() if hand else keep
    priced, open_ceiling = 0, 0
    pending: list[tuple[int, int, Card]] = []
    for card, copies in _kinds(unseen, wild_rank).items():
        ceiling = min(keep, swap + card_penalty(card, wild_rank))
        if can_meld(card, hand, wild_rank):
            pending.append((copies * ceiling, copies, card))
            open_ceiling += copies * ceiling
        else:
            priced += copies * ceiling
    if priced > target:
        return False
    pending.sort(key=lambda item: -item[0])
    for most, copies, card in pending:
        if priced + open_ceiling <= target:
            return True
        open_ceiling -= most
        priced += copies * _drawn_value(solver, card, keep, swap)
        if priced > target:
            return False
    return True


def _kinds(unseen: Counter[Card], wild_rank: int) -> Counter[Card]:
    kinds: Counter[Card] = Counter()
    for card, copies in unseen.items():
        kinds[canonical(card, wild_rank)] += copies
    return kinds


def _drawn_value(solver: SwapSolver, card: Card, keep: int, swap: int) -> int:
    """The penalty after drawing ``card`` (one that may meld) and throwing the best card."""
    if solver.whole_after(card) >= keep + card_penalty(card, solver.wild_rank):
        return min(keep, swap + card_penalty(card, solver.wild_rank))  # it melds with nothing
    return solver.after_swap(card, bound=keep)


def expected_after_draw(hand: Sequence[Card], wild_rank: int, unseen: Counter[Card]) -> float:
    """The expected penalty after drawing from the stock (a card of ``unseen``, uniformly)
    and throwing the best card.

    A drawn card that can be in no meld of the hand (``can_meld``), or one the best
    arrangement leaves over, is either thrown back or kept as a leftover: priced in
    closed form. Throwing the drawn card back is always possible, so the search for a
    better discard starts from the hand's present penalty.
    """
    total = sum(unseen.values())
    keep, values = draw_values(hand, wild_rank, unseen)
    if not total:
        return float(keep)
    return sum(copies * value for copies, value in values) / total
