"""Reading a Five Crowns seat view: the hand, the wild rank and the actions by kind."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import Card, parse_card


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
