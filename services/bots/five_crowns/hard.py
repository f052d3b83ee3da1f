"""Five Crowns, ``hard``: remembers, reads the others, samples and looks one turn ahead.

- It remembers the public events (who took which card from the pile, who threw what),
  so the cards others collect are not counted as possible stock cards.
- Each discard it considers is judged by the expected penalty after its next draw and
  discard: even when another seat goes out first, this seat still has that one last
  turn (rules: everyone else plays once more), so the penalty it holds now never counts
  as it is. When the round goes on past that turn, more draws may lower the hand, so the
  penalty then weighs less (``goes_on_weight``): a discard that lets the round end (the
  next seat goes out with it) costs more the worse this seat's hand. How likely the
  round ends comes from sampling the others' hands consistently with what it knows
  (determinisation): their taken cards plus unseen cards, and whether each sampled
  hand could go out on its next turn, taking the card thrown to it or a stock card.
- Late in a round, when someone has gone out, only the penalty now counts (damage
  limitation), and a card that would let the next player go out is kept when it can.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.cards import Card
from engine.five_crowns.solvers import HandSolver, new_solver
from services.bots.base import seeded_random
from services.bots.five_crowns import normal
from services.bots.five_crowns.common import allowed_discards, discard_of, hand_of
from services.bots.five_crowns.values import discard_ranking, expected_after_draw

CANDIDATES = 4  # discards looked at beyond the solver's best
SAMPLES = 6  # sampled hands per other seat


class Player(normal.Player):
    """Draws like ``normal`` (with the others' taken cards known), discards by look-ahead."""

    # How much the expected penalty after the next turn weighs when the round goes on past
    # it (1 when it ends there). Measured in the arena (200 four-seat games each): 0.3,
    # 0.6 and 1 alike; judging by the penalty now instead (the old rule) was worse.
    goes_on_weight = 0.6
    # Measured and not kept (400 four-seat games on the same deals as this rule, --seed 7,
    # where this rule won 29.2%; paired differences with 95% intervals). Denying the next
    # seat the thrown card: its penalty drop on taking it (over its sampled hands), weight
    # 0.3 a point: -2.4% (-5.1 .. +0.3); its gain over its own stock draw, only for cards
    # that meld with what it visibly took, weight 0.5: -0.6% (-2.1 .. +0.9). Always taking
    # a wild from the pile before the last turn: -0.5% (-1.2 .. +0.2).
    # Looking only at discards within 12 points of the best one now left wilds out (seed 7,
    # 2000 games, paired: dropping that cut +0.7% (+0.3 .. +1.1), score -1.1 a game).
    # Choosing the pile or the stock by the expected penalty after the next turn too (the
    # two best discards of each drawn card, then ``expected_after_draw``): 30.6% against
    # 30.4% (seed 11, 1000 games each, same deals), score -0.9 a game, at 30x the time
    # (decision p99 ~100 ms): not kept. Four times the sampled hands (24 a seat): 29.6%
    # against 30.4% (seed 11, 1000 games): not kept.
    # Measured on 4000 games (seed 101, where this rule won 29.6%, 28.8 .. 30.5), paired
    # on the same deals, none kept: a bonus for the chance of going out on the next draw
    # (the others' penalties grow the sooner a round ends), 0.5 or 1.5 points a card
    # dealt per other seat: +0.3% (-0.2 .. +0.7), +0.3% (-0.3 .. +0.9); that bonus only
    # when behind in the last three rounds: +0.2% (-0.3 .. +0.6); with six candidates and
    # the next seat's wants as a tie-break (0.3 or 1 a point of closeness): 29.8% both.
    # Judging a discard by two draws ahead (8 sampled first draws, each answered by the
    # solver's discard): -1.1% (-2.3 .. +0.1) on 2000 games, at 6x the time.

    def __init__(self, seed: int | str) -> None:
        super().__init__(seed)
        self.random = seeded_random(seed, "five-crowns-hard")

    def unseen(self, view: Mapping[str, Any]) -> Counter[Card]:
        return self.memory.unseen(view)

    def discard(self, view: Mapping[str, Any], actions: Any) -> dict[str, Any]:
        hand, wild_rank = hand_of(view), int(view["wild_rank"])
        ranked = discard_ranking(hand, wild_rank, allowed_discards(actions))
        seat = int(view["seat"])
        others = _others_in_order(view, seat)
        if view.get("went_out") is not None or not others:
            return self._safest(view, actions, hand, ranked, others)
        unseen = self.unseen(view)
        samples = self._sample_others(view, others, unseen)
        chance_round_ends = self._round_end_risk(samples, wild_rank, unseen)
        best: tuple[float, Card] | None = None
        # No cut on the penalty now: keeping a wild (a joker is 50 now) is often far worse
        # now and far better after the next draw.
        for _, card in ranked[: CANDIDATES + 1]:
            kept = list(hand)
            kept.remove(card)
            ends = chance_round_ends(card)
            later = expected_after_draw(kept, wild_rank, unseen)
            score = later * (ends + (1 - ends) * self.goes_on_weight)
            if best is None or score < best[0]:
                best = (score, card)
        assert best is not None
        return discard_of(actions, best[1]) or actions[0]

    def _safest(
        self,
        view: Mapping[str, Any],
        actions: Any,
        hand: list[Card],
        ranked: list[tuple[int, Card]],
        others: list[int],
    ) -> dict[str, Any]:
        """The last turn (or no one else to fear): the lowest penalty now, and among equal
        ones the card the next player is least likely to want."""
        best_now = ranked[0][0]
        ties = [card for now, card in ranked if now == best_now]
        if len(ties) > 1 and others:
            wanted = self.memory.held.get(others[0], Counter())
            ties.sort(key=lambda card: _closeness(card, wanted))
        return discard_of(actions, ties[0]) or actions[0]

    def _sample_others(
        self, view: Mapping[str, Any], others: list[int], unseen: Counter[Card]
    ) -> list[list[list[Card]]]:
        """``SAMPLES`` hands for each other seat: its known taken cards, the rest unseen."""
        size = int(view["cards_dealt"])
        pool = list(unseen.elements())
        hands: list[list[list[Card]]] = [[] for _ in others]
        for _ in range(SAMPLES):
            self.random.shuffle(pool)
            rest = iter(pool)
            for index, other in enumerate(others):
                known = list(self.memory.held.get(other, Counter()).elements())[:size]
                hands[index].append(known + [next(rest) for _ in range(size - len(known))])
        return hands

    def _round_end_risk(
        self, samples: list[list[list[Card]]], wild_rank: int, unseen: Counter[Card]
    ) -> Callable[[Card], float]:
        """How likely some other seat goes out before this seat plays again, for each card
        this seat may throw: the next seat may take it; anyone may draw a stock card.

        The stock draws do not depend on the thrown card: they are drawn and solved once
        per decision, and each next-seat sample is solved once for every thrown card.
        """
        pool = list(unseen.elements())
        stays_later = 1.0  # nobody after the next seat goes out
        for hands in samples[1:]:
            out = sum(1 for hand in hands if self._out_by_stock(new_solver(hand, wild_rank), pool))
            stays_later *= 1 - out / len(hands)
        solvers = [new_solver(hand, wild_rank) for hand in samples[0]] if samples else []
        by_stock = [self._out_by_stock(solver, pool) for solver in solvers]

        def chance(thrown: Card) -> float:
            if not solvers:
                return 1 - stays_later
            out = sum(
                1
                for solver, drawing in zip(solvers, by_stock, strict=True)
                if drawing or solver.after_swap(thrown, bound=1) == 0
            )
            return 1 - (1 - out / len(solvers)) * stays_later

        return chance

    def _out_by_stock(self, solver: HandSolver, pool: list[Card]) -> bool:
        drawn = _pick(self.random, pool)
        return drawn is not None and solver.after_swap(drawn, bound=1) == 0


def _others_in_order(view: Mapping[str, Any], seat: int) -> list[int]:
    """The other seats dealt this round, in turn order after ``seat``."""
    players: Sequence[int] = view.get("players") or ()
    if seat not in players:
        return []
    start = list(players).index(seat)
    return [players[(start + step) % len(players)] for step in range(1, len(players))]


def _pick(chooser: random.Random, pool: list[Card]) -> Card | None:
    return chooser.choice(pool) if pool else None


def _closeness(card: Card, wanted: Counter[Card]) -> int:
    """How near ``card`` is to what a seat collects (0: nothing in common)."""
    near = 0
    for other in wanted.elements():
        if other.rank == card.rank or (other.suit == card.suit and abs(other.rank - card.rank) < 3):
            near += 1
    return near
