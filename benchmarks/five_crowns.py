"""How fast the Five Crowns meld solver and engine are. Prints figures; asserts nothing.

    python benchmarks/five_crowns.py            # the full run (about half a minute)
    python benchmarks/five_crowns.py --quick    # a smoke run

Every solve is timed cold (the solver's memo is cleared first), so a figure is what a
hand never seen before costs. Times are the thread's CPU time, which a busy machine's
other processes do not inflate; the wall-clock p99 and max are printed beside them.
Targets: a 13-card solve p99 <= 1 ms and never over 5 ms; the best discard from 14 cards
p99 <= 10 ms.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence

from engine.cards import JOKER, Card
from engine.five_crowns.deck import SUITS, full_deck
from engine.five_crowns.melds import best_arrangement, best_discard, clear_cache, min_penalty
from engine.playout import random_playout
from engine.registry import game_rules

DECK = full_deck()
KINGS = 13  # round 11: 13 cards dealt, kings wild


Timings = tuple[list[float], list[float]]


def timed(solve: Callable[[Sequence[Card]], object], hands: list[list[Card]]) -> Timings:
    """Milliseconds per hand, each solved cold: (CPU times, wall-clock times)."""
    gc.collect()
    cpu, wall = [], []
    for hand in hands:
        clear_cache()
        start, start_cpu = time.perf_counter(), time.thread_time()
        solve(hand)
        cpu.append((time.thread_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    return cpu, wall


def p99(times: list[float]) -> float:
    return sorted(times)[min(len(times) - 1, int(len(times) * 0.99))]


def report(label: str, timings: Timings) -> None:
    cpu, wall = timings
    print(
        f"  {label:<42} n={len(cpu):>5}  median {statistics.median(cpu):5.3f}"
        f"  p99 {p99(cpu):5.3f}  max {max(cpu):5.3f} ms"
        f"   (wall p99 {p99(wall):5.3f}  max {max(wall):6.3f})"
    )


def random_hands(rng: random.Random, count: int, size: int) -> list[list[Card]]:
    return [rng.sample(DECK, size) for _ in range(count)]


def dense_hand(
    rng: random.Random, wilds: int, suits: int, width: int, size: int = 13
) -> list[Card]:
    """``size`` cards: ``wilds`` wilds, the rest from a few suits and a narrow rank band."""
    chosen = rng.sample(SUITS, suits)
    low = rng.randint(3, 12 - width)
    pool = [
        c for c in DECK if c.suit in chosen and low <= c.rank <= low + width and c.rank != KINGS
    ]
    wild_pool = [c for c in DECK if c == JOKER or c.rank == KINGS]
    naturals = rng.sample(pool, min(len(pool), size - wilds))
    return naturals + rng.sample(wild_pool, size - len(naturals))


def cost(hand: Sequence[Card]) -> float:
    """The CPU time of a cold solve of ``hand`` (the better of two)."""
    best = float("inf")
    for _ in range(2):
        clear_cache()
        start = time.thread_time()
        best_arrangement(hand, KINGS)
        best = min(best, time.thread_time() - start)
    return best


def hill_climb(rng: random.Random, steps: int) -> list[Card]:
    """A local search for the slowest hand: swap one card for another from the pack."""
    hand = rng.sample(DECK, 13)
    worst = cost(hand)
    for _ in range(steps):
        candidate = list(hand)
        spare = list((Counter(DECK) - Counter(candidate)).elements())
        index = rng.randrange(13)
        near = [c for c in spare if c.suit == hand[index].suit or c.rank == hand[index].rank]
        candidate[index] = rng.choice(near if near and rng.random() < 0.7 else spare)
        seconds = cost(candidate)
        if seconds > worst:
            hand, worst = candidate, seconds
    return hand


def adversarial_hands(
    rng: random.Random, count: int, climbs: int, steps: int
) -> dict[str, list[list[Card]]]:
    families: dict[str, list[list[Card]]] = {
        "many wilds (4-8), 2 suits, 5 ranks": [
            dense_hand(rng, rng.randint(4, 8), 2, 4) for _ in range(count)
        ],
        "near-runs: 2 suits, 6 ranks, 1-3 wilds": [
            dense_hand(rng, rng.randint(1, 3), 2, 5) for _ in range(count)
        ],
        "near-runs and books: 3-5 suits, 3 ranks": [
            dense_hand(rng, rng.randint(0, 3), rng.randint(3, 5), 2) for _ in range(count)
        ],
    }
    families[f"local-search worst ({climbs} climbs x {steps} steps)"] = [
        hill_climb(rng, steps) for _ in range(climbs)
    ]
    return families


def games_per_second(seats: int, seconds: float) -> tuple[int, float, float]:
    """Whole random games for ``seconds``: (games, per CPU second, per wall second)."""
    rules = game_rules("five-crowns")
    games = 0
    start, start_cpu = time.perf_counter(), time.thread_time()
    while time.thread_time() - start_cpu < seconds or games == 0:
        for _ in random_playout(rules, seats, seed=games, chooser=random.Random(games)):
            pass
        games += 1
    cpu, wall = time.thread_time() - start_cpu, time.perf_counter() - start
    return games, games / cpu, games / wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run with few hands")
    arguments = parser.parse_args()
    quick = arguments.quick
    rng = random.Random(20241129)
    hands = random_hands(rng, 500 if quick else 10_000, 13)

    print("13-card hands, round 11 (kings and jokers wild), cold solves:")
    report("random: lowest penalty only", timed(lambda h: min_penalty(h, KINGS), hands))
    report("random: penalty and arrangement", timed(lambda h: best_arrangement(h, KINGS), hands))
    families = adversarial_hands(
        rng, 100 if quick else 2_000, 2 if quick else 8, 100 if quick else 400
    )
    for label, family in families.items():
        report(f"{label}", timed(lambda h: best_arrangement(h, KINGS), family))
    worst = max(families[next(reversed(families))], key=cost)
    print(f"  slowest hand found: {' '.join(map(str, worst))}")

    print("Best discard from 14 cards (each candidate solved), cold:")
    discards = random_hands(rng, 200 if quick else 2_000, 14)
    report("random 14-card hands", timed(lambda h: best_discard(h, KINGS), discards))
    dense = [
        dense_hand(rng, rng.randint(1, 3), 2, 5, size=14) for _ in range(200 if quick else 1_000)
    ]
    report("near-runs: 2 suits, 6 ranks, 1-3 wilds", timed(lambda h: best_discard(h, KINGS), dense))

    print("Random full games (11 rounds, uniform random legal actions):")
    for seats in (2, 4, 7):
        games, per_cpu, per_wall = games_per_second(seats, 1.0 if quick else 4.0)
        print(
            f"  {seats} players: {per_cpu:5.2f} games per CPU second"
            f"  ({per_wall:5.2f} per wall second, {games} games)"
        )


if __name__ == "__main__":
    main()
