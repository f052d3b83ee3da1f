"""The arena's bookkeeping, on tiny fixed games: shared deals, rotated seats, shared wins."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import pytest

from services.bots.arena import ArenaReport, GameRecord, Timings, play_game, run_arena
from services.bots.players import Player, make_player
from services.cli import main as gamenight


class Spy:
    """A normal player that writes down the first hand it is dealt and where it sat."""

    log: ClassVar[list[tuple[str, str, int, tuple[str, ...]]]] = []

    def __init__(self, game: str, level: str, seed: int | str) -> None:
        self.inner = make_player(game, "normal", seed)
        self.level, self.seed, self.first = level, str(seed), True

    def observe(self, view: Mapping[str, Any]) -> None:
        if self.first:
            self.first = False
            deal, seat = self.seed.rsplit(":", 1)
            Spy.log.append((deal, self.level, int(seat), tuple(view["hand"])))
        self.inner.observe(view)

    def choose(self, view: Mapping[str, Any]) -> dict[str, Any]:
        return self.inner.choose(view)


def spy(game: str, level: str, seed: int | str) -> Player:
    return Spy(game, level, seed)


def test_every_deal_is_played_once_per_seat_of_a_with_the_same_cards() -> None:
    Spy.log = []
    report = run_arena("kings-corner", "hard", "easy", 3, games=6, seed=5, factory=spy)
    assert len(report.records) == 6  # two deals, three rotations each
    assert [record.a_seat for record in report.records] == [0, 1, 2, 0, 1, 2]
    for record in report.records:
        assert record.levels[record.a_seat] == "hard"
        assert record.levels.count("hard") == 1
    # The same deal gives each seat the same first hand whoever sits there.
    by_deal: dict[str, set[tuple[int, tuple[str, ...]]]] = {}
    for deal, _, seat, hand in Spy.log:
        by_deal.setdefault(deal, set()).add((seat, hand))
    assert len(by_deal) == 2
    for hands in by_deal.values():
        assert len(hands) == 3  # one hand per seat, identical in the three games
    seats_of_a = sorted(seat for _, level, seat, _ in Spy.log if level == "hard")
    assert seats_of_a == [0, 0, 1, 1, 2, 2]


def test_shared_wins_count_as_fractions_and_the_interval_is_over_deals() -> None:
    records = [
        GameRecord(0, 0, ("a", "b"), (0,), (0, 10)),  # a wins
        GameRecord(0, 1, ("b", "a"), (0, 1), (5, 5)),  # shared: half
        GameRecord(1, 0, ("a", "b"), (1,), (8, 0)),  # b wins
        GameRecord(1, 1, ("b", "a"), (0,), (0, 4)),  # b wins
    ]
    report = ArenaReport("kings-corner", "a", "b", 2, records, Timings(), 1.0)
    assert records[1].share(1) == 0.5 and records[1].share(0) == 0.5
    assert report.deal_means() == [0.75, 0.0]
    rate, low, high = report.win_rate()
    assert rate == pytest.approx(0.375)
    half = 1.96 * 0.5303300858899106 / 2**0.5  # the deals' standard deviation, 2 deals
    assert (low, high) == (0.0, 1.0)  # 0.375 -/+ 0.735, clipped to 0..1
    assert rate + half > 1.0
    # a's score less the others', per game: -10, 0, +8, +4
    assert report.score_difference() == pytest.approx(0.5)


def test_a_game_is_finished_and_its_decisions_timed() -> None:
    timings = Timings()
    winners, scores = play_game(
        "five-crowns", ["normal", "easy"], "tiny", {"start_round": 11}, timings
    )
    assert winners and len(scores) == 2
    assert set(timings.by_level) == {"normal", "easy"}


def test_the_command_prints_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    code = gamenight(
        ["arena", "--game", "kings-corner", "--a", "normal", "--b", "easy", "--games", "4"]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "win rate" in out and "95% interval" in out and "fair share 50.0%" in out
    assert "games/s" in out and "p99" in out


class HintReader:
    """A normal player that notes whether its views carry the hint key."""

    seen: ClassVar[list[bool]] = []

    def __init__(self, game: str, level: str, seed: int | str) -> None:
        self.inner = make_player(game, "normal", seed)
        self.reads_hint = level == "hard"  # this test's way to name the seat that asks

    def observe(self, view: Mapping[str, Any]) -> None:
        HintReader.seen.append(self.reads_hint == ("hint" in view))
        self.inner.observe(view)

    def choose(self, view: Mapping[str, Any]) -> dict[str, Any]:
        return self.inner.choose(view)


def hint_reader(game: str, level: str, seed: int | str) -> Player:
    return HintReader(game, level, seed)


def test_only_a_player_that_reads_the_hint_is_handed_it() -> None:
    HintReader.seen = []
    levels = ["hard", "normal"]
    play_game("five-crowns", levels, "hints", {"start_round": 10}, factory=hint_reader)
    assert HintReader.seen and all(HintReader.seen)
