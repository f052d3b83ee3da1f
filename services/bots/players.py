"""One interface for every computer player: ``make_player(game, level, seed)``.

A player is given its own seat's views only (what that seat's phone shows): ``observe``
with every view, in order, and ``choose`` when it is to act, which answers one of the
view's ``legal_actions``. The bots service, the hint and the arena all use this.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, Protocol

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"
HINT_LEVEL = "normal"  # the level whose choice a phone's "what should I play?" shows
# Measuring only (the arena's ceiling): it is handed every hand, which no seat may see.
OMNISCIENT = "omniscient"

_PACKAGES: Mapping[str, str] = {
    "kings-corner": "services.bots.kings_corner",
    "five-crowns": "services.bots.five_crowns",
}


class Player(Protocol):
    """A computer player for one seat."""

    def observe(self, view: Mapping[str, Any]) -> None: ...

    def choose(self, view: Mapping[str, Any]) -> dict[str, Any]: ...


class UnknownPlayerError(ValueError):
    """No such game or level."""


def make_player(game: str, level: str, seed: int | str) -> Player:
    """A new player of ``level`` for ``game``; ``seed`` makes its random choices repeatable."""
    package = _PACKAGES.get(game)
    if package is None:
        raise UnknownPlayerError(f"unknown game {game!r}")
    if level not in (*LEVELS, OMNISCIENT):
        raise UnknownPlayerError(f"unknown level {level!r} (one of {', '.join(LEVELS)})")
    module = importlib.import_module(f"{package}.{level}")
    player: Player = module.Player(seed)
    return player


def hint_action(game: str, view: Mapping[str, Any]) -> dict[str, Any] | None:
    """What the hint level would play from this seat view (None: nothing to do).

    A fresh player: it has not followed the game, so it judges from this view alone.
    """
    if not view.get("legal_actions"):
        return None
    player = make_player(game, HINT_LEVEL, "hint")
    player.observe(view)
    return player.choose(view)
