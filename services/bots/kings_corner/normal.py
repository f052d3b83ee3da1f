"""Kings in the Corner, ``normal``: the best rule ordering we found.

1. Kings into empty corners (they open a pile nobody else can start).
2. Cards onto piles, highest first (a lower card may then follow on it), preferring a
   card that leaves a chain of our own cards to follow.
3. Pile moves that free a side spot, when a card can fill it.
4. Fill an empty side spot with the card our hand follows best (else the highest).
5. Only then draw or end the turn.

The ordering works on the engine's action values (``pick``), so that ``hard`` can play
the next seats' replies with it in its look-ahead; ``choose`` is the same on a view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import Card
from engine.kings_corner import Action, Move, Play, State, parse_action
from services.bots.base import legal
from services.bots.kings_corner.board import CORNERS, chain_below, hand_of, is_king, tops


class Player:
    def __init__(self, seed: int | str) -> None:
        pass

    def observe(self, view: Mapping[str, Any]) -> None:
        pass

    def choose(self, view: Mapping[str, Any]) -> dict[str, Any]:
        return choose(view, legal(view))


def choose(view: Mapping[str, Any], actions: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The ordering's choice among the wire ``actions`` of this seat view."""
    parsed = [parse_action(action) for action in actions]
    return pick(hand_of(view), tops(view), parsed).to_wire()


def pick_in(state: State, seat: int) -> Action:
    """The ordering's choice for ``seat``, the seat to act in the engine ``state``."""
    actions = state.legal_actions(seat)
    if len(actions) == 1:
        return actions[0]
    top = {name: pile[-1] if pile else None for name, pile in state.piles.items()}
    return pick(state.hand(seat), top, actions)


def pick(hand: Sequence[Card], top: Mapping[str, Card | None], actions: Sequence[Action]) -> Action:
    """The ordering's choice among the legal ``actions`` (engine values)."""
    plays = [action for action in actions if isinstance(action, Play)]
    corners = [a for a in plays if a.pile in CORNERS and top[a.pile] is None]
    if corners:
        return corners[0]
    builds = [a for a in plays if top.get(a.pile) is not None]
    if builds:
        return max(builds, key=lambda a: _build_rank(a, hand))
    fills = [a for a in plays if top.get(a.pile) is None]
    moves = [action for action in actions if isinstance(action, Move)]
    if moves and len(hand) > 0 and not fills:
        return moves[0]
    if fills:
        return max(fills, key=lambda a: _fill_rank(a, hand))
    ending = [action for action in actions if not isinstance(action, Play | Move)]
    return ending[0] if ending else actions[0]


def _build_rank(action: Play, hand: Sequence[Card]) -> tuple[int, int, bool]:
    corner = action.pile in CORNERS  # corners never move: building there is for keeps
    return (chain_below(action.card, hand), action.card.rank, corner)


def _fill_rank(action: Play, hand: Sequence[Card]) -> tuple[int, bool, int]:
    # A King on a side spot blocks it (only a King pile may move, into a corner).
    return (chain_below(action.card, hand), not is_king(action.card), action.card.rank)
