"""Five Crowns ``hard``: how it judges a discard and a draw."""

from __future__ import annotations

from typing import Any

from engine.cards import Card
from services.bots.five_crowns import hard, normal
from services.bots.five_crowns.values import expected_after_draw

# Round 1 (threes wild): three cards dealt, four held before the discard.
HAND = [Card(11, "T"), Card(8, "H"), Card(3, "S"), Card(7, "D")]
# Round 2 (fours wild): a pair of kings, and a six and a five of different suits.
PAIRED = [Card(13, "C"), Card(6, "H"), Card(13, "T"), Card(5, "S"), Card(3, "C")]


def discard_view(hand: list[Card], wild_rank: int, **changes: Any) -> dict[str, Any]:
    return {
        "seat": 0,
        "players": [0, 1],
        "hand": [str(card) for card in hand],
        "wild_rank": wild_rank,
        "cards_dealt": wild_rank,
        "went_out": None,
        "options": {},
        **changes,
    }


def discards(hand: list[Card]) -> list[dict[str, Any]]:
    return [{"type": "discard", "card": str(card)} for card in hand]


def test_keeps_the_wild_though_throwing_it_leaves_the_least_now() -> None:
    """Throwing the wild three leaves the least now (26 against 35), but with it kept the
    next draws meld far more often: the wild stays."""
    view = discard_view(HAND, 3)
    assert hard.Player(1).discard(view, discards(HAND))["card"] != str(Card(3, "S"))


def test_keeps_the_hand_with_more_outs_where_one_draw_would_not() -> None:
    """Over one draw, throwing a king leaves the least on average; but the pair of kings
    melds with any king, four or joker among the next draws: ``hard`` keeps them and
    throws the six."""
    view = discard_view(PAIRED, 4)
    player = hard.Player(1)
    unseen = player.memory.unseen(view)

    def one_draw(thrown: Card) -> float:
        kept = list(PAIRED)
        kept.remove(thrown)
        return expected_after_draw(kept, 4, unseen)

    assert min(PAIRED, key=one_draw) == Card(13, "C")  # the one-draw horizon's choice
    assert player.discard(view, discards(PAIRED))["card"] == str(Card(6, "H"))


def test_on_the_last_turn_only_the_penalty_now_counts() -> None:
    """Someone went out: no draw comes after this one, so the card leaving the least
    now goes, a wild included."""
    view = discard_view(HAND, 3, went_out=1)
    assert hard.Player(1).discard(view, discards(HAND))["card"] == str(Card(3, "S"))


DRAWS = [{"type": "draw", "source": "stock"}, {"type": "draw", "source": "discard"}]


def draw_source(
    player: normal.Player, hand: list[Card], wild_rank: int, top: Card, **changes: Any
) -> str:
    view = discard_view(hand, wild_rank, discard_top=str(top), discard_count=1, **changes)
    player.observe(view)
    return str(player.choose({**view, "legal_actions": DRAWS})["source"])


def test_takes_a_wild_from_the_pile_for_its_outs_where_one_draw_would_not() -> None:
    """Round 1, threes wild. Taking the three of diamonds adds 20 now (no two naturals
    meld with it yet), so the one-draw horizon draws from the stock; but with it kept,
    any queen, ten or seven drawn, and most cards near them, makes a meld: ``hard``
    takes it."""
    hand = [Card(12, "C"), Card(10, "S"), Card(7, "H")]
    assert draw_source(normal.Player(1), hand, 3, Card(3, "D")) == "stock"
    assert draw_source(hard.Player(1), hand, 3, Card(3, "D")) == "discard"


def test_leaves_a_lower_card_on_the_pile_when_it_makes_no_outs() -> None:
    """Round 2, fours wild. The eight of hearts in place of the queen lowers the penalty
    by four now, which the one-draw horizon takes; it melds with nothing, and a stock card
    may: ``hard`` draws from the stock."""
    hand = [Card(9, "D"), Card(3, "S"), Card(7, "S"), Card(12, "D")]
    assert draw_source(normal.Player(1), hand, 4, Card(8, "H")) == "discard"
    assert draw_source(hard.Player(1), hand, 4, Card(8, "H")) == "stock"


def test_on_the_last_turn_it_draws_for_the_penalty_after_it() -> None:
    """Someone went out: no draw comes after this one, so the wild is not taken."""
    hand = [Card(12, "C"), Card(10, "S"), Card(7, "H")]
    assert draw_source(hard.Player(1), hand, 3, Card(3, "D"), went_out=1) == "stock"
