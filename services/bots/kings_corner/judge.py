"""A quick judgement of the board a turn leaves, before any play-out (``hard`` ranks its
endings with it and plays out only the best few).

Higher is better for the seat: each card shed counts one; each card the next seats may
shed on the board left counts against, by the chance that they hold it. An unseen card
is in a hand of ``n`` cards with a chance of about ``n * w / W``: its weight ``w`` (low
if the read says that seat lacks it) over the weights of every unseen card. The cards
unseen do not change during our turn (what we play goes from our hand to the piles), so
those chances are worked out once per turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.cards import BLACK_SUITS, KING, RED_SUITS, Card, standard_deck
from engine.kings_corner import State
from services.bots.kings_corner.board import CORNERS, Tops

WIN = 1000.0
# The next seat matters most, then the one after (it plays on what the next one leaves).
THREAT_WEIGHT = (0.7, 0.3, 0.15, 0.1, 0.05)
OWN_WEIGHT = 0.1  # a card of ours that fits the board left (others may take the spot)
FREE_SPOT = 1.0  # an empty side spot takes any card: a sure shed for whoever is next
DECK = frozenset(standard_deck())
BELOW: dict[Card, tuple[Card, ...]] = {
    card: tuple(
        Card(card.rank - 1, suit)
        for suit in sorted(BLACK_SUITS if card.is_red else RED_SUITS)
        if card.rank > 1
    )
    for card in DECK
}
KINGS = tuple(sorted(card for card in DECK if card.rank == KING))


class Judge:
    """The quick judgement for one turn of ``seat``, from the position it starts in."""

    def __init__(
        self, state: State, seat: int, weights: Mapping[int, Mapping[Card, float]]
    ) -> None:
        visible = set(state.hand(seat))
        for pile in state.piles.values():
            visible.update(pile)
        unseen = DECK - visible
        counts = state.hand_counts
        seats = len(counts)
        # chance[card]: the next seats' threat-weighted chances of holding it.
        chance = dict.fromkeys(unseen, 0.0)
        self.free = 0.0  # what an empty side spot gives them
        for step, weight in enumerate(THREAT_WEIGHT[: seats - 1], start=1):
            other = (seat + step) % seats
            if not counts[other]:
                continue
            weighed = weights.get(other, {})
            share = counts[other] / (sum(weighed.get(card, 1.0) for card in unseen) or 1.0)
            for card in unseen:
                chance[card] += weight * min(1.0, share * weighed.get(card, 1.0))
            self.free += weight * FREE_SPOT
        self.offer = {top: sum(chance.get(card, 0.0) for card in BELOW[top]) for top in DECK}
        self.corner = sum(chance.get(king, 0.0) for king in KINGS)

    def score(self, hand: Sequence[Card], top: Tops) -> float:
        """How good the board ``top`` and ``hand`` left at the end of the turn look."""
        if not hand:
            return WIN
        threat = 0.0
        corner_open = False
        cards = set(hand)
        own = 0
        for name, card in top.items():
            if card is None:
                if name in CORNERS:
                    corner_open = True
                else:
                    threat += self.free
                continue
            threat += self.offer[card]
            own += sum(1 for below in BELOW[card] if below in cards)
        if corner_open:
            threat += self.corner
        return -len(hand) - threat + OWN_WEIGHT * own
