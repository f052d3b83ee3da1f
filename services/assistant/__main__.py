"""``python -m services.assistant --broker mqtt://HOST:PORT``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from services.assistant.runner import AssistantRunner
from services.runtime import configure_logging, serve_until_signal, service_url


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m services.assistant", description=__doc__)
    parser.add_argument("--broker", default="mqtt://127.0.0.1:1883")
    parser.add_argument("--secret-file", type=Path, default=None)
    args = parser.parse_args(argv)
    configure_logging()
    runner = AssistantRunner(service_url(args.broker, "assistant", args.secret_file))
    runner.start()
    return serve_until_signal(runner.stop)


if __name__ == "__main__":
    sys.exit(main())
