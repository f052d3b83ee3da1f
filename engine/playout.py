"""Random legal playouts, used by the simulator, the benchmarks and the property tests."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from engine.game import Event, GameState
from engine.registry import GameRules


@dataclass(frozen=True, slots=True)
class Step:
    """One thing that happened in a playout: an action by a seat, or a new round."""

    seat: int | None
    action: Any
    events: tuple[Event, ...]
    state: GameState


def random_playout(
    rules: GameRules,
    seats: int,
    seed: int | str,
    options: Mapping[str, Any] | None = None,
    chooser: random.Random | None = None,
    max_steps: int = 100_000,
) -> Iterator[Step]:
    """Play a whole game (every round) with players who pick uniformly among legal actions.

    ``chooser`` is passed in, never the global generator, so a playout is reproducible.
    """
    chooser = chooser or random.Random(0)
    state = rules.new_game(seats, seed, options)
    for _ in range(max_steps):
        seat = state.current_seat
        if seat is None:
            if not state.can_start_next_round():
                return
            state, events = state.start_next_round()
            yield Step(None, None, events, state)
            continue
        actions = state.legal_actions(seat)
        action = actions[chooser.randrange(len(actions))]
        state, events = state.apply(seat, action)
        yield Step(seat, action, events, state)
    raise RuntimeError(f"playout did not end within {max_steps} steps")
