"""The whole Game Night stack on a NATS cluster, as real processes on this machine.

``ClusterStack(workdir).start()`` starts a ``NatsCluster`` (nodes and callout responders),
then each service as ``python -m services.<name> ...`` with every node's address: two (or
more) copies of the tables service sharing the tables through JetStream (``--store
nats://...``, each its own ``--owner``), the bots, the assistant and the web service, whose
pages get every node's WebSocket address. Each service starts on a different node, so a
node's death costs each only a reconnection. ``gamenight cluster`` runs it in the
foreground; compose.cluster.yml runs the same commands in containers.

Logs: ``workdir/<process>.log``. The shared secret: ``.secret_file``.
"""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import IO, Self

from protocol.topics import service_status
from services.cluster.nodes import STOP_TIMEOUT, NatsCluster, free_ports
from services.mqtt import MqttClient, broker_url

START_TIMEOUT = 60.0


def tables_command(broker: str, nats: str, owner: str, secret_file: Path) -> list[str]:
    """One copy of the tables service on the cluster (the one place its flags are)."""
    return [
        sys.executable,
        "-m",
        "services.tables",
        "--broker",
        broker,
        "--store",
        nats,
        "--owner",
        owner,
        "--secret-file",
        str(secret_file),
    ]


class ClusterStack:
    """A NATS cluster and every service on it, each a process; see the module docstring."""

    def __init__(
        self,
        workdir: Path,
        nodes: int = 3,
        tables_services: int = 2,
        bots: bool = True,
        assistant: bool = True,
        web: bool = True,
        web_port: int = 0,
        web_host: str = "127.0.0.1",
    ) -> None:
        self.workdir = Path(workdir)
        self.cluster = NatsCluster(self.workdir / "nats", nodes)
        self.secret_file = self.cluster.secret_file
        self.tables_services = tables_services
        self.with_bots, self.with_assistant, self.with_web = bots, assistant, web
        self.web_host = web_host
        self.web_port = web_port or free_ports(web_host, 1)[0]
        self._processes: dict[str, subprocess.Popen[bytes]] = {}
        self._logs: list[IO[bytes]] = []
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ addresses
    @property
    def web_url(self) -> str:
        return f"http://{self.web_host}:{self.web_port}"

    def broker(self, first: int = 0) -> str:
        """Every node's MQTT URL without a login, starting at node ``first``."""
        specs = self.cluster.specs
        order = specs[first % len(specs) :] + specs[: first % len(specs)]
        return ",".join(broker_url("mqtt", s.host, s.ports.mqtt) for s in order)

    def nats(self, first: int = 0) -> str:
        urls = self.cluster.nats_urls
        return ",".join(urls[first % len(urls) :] + urls[: first % len(urls)])

    def ws_url(self) -> str:
        """The pages' ``--ws-url``: every node's WebSocket, ``{host}`` the page's host."""
        return ",".join(f"ws://{{host}}:{s.ports.websocket}/mqtt" for s in self.cluster.specs)

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> Self:
        try:
            self.cluster.start()
            for i in range(self.tables_services):
                self._spawn_tables(i)
            if self.with_bots:
                self._spawn("bots", self._service("bots", 1))
            if self.with_assistant:
                self._spawn("assistant", self._service("assistant", 2))
            if self.with_web:
                self._spawn("web", self._web_command())
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        with self._lock:
            names = list(reversed(self._processes))
        for name in names:
            self._end(name, signal.SIGTERM)
        self.cluster.stop()
        for log_file in self._logs:
            log_file.close()
        self._logs.clear()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def kill_tables(self, i: int) -> None:
        """SIGKILL copy ``i`` of the tables service (its leases lapse; another takes over)."""
        self._end(f"tables-{i}", signal.SIGKILL)

    def restart_tables(self, i: int) -> None:
        self._end(f"tables-{i}", signal.SIGTERM)
        self._spawn_tables(i)

    def kill_node(self, i: int) -> None:
        self.cluster.kill(i)

    def restart_node(self, i: int) -> None:
        self.cluster.restart(i)

    def pid(self, name: str) -> int | None:
        """The process id of ``tables-0``, ``bots``, ``web``... while it runs."""
        with self._lock:
            process = self._processes.get(name)
        return None if process is None or process.poll() is not None else process.pid

    @property
    def pids(self) -> dict[str, int]:
        """Every running process of the stack, nodes included (``node-0``...)."""
        with self._lock:
            found = {n: p.pid for n, p in self._processes.items() if p.poll() is None}
        for i, node_pid in enumerate(self.cluster.pids):
            if node_pid is not None:
                found[f"node-{i}"] = node_pid
        return found

    # ------------------------------------------------------------------ processes
    def _service(self, name: str, first: int) -> list[str]:
        command = [sys.executable, "-m", f"services.{name}", "--broker", self.broker(first)]
        return [*command, "--secret-file", str(self.secret_file)]

    def _web_command(self) -> list[str]:
        command = self._service("web", len(self.cluster.specs) - 1)
        command += ["--ws-url", self.ws_url(), "--host", self.web_host]
        command += ["--port", str(self.web_port), "--public-url", self.web_url]
        return command

    def _spawn_tables(self, i: int) -> None:
        command = tables_command(self.broker(i), self.nats(i), f"tables-{i}", self.secret_file)
        self._spawn(f"tables-{i}", command)

    def _spawn(self, name: str, command: list[str]) -> None:
        log_file = (self.workdir / f"{name}.log").open("ab")
        self._logs.append(log_file)
        process = subprocess.Popen(
            command, stdout=log_file, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
        )
        with self._lock:
            self._processes[name] = process

    def _end(self, name: str, sig: int) -> None:
        with self._lock:
            process = self._processes.pop(name, None)
        if process is None or process.poll() is not None:
            return
        process.send_signal(sig)
        try:
            process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def _check_alive(self) -> None:
        with self._lock:
            dead = [n for n, p in self._processes.items() if p.poll() is not None]
        if dead:
            raise RuntimeError(f"{dead} exited; see the logs in {self.workdir}")

    def _wait_ready(self) -> None:
        """Until the tables service says it is online and the web service answers."""
        deadline = time.monotonic() + START_TIMEOUT
        online = threading.Event()
        if self.tables_services:
            watcher = MqttClient(self.cluster.service_broker("web"))

            def on_status(topic: str, payload: bytes) -> None:
                if payload and json.loads(payload).get("online"):
                    online.set()

            watcher.subscribe(service_status("tables"), on_status)
            watcher.start()
            try:
                while not online.wait(0.1):
                    self._check_alive()
                    if time.monotonic() > deadline:
                        raise RuntimeError("the tables service did not come online")
            finally:
                watcher.stop()
        while self.with_web:
            self._check_alive()
            try:
                with urllib.request.urlopen(f"{self.web_url}/api/config", timeout=2):
                    break
            except (urllib.error.URLError, OSError):
                if time.monotonic() > deadline:
                    raise RuntimeError("the web service did not answer") from None
                time.sleep(0.1)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``gamenight cluster``'s options."""
    parser.add_argument(
        "--dir",
        type=Path,
        default=Path("~/.local/share/gamenight/cluster"),
        help="the nodes' stores, the secret and the logs (default: %(default)s)",
    )
    parser.add_argument("--nodes", type=int, default=3, help="NATS nodes (default: 3)")
    parser.add_argument(
        "--tables-services", type=int, default=2, help="copies of the tables service (default: 2)"
    )
    parser.add_argument("--web-port", type=int, default=8000, help="default: %(default)s")
    parser.add_argument("--no-bots", action="store_true", help="no computer players")


def run(args: argparse.Namespace) -> int:
    """Run the stack in the foreground until Ctrl-C (``gamenight cluster``)."""
    from services.runtime import wait_for_signal

    stack = ClusterStack(
        args.dir.expanduser(),
        nodes=args.nodes,
        tables_services=args.tables_services,
        bots=not args.no_bots,
        web_port=args.web_port,
    )
    stack.start()
    try:
        print(f"Game Night on {args.nodes} NATS nodes: open {stack.web_url}")
        for i, spec in enumerate(stack.cluster.specs):
            print(
                f"  node {i}: nats://{spec.host}:{spec.ports.client}  "
                f"mqtt {spec.ports.mqtt}  ws {spec.ports.websocket}/mqtt"
            )
        print(f"  logs in {stack.workdir}; Ctrl-C stops everything")
        wait_for_signal()
    finally:
        stack.stop()
    return 0
