"""What every service's ``__main__`` needs: its broker login and a clean stop on a signal."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable
from pathlib import Path

from services import logs
from services.broker.credentials import ServiceCredentials
from services.mqtt import BrokerUrl


def service_url(broker: str, name: str, secret_file: Path | None = None) -> BrokerUrl:
    """The broker URL with the service's own login, unless the URL already carries one."""
    url = BrokerUrl.parse(broker)
    if url.username is not None:
        return url
    credentials = ServiceCredentials.load(secret_file)
    return url.with_credentials(name, credentials.password(name))


def wait_for_signal() -> None:
    """Block until Ctrl-C or SIGTERM."""
    stop = threading.Event()
    # SIGINT too, explicitly: a process started in the background by a script inherits
    # SIGINT ignored, and Python then never raises KeyboardInterrupt for it.
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: stop.set())
    with contextlib.suppress(KeyboardInterrupt):
        stop.wait()


def serve_until_signal(stop: Callable[[], None]) -> int:
    """Wait for a signal, then stop the service; the exit status for ``main``."""
    try:
        wait_for_signal()
    finally:
        stop()
    return 0


def configure_logging(log_file: Path | None = None) -> None:
    """Logging for a service (see ``services.logs``); with ``log_file``, the terminal gets
    one line per problem and the file every detail."""
    logs.configure_logging(log_file)
