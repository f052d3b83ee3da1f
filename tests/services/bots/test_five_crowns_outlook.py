"""Five Crowns ``hard``'s outlook of a hand, against its own definition."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card
from engine.five_crowns.deck import full_deck
from services.bots.five_crowns.outlook import Outlook
from services.bots.five_crowns.values import discard_ranking, expected_lowest_of_draws

DECK = full_deck()
Position = tuple[list[Card], Counter[Card], int]


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """(hand before its discard, the unseen cards, wild rank)."""
    picked = draw(st.permutations(range(len(DECK))))
    size = draw(st.integers(2, 9))
    unseen = draw(st.integers(1, 25))
    cards = [DECK[index] for index in picked[: size + unseen]]
    return cards[:size], Counter(cards[size:]), draw(st.integers(3, 13))


@settings(max_examples=80, deadline=None)
@given(positions(), st.integers(1, 4))
def test_the_best_discard_keeps_the_best_outlook_of_the_solvers_first_choices(
    position: Position, candidates: int
) -> None:
    taken, unseen, wild_rank = position
    outlook = Outlook(wild_rank, unseen, 3)
    value, card = outlook.best_discard(taken, taken, candidates)
    ranked = discard_ranking(taken, wild_rank, taken)
    if ranked[0][0] == 0:  # goes out
        assert (value, card) == (0.0, ranked[0][1])
        return
    looked_at = [thrown for _, thrown in ranked[:candidates]]
    assert card in looked_at

    def kept_without(thrown: Card) -> float:
        kept = list(taken)
        kept.remove(thrown)
        return expected_lowest_of_draws(kept, wild_rank, unseen, 3)

    assert value == kept_without(card) == min(kept_without(thrown) for thrown in looked_at)


@settings(max_examples=60, deadline=None)
@given(positions())
def test_the_stock_is_never_judged_worse_than_throwing_its_card_back(position: Position) -> None:
    """Whatever card comes, throwing it back keeps the hand's own outlook; looking at more
    discards for each card can only find better ones."""
    cards, unseen, wild_rank = position
    hand = cards[:-1]
    outlook = Outlook(wild_rank, unseen, 3)
    by_candidates = [outlook.after_stock(hand, candidates) for candidates in (1, 2, 4)]
    assert 0 <= by_candidates[2] <= by_candidates[1] <= by_candidates[0] <= outlook.of(hand) + 1e-9
