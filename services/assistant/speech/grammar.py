"""The English sentences a seat may say now, from its own view, and their JSGF grammar.

The recogniser only chooses among these, so a sentence here must read, as typed text, as
the action or question it was made from (a test checks that through ``understand``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

RANK_NAMES = {
    "A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
    "7": "seven", "8": "eight", "9": "nine", "10": "ten", "J": "jack", "Q": "queen",
    "K": "king",
}  # fmt: skip
SUIT_NAMES = {"H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades", "T": "stars"}
PILE_NAMES = {
    "N": "north", "E": "east", "S": "south", "W": "west",
    "NE": "north east", "NW": "north west", "SE": "south east", "SW": "south west",
}  # fmt: skip
# Single short words ("help", "done") were the recogniser's misses on synthetic voices
# (heard as "who", or as nothing): the sentences are a little longer where it helps.
QUESTIONS = (
    "whose turn is it",
    "who plays",
    "what can i play",
    "what are my cards",
    "show my hand",
    "help me",
)
DRAW = ("draw", "draw a card")
END_TURN = ("end turn", "end my turn")
# Every word a sentence can hold: the recogniser's dictionary is cut down to these.
VOCABULARY = frozenset(
    word
    for text in (
        *RANK_NAMES.values(),
        *SUIT_NAMES.values(),
        *PILE_NAMES.values(),
        *QUESTIONS,
        *DRAW,
        *END_TURN,
        "joker of on play move to take the discard go out with",
    )
    for word in text.split()
)


def card_words(card: str) -> str:
    """How a card is said: "7H" -> "seven of hearts", "JK" -> "joker"."""
    if card == "JK":
        return "joker"
    return f"{RANK_NAMES[card[:-1]]} of {SUIT_NAMES[card[-1]]}"


def action_sentences(action: Mapping[str, Any]) -> tuple[str, ...]:
    """The ways of saying one action (both games' wire forms)."""
    kind = action.get("type")
    if kind == "play":
        card, pile = card_words(action["card"]), PILE_NAMES[action["pile"]]
        return (f"{card} on {pile}", f"play {card} on {pile}", card, f"play {card}")
    if kind == "move":
        source, target = PILE_NAMES[action["from"]], PILE_NAMES[action["to"]]
        return (f"move {source} to {target}", f"move {source} on {target}")
    if kind == "draw":
        return ("take the discard",) if action.get("source") == "discard" else DRAW
    if kind == "end_turn":
        return END_TURN
    if kind == "discard":
        card = card_words(action["card"])
        return (f"discard {card}",)
    if kind == "go_out":
        card = card_words(action["discard"])
        return (f"go out with {card}",)
    return ()


def sentences(state: Mapping[str, Any] | None) -> tuple[str, ...]:
    """What makes sense for the seat whose view holds ``state``, in a stable order.

    The legal actions and the questions; and the turn's verbs even out of turn, so that
    "draw" said too early reaches the table, which says whose turn it is.
    """
    legal: Sequence[Mapping[str, Any]] = (state or {}).get("legal_actions") or []
    found: dict[str, None] = dict.fromkeys(QUESTIONS)
    if state is not None:
        found.update(dict.fromkeys(DRAW))
        if state.get("game") == "kings-corner":
            found.update(dict.fromkeys(END_TURN))
    for action in legal:
        found.update(dict.fromkeys(action_sentences(action)))
    return tuple(found)


def jsgf(choices: Iterable[str], name: str = "seat") -> str:
    """A JSGF grammar whose only sentences are ``choices``."""
    body = " | ".join(f"( {text} )" for text in choices)
    return f"#JSGF V1.0;\ngrammar {name};\npublic <said> = {body};\n"
