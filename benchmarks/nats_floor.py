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
    python -m benchmarks.nats_floor --mqtt [--intent-qos 0|1] [--retain 0|1]

With ``--mqtt`` the intent comes in and the views go out over MQTT, as phones and the
tables service send them (the intent at ``--intent-qos``; views at QoS 0, retained or not,
and a QoS 0 reply to the sender), while the service still reads intents and appends over
NATS: the least any MQTT design pays, to set beside the core NATS floor.

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
from services.mqtt import MqttClient, broker_url

STREAM = "FLOOR"
TABLES = 2000  # tables the moves are spread over (each its own log subject)
PHONES_PER_NODE = 8  # connections that receive the views, on every node
VIEW = b"v" * 1000


class MqttSide:
    """The MQTT ends of ``--mqtt``: phones that receive views, the sender, the publisher."""

    def __init__(self, cluster: NatsCluster, intent_qos: int, retain: bool) -> None:
        password = cluster.credentials.password("tables")
        self.intent_qos, self.retain = intent_qos, retain
        self.clients: list[MqttClient] = []
        self.received = 0
        for spec in cluster.specs:
            url = broker_url("mqtt", spec.host, spec.ports.mqtt, "tables", password)
            for _ in range(PHONES_PER_NODE):
                self.clients.append(MqttClient(url).start())
        for client in self.clients:
            client.wait_connected(10)
        self.publisher, self.sender = self.clients[0], self.clients[-1]

    def subscribe_views(self) -> None:
        for index, client in enumerate(self.clients):
            client.subscribe(f"floor/view/{index}", self._on_view, qos=0)
        self.sender.subscribe("floor/reply", self._on_view, qos=0)
        time.sleep(1.0)  # the subscriptions reach every node

    def _on_view(self, *_: object) -> None:
        self.received += 1  # one thread per client: a lost increment only blurs a count

    def send_intent(self, table: int) -> None:
        self.sender.publish(f"floor/intent/{table}", b'{"v":1}', qos=self.intent_qos)

    def send_views(self, table: int) -> None:
        for step in range(3):
            topic = f"floor/view/{(table * 3 + step) % len(self.clients)}"
            self.publisher.publish(topic, VIEW, qos=0, retain=self.retain)
        self.publisher.publish("floor/reply", b'{"ok":true}', qos=0)

    def stop(self) -> None:
        for client in self.clients:
            client.stop()


async def run_rate(
    cluster: NatsCluster, rate: int, duration: float, replicas: int, mqtt: MqttSide | None
) -> str:
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
        if mqtt is not None:
            mqtt.send_views(table)
            return
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
                if mqtt is not None:
                    mqtt.send_intent(sent % TABLES)
                else:
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
        f"   (views received {received + (mqtt.received if mqtt else 0)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--rates", default="0,500,1000,2000", help="moves a second to try (0: the idle cost)"
    )
    parser.add_argument("--replicas", type=int, default=3, help="the log's replicas")
    parser.add_argument("--duration", type=float, default=15.0, help="seconds measured")
    parser.add_argument("--mqtt", action="store_true", help="intents and views over MQTT")
    parser.add_argument("--intent-qos", type=int, choices=(0, 1), default=1)
    parser.add_argument("--retain", type=int, choices=(0, 1), default=1, help="retained views")
    args = parser.parse_args()
    views = "retained" if args.retain else "not retained"
    over = f"MQTT (intent QoS {args.intent_qos}, views {views})" if args.mqtt else "core NATS"
    print(f"3 nats-server nodes, log R{args.replicas}, over {over}; {os.cpu_count()} cores")
    print(f"{'rate':>6} {'moves/s':>8} {'servers CPU':>10} {'ms/move':>8}")
    with (
        tempfile.TemporaryDirectory(prefix="gn-floor-") as workdir,
        NatsCluster(Path(workdir), 3, responders=False) as cluster,
    ):
        mqtt = MqttSide(cluster, args.intent_qos, bool(args.retain)) if args.mqtt else None
        try:
            if mqtt is not None:
                mqtt.subscribe_views()
            for rate in (int(part) for part in args.rates.split(",")):
                line = asyncio.run(run_rate(cluster, rate, args.duration, args.replicas, mqtt))
                print(line, flush=True)
        finally:
            if mqtt is not None:
                mqtt.stop()


if __name__ == "__main__":
    main()
