"""The computer players' standard matchups, in the arena. Prints figures; asserts nothing.

    python -m benchmarks.bots                 # every matchup, 1,000 games each (long)
    python -m benchmarks.bots --games 40      # a quick look
    python -m benchmarks.bots --only fc-hard-4
    python -m benchmarks.bots --decisions 30  # fc normal: 30 distinct deals, choices hashed
    GAMENIGHT_PURE_PYTHON=1 python -m benchmarks.bots --decisions 30  # without the C solver

Targets (issue 12): Five Crowns hard >= 55% heads-up against normal and >= 31% against
three normals (fair share 25%); Kings in the Corner hard >= 55% heads-up against normal;
hard decisions p99 <= 200 ms; four-seat Five Crowns games between normals >= 36 a second
on one core. The machine may be shared: wall-clock times are noisy there; the CPU-time
figures beside them are what a busy machine does not inflate.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Mapping
from typing import Any

from engine.five_crowns import compiled
from services.bots.arena import play_game, run_arena
from services.bots.players import Player, make_player

# name: (game, a, b, seats)
MATCHUPS: dict[str, tuple[str, str, str, int]] = {
    "fc-hard-2": ("five-crowns", "hard", "normal", 2),
    "fc-hard-4": ("five-crowns", "hard", "normal", 4),
    "fc-normal-easy-2": ("five-crowns", "normal", "easy", 2),
    "fc-normal-4": ("five-crowns", "normal", "normal", 4),  # the speed figure
    "kc-hard-2": ("kings-corner", "hard", "normal", 2),
    "kc-hard-4": ("kings-corner", "hard", "normal", 4),
    "kc-normal-easy-2": ("kings-corner", "normal", "easy", 2),
    # The ceilings: a measuring-only player that sees every hand (never offered at a table).
    "kc-omniscient-2": ("kings-corner", "omniscient", "normal", 2),
    "fc-omniscient-2": ("five-crowns", "omniscient", "normal", 2),
    "fc-omniscient-4": ("five-crowns", "omniscient", "normal", 4),
}


SPEED_MATCHUP = "fc-normal-4"
SPEED_TARGET = 36  # games per second on one core (issue 12)


def decisions(games: int) -> None:
    """Four ``normal`` Five Crowns bots on ``games`` distinct deals (no deal repeated, so
    no game repeats another's solves): games per CPU second, and a hash of every choice
    made, to show that a speed-up left the decisions unchanged (same hash before and
    after)."""
    chosen: list[str] = []

    class Recorded:
        def __init__(self, player: Player) -> None:
            self.player = player

        def observe(self, view: Mapping[str, Any]) -> None:
            self.player.observe(view)

        def choose(self, view: Mapping[str, Any]) -> dict[str, Any]:
            action = self.player.choose(view)
            chosen.append(json.dumps(action, sort_keys=True))
            return action

    def factory(game: str, level: str, seed: int | str) -> Player:
        return Recorded(make_player(game, level, seed))

    started = time.process_time()
    for deal in range(games):
        play_game("five-crowns", ["normal"] * 4, f"rec:{deal}", factory=factory)
    cpu = time.process_time() - started
    digest = hashlib.sha256("\n".join(chosen).encode()).hexdigest()[:16]
    solver = "pure-Python solver" if compiled.core is None else "compiled solver"
    print(
        f"[fc-normal-4 distinct deals] {games} games, {len(chosen)} decisions,"
        f" choices hash {digest}; {games / cpu:.2f} games per CPU second ({solver})",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bots", description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", action="append", choices=sorted(MATCHUPS), default=[])
    parser.add_argument(
        "--decisions", type=int, default=0, metavar="N", help="only the choices hash (N games)"
    )
    args = parser.parse_args(argv)
    if args.decisions:
        decisions(args.decisions)
        return 0
    for name in args.only or list(MATCHUPS):
        game, a, b, seats = MATCHUPS[name]
        report = run_arena(game, a, b, seats, args.games, args.seed)
        print(f"[{name}]", *report.lines(), sep="\n", flush=True)
        if name == SPEED_MATCHUP:
            per_cpu = len(report.records) / report.cpu_seconds if report.cpu_seconds else 0.0
            print(
                f"  speed: {per_cpu:.2f} games per CPU second"
                f" (target >= {SPEED_TARGET}; CPU time, as the machine may be shared)",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
