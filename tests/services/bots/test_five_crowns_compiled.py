"""The bots play the same games, choice for choice, with the compiled solver or the
pure-Python one (the engine's fallback)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.five_crowns.compiled import PURE_PYTHON, core

ROOT = Path(__file__).resolve().parents[3]

# Prints a hash of every choice of one game: a hard seat among normals, big hands.
GAME = """
import hashlib, json
from services.bots.arena import play_game
from services.bots.players import make_player

chosen = []

class Recorded:
    def __init__(self, game, level, seed):
        self.player = make_player(game, level, seed)
    def observe(self, view):
        self.player.observe(view)
    def choose(self, view):
        action = self.player.choose(view)
        chosen.append(json.dumps(action, sort_keys=True))
        return action

levels = ["hard", "normal", "normal", "normal"]
result = play_game("five-crowns", levels, "same-choices", {"start_round": 8}, factory=Recorded)
print(len(chosen), hashlib.sha256("\\n".join(chosen).encode()).hexdigest(), result)
"""


def _play(pure: bool) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop(PURE_PYTHON, None)
    if pure:
        env[PURE_PYTHON] = "1"
    result = subprocess.run(
        [sys.executable, "-c", GAME], cwd=ROOT, capture_output=True, text=True, timeout=240, env=env
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.mark.skipif(core is None, reason="the compiled solver is not built here")
def test_the_bots_choose_the_same_with_either_solver() -> None:
    compiled, pure = _play(pure=False), _play(pure=True)
    assert int(compiled.split()[0]) > 50  # a whole game of choices
    assert compiled == pure
