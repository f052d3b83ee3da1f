"""How promising a hand is to keep: the one measure ``hard`` judges its discards and its
draws by.

A kept hand's outlook is the expected lowest penalty it would leave after each of its next
``draws`` stock cards (``values.expected_lowest_of_draws``): it counts the outs, the cards
that would meld, where the mean of one draw sees only the next turn. Lower is better.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from engine.cards import Card
from services.bots.five_crowns.values import (
    discard_ranking,
    expected_lowest_of_draws,
    kinds,
    pricer_for,
)


class Outlook:
    """Outlooks of the hands one decision may keep, each computed once."""

    def __init__(self, wild_rank: int, unseen: Counter[Card], draws: int) -> None:
        self.wild_rank = wild_rank
        self.unseen = unseen
        self.draws = draws
        self._known: dict[tuple[Card, ...], float] = {}

    def of(self, kept: Sequence[Card]) -> float:
        key = tuple(sorted(kept))
        found = self._known.get(key)
        if found is None:
            found = expected_lowest_of_draws(kept, self.wild_rank, self.unseen, self.draws)
            self._known[key] = found
        return found

    def best_discard(
        self, taken: Sequence[Card], choices: Iterable[Card], candidates: int
    ) -> tuple[float, Card]:
        """The discard, among the solver's ``candidates`` best, that keeps the best
        outlook, and that outlook (0 when the hand goes out)."""
        ranked = discard_ranking(taken, self.wild_rank, choices)
        if ranked[0][0] == 0:
            return 0.0, ranked[0][1]
        best: tuple[float, Card] | None = None
        for _, card in ranked[:candidates]:
            kept = list(taken)
            kept.remove(card)
            value = self.of(kept)
            if best is None or value < best[0]:
                best = (value, card)
        assert best is not None
        return best

    def after_stock(self, hand: Sequence[Card], candidates: int) -> float:
        """The expected outlook after a stock draw: each card the stock may bring, kept
        with the best of the solver's first ``candidates`` discards, or thrown back.
        Only the cards that could meld, or lower the penalty in place of a worse card, are
        looked at: the others go straight back."""
        as_is = self.of(hand)
        pricer = pricer_for(hand, self.wild_rank)
        cards = kinds(self.unseen, self.wild_rank)
        total = 0.0
        for card, copies in cards.items():
            ceiling, settled, _ = pricer.kind(card)
            if settled and ceiling >= pricer.keep:
                # It melds with nothing and lowers nothing: thrown back.
                total += copies * as_is
            else:
                taken = [*hand, card]
                total += copies * min(as_is, self.best_discard(taken, taken, candidates)[0])
        return total / sum(cards.values())
