"""How fast the Kings in the Corner engine is. Prints figures; asserts nothing.

    python benchmarks/kings_corner.py            # the full run (about half a minute)
    python benchmarks/kings_corner.py --quick    # a smoke run

Random full games: default options (a single round), each played to its real end. At
every step the seat to act lists its legal actions, a player picks one uniformly (ending
the turn included) and ``apply`` validates it against the list. The rates use the
thread's CPU time, which a busy machine's other processes do not inflate, best of a few
runs. Target: at least 2,500 four-player games per second on one core.

Legal-action listings: the positions of such games, each listed once, as in play (what
depends on the piles alone is carried from the position before) and cold (a position
read from its notation, nothing carried).
"""

from __future__ import annotations

import argparse
import copy
import gc
import random
import time
from collections.abc import Callable
from functools import partial

from engine.kings_corner import State, new_game, parse_position
from engine.playout import random_playout
from engine.registry import game_rules


def play_games(seats: int, first_seed: int, games: int) -> int:
    """Play ``games`` whole games; the number of actions applied."""
    actions = 0
    pick = random.Random(first_seed).random
    for seed in range(first_seed, first_seed + games):
        state = new_game(seats, seed)
        seat = state.current_seat
        while seat is not None:
            legal = state.legal_actions(seat)
            state, _ = state.apply(seat, legal[int(pick() * len(legal))])
            actions += 1
            seat = state.current_seat
    return actions


def best_rate(run: Callable[[], object], count: int, repeats: int) -> float:
    """``count`` divided by the best CPU time of ``repeats`` runs of ``run``."""
    best = float("inf")
    for _ in range(repeats):
        gc.collect()
        start = time.thread_time()
        run()
        best = min(best, time.thread_time() - start)
    return count / best


def positions(seats: int, games: int) -> list[tuple[State, int]]:
    """Positions of random games, each not yet listed, with the seat to act."""
    found = []
    for seed in range(games):
        chooser = random.Random(seed)
        state = new_game(seats, seed)
        while state.current_seat is not None:
            seat = state.current_seat
            found.append((copy.copy(state), seat))  # the copy keeps no list of actions yet
            legal = state.legal_actions(seat)
            state, _ = state.apply(seat, legal[chooser.randrange(len(legal))])
    return found


def list_each(sample: list[tuple[State, int]]) -> None:
    for state, seat in sample:
        state.legal_actions(seat)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run with few games")
    quick = parser.parse_args().quick
    games, repeats = (200, 2) if quick else (2_000, 5)

    print("Random full games, default options (list, pick uniformly, apply):")
    for seats in (2, 4, 6):
        actions = play_games(seats, 0, games)
        rate = best_rate(partial(play_games, seats, 0, games), games, repeats)
        print(
            f"  {seats} players: {rate:7,.0f} games/s"
            f"   ({actions / games:5.1f} actions a game, {rate * actions / games:9,.0f} actions/s)"
        )

    rules = game_rules("kings-corner")
    count = games // 4

    def through_playout() -> None:
        for seed in range(count):
            for _ in random_playout(rules, 4, seed, None, random.Random(seed)):
                pass

    rate = best_rate(through_playout, count, repeats)
    print(f"  4 players through engine.playout.random_playout: {rate:7,.0f} games/s")

    print("Legal-action listings, four-player game positions, each listed once:")
    sample = positions(4, games // 10)
    rate = best_rate(lambda: list_each(sample), len(sample), 1)
    print(f"  as in play: {rate:10,.0f} calls/s   ({len(sample)} positions)")
    cold = [(parse_position(state.to_position()), seat) for state, seat in sample]
    rate = best_rate(lambda: list_each(cold), len(cold), 1)
    print(f"  cold:       {rate:10,.0f} calls/s")


if __name__ == "__main__":
    main()
