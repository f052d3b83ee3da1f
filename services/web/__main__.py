"""``python -m services.web --broker mqtt://127.0.0.1:1883 --ws-url ws://{host}:8083/mqtt``.

The service logs in as ``web`` with the password derived from the service secret (or
the login written in the broker URL).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from services.runtime import configure_logging, service_url
from services.tls import CertificateFiles
from services.web.server import run_web


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m services.web", description=__doc__)
    parser.add_argument("--broker", default="mqtt://127.0.0.1:1883", help="the MQTT broker")
    parser.add_argument(
        "--ws-url",
        default="ws://{host}:8083/mqtt",
        help="the broker's WebSocket URL as phones dial it ({host}: the page's host); "
        "comma-separated, every node of a cluster",
    )
    parser.add_argument(
        "--wss-url",
        default="wss://{host}:9002/mqtt",
        help="the broker's WebSocket URL with --https",
    )
    parser.add_argument(
        "--https",
        action="store_true",
        default=os.environ.get("GAMENIGHT_HTTPS", "").lower() in ("1", "true", "yes"),
        help="serve https with the certificate of --tls-dir (default: $GAMENIGHT_HTTPS)",
    )
    parser.add_argument("--tls-dir", type=Path, default=None, help="cert.pem and key.pem")
    parser.add_argument(
        "--public-url",
        default=os.environ.get("GAMENIGHT_PUBLIC_URL", ""),
        help="the address in the QR code (default: $GAMENIGHT_PUBLIC_URL, else this"
        " computer's address on its default route)",
    )
    parser.add_argument("--host", default="0.0.0.0", help="the address to listen on")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--secret-file",
        type=Path,
        default=None,
        help="the service secret (default: $GAMENIGHT_SERVICE_SECRET_FILE or _SECRET)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    configure_logging()
    certificate = None
    if args.https:
        if args.tls_dir is None:
            print("python -m services.web: --https needs --tls-dir", file=sys.stderr)
            return 2
        certificate = CertificateFiles.in_folder(args.tls_dir)
    login = service_url(args.broker, "web", args.secret_file)
    try:
        run_web(
            broker_url=args.broker,
            ws_url=args.wss_url if args.https else args.ws_url,
            certificate=certificate,
            public_url=args.public_url,
            host=args.host,
            port=args.port,
            username=login.username or "web",
            password=login.password or "",
        )
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
