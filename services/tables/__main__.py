"""``python -m services.tables --broker mqtt://HOST:PORT --data FILE``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from services.runtime import configure_logging, serve_until_signal, service_url
from services.tables.runner import CLIENT_ID, TablesRunner


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m services.tables", description=__doc__)
    parser.add_argument("--broker", default="mqtt://127.0.0.1:1883")
    parser.add_argument("--data", type=Path, default=Path("gamenight.db"))
    parser.add_argument("--secret-file", type=Path, default=None)
    parser.add_argument(
        "--client-id", default=CLIENT_ID, help="the persistent MQTT session (and table owner)"
    )
    args = parser.parse_args(argv)
    configure_logging()
    url = service_url(args.broker, "tables", args.secret_file)
    runner = TablesRunner(url, args.data, owner=args.client_id)
    runner.start()
    return serve_until_signal(runner.stop)


if __name__ == "__main__":
    sys.exit(main())
