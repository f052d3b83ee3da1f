"""The hint: one good move for the seat, from its own view only.

``suggest`` is the one place the assistant asks for a move: the computer players' hint
level chooses it (``services.bots.players.hint_action``, the normal player). A game
without a computer player falls back to a simple rule per game, kept here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from services.assistant.reading import card_rank
from services.bots.five_crowns.common import out_throw_worth
from services.bots.players import UnknownPlayerError, hint_action

Action = dict[str, Any]
# Kings in the Corner: what a move is worth to the player, higher first.
_KINGS_ORDER = {"play": 3, "move": 2, "draw": 4, "end_turn": 0}
_FACE_VALUES = {11: 11, 12: 12, 13: 13}


def suggest(state: Mapping[str, Any]) -> Action | None:
    """One good legal action for the seat whose view is ``state``; None when it has none."""
    legal: Sequence[Action] = state.get("legal_actions") or []
    if not legal:
        return None
    try:
        return hint_action(str(state.get("game")), state)
    except UnknownPlayerError:
        return simple_suggestion(state, legal)


def simple_suggestion(state: Mapping[str, Any], legal: Sequence[Action]) -> Action:
    """The simple rule: kings to corners, moves, high cards; go out, keep wilds."""
    if state.get("game") == "five-crowns":
        return _five_crowns(state, legal)
    return _kings_corner(state, legal)


def _kings_corner(state: Mapping[str, Any], legal: Sequence[Action]) -> Action:
    """Draw when a draw is due; else kings to corners, then pile moves, then the highest
    card (low cards fit more piles later), and end the turn only when nothing is left."""
    piles: Mapping[str, Sequence[str]] = state.get("piles") or {}

    def worth(action: Action) -> tuple[int, int]:
        kind = action["type"]
        if kind == "play":
            rank = card_rank(str(action["card"]))
            corner = len(str(action["pile"])) == 2
            return (5 if rank == 13 and corner else 3), rank
        if kind == "move":
            return 2 + (len(str(action["to"])) == 2), len(piles.get(str(action["from"]), ()))
        return _KINGS_ORDER.get(kind, 0), 0

    return max(legal, key=worth)


def _value(card: str, wild_rank: int | None) -> int:
    if card == "JK":
        return 50
    rank = card_rank(card)
    return 20 if rank == wild_rank else _FACE_VALUES.get(rank, rank)


def _five_crowns(state: Mapping[str, Any], legal: Sequence[Action]) -> Action:
    """Go out when possible; take a useful discard; throw the costliest loose card."""
    wild_rank = state.get("wild_rank")
    hand: Sequence[str] = state.get("hand") or []
    go_outs = [action for action in legal if action["type"] == "go_out"]
    if go_outs:
        return max(go_outs, key=lambda action: out_throw_worth(action, state))
    draws = [action for action in legal if action["type"] == "draw"]
    if draws:
        top = state.get("discard_top")
        useful = isinstance(top, str) and (
            top == "JK"
            or card_rank(top) == wild_rank
            or any(card_rank(card) == card_rank(top) for card in hand)
        )
        wanted = "discard" if useful else "stock"
        return next((a for a in draws if a.get("source") == wanted), draws[0])

    def cost(action: Action) -> tuple[int, int]:
        card = str(action.get("card"))
        if card == "JK" or card_rank(card) == wild_rank:
            return -1, 0  # keep wilds
        pairs = sum(card_rank(other) == card_rank(card) for other in hand)
        return (0 if pairs > 1 else 1), _value(card, wild_rank)

    return max(legal, key=cost)
