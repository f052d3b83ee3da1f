"""Kings in the Corner, ``normal``: the best rule ordering we found.

1. Kings into empty corners (they open a pile nobody else can start).
2. Cards onto piles, highest first (a lower card may then follow on it), preferring a
   card that leaves a chain of our own cards to follow.
3. Pile moves that free a side spot, when a card can fill it.
4. Fill an empty side spot with the card our hand follows best (else the highest).
5. Only then draw or end the turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from services.bots.base import legal
from services.bots.kings_corner.board import CORNERS, card_of, chain_below, hand_of, is_king, tops


class Player:
    def __init__(self, seed: int | str) -> None:
        pass

    def observe(self, view: Mapping[str, Any]) -> None:
        pass

    def choose(self, view: Mapping[str, Any]) -> dict[str, Any]:
        return choose(view, legal(view))


def choose(view: Mapping[str, Any], actions: Sequence[dict[str, Any]]) -> dict[str, Any]:
    hand, top = hand_of(view), tops(view)
    plays = [action for action in actions if action["type"] == "play"]
    corners = [a for a in plays if a["pile"] in CORNERS and top[a["pile"]] is None]
    if corners:
        return corners[0]
    builds = [a for a in plays if top.get(a["pile"]) is not None]
    if builds:
        return max(builds, key=lambda a: _build_rank(a, hand))
    fills = [a for a in plays if top.get(a["pile"]) is None]
    moves = [action for action in actions if action["type"] == "move"]
    if moves and len(hand) > 0 and not fills:
        return moves[0]
    if fills:
        return max(fills, key=lambda a: _fill_rank(a, hand))
    ending = [action for action in actions if action["type"] in ("draw", "end_turn")]
    return ending[0] if ending else actions[0]


def _build_rank(action: Mapping[str, Any], hand: Sequence[Any]) -> tuple[int, int, int]:
    card = card_of(action)
    assert card is not None
    corner = action["pile"] in CORNERS  # corners never move: building there is for keeps
    return (chain_below(card, hand), card.rank, corner)


def _fill_rank(action: Mapping[str, Any], hand: Sequence[Any]) -> tuple[int, int, int]:
    card = card_of(action)
    assert card is not None
    # A King on a side spot blocks it (only a King pile may move, into a corner).
    return (chain_below(card, hand), not is_king(card), card.rank)
