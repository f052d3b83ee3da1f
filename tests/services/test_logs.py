"""``gamenight serve``'s terminal: one line per problem; the details in the log file."""

from __future__ import annotations

import json
import logging
import signal
import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path

from services.broker.mosquitto import free_tcp_port
from services.logs import OneLineFormatter, RepeatFilter

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent(
    """
    import logging, sys, threading
    from pathlib import Path
    from services.runtime import configure_logging

    configure_logging(Path(sys.argv[1]))
    log = logging.getLogger("amqtt.mqtt.protocol.handler")
    for packet in range(5):  # a library's warning, again and again
        log.warning("Timeout waiting for PUBACK for packet ID %d", packet)
    try:
        raise TimeoutError("Timeout waiting for PUBACK for packet ID 7")
    except TimeoutError:
        logging.getLogger("asyncio").exception("Task exception was never retrieved")

    def broken() -> None:
        raise RuntimeError("a worker broke\\nover two lines")

    worker = threading.Thread(target=broken, name="worker")
    worker.start()
    worker.join()
    logging.getLogger("gamenight").info("Game Night is on")
    """
)


def run_script(log_file: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(log_file)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        check=True,
    )
    return done.stderr


def test_the_terminal_gets_one_line_per_problem_and_the_file_every_detail(tmp_path: Path) -> None:
    log_file = tmp_path / "data" / "gamenight.log"
    terminal = run_script(log_file)
    lines = terminal.splitlines()
    assert "Traceback" not in terminal
    # Five warnings alike (their numbers aside) make one line, in words that say what it
    # means; the exception and the thread one line each.
    puback = [line for line in lines if "did not confirm a message within 5 s" in line]
    assert len(puback) == 1 and "amqtt" in puback[0], lines
    assert any(
        "Task exception was never retrieved (TimeoutError: Timeout waiting" in line
        for line in lines
    ), lines
    assert any(
        "thread worker stopped" in line and "a worker broke over two lines" in line
        for line in lines
    ), lines
    assert all(f"[details: {log_file}]" in line for line in lines if " WARNING " in line)
    assert any("Game Night is on" in line for line in lines)
    assert len(lines) == 4, lines

    details = log_file.read_text(encoding="utf-8")
    assert details.count("Timeout waiting for PUBACK for packet ID") >= 6  # all, and the error
    assert details.count("Traceback (most recent call last)") == 2
    assert "RuntimeError: a worker broke\nover two lines" in details


def test_a_held_back_problem_is_counted_when_it_is_next_told() -> None:
    now = [0.0]
    repeats = RepeatFilter(seconds=10, clock=lambda: now[0])

    def record(message: str) -> logging.LogRecord:
        return logging.LogRecord("x", logging.WARNING, __file__, 1, message, None, None)

    assert repeats.filter(record("lost packet 1"))
    assert not repeats.filter(record("lost packet 2"))
    assert not repeats.filter(record("lost packet 3"))
    assert repeats.filter(record("other 1"))
    now[0] = 11.0
    again = record("lost packet 4")
    assert repeats.filter(again)
    line = OneLineFormatter(None).format(again)
    assert line.endswith("lost packet 4 (and 2 more like it)")
    # A library line that only repeats another stays out of the terminal.
    assert not repeats.filter(
        record("Task failed and will be skipped: <Task exception=TimeoutError()>")
    )


def test_a_socket_that_never_spoke_mqtt_stays_out_of_the_terminal() -> None:
    """amqtt warns for every connection closed before its CONNECT (a scan, an idle socket)."""
    console = RepeatFilter()
    silent = "Failed to initialize client session: No data to decode MQTT packet fixed header"
    other = "Failed to initialize client session: Invalid protocol name"
    assert not console.filter(
        logging.LogRecord("amqtt.broker", logging.WARNING, __file__, 1, silent, None, None)
    )
    assert console.filter(
        logging.LogRecord("amqtt.broker", logging.WARNING, __file__, 1, other, None, None)
    )


def test_a_long_message_is_cut_to_one_screen_line() -> None:
    formatter = OneLineFormatter(None)
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "y" * 1000, None, None)
    line = formatter.format(record)
    assert len(line) <= 240 and line.endswith("…") and "\n" not in line


def test_a_phone_that_never_acknowledges_makes_one_line_in_the_serve_terminal(
    tmp_path: Path,
) -> None:
    """The real ``gamenight serve`` and embedded broker; a client (with the TV's login)
    that never sends PUBACK, as a page did when its message handler threw."""
    import paho.mqtt.client as paho

    web, port, ws = free_tcp_port(), free_tcp_port(), free_tcp_port()
    data = tmp_path / "gn.db"
    command = [
        sys.executable,
        *("-m", "services.cli", "serve", "--data", str(data), "--host", "127.0.0.1"),
        *("--port", str(web), "--mqtt", f"127.0.0.1:{port}", "--ws", f"127.0.0.1:{ws}"),
        "--no-bots",
    ]
    terminal = tmp_path / "terminal.txt"
    with terminal.open("w") as sink:
        process = subprocess.Popen(command, cwd=ROOT, stdout=sink, stderr=sink)
    try:
        wait_for_page(f"http://127.0.0.1:{web}/")
        request = urllib.request.Request(
            f"http://127.0.0.1:{web}/api/tables",
            data=b"{}",
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            tv = json.load(response)
        replies: list[str] = []
        client = paho.Client(
            paho.CallbackAPIVersion.VERSION2, client_id=tv["username"], manual_ack=True
        )
        client.username_pw_set(tv["username"], tv["password"])
        client.on_message = lambda _client, _data, message: replies.append(message.topic)
        client.connect("127.0.0.1", port)
        client.loop_start()
        try:
            host = f"gamenight/v1/table/{tv['table']}/host"
            client.subscribe(f"{host}/reply", qos=1)
            time.sleep(0.5)
            for number in range(3):
                sync = {"v": 1, "id": f"h{number}", "op": "sync"}
                client.publish(f"{host}/intent", json.dumps(sync), qos=1)
            deadline = time.monotonic() + 20
            while "did not confirm" not in terminal.read_text() and time.monotonic() < deadline:
                time.sleep(0.2)
            time.sleep(4)  # the broker's own error about the same messages comes later
        finally:
            client.loop_stop()
            client.disconnect()
        assert len(replies) == 3
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(20)
    shown = terminal.read_text()
    assert "Traceback" not in shown, shown  # before: three, one per message
    assert shown.count("did not confirm a message within 5 s") == 1, shown
    details = (tmp_path / "gamenight.log").read_text()
    assert "Timeout waiting for PUBACK" in details and "Traceback" in details


def wait_for_page(url: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                response.read()
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
