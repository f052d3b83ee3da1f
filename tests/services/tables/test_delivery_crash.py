"""Crash races: a move the broker acknowledged always lands, once, whatever crashes when.

The sender keeps each intent until its reply and resends it with the same id
(``services.delivery``). Without that, amqtt lost about one move in two here: it drops a
message in flight to the tables service when that connection dies.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tables_clients import LobbyClient, Phone
from test_tables_restart import TablesProcess, kill_and_wait_for_the_will

from protocol import topics
from protocol.messages import act_intent
from services.broker.credentials import ServiceCredentials
from services.broker.embedded import EmbeddedBroker, start_embedded_broker
from services.broker.mosquitto import MosquittoProcess, free_tcp_port
from services.broker.settings import BrokerEndpoint
from services.delivery import Deliveries

TRIALS = 4


def applied(data: Path, intent_id: str) -> int:
    """How many log entries carry ``intent_id`` (exactly one when delivered once)."""
    with sqlite3.connect(data) as db:
        rows = db.execute("SELECT entry FROM log WHERE entry LIKE ?", (f'%"{intent_id}"%',))
        return len(rows.fetchall())


def wait_answered(deliveries: Deliveries, intent_id: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while intent_id in deliveries.pending_ids():
        assert time.monotonic() < deadline, f"{intent_id} never answered"
        time.sleep(0.05)


def seated_game(lobby: LobbyClient, phones: Callable[..., Phone]) -> dict[int, Phone]:
    lobby.wait_for_service()
    table = lobby.create("kings-corner")
    first, second = phones(table, "Ana"), phones(table, "Ben")
    assert lobby.host(table, "start")["status"] == "ok"
    return {first.seat: first, second.seat: second}


def next_move(by_seat: dict[int, Phone], newer_than: int) -> tuple[Phone, dict[str, Any]]:
    """The seat to play and its view, once the table is past ``newer_than``."""
    anyone = next(iter(by_seat.values()))
    # A game under way: the lobby's last view (no state yet) may still be the newest.
    public = anyone.box.wait(
        anyone.public_topic,
        lambda m: m["seq"] > newer_than and (m.get("state") or {}).get("current_seat") is not None,
    )
    mover = by_seat[public["state"]["current_seat"]]
    return mover, mover.view(newer_than=public["seq"] - 1)


def restart_and_wait_online(process: TablesProcess, lobby: LobbyClient) -> None:
    """Start the service again; return once it says it is online (so it can be killed again)."""
    status = topics.service_status("tables")
    seen = len(lobby.box.messages.get(status, []))
    process.start()
    messages = lobby.box.messages
    lobby.box.wait(status, lambda m: len(messages[status]) > seen and m["online"], timeout=30)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "gamenight.db"


@pytest.fixture
def tables_process(broker: BrokerEndpoint, data: Path) -> Iterator[TablesProcess]:
    process = TablesProcess(broker, data)
    process.start()
    yield process
    process.stop()


def test_kill_9_right_after_the_puback_loses_and_doubles_nothing(
    tables_process: TablesProcess,
    data: Path,
    lobby: LobbyClient,
    phones: Callable[..., Phone],
) -> None:
    by_seat = seated_game(lobby, phones)
    senders = {
        seat: Deliveries(phone.client, resend_after=1.0, follow_tables_status=False)
        for seat, phone in by_seat.items()
    }
    seq = -1
    try:
        for trial in range(TRIALS):
            mover, view = next_move(by_seat, seq)
            intent_id = f"race-{trial}-{uuid.uuid4().hex[:6]}"
            action = view["state"]["legal_actions"][0]
            intent = act_intent(intent_id, view["seq"], mover.player_id, action)
            # Acknowledged by the broker, then the service dies within the millisecond.
            senders[mover.seat].send(mover.intent_topic, intent, ack_timeout=5)
            kill_and_wait_for_the_will(tables_process, lobby)
            restart_and_wait_online(tables_process, lobby)
            wait_answered(senders[mover.seat], intent_id)
            assert applied(data, intent_id) == 1
            seq = view["seq"]
    finally:
        for sender in senders.values():
            sender.stop()


class RestartableBroker:
    """A broker on fixed loopback ports that can be killed and started again."""

    def __init__(self, kind: str, workdir: Path, credentials: ServiceCredentials) -> None:
        self.kind, self.workdir, self.credentials = kind, workdir, credentials
        self.tcp_port, self.ws_port = free_tcp_port(), free_tcp_port()
        self.running: EmbeddedBroker | MosquittoProcess | None = None

    def start(self) -> BrokerEndpoint:
        if self.kind == "embedded":
            embedded = start_embedded_broker(
                self.credentials, tcp=f"127.0.0.1:{self.tcp_port}", data_dir=self.workdir
            )
            self.running = embedded
            return embedded.endpoint
        mosquitto = MosquittoProcess(
            self.workdir, self.credentials, tcp_port=self.tcp_port, ws_port=self.ws_port
        )
        self.running = mosquitto
        return mosquitto.endpoint

    def kill(self) -> None:
        """Mosquitto: kill -9 (its queue is lost). Embedded: stopped (it keeps no queue)."""
        if isinstance(self.running, MosquittoProcess):
            os.kill(self.running.pid, signal.SIGKILL)
            self.running.stop()
        elif self.running is not None:
            self.running.stop()
        self.running = None


@pytest.mark.parametrize(
    "kind", ["embedded", pytest.param("mosquitto", marks=pytest.mark.mosquitto)]
)
def test_intents_queued_for_a_stopped_service_survive_a_broker_restart(
    kind: str,
    tmp_path: Path,
    service_credentials: ServiceCredentials,
    request: pytest.FixtureRequest,
) -> None:
    if kind == "mosquitto":
        request.getfixturevalue("mosquitto_install")
    restartable = RestartableBroker(kind, tmp_path / "broker", service_credentials)
    endpoint = restartable.start()
    data = tmp_path / "gamenight.db"
    process = TablesProcess(endpoint, data)
    process.start()
    lobby = LobbyClient(endpoint)
    made: list[Phone] = []

    def join(table: str, name: str) -> Phone:
        reply = lobby.request("join", table=table, name=name, lang="en")
        assert reply["status"] == "ok", reply
        made.append(Phone(endpoint, reply["data"]))
        return made[-1]

    senders: list[Deliveries] = []
    try:
        by_seat = seated_game(lobby, join)
        mover, view = next_move(by_seat, -1)
        sender = Deliveries(mover.client, resend_after=1.0, follow_tables_status=False)
        senders.append(sender)
        process.stop()  # the service is down: the intent waits in the broker's queue
        intent = act_intent(
            "queued-1", view["seq"], mover.player_id, view["state"]["legal_actions"][0]
        )
        sender.send(mover.intent_topic, intent, ack_timeout=5)
        restartable.kill()
        restartable.start()
        process.start()
        wait_answered(sender, "queued-1", timeout=40)
        assert applied(data, "queued-1") == 1
    finally:
        for sender in senders:
            sender.stop()
        for phone in made:
            phone.stop()
        lobby.client.stop()
        process.stop()
        restartable.kill()


def test_one_seat_flooding_a_stopped_service_cannot_push_out_another_seats_move(
    tables_process: TablesProcess,
    data: Path,
    lobby: LobbyClient,
    phones: Callable[..., Phone],
) -> None:
    by_seat = seated_game(lobby, phones)
    mover, view = next_move(by_seat, -1)
    flooder = next(phone for phone in by_seat.values() if phone is not mover)
    sender = Deliveries(mover.client, resend_after=1.0, follow_tables_status=False)
    try:
        tables_process.stop()
        sync = b'{"v":1,"id":"flood","op":"sync"}'
        for _ in range(6000):  # more than the brokers queue for one client (5,000)
            flooder.client.publish(flooder.intent_topic, sync)
        action = view["state"]["legal_actions"][0]
        sender.send(
            mover.intent_topic,
            act_intent("crowded", view["seq"], mover.player_id, action),
            ack_timeout=5,
        )
        restart_and_wait_online(tables_process, lobby)
        wait_answered(sender, "crowded", timeout=60)
        assert applied(data, "crowded") == 1
    finally:
        sender.stop()
