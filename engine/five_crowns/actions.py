"""Five Crowns actions: small values with one wire form each, and their single parser."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from engine.cards import Card, CardSyntaxError, parse_card
from engine.errors import ActionSyntaxError
from engine.five_crowns.deck import card_text, full_deck, is_five_crowns_card

Source = Literal["stock", "discard"]
STOCK: Literal["stock"] = "stock"
DISCARD_PILE: Literal["discard"] = "discard"


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the top card of the stock or of the discard pile."""

    source: Source

    def to_wire(self) -> dict[str, Any]:
        return {"type": "draw", "source": self.source}


@dataclass(frozen=True, slots=True)
class Discard:
    """End the turn by throwing ``card`` onto the discard pile."""

    card: Card

    def to_wire(self) -> dict[str, Any]:
        return {"type": "discard", "card": card_text(self.card)}


@dataclass(frozen=True, slots=True)
class GoOut:
    """Lay the whole hand down in melds and end the turn by discarding ``discard``."""

    discard: Card

    def to_wire(self) -> dict[str, Any]:
        return {"type": "go_out", "discard": card_text(self.discard)}


Action = Draw | Discard | GoOut

# Every card's actions, made once: the legal actions list them after every move.
DISCARDS: Mapping[Card, Discard] = {card: Discard(card) for card in full_deck()}
GOING_OUT: Mapping[Card, GoOut] = {card: GoOut(card) for card in full_deck()}

_FIELDS: Mapping[str, frozenset[str]] = {
    "draw": frozenset({"type", "source"}),
    "discard": frozenset({"type", "card"}),
    "go_out": frozenset({"type", "discard"}),
}


def _card(text: Any) -> Card:
    if not isinstance(text, str):
        raise ActionSyntaxError("bad_card", card=repr(text))
    try:
        card = parse_card(text)
    except CardSyntaxError as error:
        raise ActionSyntaxError("bad_card", card=text) from error
    if not is_five_crowns_card(card):
        raise ActionSyntaxError("bad_card", card=text)
    return card


def parse_action(wire: Mapping[str, Any]) -> Action:
    """Read an action's wire form; ``ActionSyntaxError`` (code ``bad_action``/``bad_card``)."""
    if not isinstance(wire, Mapping):
        raise ActionSyntaxError("bad_action", reason="not_an_object")
    kind = wire.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise ActionSyntaxError("bad_action", reason="unknown_type", type=repr(kind))
    if set(wire) != _FIELDS[kind]:
        expected = sorted(_FIELDS[kind])
        raise ActionSyntaxError("bad_action", reason="fields", type=kind, expected=expected)
    if kind == "draw":
        source = wire["source"]
        if source == STOCK:
            return Draw(STOCK)
        if source == DISCARD_PILE:
            return Draw(DISCARD_PILE)
        raise ActionSyntaxError("bad_action", reason="source", source=repr(source))
    if kind == "discard":
        return Discard(_card(wire["card"]))
    return GoOut(_card(wire["discard"]))


def as_action(action: Action | Mapping[str, Any]) -> Action:
    """An action object as is; a wire form parsed."""
    if isinstance(action, Draw | Discard | GoOut):
        return action
    return parse_action(action)
