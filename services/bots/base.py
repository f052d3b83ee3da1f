"""What every level of every game shares: a seeded random source and the view's actions."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any


def seeded_random(seed: int | str, label: str) -> random.Random:
    """A private generator: a player's choices repeat for the same seed."""
    return random.Random(f"{label}:{seed}")


def legal(view: Mapping[str, Any]) -> Sequence[dict[str, Any]]:
    """The seat's legal actions (wire forms); a player must answer one of these."""
    actions: Sequence[dict[str, Any]] = view.get("legal_actions") or ()
    if not actions:
        raise ValueError("nothing to choose: the seat has no legal action")
    return actions
