"""Starting a game: the first dealer, then the first deal."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from engine.game import Event
from engine.kings_corner.deal import choose_first_dealer, dealer_events
from engine.kings_corner.setup import Setup, check_options
from engine.kings_corner.state import State
from engine.kings_corner.tables import RANK


def new_game(seats: int, seed: int | str, options: Mapping[str, Any] | None = None) -> State:
    """The first round of a new game, dealt; raise ``OptionError`` for impossible settings."""
    resolved = check_options(seats, seed, options)
    dealer, draws = choose_first_dealer(seats, seed, resolved["first_dealer"])
    setup = Setup(seats, seed, MappingProxyType(resolved), draws)
    state, _ = State.deal(setup, 1, dealer, (0,) * seats, (), with_events=False)
    return state


def first_dealer(setup: Setup) -> int:
    """The first dealer, as the recorded high-card draws (or the seeded pick) chose."""
    if setup.dealer_draws:
        final = setup.dealer_draws[-1]
        return max(final, key=lambda drawn: RANK[drawn[1]])[0]
    return choose_first_dealer(setup.seats, setup.seed, "random")[0]


def opening_events(setup: Setup) -> tuple[Event, ...]:
    """The events of the game's beginning: the first dealer's choice and the first deal."""
    dealer = first_dealer(setup)
    _, dealt = State.deal(setup, 1, dealer, (0,) * setup.seats, ())
    return (*dealer_events(dealer, setup.dealer_draws), *dealt)
