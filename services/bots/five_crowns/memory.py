"""What a seat can remember of a round from its own views: the discard pile and who took
or threw which card. Everything here is public (the TV shows it too).

Views may be missed (the bots service can lose one): whenever the pile no longer agrees
with what was remembered, the memory starts again from the visible top card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from engine.cards import Card, parse_card
from engine.five_crowns.deck import full_deck


class RoundMemory:
    """The public history of the current round, as one seat saw it."""

    def __init__(self) -> None:
        self.round_key: tuple[Any, ...] | None = None
        self.pile: list[Card] = []  # the discard pile as far as known, top last
        self.held: dict[int, Counter[Card]] = {}  # cards seats took from the pile, still held
        self.thrown: dict[int, list[Card]] = {}  # cards each seat threw this round
        # Of the view before: the pile's size and whose turn it was (None: no view yet).
        self.last_count: int | None = None
        self.last_seat: Any = None

    def observe(self, view: Mapping[str, Any]) -> None:
        key = (view.get("round"), view.get("dealer"), view.get("first_round"))
        top = _card(view.get("discard_top"))
        count = int(view.get("discard_count") or 0)
        if key != self.round_key:
            self.round_key, self.held, self.thrown = key, {}, {}
            self.pile = [top] if top is not None else []
        elif self.last_count is not None:
            self._follow(self.last_count, self.last_seat, view, top, count)
        self.last_count, self.last_seat = count, view.get("current_seat")

    def _follow(
        self, previous: int, actor: Any, view: Mapping[str, Any], top: Card | None, count: int
    ) -> None:
        if count == previous + 1 and top is not None and isinstance(actor, int):
            self.pile.append(top)
            self.thrown.setdefault(actor, []).append(top)
            held = self.held.get(actor)
            if held and held[top]:
                held[top] -= 1
        elif count == previous - 1 and view.get("taken_from_discard") is not None:
            taken = _card(view["taken_from_discard"])
            taker = view.get("current_seat")
            if self.pile:
                self.pile.pop()
            if taken is not None and isinstance(taker, int):
                self.held.setdefault(taker, Counter())[taken] += 1
        elif count != previous:
            self.pile = [top] if top is not None else []  # a reshuffle, or views missed
        if (self.pile[-1] if self.pile else None) != top:
            self.pile = [top] if top is not None else []

    def unseen(self, view: Mapping[str, Any]) -> Counter[Card]:
        """The cards this seat has not seen: where the next stock card comes from."""
        packs = int((view.get("options") or {}).get("packs", 1))
        remaining = dict(_deck_counts(packs))  # a plain dict: Counter's methods are slow
        for text in view.get("hand", ()):
            card = parse_card(text)
            remaining[card] = remaining.get(card, 0) - 1
        # Cards known not to be in the stock: the pile, and what others took from it
        # and still hold (counted off one by one: every draw choice asks this).
        for card in self.pile:
            remaining[card] = remaining.get(card, 0) - 1
        seat = int(view["seat"])
        for other, cards in self.held.items():
            if other != seat:
                for card, copies in cards.items():
                    if copies > 0:
                        remaining[card] = remaining.get(card, 0) - copies
        return Counter({card: copies for card, copies in remaining.items() if copies > 0})


@lru_cache(maxsize=4)
def _deck_counts(packs: int) -> dict[Card, int]:
    return dict(Counter(full_deck(packs)))


def _card(text: object) -> Card | None:
    return parse_card(text) if isinstance(text, str) else None
