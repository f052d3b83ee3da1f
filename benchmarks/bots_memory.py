"""The Five Crowns ``normal`` bots' memory over many games: the solver's and the bots'
caches are bounded, so a long-running bots service must stay flat. Prints figures;
asserts nothing.

    python -m benchmarks.bots_memory              # 300 four-seat games, RSS every 50
    python -m benchmarks.bots_memory --games 100 --every 20
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from engine.five_crowns import meld_search, melds, swaps
from services.bots.arena import play_game
from services.bots.five_crowns import values


def resident_mb() -> int:
    """This process's resident memory now, in MB (Linux)."""
    with Path("/proc/self/status").open(encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bots_memory", description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--every", type=int, default=50)
    args = parser.parse_args(argv)
    started = time.process_time()
    for deal in range(args.games):
        play_game("five-crowns", ["normal"] * 4, f"mem:{deal}")
        if (deal + 1) % args.every == 0:
            print(
                f"after {deal + 1} games: RSS {resident_mb()} MB; entries: meld search"
                f" {len(meld_search._memo)}, hand penalties {len(melds._penalties)}, solvers"
                f" {len(swaps._solvers)}, draw pricers {len(values._pricers)}",
                flush=True,
            )
    cpu = time.process_time() - started
    print(f"{args.games} games, {args.games / cpu:.2f} games per CPU second", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
