"""How a computer player picks an action, from its own seat's view and nothing else.

Plain rules of thumb, the same for every game: finish the round if possible, get rid
of cards, keep the board moving, and only then draw or pass. Five Crowns' discard is
chosen with the meld solver so the bot keeps the hand that scores least.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import parse_card

# Lower is better; unknown types come last, before ending the turn.
_PREFERENCE = {"go_out": 0, "play": 1, "move": 2, "draw": 3, "discard": 4, "end_turn": 9}


def choose_action(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """The bot's next action for this seat view's state, or None if it has nothing to do."""
    actions: Sequence[dict[str, Any]] = view.get("legal_actions") or ()
    if not actions:
        return None
    if view.get("game") == "five-crowns":
        return _five_crowns(view, actions)
    return min(actions, key=lambda action: (_PREFERENCE.get(action["type"], 8), _rank(action)))


def _rank(action: Mapping[str, Any]) -> int:
    # Among plays, lead with high cards: low cards fit more piles later.
    card = action.get("card")
    return -parse_card(card).rank if isinstance(card, str) else 0


def _five_crowns(view: Mapping[str, Any], actions: Sequence[dict[str, Any]]) -> dict[str, Any]:
    from engine.five_crowns.melds import best_discard  # only Five Crowns bots need the solver

    for action in actions:
        if action["type"] == "go_out":
            return action
    discards = [action for action in actions if action["type"] == "discard"]
    if discards:
        hand = [parse_card(text) for text in view.get("hand", ())]
        allowed = [parse_card(action["card"]) for action in discards]
        choice, _ = best_discard(hand, int(view["wild_rank"]), choices=allowed)
        return next(action for action in discards if parse_card(action["card"]) == choice)
    draws = [action for action in actions if action["type"] == "draw"]
    return draws[0] if draws else actions[0]
