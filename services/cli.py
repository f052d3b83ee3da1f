"""The ``gamenight`` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

from engine.errors import RuleError
from engine.registry import GAME_MODULES
from services.simulate import parse_option, transcript


def _simulate(args: argparse.Namespace) -> int:
    try:
        options = dict(parse_option(text) for text in args.option)
        for line in transcript(args.game, args.players, args.seed, options):
            print(line)
    except (RuleError, ValueError) as error:
        print(f"gamenight simulate: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `gamenight simulate ... | head` is fine
        sys.stderr.close()
    return 0


def _serve(args: argparse.Namespace) -> int:
    from services.logs import LOG_FILE
    from services.netaddr import listen_warnings, loopback_warning
    from services.runtime import configure_logging, wait_for_signal
    from services.serve import Stack, StackSettings
    from services.web.settings import loopback_notice

    # One line per problem in this terminal; the details beside the data.
    configure_logging(args.data.expanduser().resolve().parent / LOG_FILE)
    settings = StackSettings(
        data=args.data.expanduser().resolve(),
        broker=args.broker,
        mqtt_listen=args.mqtt,
        ws_listen=args.ws,
        ws_url=args.ws_url,
        web_host=args.host,
        web_port=args.port,
        public_url=args.public_url,
        bots=not args.no_bots,
        https=args.https,
    )
    with Stack(settings).start() as stack:
        assert stack.web is not None
        tv_url = stack.web.settings.public_url or stack.web.url
        print(f"\nGame Night is on. Open the TV page: {tv_url}\n")
        _print_qr(tv_url)
        bar = "!" * 78
        if loopback_notice(tv_url) is not None:
            scheme = "https" if settings.https else "http"
            print(f"{bar}\n{loopback_warning(stack.web.port, scheme)}\n{bar}", file=sys.stderr)
        listeners = {"the web service": f"{args.host} --host 0.0.0.0"}
        if args.broker is None:
            ws_host, _, ws_port = args.ws.rpartition(":")
            listeners["the broker's WebSocket"] = f"{ws_host} --ws 0.0.0.0:{ws_port}"
        for warning in listen_warnings(listeners, urlsplit(tv_url).hostname or ""):
            print(f"{bar}\n{warning}\n{bar}", file=sys.stderr)
        if stack.certificate is not None:
            print(
                f"(https with our own certificate, {stack.certificate.cert}:"
                " each phone accepts it once, as the TV explains)"
            )
        else:
            print(
                "(plain http: phones speak through their keyboard's dictation key;"
                " --https lets the page use the microphone)"
            )
        print(f"(data: {settings.data}; Ctrl-C stops everything)", flush=True)
        wait_for_signal()
    return 0


def _play(args: argparse.Namespace) -> int:
    from clients.terminal.app import play

    return play(args.server, args.table, args.name, args.lang)


def _arena(args: argparse.Namespace) -> int:
    from services.bots.arena import main as arena_main

    return arena_main(args)


def _cluster(args: argparse.Namespace) -> int:
    from services.cluster.stack import run

    return run(args)


def _print_qr(url: str) -> None:
    import qrcode

    code = qrcode.QRCode(border=1)
    code.add_data(url)
    code.print_ascii(invert=True)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gamenight", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    simulate = commands.add_parser("simulate", help="print a whole game played at random")
    simulate.add_argument("game", choices=sorted(GAME_MODULES))
    simulate.add_argument("--players", type=int, default=4)
    simulate.add_argument("--seed", type=int, default=1)
    simulate.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a rule option"
    )
    simulate.set_defaults(handler=_simulate)

    serve = commands.add_parser(
        "serve",
        help="run the broker and every service",
        description="Run the embedded broker and every service in one process. The TV page"
        " and the phones use the web port; the phones' pages dial the broker's WebSocket port."
        " Everything is kept beside the data file: the SQLite tables, the broker's accounts,"
        " the service secret, and with --https the certificate (in tls/).",
    )
    serve.add_argument(
        "--data",
        type=Path,
        default=Path("~/.local/share/gamenight/gamenight.db"),
        help="the SQLite file; the broker's accounts, the secret and the certificate go"
        " beside it (default: %(default)s)",
    )
    serve.add_argument(
        "--broker",
        default=None,
        help="use this broker (mqtt://host:port) instead of the embedded one",
    )
    serve.add_argument(
        "--mqtt",
        default="127.0.0.1:1883",
        help="embedded broker's TCP listener (default: %(default)s)",
    )
    serve.add_argument(
        "--ws",
        default="0.0.0.0:8083",
        help="embedded broker's WebSocket listener, the phones' (wss with --https;"
        " default: %(default)s)",
    )
    serve.add_argument(
        "--ws-url",
        default=None,
        help="the WebSocket URL as pages dial it ({host}: the page's host; default: the"
        " embedded broker's WebSocket port, 8083 with --broker)",
    )
    serve.add_argument(
        "--host", default="0.0.0.0", help="the web service's address (default: %(default)s)"
    )
    serve.add_argument(
        "--port", type=int, default=8000, help="the web service's port (default: %(default)s)"
    )
    serve.add_argument(
        "--public-url",
        default="",
        help="the address in the QR code, e.g. http://192.168.1.20:8000 (default: this"
        " computer's address on the network of its default route)",
    )
    scheme = serve.add_mutually_exclusive_group()
    scheme.add_argument(
        "--https",
        action="store_true",
        default=False,
        help="serve pages over https and the broker over wss with a self-signed certificate"
        " (phones then allow the microphone and the wake lock; each accepts it once)",
    )
    scheme.add_argument(
        "--http",
        dest="https",
        action="store_false",
        help="plain http and ws, the default: nothing to accept on the phones",
    )
    serve.add_argument("--no-bots", action="store_true", help="no computer players")
    serve.set_defaults(handler=_serve)

    from clients.terminal.app import add_arguments as add_play_arguments

    play = commands.add_parser("play", help="join a table from this terminal, as a phone does")
    add_play_arguments(play)
    play.set_defaults(handler=_play)

    from services.bots.arena import add_arguments

    arena = commands.add_parser("arena", help="measure two computer-player levels")
    add_arguments(arena)
    arena.set_defaults(handler=_arena)

    from services.cluster.stack import add_arguments as add_cluster_arguments

    cluster = commands.add_parser(
        "cluster", help="run every service on a NATS cluster of this machine (no Docker)"
    )
    add_cluster_arguments(cluster)
    cluster.set_defaults(handler=_cluster)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    handler = args.handler
    result: int = handler(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
