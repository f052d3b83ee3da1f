"""``gamenight serve``: one command starts the broker and every service; a signal stops all."""

from __future__ import annotations

import json
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from loopback_stack import loopback_settings

from services.broker.mosquitto import free_tcp_port
from services.serve import Stack

ROOT = Path(__file__).resolve().parents[2]


def test_pages_dial_the_websocket_port_the_embedded_broker_really_has(tmp_path: Path) -> None:
    settings = loopback_settings(tmp_path)
    with Stack(settings).start() as stack:
        assert stack.broker is not None and stack.web is not None
        port = stack.broker.ws_port
        assert port
        assert stack.web.settings.ws_url == f"ws://{{host}}:{port}/mqtt"


def wait_for_page(url: str, timeout: float = 30.0) -> bytes:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                body: bytes = response.read()
                return body
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGTERM])
def test_one_command_serves_a_table_and_a_signal_stops_everything(
    tmp_path: Path, stop_signal: signal.Signals
) -> None:
    web, mqtt, ws = free_tcp_port(), free_tcp_port(), free_tcp_port()
    data = tmp_path / "gn.db"
    command = [
        sys.executable,
        *("-m", "services.cli", "serve", "--data", str(data), "--host", "127.0.0.1"),
        *("--port", str(web), "--mqtt", f"127.0.0.1:{mqtt}", "--ws", f"127.0.0.1:{ws}"),
    ]
    # As a script's background job: SIGINT ignored on entry (Ctrl-C must still work).
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    try:
        assert b"mqtt.min.js" in wait_for_page(f"http://127.0.0.1:{web}/")
        request = urllib.request.Request(
            f"http://127.0.0.1:{web}/api/tables",
            data=json.dumps({"game": "kings-corner"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            created = json.load(response)
        assert created["ws_url"] == f"ws://127.0.0.1:{ws}/mqtt"
        process.send_signal(stop_signal)
        assert process.wait(15) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    with sqlite3.connect(data) as db:  # the table was stored by the tables service
        stored = db.execute("SELECT code FROM tables").fetchall()
    assert stored == [(created["table"],)]
    for port in (web, mqtt, ws):  # and nothing is left listening
        with socket.socket() as probe:
            assert probe.connect_ex(("127.0.0.1", port)) != 0
