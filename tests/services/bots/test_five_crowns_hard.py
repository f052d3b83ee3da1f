"""Five Crowns ``hard``: how it judges a discard."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.cards import Card
from services.bots.five_crowns import hard

# Round 1 (threes wild): three cards dealt, four held before the discard.
HAND = [Card(11, "T"), Card(8, "H"), Card(3, "S"), Card(7, "D")]


def discard_view() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    view = {
        "seat": 0,
        "players": [0, 1],
        "hand": [str(card) for card in HAND],
        "wild_rank": 3,
        "cards_dealt": 3,
        "went_out": None,
        "options": {},
    }
    return view, [{"type": "discard", "card": str(card)} for card in HAND]


def always(chance: float) -> Callable[..., Callable[[Card], float]]:
    return lambda *_: lambda _card: chance


@pytest.mark.parametrize("chance", [0.0, 0.5, 1.0])
def test_keeps_the_wild_for_its_last_turn_even_when_the_round_surely_ends(
    monkeypatch: pytest.MonkeyPatch, chance: float
) -> None:
    """Throwing the wild three leaves the least now (26 against 35), but the round ending
    before this seat plays again still leaves it one last draw: with the wild kept that
    draw melds far more often, so the wild stays whatever the chance the round ends."""
    monkeypatch.setattr(hard.Player, "_round_end_risk", always(chance))
    view, actions = discard_view()
    assert hard.Player(1).discard(view, actions)["card"] != str(Card(3, "S"))


def test_a_discard_that_lets_the_round_end_costs_more(monkeypatch: pytest.MonkeyPatch) -> None:
    """The jack is the best throw (14.3 expected after the next draw, the eight 14.75),
    but if the next seat surely goes out with it, this seat has no draws beyond its
    last turn: the eight goes instead."""
    jack = Card(11, "T")
    monkeypatch.setattr(
        hard.Player,
        "_round_end_risk",
        lambda *_: lambda card: 1.0 if card == jack else 0.0,
    )
    view, actions = discard_view()
    assert hard.Player(1).discard(view, actions)["card"] == str(Card(8, "H"))
    monkeypatch.setattr(hard.Player, "_round_end_risk", always(0.0))
    assert hard.Player(1).discard(view, actions)["card"] == str(jack)
