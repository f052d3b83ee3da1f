"""Faults under load: tables playing on the 3-node NATS cluster with two tables services,
then kill -9 of one tables service, kill -9 of one NATS node, and both restarted.

All real processes on loopback: three ``nats-server`` nodes (JetStream, MQTT, the auth
callout), two ``python -m services.tables --store nats://...`` copies sharing the tables,
and a phone per seat (its own account, every node's URL, first connected to nodes in
turn) whose tables play as fast as their answers come. Checked against the JetStream log:

* the dead copy's tables are taken over within 5 s (a public view of a newer epoch);
* the phones of the dead node are connected again, to another node, within 5 s (the
  node killed leads no JetStream stream then: ``move_leaders`` gave them to another
  node first, as an operator would; an election takes 4-9 s in nats-server's Raft);
* every acknowledged intent is in its table's log at the seq it was answered with, and
  no intent is in a log twice; every table played on after each fault;
* after both are restarted, every phone's screen converges to the log's state;
* no phone's screen ever got an older ``{epoch, seq}`` after a newer one.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from cluster_players import Lobby, Phone, Table

from services.broker.credentials import ServiceCredentials
from services.cluster.nodes import NatsCluster
from services.tables.jetstream import JetStreamStore

ROOT = Path(__file__).resolve().parents[2]
TABLES = 8
PACE = 0.05  # seconds between one table's moves: ~100 intents a second over 8 tables
TAKEOVER_LIMIT = 5.0  # seconds: the bounds
RECONNECT_LIMIT = 5.0
PLAY_BETWEEN = 2.0  # seconds of play between faults
RESUME_LIMIT = 20.0  # seconds for every table to move on after a fault (it may retry)

pytestmark = pytest.mark.timeout(240)


class Copy:
    """One ``python -m services.tables`` copy on the cluster, as its own process."""

    def __init__(self, cluster: NatsCluster, owner: str, logs: Path) -> None:
        self.owner = owner
        self.log_path = logs / f"{owner}.log"
        self.command = [
            sys.executable,
            "-m",
            "services.tables",
            "--broker",
            ",".join(cluster.mqtt_urls),
            "--secret-file",
            str(cluster.secret_file),
            "--store",
            ",".join(cluster.nats_urls),
            "--owner",
            owner,
            "--data",
            str(logs / f"{owner}.db"),  # unused with a NATS store; kept out of the cwd
        ]
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(self.command, cwd=ROOT, stdout=log, stderr=log)

    def kill(self) -> float:
        assert self.process is not None
        killed = time.monotonic()
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
        return killed

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:  # its NATS node may be dead: don't wait on it
                self.process.kill()
                self.process.wait(10)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[NatsCluster]:
    with NatsCluster(tmp_path / "cluster", 3, credentials=ServiceCredentials.generate()) as made:
        yield made


@pytest.fixture
def observer(cluster: NatsCluster) -> Iterator[JetStreamStore]:
    """Reads the logs and the leases (it owns nothing and never heartbeats)."""
    password = cluster.credentials.password("tables")
    store = JetStreamStore(cluster.nats_urls, "observer", user="tables", password=password)
    store.start()
    yield store
    store.close()


@pytest.fixture
def copies(cluster: NatsCluster, observer: JetStreamStore, tmp_path: Path) -> Iterator[list[Copy]]:
    made = [Copy(cluster, f"tables-{name}", tmp_path) for name in "ab"]
    for copy in made:
        copy.start()
    deadline = time.monotonic() + 60
    while set(observer.leases.copies()) != {copy.owner for copy in made}:
        assert time.monotonic() < deadline, "the tables services did not start"
        time.sleep(0.2)
    yield made
    for copy in made:
        copy.stop()


@pytest.fixture
def lobby(cluster: NatsCluster, copies: list[Copy]) -> Iterator[Lobby]:
    made = Lobby(cluster)
    made.wait_for_service()
    assert made.intent_qos == 0  # on NATS, as the pages are told (``/api/config``)
    yield made
    made.stop()


def open_tables(cluster: NatsCluster, lobby: Lobby, count: int) -> list[Table]:
    """``count`` tables of two phones each, dealt; phone ``k`` first on node ``k % 3``."""
    tables, number = [], 0
    for _ in range(count):
        created = lobby.request("create", game="kings-corner")
        assert created["status"] == "ok", created
        code = str(created["data"]["table"])
        phones = []
        for name in ("Ana", "Ben"):
            joined = lobby.request("join", table=code, name=name, lang="en")
            assert joined["status"] == "ok", joined
            node = number % len(cluster.specs)
            phones.append(Phone(cluster, joined["data"], node, lobby.intent_qos))
            number += 1
        table = Table(code, phones, PACE)
        started = table.host.host_op("start")
        assert started is not None and started["status"] == "ok", started
        tables.append(table)
    return tables


def owners(observer: JetStreamStore, tables: list[Table]) -> dict[str, str]:
    leases = observer.leases.snapshot()
    return {table.code: leases[table.code].owner for table in tables}


def newer_than(epoch: int) -> Callable[[dict[str, Any]], bool]:
    return lambda view: int(view["epoch"]) > epoch


def latest_epoch(table: Table) -> int:
    view = table.host.box.latest(table.host.public_topic)
    assert view is not None
    return int(view["epoch"])


def progress(tables: list[Table]) -> dict[str, int]:
    return {table.code: len(table.acknowledged) for table in tables}


def assert_played_on(tables: list[Table], before: dict[str, int], since: float, what: str) -> float:
    """Wait until every table has moved on since ``before``; the slowest's first answer
    after the fault (at ``since``), in seconds after it."""
    deadline = time.monotonic() + RESUME_LIMIT
    while True:
        stuck = [t.code for t in tables if len(t.acknowledged) <= before[t.code]]
        if not stuck:
            return max(t.acknowledged_at[before[t.code]] - since for t in tables)
        details = {t.code: describe(t) for t in tables if t.code in stuck}
        assert time.monotonic() < deadline, f"{stuck} stopped {what}: {details}"
        time.sleep(0.05)


def describe(table: Table) -> dict[str, object]:
    """What a stuck table's phones know (for the failure message)."""
    found: dict[str, object] = {"refused": table.refused}
    for phone in table.phones.values():
        public, view = phone.box.latest(phone.public_topic), phone.box.latest(phone.view_topic)
        reply = phone.box.latest(phone.reply_topic)
        found[f"seat {phone.seat}"] = {
            "node": phone.node,
            "connected": phone.client.connected,
            "connections": len(phone.connections),
            "public": public and (public["epoch"], public["seq"], public["status"]),
            "view": view and (view["epoch"], view["seq"]),
            "turn": public and public["state"] and public["state"]["current_seat"],
            "reply": reply,
        }
    return found


def check_against_the_log(observer: JetStreamStore, table: Table) -> None:
    """Every acknowledged intent is in the log at its seq; no intent is in it twice."""
    log = list(observer.entries(table.code))
    ids = [entry["intent_id"] for entry in log if entry.get("intent_id")]
    assert len(ids) == len(set(ids)), f"{table.code}: an intent applied twice"
    for intent_id, seq in table.acknowledged:
        assert log[seq - 1].get("intent_id") == intent_id, (table.code, intent_id, seq)


def converged(observer: JetStreamStore, table: Table, epoch: int) -> bool:
    """Every screen of ``table`` shows the log's last seq, at its owner's epoch."""
    length = observer.log_length(table.code)
    for phone in table.phones.values():
        for topic in (phone.public_topic, phone.view_topic):
            latest = phone.box.latest(topic)
            if latest is None or (latest["epoch"], latest["seq"]) != (epoch, length):
                return False
    return True


def test_kill_9_of_a_tables_service_and_of_a_node_under_load_loses_nothing(
    cluster: NatsCluster, copies: list[Copy], lobby: Lobby, observer: JetStreamStore
) -> None:
    tables = open_tables(cluster, lobby, TABLES)
    for table in tables:
        table.start()
    time.sleep(PLAY_BETWEEN)

    # 1. kill -9 of the tables service owning the first table: its tables move.
    by_owner = owners(observer, tables)
    victim = next(copy for copy in copies if copy.owner == by_owner[tables[0].code])
    orphaned = [table for table in tables if by_owner[table.code] == victim.owner]
    epochs = {table.code: latest_epoch(table) for table in tables}
    before = progress(tables)
    killed = victim.kill()
    taken: dict[str, float] = {}
    for table in orphaned:
        lobby.box.wait(table.host.public_topic, newer_than(epochs[table.code]), TAKEOVER_LIMIT * 3)
        taken[table.code] = time.monotonic() - killed
    time.sleep(PLAY_BETWEEN)
    assert max(taken.values()) < TAKEOVER_LIMIT, taken
    survivor = next(copy for copy in copies if copy is not victim)
    assert set(owners(observer, tables).values()) == {survivor.owner}
    resumed = {"copy": assert_played_on(tables, before, killed, "after the copy's kill")}

    # 2. kill -9 of a node that leads nothing: its phones move to another node.
    dead = 1
    cluster.move_leaders(0)
    phones = [phone for table in tables for phone in table.phones.values()]
    on_dead = [phone for phone in phones if phone.node == dead]
    assert on_dead
    connected_before = {phone.username: len(phone.connections) for phone in on_dead}
    before = progress(tables)
    cluster.kill(dead)
    killed = time.monotonic()
    back: dict[str, float] = {}
    deadline = killed + RECONNECT_LIMIT * 3
    while len(back) < len(on_dead) and time.monotonic() < deadline:
        for phone in on_dead:
            if (
                phone.username not in back
                and len(phone.connections) > connected_before[phone.username]
            ):
                back[phone.username] = phone.connections[connected_before[phone.username]] - killed
        time.sleep(0.01)
    assert len(back) == len(on_dead), "some phones never came back"
    for phone in on_dead:
        phone.client.wait_connected(RECONNECT_LIMIT * 3)  # subscribed again too
    time.sleep(PLAY_BETWEEN)
    assert max(back.values()) < RECONNECT_LIMIT, back
    resumed["node"] = assert_played_on(tables, before, killed, "after the node's kill")

    # 3. both back: the node, then the tables service; play on, stop, converge.
    restarted = time.monotonic()
    cluster.restart(dead)
    victim.start()
    deadline = time.monotonic() + 30
    while set(observer.leases.copies()) != {copy.owner for copy in copies}:
        assert time.monotonic() < deadline, "the restarted tables service did not come back"
        time.sleep(0.2)
    before = progress(tables)
    resumed["restarts"] = assert_played_on(tables, before, restarted, "after the restarts")
    time.sleep(PLAY_BETWEEN)
    for table in tables:
        table.stop()
    deadline = time.monotonic() + 20
    while True:
        leases = observer.leases.snapshot()
        if all(converged(observer, table, leases[table.code].epoch) for table in tables):
            break
        if time.monotonic() > deadline:
            behind = {
                table.code: {"log": observer.log_length(table.code), **describe(table)}
                for table in tables
                if not converged(observer, table, leases[table.code].epoch)
            }
            pytest.fail(f"the screens did not converge to the logs: {behind}")
        time.sleep(0.2)
    assert set(owners(observer, tables).values()) <= {copy.owner for copy in copies}
    for table in tables:
        check_against_the_log(observer, table)
        for key, seen in table.views().items():
            assert seen == sorted(seen), f"{key} went back: {seen}"
        for phone in table.phones.values():
            phone.stop()
    acknowledged = sum(len(table.acknowledged) for table in tables)
    print(
        f"{acknowledged} intents acknowledged, all in the logs once;"
        f" takeover {sorted(round(t, 2) for t in taken.values())} s;"
        f" phones back on another node {sorted(round(t, 2) for t in back.values())} s;"
        " every table's first answer after each fault came within (s):"
        f" { {what: round(seconds, 2) for what, seconds in resumed.items()} }"
    )
