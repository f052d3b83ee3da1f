"""The replicated table log's costs on real nats-server nodes (loopback).

For one node and for a three-node cluster (streams and buckets R3): the latency of one
fenced append (expected-last-subject-sequence publish, waited for), appends a second from
one thread, and what a takeover costs once a dead copy is noticed: claiming each table's
lease (compare-and-set) and reading its log back (which seals it at the new epoch), for
all the tables at once (``JetStreamStore.take_over``, as the lease keeper does it).
A takeover also waits ``LEASE_SECONDS`` (+ up to one heartbeat) to notice the death.

    python -m benchmarks.tables_store [--tables 100] [--appends 3000] [--nodes 1 3]

The machine is shared (two cores): figures are noisy, compare them on one run.
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.latency import percentile
from services.cluster.nodes import NatsCluster
from services.tables import credentials
from services.tables.jetstream import JetStreamStore
from services.tables.leases import HEARTBEAT_SECONDS, LEASE_SECONDS

GAME = "kings-corner"


def _beat(store: JetStreamStore, stop: threading.Event) -> None:
    """What a copy's lease keeper does: without it, appends stop (the lease runs out)."""
    while not stop.wait(HEARTBEAT_SECONDS):
        store.leases.heartbeat(0)


def _store(cluster: NatsCluster, owner: str) -> JetStreamStore:
    password = cluster.credentials.password("tables")
    store = JetStreamStore(cluster.nats_urls, owner, user="tables", password=password).start()
    store.leases.heartbeat(0)
    return store


def measure(nodes: int, tables: int, appends: int) -> None:
    with tempfile.TemporaryDirectory() as workdir:
        cluster = NatsCluster(Path(workdir), nodes=nodes, responders=False).start()
        stop = threading.Event()
        try:
            writer = _store(cluster, "writer")
            threading.Thread(target=_beat, args=(writer, stop), daemon=True).start()
            codes = [credentials.new_table_code(8) for _ in range(tables)]
            epochs = {code: writer.create_table(code, GAME, "writer") for code in codes}
            entry = {"kind": "create", "game": GAME, "options": {}}
            for code in codes:
                writer.append(code, epochs[code], 1, entry, "lobby", GAME)
            took: list[float] = []
            started = time.perf_counter()
            for i in range(appends):
                code = codes[i % tables]
                move = {"kind": "act", "seat": 0, "action": {"type": "draw"}, "intent_id": f"i{i}"}
                before = time.perf_counter()
                writer.append(code, epochs[code], 2 + i // tables, move, "lobby", GAME)
                took.append(time.perf_counter() - before)
            elapsed = time.perf_counter() - started
            ms = sorted(t * 1000 for t in took)
            print(
                f"{nodes} node(s), R{writer.replicas}: append p50 {percentile(ms, 0.50):.2f} ms,"
                f" p99 {percentile(ms, 0.99):.2f} ms, max {ms[-1]:.1f} ms;"
                f" {appends / elapsed:.0f} appends/s from one thread"
            )
            taker = _store(cluster, "taker")
            started = time.perf_counter()
            leases = taker.leases.snapshot()
            epochs = taker.take_over({code: leases[code] for code in codes})  # as the keeper
            assert set(epochs.values()) == {2}, epochs
            entries = sum(sum(1 for _ in taker.entries(code)) for code in codes)
            elapsed = time.perf_counter() - started
            print(
                f"  takeover work: {tables} tables ({entries} entries) claimed and read back"
                f" in {elapsed * 1000:.0f} ms ({elapsed / tables * 1000:.1f} ms a table),"
                f" after {LEASE_SECONDS} s (+ <= {HEARTBEAT_SECONDS} s) to notice the death"
            )
            taker.close()
            writer.close()
        finally:
            stop.set()
            cluster.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--appends", type=int, default=3000)
    parser.add_argument("--nodes", type=int, nargs="+", default=[1, 3])
    args = parser.parse_args()
    for nodes in args.nodes:
        measure(nodes, args.tables, args.appends)


if __name__ == "__main__":
    main()
