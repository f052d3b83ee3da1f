"""``gamenight serve``'s terminal: one line per problem; the details in the log file."""

from __future__ import annotations

import logging
import subprocess
import sys
import textwrap
from pathlib import Path

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
    # Five identical warnings make one line; the exception and the thread one line each.
    assert sum("Timeout waiting for PUBACK for packet ID" in line for line in lines) == 2, lines
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

    assert repeats.filter(record("lost %s"))
    assert not repeats.filter(record("lost %s"))
    assert not repeats.filter(record("lost %s"))
    assert repeats.filter(record("other %s"))
    now[0] = 11.0
    again = record("lost %s")
    assert repeats.filter(again)
    assert again.msg == "lost %s (and 2 more like it)"


def test_a_long_message_is_cut_to_one_screen_line() -> None:
    formatter = OneLineFormatter(None)
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "y" * 1000, None, None)
    line = formatter.format(record)
    assert len(line) <= 240 and line.endswith("…") and "\n" not in line
