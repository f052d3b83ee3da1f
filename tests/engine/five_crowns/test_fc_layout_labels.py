"""Each laid-out meld is labelled as what it shows: wilds only, a book, or a run in order."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import JOKER, Card, parse_cards
from engine.five_crowns.deck import RANKS, SUITS, is_wild
from engine.five_crowns.layout import Meld
from engine.five_crowns.melds import best_arrangement


def assert_labelled_right(meld: Meld, wild_rank: int) -> None:
    naturals = [card for card in meld.cards if not is_wild(card, wild_rank)]
    if meld.kind == "wilds":
        assert not naturals, meld
        return
    assert naturals, f"a meld of wilds only is labelled {meld.kind}: {meld}"
    if meld.kind == "book":
        assert len({card.rank for card in naturals}) == 1, meld
        return
    assert meld.kind == "run", meld
    assert len({card.suit for card in naturals}) == 1, meld
    # A run lies in rank order, wilds in place: position i holds rank low + i.
    first = next(index for index, card in enumerate(meld.cards) if card in naturals)
    low = meld.cards[first].rank - first
    assert low >= RANKS[0] and low + len(meld.cards) - 1 <= RANKS[-1], meld
    for index, card in enumerate(meld.cards):
        if not is_wild(card, wild_rank):
            assert card.rank == low + index, meld


def test_nine_wilds_around_a_long_run_make_a_meld_of_wilds() -> None:
    # Two clubs and ten wilds (Jacks wild): the run 6-K of clubs, padded down to 3, gives
    # its 3 and 4 (both wilds) to a new meld with the spare wilds: wilds, not a run.
    hand = parse_cards("6C 10C JK JK JK JK JK JK JH JH JH JH JH")
    arrangement = best_arrangement(hand, 11)
    kinds = sorted(meld.kind for meld in arrangement.melds)
    assert kinds == ["run", "wilds"]
    for meld in arrangement.melds:
        assert_labelled_right(meld, 11)


@st.composite
def wild_heavy_hands(draw: st.DrawFn) -> tuple[list[Card], int]:
    """A few naturals of one suit (a run's worth) and many wilds: up to 13 cards."""
    wild_rank = draw(st.sampled_from(RANKS))
    suit = draw(st.sampled_from(SUITS))
    ranks = [rank for rank in RANKS if rank != wild_rank]
    naturals = draw(st.lists(st.sampled_from(ranks), min_size=0, max_size=5, unique=True))
    jokers = draw(st.integers(0, 6))
    rank_wilds = draw(st.integers(0, 10))
    total = len(naturals) + jokers + rank_wilds
    if total > 13:
        rank_wilds = max(0, rank_wilds - (total - 13))
    wild_suits = [SUITS[index % len(SUITS)] for index in range(rank_wilds)]
    hand = [Card(rank, suit) for rank in naturals]
    hand += [JOKER] * jokers + [Card(wild_rank, other) for other in wild_suits]
    return hand, wild_rank


@settings(max_examples=400, deadline=None)
@given(wild_heavy_hands())
def test_every_meld_is_labelled_as_what_it_shows(case: tuple[list[Card], int]) -> None:
    hand, wild_rank = case
    for meld in best_arrangement(hand, wild_rank).melds:
        assert_labelled_right(meld, wild_rank)
