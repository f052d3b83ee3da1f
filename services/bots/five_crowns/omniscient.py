"""Five Crowns, ``omniscient``: for the arena's measurements only, never at a table.

It is ``hard`` told the truth: the stock's order, so the next draw is known exactly.
What it wins bounds what ``hard``'s way of playing could win with perfect knowledge.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.cards import Card
from engine.five_crowns import FiveCrownsState
from services.bots.five_crowns import hard


class Player(hard.Player):
    def __init__(self, seed: int | str) -> None:
        super().__init__(seed)
        self.truth: FiveCrownsState | None = None

    def see_everything(self, state: FiveCrownsState) -> None:
        self.truth = state

    def unseen(self, view: Mapping[str, Any]) -> Counter[Card]:
        if self.truth is None or not self.truth.stock:
            return super().unseen(view)
        return Counter(self.truth.stock[:1])  # the very card a stock draw brings
