"""What lasts from round to round: the round record, session totals and round results."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.game import Event
from engine.kings_corner.events import event
from engine.kings_corner.setup import DRAW_END, DRAW_START, Setup
from engine.kings_corner.tables import cards_of


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How one round ended: its winners share the win, the others' penalty points."""

    number: int
    winners: tuple[int, ...]
    reason: str  # "went_out" or "blocked"
    penalties: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.number,
            "winners": list(self.winners),
            "reason": self.reason,
            "penalties": list(self.penalties),
        }


@dataclass(frozen=True, slots=True)
class RoundInfo:
    """What changes only between rounds: shared by every state of one round."""

    setup: Setup
    number: int
    dealer: int
    scores: tuple[int, ...]
    history: tuple[RoundResult, ...]
    stock: tuple[int, ...]  # in drawing order; a state's ``drawn`` counts those taken
    # Copied from ``setup`` once, so the hot path reads one attribute, not two.
    seats: int = field(init=False)
    start_draws: int = field(init=False)  # cards drawn at the start of turns (draw=start)
    end_draws: int = field(init=False)  # cards drawn to end turns (draw=end)
    mandatory_kings: bool = field(init=False)
    royal_kings: bool = field(init=False)
    king_pile_to_corner: bool = field(init=False)

    def __post_init__(self) -> None:
        setup = self.setup
        derived = {
            "seats": setup.seats,
            "start_draws": len(self.stock) if setup.draw_mode == DRAW_START else 0,
            "end_draws": len(self.stock) if setup.draw_mode == DRAW_END else 0,
            "mandatory_kings": setup.mandatory_kings,
            "royal_kings": setup.royal_kings,
            "king_pile_to_corner": setup.king_pile_to_corner,
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    @property
    def game_over(self) -> bool:
        """True once the last round has been scored (a single race ends after one)."""
        if not self.history or self.history[-1].number != self.number:
            return False
        return not self.setup.session or max(self.scores) >= self.setup.target


def blocked_winners(hands: tuple[int, ...]) -> tuple[int, ...]:
    """The seats holding the fewest cards (they share the win)."""
    counts = [hand.bit_count() for hand in hands]
    fewest = min(counts)
    return tuple(seat for seat, count in enumerate(counts) if count == fewest)


def penalties(setup: Setup, hands: tuple[int, ...], winners: tuple[int, ...]) -> tuple[int, ...]:
    """Penalty points per seat for the cards left in hand; winners score 0."""
    table = setup.penalty
    return tuple(
        0 if seat in winners else sum(table[card] for card in cards_of(hand))
        for seat, hand in enumerate(hands)
    )


def finish_round(
    info: RoundInfo, hands: tuple[int, ...], winners: tuple[int, ...], reason: str
) -> tuple[RoundInfo, tuple[Event, ...]]:
    """Score the round just ended; the events say who won and, at the end, the game."""
    points = penalties(info.setup, hands, winners)
    scores = tuple(total + extra for total, extra in zip(info.scores, points, strict=True))
    result = RoundResult(info.number, winners, reason, points)
    ended = RoundInfo(
        info.setup, info.number, info.dealer, scores, (*info.history, result), info.stock
    )
    events = [
        event(
            "round_ended",
            None,
            round=info.number,
            winners=list(winners),
            reason=reason,
            penalties=list(points),
            scores=list(scores),
        )
    ]
    if ended.game_over:
        outcome = game_outcome(ended)
        events.append(
            event(
                "game_ended",
                None,
                winners=list(outcome[0]),
                scores=list(outcome[1]),
                reason=outcome[2],
            )
        )
    return ended, tuple(events)


def game_outcome(info: RoundInfo) -> tuple[tuple[int, ...], tuple[int, ...], str]:
    """Winners, scores and reason of a finished game.

    A single race: the round's winners and its penalty points. A session: the lowest
    totals win (ties share) once someone has reached the target.
    """
    last = info.history[-1]
    if not info.setup.session:
        return last.winners, last.penalties, last.reason
    lowest = min(info.scores)
    winners = tuple(seat for seat, total in enumerate(info.scores) if total == lowest)
    return winners, info.scores, "target_reached"
