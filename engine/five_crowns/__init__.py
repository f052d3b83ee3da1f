"""Five Crowns ("Cinq rois", rules.md section 2): the package the registry loads.

Exports what ``engine.registry.GameRules`` lists, plus the meld solver's entry points.

Points the rule texts leave open, as decided here (options in ``variants``):

- The first dealer is drawn by lot from the game's seed; the deal then moves one seat
  left each round and the player left of the dealer starts.
- When the stock runs out it is rebuilt at the end of that turn, so a turn never starts
  with an empty stock. Default as the seed says: the whole pile is shuffled and its top
  card turned up; option ``reshuffle=keep_top``: rules.md's pile less its top card.
- A card taken from the discard pile may not be thrown back that turn, nor an identical
  twin of it (the same loop), unless the hand holds nothing else.
- A player in the last turns may also go out (lay down everything); the first player
  out stays the one the round ends after.
- The tie-break round (option) deals 6 cards, 6s wild, to the tied leaders only; the
  lowest penalty in it wins (still tied: shared). It is kept apart from the totals.
- Two packs are for 8 to 14 players only (refused below 8, required above 7).
- Solo play (one player; the seed gives it no score): a round lasts at most
  ``solo_turns`` turns (default 10). A round not gone out of by then ends (event
  ``turn_limit``) and the hand is scored at its lowest penalty, as at any round's end;
  the total is the game's score, lower is better. Views show ``solo_turns_left``.
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
