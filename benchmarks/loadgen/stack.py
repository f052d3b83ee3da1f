"""The processes a load run measures: a broker, the tables service(s), the generators.

Mosquitto is Debian's, configured as ``services.broker.mosquitto`` configures it for the
tests (dynsec accounts, ``set_tcp_nodelay``), with its per-client queues sized for a
load test: the tables service holds one QoS 1 subscription for every intent of every
table, so its queue must absorb a few seconds of all of them at once.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.loadgen.prepare import RecordedAccounts, add_to_dynsec_file
from services.broker.credentials import ServiceCredentials
from services.broker.limits import raise_open_file_limit
from services.broker.mosquitto import (
    DEFAULT_BINARY,
    MosquittoConfig,
    free_tcp_port,
    write_dynsec_file,
)
from services.broker.settings import Address

ROOT = Path(__file__).resolve().parent.parent.parent
# Several seconds of every table's intents (2,000 tables at one a second): a slow
# consumer's backlog, not a drop. Messages in flight to one client before its PUBACKs.
LOAD_MAX_QUEUED_MESSAGES = 20000
LOAD_MAX_INFLIGHT_MESSAGES = 100


def wait_listening(host: str, port: int, process: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args!r} exited with status {process.returncode}")
        with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.2):
            return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on {host}:{port} after {timeout} s")


def mosquitto_config_text(config: MosquittoConfig) -> str:
    """The tests' configuration, with queues sized for the load (see the module docstring)."""
    lines = []
    for line in config.render().splitlines():
        if line.startswith("max_queued_messages "):
            line = f"max_queued_messages {LOAD_MAX_QUEUED_MESSAGES}"
        lines.append(line)
        if line.startswith("set_tcp_nodelay"):
            lines.append(f"max_inflight_messages {LOAD_MAX_INFLIGHT_MESSAGES}")
    return "\n".join(lines) + "\n"


class Mosquitto:
    """Debian's Mosquitto on a loopback port, for one load run."""

    def __init__(
        self,
        workdir: Path,
        credentials: ServiceCredentials,
        accounts: RecordedAccounts | None = None,
    ) -> None:
        """``accounts``: player and TV accounts written into dynsec before it starts."""
        self.host = "127.0.0.1"
        self.port = free_tcp_port(self.host)
        workdir.mkdir(parents=True, exist_ok=True)
        dynsec = workdir / "dynamic-security.json"
        write_dynsec_file(dynsec, credentials)
        if accounts is not None:
            add_to_dynsec_file(dynsec, accounts)
        config = MosquittoConfig(
            dynsec_file=dynsec,
            tcp=Address(self.host, self.port),
            ws=None,
            user="root" if os.geteuid() == 0 else None,
        )
        config_file = workdir / "mosquitto.conf"
        config_file.write_text(mosquitto_config_text(config), "utf-8")
        raise_open_file_limit()  # inherited: thousands of player connections
        with (workdir / "mosquitto.log").open("ab") as log:
            self.process = subprocess.Popen(
                [str(DEFAULT_BINARY), "-c", str(config_file)],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        wait_listening(self.host, self.port, self.process, 10)

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def stop(self) -> None:
        stop_process(self.process)


def python_process(args: list[str], log: Path, *, pipes: bool = False) -> subprocess.Popen[str]:
    """``python ARGS`` from the project root; with ``pipes`` its stdin/stdout are ours."""
    with log.open("a") as out:
        return subprocess.Popen(
            [sys.executable, *args],
            cwd=ROOT,
            stdin=subprocess.PIPE if pipes else subprocess.DEVNULL,
            stdout=subprocess.PIPE if pipes else out,
            stderr=out,
            text=True,
        )


def stop_process(process: subprocess.Popen[str] | subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
