"""N tables of bots playing at a human pace through the whole stack, in real processes.

For each N given: a broker (Debian's Mosquitto, or the 3-node NATS cluster of
``services.cluster``), the tables service as its own process(es) (``python -m
services.tables``; on NATS two copies sharing the tables through JetStream), and
load-generator processes (``benchmarks.loadgen.players``) that open the tables through
the real lobby requests, seat every player with a real join (its own broker account and
connection, like a phone), add each table's TV, and play legal moves from each seat's own
view, about one intent a second per table. After a warm-up, over a steady window:

* intent -> view latency (publishing an intent to the arrival of that seat's view with
  the new ``seq``): p50, p99, max;
* intents a second achieved, and intents never shown within 5 s ("late");
* CPU (% of one core, over the window) and resident memory of every process;
* the load average beside it (the machine may be shared: figures are noisy then).

    python -m benchmarks.load --tables 250,500,1000,2000 --broker mosquitto [--duration 30]
    python -m benchmarks.load --tables 1000 --broker nats [--rate 1.0] [--seats 2]

The knee: the largest N whose p99 stays within the target (10 ms on Mosquitto, 25 ms on
the NATS cluster) with every intent answered.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import psutil  # type: ignore[import-untyped,unused-ignore]

from benchmarks.loadgen.prepare import prepare_tables
from benchmarks.loadgen.stack import Mosquitto, python_process, stop_process
from services.broker.credentials import ServiceCredentials

TARGET_P99_MS = {"mosquitto": 10.0, "nats": 25.0}
# The generators stand for thousands of phones, which are other devices: on this machine
# they share its two cores with the services under test. At equal priority a generator's
# time slice (several ms) often ran while the tables service had a message waiting, and
# that wait was counted as the table's latency (2,000 tables: p99 14-27 ms at nice 0, 7-8
# ms at nice 10, the same CPU per intent). At nice 10 the scheduler runs the services
# first; a generator still gets every idle moment, and its timestamps are taken by it.
GENERATOR_NICE = 10
TABLES_PER_GENERATOR = 1000  # one asyncio process plays this many tables comfortably


@dataclass
class Stack:
    """What one run started: broker addresses for players, and the processes to watch."""

    mqtt: str  # HOST:PORT[,HOST:PORT...]
    broker_url: str  # for the services' --broker
    secret_file: Path
    prepared: Path | None = None  # the tables opened beforehand (--lobby prepared)
    watched: dict[str, list[psutil.Process]] = field(default_factory=dict)


@contextmanager
def mosquitto_stack(
    workdir: Path, credentials: ServiceCredentials, prepare: tuple[int, int] | None
) -> Iterator[Stack]:
    """Mosquitto and one tables service; ``prepare``: (tables, seats) opened beforehand."""
    secret_file = workdir / "service-secret"
    secret_file.write_text(credentials.secret + "\n", "utf-8")
    accounts, prepared = None, None
    if prepare is not None:
        opened, accounts = prepare_tables(workdir / "tables.db", *prepare)
        prepared = workdir / "tables.json"
        prepared.write_bytes(orjson.dumps(opened))
    broker = Mosquitto(workdir / "mosquitto", credentials, accounts)
    tables = python_process(
        [
            "-m",
            "services.tables",
            "--broker",
            f"mqtt://{broker.address}",
            "--secret-file",
            str(secret_file),
            "--data",
            str(workdir / "tables.db"),
        ],
        workdir / "tables.log",
    )
    try:
        yield Stack(
            mqtt=broker.address,
            broker_url=f"mqtt://{broker.address}",
            secret_file=secret_file,
            prepared=prepared,
            watched={
                "mosquitto": [psutil.Process(broker.process.pid)],
                "tables": [psutil.Process(tables.pid)],
            },
        )
    finally:
        stop_process(tables)
        broker.stop()


@contextmanager
def nats_stack(
    workdir: Path, credentials: ServiceCredentials, copies: int, nodes: int = 3
) -> Iterator[Stack]:
    """``services.cluster``'s NATS cluster and ``copies`` tables services sharing the tables.

    The table log and leases are in JetStream (``--store nats://...``); players' accounts
    are the cluster's (auth callout from its replicated KV bucket).
    """
    from services.cluster.nodes import NatsCluster  # only this mode needs the cluster

    cluster = NatsCluster(workdir / "cluster", nodes, credentials=credentials).start()
    broker = ",".join(cluster.mqtt_urls)
    services = []
    try:
        for number in range(copies):
            command = ["-m", "services.tables", "--broker", broker]
            command += ["--secret-file", str(cluster.secret_file)]
            command += ["--store", ",".join(cluster.nats_urls), "--owner", f"tables-{number}"]
            command += ["--data", str(workdir / f"tables-{number}.db")]
            services.append(python_process(command, workdir / f"tables-{number}.log"))
        watched: dict[str, list[psutil.Process]] = {
            "nats": [psutil.Process(pid) for pid in cluster.pids if pid is not None],
            "tables": [psutil.Process(process.pid) for process in services],
        }
        responders = [
            child
            for child in psutil.Process(os.getpid()).children()
            if child.pid not in {p.pid for group in watched.values() for p in group}
            and "python" in child.name()
        ]
        watched["callout"] = responders
        yield Stack(
            mqtt=",".join(url.removeprefix("mqtt://") for url in cluster.mqtt_urls),
            broker_url=broker,
            secret_file=cluster.secret_file,
            watched=watched,
        )
    finally:
        for process in services:
            stop_process(process)
        cluster.stop()


@contextmanager
def profiled(pid: int, out: Path, seconds: float) -> Iterator[None]:
    """py-spy's samples of one process over the window, as collapsed stacks in ``out``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    command = ["py-spy", "record", "--pid", str(pid), "--duration", str(int(seconds))]
    command += ["--format", "raw", "--nonblocking", "--output", str(out)]
    spy = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield
    finally:
        spy.wait(seconds + 30)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def cpu_seconds(processes: list[psutil.Process]) -> tuple[float, float]:
    """CPU seconds so far, (user, system), summed over ``processes``."""
    user = system = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        user, system = user + times.user, system + times.system
    return user, system


def rss_mb(processes: list[psutil.Process]) -> float:
    total = 0
    for process in processes:
        try:
            total += process.memory_info().rss
        except psutil.Error:
            continue
    return total / 2**20


def run_once(count: int, args: argparse.Namespace) -> dict[str, Any]:
    """One fresh stack with ``count`` tables; returns the figures of its steady window."""
    credentials = ServiceCredentials.generate()
    with tempfile.TemporaryDirectory(prefix="gn-load-") as folder, ExitStack() as cleanup:
        workdir = Path(folder)
        setup_started = time.monotonic()
        if args.broker == "mosquitto":
            prepare = (count, args.seats) if args.lobby == "prepared" else None
            stack = cleanup.enter_context(mosquitto_stack(workdir, credentials, prepare))
        else:
            stack = cleanup.enter_context(nats_stack(workdir, credentials, args.tables_services))
        generators_count = args.generators or max(1, -(-count // TABLES_PER_GENERATOR))
        shares = [count // generators_count] * generators_count
        for index in range(count % generators_count):
            shares[index] += 1
        generators = []
        for index, share in enumerate(shares):
            command = [
                "-m",
                "benchmarks.loadgen.players",
                "--mqtt",
                stack.mqtt,
                "--secret-file",
                str(stack.secret_file),
                "--tables",
                str(share),
                "--seats",
                str(args.seats),
                "--rate",
                str(args.rate),
                "--seed",
                str(index),
                "--tv" if args.tv else "--no-tv",
            ]
            if stack.prepared is not None:
                command += ["--prepared", str(stack.prepared), "--share", str(index)]
                command += ["--shares", str(generators_count)]
            process = python_process(command, workdir / f"loadgen-{index}.log", pipes=True)
            cleanup.callback(stop_process, process)
            psutil.Process(process.pid).nice(args.generator_nice)
            generators.append(process)
        retries: dict[str, int] = {}
        for process in generators:
            assert process.stdout is not None
            line = process.stdout.readline()
            if line.startswith("ready "):
                for code, number in orjson.loads(line.split(" ", 1)[1])["lobby_retries"].items():
                    retries[code] = retries.get(code, 0) + number
            else:
                log = (workdir / "loadgen-0.log").read_text()[-3000:]
                raise RuntimeError(f"a load generator failed to set up:\n{log}")
        setup_seconds = time.monotonic() - setup_started
        watched = dict(stack.watched)
        watched["loadgen"] = [psutil.Process(process.pid) for process in generators]
        start = time.time() + args.warmup
        end = start + args.duration
        for process in generators:
            assert process.stdin is not None
            process.stdin.write(f"go {start} {end}\n")
            process.stdin.flush()
        time.sleep(max(0.0, start - time.time()))
        if args.profile is not None:
            for kind in ("tables", "loadgen"):
                for number, process in enumerate(watched[kind]):
                    out = args.profile / f"{kind}-{count}-{number}.txt"
                    cleanup.enter_context(profiled(process.pid, out, args.duration))
        cpu_before = {name: cpu_seconds(processes) for name, processes in watched.items()}
        load_before = os.getloadavg()[0]
        time.sleep(max(0.0, end - time.time()))
        cpu_after = {name: cpu_seconds(processes) for name, processes in watched.items()}
        memory = {name: rss_mb(processes) for name, processes in watched.items()}
        load_after = os.getloadavg()[0]
        results = []
        for process in generators:
            assert process.stdout is not None
            line = process.stdout.readline()
            if not line.startswith("result "):
                raise RuntimeError("a load generator gave no result")
            results.append(orjson.loads(line.split(" ", 1)[1]))
    latencies = [value * 1000 for result in results for value in result["latencies"]]
    errors: dict[str, int] = {}
    for result in results:
        for code, number in result["errors"].items():
            errors[code] = errors.get(code, 0) + number
    return {
        "tables": count,
        "generators": generators_count,
        "setup_s": setup_seconds,
        "sent": sum(result["sent"] for result in results),
        "answered": sum(result["answered"] for result in results),
        "late": sum(result["late"] + result["unanswered_at_end"] for result in results),
        "errors": errors,
        "intent_qos": sorted({int(result.get("intent_qos", 1)) for result in results}),
        "lobby_retries": retries,
        "rate": sum(result["answered"] for result in results) / args.duration,
        "p50": statistics.median(latencies) if latencies else float("nan"),
        "p99": percentile(latencies, 0.99) if latencies else float("nan"),
        "max": max(latencies) if latencies else float("nan"),
        "cpu": {
            name: 100 * (sum(cpu_after[name]) - sum(cpu_before[name])) / args.duration
            for name in watched
        },
        # The kernel's share (system time): sends and receives on loopback, mostly.
        "cpu_system": {
            name: 100 * (cpu_after[name][1] - cpu_before[name][1]) / args.duration
            for name in watched
        },
        "rss": memory,
        "counts": {name: len(processes) for name, processes in watched.items()},
        "load": (load_before, load_after),
    }


def retried(retries: dict[str, int]) -> str:
    """Lobby requests asked again during the setup (refused for a while, or unanswered)."""
    if not retries:
        return ""
    return " (lobby retried: " + ",".join(f"{c}:{n}" for c, n in sorted(retries.items())) + ")"


def print_row(row: dict[str, Any]) -> None:
    cpu = "  ".join(
        f"{name}({row['counts'][name]}) {row['cpu'][name]:5.1f}% {row['rss'][name]:6.1f}MB"
        for name in row["cpu"]
    )
    # CPU per intent holds up better than latency on a shared machine: what N this
    # machine could carry alone, if every process kept its cost per intent.
    per_intent = {
        name: 10 * percent / row["rate"] if row["rate"] else float("nan")
        for name, percent in row["cpu"].items()
    }
    total = sum(per_intent.values())
    cores = os.cpu_count() or 1
    errors = ",".join(f"{code}:{n}" for code, n in sorted(row["errors"].items())) or "-"
    print(
        f"{row['tables']:>6} {row['rate']:>9.1f} {row['p50']:>7.2f} {row['p99']:>8.2f}"
        f" {row['max']:>8.1f} {row['late']:>6} {errors:>10}"
        f"  load {row['load'][0]:.2f}->{row['load'][1]:.2f}  setup {row['setup_s']:.0f}s"
        f"{retried(row['lobby_retries'])} | {cpu}",
        flush=True,
    )
    system = {
        name: 10 * percent / row["rate"] if row["rate"] else float("nan")
        for name, percent in row["cpu_system"].items()
    }
    costs = "  ".join(
        f"{name} {ms:.3f} (sys {system[name]:.3f})" for name, ms in per_intent.items()
    )
    costs += f"  [intents at QoS {'/'.join(str(q) for q in row['intent_qos'])}]"
    tables_alone = 1000 / per_intent["tables"] * row["counts"]["tables"]
    print(
        f"{'':>6} CPU ms per intent: {costs}  (all {total:.3f}): alone on {cores} cores"
        f" ~{cores * 1000 / total:.0f} intents/s; the tables service(s) saturate at"
        f" ~{tables_alone:.0f}/s (one thread each)",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="250", help="N, or several: 250,500,1000")
    parser.add_argument("--broker", choices=("mosquitto", "nats"), default="mosquitto")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    parser.add_argument("--rate", type=float, default=1.0, help="intents a second per table")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--tv", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--generators", type=int, default=0, help="0: one per 1,000 tables")
    parser.add_argument("--tables-services", type=int, default=2, help="NATS mode only")
    parser.add_argument(
        "--generator-nice",
        type=int,
        default=GENERATOR_NICE,
        help="the generators' niceness (0: they compete with the services for the cores)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="py-spy the tables service(s) and generators into this folder",
    )
    parser.add_argument(
        "--lobby",
        choices=("live", "prepared"),
        default=None,
        help="live: every create and join over the broker (default on NATS); prepared: by"
        " the tables service's lobby code before Mosquitto starts (default on Mosquitto,"
        " whose dynsec plugin takes ~0.1-0.4 s an account beyond a few hundred)",
    )
    args = parser.parse_args()
    if args.lobby is None:
        args.lobby = "prepared" if args.broker == "mosquitto" else "live"
    if args.broker == "nats" and args.lobby == "prepared":
        parser.error("--lobby prepared writes Mosquitto's dynsec file: Mosquitto only")
    counts = [int(part) for part in args.tables.split(",")]
    target = TARGET_P99_MS[args.broker]
    print(
        f"broker {args.broker}; {args.seats} seats a table"
        f"{' + its TV' if args.tv else ''}; ~{args.rate} intents/s a table;"
        f" {args.warmup:.0f} s warm-up, {args.duration:.0f} s measured; {os.cpu_count()} cores;"
        f" lobby {args.lobby}; generators at nice {args.generator_nice}"
    )
    print(
        f"{'tables':>6} {'intents/s':>9} {'p50 ms':>7} {'p99 ms':>8} {'max ms':>8}"
        f" {'late':>6} {'errors':>10}  (CPU % of one core, RSS, per kind of process)"
    )
    knee = None
    for count in counts:
        try:
            row = run_once(count, args)
        except (RuntimeError, TimeoutError) as failure:  # one N failing ends only its run
            print(f"{count:>6} failed: {str(failure).splitlines()[-1]}", flush=True)
            continue
        print_row(row)
        if row["p99"] <= target and row["late"] == 0 and not row["errors"]:
            knee = count
    print(f"knee (largest N with p99 <= {target:g} ms, nothing late, no error): {knee}")


if __name__ == "__main__":
    main()
