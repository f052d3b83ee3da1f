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
- Each component is searched from its lowest-ranked card (left over, or the lowest card
  of some meld), memoised on the remaining multiset (one integer, 3 bits per card), and
  returns the best melded value for every wild budget at once, so a remainder is solved
  once however it was reached. Going rank by rank, books take a whole rank and runs
  leave holes only in the next four ranks: few distinct remainders.
- Suits are symmetric, so the memo key is the hand with its suits sorted; same-rank
  cards no run can reach are interchangeable, so a book picks how many, not which; and
  a budget that already melds the whole remainder stops the search for it.
- The memo is a bounded module-level cache: pure (the same answer for the same cards)
  and shared, so the fourteen near-identical solves of a discard choice share work.
  A discard choice also skips any card d for which penalty(hand) - value(d) cannot beat
  the best found (putting d back as a leftover is an arrangement of the whole hand).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from engine.cards import Card
from engine.five_crowns.deck import LOWEST_RANK, RANKS, SUITS, card_penalty, hand_order, is_wild
from engine.five_crowns.layout import (
    BOOK,
    MIN_MELD,
    RUN,
    Arrangement,
    Meld,
    lay_out,
    meld_kind,
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

# A hand's naturals are one integer: 3 bits (a count, up to 4 with two packs) per slot,
# slot = suit index * 11 + rank - 3. Removing cards is then one subtraction.
_BITS = 3
_FIELD = (1 << _BITS) - 1
_SLOTS = len(SUITS) * len(RANKS)
_UNITS = sum(1 << (_BITS * slot) for slot in range(_SLOTS))
_RUN_REACH = 4  # a run's naturals span at most 5 ranks (see above)
_BOOK_OTHERS = 4  # a book holds at most 5 naturals (see above)
_SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS)}
_VALUE = tuple(slot % len(RANKS) + LOWEST_RANK for slot in range(_SLOTS))
_MEMO_LIMIT = 1 << 17
_SUIT_SHIFTS = tuple(_BITS * len(RANKS) * suit for suit in range(len(SUITS)))
_SUIT_MASK = (1 << (_BITS * len(RANKS))) - 1
_SLOT_CARD = tuple(Card(_VALUE[slot], SUITS[slot // len(RANKS)]) for slot in range(_SLOTS))

# (kind or "" for a leftover card, naturals' mask, need, value melded, value taken out
#  of the hand, remaining multiset, remaining count)
_Move = tuple[str, int, int, int, int, int, int]


# ---------------------------------------------------------------- precomputed patterns


_Pattern = tuple[int, int, int, int]  # (other cards' mask, their count, need, their value)


def _run_table(slot: int) -> tuple[tuple[_Pattern, ...], ...]:
    """The runs whose lowest natural is ``slot``, indexed by which of the next four ranks
    of its suit are present (4 bits), each list sorted by need so a search can stop."""
    reach = min(_RUN_REACH, len(RANKS) - 1 - slot % len(RANKS))
    patterns: list[tuple[int, _Pattern]] = []
    for chosen in range(1, 1 << reach):
        offsets = [step for step in range(1, reach + 1) if chosen >> (step - 1) & 1]
        need = max(MIN_MELD, offsets[-1] + 1) - len(offsets) - 1
        mask = sum(1 << (_BITS * (slot + step)) for step in offsets)
        value = sum(_VALUE[slot + step] for step in offsets)
        patterns.append((chosen, (mask, len(offsets), need, value)))
    patterns.sort(key=lambda pattern: pattern[1][2])
    return tuple(
        tuple(pattern for chosen, pattern in patterns if chosen & ~present == 0)
        for present in range(1 << _RUN_REACH)
    )


_RUNS = tuple(_run_table(slot) for slot in range(_SLOTS))
_WINDOW = (1 << (_BITS * _RUN_REACH)) - 1
_NEIGHBOURS = tuple(  # [slot][reach]: same-suit slots at most ``reach`` ranks away
    tuple(
        sum(
            1 << (_BITS * other)
            for other in range(slot - reach, slot + reach + 1)
            if other != slot and 0 <= other < _SLOTS and other // len(RANKS) == slot // len(RANKS)
        )
        for reach in range(_RUN_REACH + 1)
    )
    for slot in range(_SLOTS)
)
_BOOK_SLOTS = tuple(  # the slot itself (a twin) and the same rank in the later suits
    tuple(range(slot, _SLOTS, len(RANKS))) for slot in range(_SLOTS)
)


# ---------------------------------------------------------------- the search


_memo: dict[tuple[int, int], tuple[int, ...]] = {}


def _moves(hand: int, count: int, cap: int) -> list[_Move]:
    """What can happen to the lowest card of ``hand``: left over, or the lowest of a meld."""
    # The lowest rank first: books then take a whole rank and runs leave holes only in
    # the next few ranks, so far fewer distinct remainders arise than suit by suit.
    folded = hand | hand >> _SUIT_SHIFTS[1] | hand >> _SUIT_SHIFTS[2]
    folded = (folded | hand >> _SUIT_SHIFTS[3] | hand >> _SUIT_SHIFTS[4]) & _SUIT_MASK
    rank_index = ((folded & -folded).bit_length() - 1) // _BITS
    slot = rank_index
    while not (hand >> (_BITS * slot)) & _FIELD:
        slot += len(RANKS)
    unit = 1 << (_BITS * slot)
    rest = hand - unit
    value = _VALUE[slot]
    moves: list[_Move] = []
    if cap >= 2:
        moves.append((BOOK, unit, 2, value, value, rest, count - 1))
    window = (rest >> (_BITS * (slot + 1))) & _WINDOW
    window |= window >> 1 | window >> 2
    present = (window & 1) | (window >> 2 & 2) | (window >> 4 & 4) | (window >> 6 & 8)
    for mask, others, need, others_value in _RUNS[slot][present]:
        if need > cap:
            break
        gained = value + others_value
        moves.append((RUN, unit + mask, need, gained, gained, rest - mask, count - 1 - others))
    books = [(0, 0)]
    # Same-rank cards that no run can use are interchangeable: pick how many, not which.
    reach = min(_RUN_REACH, cap + 1)
    book_only: list[int] = []
    for other in _BOOK_SLOTS[slot]:
        available = (rest >> (_BITS * other)) & _FIELD
        if not available:
            continue
        other_unit = 1 << (_BITS * other)
        if not (rest | rest >> 1 | rest >> 2) & _NEIGHBOURS[other][reach]:
            book_only += [other_unit] * available
            continue
        books = [
            (mask + taken * other_unit, size + taken)
            for mask, size in books
            for taken in range(min(available, _BOOK_OTHERS - size) + 1)
        ]
    if book_only:
        books = [
            (mask + sum(book_only[:taken]), size + taken)
            for mask, size in books
            for taken in range(min(len(book_only), _BOOK_OTHERS - size) + 1)
        ]
    for mask, size in books:
        need = max(0, MIN_MELD - 1 - size)
        if size and need <= cap:
            gained = value * (size + 1)
            moves.append((BOOK, unit + mask, need, gained, gained, rest - mask, count - 1 - size))
    # Cheap, rich melds first: a budget that melds everything then stops the search early.
    moves.sort(key=lambda move: (move[2], -move[3]))
    moves.append(("", 0, 0, 0, value, rest, count - 1))  # last: it never melds everything
    return moves


# (need, -value melded, value taken out of the hand, remaining multiset, remaining count)
_Option = tuple[int, int, int, int, int]


def _options(hand: int, count: int, cap: int) -> list[_Option]:
    """``_moves`` for the search alone (no meld kinds or masks), in an order that plain
    tuple comparison gives: the cheapest first, the richest first among equals; the
    leftover card last. The same moves, so the same answers."""
    folded = hand | hand >> _SUIT_SHIFTS[1] | hand >> _SUIT_SHIFTS[2]
    folded = (folded | hand >> _SUIT_SHIFTS[3] | hand >> _SUIT_SHIFTS[4]) & _SUIT_MASK
    slot = ((folded & -folded).bit_length() - 1) // _BITS
    while not (hand >> (_BITS * slot)) & _FIELD:
        slot += len(RANKS)
    rest = hand - (1 << (_BITS * slot))
    value = _VALUE[slot]
    left = count - 1
    options: list[_Option] = [(2, -value, value, rest, left)] if cap >= 2 else []
    window = (rest >> (_BITS * (slot + 1))) & _WINDOW
    if window:
        window |= window >> 1 | window >> 2
        present = (window & 1) | (window >> 2 & 2) | (window >> 4 & 4) | (window >> 6 & 8)
        for mask, others, need, others_value in _RUNS[slot][present]:
            if need > cap:
                break
            gained = value + others_value
            options.append((need, -gained, gained, rest - mask, left - others))
    books = [(0, 0)]
    book_only: list[int] = []
    spread = rest | rest >> 1 | rest >> 2  # a bit in each occupied field
    reach = min(_RUN_REACH, cap + 1)
    for other in _BOOK_SLOTS[slot]:
        available = (rest >> (_BITS * other)) & _FIELD
        if not available:
            continue
        other_unit = 1 << (_BITS * other)
        if not spread & _NEIGHBOURS[other][reach]:
            book_only += [other_unit] * available
            continue
        books = [
            (mask + taken * other_unit, size + taken)
            for mask, size in books
            for taken in range(min(available, _BOOK_OTHERS - size) + 1)
        ]
    if book_only:
        books = [
            (mask + sum(book_only[:taken]), size + taken)
            for mask, size in books
            for taken in range(min(len(book_only), _BOOK_OTHERS - size) + 1)
        ]
    for mask, size in books:
        if size:
            need = 0 if size >= MIN_MELD - 1 else MIN_MELD - 1 - size
            if need <= cap:
                gained = value * (size + 1)
                options.append((need, -gained, gained, rest - mask, left - size))
    options.sort()
    options.append((0, 0, value, rest, left))  # last: it never melds everything
    return options


def _best(hand: int, count: int, total: int, wilds: int) -> tuple[int, ...]:
    """For k = 0..cap wilds: the most value of ``hand`` (``count`` naturals worth
    ``total``) that can be melded.

    cap = min(wilds, 2 * count): two wilds per natural always suffice. Every call of one
    solve passes the same ``wilds`` so that a remainder is one entry, whatever led to it.
    """
    cap = min(wilds, 2 * count)
    raw_key = (hand, cap)
    found = _memo.get(raw_key)
    if found is not None:
        return found
    # Suits are symmetric: hands that differ only by a renaming of suits share one entry.
    suits = sorted(
        [
            hand & _SUIT_MASK,
            hand >> _SUIT_SHIFTS[1] & _SUIT_MASK,
            hand >> _SUIT_SHIFTS[2] & _SUIT_MASK,
            hand >> _SUIT_SHIFTS[3] & _SUIT_MASK,
            hand >> _SUIT_SHIFTS[4],
        ]
    )
    hand = suits[0] | suits[1] << _SUIT_SHIFTS[1] | suits[2] << _SUIT_SHIFTS[2]
    hand |= suits[3] << _SUIT_SHIFTS[3] | suits[4] << _SUIT_SHIFTS[4]
    key = (hand, cap)
    found = _memo.get(key)
    if found is not None:
        _memo[raw_key] = found
        return found
    memo = _memo
    if not cap:  # no wilds (so none below either): one number, no budgets
        top = 0
        for _, gained, removed, rest, left in _options(hand, count, 0):
            if left:
                sub = memo.get((rest, 0)) or _best(rest, left, total - removed, 0)
                gained = sub[0] - gained
            else:
                gained = -gained
            if gained > top:
                top = gained
                if top == total:
                    break
        result: tuple[int, ...] = (top,)
        if len(memo) >= _MEMO_LIMIT:
            memo.clear()
        memo[key] = memo[raw_key] = result
        return result
    best = [0] * (cap + 1)
    unmet = cap + 1  # budgets from here on already meld the whole hand
    for need, gained, removed, rest, left in _options(hand, count, cap):
        if need >= unmet:
            continue
        gained = -gained
        if left:
            sub = _memo.get((rest, min(wilds, 2 * left))) or _best(
                rest, left, total - removed, wilds
            )
            last = len(sub) - 1
            for budget in range(need, unmet):
                spare = budget - need
                melded = gained + sub[spare if spare < last else last]
                if melded > best[budget]:
                    best[budget] = melded
        else:
            for budget in range(need, unmet):
                if gained > best[budget]:
                    best[budget] = gained
        while unmet and best[unmet - 1] == total:
            unmet -= 1
        if not unmet:
            break
    for budget in range(unmet, cap + 1):
        best[budget] = total
    result = tuple(best)
    if len(_memo) >= _MEMO_LIMIT:
        _memo.clear()  # bounded: a long-running table must not grow memory
    _memo[key] = _memo[raw_key] = result
    return result


def _trace(
    hand: int, count: int, total: int, wilds: int, budget: int
) -> list[tuple[str, int, int]]:
    """The melds (kind, naturals' mask, need) that reach ``_best(...)[budget]``."""
    melds: list[tuple[str, int, int]] = []
    while count:
        target = _best(hand, count, total, wilds)[budget]
        for kind, mask, need, gained, removed, rest, left in _moves(hand, count, budget):
            sub_budget = min(budget - need, wilds, 2 * left)
            sub_total = total - removed
            if gained + (_best(rest, left, sub_total, wilds)[sub_budget] if left else 0) == target:
                if kind:
                    melds.append((kind, mask, need))
                hand, count, total, budget = rest, left, sub_total, sub_budget
                break
        else:  # pragma: no cover - _best found this value, so one move reaches it
            raise AssertionError("meld search is inconsistent")
    return melds


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


def _best_arrangement(hand: tuple[Card, ...], wild_rank: int) -> Arrangement:
    naturals, wilds = _split(hand, wild_rank)
    wilds.sort(key=lambda card: card_penalty(card, wild_rank))  # the cheapest melded first
    groups = _components(naturals, len(wilds))
    _, shares = _share_wilds(_vectors(groups, len(wilds)), len(wilds))
    chosen = [
        (kind, _slot_cards(mask))
        for (group, count, total), share in zip(groups, shares, strict=True)
        for kind, mask, _ in _trace(group, count, total, len(wilds), share)
    ]
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
    _penalties.clear()
    _discards.clear()
    _arrangements.clear()
