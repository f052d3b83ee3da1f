"""The meld search of one component (``melds``): the most value a multiset of naturals
melds for every wild budget, memoised on the multiset.

- Each component is searched from its lowest-ranked card (left over, or the lowest card
  of some meld), memoised on the remaining multiset (one integer, 3 bits per card), and
  returns the best melded value for every wild budget at once, so a remainder is solved
  once however it was reached. Going rank by rank, books take a whole rank and runs
  leave holes only in the next four ranks: few distinct remainders.
- Suits are symmetric, so the memo key is the hand with its suits sorted; same-rank
  cards no run can reach are interchangeable, so a book picks how many, not which; and
  a budget that already melds the whole remainder stops the search for it.
- ``_search`` is the reference; ``_best`` is the compiled search when it was built
  (``compiled``), which follows this one step by step in C.
- The memo is a bounded module-level cache: pure (the same answer for the same cards)
  and shared, so the near-identical solves of a discard or draw choice share work.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.cards import Card
from engine.five_crowns.compiled import core
from engine.five_crowns.deck import LOWEST_RANK, RANKS, SUITS
from engine.five_crowns.layout import BOOK, MIN_MELD, RUN

# A hand's naturals are one integer: 3 bits (a count, up to 4 with two packs) per slot,
# slot = suit index * 11 + rank - 3. Removing cards is then one subtraction.
_BITS = 3
_FIELD = (1 << _BITS) - 1
_SLOTS = len(SUITS) * len(RANKS)
_UNITS = sum(1 << (_BITS * slot) for slot in range(_SLOTS))
_RUN_REACH = 4  # a run's naturals span at most 5 ranks (see melds)
_BOOK_OTHERS = 4  # a book holds at most 5 naturals (see melds)
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


def _search(hand: int, count: int, total: int, wilds: int) -> tuple[int, ...]:
    """For k = 0..cap wilds: the most value of ``hand`` (``count`` naturals worth
    ``total``) that can be melded. The reference of the compiled ``best`` (``_best``).

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
                sub = memo.get((rest, 0)) or _search(rest, left, total - removed, 0)
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
            sub = _memo.get((rest, min(wilds, 2 * left))) or _search(
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


# The search every solve uses: the compiled one if it was built (``compiled``).
_best: Callable[[int, int, int, int], tuple[int, ...]] = _search if core is None else core.best


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
