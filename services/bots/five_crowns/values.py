"""Hand values from the engine's exact meld solver: the penalty left after the best discard,
and its expectation over the cards a draw from the stock could bring."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from engine.cards import JOKER, Card
from engine.five_crowns.deck import card_penalty, is_wild
from engine.five_crowns.melds import min_penalty, without_one

RUN_REACH = 4  # the solver's runs span at most five ranks


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
    ranked = [
        (min_penalty(without_one(hand, card), wild_rank), card) for card in dict.fromkeys(choices)
    ]
    ranked.sort(key=lambda item: (item[0], is_wild(item[1], wild_rank), -item[1].rank))
    return ranked


def touches(card: Card, naturals: Sequence[Card], wild_rank: int) -> bool:
    """Could ``card`` share a meld with one of ``naturals`` (or is it wild)?"""
    if is_wild(card, wild_rank):
        return True
    return any(
        other.rank == card.rank or (other.suit == card.suit and abs(other.rank - card.rank) <= 4)
        for other in naturals
    )


def canonical(card: Card, wild_rank: int) -> Card:
    """Wild cards of the round's rank are interchangeable in melds and in penalty."""
    if card.rank == wild_rank and card != JOKER:
        return Card(wild_rank, "H")
    return card


def expected_after_draw(hand: Sequence[Card], wild_rank: int, unseen: Counter[Card]) -> float:
    """The expected penalty after drawing from the stock (a card of ``unseen``, uniformly)
    and throwing the best card.

    A drawn card no card in hand can meld with (and fewer than two wilds held), or one
    the best arrangement leaves over, is either thrown back or kept as a leftover:
    priced in closed form. Throwing the drawn card back is always possible, so the
    search for a better discard starts from the hand's present penalty.
    """
    total = sum(unseen.values())
    if not total:
        return float(min_penalty(hand, wild_rank))
    naturals = [card for card in hand if not is_wild(card, wild_rank)]
    lonely_ok = len(hand) - len(naturals) < 2
    keep = min_penalty(hand, wild_rank)
    swap = after_discard(hand, wild_rank) if hand else keep
    kinds: Counter[Card] = Counter()
    for card, copies in unseen.items():
        kinds[canonical(card, wild_rank)] += copies
    expected = 0.0
    for card, copies in kinds.items():
        lonely = keep, swap + card_penalty(card, wild_rank)
        if lonely_ok and not touches(card, naturals, wild_rank):
            value = min(lonely)
        else:
            drawn = [*hand, card]
            whole = min_penalty(drawn, wild_rank)
            if whole >= keep + card_penalty(card, wild_rank):  # it melds with nothing
                value = min(lonely)
            else:
                value = after_discard(drawn, wild_rank, bound=keep, whole=whole)
        expected += copies * value
    return expected / total
