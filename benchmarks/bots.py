"""The computer players' standard matchups, in the arena. Prints figures; asserts nothing.

    python -m benchmarks.bots                 # every matchup, 1,000 games each (long)
    python -m benchmarks.bots --games 40      # a quick look
    python -m benchmarks.bots --only fc-hard-4

Targets (issue 12): Five Crowns hard >= 55% heads-up against normal and >= 31% against
three normals (fair share 25%); Kings in the Corner hard >= 55% heads-up against normal;
hard decisions p99 <= 200 ms; four-seat Five Crowns games between normals >= 36 a second
on one core. The machine may be shared: wall-clock times are noisy there; the CPU-time
figures beside them are what a busy machine does not inflate.
"""

from __future__ import annotations

import argparse
import sys

from services.bots.arena import run_arena

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bots", description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", action="append", choices=sorted(MATCHUPS), default=[])
    args = parser.parse_args(argv)
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
