"""``python -m services.broker``: runs alone, and Ctrl-C stops it cleanly."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from protocol.topics import player_grants
from services.broker.accounts import BrokerAccounts
from services.broker.credentials import SECRET_ENV, SECRET_FILE_ENV, ServiceCredentials
from services.broker.mosquitto import free_tcp_port
from services.mqtt import MqttClient, broker_url

ROOT = Path(__file__).resolve().parents[3]


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in (SECRET_ENV, SECRET_FILE_ENV)}
    env["PYTHONPATH"] = str(ROOT)
    return {**env, **extra}


@contextmanager
def running(args: list[str], env: dict[str, str]) -> Iterator[subprocess.Popen[str]]:
    """The broker as a subprocess; killed if the test leaves it running."""
    with subprocess.Popen(
        [sys.executable, "-m", "services.broker", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        try:
            yield process
        finally:
            if process.poll() is None:
                process.kill()
            process.communicate()


def _first_lines(process: subprocess.Popen[str], count: int) -> list[str]:
    assert process.stdout is not None
    return [process.stdout.readline().strip() for _ in range(count)]


@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGTERM], ids=["int", "term"])
def test_the_broker_runs_alone_and_stops_on_a_signal(
    tmp_path: Path, stop_signal: signal.Signals
) -> None:
    tcp, ws = free_tcp_port(), free_tcp_port()
    data = tmp_path / "data"
    args = ["--tcp", f"127.0.0.1:{tcp}", "--ws", f"127.0.0.1:{ws}", "--data", str(data)]
    with running(args, _clean_env()) as process:
        assert _first_lines(process, 2) == [
            f"broker listening on mqtt://127.0.0.1:{tcp}",
            f"broker listening on ws://127.0.0.1:{ws}",
        ]
        secret_file = data / "service-secret"  # no secret given: one was made, private
        assert stat.S_IMODE(secret_file.stat().st_mode) == 0o600
        credentials = ServiceCredentials.load(secret_file)
        url = broker_url("ws", "127.0.0.1", ws, "web", credentials.password("web"))
        with BrokerAccounts.connect(url) as accounts:
            accounts.provision("u-cli", "tok", player_grants("CLI", 0))
        player = MqttClient(broker_url("mqtt", "127.0.0.1", tcp, "u-cli", "tok")).start()
        try:
            player.wait_connected(3.0)
            process.send_signal(stop_signal)
            _, errors = process.communicate(timeout=10)
        finally:
            player.stop()
        assert process.returncode == 0
        assert "Traceback" not in errors


def test_the_secret_may_come_from_the_environment(tmp_path: Path) -> None:
    tcp = free_tcp_port()
    credentials = ServiceCredentials.generate()
    args = ["--tcp", f"127.0.0.1:{tcp}", "--ws", "off", "--data", str(tmp_path)]
    with running(args, _clean_env(**{SECRET_ENV: credentials.secret})) as process:
        assert _first_lines(process, 1) == [f"broker listening on mqtt://127.0.0.1:{tcp}"]
        url = broker_url("mqtt", "127.0.0.1", tcp, "bots", credentials.password("bots"))
        client = MqttClient(url).start()
        try:
            client.wait_connected(3.0)
        finally:
            client.stop()
        assert not (tmp_path / "service-secret").exists()
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=10)
        assert process.returncode == 0


def test_a_broker_without_listeners_is_refused(tmp_path: Path) -> None:
    with running(["--tcp", "off", "--ws", "off", "--data", str(tmp_path)], _clean_env()) as process:
        process.communicate(timeout=10)
        assert process.returncode == 2
