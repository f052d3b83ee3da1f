"""The arena: whole games between two levels, on shared deals with every seat rotated.

``--a`` sits in one seat and ``--b`` in all the others (heads-up: one each). Every deal
is played once per seat of ``a``, so luck of the cards and of the seat cancels out. The
win rate counts a shared win as a fraction (two winners: half each); its 95% interval
comes from the per-deal averages (the games of one deal are not independent).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.registry import GAME_MODULES, game_rules
from services.bots.players import LEVELS, OMNISCIENT, Player, make_player

MAX_STEPS = 200_000


@dataclass(frozen=True)
class GameRecord:
    """One finished game: who sat where, who won, the final scores (lower is better)."""

    deal: int
    a_seat: int
    levels: tuple[str, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]

    def share(self, seat: int) -> float:
        """What this game's win is worth to ``seat``: 1/k for each of k winners."""
        return 1 / len(self.winners) if seat in self.winners else 0.0


@dataclass
class Timings:
    """Decision times in seconds, per level."""

    by_level: dict[str, list[float]] = field(default_factory=dict)
    cpu_by_level: dict[str, list[float]] = field(default_factory=dict)  # the thread's CPU

    def add(self, level: str, seconds: float, cpu_seconds: float | None = None) -> None:
        self.by_level.setdefault(level, []).append(seconds)
        if cpu_seconds is not None:
            self.cpu_by_level.setdefault(level, []).append(cpu_seconds)


def seatings(seats: int) -> list[tuple[int, ...]]:
    """For each game of a deal, the seat of ``a`` (one game per seat): ``(0,), (1,), ...``."""
    return [(seat,) for seat in range(seats)]


def play_game(
    game: str,
    levels: Sequence[str],
    deal_seed: int | str,
    options: Mapping[str, Any] | None = None,
    timings: Timings | None = None,
    factory: Callable[[str, str, int | str], Player] = make_player,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Play one whole game; ``(winners, scores)``. Each player sees its own views only."""
    rules = game_rules(game)
    state = rules.new_game(len(levels), deal_seed, options)
    players = [factory(game, level, f"{deal_seed}:{seat}") for seat, level in enumerate(levels)]
    # A phone's views carry a hint (solved for every seat after every move): a player
    # gets it only if it says it reads it.
    hints = [bool(getattr(player, "reads_hint", False)) for player in players]
    for _ in range(MAX_STEPS):
        seat = state.current_seat
        # Every seat sees every view of its own seat, in order (as a phone would).
        public = state.view_for(None)
        for other, player in enumerate(players):
            if other != seat:
                player.observe({**public, **state.private_view(other, hint=hints[other])})
        if seat is None:
            if not state.can_start_next_round():
                break
            state, _ = state.start_next_round()
            continue
        view = {**public, **state.private_view(seat, hint=hints[seat])}
        player = players[seat]
        player.observe(view)
        see = getattr(player, "see_everything", None)
        if see is not None:  # the measuring-only omniscient player (never at a table)
            see(state)
        started, started_cpu = time.perf_counter(), time.thread_time()
        action = player.choose(view)
        if timings is not None:
            cpu = time.thread_time() - started_cpu
            timings.add(levels[seat], time.perf_counter() - started, cpu)
        state, _ = state.apply(seat, rules.parse_action(action))
    else:
        raise RuntimeError("the game did not end")
    outcome = state.outcome()
    assert outcome is not None
    return tuple(outcome.winners), tuple(outcome.scores)


@dataclass
class ArenaReport:
    game: str
    a: str
    b: str
    seats: int
    records: list[GameRecord]
    timings: Timings
    seconds: float
    cpu_seconds: float = 0.0  # this process's CPU time: what a busy machine does not inflate

    def deal_means(self) -> list[float]:
        """``a``'s mean win share over each deal's rotated games."""
        by_deal: dict[int, list[float]] = {}
        for record in self.records:
            by_deal.setdefault(record.deal, []).append(record.share(record.a_seat))
        return [sum(shares) / len(shares) for shares in by_deal.values()]

    def win_rate(self) -> tuple[float, float, float]:
        """``a``'s win share and its 95% interval (normal approximation over deals)."""
        means = self.deal_means()
        rate = sum(means) / len(means)
        spread = statistics.stdev(means) if len(means) > 1 else 0.0
        half = 1.96 * spread / math.sqrt(len(means))
        return rate, max(0.0, rate - half), min(1.0, rate + half)

    def score_difference(self) -> float:
        """``a``'s score less the mean of the others' scores, per game (lower: ``a`` better)."""
        differences = []
        for record in self.records:
            mine = record.a_seat
            others = [s for seat, s in enumerate(record.scores) if seat != mine]
            differences.append(record.scores[mine] - sum(others) / len(others))
        return sum(differences) / len(differences)

    def lines(self) -> list[str]:
        rate, low, high = self.win_rate()
        games = len(self.records)
        out = [
            f"{self.game}: {self.a} (1 seat) vs {self.b} ({self.seats - 1} seats), "
            f"{games} games on {len(self.deal_means())} shared deals, seats rotated",
            f"  {self.a} win rate {rate:.1%}  (95% interval {low:.1%} .. {high:.1%}),"
            f" fair share {1 / self.seats:.1%}",
            f"  mean score difference ({self.a} - others): {self.score_difference():+.2f}"
            " (lower is better)",
        ]
        for level, times in sorted(self.timings.by_level.items()):
            p50, p99, top = _percentiles(times)
            line = (
                f"  decisions {level:<10} n={len(times):>8}  p50 {p50:7.3f} ms"
                f"  p99 {p99:7.3f} ms  max {top:8.3f} ms"
            )
            cpu = self.timings.cpu_by_level.get(level)
            if cpu:
                line += "   (CPU time: p50 {:.3f}  p99 {:.3f}  max {:.3f} ms)".format(
                    *_percentiles(cpu)
                )
            out.append(line)
        per_cpu = games / self.cpu_seconds if self.cpu_seconds else 0.0
        out.append(
            f"  {games / self.seconds:.2f} games/s ({self.seconds:.1f} s wall);"
            f" {per_cpu:.2f} games per CPU second on one core"
        )
        return out


def _percentiles(seconds: Sequence[float]) -> tuple[float, float, float]:
    """p50, p99 and max, in milliseconds."""
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return ordered[len(ordered) // 2] * 1000, p99 * 1000, ordered[-1] * 1000


def run_arena(
    game: str,
    a: str,
    b: str,
    seats: int,
    games: int,
    seed: int = 1,
    options: Mapping[str, Any] | None = None,
    factory: Callable[[str, str, int | str], Player] = make_player,
    progress: Callable[[ArenaReport], None] | None = None,
) -> ArenaReport:
    """Play at least ``games`` games (whole deals: a multiple of ``seats``)."""
    timings = Timings()
    report = ArenaReport(game, a, b, seats, [], timings, 0.0)
    started, started_cpu = time.perf_counter(), time.process_time()
    deals = max(1, math.ceil(games / seats))
    for deal in range(deals):
        deal_seed = f"arena:{seed}:{deal}"
        for (a_seat,) in seatings(seats):
            levels = tuple(a if seat == a_seat else b for seat in range(seats))
            winners, scores = play_game(game, levels, deal_seed, options, timings, factory)
            report.records.append(GameRecord(deal, a_seat, levels, winners, scores))
        report.seconds = time.perf_counter() - started
        report.cpu_seconds = time.process_time() - started_cpu
        if progress is not None:
            progress(report)
    return report


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``gamenight arena`` options."""
    parser.add_argument("--game", choices=sorted(GAME_MODULES), default="five-crowns")
    parser.add_argument(
        "--a",
        choices=(*LEVELS, OMNISCIENT),
        default="hard",
        help=f"the level measured ({OMNISCIENT}: sees every hand, to bound what levels can reach)",
    )
    parser.add_argument("--b", choices=LEVELS, default="normal", help="its opponents' level")
    parser.add_argument("--seats", type=int, default=2, help="players per game (a: one seat)")
    parser.add_argument("--games", type=int, default=1000, help="at least this many games")
    parser.add_argument("--seed", type=int, default=1, help="which deals (the same: same deals)")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a rule option"
    )
    parser.add_argument(
        "--progress", type=int, default=0, metavar="N", help="print the figures every N deals"
    )


def main(args: argparse.Namespace) -> int:
    from services.simulate import parse_option

    rules = game_rules(args.game)
    if not rules.MIN_SEATS <= args.seats <= rules.MAX_SEATS or args.seats < 2:
        print(f"gamenight arena: --seats must be 2..{rules.MAX_SEATS}", file=sys.stderr)
        return 2
    options = dict(parse_option(text) for text in args.option)

    def progress(report: ArenaReport) -> None:
        if args.progress and len(report.deal_means()) % args.progress == 0:
            print(*report.lines(), sep="\n", file=sys.stderr, flush=True)

    report = run_arena(
        args.game, args.a, args.b, args.seats, args.games, args.seed, options, progress=progress
    )
    print("\n".join(report.lines()), flush=True)
    return 0
