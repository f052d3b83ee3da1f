"""Hand values from the engine's exact meld solver: the penalty left after the best discard,
and its expectation over the cards a draw from the stock could bring.

The many near-identical hands of one draw choice (the hand plus each possible card,
less each possible discard) go through one solver of the hand
(``engine.five_crowns.solvers``: compiled, or ``swaps.SwapSolver``, which re-solves only
what a drawn or thrown card touches).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from functools import cached_property
from typing import Any

from engine.cards import JOKER, Card
from engine.five_crowns.compiled import core
from engine.five_crowns.deck import LOWEST_RANK, RANKS, card_penalty, is_wild
from engine.five_crowns.layout import MIN_MELD
from engine.five_crowns.meld_search import _SUIT_INDEX
from engine.five_crowns.melds import penalties_after_discards
from engine.five_crowns.solvers import new_solver, solver_for
from engine.five_crowns.swaps import _floor

_RUN_REACH = 4  # a run's naturals span at most 5 ranks (engine.five_crowns.melds)
_BOOK_OTHERS = 4  # and a book holds at most 5 naturals
# A guess only (it orders the work, never the answer): values sit this far up their bounds.
SURE_SHARE = 0.5


def after_discard(
    hand: Sequence[Card], wild_rank: int, banned: Card | None = None, bound: int | None = None
) -> int:
    """The lowest penalty left once one card of ``hand`` (not ``banned``) is thrown;
    with ``bound`` (a penalty known to be reachable) at most ``bound``."""
    return new_solver(hand, wild_rank).after_discard(banned, bound)


def after_taking(hand: Sequence[Card], wild_rank: int, card: Card, banned: Card | None) -> int:
    """The lowest penalty after taking ``card`` and throwing one card other than ``banned``."""
    return new_solver(hand, wild_rank).after_swap(card, banned)


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


def _run_windows(rank: int) -> tuple[tuple[int, int], ...]:
    """The runs a natural of ``rank`` may join, as (mask of the other ranks it spans,
    how many of those ranks the run needs): 3 to 5 ranks, within the deck's ranks."""
    windows = []
    for length in range(MIN_MELD, _RUN_REACH + 2):
        for low in range(max(LOWEST_RANK, rank - length + 1), rank + 1):
            high = low + length - 1
            if high > RANKS[-1]:
                break
            windows.append((((1 << (high + 1)) - (1 << low)) & ~(1 << rank), length - 1))
    return tuple(windows)


_WINDOWS = {rank: _run_windows(rank) for rank in RANKS}
_HIGHEST_BIT = RANKS[-1] + 1


def _rank_sums() -> tuple[int, ...]:
    """For every set of ranks (a bit each), the sum of its ranks: each set is a smaller
    one (less its lowest rank) plus that rank."""
    sums = [0] * (1 << _HIGHEST_BIT)
    for ranks in range(1, len(sums)):
        low = ranks & -ranks
        sums[ranks] = sums[ranks ^ low] + low.bit_length() - 1
    return tuple(sums)


_RANK_SUMS = _rank_sums()  # a few thousand small ints


def kinds(unseen: Counter[Card], wild_rank: int) -> Counter[Card]:
    """``unseen`` with the interchangeable wilds counted as one card (``canonical``)."""
    counted: Counter[Card] = Counter()
    for card, copies in unseen.items():
        counted[canonical(card, wild_rank)] += copies
    return counted


class DrawPricer:
    """What a stock draw is worth to ``hand``: for each card it may bring, the penalty
    after drawing it and throwing the best card.

    Each value lies between 0 and the card's ceiling ``min(keep, swap + value(card))``
    (throw the drawn card back, or keep it over and throw the best other card); a card
    that can join no meld is exactly at its ceiling, the others are solved.
    """

    def __init__(self, hand: Sequence[Card], wild_rank: int) -> None:
        self.solver = solver_for(hand, wild_rank)  # shared with the seat's hint
        self.wild_rank = wild_rank
        self.keep = self.solver.keep
        # What the wilds may add to a hand's penalty: only when it melds nothing at all,
        # which three wilds always do.
        self.wild_penalty = self.solver.wild_penalty if self.solver.wilds < MIN_MELD else 0
        # Answers kept per card: a pricer is shared by every decision about one hand.
        self._values: dict[Card, int] = {}
        self._floors: dict[Card, int] = {}
        self._solved_floors: dict[Card, int] = {}
        self._kind_of: dict[Card, tuple[int, bool, Card | int]] = {}
        self._near: set[int] | None = None  # the solver's reach sets, once
        self._suit_near: set[int] = set()

    # Made when first asked: the compiled solver prices a whole draw without them.
    @cached_property
    def swap(self) -> int:
        """The lowest penalty after throwing one card of the hand."""
        return self.solver.after_discard() if self.solver.hand else self.keep

    @cached_property
    def same_rank(self) -> dict[int, int]:
        """Naturals held per rank."""
        counts: dict[int, int] = {}
        for card in self.solver.hand:
            if not is_wild(card, self.wild_rank):
                counts[card.rank] = counts.get(card.rank, 0) + 1
        return counts

    @cached_property
    def suit_ranks(self) -> dict[str, int]:
        """Per suit, a bit for each rank of a natural held."""
        ranks: dict[str, int] = {}
        for card in self.solver.hand:
            if not is_wild(card, self.wild_rank):
                ranks[card.suit] = ranks.get(card.suit, 0) | 1 << card.rank
        return ranks

    def ceiling(self, card: Card) -> int:
        return min(self.keep, self.swap + card_penalty(card, self.wild_rank))

    def settled(self, card: Card) -> bool:
        """Is ``card``'s value its ceiling without solving (it can join no meld)?"""
        return not self.solver.may_meld(card)

    def value(self, card: Card) -> int:
        # Not shortcut when the whole hand's best arrangement leaves the card over: after
        # another discard it may meld (wilds freed), so that hand is solved too.
        found = self._values.get(card)
        if found is None:
            found = self._values[card] = self.solver.after_swap(card, bound=self.ceiling(card))
        return found

    def floor(self, card: Card) -> int:
        """A lower bound on ``value(card)``, without solving.

        Take the best arrangement of ``hand + card`` less some discard d. If ``card`` is
        left over, the rest arranges ``hand`` less d: at least ``swap`` + its value.
        Else break up the meld holding it: the rest arranges ``hand`` less d (less the
        meld's wilds), so the naturals leave at least ``swap`` less the wilds' share,
        less the other naturals of that meld (its rank, or its suit within a run's
        reach); with no such natural, the meld is the card and two wilds or more, and
        the lowest penalty such arrangements leave is ``after_swap_apart``'s, the same
        for every card. A drawn wild could sit in any meld: not bounded (0).
        """
        if is_wild(card, self.wild_rank):
            return 0
        found = self._floors.get(card)
        if found is not None:
            return found
        lowest = self.ceiling(card)  # thrown back, or left over
        partners = self._partners(card)
        if partners:
            lowest = min(lowest, self.swap - self.wild_penalty - partners)
        if self.solver.wilds >= 2:
            with_wilds_only = self.solver.after_swap_apart()
            if with_wilds_only is not None:
                lowest = min(lowest, with_wilds_only)
        found = self._floors[card] = max(0, lowest)
        return found

    def _partners(self, card: Card) -> int:
        """The most value of ``hand``'s naturals that can share one meld with ``card``
        (0: none can): a book of its rank, or a run of its suit spanning 3 to 5 ranks
        whose missing ranks the wilds fill."""
        rank, wilds = card.rank, self.solver.wilds
        same = self.same_rank.get(rank, 0)
        book = rank * min(_BOOK_OTHERS, same) if same and same + wilds >= 2 else 0
        ranks = self.suit_ranks.get(card.suit, 0) & ~(1 << rank)  # a bit per rank held
        run = 0
        if ranks:
            sums = _RANK_SUMS
            for window, others in _WINDOWS[rank]:
                present = ranks & window
                if present and others - present.bit_count() <= wilds and sums[present] > run:
                    run = sums[present]
        return book if book > run else run

    def solved_floor(self, card: Card) -> int:
        """A tighter lower bound on ``value(card)`` (natural): ``hand + card`` solved whole,
        less the most any other discard can take out (``swaps._floor``)."""
        found = self._solved_floors.get(card)
        if found is not None:
            return found
        whole = self.solver.whole_after(card)
        drawn = [*self.solver.hand, card]
        lowest = self.keep  # throwing ``card`` (or a copy) back
        wild_rank = self.wild_rank
        for other in dict.fromkeys(self.solver.hand):
            if other == card:
                continue
            if other.rank != wild_rank and other != JOKER:  # ``_floor`` of a natural
                floor = whole - other.rank
            else:
                floor = _floor(other, whole, drawn, wild_rank)
            if floor < lowest:
                lowest = floor
        found = self._solved_floors[card] = max(0, lowest)
        return found

    def kind(self, card: Card) -> tuple[int, bool, Card | int]:
        """``card``'s ceiling, whether that is its value (``settled``), and the key of
        the cards of one value with it: a natural with no natural of its suit within a
        run's reach can only join a book (or wilds): its suit does not matter, only its
        rank."""
        found = self._kind_of.get(card)
        if found is not None:
            return found
        rank = card.rank
        if rank == self.wild_rank or card == JOKER:  # it may join any meld
            found = (self.ceiling(card), False, card)
        else:
            ceiling = self.swap + rank
            if self.keep < ceiling:
                ceiling = self.keep
            if self._near is None:
                self._near = self.solver.near_slots()
                self._suit_near = self.solver.suit_near_slots()
            slot = _SUIT_INDEX[card.suit] * len(RANKS) + rank - LOWEST_RANK
            if slot not in self._near:  # no meld with a natural of the hand
                apart = self.solver.after_swap_apart()  # with two wilds, one answer for all
                found = (ceiling if apart is None or apart > ceiling else apart, True, card)
            else:
                found = (ceiling, False, rank if slot not in self._suit_near else card)
        self._kind_of[card] = found
        return found

    def at_most(self, unseen: Counter[Card], taking: int) -> bool:
        """Is the expected value of a card of ``unseen`` (not empty) at most ``taking``?

        Each kind lies between its floor and its ceiling; the kinds that cannot meld are
        at their ceiling. The others are solved, the widest bounds first, only until the
        sums of the bounds decide.
        """
        if self.keep <= taking:
            return True
        if core is not None:  # the compiled solver bounds and solves the same way, in C
            return self.solver.draw_at_most(unseen, taking)
        target = taking * sum(unseen.values())
        low = high = 0
        pending: dict[Card | int, list[Any]] = {}  # by kind (see ``kind``)
        kinds, kind = self._kind_of, self.kind
        wild_rank = self.wild_rank
        wild = canonical(Card(wild_rank, "H"), wild_rank)
        for card, copies in unseen.items():
            if card.rank == wild_rank:  # every wild of the round's rank is one kind
                card = wild
            ceiling, settled, key = kinds.get(card) or kind(card)
            high += copies * ceiling
            if settled:
                low += copies * ceiling
                continue
            same = pending.get(key)
            if same is None:
                pending[key] = [copies, ceiling, card]
            else:  # the same value (and ceiling)
                same[0] += copies
        if low > target:
            return False
        if high <= target:
            return True
        bounded = []
        for copies, ceiling, card in pending.values():
            floor = min(ceiling, self.floor(card))  # the kind's value: one for its cards
            low += copies * floor
            bounded.append((copies * (ceiling - floor), copies, ceiling, floor, card))
        if low > target:
            return False
        bounded.sort(key=lambda item: -item[0])
        if low + sum(gap for gap, *_ in bounded) * SURE_SHARE > target:
            # Likely the pile: tighter floors first (a cheaper solve than the values).
            for index, (gap, copies, ceiling, floor, card) in enumerate(bounded):
                if gap and not is_wild(card, self.wild_rank):
                    tighter = min(ceiling, self.solved_floor(card))
                    low += copies * (tighter - floor)
                    bounded[index] = (copies * (ceiling - tighter), copies, ceiling, tighter, card)
                    if low > target:
                        return False
            bounded.sort(key=lambda item: -item[0])
        for gap, copies, ceiling, floor, card in bounded:
            if not gap:
                break
            value = self.value(card)
            low += copies * (value - floor)
            high -= copies * (ceiling - value)
            if low > target:
                return False
            if high <= target:
                return True
        return high <= target

    def values(self, unseen: Counter[Card]) -> Iterator[tuple[int, int]]:
        """``(copies, value)`` for every kind of card in ``unseen``."""
        for card, copies in kinds(unseen, self.wild_rank).items():
            ceiling, settled, _ = self.kind(card)
            yield copies, ceiling if settled else self.value(card)


# Pricers of whole hands, keyed by the hand as given: a seat that threw back what it drew
# prices the same hand next turn, and ``hard`` prices each kept hand of a decision again
# for the look-ahead. Bounded, so a long-running table keeps a flat memory.
_pricers: dict[tuple[tuple[Card, ...], int], DrawPricer] = {}
_PRICERS_LIMIT = 1 << 9


def pricer_for(hand: Sequence[Card], wild_rank: int) -> DrawPricer:
    """A shared ``DrawPricer`` of ``hand`` (its answers are pure)."""
    key = (tuple(hand), wild_rank)
    found = _pricers.get(key)
    if found is None:
        if len(_pricers) >= _PRICERS_LIMIT:
            _pricers.clear()
        found = _pricers[key] = DrawPricer(hand, wild_rank)
    return found


def stock_at_least_as_good(
    hand: Sequence[Card], wild_rank: int, unseen: Counter[Card], taking: int
) -> bool:
    """Is the expected penalty after a stock draw at most ``taking``?"""
    if not sum(unseen.values()):
        return True
    return pricer_for(hand, wild_rank).at_most(unseen, taking)


def stock_rather_than(
    hand: Sequence[Card], wild_rank: int, unseen: Counter[Card], top: Card, banned: Card | None
) -> bool:
    """Is a stock draw (expected penalty) at least as good as taking ``top`` (``banned``:
    the card that may not be thrown back)? ``stock_at_least_as_good(after_taking(...))``,
    with one solve of the hand for both sides."""
    if not sum(unseen.values()):
        return True
    pricer = pricer_for(hand, wild_rank)
    # Every stock card leaves at most ``keep`` (throw it back): if taking ``top`` cannot
    # beat that, its exact value does not matter.
    taking = pricer.solver.after_swap(top, banned, bound=pricer.keep)
    return taking >= pricer.keep or pricer.at_most(unseen, taking)


def expected_after_draw(hand: Sequence[Card], wild_rank: int, unseen: Counter[Card]) -> float:
    """The expected penalty after drawing from the stock (a card of ``unseen``, uniformly)
    and throwing the best card."""
    total = sum(unseen.values())
    pricer = pricer_for(hand, wild_rank)
    if not total:
        return float(pricer.keep)
    return sum(copies * value for copies, value in pricer.values(unseen)) / total


def expected_lowest_of_draws(
    hand: Sequence[Card], wild_rank: int, unseen: Counter[Card], draws: int
) -> float:
    """The expected lowest of the penalties ``hand`` would leave after each of ``draws``
    stock cards (drawn together, without replacement; each taken alone, the best card
    thrown): how many good cards (outs) the hand has, not only one draw's mean."""
    total = sum(unseen.values())
    pricer = pricer_for(hand, wild_rank)
    if not total:
        return float(pricer.keep)
    draws = min(draws, total)
    copies_by_value: Counter[int] = Counter()
    for copies, value in pricer.values(unseen):
        copies_by_value[value] += copies
    # P(lowest >= v) = C(cards valued >= v, draws) / C(total, draws), exactly.
    ways = math.comb(total, draws)
    at_least = total  # cards valued at least the current value
    expected = 0.0
    for value in sorted(copies_by_value):
        above = at_least - copies_by_value[value]
        expected += value * (math.comb(at_least, draws) - math.comb(above, draws)) / ways
        at_least = above
    return expected
