"""The incremental solvers (``SwapSolver``, ``penalties_after_discards``) give exactly the
plain solver's answers: each is checked against ``min_penalty`` of the hand spelled out."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, parse_cards
from engine.five_crowns.deck import full_deck
from engine.five_crowns.melds import min_penalty, penalties_after_discards, without_one
from engine.five_crowns.swaps import SwapSolver

TWO_PACKS = full_deck(2)


@st.composite
def hands(draw: st.DrawFn, least: int = 0) -> tuple[list[Card], list[Card], int]:
    """(hand, cards that could be drawn, wild rank), from two packs without repeats."""
    picked = draw(st.permutations(range(len(TWO_PACKS))))
    size = draw(st.integers(least, 14))
    cards = [TWO_PACKS[index] for index in picked[: size + 5]]
    return cards[:size], cards[size:], draw(st.integers(3, 13))


def plain_after_discard(hand: list[Card], wild_rank: int, banned: Card | None) -> int:
    choices = [card for card in dict.fromkeys(hand) if card != banned] or hand
    return min(min_penalty(without_one(hand, card), wild_rank) for card in choices)


@settings(max_examples=300, deadline=None)
@given(hands(least=1))
def test_penalties_after_discards_are_the_plain_solves(example: tuple) -> None:
    hand, _, wild_rank = example
    penalties = penalties_after_discards(hand, wild_rank)
    assert set(penalties) == set(hand)
    for card, penalty in penalties.items():
        assert penalty == min_penalty(without_one(hand, card), wild_rank)


@settings(max_examples=300, deadline=None)
@given(hands(), st.data())
def test_swap_solver_is_the_plain_solver(example: tuple, data: st.DataObject) -> None:
    hand, drawable, wild_rank = example
    solver = SwapSolver(hand, wild_rank)
    assert solver.keep == min_penalty(hand, wild_rank)
    if hand:
        banned = data.draw(st.sampled_from([None, *hand]))
        assert solver.after_discard(banned) == plain_after_discard(hand, wild_rank, banned)
    for card in drawable:
        drawn = [*hand, card]
        assert solver.whole_after(card) == min_penalty(drawn, wild_rank)
        banned = data.draw(st.sampled_from([None, card, *hand]))
        exact = plain_after_discard(drawn, wild_rank, banned)
        assert solver.after_swap(card, banned) == exact
        bound = data.draw(st.integers(0, 80))
        assert solver.after_swap(card, banned, bound) == min(exact, bound)
        if not solver.may_meld(card):  # "cannot meld" must be true: it stays over
            assert min_penalty(drawn, wild_rank) == solver.keep + card.rank


def test_a_drawn_card_that_bridges_two_groups() -> None:
    # 5H 6H and 8H 9H are apart without wilds; a 7H joins them into one run.
    hand = parse_cards("5H 6H 8H 9H KS")
    solver = SwapSolver(hand, 3)
    assert solver.after_swap(parse_cards("7H")[0]) == 0
    assert solver.after_swap(parse_cards("7H")[0], banned=parse_cards("KS")[0]) == 13


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.lists(st.integers(0, 60), min_size=1, max_size=8).map(tuple), min_size=0, max_size=6
    ),
    st.integers(0, 7),
)
def test_the_fast_wild_sharing_is_the_full_knapsack(vectors: list, wilds: int) -> None:
    from engine.five_crowns.melds import _most_melded, _share_wilds

    vectors = [vector[: wilds + 1] for vector in vectors]
    assert _most_melded(vectors, wilds) == _share_wilds(vectors, wilds)[0]


@settings(max_examples=300, deadline=None)
@given(hands(), st.integers(3, 13))
def test_a_card_alone_in_its_suit_is_worth_the_same_in_every_such_suit(
    example: tuple, rank: int
) -> None:
    from engine.five_crowns.deck import SUITS, is_wild

    hand, _, wild_rank = example
    solver = SwapSolver(hand, wild_rank)
    alone = [Card(rank, suit) for suit in SUITS if solver.suit_alone(Card(rank, suit))]
    if is_wild(Card(rank, SUITS[0]), wild_rank) or len(alone) < 2:
        return
    values = {plain_after_discard([*hand, card], wild_rank, None) for card in alone}
    assert len(values) == 1
    assert {solver.after_swap(card) for card in alone} == values


@settings(max_examples=300, deadline=None)
@given(hands(least=1), st.data())
def test_the_pruned_best_discard_and_ways_out_are_the_plain_ones(
    example: tuple, data: st.DataObject
) -> None:
    from engine.five_crowns.deck import card_penalty, hand_order, is_wild

    hand, _, wild_rank = example
    choices = data.draw(st.lists(st.sampled_from(hand), min_size=1, unique=True))
    solver = SwapSolver(hand, wild_rank)

    def rank(card: Card) -> tuple:
        penalty = min_penalty(without_one(hand, card), wild_rank)
        return (penalty, is_wild(card, wild_rank), -card_penalty(card, wild_rank), hand_order(card))

    plain = min(choices, key=rank)
    assert solver.best_discard(choices) == (plain, rank(plain)[0])
    plain_out = [c for c in dict.fromkeys(hand) if not min_penalty(without_one(hand, c), wild_rank)]
    assert solver.ways_out() == plain_out


def _check_solver(solver: SwapSolver, hand: list[Card], others: list[Card], wild_rank: int) -> None:
    """Every answer of ``solver`` is the plain solver's for ``hand``."""
    from engine.five_crowns.deck import is_wild

    assert solver.keep == min_penalty(hand, wild_rank)
    if hand:
        assert solver.after_discard() == plain_after_discard(hand, wild_rank, None)
        assert solver.after_discard(hand[-1]) == plain_after_discard(hand, wild_rank, hand[-1])
        plain_out = [
            c for c in dict.fromkeys(hand) if not min_penalty(without_one(hand, c), wild_rank)
        ]
        assert solver.ways_out() == plain_out
        for card in dict.fromkeys(hand):
            assert solver.penalty_less(card) == min_penalty(without_one(hand, card), wild_rank)
    for card in others:
        assert solver.after_swap(card) == plain_after_discard([*hand, card], wild_rank, None)
        if hand and not is_wild(card, wild_rank) and solver.apart(card):
            # Apart from the hand: left over, or melded with two wilds (one answer for all).
            apart = solver.after_swap_apart()
            ceiling = min(solver.keep, solver.after_discard() + card.rank)
            exact = plain_after_discard([*hand, card], wild_rank, None)
            assert (ceiling if apart is None else min(ceiling, apart)) == exact


@settings(max_examples=200, deadline=None)
@given(hands(least=1), st.data())
def test_a_solver_grown_or_shrunk_by_one_natural_is_the_plain_solver(
    example: tuple, data: st.DataObject
) -> None:
    from engine.five_crowns.deck import is_wild

    hand, drawable, wild_rank = example
    solver = SwapSolver(hand, wild_rank)
    naturals_drawable = [card for card in drawable if not is_wild(card, wild_rank)]
    if naturals_drawable:
        card = data.draw(st.sampled_from(naturals_drawable))
        if data.draw(st.booleans()):
            solver.after_swap(card)  # the merge cached first, as a draw choice leaves it
        grown = [*hand, card]
        _check_solver(solver.plus(grown, card), grown, drawable, wild_rank)
    naturals_held = [card for card in hand if not is_wild(card, wild_rank)]
    if naturals_held:
        card = data.draw(st.sampled_from(naturals_held))
        shrunk = without_one(hand, card)
        _check_solver(solver.minus(shrunk, card), shrunk, drawable, wild_rank)


@settings(max_examples=100, deadline=None)
@given(hands(least=1), st.data())
def test_the_shared_solvers_follow_a_turn_from_the_hand_before(
    example: tuple, data: st.DataObject
) -> None:
    """Draw a card, throw one: each hand's shared solver comes from the one before (a
    natural more or less) and answers as the plain solver does."""
    from engine.five_crowns import swaps
    from engine.five_crowns.deck import is_wild

    hand, drawable, wild_rank = example
    swaps._solvers.clear()
    swaps._recent.clear()
    swaps.solver_for(hand, wild_rank)
    drawn = [*hand, drawable[0]]
    thrown = without_one(drawn, data.draw(st.sampled_from(drawn)))
    for cards in (drawn, thrown):
        code = sum(swaps._code(card) for card in cards)
        derived = swaps._from_recent(tuple(cards), wild_rank, code)
        changed = {card for card in (*drawn, *hand) if drawn.count(card) != cards.count(card)}
        if derived is not None:
            assert not any(is_wild(card, wild_rank) for card in changed)
            _check_solver(derived, cards, drawable[1:], wild_rank)
        _check_solver(swaps.solver_for(cards, wild_rank), cards, drawable[1:], wild_rank)
