"""What an account costs on the NATS cluster: provision, callout login, revoke.

A fresh 3-node ``NatsCluster`` (its three callout responders); ``NatsAccounts`` writes
``--accounts`` player accounts into the replicated bucket, then players log in over MQTT
(spread over the nodes: CONNECT to CONNACK, through ``$SYS.REQ.USER.AUTH``), then the
accounts are revoked (no connection open, so no kick).

    python -m benchmarks.nats_accounts [--accounts 300] [--logins 60]   (from the project root)

The machine is shared: figures are noisy.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from protocol.topics import player_grants
from services.cluster.accounts import NatsAccounts
from services.cluster.nodes import NatsCluster
from services.mqtt import MqttClient, broker_url


def timed(count: int, action: Callable[[int], None]) -> list[float]:
    seconds = []
    for i in range(count):
        started = time.perf_counter()
        action(i)
        seconds.append(time.perf_counter() - started)
    return sorted(seconds)


def summary(name: str, seconds: list[float]) -> str:
    p99 = seconds[min(len(seconds) - 1, int(len(seconds) * 0.99))]
    return f"{name}: median {statistics.median(seconds) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--accounts", type=int, default=300)
    parser.add_argument("--logins", type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        cluster = NatsCluster(Path(folder), 3)
        with cluster, NatsAccounts(cluster.nats_urls, cluster.credentials) as accounts:

            def provision(i: int) -> None:
                accounts.provision(f"u-b{i}", "tok", player_grants("BENCH", i % 16))

            def login(i: int) -> None:
                spec = cluster.specs[i % len(cluster.specs)]
                url = broker_url("mqtt", spec.host, spec.ports.mqtt, f"u-b{i}", "tok")
                client = MqttClient(url).start()
                try:
                    client.wait_connected(30)
                finally:
                    client.stop()

            print(summary(f"provision ({args.accounts})", timed(args.accounts, provision)))
            logins = min(args.logins, args.accounts)
            print(summary(f"login through the callout ({logins})", timed(logins, login)))
            revoked = timed(args.accounts, lambda i: accounts.revoke(f"u-b{i}"))
            print(summary(f"revoke ({args.accounts})", revoked))


if __name__ == "__main__":
    main()
