"""Draw one card, throw one: the lowest penalty left, for many drawn cards of one hand.

A draw choice prices a hand plus each card the stock could bring, less the best
discard: hundreds of solves of nearly the same hand. ``SwapSolver`` solves the hand's
components once (``melds``: naturals that can never share a meld are independent), and
for each drawn card re-solves only the components it can join, and for each discard
only that card's component. The answers are ``melds.min_penalty``'s, exactly: any
split of the naturals into groups no meld crosses gives the same knapsack result.

A drawn or thrown wild changes the wild count (and so how far runs reach): those go
through ``melds.min_penalty`` directly.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence

from engine.cards import JOKER, Card
from engine.five_crowns.deck import LOWEST_RANK, RANKS, SUITS, card_penalty, hand_order, is_wild
from engine.five_crowns.layout import MIN_MELD
from engine.five_crowns.meld_search import _BITS, _FIELD, _SUIT_INDEX, _best
from engine.five_crowns.melds import (
    _components,
    _most_melded,
    _split,
    min_penalty,
    without_one,
)

_RUN_REACH = 4  # as melds: a run's naturals span at most 5 ranks
# (groups touched, the merged group's (mask, count, total), its vector, the groups
#  left apart, the penalty of the hand plus the card)
_Merged = tuple[list[int], tuple[int, int, int], tuple[int, ...], list[int], int]


def _slot(card: Card) -> int:
    return _SUIT_INDEX[card.suit] * len(RANKS) + card.rank - LOWEST_RANK


class SwapSolver:
    """``hand`` solved once; ``after_swap(card)`` prices ``hand + card`` less the best discard."""

    def __init__(self, hand: Sequence[Card], wild_rank: int) -> None:
        self.hand = list(hand)
        self.wild_rank = wild_rank
        naturals, wilds = _split(hand, wild_rank)
        self.wilds = len(wilds)
        self.wild_penalty = sum(card_penalty(card, wild_rank) for card in wilds)
        self.natural_total = sum(card.rank for card in naturals)
        self.reach = min(_RUN_REACH, self.wilds + 1)
        self.groups = _components(naturals, self.wilds)
        self.vectors = [_best(mask, count, total, self.wilds) for mask, count, total in self.groups]
        self._index(self._penalty(self.natural_total, self.vectors))

    def _index(self, keep: int) -> None:
        """Where each natural's group is, and the (empty) caches; ``keep``: the penalty."""
        self.group_of: dict[int, int] = {}
        for index, (mask, _, _) in enumerate(self.groups):
            while mask:  # only the occupied slots (a field's lowest set bit)
                slot = ((mask & -mask).bit_length() - 1) // _BITS
                self.group_of[slot] = index
                mask &= ~(_FIELD << (_BITS * slot))
        self.by_rank: dict[int, list[int]] = {}
        for slot in self.group_of:
            self.by_rank.setdefault(slot % len(RANKS), []).append(slot)
        self.keep = keep
        self._without: dict[int, tuple[int, ...] | None] = {}  # a group less one natural
        self._merged: dict[Card, _Merged] = {}
        self._ordered: list[Card] | None = None  # the hand's distinct cards, in try order
        self._near: set[int] | None = None
        self._less: dict[Card, int] = {}  # penalty_less's answers
        self._suit_near: set[int] | None = None
        self._apart: int | None = None  # after_swap_apart's answer

    def _child(
        self,
        hand: Sequence[Card],
        natural_total: int,
        groups: list[tuple[int, int, int]],
        vectors: list[tuple[int, ...]],
        keep: int,
    ) -> SwapSolver:
        """A solver of ``hand``, this hand with one natural more or less (the same wilds,
        so the same reach), from groups already solved. A group less a card may have
        come apart into groups no meld crosses: kept whole, the knapsack is the same."""
        child = SwapSolver.__new__(SwapSolver)
        child.hand = list(hand)
        child.wild_rank = self.wild_rank
        child.wilds, child.wild_penalty = self.wilds, self.wild_penalty
        child.natural_total, child.reach = natural_total, self.reach
        child.groups, child.vectors = groups, vectors
        child._index(keep)
        return child

    def plus(self, hand: Sequence[Card], card: Card) -> SwapSolver:
        """The solver of ``hand``: this one's hand and natural ``card``."""
        _, merged_group, merged, outside, whole = self._merge(card)
        groups = [self.groups[index] for index in outside] + [merged_group]
        vectors = [self.vectors[index] for index in outside] + [merged]
        return self._child(hand, self.natural_total + card.rank, groups, vectors, whole)

    def minus(self, hand: Sequence[Card], card: Card) -> SwapSolver:
        """The solver of ``hand``: this one's hand less natural ``card`` (which it holds)."""
        slot = _slot(card)
        index = self.group_of[slot]
        less_group = self._group_less(index, slot)
        groups, vectors = list(self.groups), list(self.vectors)
        if less_group is None:
            del groups[index], vectors[index]
        else:
            mask, count, total = groups[index]
            groups[index] = (mask - (1 << (_BITS * slot)), count - 1, total - card.rank)
            vectors[index] = less_group
        keep = self.penalty_less(card)
        return self._child(hand, self.natural_total - card.rank, groups, vectors, keep)

    def _cost(self) -> int:
        """What all of ``hand`` costs (every card left over)."""
        return self.natural_total + self.wild_penalty

    def _penalty(self, natural_total: int, vectors: list[tuple[int, ...]]) -> int:
        if self.wilds:
            melded = _most_melded(vectors, self.wilds)
        else:  # no wilds to share: each group melds on its own
            melded = sum(vector[0] for vector in vectors)
        penalty = natural_total - melded
        if not melded and self.wilds < MIN_MELD:  # no meld at all: the wilds count too
            penalty += self.wild_penalty
        return penalty

    def _touching(self, card: Card) -> list[int]:
        """The groups ``card`` could share a meld with (its rank, or its suit within reach)."""
        slot = _slot(card)
        rank_index = slot % len(RANKS)
        found = {self.group_of[other] for other in self.by_rank.get(rank_index, ())}
        low = max(slot - self.reach, slot - rank_index)
        high = min(slot + self.reach, slot - rank_index + len(RANKS) - 1)
        for other in range(low, high + 1):
            index = self.group_of.get(other)
            if index is not None:
                found.add(index)
        return sorted(found)

    def _group_less(self, index: int, slot: int) -> tuple[int, ...] | None:
        """The vector of group ``index`` less one natural at ``slot`` (None: it was alone)."""
        key = slot
        if key not in self._without:
            mask, count, total = self.groups[index]
            value = _value(slot)
            self._without[key] = (
                _best(mask - (1 << (_BITS * slot)), count - 1, total - value, self.wilds)
                if count > 1
                else None
            )
        return self._without[key]

    def _merge(self, card: Card) -> _Merged:
        """``card`` joined to the groups it touches (a natural), and ``hand + card``'s penalty."""
        found = self._merged.get(card)
        if found is not None:
            return found
        touching = self._touching(card)
        merged_mask = 1 << (_BITS * _slot(card))
        merged_count, merged_total = 1, card.rank
        for index in touching:
            mask, count, total = self.groups[index]
            merged_mask += mask
            merged_count += count
            merged_total += total
        outside = [index for index in range(len(self.groups)) if index not in touching]
        rest = [self.vectors[index] for index in outside]
        merged = _best(merged_mask, merged_count, merged_total, self.wilds)
        whole = self._penalty(self.natural_total + card.rank, [*rest, merged])
        found = self._merged[card] = (
            touching,
            (merged_mask, merged_count, merged_total),
            merged,
            outside,
            whole,
        )
        return found

    def after_discard(self, banned: Card | None = None, bound: int | None = None) -> int:
        """The lowest penalty of ``hand`` less one card other than ``banned``, at most ``bound``."""
        wild_rank, hand, keep = self.wild_rank, self.hand, self.keep
        if self._ordered is None:
            self._ordered = sorted(
                dict.fromkeys(hand), key=lambda other: _try_order(other, wild_rank)
            )
        # The distinct cards less ``banned`` in try order (as sorting them again would).
        choices = [other for other in self._ordered if other != banned] or list(hand)
        best = bound
        for other in choices:
            if best is not None:
                if other.rank != wild_rank and other != JOKER:  # ``_floor``, inlined
                    if keep - other.rank >= best:
                        continue
                elif _floor(other, keep, hand, wild_rank, self._cost()) >= best:
                    continue
            penalty = self.penalty_less(other)
            if best is None or penalty < best:
                best = penalty
                if best == 0:
                    break
        assert best is not None
        return best

    def penalty_less(self, card: Card) -> int:
        """The penalty of ``hand`` less one ``card`` (which it holds)."""
        found = self._less.get(card)
        if found is not None:  # the ways out and the best discard ask about the same cards
            return found
        if is_wild(card, self.wild_rank):  # the wild count changes: solved afresh
            found = min_penalty(without_one(self.hand, card), self.wild_rank)
        else:
            slot = _slot(card)
            index = self.group_of[slot]
            vectors = [vector for i, vector in enumerate(self.vectors) if i != index]
            less_group = self._group_less(index, slot)
            if less_group is not None:
                vectors.append(less_group)
            found = self._penalty(self.natural_total - card.rank, vectors)
        self._less[card] = found
        return found

    def best_discard(self, choices: Iterable[Card]) -> tuple[Card, int]:
        """``melds.best_discard_penalty``'s answer (the same tie rules), pruned: cards are
        tried in tie order and one is solved only if its floor could beat the best."""
        wild_rank, hand, whole = self.wild_rank, self.hand, self.keep
        ordered = sorted(
            dict.fromkeys(choices),
            key=lambda card: (
                is_wild(card, wild_rank),
                -card_penalty(card, wild_rank),
                hand_order(card),
            ),
        )
        if not ordered:
            raise ValueError("no card to discard")
        best_card, best = ordered[0], self.penalty_less(ordered[0])
        for card in ordered[1:]:
            if not best:
                break  # nothing beats 0, and later cards lose the ties
            if _floor(card, whole, hand, wild_rank, self._cost()) >= best:
                continue  # it cannot beat the best (a tie loses: tried later)
            penalty = self.penalty_less(card)
            if penalty < best:
                best_card, best = card, penalty
        return best_card, best

    def ways_out(self) -> list[Card]:
        """``melds.can_go_out_discarding``: the distinct cards whose discard leaves a hand
        that melds entirely. Only a card worth at least the whole hand's penalty can."""
        whole, wild_rank = self.keep, self.wild_rank
        candidates = [
            card for card in dict.fromkeys(self.hand) if card_penalty(card, wild_rank) >= whole
        ]
        if not candidates:
            return []
        # Going out melds every natural left, so every group the thrown card is not in
        # melds whole within the wilds (a wild thrown: with one wild fewer, and finer
        # groups). The fewest wilds that meld each group whole rule most hands out at once.
        needs = self._needs()
        missing = sum(need is None for need in needs)
        spent = sum(need for need in needs if need is not None)
        found = []
        for card in candidates:
            if is_wild(card, wild_rank):
                if missing or spent > self.wilds - 1:
                    continue
            else:
                need = needs[self.group_of[_slot(card)]]
                if missing - (need is None) or spent - (need or 0) > self.wilds:
                    continue
            if not self.penalty_less(card):
                found.append(card)
        return found

    def _needs(self) -> list[int | None]:
        """For each group, the fewest wilds that meld all of it (None: no number does)."""
        needs: list[int | None] = []
        for (_, _, total), vector in zip(self.groups, self.vectors, strict=True):
            needs.append(next((k for k, value in enumerate(vector) if value == total), None))
        return needs

    def suit_alone(self, card: Card) -> bool:
        """Has natural ``card`` no natural of its suit (another rank) within a run's reach?
        Then it can join only books or wilds, and every suit of its rank is worth the same
        to ``hand``: the melds map one to one when the suit is swapped."""
        return _slot(card) not in self.suit_near_slots()

    def suit_near_slots(self) -> set[int]:
        """The slots with a natural of the hand of another rank of their suit in reach."""
        if self._suit_near is None:
            suit_near: set[int] = set()
            for slot in self.group_of:
                rank_index = slot % len(RANKS)
                low = max(slot - self.reach, slot - rank_index)
                high = min(slot + self.reach, slot - rank_index + len(RANKS) - 1)
                suit_near.update(other for other in range(low, high + 1) if other != slot)
            self._suit_near = suit_near
        return self._suit_near

    def may_meld(self, card: Card) -> bool:
        """Could ``card`` join a meld of ``hand + card``? False only when it surely cannot
        (no natural of the hand within its reach, and fewer than two wilds)."""
        if is_wild(card, self.wild_rank) or self.wilds >= 2:
            return True
        return not self.apart(card)

    def apart(self, card: Card) -> bool:
        """Is natural ``card`` out of every natural's reach (``_touching`` finds no group):
        it can share a meld with wilds only?"""
        return _slot(card) not in self.near_slots()

    def near_slots(self) -> set[int]:
        """The slots ``_touching`` finds a group from (built once)."""
        if self._near is None:
            near: set[int] = set()
            for slot in self.group_of:
                rank_index = slot % len(RANKS)
                near.update(rank_index + len(RANKS) * suit for suit in range(len(_SUIT_INDEX)))
                low = max(slot - self.reach, slot - rank_index)
                high = min(slot + self.reach, slot - rank_index + len(RANKS) - 1)
                near.update(range(low, high + 1))
            self._near = near
        return self._near

    def after_swap_apart(self) -> int | None:
        """For a drawn natural in a meld of wilds only (the only meld it can join when it
        is ``apart`` from the hand): the lowest penalty of ``hand`` + it less one other
        card. The same for every such card, whatever its rank or suit (melded, it is not
        in the penalty). None when no discard leaves it two wilds (no such meld).

        Throwing natural d: the rest is ``hand`` less d with two wilds fewer to share,
        every spare wild joining the drawn card's meld. Throwing a wild: one wild fewer
        still, and none of this when only the two are left.
        """
        if self._apart is not None or self.wilds < 2:
            return self._apart
        wilds = self.wilds - 2
        best: int | None = None
        # The hand less d melds no more than the hand: nt - d - (the hand's most melded
        # with the wilds left) bounds d's answer from below; the costliest cards first.
        most = _most_melded(self.vectors, wilds)
        if self._ordered is None:
            self._ordered = sorted(
                dict.fromkeys(self.hand), key=lambda other: _try_order(other, self.wild_rank)
            )
        for card in self._ordered:
            if is_wild(card, self.wild_rank):
                if not wilds:
                    continue
                left = self.natural_total - _most_melded(self.vectors, wilds - 1)
            else:
                if best is not None and self.natural_total - card.rank - most >= best:
                    continue
                slot = _slot(card)
                index = self.group_of[slot]
                vectors = [vector for i, vector in enumerate(self.vectors) if i != index]
                less_group = self._group_less(index, slot)
                if less_group is not None:
                    vectors.append(less_group)
                left = self.natural_total - card.rank - _most_melded(vectors, wilds)
            if best is None or left < best:
                best = left
        self._apart = best
        return best

    def draw_at_most(self, unseen: Mapping[Card, int], taking: int) -> bool:
        """Is the mean of ``after_swap`` over ``unseen`` (card -> copies) at most
        ``taking``? Summed plainly here, the reference of the compiled solver's, which
        bounds each card first (as ``services.bots.five_crowns.values.DrawPricer``)."""
        total = sum(copies * self.after_swap(card) for card, copies in unseen.items())
        return total <= taking * sum(unseen.values())

    def whole_after(self, card: Card) -> int:
        """The penalty of ``hand + card`` (nothing thrown)."""
        if is_wild(card, self.wild_rank):
            return min_penalty([*self.hand, card], self.wild_rank)
        return self._merge(card)[4]

    def after_swap(self, card: Card, banned: Card | None = None, bound: int | None = None) -> int:
        """The lowest penalty of ``hand + card`` less one card other than ``banned``.

        ``bound``: an answer already known to be reachable; the result is at most it.
        """
        wild_rank = self.wild_rank
        drawn = [*self.hand, card]
        if is_wild(card, wild_rank):  # the wild count changes: solve that hand afresh
            return SwapSolver(drawn, wild_rank).after_discard(banned, bound)
        # The same choices as ``dict.fromkeys(drawn)`` less ``banned``; the order only
        # speeds the pruning up (the hand's is sorted once).
        if self._ordered is None:
            self._ordered = sorted(
                dict.fromkeys(self.hand), key=lambda other: _try_order(other, wild_rank)
            )
        choices = [] if card == banned else [card]
        choices += [other for other in self._ordered if other != banned and other != card]
        choices = choices or drawn
        touching, (merged_mask, merged_count, merged_total), merged, outside, whole = self._merge(
            card
        )
        slot = _slot(card)
        rest = [self.vectors[index] for index in outside]
        natural_total = self.natural_total + card.rank
        drawn_cost = self._cost() + card.rank  # what every card of ``drawn`` costs
        best = bound
        for other in choices:
            if best is not None:
                if other.rank != wild_rank and other != JOKER:  # ``_floor``, inlined
                    if whole - other.rank >= best:
                        continue
                elif _floor(other, whole, drawn, wild_rank, drawn_cost) >= best:
                    continue
            if other == card and card != banned:
                penalty = self.keep
            elif is_wild(other, wild_rank):
                penalty = min_penalty(without_one(drawn, other), wild_rank)
            else:
                other_slot = _slot(other)
                index = self.group_of.get(other_slot, -1)
                if index in touching or other_slot == slot:
                    vectors = list(rest)
                    if merged_count > 1:
                        vectors.append(
                            _best(
                                merged_mask - (1 << (_BITS * other_slot)),
                                merged_count - 1,
                                merged_total - other.rank,
                                self.wilds,
                            )
                        )
                else:
                    vectors = [self.vectors[i] for i in outside if i != index] + [merged]
                    less_group = self._group_less(index, other_slot)
                    if less_group is not None:
                        vectors.append(less_group)
                penalty = self._penalty(natural_total - other.rank, vectors)
            if best is None or penalty < best:
                best = penalty
                if best == 0:
                    break
        assert best is not None
        return best


def _value(slot: int) -> int:
    return slot % len(RANKS) + LOWEST_RANK


def _try_order(card: Card, wild_rank: int) -> tuple[bool, int]:
    """Naturals first, the costliest first: a low answer found early prunes the rest."""
    return (is_wild(card, wild_rank), -card_penalty(card, wild_rank))


def _floor(
    card: Card, whole: int, hand: Sequence[Card], wild_rank: int, total: int | None = None
) -> int:
    """A lower bound on the penalty of ``hand`` (whose penalty is ``whole``) less ``card``;
    ``total``: what all of ``hand`` costs, if known.

    Putting the card back as a leftover arranges the whole hand: at least
    ``whole - value``. A wild put back joins any meld, so unless the rest melds nothing
    (and then every card of it counts) the rest is no better than the whole hand.
    """
    value = card_penalty(card, wild_rank)
    if not is_wild(card, wild_rank):
        return whole - value
    if total is None:
        total = sum(card_penalty(other, wild_rank) for other in hand)
    everything = total - value
    return max(whole - value, min(whole, everything))


# Solvers of whole hands, keyed by the hand as given: the legal actions (ways out), the
# hint (best discard) and the bots ask about the same hand in one turn. Their answers
# are pure; their caches only grow with the questions asked.
_solvers: dict[tuple[tuple[Card, ...], int], SwapSolver] = {}
_SOLVERS_LIMIT = 1 << 10


# The hands solved last, by the sum of their cards' codes: a turn's hands differ from
# one of them by one card (the one drawn, then the one thrown).
_recent: deque[tuple[int, int, tuple[Card, ...], SwapSolver]] = deque(maxlen=24)
_SUIT_CODES = {suit: code for code, suit in enumerate((*SUITS, JOKER.suit))}


def _code(card: Card) -> int:
    return card.rank * 8 + _SUIT_CODES[card.suit]


def _from_recent(hand: tuple[Card, ...], wild_rank: int, code: int) -> SwapSolver | None:
    """``hand``'s solver from a recent hand one natural away from it, if there is one."""
    size = len(hand)
    for rank, other_code, other_hand, other in reversed(_recent):
        if rank != wild_rank or abs(len(other_hand) - size) != 1:
            continue
        difference = code - other_code
        card = Card(abs(difference) // 8, _SUIT_NAMES.get(abs(difference) % 8, ""))
        if card.rank not in _NATURAL_RANKS or not card.suit or card.rank == wild_rank:
            continue
        if difference > 0 and sorted((*other_hand, card)) == sorted(hand):
            return other.plus(hand, card)
        if difference < 0 and sorted((*hand, card)) == sorted(other_hand):
            return other.minus(hand, card)
    return None


_SUIT_NAMES = {code: suit for suit, code in _SUIT_CODES.items() if suit != JOKER.suit}
_NATURAL_RANKS = frozenset(RANKS)


def solver_for(hand: Sequence[Card], wild_rank: int) -> SwapSolver:
    """A shared ``SwapSolver`` of ``hand``."""
    cards = tuple(hand)
    key = (cards, wild_rank)
    found = _solvers.get(key)
    if found is None:
        if len(_solvers) >= _SOLVERS_LIMIT:
            _solvers.clear()  # bounded, like the meld search's memo
        code = sum(_code(card) for card in cards)
        found = _from_recent(cards, wild_rank, code) or SwapSolver(cards, wild_rank)
        _solvers[key] = found
        _recent.append((wild_rank, code, cards, found))
    return found
