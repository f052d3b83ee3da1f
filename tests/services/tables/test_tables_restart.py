"""kill -9 of the tables service mid-game, then a restart: nothing lost, nothing doubled."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tables_clients import LobbyClient, Phone

from protocol import topics
from protocol.messages import act_intent
from services.broker.settings import BrokerEndpoint

ROOT = Path(__file__).resolve().parents[3]


class TablesProcess:
    """``python -m services.tables`` in a child process, as it runs in production."""

    def __init__(self, broker: BrokerEndpoint, data: Path) -> None:
        self.command = [
            sys.executable,
            "-m",
            "services.tables",
            "--broker",
            broker.service_url("tables"),
            "--data",
            str(data),
            "--client-id",
            f"tables-{uuid.uuid4().hex[:8]}",
        ]
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(self.command, cwd=ROOT, stderr=subprocess.DEVNULL)

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


def kill_and_wait_for_the_will(process: TablesProcess, lobby: LobbyClient) -> None:
    """kill -9, then wait until the broker has noticed (it publishes the service's will)."""
    status = topics.service_status("tables")
    seen = len(lobby.box.messages.get(status, []))
    process.kill()
    messages = lobby.box.messages
    lobby.box.wait(status, lambda m: len(messages[status]) > seen and not m["online"], timeout=30)


@pytest.fixture
def tables_process(broker: BrokerEndpoint, tmp_path: Path) -> Iterator[TablesProcess]:
    process = TablesProcess(broker, tmp_path / "gamenight.db")
    process.start()
    yield process
    process.stop()


def test_kill_9_then_restart_loses_nothing_and_applies_nothing_twice(
    tables_process: TablesProcess, lobby: LobbyClient, phones: Callable[..., Phone]
) -> None:
    lobby.wait_for_service()
    table = lobby.create("kings-corner")
    first, second = phones(table, "Ana"), phones(table, "Ben")
    assert lobby.host(table, "start")["status"] == "ok"
    by_seat = {first.seat: first, second.seat: second}
    public = first.box.wait(first.public_topic, lambda m: m["status"] == "playing")
    for _ in range(5):
        mover = by_seat[public["state"]["current_seat"]]
        view = mover.box.wait(mover.view_topic, lambda m, s=public["seq"]: m["seq"] == s)
        reply = mover.act(view["state"]["legal_actions"][0], seq=view["seq"])
        assert reply["status"] == "ok"
        # Wait for the view of this very move: an older one names the previous mover.
        public = first.box.wait(first.public_topic, lambda m, s=reply["seq"]: m["seq"] == s)
    before = public
    mover = by_seat[before["state"]["current_seat"]]
    view = mover.view(newer_than=before["seq"] - 1)

    kill_and_wait_for_the_will(tables_process, lobby)
    # While the service is down: an intent, and the same intent again (a redelivery).
    action = view["state"]["legal_actions"][0]
    intent = act_intent("during-outage", view["seq"], mover.player_id, action)
    for _ in range(2):
        mover.client.publish(mover.intent_topic, json.dumps(intent).encode())
    tables_process.start()

    reply = mover.box.wait(mover.reply_topic, lambda m: m["id"] == "during-outage", timeout=20)
    assert reply == {"v": 1, "id": "during-outage", "status": "ok", "seq": view["seq"] + 1}
    after = first.box.wait(
        first.public_topic,
        lambda m: m["epoch"] > before["epoch"] and m["seq"] > view["seq"],
        timeout=20,
    )
    assert after["seq"] == view["seq"] + 1  # applied exactly once
    # The rebuilt table is the same table: an identical view once the move is undone by seq.
    resynced = first.send({"v": 1, "id": "check", "op": "sync"})
    assert resynced["seq"] == view["seq"] + 1
    replies = [m for m in mover.box.messages[mover.reply_topic] if m["id"] == "during-outage"]
    assert all(m == reply for m in replies)
    # The hand the phone sees again is the one the log says: its view after the move.
    own = mover.box.wait(
        mover.view_topic,
        lambda m: m["epoch"] > before["epoch"] and m["seq"] > view["seq"],
        timeout=20,
    )
    assert own["seq"] == view["seq"] + 1
    assert set(own["state"]["hand"]) <= set(view["state"]["hand"]) | set(own["state"]["hand"])


def test_views_after_a_restart_are_identical(
    tables_process: TablesProcess, lobby: LobbyClient, phones: Callable[..., Phone]
) -> None:
    lobby.wait_for_service()
    table = lobby.create("five-crowns")
    first, _ = phones(table, "Ana"), phones(table, "Ben")
    assert lobby.host(table, "start")["status"] == "ok"
    before_public = first.box.wait(first.public_topic, lambda m: m["status"] == "playing")
    before_own = first.box.wait(first.view_topic, lambda m: m["seq"] == before_public["seq"])
    kill_and_wait_for_the_will(tables_process, lobby)
    tables_process.start()
    after_public = first.box.wait(
        first.public_topic, lambda m: m["epoch"] > before_public["epoch"], timeout=20
    )
    after_own = first.box.wait(
        first.view_topic, lambda m: m["epoch"] > before_public["epoch"], timeout=20
    )
    for before, after in ((before_public, after_public), (before_own, after_own)):
        assert after["seq"] == before["seq"]
        assert after["state"] == before["state"]
