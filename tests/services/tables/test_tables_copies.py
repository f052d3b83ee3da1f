"""Two copies of the tables service (real processes) sharing tables over NATS JetStream.

MQTT goes through Mosquitto (one broker is enough here: what is under test is the
sharing of tables); the table log and the leases are in a JetStream node. One copy is
killed with SIGKILL mid-game: its tables are taken over within 5 s, no acknowledged
intent is lost, none is applied twice, and no observer sees a view older than one it saw.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho
import pytest
from nats_stores import store_on
from paho.mqtt.enums import CallbackAPIVersion
from tables_clients import LobbyClient, Phone

from protocol import topics
from protocol.messages import act_intent
from services.broker.credentials import ServiceCredentials
from services.broker.settings import BrokerEndpoint
from services.cluster.nodes import NatsCluster
from services.mqtt import BrokerUrl
from services.tables.jetstream import JetStreamStore
from services.tables.sharing import LOBBY_FALLBACK_SECONDS

pytestmark = pytest.mark.mosquitto  # the stacks on Mosquitto (NATS's needs nothing more)
ROOT = Path(__file__).resolve().parents[3]
TAKEOVER_LIMIT = 5.0  # seconds: the bound
PACE = 0.1  # seconds between one table's moves (a game lasts beyond the test)


@dataclass
class Stack:
    """Where the copies run: the MQTT broker, the JetStream, how players' accounts are made."""

    mqtt: BrokerEndpoint  # the lobby's and phones' broker (on NATS: node 0's listener)
    tables_broker: str  # the tables service's ``--broker`` (on NATS: every node)
    store: NatsCluster
    accounts: str  # ``--accounts``

    def command(self, owner: str) -> list[str]:
        return [
            sys.executable,
            "-m",
            "services.tables",
            "--broker",
            self.tables_broker,
            "--store",
            ",".join(self.store.nats_urls),
            "--owner",
            owner,
            "--accounts",
            self.accounts,
            "--secret-file",
            str(self.store.secret_file),
        ]


class CopyProcess:
    """``python -m services.tables --store nats://... --owner NAME`` in a child process."""

    def __init__(self, owner: str, stack: Stack, logs: Path) -> None:
        self.owner = owner
        self.log_path = logs / f"{owner}.log"
        self.command = stack.command(owner)
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(self.command, cwd=ROOT, stderr=log, stdout=log)

    def kill(self) -> float:
        """SIGKILL; the time it was sent."""
        assert self.process is not None
        killed = time.monotonic()
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
        return killed

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


# Mosquitto for MQTT with the log on one JetStream node or on three; or all on NATS (MQTT
# over the cluster's listeners, players' accounts through the auth callout's bucket).
STACKS = ["mosquitto-1", "mosquitto-3", "nats-3"]


@pytest.fixture(params=["mosquitto-1"])
def stack(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    service_credentials: ServiceCredentials,
) -> Iterator[Stack]:
    broker, nodes = str(request.param).split("-")
    with NatsCluster(tmp_path / "nats", int(nodes), credentials=service_credentials) as cluster:
        if broker == "mosquitto":
            mqtt: BrokerEndpoint = request.getfixturevalue("mosquitto_broker")
            yield Stack(mqtt, mqtt.service_url("tables"), cluster, "broker")
        else:
            spec = cluster.specs[0]
            mqtt = BrokerEndpoint(
                "nats", spec.host, spec.ports.mqtt, spec.ports.websocket, cluster.credentials
            )
            yield Stack(mqtt, cluster.service_broker("tables"), cluster, "nats")


@pytest.fixture
def observer(stack: Stack) -> Iterator[JetStreamStore]:
    """Reads the log and the leases (never heartbeats: it is no copy of the service)."""
    store = store_on(stack.store, "observer")
    yield store
    store.close()


@pytest.fixture
def copies(stack: Stack, observer: JetStreamStore, tmp_path: Path) -> Iterator[list[CopyProcess]]:
    tag = uuid.uuid4().hex[:6]
    made = [CopyProcess(f"tables-{tag}-{n}", stack, tmp_path) for n in "ab"]
    for copy in made:
        copy.start()
    deadline = time.monotonic() + 30
    while set(observer.leases.copies()) != {copy.owner for copy in made}:
        assert time.monotonic() < deadline, "the copies did not start"
        time.sleep(0.2)
    yield made
    for copy in made:
        copy.stop()


@pytest.fixture
def lobby(stack: Stack) -> Iterator[LobbyClient]:
    client = LobbyClient(stack.mqtt)
    client.wait_for_service()  # answered: our subscriptions are in place
    yield client
    client.client.stop()


def join(broker: BrokerEndpoint, lobby: LobbyClient, table: str, name: str) -> Phone:
    reply = lobby.request("join", table=table, name=name, lang="en", timeout=20)
    assert reply["status"] == "ok", reply
    return Phone(broker, reply["data"])


def owners(observer: JetStreamStore, tables: list[str]) -> dict[str, str]:
    leases = observer.leases.snapshot()
    return {code: leases[code].owner for code in tables}


def answers(lobby: LobbyClient, op: str) -> dict[str, int]:
    """How many answers each lobby request id got."""
    counted: dict[str, int] = {}
    for message in lobby.box.messages.get(topics.lobby_response(op), []):
        counted[message["id"]] = counted.get(message["id"], 0) + 1
    return counted


def test_two_copies_spread_new_tables_and_answer_each_lobby_request_once(
    copies: list[CopyProcess],
    lobby: LobbyClient,
    observer: JetStreamStore,
    stack: Stack,
) -> None:
    tables = [lobby.create("kings-corner") for _ in range(16)]
    phones = [join(stack.mqtt, lobby, table, "Ana") for table in tables[:4]]
    unknown = lobby.request("join", table="ZZZZ", name="Ana")
    assert unknown["error"]["code"] == "unknown_table"
    time.sleep(LOBBY_FALLBACK_SECONDS + 1.0)  # a second answer would come by then
    assert set(answers(lobby, "create").values()) == {1}
    assert set(answers(lobby, "join").values()) == {1}
    by_owner = owners(observer, tables)
    assert set(by_owner.values()) == {copy.owner for copy in copies}  # both have tables
    for phone in phones:
        phone.stop()


class Player:
    """Plays one table: the seat whose turn it is acts, resending one intent until answered."""

    def __init__(self, table: str, phones: list[Phone]) -> None:
        self.table = table
        self.by_seat = {phone.seat: phone for phone in phones}
        self.watcher = phones[0]
        self.acknowledged: list[tuple[str, int]] = []  # (intent id, seq) answered ok
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._play, daemon=True)

    def _play(self) -> None:
        while not self.stopping.is_set():
            public = self.watcher.box.latest(self.watcher.public_topic)
            if public is None or public["status"] != "playing":
                time.sleep(0.05)
                continue
            mover = self.by_seat[public["state"]["current_seat"]]
            view = mover.box.latest(mover.view_topic)
            if view is None or view["seq"] != public["seq"] or not view["state"]["legal_actions"]:
                time.sleep(0.02)
                continue
            self._act(mover, view)
            time.sleep(PACE)

    def _act(self, mover: Phone, view: dict[str, Any]) -> None:
        intent_id = uuid.uuid4().hex[:12]
        action = view["state"]["legal_actions"][0]
        payload = json.dumps(act_intent(intent_id, view["seq"], mover.player_id, action)).encode()
        while not self.stopping.is_set():
            mover.client.publish(mover.intent_topic, payload)
            try:
                reply = mover.box.wait(mover.reply_topic, lambda m: m["id"] == intent_id, 0.5)
            except AssertionError:
                continue  # unanswered (the owner died?): the same intent again
            if reply["status"] == "ok":
                self.acknowledged.append((intent_id, reply["seq"]))
            return

    def views(self) -> dict[str, list[tuple[int, int]]]:
        """Every view each phone got, per topic, as ``(epoch, seq)`` in arrival order."""
        found: dict[str, list[tuple[int, int]]] = {}
        for phone in self.by_seat.values():
            for topic in (phone.public_topic, phone.view_topic):
                key = f"{phone.username} {topic}"
                found[key] = [(m["epoch"], m["seq"]) for m in phone.box.messages.get(topic, [])]
        return found


def start_tables(
    broker: BrokerEndpoint, lobby: LobbyClient, count: int
) -> tuple[list[str], list[Player]]:
    tables = [lobby.create("kings-corner") for _ in range(count)]
    players = []
    for table in tables:
        seated = [join(broker, lobby, table, name) for name in ("Ana", "Ben")]
        for phone in seated:  # as a phone does: retained, until its will says otherwise
            presence = topics.seat_topic(table, phone.seat, "presence")
            phone.client.publish(presence, b'{"v":1,"online":true}', qos=1, retain=True)
        assert lobby.host(table, "start")["status"] == "ok"
        players.append(Player(table, seated))
    return tables, players


def check_against_the_log(observer: JetStreamStore, player: Player) -> None:
    """Every acknowledged intent is in the log, at its seq; no intent is in it twice."""
    log = list(observer.entries(player.table))
    ids = [entry["intent_id"] for entry in log if entry.get("intent_id")]
    assert len(ids) == len(set(ids)), "an intent applied twice"
    for intent_id, seq in player.acknowledged:
        assert log[seq - 1].get("intent_id") == intent_id, (intent_id, seq)


def seated(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in player.items() if k != "online"} for player in view["players"]]


def never_older(views: dict[str, list[tuple[int, int]]]) -> None:
    for key, seen in views.items():
        assert seen == sorted(seen), f"{key} went back: {seen}"


@pytest.mark.parametrize("stack", STACKS, indirect=True)
def test_kill_9_of_one_copy_mid_game_its_tables_are_taken_over_with_nothing_lost(
    copies: list[CopyProcess],
    lobby: LobbyClient,
    observer: JetStreamStore,
    stack: Stack,
) -> None:
    tables, players = start_tables(stack.mqtt, lobby, 6)
    by_owner = owners(observer, tables)
    victim = next(copy for copy in copies if copy.owner == by_owner[tables[0]])
    orphaned = [table for table in tables if by_owner[table] == victim.owner]
    epochs = {table: lobby.public(table, lambda m: True)["epoch"] for table in tables}
    for player in players:
        player.thread.start()
    time.sleep(2.0)
    before = {player.table: len(player.acknowledged) for player in players}
    killed = victim.kill()
    taken: dict[str, float] = {}
    for table in orphaned:
        # The new owner's first view already knows who is online (presence is not logged).
        lobby.public(table, lambda m, t=table: m["epoch"] > epochs[t])
        taken[table] = time.monotonic() - killed
        views = lobby.box.messages[topics.table_view(table)]
        first = next(m for m in views if m["epoch"] > epochs[table])
        assert all(p["online"] for p in first["players"]), first["players"]
    time.sleep(2.0)
    for player in players:
        player.stopping.set()
        player.thread.join(10)
    assert max(taken.values()) < TAKEOVER_LIMIT, taken
    # The dead copy's will said the tables service is offline; the survivor says online.
    status = topics.service_status("tables")
    deadline = time.monotonic() + TAKEOVER_LIMIT
    while not (lobby.box.latest(status) or {}).get("online"):
        assert time.monotonic() < deadline, lobby.box.messages.get(status)
        time.sleep(0.05)
    survivor = next(copy for copy in copies if copy is not victim)
    assert set(owners(observer, tables).values()) == {survivor.owner}
    for player in players:
        last = player.watcher.box.latest(player.watcher.public_topic)
        if last is not None and last["status"] == "playing":  # not over: played on after
            assert len(player.acknowledged) > before[player.table], f"{player.table} stopped"
        check_against_the_log(observer, player)
        never_older(player.views())
    print(f"takeover after kill -9 (s): {sorted(round(t, 2) for t in taken.values())}")


def test_both_copies_killed_and_restarted_converge_to_the_log(
    copies: list[CopyProcess],
    lobby: LobbyClient,
    observer: JetStreamStore,
    stack: Stack,
) -> None:
    tables, players = start_tables(stack.mqtt, lobby, 4)
    for player in players:
        player.thread.start()
    time.sleep(1.5)
    for player in players:
        player.stopping.set()
        player.thread.join(10)
    before = {table: lobby.public(table, lambda m: True) for table in tables}
    for copy in copies:
        copy.kill()
    for copy in copies:
        copy.start()
    for table in tables:
        after = lobby.public(table, lambda m, t=table: m["epoch"] > before[t]["epoch"])
        assert after["seq"] == before[table]["seq"] == observer.log_length(table)
        assert after["state"] == before[table]["state"]
        # Who sits where; not who is online (presence is not logged, as on one machine).
        assert seated(after) == seated(before[table])
    assert set(owners(observer, tables).values()) <= {copy.owner for copy in copies}
    for player in players:
        check_against_the_log(observer, player)
        never_older(player.views())


def test_a_paused_copy_loses_its_tables_and_writes_nothing_after_its_successor(
    copies: list[CopyProcess],
    lobby: LobbyClient,
    observer: JetStreamStore,
    stack: Stack,
) -> None:
    """SIGSTOP (a copy frozen, not dead) past its lease, then SIGCONT: it must step back."""
    tables, players = start_tables(stack.mqtt, lobby, 4)
    by_owner = owners(observer, tables)
    victim = next(copy for copy in copies if copy.owner == by_owner[tables[0]])
    survivor = next(copy for copy in copies if copy is not victim)
    orphaned = [table for table in tables if by_owner[table] == victim.owner]
    epochs = {table: lobby.public(table, lambda m: True)["epoch"] for table in tables}
    for player in players:
        player.thread.start()
    time.sleep(1.5)
    assert victim.process is not None
    os.kill(victim.process.pid, signal.SIGSTOP)
    try:
        for table in orphaned:
            lobby.public(table, lambda m, t=table: m["epoch"] > epochs[t])
    finally:
        os.kill(victim.process.pid, signal.SIGCONT)
    time.sleep(3.0)  # the woken copy finds its heartbeats late and settles its leases
    for player in players:
        player.stopping.set()
        player.thread.join(10)
    assert victim.process.poll() is None  # alive, serving no table of another copy
    assert set(owners(observer, tables).values()) == {survivor.owner}
    for player in players:
        check_against_the_log(observer, player)
        # Every entry after the successor's first is the successor's: none of the old owner.
        written = observer.log_epochs(player.table)
        assert written == sorted(written), written


def test_with_the_nats_store_views_are_live_not_retained(
    copies: list[CopyProcess],
    lobby: LobbyClient,
    stack: Stack,
    mqtt_recorder: Callable[..., Any],
) -> None:
    """A retained view costs the NATS tier a replicated write: clients ask for a fresh one."""
    table = lobby.create("kings-corner")
    lobby.public(table, lambda m: True)  # its first view went out
    late = mqtt_recorder(stack.mqtt.service_url("web"), [topics.table_view(table)])
    assert lobby.host(table, "sync")["status"] == "ok"  # what a page does on connecting
    late.wait_for(topics.table_view(table))
    time.sleep(0.5)  # a retained view and the sync's would both be here by now
    assert len(late.payloads(topics.table_view(table))) == 1  # the sync's: none retained


def test_with_the_nats_store_replies_come_at_qos_0(
    copies: list[CopyProcess], lobby: LobbyClient, stack: Stack
) -> None:
    """NATS stores each QoS 1 publish in a replicated stream: a reply, which its sender's
    resend makes good if lost, is sent at QoS 0, even to a QoS 1 subscription."""
    table = lobby.create("kings-corner")
    url = BrokerUrl.parse(stack.mqtt.service_url("web"))
    qos_seen: list[int] = []
    subscribed, arrived = threading.Event(), threading.Event()
    client = paho.Client(CallbackAPIVersion.VERSION2, client_id=f"qos-{uuid.uuid4().hex[:8]}")
    client.username_pw_set(url.username, url.password)
    client.on_subscribe = lambda *_: subscribed.set()

    def on_message(_client: paho.Client, _userdata: Any, message: paho.MQTTMessage) -> None:
        qos_seen.append(message.qos)
        arrived.set()

    client.on_message = on_message
    client.connect(url.host, url.port)
    client.loop_start()
    try:
        client.subscribe(topics.host_topic(table, "reply"), qos=1)
        assert subscribed.wait(30)
        assert lobby.host(table, "sync")["status"] == "ok"
        assert arrived.wait(30)
        assert qos_seen[0] == 0
        # And it asks its senders for intents at QoS 0 too (its status says so).
        status = lobby.box.wait(topics.service_status("tables"), lambda m: m["online"])
        assert status["intent_qos"] == 0
    finally:
        client.loop_stop()
        client.disconnect()
