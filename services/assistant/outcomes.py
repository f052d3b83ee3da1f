"""What a line comes to: an action to send, an answer, or a refusal (a question back too)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Action = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Act:
    """Send this action for the speaker's seat."""

    action: Action


@dataclass(frozen=True, slots=True)
class Answer:
    """Tell the speaker something: a code and its parameters."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Refusal:
    """Nothing to do: why, as a code and its parameters (a question back included)."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)


Understood = Act | Answer | Refusal

# Refusals that are questions back: the line named a move, only not which one. They go out
# as ``data.kind == "question"`` (status ok), so screens show them apart from refusals.
QUESTION_CODES = frozenset({"which_card", "which_pile", "which_move", "go_out_or_discard"})


def card_of(action: Action) -> str | None:
    """The card an action plays or throws away (a go-out names its discard)."""
    card = action.get("card") or action.get("discard")
    return None if card is None else str(card)
