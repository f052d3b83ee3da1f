"""A copy that gives a table up while one of its messages waits must stay silent about it.

Found by the cluster's fault test: around a takeover a player's move was answered
"unknown table" (the copy had checked the table was its own, then the keeper gave it up
before the message got the lock). The new owner answers the resend instead.
"""

from __future__ import annotations

import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from protocol import topics
from services.tables.runner import TablesRunner

CODE = "ABCDE"


class Service:
    """What the runner needs of the tables service: its tables, its lock, ``handle``."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.tables: dict[str, object] = {CODE: object()}
        self.handled: list[str] = []

    def handle(self, topic: str, payload: bytes) -> None:
        self.handled.append(topic)


class Sharing:
    """Says whether a table is ours; with ``give_up``, the keeper takes it away just after."""

    def __init__(self, service: Service, give_up: bool) -> None:
        self.service, self.give_up = service, give_up
        self.presence: list[str] = []

    def table_message(self, code: str) -> bool:
        ours = code in self.service.tables
        if self.give_up:
            self.service.tables.pop(code, None)  # the takeover, between check and lock
        return ours

    def remember_presence(self, topic: str, payload: bytes) -> None:
        self.presence.append(topic)


def runner_with(tmp_path: Path, give_up: bool) -> tuple[Any, Service, Sharing]:
    runner: Any = TablesRunner("mqtt://127.0.0.1:1", tmp_path / "unused.db")
    service = Service()
    sharing = Sharing(service, give_up)
    runner.service, runner._serving = service, service.lock
    runner.shared = SimpleNamespace(sharing=sharing)
    return runner, service, sharing


def test_a_table_given_up_meanwhile_is_not_answered_for(tmp_path: Path) -> None:
    runner, service, sharing = runner_with(tmp_path, give_up=True)
    runner._handle(topics.seat_topic(CODE, 0, "intent"), b'{"v":1,"id":"a","op":"sync"}')
    runner._handle(topics.seat_topic(CODE, 1, "presence"), b'{"v":1,"online":true}')
    assert service.handled == []
    assert sharing.presence == [topics.seat_topic(CODE, 1, "presence")]  # kept for the owner


def test_a_table_still_held_is_handled(tmp_path: Path) -> None:
    runner, service, _ = runner_with(tmp_path, give_up=False)
    topic = topics.seat_topic(CODE, 0, "intent")
    runner._handle(topic, b'{"v":1,"id":"a","op":"sync"}')
    assert service.handled == [topic]


class Recorder:
    """A client that keeps what is published: (topic, qos, retain)."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, int, bool]] = []

    def publish(self, topic: str, payload: bytes, qos: int = 0, retain: bool = False) -> None:
        self.sent.append((topic, qos, retain))


def test_on_nats_replies_go_at_qos_0_and_events_stay_at_qos_1(tmp_path: Path) -> None:
    # NATS stores each QoS 1 publish in a replicated stream; a lost reply costs only the
    # sender's resend, which is answered again. Events are not resent by anyone: QoS 1.
    runner: Any = TablesRunner("mqtt://127.0.0.1:1", tmp_path / "unused.db")
    runner.client, runner.retain_views, runner.move_qos = Recorder(), False, 0
    runner._publish(topics.seat_topic(CODE, 0, "reply"), b"{}", False)
    runner._publish(topics.host_topic(CODE, "reply"), b"{}", False)
    runner._publish(topics.table_events(CODE), b"{}", False)
    runner._publish(topics.seat_topic(CODE, 0, "view"), b"{}", True)
    assert runner.client.sent == [
        (topics.seat_topic(CODE, 0, "reply"), 0, False),
        (topics.host_topic(CODE, "reply"), 0, False),
        (topics.table_events(CODE), 1, False),
        (topics.seat_topic(CODE, 0, "view"), 0, False),  # unretained on NATS
    ]


def test_on_one_machine_replies_stay_at_qos_1(tmp_path: Path) -> None:
    runner: Any = TablesRunner("mqtt://127.0.0.1:1", tmp_path / "unused.db")
    runner.client, runner.retain_views = Recorder(), True
    runner._publish(topics.seat_topic(CODE, 0, "reply"), b"{}", False)
    runner._publish(topics.seat_topic(CODE, 0, "view"), b"{}", True)
    assert runner.client.sent == [
        (topics.seat_topic(CODE, 0, "reply"), 1, False),
        (topics.seat_topic(CODE, 0, "view"), 0, True),
    ]
