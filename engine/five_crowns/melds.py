"""The exact meld solver: arrange a hand into runs and books leaving the lowest penalty.

Why it is exact:

- Wilds (jokers and the round's wild rank) are interchangeable inside melds, so only
  their number matters. A meld's *need* is the fewest wilds that complete its natural
  cards: a book of k naturals needs max(0, 3 - k); a run of k naturals max(3, span) - k.
- Once any meld exists every spare wild can join one (see ``layout._absorb``), and three
  spare wilds make a meld of their own. So a hand's penalty is its unmelded naturals,
  plus its wilds only when no meld at all can be made: the search maximises the value
  of the naturals melded within the wild budget.
- Without loss of generality a run's naturals span at most 5 ranks (a longer run splits
  into two runs with the same total need) and a book holds at most 5 naturals (6 or more
  split into two books). So a run reaches at most 4 ranks above its lowest card.

Why it is fast:

- Naturals that can never share a meld (another rank, and another suit or beyond the
  wilds' reach) form independent components; a knapsack over the wilds combines them.
- Each component is searched on its own, memoised on its multiset, for every wild
  budget at once (``meld_search``).
- A discard choice skips any card d for which penalty(hand) - value(d) cannot beat
  the best found (putting d back as a leftover is an arrangement of the whole hand).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from engine.cards import Card
from engine.five_crowns.compiled import core
from engine.five_crowns.deck import LOWEST_RANK, RANKS, card_penalty, hand_order, is_wild
from engine.five_crowns.layout import (
    MIN_MELD,
    Arrangement,
    Meld,
    lay_out,
    meld_kind,
)
from engine.five_crowns.meld_search import (
    _BITS,
    _FIELD,
    _MEMO_LIMIT,
    _RUN_REACH,
    _SLOT_CARD,
    _SLOTS,
    _SUIT_INDEX,
    _VALUE,
    _best,
    _memo,
    _trace,
)

K = TypeVar("K")
V = TypeVar("V")

__all__ = [
    "Arrangement",
    "Meld",
    "best_arrangement",
    "best_discard",
    "best_discard_penalty",
    "can_go_out_discarding",
    "clear_cache",
    "meld_kind",
    "min_penalty",
    "penalties_after_discards",
    "without_one",
]


# ---------------------------------------------------------------- components


def _components(naturals: Iterable[Card], wilds: int) -> list[tuple[int, int, int]]:
    """Split naturals into groups that can never share a meld: (multiset, count, value)."""
    counts: dict[int, int] = {}
    for card in naturals:
        slot = _SUIT_INDEX[card.suit] * len(RANKS) + card.rank - LOWEST_RANK
        counts[slot] = counts.get(slot, 0) + 1
    parent = {slot: slot for slot in counts}

    def root(slot: int) -> int:
        while parent[slot] != slot:
            parent[slot] = slot = parent[parent[slot]]
        return slot

    reach = min(_RUN_REACH, wilds + 1)
    by_rank: dict[int, int] = {}
    previous = -_SLOTS
    for slot in sorted(counts):  # suit by suit, rank by rank
        if slot - previous <= reach and slot // len(RANKS) == previous // len(RANKS):
            parent[root(slot)] = root(previous)
        rank_index = slot % len(RANKS)
        if rank_index in by_rank:
            parent[root(slot)] = root(by_rank[rank_index])
        by_rank[rank_index] = slot
        previous = slot
    groups: dict[int, list[int]] = {}
    for slot, copies in counts.items():
        group = groups.setdefault(root(slot), [0, 0, 0])
        group[0] += copies << (_BITS * slot)
        group[1] += copies
        group[2] += copies * _VALUE[slot]
    return [(hand, count, total) for hand, count, total in groups.values()]


def _split(hand: Iterable[Card], wild_rank: int) -> tuple[list[Card], list[Card]]:
    naturals: list[Card] = []
    wilds: list[Card] = []
    for card in hand:
        (wilds if is_wild(card, wild_rank) else naturals).append(card)
    return naturals, wilds


def _vectors(groups: list[tuple[int, int, int]], wilds: int) -> list[tuple[int, ...]]:
    return [_best(hand, count, total, wilds) for hand, count, total in groups]


def _share_wilds(vectors: list[tuple[int, ...]], wilds: int) -> tuple[int, list[int]]:
    """Knapsack over the wilds: the most value all components meld together, and how
    many wilds each component gets for it (the fewest, on ties)."""
    best = [0] * (wilds + 1)
    choices = []
    for vector in vectors:
        last = len(vector) - 1
        row, choice = [], []
        for budget in range(wilds + 1):
            used = 0
            for more in range(1, min(budget, last) + 1):
                if best[budget - more] + vector[more] > best[budget - used] + vector[used]:
                    used = more
            row.append(best[budget - used] + vector[used])
            choice.append(used)
        best = row
        choices.append(choice)
    shares = []
    budget = wilds
    for choice in reversed(choices):
        shares.append(choice[budget])
        budget -= choice[budget]
    return best[-1], shares[::-1]


def _most_melded(vectors: Iterable[tuple[int, ...]], wilds: int) -> int:
    """``_share_wilds``'s value alone (no shares), faster: a component that wilds do not
    help (its vector is flat) just adds its value, and only the others share the wilds."""
    flat = 0
    best: list[int] | None = None
    for vector in vectors:
        if max(vector) == vector[0]:
            flat += vector[0]
            continue
        last = len(vector) - 1
        if best is None:  # the first: the most it melds with up to each budget
            best, top = [], 0
            for budget in range(wilds + 1):
                if budget <= last and vector[budget] > top:
                    top = vector[budget]
                best.append(top)
            continue
        row = []
        for budget in range(wilds + 1):
            top = best[budget] + vector[0]
            for more in range(1, (budget if budget < last else last) + 1):
                value = best[budget - more] + vector[more]
                if value > top:
                    top = value
            row.append(top)
        best = row
    return flat + (best[wilds] if best is not None else 0)


def _penalty(naturals: list[Card], wilds: list[Card], melded: int, wild_rank: int) -> int:
    penalty = sum(card.rank for card in naturals) - melded
    if not melded and len(wilds) < MIN_MELD:  # no meld at all: the wilds count too
        penalty += sum(card_penalty(card, wild_rank) for card in wilds)
    return penalty


# Whole-hand answers, keyed by the sorted hand: the bots and the views ask about the same
# hands again and again (a draw choice prices ~50 hands, most of them seen last turn).
_penalties: dict[tuple[tuple[Card, ...], int], int] = {}


def min_penalty(hand: Iterable[Card], wild_rank: int) -> int:
    """The lowest penalty ``hand`` can be arranged to (0: it can all be laid down)."""
    cards = tuple(sorted(hand))
    key = (cards, wild_rank)
    found = _penalties.get(key)
    if found is not None:
        return found
    naturals, wilds = _split(cards, wild_rank)
    if len(wilds) >= 2 * len(naturals) and (naturals or len(wilds) >= MIN_MELD):
        penalty = 0  # every natural can sit between two wilds
    else:
        vectors = _vectors(_components(naturals, len(wilds)), len(wilds))
        melded = _most_melded(vectors, len(wilds))
        penalty = _penalty(naturals, wilds, melded, wild_rank)
    if len(_penalties) >= _MEMO_LIMIT:
        _penalties.clear()  # bounded, like the search's memo
    _penalties[key] = penalty
    return penalty


# Every discard's penalty, keyed by the hand as given: the legal actions (ways out), the
# hint and the bot's discard all ask about the same hand in one turn. Callers only read.
_discards: dict[tuple[tuple[Card, ...], int], dict[Card, int]] = {}
_DISCARDS_LIMIT = 1 << 12


def penalties_after_discards(hand: Sequence[Card], wild_rank: int) -> dict[Card, int]:
    """``min_penalty`` of ``hand`` less one copy of each distinct card, solved together
    (the answer is shared: do not change it).

    Removing a natural leaves the wild count (so the components' reach) unchanged: only
    that card's component is solved again, and the wild knapsack of all the other
    components is built once per component (prefix and suffix tables). A wild's removal
    changes the reach and goes through ``min_penalty``.
    """
    cards = tuple(hand)
    return _memoised(
        _discards, (cards, wild_rank), lambda: _penalties_after_discards(cards, wild_rank)
    )


def _penalties_after_discards(hand: Sequence[Card], wild_rank: int) -> dict[Card, int]:
    naturals, wilds = _split(hand, wild_rank)
    count = len(wilds)
    groups = _components(naturals, count)
    vectors = [_padded(vector, count) for vector in _vectors(groups, count)]
    prefixes = [(0,) * (count + 1)]
    for vector in vectors:
        prefixes.append(_max_plus(prefixes[-1], vector))
    suffix = (0,) * (count + 1)
    others: list[tuple[int, ...]] = [suffix] * len(groups)  # every component but this one
    for index in range(len(groups) - 1, -1, -1):
        others[index] = _max_plus(prefixes[index], suffix)
        suffix = _max_plus(suffix, vectors[index])
    group_of = {}
    for index, (mask, _, _) in enumerate(groups):
        while mask:
            shift = ((mask & -mask).bit_length() - 1) // _BITS * _BITS
            group_of[shift] = index
            mask &= ~(_FIELD << shift)
    natural_total = sum(card.rank for card in naturals)
    wild_penalty = sum(card_penalty(wild, wild_rank) for wild in wilds)
    left = len(naturals) - 1
    result: dict[Card, int] = {}
    for card in dict.fromkeys(hand):
        if is_wild(card, wild_rank):
            result[card] = min_penalty(without_one(hand, card), wild_rank)
            continue
        if count >= 2 * left and (left or count >= MIN_MELD):
            result[card] = 0  # as min_penalty: every natural can sit between two wilds
            continue
        shift = _BITS * (_SUIT_INDEX[card.suit] * len(RANKS) + card.rank - LOWEST_RANK)
        index = group_of[shift]
        mask, size, total = groups[index]
        rest = others[index]
        if size > 1:
            sub = _padded(_best(mask - (1 << shift), size - 1, total - card.rank, count), count)
            melded = max(rest[count - spent] + sub[spent] for spent in range(count + 1))
        else:
            melded = rest[count]
        penalty = natural_total - card.rank - melded
        result[card] = penalty + wild_penalty if not melded and count < MIN_MELD else penalty
    return result


def _padded(vector: tuple[int, ...], wilds: int) -> tuple[int, ...]:
    """A component's vector for every budget 0..wilds (beyond its cap it melds no more)."""
    return vector + (vector[-1],) * (wilds + 1 - len(vector))


def _max_plus(first: tuple[int, ...], second: tuple[int, ...]) -> tuple[int, ...]:
    """Two knapsacks over the wilds combined: the most value for each budget."""
    if len(first) == 1:  # no wilds (the common case): one sum
        return (first[0] + second[0],)
    return tuple(
        max(first[budget - spent] + second[spent] for spent in range(budget + 1))
        for budget in range(len(first))
    )


# ---------------------------------------------------------------- the public entry points


# Arrangements, keyed by the hand as given (which wild goes where follows its order):
# going out, the round's end and the views arrange the same hands. They are immutable.
_arrangements: dict[tuple[tuple[Card, ...], int], Arrangement] = {}


def best_arrangement(hand: Iterable[Card], wild_rank: int) -> Arrangement:
    """The arrangement of ``hand`` into melds that leaves the lowest penalty."""
    cards = tuple(hand)
    return _memoised(_arrangements, (cards, wild_rank), lambda: _best_arrangement(cards, wild_rank))


def _memoised(memo: dict[K, V], key: K, compute: Callable[[], V]) -> V:
    """``memo[key]``, computed once; the memo is bounded, like the search's."""
    found = memo.get(key)
    if found is None:
        if len(memo) >= _DISCARDS_LIMIT:
            memo.clear()
        found = memo[key] = compute()
    return found


def _plan_search(naturals: Sequence[Card], wilds: int) -> list[tuple[str, int]]:
    """Which naturals meld together, and how (kind, naturals' multiset), for the lowest
    penalty: each component gets its share of the wilds and is traced. The reference
    of the compiled ``plan``; the order (components by first card in hand, then the
    trace's) is the one ``lay_out`` is given."""
    groups = _components(naturals, wilds)
    _, shares = _share_wilds(_vectors(groups, wilds), wilds)
    return [
        (kind, mask)
        for (group, count, total), share in zip(groups, shares, strict=True)
        for kind, mask, _ in _trace(group, count, total, wilds, share)
    ]


_plan: Callable[[Sequence[Card], int], list[tuple[str, int]]] = (
    _plan_search if core is None else core.plan
)


def _best_arrangement(hand: tuple[Card, ...], wild_rank: int) -> Arrangement:
    naturals, wilds = _split(hand, wild_rank)
    wilds.sort(key=lambda card: card_penalty(card, wild_rank))  # the cheapest melded first
    chosen = [(kind, _slot_cards(mask)) for kind, mask in _plan(naturals, len(wilds))]
    melds, spare = lay_out(chosen, wilds, wild_rank)
    leftover = without_all(naturals, [card for _, cards in chosen for card in cards]) + spare
    penalty = sum(card_penalty(card, wild_rank) for card in leftover)
    return Arrangement(melds, tuple(sorted(leftover, key=hand_order)), penalty)


def without_all(cards: Sequence[Card], removed: Iterable[Card]) -> list[Card]:
    """``cards`` less one copy of each card of ``removed`` (all of which it holds)."""
    remaining = list(cards)
    for card in removed:
        remaining.remove(card)
    return remaining


def without_one(hand: Sequence[Card], card: Card) -> list[Card]:
    """``hand`` less one copy of ``card``."""
    return without_all(hand, (card,))


def _slot_cards(mask: int) -> list[Card]:
    """The natural cards a multiset integer stands for."""
    cards = []
    while mask:  # only the occupied slots, lowest first (the same order as a full scan)
        slot = ((mask & -mask).bit_length() - 1) // _BITS
        copies = (mask >> (_BITS * slot)) & _FIELD
        cards += [_SLOT_CARD[slot]] * copies
        mask -= copies << (_BITS * slot)
    return cards


def best_discard(
    hand: Sequence[Card], wild_rank: int, choices: Iterable[Card] | None = None
) -> tuple[Card, Arrangement]:
    """The discard (among ``choices``, default any card) leaving the lowest penalty, and
    the arrangement of what remains.

    Ties keep the wilds, then throw the costliest card, then the first in hand order.
    """
    card, _ = best_discard_penalty(hand, wild_rank, choices)
    return card, best_arrangement(without_one(hand, card), wild_rank)


def best_discard_penalty(
    hand: Sequence[Card], wild_rank: int, choices: Iterable[Card] | None = None
) -> tuple[Card, int]:
    """``best_discard``'s card and the penalty left, without laying the rest out."""
    allowed = list(dict.fromkeys(hand if choices is None else choices))
    if not allowed:
        raise ValueError("no card to discard")
    # Every discard's penalty in one pass: the components are shared (see
    # penalties_after_discards), cheaper than pruned solves one by one.
    penalties = penalties_after_discards(hand, wild_rank)
    best: tuple[tuple[int, bool, int, tuple[int, int]], Card] | None = None
    for card in allowed:
        rank = (
            penalties[card],
            is_wild(card, wild_rank),
            -card_penalty(card, wild_rank),
            hand_order(card),
        )
        if best is None or rank < best[0]:
            best = (rank, card)
    assert best is not None
    return best[1], best[0][0]


def can_go_out_discarding(hand: Sequence[Card], wild_rank: int) -> list[Card]:
    """The distinct cards of ``hand`` whose discard leaves a hand that melds entirely."""
    penalties = penalties_after_discards(hand, wild_rank)  # shared with the hint's discard
    return [card for card in dict.fromkeys(hand) if not penalties[card]]


def clear_cache() -> None:
    """Forget every memoised result (benchmarks use it to time cold solves)."""
    _memo.clear()
    if core is not None:
        core.clear()
    _penalties.clear()
    _discards.clear()
    _arrangements.clear()
