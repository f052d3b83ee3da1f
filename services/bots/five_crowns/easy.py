"""Five Crowns, ``easy``: a beginner. Takes the pile only for a wild or a pair, throws its
highest loose card (it does not see runs), sometimes a random one; goes out when it can."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.five_crowns.deck import card_penalty, is_wild
from services.bots.base import legal, seeded_random
from services.bots.five_crowns.common import (
    allowed_discards,
    discard_of,
    draw_from,
    hand_of,
    of_type,
)

BLUNDER = 0.25  # how often it throws a card at random


class Player:
    def __init__(self, seed: int | str) -> None:
        self.random = seeded_random(seed, "five-crowns-easy")

    def observe(self, view: Mapping[str, Any]) -> None:
        pass  # a beginner does not follow the table

    def choose(self, view: Mapping[str, Any]) -> dict[str, Any]:
        actions = legal(view)
        going_out = of_type(actions, "go_out")
        if going_out:
            return going_out[0]
        wild_rank = int(view["wild_rank"])
        hand = hand_of(view)
        ranks = Counter(card.rank for card in hand)
        if of_type(actions, "draw"):
            pile = draw_from(actions, "discard")
            top = view.get("discard_top")
            if pile is not None and isinstance(top, str):
                card = next(iter(c for c in hand_of({"hand": [top]})))
                if is_wild(card, wild_rank) or ranks[card.rank]:
                    return pile
            return draw_from(actions, "stock") or actions[0]
        cards = allowed_discards(actions)
        if self.random.random() < BLUNDER:
            return discard_of(actions, self.random.choice(cards)) or actions[0]
        loose = [c for c in cards if not is_wild(c, wild_rank) and ranks[c.rank] < 2]
        pool = loose or [c for c in cards if not is_wild(c, wild_rank)] or cards
        card = max(pool, key=lambda c: card_penalty(c, wild_rank))
        return discard_of(actions, card) or actions[0]
