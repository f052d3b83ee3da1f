"""Which solver prices a hand: the compiled one if it was built, else ``swaps.SwapSolver``.

Both answer the same questions with the same numbers (``HandSolver``); the engine's
turns and views and the bots ask through here. ``solver_for`` shares one solver per
hand: the legal actions (ways out), the hint (best discard) and the bots ask about the
same hand in one turn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Protocol

from engine.cards import Card
from engine.five_crowns import swaps
from engine.five_crowns.compiled import core


class HandSolver(Protocol):
    """``hand`` solved once; the lowest penalties after throwing, drawing or swapping."""

    @property
    def hand(self) -> list[Card]: ...
    @property
    def keep(self) -> int: ...  # the hand's own lowest penalty
    @property
    def wilds(self) -> int: ...
    @property
    def wild_penalty(self) -> int: ...
    def penalty_less(self, card: Card) -> int: ...
    def after_discard(self, banned: Card | None = None, bound: int | None = None) -> int: ...
    def best_discard(self, choices: Iterable[Card]) -> tuple[Card, int]: ...
    def ways_out(self) -> list[Card]: ...
    def whole_after(self, card: Card) -> int: ...
    def after_swap(
        self, card: Card, banned: Card | None = None, bound: int | None = None
    ) -> int: ...
    def after_swap_apart(self) -> int | None: ...
    def near_slots(self) -> set[int]: ...
    def suit_near_slots(self) -> set[int]: ...
    def may_meld(self, card: Card) -> bool: ...
    def draw_at_most(self, unseen: Mapping[Card, int], taking: int) -> bool: ...


_new: Callable[[Sequence[Card], int], HandSolver] = (
    swaps.SwapSolver if core is None else core.Solver
)


def new_solver(hand: Sequence[Card], wild_rank: int) -> HandSolver:
    """A solver of ``hand`` of its own (its caches are not shared)."""
    return _new(hand, wild_rank)


_solvers: dict[tuple[tuple[Card, ...], int], HandSolver] = {}
_SOLVERS_LIMIT = 1 << 10


def solver_for(hand: Sequence[Card], wild_rank: int) -> HandSolver:
    """A shared solver of ``hand`` (its answers are pure)."""
    if core is None:
        return swaps.solver_for(hand, wild_rank)  # builds from a recent hand's groups
    key = (tuple(hand), wild_rank)
    found = _solvers.get(key)
    if found is None:
        if len(_solvers) >= _SOLVERS_LIMIT:
            _solvers.clear()  # bounded, like the meld search's memo
        found = _solvers[key] = core.Solver(key[0], wild_rank)
    return found
