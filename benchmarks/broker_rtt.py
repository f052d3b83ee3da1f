"""Raw broker round trip: publish, and time until the broker hands the message back.

Both brokers run as their own processes (the embedded one via ``python -m services.broker``),
and the client is ``services.mqtt.MqttClient``, as every service uses it (TCP_NODELAY on).

    python -m benchmarks.broker_rtt [--samples 2000]     (from the project root)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from services.broker.credentials import SECRET_ENV, ServiceCredentials
from services.broker.mosquitto import DEFAULT_BINARY, MosquittoProcess, free_tcp_port
from services.broker.settings import BrokerEndpoint
from services.mqtt import MqttClient

ROOT = Path(__file__).resolve().parent.parent

TOPIC = "gamenight/v1/table/BENCH/events"
PAYLOAD = b'{"v":1,"seq":1,"events":[{"code":"play","seat":0,"params":{"card":"7H"}}]}'


@contextmanager
def embedded(credentials: ServiceCredentials, data: Path) -> Iterator[BrokerEndpoint]:
    tcp, ws = free_tcp_port(), free_tcp_port()
    env = {**os.environ, SECRET_ENV: credentials.secret, "PYTHONPATH": str(ROOT)}
    args = ["--tcp", f"127.0.0.1:{tcp}", "--ws", f"127.0.0.1:{ws}", "--data", str(data)]
    with subprocess.Popen(
        [sys.executable, "-m", "services.broker", *args],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    ) as process:
        try:
            assert process.stdout is not None
            for _ in range(2):
                process.stdout.readline()  # "broker listening on ..."
            yield BrokerEndpoint("embedded", "127.0.0.1", tcp, ws, credentials)
        finally:
            process.terminate()
            process.wait(10)


def round_trips(url: str, samples: int, qos: int) -> list[float]:
    """Seconds from publish to delivery back to the same client, ``samples`` times."""
    arrived = threading.Event()
    client = MqttClient(url)
    client.subscribe(TOPIC, lambda topic, payload: arrived.set(), qos)
    client.start().wait_connected(10.0)
    times: list[float] = []
    try:
        for index in range(samples + samples // 10):  # the first tenth warms up
            arrived.clear()
            start = time.perf_counter()
            client.publish(TOPIC, PAYLOAD, qos)
            if not arrived.wait(5.0):
                raise TimeoutError("a message did not come back")
            if index >= samples // 10:
                times.append(time.perf_counter() - start)
    finally:
        client.stop()
    return times


def report(name: str, times: list[float]) -> None:
    ordered = sorted(times)
    p50 = statistics.median(ordered) * 1000
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
    print(f"{name:<28} p50 {p50:6.3f} ms   p99 {p99:6.3f} ms   max {ordered[-1] * 1000:7.3f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=2000)
    args = parser.parse_args()
    credentials = ServiceCredentials.generate()
    print(f"{args.samples} round trips each, payload {len(PAYLOAD)} bytes, loopback")
    with tempfile.TemporaryDirectory() as folder:
        with embedded(credentials, Path(folder) / "embedded") as endpoint:
            measure_all(endpoint, args.samples)
        if not DEFAULT_BINARY.exists():
            print(f"(no {DEFAULT_BINARY}: Mosquitto skipped)")
            return 0
        with MosquittoProcess(Path(folder) / "mosquitto", credentials) as process:
            measure_all(process.endpoint, args.samples)
    return 0


def measure_all(endpoint: BrokerEndpoint, samples: int) -> None:
    for ws in (False, True):
        for qos in (0, 1):
            url = endpoint.service_url("tables", ws=ws)
            report(
                f"{endpoint.kind} {'ws' if ws else 'tcp'} qos{qos}", round_trips(url, samples, qos)
            )


if __name__ == "__main__":
    sys.exit(main())
