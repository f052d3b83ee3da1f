"""Plain-English sentences for events, for the TV's log and its voice.

Seats are numbered from 0, as on the wire and in Kings in the Corner's transcripts.
Only an event's public parameters are used: a drawn card's secret is never read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.cards import JOKER_RANK, parse_card
from engine.game import Event

_SUIT_NAMES = {"H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades", "T": "stars"}
_RANK_NAMES = {11: "jack", 12: "queen", 13: "king"}
_RANK_PLURALS = {11: "jacks", 12: "queens", 13: "kings"}


def card_name(text: str) -> str:
    """``"QT"`` -> ``"queen of stars"``; ``"JK"`` -> ``"joker"``."""
    card = parse_card(text)
    if card.rank == JOKER_RANK:
        return "joker"
    return f"{_RANK_NAMES.get(card.rank, str(card.rank))} of {_SUIT_NAMES[card.suit]}"


def rank_plural(rank: int) -> str:
    return _RANK_PLURALS.get(rank, f"{rank}s")


def seat_name(seat: int | None) -> str:
    return "Nobody" if seat is None else f"Seat {seat}"


def _seats(seats: list[int]) -> str:
    names = [seat_name(seat) for seat in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _round_started(event: Event, p: Mapping[str, Any]) -> str:
    return (
        f"Round {p['round']}: {p['cards_dealt']} cards each, {rank_plural(p['wild_rank'])} "
        f"and jokers are wild. {seat_name(p['dealer'])} deals; {seat_name(p['first_seat'])} "
        f"starts. The {card_name(p['discard_top'])} starts the discard pile."
    )


def _drew(event: Event, p: Mapping[str, Any]) -> str:
    if p["source"] == "stock":
        return f"{seat_name(event.seat)} draws from the stock."
    return f"{seat_name(event.seat)} takes the {card_name(p['card'])} from the discard pile."


def _went_out(event: Event, p: Mapping[str, Any]) -> str:
    return (
        f"{seat_name(event.seat)} goes out, discarding the {card_name(p['card'])}! "
        "Everyone else has one last turn."
    )


def _round_ended(event: Event, p: Mapping[str, Any]) -> str:
    scores = ", ".join(
        f"{seat_name(result['seat'])} {result['penalty']}" for result in p["results"]
    )
    return f"Round {p['round']} is over. Penalties: {scores}."


def _game_over(event: Event, p: Mapping[str, Any]) -> str:
    winners = p["winners"]
    best = p["scores"][winners[0]]
    if p["reason"] == "solo":
        return f"Game over: {seat_name(winners[0])} finishes with {best} points."
    if p["reason"] == "tiebreak_round":
        verb = "wins" if len(winners) == 1 else "share the win"
        return f"Game over: {_seats(winners)} {verb} after the tie-break round."
    verb = "wins" if len(winners) == 1 else "share the win"
    return f"Game over: {_seats(winners)} {verb} with {best} points."


_SENTENCES: Mapping[str, Callable[[Event, Mapping[str, Any]], str]] = {
    "round_started": _round_started,
    "dealt": lambda e, p: f"{seat_name(e.seat)} is dealt {p['count']} cards.",
    "drew": _drew,
    "discarded": lambda e, p: f"{seat_name(e.seat)} discards the {card_name(p['card'])}.",
    "went_out": _went_out,
    "laid_down": lambda e, p: (
        f"{seat_name(e.seat)} lays down every card, discarding the {card_name(p['card'])}."
    ),
    "reshuffled": lambda e, p: (
        f"The stock ran out: the discard pile is shuffled into a new stock of "
        f"{p['stock_count']} cards."
    ),
    "turn_limit": lambda e, p: f"No turns left: the round ends after {p['turns']} turns.",
    "round_ended": _round_ended,
    "tiebreak": lambda e, p: (
        f"{_seats(p['seats'])} are tied: one more round of 6 cards, sixes wild."
    ),
    "game_over": _game_over,
}


EVENT_CODES = frozenset(_SENTENCES)


def describe_event(event: Event) -> str:
    """One English sentence for ``event``."""
    sentence = _SENTENCES.get(event.code)
    if sentence is None:
        return f"{seat_name(event.seat)}: {event.code.replace('_', ' ')}."
    return sentence(event, event.params)
