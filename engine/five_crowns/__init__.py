"""Five Crowns ("Cinq rois", rules.md section 2): the package the registry loads.

Exports what ``engine.registry.GameRules`` lists, plus the meld solver's entry points.
"""

from __future__ import annotations

from engine.five_crowns.actions import Action, Discard, Draw, GoOut, parse_action
from engine.five_crowns.describe import describe_event
from engine.five_crowns.melds import Arrangement, Meld, best_arrangement, best_discard, min_penalty
from engine.five_crowns.model import Phase
from engine.five_crowns.notation import parse_position as _parse_position_text
from engine.five_crowns.state import NAME, FiveCrownsState, new_game, state_from_dict
from engine.five_crowns.variants import MAX_SEATS, MIN_SEATS, OPTIONS


def parse_position(text: str) -> FiveCrownsState:
    """A state from its one-line notation (see ``engine.five_crowns.notation``)."""
    return state_from_dict(_parse_position_text(text))


__all__ = [
    "MAX_SEATS",
    "MIN_SEATS",
    "NAME",
    "OPTIONS",
    "Action",
    "Arrangement",
    "Discard",
    "Draw",
    "FiveCrownsState",
    "GoOut",
    "Meld",
    "Phase",
    "best_arrangement",
    "best_discard",
    "describe_event",
    "min_penalty",
    "new_game",
    "parse_action",
    "parse_position",
    "state_from_dict",
]
