"""The games Game Night knows, by the name used on the wire and on the command line."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any, Protocol, cast

from engine.errors import OptionError
from engine.game import Event, GameState
from engine.options import OptionSpec

GAME_MODULES: Mapping[str, str] = {
    "kings-corner": "engine.kings_corner",
    "five-crowns": "engine.five_crowns",
}


class GameRules(Protocol):
    """What a game package exports."""

    NAME: str
    MIN_SEATS: int
    MAX_SEATS: int
    OPTIONS: tuple[OptionSpec, ...]

    def new_game(
        self, seats: int, seed: int | str, options: Mapping[str, Any] | None = None
    ) -> GameState: ...

    def parse_action(self, wire: Mapping[str, Any]) -> Any: ...

    def state_from_dict(self, data: Mapping[str, Any]) -> GameState: ...

    def parse_position(self, text: str) -> GameState: ...

    def describe_event(self, event: Event) -> str: ...


def game_rules(name: str) -> GameRules:
    """The rules package of the game called ``name``; ``unknown_game`` otherwise."""
    module_name = GAME_MODULES.get(name)
    if module_name is None:
        raise OptionError("unknown_game", game=name)
    module = _LOADED.get(module_name)
    if module is None:  # imported once: the tables service asks at every move
        module = _LOADED[module_name] = importlib.import_module(module_name)
    return cast(GameRules, module)


_LOADED: dict[str, ModuleType] = {}
