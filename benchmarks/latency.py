"""Intent -> public view latency through the real stack, next to the raw broker round trip.

For each broker (the embedded one and Mosquitto, each in its own process) and for
N = 1, 50 and 200 tables: a tables service (its own process, a real SQLite file) and N
Kings in the Corner tables of two scripted players each. Every table acts at a human
pace (one intent every ``--pace`` seconds, jittered); the latency is from publishing an
intent to receiving the public view that carries its result. The raw round trip is
measured on the same broker in the same run twice: back to back, and interleaved with
the intents at the same pace (see ``measure_tables``). Then the floor: the tables
service replaced by one that echoes each message at once (``benchmarks.echo_service``),
probed at the same pace: what any service behind the broker costs before doing any work.
Last, the resident memory of a whole idle ``gamenight serve`` stack (broker, tables,
bots, web in one process).

    python -m benchmarks.latency [--seconds 30] [--pace 1.0] [--tables 1,50,200]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psutil

from benchmarks.broker_rtt import embedded, round_trips
from benchmarks.echo_service import ECHO_IN, ECHO_OUT
from protocol import topics
from protocol.messages import act_intent
from services.bots.players import hint_action
from services.broker.credentials import ServiceCredentials
from services.broker.mosquitto import MosquittoProcess, free_tcp_port
from services.broker.settings import BrokerEndpoint
from services.mqtt import MqttClient

ROOT = Path(__file__).resolve().parent.parent


PROBE_TOPIC = f"{topics.BASE}/service/latency-probe/echo"
PROBE_PADDING = b" " * 1000  # about the size of a small view


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


@contextmanager
def service_process(command: list[str], ready: str | None = None) -> Iterator[None]:
    """A service in its own process; with ``ready``, wait for that line on its stdout."""
    process = subprocess.Popen(
        [sys.executable, *command],
        cwd=ROOT,
        stdout=subprocess.PIPE if ready else subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        if ready is not None:
            assert process.stdout is not None
            while ready not in process.stdout.readline():
                pass
        yield
    finally:
        process.terminate()
        process.wait(10)


def tables_command(broker: BrokerEndpoint, data: Path) -> list[str]:
    # GAMENIGHT_TABLES_COMMAND: another way to start it (an instrumented copy, say).
    start = os.environ.get("GAMENIGHT_TABLES_COMMAND", "-m services.tables").split()
    return [
        *start,
        "--broker",
        broker.service_url("tables"),
        "--data",
        str(data),
        "--client-id",
        f"bench-{uuid.uuid4().hex[:6]}",
    ]


class Driver:
    """Scripted players for many tables over one service connection, and the stopwatch."""

    def __init__(self, broker: BrokerEndpoint) -> None:
        self.lock = threading.Condition()
        self.public: dict[str, dict[str, Any]] = {}
        self.seats: dict[tuple[str, int], bytes] = {}
        self.replies: dict[str, dict[str, Any]] = {}
        self.sent: dict[tuple[str, int], float] = {}
        self.latencies: list[float] = []
        self.client = MqttClient(broker.service_url("web"))
        base = topics.BASE
        self.client.subscribe(f"{base}/table/+/view", self._on_public)
        self.client.subscribe(f"{base}/table/+/seat/+/view", self._on_seat)
        self.client.subscribe(topics.lobby_response("create"), self._on_reply)
        self.client.subscribe(topics.lobby_response("join"), self._on_reply)
        self.client.subscribe(f"{base}/table/+/host/reply", self._on_reply)
        self.client.subscribe(PROBE_TOPIC, self._on_probe)
        self.client.subscribe(ECHO_OUT, self._on_echo)
        self.probes: dict[int, float] = {}
        self.raw: list[float] = []
        self.echoes: dict[int, float] = {}
        self.echoed: list[float] = []
        self.client.start().wait_connected(10)

    def _on_public(self, topic: str, payload: bytes) -> None:
        received = time.perf_counter()
        view = json.loads(payload)
        with self.lock:
            key = (view["table"], view["seq"])
            started = self.sent.pop(key, None)
            if started is not None:
                self.latencies.append(received - started)
            self.public[view["table"]] = view
            self.lock.notify_all()

    def _on_probe(self, topic: str, payload: bytes) -> None:
        self._arrived(payload, self.probes, self.raw)

    def _on_echo(self, topic: str, payload: bytes) -> None:
        self._arrived(payload, self.echoes, self.echoed)

    def probe(self, number: int) -> None:
        """A raw round trip through the broker, on the same connection, under the same load."""
        self._send_numbered(PROBE_TOPIC, number, self.probes)

    def echo(self, number: int) -> None:
        """A round trip through the broker and the echo service."""
        self._send_numbered(ECHO_IN, number, self.echoes)

    def _send_numbered(self, topic: str, number: int, pending: dict[int, float]) -> None:
        payload = f"{number:012d}".encode() + PROBE_PADDING
        with self.lock:
            pending[number] = time.perf_counter()
        self.client.publish(topic, payload)

    def _arrived(self, payload: bytes, pending: dict[int, float], samples: list[float]) -> None:
        received = time.perf_counter()
        with self.lock:
            started = pending.pop(int(payload[:12]), None)
            if started is not None:
                samples.append(received - started)

    def _on_seat(self, topic: str, payload: bytes) -> None:
        # Kept as received, read only when that seat is to move: the network thread
        # stays free to timestamp the views we measure.
        parsed = topics.parse_topic(topic)
        if parsed is None or parsed.table is None or parsed.seat is None:
            return
        with self.lock:
            self.seats[(parsed.table, parsed.seat)] = payload

    def _on_reply(self, topic: str, payload: bytes) -> None:
        reply = json.loads(payload)
        with self.lock:
            self.replies[reply["id"]] = reply
            self.lock.notify_all()

    def request(self, topic: str, message: dict[str, Any]) -> dict[str, Any]:
        self.client.publish(topic, json.dumps(message).encode())
        with self.lock:
            if not self.lock.wait_for(lambda: message["id"] in self.replies, 10):
                raise TimeoutError(f"no reply on {topic}")
            return self.replies.pop(message["id"])

    def wait_for_service(self) -> None:
        for _ in range(100):
            try:
                probe = {"v": 1, "id": uuid.uuid4().hex[:8], "table": "NONE", "name": "x"}
                self.client.publish(topics.lobby_request("join"), json.dumps(probe).encode())
                with self.lock:
                    if self.lock.wait_for(lambda p=probe["id"]: p in self.replies, 0.3):
                        return
            except TimeoutError:
                pass
        raise TimeoutError("the tables service did not start")

    def open_table(self) -> str:
        created = self.request(
            topics.lobby_request("create"),
            {"v": 1, "id": uuid.uuid4().hex[:10], "game": "kings-corner"},
        )
        table = str(created["data"]["table"])
        for name in ("Ana", "Ben"):
            self.request(
                topics.lobby_request("join"),
                {"v": 1, "id": uuid.uuid4().hex[:10], "table": table, "name": name},
            )
        self.host(table, "start")
        return table

    def host(self, table: str, op: str) -> None:
        self.request(
            topics.host_topic(table, "intent"), {"v": 1, "id": uuid.uuid4().hex[:10], "op": op}
        )

    def step(self, table: str) -> None:
        """One scripted move at ``table`` (or a rematch when its game is over)."""
        with self.lock:
            public = self.public.get(table)
            if public is None or (table, public["seq"] + 1) in self.sent:
                return
            if public["status"] in ("round_over", "finished"):
                op = "next_round" if public["status"] == "round_over" else "rematch"
            else:
                op = ""
                seat = public["state"]["current_seat"]
                payload = self.seats.get((table, seat))
                view = json.loads(payload) if payload is not None else None
                if view is None or view["seq"] != public["seq"]:
                    return
                action = hint_action(view["state"]["game"], view["state"])
                intent = act_intent(uuid.uuid4().hex[:12], public["seq"], view["player"], action)
                self.sent[(table, public["seq"] + 1)] = time.perf_counter()
        if op:
            self.client.publish(
                topics.host_topic(table, "intent"),
                json.dumps({"v": 1, "id": uuid.uuid4().hex[:8], "op": op}),
            )
            return
        self.client.publish(topics.seat_topic(table, seat, "intent"), json.dumps(intent))

    def stop(self) -> None:
        self.client.stop()


def paced(keys: list[Any], seconds: float, pace: float, act: Callable[[Any, int], None]) -> None:
    """Call ``act(key, turn)`` for each key about every ``pace`` / 2 seconds, jittered."""
    chooser = random.Random(len(keys))
    due = {key: time.perf_counter() + chooser.uniform(0, pace) for key in keys}
    end = time.perf_counter() + seconds
    turn = 0
    while time.perf_counter() < end:
        key = min(due, key=due.__getitem__)
        delay = due[key] - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        turn += 1
        act(key, turn)
        due[key] = time.perf_counter() + chooser.uniform(0.25 * pace, 0.75 * pace)
    time.sleep(0.5)


def alternate(driver: Driver, table: str | None, turn: int) -> None:
    """Odd turns the measured thing (a move, or an echo with no table), even turns a probe."""
    if turn % 2 == 0:
        driver.probe(turn)
    elif table is None:
        driver.echo(turn)
    else:
        driver.step(table)


def measure_tables(
    broker: BrokerEndpoint, count: int, seconds: float, pace: float
) -> tuple[list[float], list[float]]:
    """Intent -> view latencies, and raw round trips taken at the same pace in the same run.

    Every other time a table is due, the driver sends a raw probe instead of an intent, so
    both are measured under the same load and the same idle gaps (an idle machine answers
    slower: a paced raw round trip here is several times a back-to-back one).
    """
    with (
        tempfile.TemporaryDirectory() as folder,
        service_process(tables_command(broker, Path(folder) / "b.db")),
    ):
        driver = Driver(broker)
        try:
            driver.wait_for_service()
            tables = [driver.open_table() for _ in range(count)]
            paced(tables, seconds, pace, lambda table, turn: alternate(driver, table, turn))
            return list(driver.latencies), list(driver.raw)
        finally:
            driver.stop()


def measure_floor(
    broker: BrokerEndpoint, count: int, seconds: float, pace: float
) -> tuple[list[float], list[float]]:
    """Round trips through a do-nothing echo service, and raw ones, at the tables' pace."""
    command = ["-m", "benchmarks.echo_service", "--broker", broker.service_url("tables")]
    with service_process(command, ready="ready"):
        driver = Driver(broker)
        try:
            numbers = list(range(count))
            paced(numbers, seconds, pace, lambda _, turn: alternate(driver, None, turn))
            return list(driver.echoed), list(driver.raw)
        finally:
            driver.stop()


def summary(values: list[float]) -> tuple[float, float]:
    """p50 and p99 in milliseconds."""
    return statistics.median(values) * 1000, percentile(values, 0.99) * 1000


def run_broker(
    name: str, broker: BrokerEndpoint, counts: list[int], args: argparse.Namespace
) -> None:
    hot_p50, hot_p99 = summary(round_trips(broker.service_url("web"), 2000, 1))
    print(f"{name}: raw round trip back to back (QoS 1)  p50 {hot_p50:.3f}  p99 {hot_p99:.3f} ms")
    for count in counts:
        latencies, raw = measure_tables(broker, count, args.seconds, args.pace)
        echoed, floor_raw = measure_floor(broker, count, args.seconds, args.pace)
        if not latencies or not raw or not echoed or not floor_raw:
            print(f"  {count:>3} tables: no samples")
            continue
        (p50, p99), (raw_p50, raw_p99) = summary(latencies), summary(raw)
        (echo_p50, echo_p99), (floor_p50, floor_p99) = summary(echoed), summary(floor_raw)
        rate = len(latencies) / args.seconds
        print(
            f"  {count:>3} tables ({rate:6.1f} intents/s): intent->view p50 {p50:.3f}"
            f"  p99 {p99:.3f} ms | raw at the same pace p50 {raw_p50:.3f}  p99 {raw_p99:.3f} ms"
            f" | ratio p50 {p50 / raw_p50:.2f}  p99 {p99 / raw_p99:.2f}"
            f" | ratio to back to back p50 {p50 / hot_p50:.2f}  p99 {p99 / hot_p99:.2f}\n"
            f"      floor, a do-nothing echo service at the same pace: p50 {echo_p50:.3f}"
            f"  p99 {echo_p99:.3f} ms | raw p50 {floor_p50:.3f}  p99 {floor_p99:.3f} ms"
            f" | ratio p50 {echo_p50 / floor_p50:.2f}  p99 {echo_p99 / floor_p99:.2f}"
            f" | ratio to back to back p50 {echo_p50 / hot_p50:.2f}  p99 {echo_p99 / hot_p99:.2f}"
        )


def idle_memory() -> None:
    """Resident memory of a whole ``gamenight serve`` stack, idle after start."""
    with tempfile.TemporaryDirectory() as folder:
        port, mqtt, ws = free_tcp_port(), free_tcp_port(), free_tcp_port()
        command = [
            sys.executable,
            "-m",
            "services.cli",
            "serve",
            "--data",
            f"{folder}/gn.db",
            "--port",
            str(port),
            "--mqtt",
            f"127.0.0.1:{mqtt}",
            "--ws",
            f"127.0.0.1:{ws}",
            "--host",
            "127.0.0.1",
        ]
        process = subprocess.Popen(
            command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            time.sleep(4)
            tree = psutil.Process(process.pid)
            rss = sum(p.memory_info().rss for p in [tree, *tree.children(recursive=True)])
            stack = "broker+tables+bots+assistant+web, one process"
            print(f"idle stack ({stack}): {rss / 2**20:.1f} MB RSS")
        finally:
            process.terminate()
            process.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between a table's moves")
    parser.add_argument("--tables", default="1,50,200")
    parser.add_argument("--brokers", default="mosquitto,embedded")
    args = parser.parse_args()
    counts = [int(part) for part in args.tables.split(",")]
    credentials = ServiceCredentials.generate()
    with tempfile.TemporaryDirectory() as folder:
        for name in args.brokers.split(","):
            if name == "mosquitto":
                with MosquittoProcess(Path(folder) / "mosquitto", credentials) as process:
                    run_broker("mosquitto", process.endpoint, counts, args)
            else:
                with embedded(credentials, Path(folder) / "embedded") as endpoint:
                    run_broker("embedded (amqtt)", endpoint, counts, args)
    idle_memory()
    print(f"(pid {os.getpid()}; one table acts every ~{args.pace} s)")


if __name__ == "__main__":
    main()
