"""Kings in the Corner (rules.md section 1): every rule and option, as pure functions.

Seats are numbered clockwise; the player left of the dealer (dealer + 1) starts. A game
is a pure function of ``(seats, seed, options, actions)``.

Actions (wire forms): ``{"type": "play", "card": "7H", "pile": "N"}`` (also fills an
empty side spot and opens a corner with a King), ``{"type": "move", "from": "W", "to":
"NE"}``, ``{"type": "draw"}``, ``{"type": "end_turn"}``. Piles: N E S W NE SE SW NW.

Refusal codes (``IllegalActionError``; parameters in brackets):
    not_your_turn [seat, current_seat]   round_over [round]
    must_draw_first                      must_draw_to_end_turn (draw=end: drawing ends it)
    already_drew                         stock_empty          no_draw_rule (draw=never)
    card_not_in_hand [card]              no_such_pile [pile]  pile_empty [pile]
    not_one_lower [card, top, pile | from, to]                same_colour [same]
    corner_needs_king [card, pile]       must_play_king [kings] (mandatory kings)
    cannot_move_pile [from, to, reason: same_pile | empty_side | corner_to_corner | option_off]
    round_not_over, game_over (start_next_round)                no_such_seat [seat] (views)
Syntax (``ActionSyntaxError``): bad_action [type, fields, reason], bad_card [card],
bad_pile [pile]. Options (``OptionError``): bad_option, unknown_option, bad_seat_count,
bad_seed, deal_needs_two_or_three_seats, deal_too_large [deal, seats, maximum].
Positions (``PositionError``): bad_position [reason, ...]; impossible ones raise
``InvariantError`` (an ``AssertionError``).

Points the rule texts leave open, as decided here:
- Deal 13 and draw=never are independent options (the seeds: "usually 13"); a six-card
  deal is allowed at any table size; a deal that leaves fewer than 4 cards for the
  side piles is refused.
- draw=end: drawing is the action that ends the turn; end_turn only once the stock is out.
- Mandatory kings: while the seat to act holds a King and a corner is empty, its only
  legal actions are Kings into empty corners (a drawn King goes at once).
- Royal kings: a turn in which a King went from the hand into a corner is followed by
  one more turn for that seat (which may earn another); a King pile moved into a corner
  or a King on a side spot earns nothing.
- Blocked round: as many turns in a row as there are seats without a card drawn, played
  or moved. Only side piles ever move (a corner pile starts with a King).
- First dealer by high card: Kings high, Aces low, suits do not count; seats tied for the
  highest rank draw again from a fresh deck. Seeded labels: ``first-dealer-<n>``,
  ``first-dealer`` (random), ``round-<n>``.
- The session target follows the scoring unless the host sets one: 250 with the
  alternate scoring (Ace 25), 25 with the others (``OptionSpec.default_by``).
- A session ends when a total reaches (>=) the target; without a session the outcome's
  scores are the single round's penalty points.
- ``State.opening_events()`` gives the events of the first-dealer choice and first deal,
  which ``new_game`` (returning only a state) cannot.
"""

from __future__ import annotations

from typing import Any

from engine.kings_corner.actions import (
    DRAW,
    END_TURN,
    Action,
    Draw,
    EndTurn,
    Move,
    Play,
    parse_action,
)
from engine.kings_corner.describe import describe_event
from engine.kings_corner.invariants import InvariantError
from engine.kings_corner.notation import parse_position
from engine.kings_corner.serial import PositionError, state_from_dict
from engine.kings_corner.setup import DEFAULT_OPTIONS, MAX_SEATS, MIN_SEATS, NAME, OPTIONS
from engine.kings_corner.start import new_game
from engine.kings_corner.state import State

OPTION_CHOICES: dict[str, Any] = {
    spec.name: list(spec.choices)
    if spec.choices
    else {"minimum": spec.minimum, "maximum": spec.maximum}
    for spec in OPTIONS
}

__all__ = [
    "DEFAULT_OPTIONS",
    "DRAW",
    "END_TURN",
    "MAX_SEATS",
    "MIN_SEATS",
    "NAME",
    "OPTIONS",
    "OPTION_CHOICES",
    "Action",
    "Draw",
    "EndTurn",
    "InvariantError",
    "Move",
    "Play",
    "PositionError",
    "State",
    "describe_event",
    "new_game",
    "parse_action",
    "parse_position",
    "state_from_dict",
]
