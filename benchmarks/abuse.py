"""Floods against one table while another is measured: does anyone slow the other tables?

For each broker (the embedded one as its own process, and Mosquitto), with the tables
service as its own process (``python -m services.tables``) and each flood in a process of
its own (so that none shares this one's interpreter lock): a victim table's player times
round trips (intent out, reply back) while, against a second table, one of these runs:

* ``oversized``   1 MB intents, ten a second (each closes its sender's connection)
* ``name_taken``  joins with a taken name over HTTP (a real web service), as fast as
                  they are answered (the web service rate-limits them per address)
* ``sync_flood``  one seat's syncs, 2,000 a second
* ``idle``        500 sockets that never send CONNECT

The round trip is a move on a stale view (checked, refused ``stale_seq``, answered).
It prints p50/p99/max of the victim's round trip under each flood, how many of its
round trips were lost, and the broker's resident memory after the flood. Loopback only.

    python -m benchmarks.abuse [--samples 300]     (from the project root)
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from protocol import topics
from protocol.messages import act_intent
from protocol.messages import json_loads as loads
from services.broker.credentials import SECRET_ENV, ServiceCredentials
from services.broker.mosquitto import DEFAULT_BINARY, MosquittoProcess, free_tcp_port
from services.broker.settings import BrokerEndpoint
from services.mqtt import MqttClient
from services.web import start_web
from services.wire import dumps

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def embedded(credentials: ServiceCredentials, data: Path) -> Iterator[tuple[BrokerEndpoint, int]]:
    tcp = free_tcp_port()
    env = {**os.environ, SECRET_ENV: credentials.secret, "PYTHONPATH": str(ROOT)}
    args = ["--tcp", f"127.0.0.1:{tcp}", "--ws", "off", "--data", str(data)]
    with subprocess.Popen(
        [sys.executable, "-m", "services.broker", *args], env=env, stdout=subprocess.PIPE, text=True
    ) as process:
        try:
            assert process.stdout is not None
            process.stdout.readline()  # "broker listening on ..."
            yield BrokerEndpoint("embedded", "127.0.0.1", tcp, None, credentials), process.pid
        finally:
            process.terminate()
            process.wait(10)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Lobby:
    """Lobby requests as the web service sends them."""

    def __init__(self, endpoint: BrokerEndpoint) -> None:
        self.answers: dict[str, dict[str, object]] = {}
        self.changed = threading.Condition()
        self.client = MqttClient(endpoint.service_url("web"))
        for op in topics.LOBBY_OPS:
            self.client.subscribe(topics.lobby_response(op), self._keep)
        self.client.start().wait_connected(10)

    def _keep(self, topic: str, payload: bytes) -> None:
        reply = loads(payload)
        with self.changed:
            self.answers[str(reply["id"])] = reply
            self.changed.notify_all()

    def request(self, op: str, wait: bool = True, **body: object) -> dict[str, object]:
        request_id = uuid.uuid4().hex[:12]
        self.client.publish(topics.lobby_request(op), dumps({"v": 1, "id": request_id, **body}))
        deadline = time.monotonic() + 10
        with self.changed:
            while wait and request_id not in self.answers and time.monotonic() < deadline:
                self.changed.wait(0.5)
            return self.answers.pop(request_id, {})


def seated(endpoint: BrokerEndpoint, lobby: Lobby, name: str) -> tuple[str, MqttClient, Seat]:
    table = str(lobby.request("create")["data"]["table"])  # type: ignore[index]
    seat: Seat = lobby.request("join", table=table, name=name)["data"]  # type: ignore[assignment]
    client = MqttClient(
        endpoint.url(seat["username"], seat["password"]), client_id=seat["username"]
    )
    return table, client, seat


def round_trips(
    client: MqttClient, table: str, seat: Seat, samples: int
) -> tuple[list[float], int]:
    arrived = threading.Event()
    waiting = {"id": ""}

    def on_reply(topic: str, payload: bytes) -> None:
        if loads(payload).get("id") == waiting["id"]:
            arrived.set()

    client.subscribe(topics.seat_topic(table, seat["seat"], "reply"), on_reply)
    client.start().wait_connected(10)
    intent_topic = topics.seat_topic(table, seat["seat"], "intent")
    times: list[float] = []
    lost = 0
    for number in range(samples):
        waiting["id"] = f"rt{number}"
        arrived.clear()
        start = time.perf_counter()
        # A move on a view that is not the table's: checked, refused (stale_seq), answered.
        intent = act_intent(waiting["id"], 10**6, seat["player_id"], {"type": "draw"})
        client.publish(intent_topic, dumps(intent))
        if arrived.wait(2.0):
            times.append(time.perf_counter() - start)
        else:
            lost += 1
        time.sleep(0.01)
    return times, lost


Stop = Any  # a multiprocessing Event
Seat = dict[str, Any]  # what a join answered


def flood_oversized(endpoint: BrokerEndpoint, table: str, seat: Seat, stop: Stop) -> None:
    topic = topics.seat_topic(table, seat["seat"], "intent")
    payload = b"[" + b"0," * 500_000 + b"0]"
    while not stop.is_set():
        client = MqttClient(
            endpoint.url(seat["username"], seat["password"]), client_id=seat["username"]
        )
        client.start()
        try:
            client.wait_connected(2)
            client.publish(topic, payload)
        except Exception:
            pass
        stop.wait(0.1)
        client.stop()


def flood_name_taken(endpoint: BrokerEndpoint, table: str, seat: Seat, stop: Stop) -> None:
    """Joins with a taken name over HTTP from one address, as fast as they are answered."""
    web = start_web(broker_url=endpoint.service_url("web"), ws_url="ws://{host}:1/mqtt")
    url = f"{web.url}/api/tables/{table}/join"
    body = json.dumps({"name": "Flooder"}).encode()
    statuses: Counter[int] = Counter()
    try:
        while not stop.is_set():
            post = urllib.request.Request(url, body, {"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(post, timeout=10) as response:
                    statuses[response.status] += 1
            except urllib.error.HTTPError as refused:
                statuses[refused.code] += 1
    finally:
        web.stop()
        print(f"    (joins answered by HTTP status: {dict(statuses)})", flush=True)


def flood_syncs(endpoint: BrokerEndpoint, table: str, seat: Seat, stop: Stop) -> None:
    client = MqttClient(
        endpoint.url(seat["username"], seat["password"]), client_id=seat["username"]
    )
    client.start().wait_connected(10)
    topic = topics.seat_topic(table, seat["seat"], "intent")
    while not stop.is_set():
        for _ in range(20):  # 2,000 a second
            client.publish(topic, b'{"v":1,"id":"f","op":"sync"}')
        stop.wait(0.01)
    client.stop()


def flood_idle(endpoint: BrokerEndpoint, table: str, seat: Seat, stop: Stop) -> None:
    sockets = []
    for _ in range(500):
        try:
            sockets.append(socket.create_connection((endpoint.host, endpoint.tcp_port)))
        except OSError:
            break
    stop.wait()
    for sock in sockets:
        sock.close()


def no_flood(endpoint: BrokerEndpoint, table: str, seat: Seat, stop: Stop) -> None:
    stop.wait()


FLOODS: dict[str, Callable[[BrokerEndpoint, str, Seat, Stop], None]] = {
    "none": no_flood,
    "oversized": flood_oversized,
    "name_taken": flood_name_taken,
    "sync_flood": flood_syncs,
    "idle": flood_idle,
}


def measure(endpoint: BrokerEndpoint, pid: int, data: Path, samples: int) -> None:
    owner = f"abuse-{uuid.uuid4().hex[:6]}"
    command = [sys.executable, "-m", "services.tables", "--broker", endpoint.service_url("tables")]
    command += ["--data", str(data), "--client-id", owner]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    tables = subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL)
    lobby = Lobby(endpoint)
    try:
        while not lobby.request("create"):  # until the service answers
            time.sleep(0.2)
        for name, flood in FLOODS.items():
            victim_table, victim, victim_seat = seated(endpoint, lobby, "Victim")
            target_table, _, target_seat = seated(endpoint, lobby, "Flooder")
            stop = multiprocessing.Event()
            process = multiprocessing.Process(
                target=flood, args=(endpoint, target_table, target_seat, stop)
            )
            process.start()
            time.sleep(1.0)
            times, lost = round_trips(victim, victim_table, victim_seat, samples)
            memory = rss_mb(pid)
            stop.set()
            process.join(30)
            if process.is_alive():
                process.kill()
            victim.stop()
            report(f"{endpoint.kind} {name}", times, lost, memory, rss_mb(tables.pid))
    finally:
        lobby.client.stop()
        tables.terminate()
        tables.wait(10)


def report(name: str, times: list[float], lost: int, memory: float, service: float) -> None:
    ordered = sorted(times) or [float("nan")]
    p50 = statistics.median(ordered) * 1000
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
    print(
        f"{name:<22} p50 {p50:7.2f} ms  p99 {p99:7.2f} ms  max {ordered[-1] * 1000:8.2f} ms"
        f"  lost {lost}  broker {memory:6.1f} MB  tables {service:5.1f} MB",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()
    credentials = ServiceCredentials.generate()
    print(f"victim sync round trips: {args.samples} per flood, loopback; noisy on a shared machine")
    with tempfile.TemporaryDirectory() as folder:
        with embedded(credentials, Path(folder) / "embedded") as (endpoint, pid):
            measure(endpoint, pid, Path(folder) / "embedded.db", args.samples)
        if not DEFAULT_BINARY.exists():
            print(f"(no {DEFAULT_BINARY}: Mosquitto skipped)")
            return 0
        with MosquittoProcess(Path(folder) / "mosquitto", credentials) as process:
            measure(process.endpoint, process.pid, Path(folder) / "mosquitto.db", args.samples)
    return 0


if __name__ == "__main__":
    sys.exit(main())
