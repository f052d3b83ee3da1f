"""The four actions of Kings in the Corner, their wire forms and the one parser.

Every possible action exists once, made at import: ``ACTIONS[op]`` for an operation
number ``op``, which the shared instance carries as ``op`` (equality ignores it). The
parser returns those same objects, so finding an action in the legal list is an identity
test in C.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card, CardSyntaxError, parse_card
from engine.errors import ActionSyntaxError
from engine.kings_corner.tables import CARD_NUMBER, CARDS, PILE_INDEX, PILES


@dataclass(frozen=True, slots=True)
class Play:
    """Put ``card`` from the hand on ``pile`` (also: fill an empty spot, open a corner)."""

    card: Card
    pile: str
    op: int = field(default=-1, compare=False, repr=False)  # set on the shared instances

    def to_wire(self) -> dict[str, Any]:
        return {"type": "play", "card": str(self.card), "pile": self.pile}


@dataclass(frozen=True, slots=True)
class Move:
    """Move the whole pile at ``source`` onto ``target`` (or into an empty corner)."""

    source: str
    target: str
    op: int = field(default=-1, compare=False, repr=False)  # set on the shared instances

    def to_wire(self) -> dict[str, Any]:
        return {"type": "move", "from": self.source, "to": self.target}


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the top card of the stock."""

    op: int = field(default=480, compare=False, repr=False)  # OP_DRAW

    def to_wire(self) -> dict[str, Any]:
        return {"type": "draw"}


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the turn; play passes clockwise."""

    op: int = field(default=481, compare=False, repr=False)  # OP_END_TURN

    def to_wire(self) -> dict[str, Any]:
        return {"type": "end_turn"}


Action = Play | Move | Draw | EndTurn

# Operation numbers: play = card * 8 + pile; move = MOVE_BASE + source * 8 + target.
MOVE_BASE = 416
OP_DRAW = 480
OP_END_TURN = 481

DRAW = Draw()
END_TURN = EndTurn()


def _build_actions() -> tuple[Action, ...]:
    table: list[Action] = [Play(CARDS[op >> 3], PILES[op & 7], op) for op in range(MOVE_BASE)]
    table += [Move(PILES[op >> 3], PILES[op & 7], MOVE_BASE + op) for op in range(64)]
    table += [DRAW, END_TURN]
    return tuple(table)


ACTIONS: tuple[Action, ...] = _build_actions()
_WIRE_KEYS = {
    "play": frozenset({"type", "card", "pile"}),
    "move": frozenset({"type", "from", "to"}),
    "draw": frozenset({"type"}),
    "end_turn": frozenset({"type"}),
}


def _pile(wire: Mapping[str, Any], key: str) -> int:
    name = wire.get(key)
    index = PILE_INDEX.get(name) if isinstance(name, str) else None
    if index is None:
        raise ActionSyntaxError("bad_pile", pile=name if isinstance(name, str) else repr(name))
    return index


def parse_action(wire: Mapping[str, Any]) -> Action:
    """Read an action's wire form; raise ``ActionSyntaxError`` (bad_action, bad_card, bad_pile)."""
    if not isinstance(wire, Mapping):
        raise ActionSyntaxError("bad_action", reason="not_an_object")
    kind = wire.get("type")
    keys = _WIRE_KEYS.get(kind) if isinstance(kind, str) else None
    if keys is None:
        raise ActionSyntaxError("bad_action", type=repr(kind) if kind is not None else None)
    if set(wire) != keys:
        fields = sorted(str(key) for key in set(wire) ^ keys)
        raise ActionSyntaxError("bad_action", type=kind, fields=fields)
    if kind == "draw":
        return DRAW
    if kind == "end_turn":
        return END_TURN
    if kind == "move":
        return ACTIONS[MOVE_BASE + _pile(wire, "from") * 8 + _pile(wire, "to")]
    text = wire["card"]
    try:
        card = parse_card(text) if isinstance(text, str) else None
    except CardSyntaxError:
        card = None
    number = CARD_NUMBER.get(card) if card is not None else None
    if number is None:
        raise ActionSyntaxError("bad_card", card=text if isinstance(text, str) else repr(text))
    return ACTIONS[number * 8 + _pile(wire, "pile")]


def op_of(action: object) -> int | None:
    """The operation number of any action value, or None if it names no real action."""
    if isinstance(action, Play):
        number = CARD_NUMBER.get(action.card) if isinstance(action.card, Card) else None
        pile = PILE_INDEX.get(action.pile) if isinstance(action.pile, str) else None
        return None if number is None or pile is None else number * 8 + pile
    if isinstance(action, Move):
        source = PILE_INDEX.get(action.source) if isinstance(action.source, str) else None
        target = PILE_INDEX.get(action.target) if isinstance(action.target, str) else None
        return None if source is None or target is None else MOVE_BASE + source * 8 + target
    if isinstance(action, Draw):
        return OP_DRAW
    if isinstance(action, EndTurn):
        return OP_END_TURN
    return None
