"""A golden transcript: one whole four-player game under the default options.

Every event's English line, with the position after each action, so that a change to
the rules shows as a readable diff. Regenerate (after checking the change is wanted) with
``REGENERATE_GOLDEN=1 python -m pytest tests/engine/kings_corner/test_kc_golden.py``.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from engine.kings_corner import State, describe_event, new_game
from engine.playout import random_playout
from engine.registry import game_rules

GOLDEN = Path(__file__).parent / "golden" / "default_four_players.txt"
SEATS, SEED = 4, 2026


def transcript(seats: int = SEATS, seed: int = SEED) -> list[str]:
    """The lines of a whole random game, as ``random_playout`` plays it."""
    first = new_game(seats, seed)
    lines = [f"Kings in the Corner, {seats} players, seed {seed}, default options"]
    lines += [describe_event(event) for event in first.opening_events()]
    lines.append(f"    {first.to_position()}")
    state: State = first
    rules = game_rules("kings-corner")
    for step in random_playout(rules, seats, seed, None, random.Random(seed)):
        assert isinstance(step.state, State)
        state = step.state
        lines += [describe_event(event) for event in step.events]
        lines.append(f"    {state.to_position()}")
    outcome = state.outcome()
    assert outcome is not None
    lines.append(f"Outcome: {outcome.to_dict()}")
    return lines


def test_a_default_game_plays_as_recorded() -> None:
    text = "\n".join(transcript()) + "\n"
    if os.environ.get("REGENERATE_GOLDEN") == "1":
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")
