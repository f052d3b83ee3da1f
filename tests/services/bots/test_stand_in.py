"""A player whose phone is away mid-game is played by a stand-in bot until it returns."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tables_clients import LobbyClient, Phone

from protocol import topics
from services.bots.players import make_player
from services.bots.runner import BotsRunner
from services.broker.settings import BrokerEndpoint
from services.tables.runner import TablesRunner
from services.wire import encode


class Clock:
    """The tables service's clock, moved on by the test (no real minute to wait)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def stack(broker: BrokerEndpoint, tmp_path: Path, clock: Clock) -> Iterator[LobbyClient]:
    owner = f"stand-in-{uuid.uuid4().hex[:8]}"
    with (
        TablesRunner(
            broker.service_url("tables"),
            tmp_path / "gn.db",
            owner,
            check_messages=True,
            clock=clock,
        ) as tables,
        BotsRunner(broker.service_url("bots"), think_seconds=1.0) as bots,
    ):
        tables.start()
        bots.start()
        lobby = LobbyClient(broker)
        try:
            yield lobby
        finally:
            lobby.client.stop()


def presence(phone: Phone, online: bool) -> None:
    topic = topics.seat_topic(phone.table, phone.seat, "presence")
    phone.client.publish(topic, encode("presence", {"v": 1, "online": online}), retain=True)


def wait_until(lobby: LobbyClient, table: str, test: Any, timeout: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        public = lobby.box.latest(topics.table_view(table))
        if public is not None and test(public):
            return public
        time.sleep(0.02)
    raise AssertionError("the table never got there")


def test_an_away_player_is_stood_in_for_and_takes_the_seat_back_mid_turn(
    stack: LobbyClient, broker: BrokerEndpoint, clock: Clock
) -> None:
    lobby = stack
    table = lobby.create("kings-corner", first_dealer="random")
    ana_join = lobby.request("join", table=table, name="Ana", lang="en")["data"]
    ben_join = lobby.request("join", table=table, name="Ben", lang="en")["data"]
    ana, ben = Phone(broker, ana_join), Phone(broker, ben_join)
    ana_bot = make_player("kings-corner", "normal", 1)
    try:
        assert lobby.host(table, "set_away", level="hard", wait=30)["status"] == "ok"
        assert lobby.host(table, "start")["status"] == "ok"
        presence(ana, True)
        presence(ben, True)
        wait_until(lobby, table, lambda m: all(p["online"] for p in m["players"]))
        # Ben's phone goes away. Nothing happens before the wait is over.
        presence(ben, False)
        ben.stop()
        wait_until(lobby, table, lambda m: not m["players"][1]["online"])
        clock.now += 29
        time.sleep(1.5)  # more than a tick
        assert "stand_in" not in lobby.box.latest(topics.table_view(table))["players"][1]
        clock.now += 2
        public = wait_until(lobby, table, lambda m: m["players"][1].get("stand_in"))
        assert public["away"] == {"level": "hard", "wait": 30}
        stood_in_at = public["seq"]
        # The stand-in plays Ben's turns, Ana plays hers, until Ben's turn is under way:
        # the bot has drawn and is thinking about its next move.
        for _ in range(400):
            public = wait_until(lobby, table, lambda m: True)
            if public["status"] in ("round_over", "finished"):  # Ana went out first
                op = "next_round" if public["status"] == "round_over" else "rematch"
                assert lobby.host(table, op)["status"] == "ok"
                wait_until(lobby, table, lambda m, s=public["seq"]: m["seq"] > s)
                continue
            state = public["state"]
            assert public["status"] == "playing", public["status"]
            if state["current_seat"] == 0:
                seq = public["seq"]
                view = ana.box.wait(ana.view_topic, lambda m, s=seq: m["seq"] == s)
                ana.act(ana_bot.choose(view["state"]), seq=seq)
                wait_until(lobby, table, lambda m, s=seq: m["seq"] > s)
            elif state["phase"] == "play" and public["seq"] > stood_in_at:
                break
            else:
                wait_until(lobby, table, lambda m, s=public["seq"]: m["seq"] > s)
        # Ben is back, mid-turn. His phone first reads the seat as the stand-in has it.
        back = Phone(broker, ben_join)
        before = back.view()
        stand_in_id = before["stand_in"]["player"]
        assert stand_in_id != ben_join["player_id"]
        presence(back, True)
        public = wait_until(lobby, table, lambda m: "stand_in" not in m["players"][1])
        view = back.box.wait(back.view_topic, lambda m: "stand_in" not in m)
        seq = view["seq"]
        assert view["state"]["current_seat"] == 1 and view["state"]["phase"] == "play"
        time.sleep(2.0)  # longer than the bot's thinking: what it had planned comes late
        assert lobby.box.latest(topics.table_view(table))["seq"] == seq  # and is refused
        reply = back.act(view["state"]["legal_actions"][-1], seq=seq)
        assert reply["status"] == "ok", reply
        # The stand-in's id no longer signs for the seat.
        after = back.view(newer_than=seq)
        refused = back.act(
            after["state"]["legal_actions"][0]
            if after["state"]["legal_actions"]
            else {"type": "draw"},
            seq=after["seq"],
            player=stand_in_id,
        )
        assert refused["error"]["code"] == "not_your_seat"
        back.stop()
    finally:
        ana.stop()
