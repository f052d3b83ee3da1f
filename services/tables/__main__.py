"""``python -m services.tables --broker URL[,URL...] [--store nats://...] [--owner NAME]``.

Without ``--store`` (or with ``--store sqlite:PATH``) one copy keeps its tables in the
SQLite file ``--data``, as ``gamenight serve`` runs it. With ``--store nats://H:P,...``
the table log and leases live in the NATS cluster's JetStream, and several copies (each
its own ``--owner``) share the tables.
"""

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
    parser.add_argument(
        "--store", default=None, help="sqlite:PATH, or nats://HOST:PORT[,nats://...] (a cluster)"
    )
    parser.add_argument("--secret-file", type=Path, default=None)
    parser.add_argument(
        "--owner",
        "--client-id",
        dest="owner",
        default=CLIENT_ID,
        help="this copy's name: its persistent MQTT session and the owner on its leases",
    )
    parser.add_argument(
        "--accounts",
        choices=("broker", "nats"),
        default=None,
        help="where players' accounts are made (default: nats with a NATS store, else broker)",
    )
    args = parser.parse_args(argv)
    configure_logging()
    url = service_url(args.broker, "tables", args.secret_file)
    runner = TablesRunner(
        url,
        args.data,
        owner=args.owner,
        store=args.store,
        accounts=args.accounts,
        secret_file=args.secret_file,
    )
    runner.start()
    return serve_until_signal(runner.stop)


if __name__ == "__main__":
    sys.exit(main())
