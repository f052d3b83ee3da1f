"""The embedded broker's round trip while another thread of its process computes.

``gamenight serve`` runs the broker and every service in one process, so the broker's I/O
thread shares the GIL with work that computes for seconds: the assistant's likeness index
at start (built here, in a thread, exactly as the assistant service builds it). Prints
the round trip (publish by one service, delivery to another) idle and during the build,
at Python's default GIL switch interval and at the one ``gamenight serve`` sets.

    python -m benchmarks.broker_busy
"""

from __future__ import annotations

import statistics
import sys
import threading
import time

from benchmarks.latency import percentile
from protocol import topics
from services.assistant import similar
from services.broker.credentials import ServiceCredentials
from services.broker.embedded import start_embedded_broker
from services.broker.mosquitto import free_tcp_port
from services.broker.settings import BrokerEndpoint
from services.mqtt import MqttClient
from services.serve import SWITCH_INTERVAL_SECONDS

TOPIC = topics.table_view("BUSY")


def measure(endpoint: BrokerEndpoint) -> tuple[list[float], list[float], float]:
    """Round trips (ms) idle, then while the likeness index builds; the build's seconds."""
    arrived = threading.Event()
    sender = MqttClient(endpoint.service_url("tables"), service="tables")
    receiver = MqttClient(endpoint.service_url("web"), service="web")
    receiver.subscribe(TOPIC, lambda topic, payload: arrived.set())
    receiver.start().wait_connected(10.0)
    sender.start().wait_connected(10.0)
    time.sleep(0.3)  # the subscription in place

    def once() -> float:
        arrived.clear()
        start = time.perf_counter()
        sender.publish(TOPIC, b"{}")
        if not arrived.wait(10.0):
            raise TimeoutError("a round trip was lost")
        return (time.perf_counter() - start) * 1000

    try:
        idle = [once() for _ in range(300)]
        build = threading.Thread(target=lambda: similar.Model(similar.load_exemplars()))
        started = time.perf_counter()
        build.start()
        busy = []
        while build.is_alive():
            busy.append(once())
        return idle, busy, time.perf_counter() - started
    finally:
        sender.stop()
        receiver.stop()


def main() -> None:
    credentials = ServiceCredentials.generate()
    port = free_tcp_port()
    default = sys.getswitchinterval()
    with start_embedded_broker(credentials, tcp=f"127.0.0.1:{port}"):
        endpoint = BrokerEndpoint("embedded", "127.0.0.1", port, None, credentials)
        for interval in (default, SWITCH_INTERVAL_SECONDS):
            sys.setswitchinterval(interval)
            similar._featured.cache_clear()  # each run builds the index from scratch
            idle, busy, seconds = measure(endpoint)
            print(
                f"switch interval {interval * 1000:.1f} ms: round trip idle p50 "
                f"{statistics.median(idle):.2f} p99 {percentile(idle, 0.99):.2f} ms; while the "
                f"index builds ({seconds:.1f} s) p50 {statistics.median(busy):.2f} "
                f"p99 {percentile(busy, 0.99):.2f} max {max(busy):.2f} ms ({len(busy)} trips)"
            )
    sys.setswitchinterval(default)


if __name__ == "__main__":
    main()
