"""Kings in the Corner, ``omniscient``: for the arena's measurements only, never at a table.

It is ``hard`` handed the true position (every hand and the stock's order) instead of
sampled ones, so its search judges each sequence by the next seat's real reply. What it
wins bounds what a fair player could win with this search.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.kings_corner import State
from services.bots.base import legal
from services.bots.kings_corner import hard, normal


class Player(hard.Player):
    def __init__(self, seed: int | str) -> None:
        super().__init__(seed)
        self.truth: State | None = None

    def see_everything(self, state: State) -> None:
        self.truth = state

    def choose(self, view: Mapping[str, Any]) -> dict[str, Any]:
        actions = legal(view)
        if len(actions) == 1 or view.get("phase") != "play" or self.truth is None:
            return actions[0]
        seat = int(view["seat"])
        finalists = hard.search_turn(self.truth, seat)
        plan = hard.best_reply_aware(finalists, [self.truth], seat)
        if plan and plan[0][1] in actions:
            return plan[0][1]
        return normal.choose(view, actions)
