"""``gamenight simulate``: a readable transcript of a whole game played by random players."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from engine.playout import random_playout
from engine.registry import game_rules


def parse_option(text: str) -> tuple[str, Any]:
    """Read ``name=value``; values are booleans, integers or words."""
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise ValueError(f"an option is name=value, not {text!r}")
    lowered = raw.lower()
    value: Any
    if lowered in ("true", "yes", "on"):
        value = True
    elif lowered in ("false", "no", "off"):
        value = False
    else:
        try:
            value = int(raw)
        except ValueError:
            value = raw
    return name.replace("-", "_"), value


def transcript(
    game: str, players: int, seed: int, options: Mapping[str, Any] | None = None
) -> Iterator[str]:
    """The lines of a whole random game: every event, then the outcome."""
    rules = game_rules(game)
    first = rules.new_game(players, seed, options)
    yield f"{game}: {players} players, seed {seed}, options {first.view_for(None)['options']}"
    for event in first.opening_events():
        yield rules.describe_event(event)
    yield f"start: {first.to_position()}"
    for step in random_playout(rules, players, seed, options, random.Random(seed)):
        for event in step.events:
            yield rules.describe_event(event)
