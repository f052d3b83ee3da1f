"""An engine state the seat could be in: its view, with the hidden cards (the others'
hands and the stock) dealt at random from the cards it cannot see.

What the others' play has shown can weigh the deal: ``weights[seat]`` lowers the odds
of the cards that seat probably does not hold (``reading``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.cards import standard_deck
from engine.kings_corner import State, state_from_dict


def unseen_cards(view: Mapping[str, Any]) -> list[str]:
    """The cards neither in this seat's hand nor face up on the piles."""
    visible = set(view.get("hand", ()))
    for pile in (view.get("piles") or {}).values():
        visible.update(pile)
    return [str(card) for card in standard_deck() if str(card) not in visible]


def deal_hidden(
    hidden: list[str],
    counts: list[int],
    seat: int,
    chooser: random.Random,
    weights: Mapping[int, Mapping[str, float]] | None = None,
) -> tuple[list[list[str]], list[str]]:
    """The others' hands (``seat``'s left empty) and the rest, shuffled, as the stock.

    ``weights[other]`` gives some cards a weight below 1 (less likely in that hand); the
    hand is then drawn by weight without replacement (keys ``u ** (1 / w)``).
    """
    left = list(hidden)
    chooser.shuffle(left)
    hands: list[list[str]] = [[] for _ in counts]
    for other, count in enumerate(counts):
        if other == seat or not count:
            continue
        weighed = weights.get(other) if weights else None
        if weighed:
            draw = chooser.random
            left.sort(key=lambda card: draw() ** (1 / weighed.get(card, 1.0)), reverse=True)
        hands[other], left = left[:count], left[count:]
    chooser.shuffle(left)
    return hands, left


def sample_state(
    view: Mapping[str, Any],
    chooser: random.Random,
    weights: Mapping[int, Mapping[str, float]] | None = None,
) -> State:
    """One consistent guess at the whole position (the engine checks it)."""
    seat = int(view["seat"])
    counts = list(view["hand_counts"])
    hands, rest = deal_hidden(unseen_cards(view), counts, seat, chooser, weights)
    hands[seat] = list(view["hand"])
    phase = view["phase"] if view.get("current_seat") is not None else "over"
    data = {
        "game": "kings-corner",
        "version": 1,
        "seats": len(counts),
        "seed": 0,  # the seed only deals later rounds: a search never gets there
        "options": view["options"],
        "dealer_draws": [
            [[draw["seat"], draw["card"]] for draw in drawn] for drawn in view["dealer_draws"]
        ],
        "round": view["round"],
        "dealer": view["dealer"],
        "scores": view["scores"],
        "history": view["score_sheet"],
        "stock": rest[: int(view["stock_count"])],
        "piles": view["piles"],
        "hands": hands,
        "current_seat": view["current_seat"],
        "phase": phase,
        # Whether the seat already acted this turn is not shown; it only counts idle turns.
        "acted": bool(view.get("extra_turn_due")),
        "kinged": bool(view.get("extra_turn_due")),
        "idle_turns": view["idle_turns"],
    }
    return state_from_dict(data)
