"""Run the embedded broker alone.

    python -m services.broker --tcp 127.0.0.1:1883 --ws 127.0.0.1:9001 --data DIR

The service secret comes from ``--service-secret-file``, else the environment
(``GAMENIGHT_SERVICE_SECRET_FILE`` or ``GAMENIGHT_SERVICE_SECRET``), else the file
``DIR/service-secret``, created on first start. Ctrl-C (or SIGTERM) stops it cleanly.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from services.broker.credentials import (
    ServiceCredentials,
    ServiceSecretError,
    ensure_secret_file,
)
from services.broker.embedded import TCP_LISTENER, WS_LISTENER, GameNightBroker, run_embedded_broker
from services.broker.settings import Address, BrokerSettings

SECRET_FILE = "service-secret"


def _address(text: str) -> Address | None:
    return None if text in ("", "off") else Address.parse(text)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m services.broker", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--tcp",
        type=_address,
        default=Address("127.0.0.1", 1883),
        help="HOST:PORT of the MQTT listener, or 'off' (127.0.0.1:1883)",
    )
    parser.add_argument(
        "--ws",
        type=_address,
        default=Address("127.0.0.1", 9001),
        help="HOST:PORT of the WebSocket listener, or 'off' (127.0.0.1:9001)",
    )
    parser.add_argument(
        "--data",
        type=Path,
        required=True,
        help="folder of the accounts file (and of the default secret file)",
    )
    parser.add_argument("--service-secret-file", type=Path, default=None)
    parser.add_argument("--verbose", action="store_true")
    return parser


def load_credentials(args: argparse.Namespace) -> ServiceCredentials:
    try:
        return ServiceCredentials.load(args.service_secret_file)
    except ServiceSecretError:
        return ensure_secret_file(args.data / SECRET_FILE)


async def serve(settings: BrokerSettings) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)

    def ready(broker: GameNightBroker) -> None:
        for name, scheme in ((TCP_LISTENER, "mqtt"), (WS_LISTENER, "ws")):
            port = broker.bound_port(name)
            address = settings.tcp if name == TCP_LISTENER else settings.ws
            if port is not None and address is not None:
                print(f"broker listening on {scheme}://{address.host}:{port}", flush=True)

    await run_embedded_broker(settings, stop, ready)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING)
    if args.tcp is None and args.ws is None:
        print("python -m services.broker: give at least one listener", file=sys.stderr)
        return 2
    try:
        credentials = load_credentials(args)
    except (OSError, ValueError) as problem:
        print(f"python -m services.broker: {problem}", file=sys.stderr)
        return 2
    settings = BrokerSettings(credentials, args.tcp, args.ws, args.data)
    asyncio.run(serve(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
