"""Five Crowns, ``omniscient``: for the arena's measurements only, never at a table.

It is ``hard`` told the truth: the stock's order. Its draw knows the very card the stock
brings, and takes whichever of it and the pile's top leaves the lower penalty
(``normal``'s rule, given the truth); its discard judges a kept hand by the cards it
would really draw next (were every seat to draw from the stock), in place of
``hard.DRAWS_AHEAD`` unseen ones. What it wins bounds what ``hard``'s discards could
win with perfect knowledge (its draw is the plain one, not ``hard``'s outlook).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.cards import Card
from engine.five_crowns import FiveCrownsState
from engine.five_crowns.model import Phase
from services.bots.five_crowns import hard, normal


class Player(hard.Player):
    def __init__(self, seed: int | str) -> None:
        super().__init__(seed)
        self.truth: FiveCrownsState | None = None

    def draw(self, view: Mapping[str, Any], actions: Any) -> dict[str, Any]:
        return normal.Player.draw(self, view, actions)  # the truth: no outlook needed

    def see_everything(self, state: FiveCrownsState) -> None:
        self.truth = state

    def unseen(self, view: Mapping[str, Any]) -> Counter[Card]:
        truth = self.truth
        if truth is None or not truth.stock:
            return super().unseen(view)
        if truth.phase == Phase.DRAW:
            return Counter(truth.stock[:1])  # the very card a stock draw brings
        seats = len(truth.hands)  # the others draw first: this seat's are every seats-th
        return Counter(truth.stock[seats - 1 :: seats][: hard.DRAWS_AHEAD])
