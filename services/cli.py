"""The ``gamenight`` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

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
    return 0


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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    handler = args.handler
    result: int = handler(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
