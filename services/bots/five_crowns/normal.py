"""Five Crowns, ``normal``: the one-ply player.

Draws from whichever source leaves the lower expected penalty (the pile's top is known;
a stock card is any card it has not seen), throws the exact solver's best discard and
goes out as soon as it can.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.cards import Card, parse_card
from engine.five_crowns.solvers import solver_for
from services.bots.base import legal
from services.bots.five_crowns.common import (
    allowed_discards,
    banned_card,
    discard_of,
    draw_from,
    hand_of,
    of_type,
    out_throw_worth,
)
from services.bots.five_crowns.memory import RoundMemory
from services.bots.five_crowns.values import stock_rather_than


class Player:
    def __init__(self, seed: int | str) -> None:
        self.memory = RoundMemory()

    def observe(self, view: Mapping[str, Any]) -> None:
        self.memory.observe(view)

    def choose(self, view: Mapping[str, Any]) -> dict[str, Any]:
        actions = legal(view)
        going_out = of_type(actions, "go_out")
        if going_out:
            return max(going_out, key=lambda action: out_throw_worth(action, view))
        if of_type(actions, "draw"):
            return self.draw(view, actions)
        return self.discard(view, actions)

    def draw(self, view: Mapping[str, Any], actions: Any) -> dict[str, Any]:
        stock, pile = draw_from(actions, "stock"), draw_from(actions, "discard")
        if stock is None or pile is None:
            return stock or pile or actions[0]
        hand, wild_rank = hand_of(view), int(view["wild_rank"])
        top = parse_card(view["discard_top"])
        unseen = self.unseen(view)
        return stock if stock_rather_than(hand, wild_rank, unseen, top, banned_card(view)) else pile

    def unseen(self, view: Mapping[str, Any]) -> Counter[Card]:
        return self.memory.unseen(view)

    def discard(self, view: Mapping[str, Any], actions: Any) -> dict[str, Any]:
        hint = view.get("hint") or {}
        suggested = hint.get("discard")
        if isinstance(suggested, str):  # the seat's hint is the solver's best discard
            action = discard_of(actions, parse_card(suggested))
            if action is not None:
                return action
        # No hint (the arena's views): the same solver's answer (``turns.hint``'s).
        solver = solver_for(hand_of(view), int(view["wild_rank"]))
        card, _ = solver.best_discard(allowed_discards(actions))
        return discard_of(actions, card) or actions[0]
