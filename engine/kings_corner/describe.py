"""One plain English line per event, for transcripts and the simulator."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.cards import parse_card
from engine.game import Event

_SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_PILE_WORDS = {
    "N": "north",
    "E": "east",
    "S": "south",
    "W": "west",
    "NE": "north-east",
    "SE": "south-east",
    "SW": "south-west",
    "NW": "north-west",
}


def card_words(text: str) -> str:
    """``"10H"`` → ``"10♥"``."""
    card = parse_card(text)
    return str(card)[:-1] + _SUIT_SYMBOLS.get(card.suit, card.suit)


def _seats(seats: list[int]) -> str:
    names = [f"seat {seat}" for seat in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _pile(params: Mapping[str, Any], key: str = "pile") -> str:
    return _PILE_WORDS.get(str(params[key]), str(params[key]))


_LINES: dict[str, Callable[[str, Mapping[str, Any]], str]] = {
    "dealer_draw": lambda who, p: f"{who} draws {card_words(p['card'])} for the deal.",
    "dealer_draw_tied": lambda who, p: (
        f"Tie for the highest card: {_seats(p['seats'])} draw again."
    ),
    "dealer_chosen": lambda who, p: f"{who} deals first ({p['method'].replace('_', ' ')}).",
    "round_started": lambda who, p: (
        f"Round {p['round']}: seat {p['dealer']} deals {p['deal']} cards each; "
        f"seat {p['first_seat']} starts."
    ),
    "pile_turned": lambda who, p: f"{card_words(p['card'])} is turned up on {_pile(p)}.",
    "king_to_corner_at_deal": lambda who, p: (
        f"{card_words(p['card'])} is turned up and goes to the {_pile(p)} corner."
    ),
    "drew": lambda who, p: f"{who} draws a card.",
    "played": lambda who, p: f"{who} plays {card_words(p['card'])} on {_pile(p)}.",
    "filled": lambda who, p: f"{who} fills the empty {_pile(p)} spot with {card_words(p['card'])}.",
    "king_to_corner": lambda who, p: (
        f"{who} puts {card_words(p['card'])} in the {_pile(p)} corner."
    ),
    "moved": lambda who, p: f"{who} moves the {_pile(p, 'from')} pile onto {_pile(p, 'to')}.",
    "moved_to_corner": lambda who, p: (
        f"{who} moves the {_pile(p, 'from')} pile into the {_pile(p, 'to')} corner."
    ),
    "extra_turn": lambda who, p: f"{who} takes an extra turn (royal kings).",
    "turn_ended": lambda who, p: f"{who} ends the turn; seat {p['next_seat']} to play.",
    "went_out": lambda who, p: f"{who} plays their last card and wins the round!",
    "round_blocked": lambda who, p: (
        "Nobody has played for a full circle of turns: the round is blocked."
    ),
    "round_ended": lambda who, p: (
        f"Round {p['round']} won by {_seats(p['winners'])}; "
        f"penalties {p['penalties']}, totals {p['scores']}."
    ),
    "game_ended": lambda who, p: (
        f"Game over ({p['reason'].replace('_', ' ')}): won by {_seats(p['winners'])}; "
        f"scores {p['scores']}."
    ),
}


def describe_event(event: Event) -> str:
    """A sentence for ``event``, as the TV may say it (a drawn card is never named)."""
    line = _LINES.get(event.code)
    who = "The table" if event.seat is None else f"Seat {event.seat}"
    if line is None:
        return f"{who}: {event.code} {dict(event.params)}"
    return line(who, event.params)
