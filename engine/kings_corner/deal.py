"""Choosing the first dealer and dealing a round: pure functions of the seed.

Every shuffle is ``engine.rng.shuffled`` with its own label (``first-dealer-<n>`` for
the n-th high-card draw, ``round-<n>`` for round n), so a game replays exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.game import Event
from engine.kings_corner.events import event
from engine.kings_corner.setup import DealerDraw, Setup
from engine.kings_corner.tables import BIT, CORNERS, KING_MASK, PILES, RANK, SIDES, TEXT
from engine.rng import SeededStream, shuffled

Piles = tuple[tuple[int, ...], ...]


def choose_first_dealer(
    seats: int, seed: int | str, method: str
) -> tuple[int, tuple[DealerDraw, ...]]:
    """The first dealer and the high-card draws that chose them (none when random).

    High card: every seat draws from a shuffled deck, Kings high and Aces low; seats tied
    for the highest rank draw again from a fresh shuffle, until one remains.
    """
    if method == "random":
        return shuffled(range(seats), seed, "first-dealer")[0], ()
    contenders = tuple(range(seats))
    draws: list[DealerDraw] = []
    while len(contenders) > 1:
        deck = draw_cards(seed, f"first-dealer-{len(draws) + 1}", len(contenders))
        draw = tuple(zip(contenders, deck, strict=True))
        draws.append(draw)
        best = max(RANK[card] for _, card in draw)
        contenders = tuple(seat for seat, card in draw if RANK[card] == best)
    return contenders[0], tuple(draws)


def draw_cards(seed: int | str, label: str, count: int) -> list[int]:
    """``count`` cards off the top of a freshly shuffled deck.

    The first ``count`` steps of a Fisher-Yates shuffle over the seeded stream: the same
    draw as shuffling the whole deck, without paying for the other 52 - ``count`` steps.
    """
    stream = SeededStream(seed, label)
    deck = list(range(52))
    for index in range(count):
        other = index + stream.below(52 - index)
        deck[index], deck[other] = deck[other], deck[index]
    return deck[:count]


def dealer_events(dealer: int, draws: tuple[DealerDraw, ...]) -> tuple[Event, ...]:
    """What the TV shows of the first dealer's choice."""
    shown: list[Event] = []
    for number, draw in enumerate(draws, start=1):
        shown += [event("dealer_draw", seat, card=TEXT[card], draw=number) for seat, card in draw]
        if number < len(draws):
            best = max(RANK[card] for _, card in draw)
            tied = [seat for seat, card in draw if RANK[card] == best]
            shown.append(event("dealer_draw_tied", None, seats=tied))
    method = "high_card" if draws else "random"
    shown.append(event("dealer_chosen", dealer, method=method))
    return tuple(shown)


@dataclass(frozen=True, slots=True)
class Dealt:
    """A fresh round: hand masks per seat, the eight piles, the stock in drawing order."""

    hands: tuple[int, ...]
    piles: Piles
    stock: tuple[int, ...]
    events: tuple[Event, ...]


def deal_round(setup: Setup, round_number: int, dealer: int, with_events: bool = True) -> Dealt:
    """Deal one at a time clockwise from the dealer's left, then turn up the side piles.

    With ``kings_to_corners`` a King turned up for a side pile goes to the next empty
    corner (NE, SE, SW, NW) and another card is turned for that side.
    """
    seats = setup.seats
    deck = shuffled(range(52), setup.seed, f"round-{round_number}")
    hands = [0] * seats
    dealt = setup.deal * seats
    for offset in range(seats):  # one at a time: the k-th card goes to seat dealer + 1 + k
        mask = 0
        for card in deck[offset:dealt:seats]:
            mask |= BIT[card]
        hands[(dealer + 1 + offset) % seats] = mask
    events: list[Event] = []
    if with_events:
        events.append(
            event(
                "round_started",
                None,
                round=round_number,
                dealer=dealer,
                first_seat=(dealer + 1) % seats,
                deal=setup.deal,
            )
        )
    piles: list[tuple[int, ...]] = [()] * 8
    free_corners = list(CORNERS)
    position = dealt
    for side in SIDES:
        card = deck[position]
        position += 1
        while setup.kings_to_corners and BIT[card] & KING_MASK:
            corner = free_corners.pop(0)
            piles[corner] = (card,)
            if with_events:
                events.append(
                    event("king_to_corner_at_deal", None, card=TEXT[card], pile=PILES[corner])
                )
            card = deck[position]
            position += 1
        piles[side] = (card,)
        if with_events:
            events.append(event("pile_turned", None, card=TEXT[card], pile=PILES[side]))
    return Dealt(tuple(hands), tuple(piles), tuple(deck[position:]), tuple(events))
