"""The meld solver against a brute-force oracle, and its rules case by case."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import JOKER, Card, parse_cards
from engine.five_crowns.deck import SUITS, full_deck
from engine.five_crowns.melds import (
    best_arrangement,
    best_discard,
    clear_cache,
    meld_kind,
    min_penalty,
)

DECK = full_deck()


# ---------------------------------------------------------------- the oracle
# Written from the rules alone, without the solver's shortcuts: every subset of the hand
# that is a valid meld, then the best cover of the hand by such subsets (bitmask DP).


def oracle_value(card: Card, wild_rank: int) -> int:
    if card == JOKER:
        return 50
    return 20 if card.rank == wild_rank else card.rank


def oracle_is_meld(cards: Sequence[Card], wild_rank: int) -> bool:
    if len(cards) < 3:
        return False
    naturals = [c for c in cards if c != JOKER and c.rank != wild_rank]
    if not naturals or len({c.rank for c in naturals}) == 1:
        return True  # only wilds, or a book
    ranks = [c.rank for c in naturals]
    one_suit = len({c.suit for c in naturals}) == 1
    distinct = len(set(ranks)) == len(ranks)
    return one_suit and distinct and max(ranks) - min(ranks) + 1 <= len(cards) <= 11


def oracle_penalty(hand: Sequence[Card], wild_rank: int) -> int:
    size = len(hand)
    melds = [
        mask
        for mask in range(1, 1 << size)
        if oracle_is_meld([hand[i] for i in range(size) if mask >> i & 1], wild_rank)
    ]
    best = [0] * (1 << size)
    for mask in range(1, 1 << size):
        lowest = mask & -mask
        index = lowest.bit_length() - 1
        value = oracle_value(hand[index], wild_rank) + best[mask ^ lowest]
        for meld in melds:
            if meld & lowest and meld & mask == meld:
                value = min(value, best[mask ^ meld])
        best[mask] = value
    return best[-1]


# ---------------------------------------------------------------- hand strategies


@st.composite
def overlapping_melds(draw: st.DrawFn, wild_rank: int, size: int) -> list[Card]:
    """Runs and books drawn on top of each other (some cards replaced by wilds), cut to
    ``size`` cards: the hands where a card has more than one meld to choose from."""
    cards: list[Card] = []
    while len(cards) < size:
        if draw(st.booleans()):
            suit = draw(st.sampled_from(SUITS))
            low = draw(st.integers(3, 11))
            length = draw(st.integers(3, min(5, 14 - low)))
            meld = [Card(rank, suit) for rank in range(low, low + length)]
        else:
            rank = draw(st.integers(3, 13))
            chosen = draw(st.lists(st.sampled_from(SUITS), min_size=3, max_size=5, unique=True))
            meld = [Card(rank, suit) for suit in chosen]
        wilds = draw(st.lists(st.booleans(), min_size=len(meld), max_size=len(meld)))
        cards += [JOKER if wild else card for card, wild in zip(meld, wilds, strict=True)]
    available = Counter(DECK)
    hand = []
    for card in draw(st.permutations(cards))[:size]:
        if available[card]:  # never more copies than the pack holds
            available[card] -= 1
            hand.append(card)
    return hand


@st.composite
def hands(draw: st.DrawFn, max_size: int = 9) -> tuple[list[Card], int]:
    """Uniform hands, dense ones (few suits, a narrow band of ranks, maybe many wilds),
    and hands made of overlapping melds."""
    wild_rank = draw(st.integers(3, 13))
    size = draw(st.integers(0, max_size))
    kind = draw(st.sampled_from(["uniform", "dense", "melds"]))
    if kind == "melds":
        return draw(overlapping_melds(wild_rank, size)), wild_rank
    pool = list(DECK)
    if kind == "dense":
        suits = draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=5, unique=True))
        low = draw(st.integers(3, 12))
        width = draw(st.integers(1, 5))
        with_wilds = draw(st.booleans())
        pool = [
            card
            for card in DECK
            if (with_wilds and (card == JOKER or card.rank == wild_rank))
            or (card.suit in suits and low <= card.rank <= low + width)
        ]
    indices = draw(st.lists(st.integers(0, len(pool) - 1), max_size=size, unique=True))
    return [pool[i] for i in indices], wild_rank


def check_arrangement(hand: Sequence[Card], wild_rank: int, penalty: int) -> None:
    arrangement = best_arrangement(hand, wild_rank)
    assert arrangement.penalty == penalty
    laid = [card for meld in arrangement.melds for card in meld.cards]
    assert Counter(laid) + Counter(arrangement.leftover) == Counter(hand)
    assert all(oracle_is_meld(meld.cards, wild_rank) for meld in arrangement.melds)
    assert sum(oracle_value(card, wild_rank) for card in arrangement.leftover) == penalty


@settings(max_examples=300, deadline=None)
@given(hands())
def test_solver_matches_the_brute_force_oracle(case: tuple[list[Card], int]) -> None:
    hand, wild_rank = case
    clear_cache()  # a cold solve, not one remembered from an earlier example
    expected = oracle_penalty(hand, wild_rank)
    assert min_penalty(hand, wild_rank) == expected
    check_arrangement(hand, wild_rank, expected)


@settings(max_examples=60, deadline=None)
@given(hands(max_size=8))
def test_best_discard_matches_the_oracle(case: tuple[list[Card], int]) -> None:
    hand, wild_rank = case
    if not hand:
        return
    card, arrangement = best_discard(hand, wild_rank)
    rests = {c: [x for i, x in enumerate(hand) if i != hand.index(c)] for c in hand}
    best = min(oracle_penalty(rest, wild_rank) for rest in rests.values())
    assert arrangement.penalty == best == oracle_penalty(rests[card], wild_rank)
    check_arrangement(rests[card], wild_rank, best)


@settings(max_examples=150, deadline=None)
@given(hands(max_size=14), st.permutations(SUITS))
def test_big_hands_are_consistent(case: tuple[list[Card], int], renamed: list[str]) -> None:
    """13- and 14-card hands: a valid arrangement, suit names do not matter, and one more
    card never costs more than its own value."""
    hand, wild_rank = case
    penalty = min_penalty(hand, wild_rank)
    check_arrangement(hand, wild_rank, penalty)
    rename = dict(zip(SUITS, renamed, strict=True))
    relabelled = [c if c == JOKER else Card(c.rank, rename[c.suit]) for c in hand]
    clear_cache()
    assert min_penalty(relabelled, wild_rank) == penalty
    if hand:
        rest = hand[1:]
        assert penalty <= min_penalty(rest, wild_rank) + oracle_value(hand[0], wild_rank)


# ---------------------------------------------------------------- rules, case by case


@pytest.mark.parametrize(
    ("text", "wild_rank", "penalty"),
    [
        ("4H 5H 6H", 3, 0),  # a run
        ("7H 7H 7D", 3, 0),  # a book may repeat a card
        ("QH KH 3H", 4, 28),  # no wrap-around from K to 3
        ("4H 5H 5H", 3, 14),  # a run cannot hold one rank twice
        ("4H 6H JK", 3, 0),  # a joker fills a gap
        ("4H 6H 3C", 3, 0),  # so does a card of the wild rank
        ("JK JK 5S", 3, 0),  # several wilds in one meld
        ("JK 3C 3D", 3, 0),  # a meld of wilds alone
        ("JK 3C", 3, 70),  # two wilds alone are no meld: both cost
        ("JK", 3, 50),
        ("3C", 3, 20),
        ("9H 10H JH QH KH JK", 5, 0),  # a long run; the joker extends it downwards
        ("10S JS QS", 4, 0),
        ("10S JS 10D JD 10C", 4, 22),  # a book of tens; the two jacks are left
        ("3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK", 8, 0),  # a full run plus a joker
        ("KH QH JH", 13, 0),  # kings wild: K-Q-J still a run with the king as a wild
        ("8D 9C 10S", 3, 27),  # mixed suits are no run
        ("3H 7H JK JK JK", 10, 0),  # one run 3-7 needs three wilds; two runs would need four
        ("3H 7H JK JK", 10, 3),  # with two wilds only one of them melds: the 7
        ("5H 5C 5S 5D 6D 7D", 3, 0),  # which five joins the book matters: not 5D
        ("7H 7D 7C 7S 7T", 3, 0),  # a book of five naturals
        ("7H 7D 7C 7S 7T 7H 8H 9H", 3, 0),  # six sevens: a book, or a book and a run
    ],
)
def test_rules_of_melds(text: str, wild_rank: int, penalty: int) -> None:
    hand = list(parse_cards(text))
    assert oracle_penalty(hand, wild_rank) == penalty  # the table itself is right
    assert min_penalty(hand, wild_rank) == penalty
    check_arrangement(hand, wild_rank, penalty)


def test_values_of_leftover_cards() -> None:
    # nothing melds: 3..10 face value, J 11, Q 12, K 13, the wild rank 20, a joker 50
    assert min_penalty(parse_cards("3H 10D JC QS KT 5H"), 5) == 3 + 10 + 11 + 12 + 13 + 20
    assert min_penalty(parse_cards("7C JK"), 5) == 7 + 50


def test_arrangement_shows_runs_in_rank_order_and_wilds_in_place() -> None:
    arrangement = best_arrangement(parse_cards("5H 7H JK 9D 9C 9S"), 3)
    shown = sorted(str(meld) for meld in arrangement.melds)
    assert shown == ["5H JK 7H", "9D 9C 9S"]
    assert arrangement.to_dict()["penalty"] == 0


def test_full_run_makes_room_for_spare_wilds() -> None:
    hand = parse_cards("3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK JK")
    arrangement = best_arrangement(hand, 2)
    assert arrangement.penalty == 0
    assert all(meld_kind(meld.cards, 2) == "run" for meld in arrangement.melds)


def test_best_discard_keeps_the_wild_and_throws_the_costliest() -> None:
    card, arrangement = best_discard(parse_cards("4H 5H 6H KS QS JK"), 3)
    # the joker completes KS QS; of the hearts, 6H is the costliest to keep
    assert (str(card), arrangement.penalty) == ("6H", 4 + 5)
    card, arrangement = best_discard(parse_cards("4H 5H 6H 9S 10C"), 3)
    assert (str(card), arrangement.penalty) == ("10C", 9)


def test_best_discard_respects_the_allowed_choices() -> None:
    card, arrangement = best_discard(parse_cards("4H 5H 6H 9S"), 3, parse_cards("4H"))
    assert str(card) == "4H"
    assert arrangement.penalty == 5 + 6 + 9
    with pytest.raises(ValueError, match="no card"):
        best_discard(parse_cards("4H"), 3, ())


def test_two_packs_allow_four_copies() -> None:
    hand = parse_cards("7H 7H 7H 7H 8H 9H")
    assert min_penalty(hand, 3) == 0
