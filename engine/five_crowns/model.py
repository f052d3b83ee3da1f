"""The plain data a Five Crowns state is made of: phases, round numbers, the last round."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.cards import Card
from engine.five_crowns.variants import FIRST_ROUND, LAST_ROUND

TIEBREAK_ROUND = LAST_ROUND + 1
TIEBREAK_CARDS = 6  # the seed: "une ultime manche à 6 cartes"

Hand = tuple[Card, ...]


class Phase(StrEnum):
    """Where a round stands. ``draw``/``discard`` are the two halves of a turn."""

    DRAW = "draw"
    DISCARD = "discard"
    ROUND_OVER = "round_over"
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class LastRound:
    """The hands as the last finished round ended; their arrangements are derived."""

    round: int
    went_out: int | None
    hands: tuple[Hand, ...]


def cards_dealt(round_number: int) -> int:
    """Round r deals r + 2 cards (3 … 13); the tie-break round deals 6."""
    if round_number == TIEBREAK_ROUND:
        return TIEBREAK_CARDS
    return round_number + 2


def is_round_number(value: object) -> bool:
    return isinstance(value, int) and FIRST_ROUND <= value <= TIEBREAK_ROUND


def lowest(totals: tuple[int, ...], among: tuple[int, ...]) -> tuple[int, ...]:
    """The seats of ``among`` with the lowest total (several when tied)."""
    best = min(totals[seat] for seat in among)
    return tuple(seat for seat in among if totals[seat] == best)
