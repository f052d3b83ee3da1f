"""Kings in the Corner, ``easy``: a beginner. Plays what it notices (a random legal card,
now and then it stops early), never moves a pile, and always finishes its turn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from services.bots.base import legal, seeded_random

STOPS_EARLY = 0.3  # how often it ends a turn with a play still possible


class Player:
    def __init__(self, seed: int | str) -> None:
        self.random = seeded_random(seed, "kings-corner-easy")

    def observe(self, view: Mapping[str, Any]) -> None:
        pass

    def choose(self, view: Mapping[str, Any]) -> dict[str, Any]:
        actions = legal(view)
        plays = [action for action in actions if action["type"] == "play"]
        ending = [action for action in actions if action["type"] in ("draw", "end_turn")]
        if plays and (not ending or self.random.random() > STOPS_EARLY):
            return self.random.choice(plays)
        return ending[0] if ending else actions[0]
