"""Computer players: the bots service plays the seats marked as bots, from their own views."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tables_clients import LobbyClient, Phone

from protocol import topics
from services.bots.players import hint_action
from services.bots.runner import BotsRunner
from services.broker.settings import BrokerEndpoint
from services.tables.runner import TablesRunner


@pytest.fixture
def stack(broker: BrokerEndpoint, tmp_path: Path) -> Iterator[LobbyClient]:
    with (
        TablesRunner(broker.service_url("tables"), tmp_path / "gn.db", owner="bots-test") as tables,
        BotsRunner(broker.service_url("bots"), think_seconds=0) as bots,
    ):
        tables.start()
        bots.start()
        lobby = LobbyClient(broker)
        try:
            yield lobby
        finally:
            lobby.client.stop()


@pytest.mark.parametrize(
    ("game", "options"), [("kings-corner", {}), ("five-crowns", {"start_round": 11})]
)
def test_a_human_finishes_a_round_against_a_bot(
    game: str, options: dict[str, Any], stack: LobbyClient, broker: BrokerEndpoint
) -> None:
    lobby = stack
    table = lobby.create(game, **options)
    joined = lobby.request("join", table=table, name="Ana")["data"]
    ana = Phone(broker, joined)
    try:
        if game == "five-crowns":  # one player is a whole game there: ask for a bot
            assert lobby.host(table, "add_bot")["status"] == "ok"
        # Kings in the Corner needs two: start fills the empty seat with a bot by itself.
        assert lobby.host(table, "start")["status"] == "ok"
        public = lobby.public(table, lambda m: m["status"] == "playing")
        assert [p["bot"] for p in public["players"]] == [False, True]
        for _ in range(2000):
            public = lobby.public(table, lambda m, s=public["seq"]: m["seq"] >= s)
            if public["status"] != "playing":
                break
            if public["state"]["current_seat"] == ana.seat:
                view = ana.view(newer_than=public["seq"] - 1)
                reply = ana.act(hint_action(game, view["state"]) or {}, seq=view["seq"])
                assert reply["status"] == "ok", reply
            # Otherwise the bot's turn: wait for the table to move on without us.
            public = lobby.public(table, lambda m, s=public["seq"]: m["seq"] > s)
        assert public["status"] in ("round_over", "finished")
        # The bot really played its turns. Counted from the event stream, which carries
        # every move: with no thinking pause a bot's whole turn can pass between two
        # public views the test reads, so counting turns seen there can miss them all.
        bot_seat = next(p["seat"] for p in public["players"] if p["bot"])
        events = ana.box.messages.get(topics.table_events(table), [])
        assert any(e["seat"] == bot_seat for m in events for e in m["events"]), events
    finally:
        ana.stop()
