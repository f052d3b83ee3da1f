"""One load-generator process: opens tables through the lobby, seats real players, plays.

Everything goes through the broker as the real clients do it:

* the lobby (``create``, ``join``) is asked over the ``web`` service account, as the web
  service asks it for a phone that scanned the QR code;
* every seat is a real join: the tables service makes that player's broker account, and
  the player logs in with it over its own MQTT connection (client id = its username), so
  the broker checks each player's grants as it does a phone's; the TV of each table too,
  with its own account (``--tv``);
* the host player starts the game (and the next round, and a rematch) with host intents;
* each seat plays from its own seat view only, as the ``easy`` computer player
  (``services.bots.players``: cheap, so the generator is not the bottleneck), about one
  intent a second per table (``--rate``).

Latency is measured per seat, on that seat's connection: from publishing an intent to the
arrival of that seat's view carrying the new ``seq``.

Talks with ``benchmarks.load`` over its stdin/stdout: prints ``ready {...}`` once every
table is playing, reads ``go START END`` (wall-clock seconds: the measured window), and
prints ``result {...}`` after the window.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from benchmarks.loadgen.mqtt import MqttConnection
from protocol import topics
from protocol.messages import act_intent
from services.bots.players import Player, make_player
from services.broker.credentials import ServiceCredentials
from services.mqtt import intent_qos_asked

LOBBY_IN_FLIGHT = 16  # tables being set up at once by one generator
PLAYER_LEVEL = "easy"  # the cheapest computer player: the generator must not be the bottleneck
LOBBY_ATTEMPTS = 5
# unknown_table: seen on NATS under load, a join answered by the copy that did not make
# the table (told to c13store); asked again, and counted, so the run goes on.
PASSING_REFUSALS = (
    "storage_failed",
    "accounts_unavailable",
    "table_moved",
    "no_answer",
    "unknown_table",
)
# Seconds: an intent sent in the window with no view showing it by then is "late". After
# the window no new intent is sent (those in flight at the end were counted late before).
ANSWER_TIMEOUT = 5.0


@dataclass(slots=True)
class Seat:
    """One player: its connection, what it last saw, what it sent."""

    table: str
    seat: int
    player_id: str
    host: bool
    connection: MqttConnection | None = None
    seq: int = -1  # the newest view's seq
    acted_on: int = -1  # the seq of the view we last sent an intent (or host op) for
    sent_at: float = 0.0  # perf_counter() when the intent was published
    sent_wall: float = 0.0  # time.time() of the same, to place it in the window
    waiting: int = -1  # the seq that answers the intent in flight (-1: none)
    view: dict[str, Any] | None = None
    player: Player | None = None  # the easy computer player choosing this seat's moves


@dataclass
class Generator:
    """All tables of this process."""

    hosts: list[tuple[str, int]]
    credentials: ServiceCredentials
    tables: int
    seats: int
    rate: float
    tv: bool
    game: str
    rng: random.Random = field(default_factory=random.Random)
    lobby: MqttConnection | None = None
    answers: dict[str, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    players: list[Seat] = field(default_factory=list)
    extra: list[MqttConnection] = field(default_factory=list)  # TVs
    playing: bool = False
    window: tuple[float, float] = (0.0, 0.0)
    latencies: list[float] = field(default_factory=list)
    sent_in_window: int = 0
    answered_in_window: int = 0
    late: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    retries: dict[str, int] = field(default_factory=dict)  # lobby requests asked again
    host_ops: int = 0
    views: int = 0
    intent_qos: int = 1  # the tables service's status says (0 on a NATS cluster)
    _node: int = 0

    def next_host(self) -> tuple[str, int]:
        """Players spread over the broker nodes, round robin (one node: always that one)."""
        self._node = (self._node + 1) % len(self.hosts)
        return self.hosts[self._node]

    # ------------------------------------------------------------------ lobby
    def _on_lobby(self, topic: str, payload: bytes) -> None:
        if topic == topics.service_status("tables"):
            # As the web service tells the pages: intents at the QoS the tables service asks.
            asked = intent_qos_asked(payload)
            if asked is not None:
                self.intent_qos = asked
            return
        reply = orjson.loads(payload)
        future = self.answers.pop(str(reply.get("id")), None)
        if future is not None and not future.done():
            future.set_result(reply)

    async def request(self, op: str, message: dict[str, Any], timeout: float = 30.0) -> Any:
        """One lobby request; a passing refusal (a store or the accounts too slow under the
        load) or no answer is asked again, as a person taps again: counted in ``retries``."""
        assert self.lobby is not None
        for attempt in range(LOBBY_ATTEMPTS):
            request_id = uuid.uuid4().hex[:16]
            future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            self.answers[request_id] = future
            self.lobby.publish(
                topics.lobby_request(op), orjson.dumps({"v": 1, "id": request_id, **message})
            )
            try:
                reply = await asyncio.wait_for(future, timeout)
            except TimeoutError:
                self.answers.pop(request_id, None)
                reply = {"status": "error", "error": {"code": "no_answer"}}
            if reply.get("status") == "ok":
                return reply["data"]
            code = str(reply["error"]["code"])
            if code not in PASSING_REFUSALS or attempt == LOBBY_ATTEMPTS - 1:
                raise RuntimeError(f"lobby {op} refused: {reply.get('error')}")
            self.retries[code] = self.retries.get(code, 0) + 1
            await asyncio.sleep(0.5 * (attempt + 1))
        raise AssertionError("unreachable")

    async def connect_lobby(self) -> None:
        host, port = self.hosts[0]
        self.lobby = await MqttConnection.open(
            host,
            port,
            self._on_lobby,
            client_id=f"load-web-{uuid.uuid4().hex[:10]}",
            username="web",
            password=self.credentials.password("web"),
        )
        await self.lobby.subscribe(
            [
                (topics.lobby_response("create"), 1),
                (topics.lobby_response("join"), 1),
                (topics.service_status("tables"), 1),
            ]
        )

    async def wait_for_tables_service(self, timeout: float = 60.0) -> None:
        """A join of a table that does not exist, until the tables service answers it."""
        assert self.lobby is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            request_id = uuid.uuid4().hex[:16]
            future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            self.answers[request_id] = future
            probe = {"v": 1, "id": request_id, "table": "NONE", "name": "probe"}
            self.lobby.publish(topics.lobby_request("join"), orjson.dumps(probe))
            try:
                await asyncio.wait_for(future, 0.5)
                return
            except TimeoutError:
                self.answers.pop(request_id, None)
        raise TimeoutError("the tables service does not answer lobby requests")

    async def open_table(self) -> None:
        created = await self.request("create", {"game": self.game})
        code = str(created["table"])
        joins = []
        for number in range(self.seats):
            joins.append(await self.request("join", {"table": code, "name": f"P{number}"}))
        await self._seat_table(code, created["tv"], joins)

    async def _seat_table(self, code: str, tv: dict[str, Any], joins: list[dict[str, Any]]) -> None:
        """Every player of one table (and its TV) logs in; the host starts the game."""
        seats: list[tuple[Seat, dict[str, Any]]] = []
        for joined in joins:
            seat = Seat(code, int(joined["seat"]), str(joined["player_id"]), bool(joined["host"]))
            seats.append((seat, joined))
        for seat, joined in seats:
            await self._connect_seat(seat, str(joined["username"]), str(joined["password"]))
            self.players.append(seat)
        if self.tv:
            host, port = self.next_host()
            connection = await MqttConnection.open(
                host,
                port,
                lambda topic, payload: None,
                client_id=str(tv["username"]),
                username=str(tv["username"]),
                password=str(tv["password"]),
            )
            await connection.subscribe(
                [(topics.table_view(code), 0), (topics.table_events(code), 0)]
            )
            self.extra.append(connection)
        host_seat = next(seat for seat, _ in seats if seat.host)
        # Ready means playing: a "go" before the deal would make the host start it again.
        # Unanswered under load (the view lost, or the op), the host taps again, and asks
        # for a fresh view: a second start is refused (already_started), never dealt twice.
        deadline = time.monotonic() + 60
        while host_seat.view is None or host_seat.view.get("state") is None:
            if time.monotonic() > deadline:
                raise TimeoutError(f"table {code} did not start")
            self._host_op(host_seat, "start")
            for _ in range(100):
                if host_seat.view is not None and host_seat.view.get("state") is not None:
                    break
                await asyncio.sleep(0.05)
            else:
                self._sync(host_seat)

    async def _connect_seat(self, seat: Seat, username: str, password: str) -> None:
        host, port = self.next_host()
        seat.connection = await MqttConnection.open(
            host,
            port,
            lambda topic, payload: self._on_seat(seat, topic, payload),
            client_id=username,
            username=username,
            password=password,
        )
        filters = [
            (topics.seat_topic(seat.table, seat.seat, "view"), 0),
            (topics.seat_topic(seat.table, seat.seat, "reply"), 0),
        ]
        if seat.host:
            filters.append((topics.host_topic(seat.table, "reply"), 0))
        codes = await seat.connection.subscribe(filters)
        if any(code >= 0x80 for code in codes):
            raise RuntimeError(f"{username}: a subscription was refused")
        # A fresh view, as the phone page asks on connecting (views may not be retained).
        self._sync(seat)
        # Online, as a phone says it (retained): no stand-in bot takes the seat over.
        presence = orjson.dumps({"v": 1, "online": True, "tab": username})
        seat.connection.publish(
            topics.seat_topic(seat.table, seat.seat, "presence"), presence, retain=True
        )

    def _sync(self, seat: Seat) -> None:
        """Ask for this seat's view afresh (a seat intent ``sync``)."""
        assert seat.connection is not None
        sync = orjson.dumps({"v": 1, "id": uuid.uuid4().hex[:16], "op": "sync"})
        seat.connection.publish(
            topics.seat_topic(seat.table, seat.seat, "intent"), sync, qos=self.intent_qos
        )

    async def setup(self) -> None:
        gate = asyncio.Semaphore(LOBBY_IN_FLIGHT)

        async def one() -> None:
            async with gate:
                await self.open_table()

        await asyncio.gather(*(one() for _ in range(self.tables)))

    async def seat_prepared(self, tables: list[dict[str, Any]]) -> None:
        """Log in the players of tables opened beforehand (``benchmarks.loadgen.prepare``)."""
        gate = asyncio.Semaphore(LOBBY_IN_FLIGHT * 4)

        async def one(table: dict[str, Any]) -> None:
            async with gate:
                await self._seat_table(table["table"], table["tv"], table["seats"])

        await asyncio.gather(*(one(table) for table in tables))

    # ------------------------------------------------------------------ play
    def _on_seat(self, seat: Seat, topic: str, payload: bytes) -> None:
        if topic.endswith("/reply"):
            if self.playing and b'"error"' in payload:  # refusals while setting up: retried
                code = str(orjson.loads(payload)["error"]["code"])
                self.errors[code] = self.errors.get(code, 0) + 1
            return
        received = time.perf_counter()
        view = orjson.loads(payload)
        seq = int(view["seq"])
        if seq < seat.seq:
            return  # an older view than one already shown: never go back
        self.views += 1
        if 0 <= seat.waiting <= seq:
            start, end = self.window
            if start <= seat.sent_wall < end:
                self.latencies.append(received - seat.sent_at)
                self.answered_in_window += 1
            seat.waiting = -1
        seat.seq, seat.view = seq, view
        if self.playing:
            self._consider(seat)

    def _consider(self, seat: Seat) -> None:
        """Schedule this seat's next intent (or host op) if its view asks for one."""
        view = seat.view
        if view is None or seat.acted_on >= seat.seq:
            return
        state = view.get("state")
        loop = asyncio.get_running_loop()
        delay = self.rng.uniform(0.5, 1.5) / self.rate
        if state is None or state.get("phase") in ("round_over", "game_over"):
            if seat.host:
                seat.acted_on = seat.seq
                op = "start" if state is None else "next_round"
                if state is not None and state.get("phase") == "game_over":
                    op = "rematch"
                loop.call_later(delay, self._host_op, seat, op)
            return
        if state.get("current_seat") != seat.seat or not state.get("legal_actions"):
            return
        seat.acted_on = seat.seq
        loop.call_later(delay, self._act, seat, seat.seq)

    def _over(self) -> bool:
        """The window has ended: no new intents, those in flight have ``ANSWER_TIMEOUT``."""
        return time.time() >= self.window[1]

    def _act(self, seat: Seat, seq: int) -> None:
        if not self.playing or seat.seq != seq or seat.view is None or seat.connection is None:
            return  # the table moved on meanwhile (a host op): the next view decides
        if self._over():
            return
        state = seat.view["state"]
        if seat.player is None:
            seat.player = make_player(self.game, PLAYER_LEVEL, f"{seat.table}:{seat.seat}")
        seat.player.observe(state)
        action = seat.player.choose(state)
        intent = act_intent(uuid.uuid4().hex[:16], seq, seat.player_id, action)
        seat.sent_at, seat.sent_wall = time.perf_counter(), time.time()
        start, end = self.window
        if seat.waiting >= 0 and start <= seat.sent_wall < end:
            self.late += 1  # the last one was never shown (counted, then forgotten)
        seat.waiting = seq + 1
        if start <= seat.sent_wall < end:
            self.sent_in_window += 1
        seat.connection.publish(
            topics.seat_topic(seat.table, seat.seat, "intent"),
            orjson.dumps(intent),
            qos=self.intent_qos,
        )

    def _host_op(self, seat: Seat, op: str) -> None:
        if seat.connection is None or seat.connection.transport is None:
            return
        if self.playing and self._over():
            return
        self.host_ops += 1
        message = {"v": 1, "id": uuid.uuid4().hex[:16], "op": op, "player": seat.player_id}
        seat.connection.publish(
            topics.host_topic(seat.table, "intent"), orjson.dumps(message), qos=self.intent_qos
        )

    def go(self, start: float, end: float) -> None:
        self.window = (start, end)
        self.playing = True
        for seat in self.players:
            self._consider(seat)

    def result(self) -> dict[str, Any]:
        start, end = self.window
        # Sent in the window and still not shown ``ANSWER_TIMEOUT`` after it: late too.
        waiting = sum(1 for s in self.players if s.waiting >= 0 and start <= s.sent_wall < end)
        return {
            "latencies": self.latencies,
            "sent": self.sent_in_window,
            "answered": self.answered_in_window,
            "late": self.late,
            "unanswered_at_end": waiting,
            "errors": self.errors,
            "host_ops": self.host_ops,
            "views": self.views,
            "connections": len(self.players) + len(self.extra) + 1,
            "intent_qos": self.intent_qos,
        }

    def close(self) -> None:
        for seat in self.players:
            if seat.connection is not None:
                seat.connection.close()
        for connection in self.extra:
            connection.close()
        if self.lobby is not None:
            self.lobby.close()


def emit(kind: str, data: dict[str, Any]) -> None:
    sys.stdout.write(f"{kind} {orjson.dumps(data).decode()}\n")
    sys.stdout.flush()


async def run(args: argparse.Namespace) -> None:
    hosts = []
    for address in args.mqtt.split(","):
        host, _, port = address.rpartition(":")
        hosts.append((host, int(port)))
    generator = Generator(
        hosts=hosts,
        credentials=ServiceCredentials.load(args.secret_file),
        tables=args.tables,
        seats=args.seats,
        rate=args.rate,
        tv=args.tv,
        game=args.game,
        rng=random.Random(args.seed),
    )
    loop = asyncio.get_running_loop()
    started = time.monotonic()
    await generator.connect_lobby()
    await generator.wait_for_tables_service()
    if args.prepared is not None:
        tables = orjson.loads(args.prepared.read_bytes())
        await generator.seat_prepared(tables[args.share :: args.shares])
    else:
        await generator.setup()
    ready = {"tables": args.tables, "setup_seconds": time.monotonic() - started}
    # The generator stands for thousands of phones: its own full collections over every
    # player (tens of ms) would be counted as the table's latency. Long-lived from here.
    gc.collect()
    gc.freeze()
    emit("ready", {**ready, "lobby_retries": generator.retries})
    line = await loop.run_in_executor(None, sys.stdin.readline)
    _, start, end = line.split()
    generator.go(float(start), float(end))
    await asyncio.sleep(max(0.0, float(end) - time.time()) + ANSWER_TIMEOUT)
    generator.playing = False
    emit("result", generator.result())
    generator.close()
    await asyncio.sleep(0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mqtt", required=True, help="HOST:PORT[,HOST:PORT...]: broker nodes")
    parser.add_argument("--secret-file", type=Path, required=True)
    parser.add_argument("--tables", type=int, required=True)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--rate", type=float, default=1.0, help="intents a second per table")
    parser.add_argument("--tv", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--game", default="kings-corner")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--prepared", type=Path, default=None, help="tables opened beforehand")
    parser.add_argument("--share", type=int, default=0, help="with --prepared: this one's")
    parser.add_argument("--shares", type=int, default=1, help="with --prepared: out of")
    args = parser.parse_args()
    from services.broker.limits import raise_open_file_limit

    raise_open_file_limit()
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
