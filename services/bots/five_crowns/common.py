"""Reading a Five Crowns seat view: the hand, the wild rank and the actions by kind."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import Card, parse_card
from engine.five_crowns.deck import card_penalty, is_wild


def hand_of(view: Mapping[str, Any]) -> list[Card]:
    return [parse_card(text) for text in view.get("hand", ())]


def of_type(actions: Sequence[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [action for action in actions if action["type"] == kind]


def draw_from(actions: Sequence[dict[str, Any]], source: str) -> dict[str, Any] | None:
    return next((a for a in of_type(actions, "draw") if a["source"] == source), None)


def discard_of(actions: Sequence[dict[str, Any]], card: Card) -> dict[str, Any] | None:
    """The legal discard of ``card``, if there is one."""
    text = str(card)
    return next((a for a in of_type(actions, "discard") if a["card"] == text), None)


def allowed_discards(actions: Sequence[dict[str, Any]]) -> list[Card]:
    return [parse_card(action["card"]) for action in of_type(actions, "discard")]


def banned_card(view: Mapping[str, Any]) -> Card | None:
    """The card that may not be thrown back if this seat takes the pile's top now."""
    if (view.get("options") or {}).get("discard_taken"):
        return None
    top = view.get("discard_top")
    return parse_card(top) if isinstance(top, str) else None


def out_throw_worth(action: Mapping[str, Any], view: Mapping[str, Any]) -> tuple[bool, int]:
    """How good a card is to throw when going out, higher better. The others may take it
    on their last turn: never a wild if a natural card will do, and a natural left in
    their hands costs them its face (an unused ``9`` more than a ``5``)."""
    card, wild_rank = parse_card(str(action["discard"])), int(view["wild_rank"])
    return not is_wild(card, wild_rank), card_penalty(card, wild_rank)
