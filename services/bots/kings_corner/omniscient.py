"""Kings in the Corner, ``omniscient``: for the arena's measurements only, never at a table.

It is ``hard`` handed the true position (every hand and the stock's order) instead of
sampled ones, so its play-outs are the next players' real replies (when they play the
``normal`` ordering). What it wins bounds what a fair player could win with this search.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.kings_corner import State
from services.bots.kings_corner import hard


class Player(hard.Player):
    def __init__(self, seed: int | str) -> None:
        super().__init__(seed)
        self.truth: State | None = None

    def see_everything(self, state: State) -> None:
        self.truth = state

    def samples(self, view: Mapping[str, Any]) -> list[State]:
        if self.truth is None:  # never told: it plays as ``hard``
            return super().samples(view)
        return [self.truth]
