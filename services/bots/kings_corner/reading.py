"""What the others' turns tell about their hands, read from this seat's views in order.

A player who ends a turn while a card of theirs fits a pile top (or while they hold a
King and a corner is empty) has held back a play. Most players rarely do: so a seat
that ended its turn on a board probably holds none of the cards that fit it. The cards
it held a turn earlier also avoided that turn's board, except the card drawn since.
The read gives weights, never certainties: a person may hold back on purpose.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cards import KING, parse_card, standard_deck
from services.bots.kings_corner.board import CORNERS, fits_on

# The weight of a card that fitted the board a seat left, by how many turns ago
# (the last board weighs most: only the cards drawn since escaped it).
WEIGHT_BY_AGE = (0.03, 0.3, 0.6)
DECK = standard_deck()


def fitting(piles: Mapping[str, Any]) -> frozenset[str]:
    """The cards a seat could have played on these piles: onto the tops, Kings to corners."""
    top_cards = [parse_card(cards[-1]) for cards in piles.values() if cards]
    open_corner = any(not piles.get(name) for name in CORNERS)
    return frozenset(
        str(card)
        for card in DECK
        if (open_corner and card.rank == KING) or any(fits_on(card, top) for top in top_cards)
    )


class Reading:
    """The boards each other seat left at the end of its last turns, newest first."""

    def __init__(self) -> None:
        self.previous: Mapping[str, Any] | None = None
        self.left: dict[int, list[frozenset[str]]] = {}

    def observe(self, view: Mapping[str, Any]) -> None:
        before, self.previous = self.previous, view
        if before is None or before.get("round") != view.get("round"):
            self.left = {}
            return
        ended, now = before.get("current_seat"), view.get("current_seat")
        if ended is None or now is None or ended == now or ended == view.get("seat"):
            return
        counts, earlier = view.get("hand_counts") or [], before.get("hand_counts") or []
        if len(counts) != len(earlier) or counts[now] != earlier[now]:
            return  # views were missed: the board may no longer be the one it left
        boards = self.left.setdefault(int(ended), [])
        boards.insert(0, fitting(view.get("piles") or {}))
        del boards[len(WEIGHT_BY_AGE) :]

    def weights(self) -> dict[int, dict[str, float]]:
        """For each seat read, the weight (below 1) of each card it probably lacks."""
        out: dict[int, dict[str, float]] = {}
        for seat, boards in self.left.items():
            weighed: dict[str, float] = {}
            for age in reversed(range(len(boards))):  # the newest board has the last word
                for card in boards[age]:
                    weighed[card] = min(weighed.get(card, 1.0), WEIGHT_BY_AGE[age])
            out[seat] = weighed
        return out
