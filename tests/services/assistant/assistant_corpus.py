"""The assistant's corpus: lines as people say them at the table, on real engine positions.

Each ``assistant_corpus_<lang>.txt`` line is ``position | class | expected | text``.
Positions are engine notations (``POSITIONS``), seen from seat 0, Ana's, at a table of
Ana, Ben and Zoé. ``expected`` is the action sent (``play 7S W``, ``move E N``, ``draw``,
``draw stock``, ``draw discard``, ``discard QS``, ``go_out KS``, ``end_turn``), or
``answer CODE`` / ``ask CODE`` (a question back: "which one?") / ``refuse CODE`` with the
parameters that must match (``seat=1``).
Run through ``services.assistant.respond``: what the service itself would send.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engine.registry import game_rules
from services.assistant.respond import respond

HERE = Path(__file__).resolve().parent
LANGUAGES = ("en", "fr", "pt", "nl")
NAMES = {0: "Ana", 1: "Ben", 2: "Zoé"}
_KINGS = "8C/7H/4H/8D/-/-/KS,QD,JC,10H/- 9C,6S,6C,9D,8H,AS,2S,4S,7S,KH/2C,3C,5C,2D/3D,5D,6D,7D,JD *"
POSITIONS: dict[str, tuple[str, str]] = {
    # Ana plays: sixes both fit east, the king three corners, east moves onto north.
    "K1": ("kings-corner", f"{_KINGS} 0 play"),
    # Ana must draw first.
    "K2": ("kings-corner", _KINGS.replace(",7S,KH/", ",7S/") + " 0 draw"),
    # Ben's turn: Ana only asks.
    "K3": ("kings-corner", f"{_KINGS} 1 play"),
    # North is empty: any card fills it, so most cards fit two piles.
    "K4": ("kings-corner", "-/7H/4H/9D/KC/-/KS,QD/- 5S,QH,JH,6C,3C,AD,8S/2C,3D/4D,5D * 0 play"),
    # A session with scores: Ben (3) leads, Ana has 12.
    "K5": ("kings-corner", f"{_KINGS} 0 play session=yes scores=12,3,20"),
    # Five Crowns, round 3 (fives wild): Ana draws; the queen of diamonds is on the discard.
    "F1": (
        "five-crowns",
        "fc round=3 turn=0 phase=draw | hands: 3H 4H 5H 7D QS / 8C 9C 10C JK 3S /"
        " 4D 6D 8S KH KS | discard: 9C QD | stock: ...",
    ),
    # Round 1 (threes wild): Ana can go out by discarding the king, or just discard.
    "F2": (
        "five-crowns",
        "fc round=1 turn=0 phase=discard | hands: 5H 6H 7H KS / 8C 9C 10C / 4D 6D 8S"
        " | discard: 9C QD | stock: ...",
    ),
    # Two queens in hand, no going out.
    "F3": (
        "five-crowns",
        "fc round=3 turn=0 phase=discard | hands: 3H 4H QS QD 7D 9C / 8C 9C 10C JK 3S /"
        " 4D 6D 8S KH KS | discard: 9S QC | stock: ...",
    ),
    # Ben's turn in round 4, with totals 15 / 42 / 7.
    "F4": (
        "five-crowns",
        "fc round=4 turn=1 phase=draw | hands: 3H 4H QS QD 7D 9C / 8C 9C 10C JK 3S 4S /"
        " 4D 6D 8S KH KS 5T | discard: 9S QC | stock: ... | history: 12 30 5 / 0 8 0 / 3 4 2",
    ),
    # Round 1: the wild three makes three ways to go out.
    "F5": (
        "five-crowns",
        "fc round=1 turn=0 phase=discard | hands: 3S 5H 6H 7H / 8C 9C 10C / 4D 6D 8S"
        " | discard: 9C QD | stock: ...",
    ),
    # Round 2 (fours wild): a joker and two nines.
    "F6": (
        "five-crowns",
        "fc round=2 turn=0 phase=discard | hands: JK 9C 9D KS QS / 8C 9C 10C 4S / 4D 6D 8S 9S"
        " | discard: 9H QD | stock: ...",
    ),
}


@dataclass(frozen=True, slots=True)
class Line:
    """One corpus line."""

    lang: str
    position: str
    kind: str
    expected: str
    text: str
    number: int


@cache
def seat_view(position: str) -> dict[str, Any]:
    """The seat view message Ana's phone holds in ``position``."""
    game, notation = POSITIONS[position]
    state = game_rules(game).parse_position(notation)
    return {"v": 1, "seq": 7, "seat": 0, "player": "p0", "state": state.view_for(0)}


def said(position: str, lang: str, text: str) -> tuple[str, dict[str, Any]]:
    """What the assistant sends when Ana, in ``position``, says ``text`` in ``lang``."""
    return respond({"v": 1, "id": "t1", "text": text, "lang": lang}, seat_view(position), NAMES)


def load(lang: str, path: Path | None = None) -> list[Line]:
    """The corpus lines of one language (or of another file in the same format)."""
    lines = []
    path = path or HERE / f"assistant_corpus_{lang}.txt"
    for number, raw in enumerate(path.read_text("utf-8").splitlines(), start=1):
        if not raw.strip() or raw.startswith("#"):
            continue
        position, kind, expected, text = (part.strip() for part in raw.split("|", 3))
        lines.append(Line(lang, position, kind, expected, text, number))
    return lines


def expected_matches(expected: str, sent: tuple[str, dict[str, Any]]) -> bool:
    """Whether what the assistant sent is what the corpus line expects."""
    kind, message = sent
    head, *rest = expected.split()
    if head in ("answer", "ask", "refuse"):
        if kind != "reply":
            return False
        code, *pairs = rest
        if head in ("answer", "ask"):
            data = message.get("data") or {}
            wanted_kind = "answer" if head == "answer" else "question"
            if message.get("status") != "ok" or data.get("kind") != wanted_kind:
                return False
            got, params = data[wanted_kind], data["params"]
        else:
            if message.get("status") != "error":
                return False
            got, params = message["error"]["code"], message["error"]["params"]
        wanted = dict(pair.split("=", 1) for pair in pairs)
        return got == code and all(str(params.get(k)) == v for k, v in wanted.items())
    return kind == "intent" and message["action"] == action_of(head, rest)


def action_of(head: str, rest: list[str]) -> dict[str, Any]:
    """The action an expected ``play 7S W`` (and so on) stands for."""
    if head == "play":
        return {"type": "play", "card": rest[0], "pile": rest[1]}
    if head == "move":
        return {"type": "move", "from": rest[0], "to": rest[1]}
    if head == "draw":
        return {"type": "draw", "source": rest[0]} if rest else {"type": "draw"}
    if head == "discard":
        return {"type": "discard", "card": rest[0]}
    if head == "go_out":
        return {"type": "go_out", "discard": rest[0]}
    return {"type": head}
