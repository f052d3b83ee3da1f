"""An engine state the seat could be in: its view, with the hidden cards (the others'
hands and the stock) dealt at random from the cards it cannot see."""

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


def sample_state(view: Mapping[str, Any], chooser: random.Random) -> State:
    """One consistent guess at the whole position (the engine checks it)."""
    seat = int(view["seat"])
    hidden = unseen_cards(view)
    chooser.shuffle(hidden)
    counts = list(view["hand_counts"])
    hands: list[list[str]] = []
    taken = 0
    for other, count in enumerate(counts):
        if other == seat:
            hands.append(list(view["hand"]))
        else:
            hands.append(hidden[taken : taken + count])
            taken += count
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
        "stock": hidden[taken : taken + int(view["stock_count"])],
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
