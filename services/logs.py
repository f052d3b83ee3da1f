"""Logging for ``gamenight serve``: one short line per problem in the terminal, every
detail (tracebacks included) in a log file beside the data.

The terminal is what the person running game night watches: a traceback there reads as
a crash even when the table carries on (a phone that vanished mid-message, say). So the
terminal gets one line per problem, the same problem at most once in a while, and the
file gets everything, with the full traceback, for whoever looks into it later.
"""

from __future__ import annotations

import logging
import logging.handlers
import re
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

LOG_FILE = "gamenight.log"
FILE_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(threadName)s] %(message)s"
CONSOLE_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
REPEAT_SECONDS = 30.0  # the same problem is told once per this many seconds on screen
MAX_LINE = 240
FILE_BYTES = 2_000_000
FILE_BACKUPS = 3
# The broker's libraries narrate every connection at INFO: keep the terminal readable.
NOISY = ("amqtt", "transitions", "websockets")
# Library messages reworded for whoever runs game night (pattern, what it means); a
# meaning of None keeps the message out of the terminal (it repeats another one).
EXPLAINED: tuple[tuple[re.Pattern[str], str | None], ...] = (
    (re.compile(r"^Task failed and will be skipped: .*TimeoutError", re.DOTALL), None),
    # A socket closed before it said a word of MQTT: a port scan, a browser's spare
    # connection, or one our CONNECT timeout closed. Nothing anybody can act on.
    (re.compile(r"^Failed to initialize client session: No data to decode"), None),
    (
        re.compile(r"Timeout waiting for PUB(ACK|REC|COMP)"),
        "a screen or phone did not confirm a message within 5 s (asleep, or gone):"
        " the broker gave up on it",
    ),
)
_NUMBERS = re.compile(r"\d+")


def explained(message: str) -> str | None:
    """``message`` as the terminal shows it: reworded if known, None to keep it out."""
    for pattern, meaning in EXPLAINED:
        if pattern.search(message):
            return meaning
    return message


class OneLineFormatter(logging.Formatter):
    """A record as one line: the message, and for an exception only its type and text."""

    def __init__(self, details: Path | None) -> None:
        super().__init__(CONSOLE_FORMAT, datefmt="%H:%M:%S")
        self.details = details

    def format(self, record: logging.LogRecord) -> str:
        plain = _without_traceback(record)
        plain.msg, plain.args = explained(record.getMessage()) or record.getMessage(), None
        line = super().format(plain)
        line = " ".join(line.split())  # a message with newlines stays on its line
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            line += f" ({type(error).__name__}: {' '.join(str(error).split()) or '-'})"
        held = getattr(record, "held_back", 0)
        if held:
            line += f" (and {held} more like it)"
        if len(line) > MAX_LINE:
            line = line[: MAX_LINE - 1] + "…"
        if record.levelno >= logging.WARNING and self.details is not None:
            line += f" [details: {self.details}]"
        return line


def _without_traceback(record: logging.LogRecord) -> logging.LogRecord:
    copy = logging.makeLogRecord(record.__dict__)
    copy.exc_info, copy.exc_text, copy.stack_info = None, None, None
    return copy


class RepeatFilter(logging.Filter):
    """Lets the same problem (logger, level and message, numbers aside) through once per
    ``seconds``; a later line says how many were held back. Keeps out the library
    messages that only repeat another one (``EXPLAINED``)."""

    def __init__(
        self, seconds: float = REPEAT_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__()
        self.seconds = seconds
        self._now = clock
        self._seen: dict[tuple[str, int, str], tuple[float, int]] = {}
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True
        message = explained(record.getMessage())
        if message is None:
            return False
        key = (record.name, record.levelno, _NUMBERS.sub("#", message)[:120])
        now = self._now()
        with self._lock:
            last, held = self._seen.get(key, (float("-inf"), 0))
            if now - last < self.seconds:
                self._seen[key] = (last, held + 1)
                return False
            self._seen[key] = (now, 0)
        if held:
            record.held_back = held
        return True


def configure_logging(log_file: Path | None = None, level: int = logging.INFO) -> None:
    """Set up the root logger once: full records to stderr when ``log_file`` is None (a
    service run alone, as in a container), else one line each to stderr and everything
    to ``log_file``. Uncaught exceptions of threads and of the main thread go the same way.
    """
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
        handler.close()
    root.setLevel(level)
    console = logging.StreamHandler(sys.stderr)
    if log_file is None:
        console.setFormatter(logging.Formatter("%(asctime)s %(name)s %(message)s"))
    else:
        log_file.parent.mkdir(parents=True, exist_ok=True)
        detailed = logging.handlers.RotatingFileHandler(
            log_file, maxBytes=FILE_BYTES, backupCount=FILE_BACKUPS, encoding="utf-8"
        )
        detailed.setFormatter(logging.Formatter(FILE_FORMAT))
        detailed.setLevel(logging.DEBUG)
        root.addHandler(detailed)
        console.setFormatter(OneLineFormatter(log_file))
        console.addFilter(RepeatFilter())
    root.addHandler(console)
    for noisy in NOISY:
        logging.getLogger(noisy).setLevel(logging.WARNING)
    logging.captureWarnings(True)
    threading.excepthook = _thread_exception
    sys.excepthook = _uncaught_exception


def _thread_exception(args: threading.ExceptHookArgs) -> None:
    if args.exc_type is SystemExit or args.exc_value is None:
        return
    name = args.thread.name if args.thread is not None else "?"
    logging.getLogger("gamenight").error(
        "thread %s stopped on an error",
        name,
        exc_info=(args.exc_type, args.exc_value, args.exc_traceback),
    )


def _uncaught_exception(
    kind: type[BaseException], error: BaseException, trace: TracebackType | None
) -> None:
    if issubclass(kind, KeyboardInterrupt):
        sys.__excepthook__(kind, error, trace)
        return
    logging.getLogger("gamenight").critical("stopped on an error", exc_info=(kind, error, trace))
