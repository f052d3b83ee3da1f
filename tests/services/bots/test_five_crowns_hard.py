"""Five Crowns ``hard``: how it judges a discard."""

from __future__ import annotations

from typing import Any

from engine.cards import Card
from services.bots.five_crowns import hard
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
