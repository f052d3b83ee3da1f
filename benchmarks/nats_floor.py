"""The NATS cluster's own CPU for the messages one move needs, with the cheapest client.

The floor under ``benchmarks.load --broker nats``: the same three ``nats-server`` nodes
(``services.cluster.NatsCluster``), and per move only what no design can skip: the intent
in (a core NATS message from a "phone" connected to one node to a "tables" connection on
another), its entry appended to a replicated log (a JetStream publish with the expected
last sequence of its table's subject, as ``services.tables.jetstream`` appends, acked by
the stream's leader after its replicas), and three views out (two seats and the table, a
kilobyte each, core NATS, to connections spread over the nodes). No MQTT (its QoS 1 is
a JetStream consumer per subscription), no rules, no Python tables service: the client
process's CPU is not counted, only the three servers'.

    python -m benchmarks.nats_floor [--rates 0,500,1000,2000] [--replicas 3] [--duration 15]

Prints, for each rate, the moves a second achieved, the servers' CPU (% of one core, all
three) and CPU ms per move. If the servers alone need more than the two cores of this
machine at 2,000 moves a second, no client design fits 2,000 tables here.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import nats
import psutil  # type: ignore[import-untyped,unused-ignore]
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.js import api
from nats.js.errors import NotFoundError

from services.cluster.nodes import NatsCluster

STREAM = "FLOOR"
TABLES = 2000  # tables the moves are spread over (each its own log subject)
PHONES_PER_NODE = 8  # connections that receive the views, on every node
VIEW = b"v" * 1000


async def run_rate(cluster: NatsCluster, rate: int, duration: float, replicas: int) -> str:
    password = cluster.credentials.password("tables")
    urls = cluster.nats_urls

    async def connect(url: str) -> Client:
        return await nats.connect(servers=[url], user="tables", password=password)

    service = await connect(urls[0])
    js = service.jetstream(timeout=10)
    with contextlib.suppress(NotFoundError):  # left by the last rate
        await js.delete_stream(STREAM)
    await js.add_stream(
        api.StreamConfig(
            name=STREAM,
            subjects=[f"{STREAM.lower()}.log.*"],
            storage=api.StorageType.FILE,
            num_replicas=replicas,
        )
    )
    phones = [await connect(url) for url in urls for _ in range(PHONES_PER_NODE)]
    received = 0

    async def on_view(_: object) -> None:
        nonlocal received
        received += 1

    for index, phone in enumerate(phones):
        await phone.subscribe(f"floor.view.{index}", cb=on_view)
    last: dict[int, int] = {}
    appended = 0
    pending: set[asyncio.Task[None]] = set()

    async def move(table: int) -> None:
        nonlocal appended
        headers: dict[str, Any] = {
            api.Header.EXPECTED_LAST_SUBJECT_SEQUENCE: str(last.get(table, 0))
        }
        ack = await js.publish(f"floor.log.{table}", b'{"op":"act"}', headers=headers)
        last[table] = int(ack.seq)
        appended += 1
        for step in range(3):
            await service.publish(f"floor.view.{(table * 3 + step) % len(phones)}", VIEW)

    busy: set[int] = set()  # a table's next move waits for its append, as the service's

    async def on_intent(message: Msg) -> None:
        table = int(message.subject.rsplit(".", 1)[1])
        if table in busy:
            return
        busy.add(table)
        task = asyncio.ensure_future(move(table))
        pending.add(task)
        task.add_done_callback(pending.discard)
        task.add_done_callback(lambda _: busy.discard(table))

    await service.subscribe("floor.intent.*", cb=on_intent)
    await service.flush()
    servers = [psutil.Process(pid) for pid in cluster.pids if pid is not None]
    sender = phones[-1]  # on the last node: the intent crosses a route, as a phone's may

    async def send_for(seconds: float) -> int:
        sent, started = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - started) < seconds:
            due = int(elapsed * rate)
            while sent < due:
                await sender.publish(f"floor.intent.{sent % TABLES}", b'{"v":1}')
                sent += 1
            await asyncio.sleep(0.002)
        return sent

    await send_for(3.0)  # warm-up
    cpu_before = [sum(p.cpu_times()[:2]) for p in servers]
    appended_before, started = appended, time.perf_counter()
    await send_for(duration)
    seconds = time.perf_counter() - started
    moves = appended - appended_before
    cpu = sum(
        sum(process.cpu_times()[:2]) - before
        for process, before in zip(servers, cpu_before, strict=True)
    )
    await asyncio.gather(*pending, return_exceptions=True)
    for connection in [service, *phones]:
        await connection.close()
    per_move = f"{cpu / moves * 1000:>8.3f}" if moves else f"{'-':>8}"
    return (
        f"{rate:>6} {moves / seconds:>8.0f} {cpu / seconds * 100:>9.0f}% {per_move}"
        f"   (views received {received})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--rates", default="0,500,1000,2000", help="moves a second to try (0: the idle cost)"
    )
    parser.add_argument("--replicas", type=int, default=3, help="the log's replicas")
    parser.add_argument("--duration", type=float, default=15.0, help="seconds measured")
    args = parser.parse_args()
    print(f"3 nats-server nodes, log R{args.replicas}; {os.cpu_count()} cores")
    print(f"{'rate':>6} {'moves/s':>8} {'servers CPU':>10} {'ms/move':>8}")
    with (
        tempfile.TemporaryDirectory(prefix="gn-floor-") as workdir,
        NatsCluster(Path(workdir), 3, responders=False) as cluster,
    ):
        for rate in (int(part) for part in args.rates.split(",")):
            line = asyncio.run(run_rate(cluster, rate, args.duration, args.replicas))
            print(line, flush=True)


if __name__ == "__main__":
    main()
