"""The Five Crowns bots' hand values against the plain definition: every card a stock
draw may bring, every discard after it, each hand solved by ``min_penalty`` alone."""

from __future__ import annotations

import itertools
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card
from engine.five_crowns.deck import full_deck, is_wild
from engine.five_crowns.melds import min_penalty, without_one
from services.bots.five_crowns.values import (
    DrawPricer,
    after_taking,
    expected_after_draw,
    expected_lowest_of_draws,
    stock_at_least_as_good,
    stock_rather_than,
)

DECK = full_deck()


@st.composite
def positions(draw: st.DrawFn) -> tuple[list[Card], Counter[Card], int]:
    """(hand, the unseen cards a draw may bring, wild rank)."""
    picked = draw(st.permutations(range(len(DECK))))
    size = draw(st.integers(1, 11))
    unseen = draw(st.integers(1, 30))
    cards = [DECK[index] for index in picked[: size + unseen]]
    return cards[:size], Counter(cards[size:]), draw(st.integers(3, 13))


def plain_after(hand: list[Card], card: Card, wild_rank: int, banned: Card | None = None) -> int:
    drawn = [*hand, card]
    choices = [other for other in dict.fromkeys(drawn) if other != banned] or drawn
    return min(min_penalty(without_one(drawn, other), wild_rank) for other in choices)


def plain_expected(hand: list[Card], unseen: Counter[Card], wild_rank: int) -> float:
    cards = list(unseen.elements())
    return sum(plain_after(hand, card, wild_rank) for card in cards) / len(cards)


@settings(max_examples=150, deadline=None)
@given(positions())
def test_the_expected_penalty_after_a_stock_draw_is_the_plain_average(position: tuple) -> None:
    hand, unseen, wild_rank = position
    assert (
        abs(expected_after_draw(hand, wild_rank, unseen) - plain_expected(hand, unseen, wild_rank))
        < 1e-9
    )


@settings(max_examples=60, deadline=None)
@given(positions(), st.integers(1, 4))
def test_the_lowest_of_several_draws_is_the_plain_average_over_every_set_drawn(
    position: tuple, draws: int
) -> None:
    """Every set of ``draws`` cards (each copy its own card), the lowest penalty any one of
    them leaves, averaged: what ``hard`` judges a kept hand by."""
    hand, unseen, wild_rank = position
    unseen = Counter(dict(list(unseen.items())[:12]))  # the plain way is combinatorial
    cards = list(unseen.elements())
    after = [plain_after(hand, card, wild_rank) for card in cards]
    sets = list(itertools.combinations(range(len(cards)), min(draws, len(cards))))
    plain = sum(min(after[index] for index in chosen) for chosen in sets) / len(sets)
    assert abs(expected_lowest_of_draws(hand, wild_rank, unseen, draws) - plain) < 1e-9
    if draws == 1:
        assert abs(plain - expected_after_draw(hand, wild_rank, unseen)) < 1e-9


@settings(max_examples=150, deadline=None)
@given(positions(), st.data())
def test_the_draw_choice_compares_the_exact_expectation(
    position: tuple, data: st.DataObject
) -> None:
    hand, unseen, wild_rank = position
    top = data.draw(st.sampled_from(sorted(unseen)))
    banned = data.draw(st.sampled_from([None, top]))
    taking = after_taking(hand, wild_rank, top, banned)
    assert taking == plain_after(hand, top, wild_rank, banned)
    total = sum(plain_after(hand, card, wild_rank) for card in unseen.elements())
    at_least_as_good = total <= taking * sum(unseen.values())
    assert stock_at_least_as_good(hand, wild_rank, unseen, taking) == at_least_as_good


@settings(max_examples=150, deadline=None)
@given(positions(), st.data())
def test_the_draw_choice_against_the_pile_top_is_the_plain_comparison(
    position: tuple, data: st.DataObject
) -> None:
    hand, unseen, wild_rank = position
    top = data.draw(st.sampled_from(sorted(unseen)))
    banned = data.draw(st.sampled_from([None, top]))
    taking = plain_after(hand, top, wild_rank, banned)
    total = sum(plain_after(hand, card, wild_rank) for card in unseen.elements())
    expected = total <= taking * sum(unseen.values())
    assert stock_rather_than(hand, wild_rank, unseen, top, banned) == expected


@settings(max_examples=150, deadline=None)
@given(positions())
def test_each_drawn_cards_bounds_hold_its_plain_value(position: tuple) -> None:
    hand, unseen, wild_rank = position
    pricer = DrawPricer(hand, wild_rank)
    for card in unseen:
        value = plain_after(hand, card, wild_rank)
        assert pricer.floor(card) <= value <= pricer.ceiling(card)
        if not is_wild(card, wild_rank):
            assert pricer.solved_floor(card) <= value


@settings(max_examples=150, deadline=None)
@given(positions())
def test_each_kind_of_drawn_card_is_one_plain_value(position: tuple) -> None:
    """A settled kind is its card's exact value; the cards of one kind share a value (the
    draw pricing solves one card per kind)."""
    hand, unseen, wild_rank = position
    pricer = DrawPricer(hand, wild_rank)
    by_key: dict[object, set[int]] = {}
    for card in unseen:
        value = plain_after(hand, card, wild_rank)
        ceiling, settled, key = pricer.kind(card)
        if settled:
            assert ceiling == value
        else:
            assert value <= ceiling
        by_key.setdefault(key, set()).add(value)
    assert all(len(values) == 1 for values in by_key.values())


@settings(max_examples=100, deadline=None)
@given(positions(), positions(), st.integers(0, 60))
def test_a_shared_pricer_answers_every_draw_of_its_hand_alike(
    position: tuple, other: tuple, taking: int
) -> None:
    """One pricer per hand serves every decision about it: what it kept from one set of
    unseen cards must not leak into the answer for another."""
    from services.bots.five_crowns.values import pricer_for

    hand, unseen, wild_rank = position
    _, other_unseen, _ = other
    pricer = pricer_for(hand, wild_rank)
    assert pricer_for(list(hand), wild_rank) is pricer
    for cards in (unseen, other_unseen, unseen):
        total = sum(plain_after(hand, card, wild_rank) for card in cards.elements())
        assert pricer.at_most(cards, taking) == (total <= taking * sum(cards.values()))
