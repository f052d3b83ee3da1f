"""The terminal hand's screen (prompt_toolkit): the table above, a typing line below."""

from __future__ import annotations

import argparse
import threading
from collections.abc import Sequence
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.widgets import TextArea

from clients.terminal.link import JoinRefusedError, Seat, SeatLink, join
from clients.terminal.screen import event_text, render, reply_text
from clients.terminal.words import LANGUAGES, Words

MAX_LOG = 200


class TerminalHand:
    """The newest views and lines, and the screen that shows them."""

    def __init__(self, seat: Seat, words: Words) -> None:
        self.seat = seat
        self.words = words
        self._lock = threading.Lock()
        self.table: dict[str, Any] | None = None
        self.mine: dict[str, Any] | None = None
        self.log: list[str] = []
        self.link = SeatLink(seat, self.on_message)
        self.input = TextArea(
            height=1,
            prompt="> ",
            multiline=False,
            accept_handler=self._accept,
        )
        body = Window(FormattedTextControl(self.text), wrap_lines=True)
        keys = KeyBindings()

        @keys.add("c-c")
        @keys.add("c-d")
        def _quit(event: Any) -> None:
            event.app.exit()

        self.app: Application[None] = Application(
            layout=Layout(HSplit([body, Window(height=1, char="─"), self.input]), self.input),
            key_bindings=keys,
            full_screen=True,
        )

    def text(self) -> str:
        with self._lock:
            return render(self.words, self.seat.seat, self.table, self.mine, self.log)

    def note(self, line: str) -> None:
        with self._lock:
            self.log.append(line)
            del self.log[:-MAX_LOG]

    def on_message(self, kind: str, message: dict[str, Any]) -> None:
        """From the broker's thread: keep the newest by (epoch, seq), redraw."""
        with self._lock:
            if kind == "table_view" and _newer(message, self.table):
                self.table = message
            elif kind == "seat_view" and _newer(message, self.mine):
                self.mine = message
        if kind == "reply":
            shown = reply_text(self.words, message)
            if shown:
                self.note(shown)
        elif kind == "events":
            game = (self.table or {}).get("game")
            for event in message.get("events") or []:
                self.note(event_text(self.words, event, game))
        self.app.invalidate()

    def _accept(self, buffer: Any) -> bool:
        line = buffer.text.strip()
        if line in ("/quit", "/exit"):
            self.app.exit()
        elif line.startswith("/") and self.seat.host:
            self.link.host(line[1:].strip())  # "/start", "/next_round"
        elif line:
            self.note(f"» {line}")
            self.link.say(line, self.words.lang)
        return False  # clear the line

    def run(self) -> None:
        self.link.start()
        try:
            self.app.run()
        finally:
            self.link.stop()


def _newer(message: dict[str, Any], held: dict[str, Any] | None) -> bool:
    if held is None:
        return True
    new = (message.get("epoch", 0), message.get("seq", 0))
    return new >= (held.get("epoch", 0), held.get("seq", 0))


def play(server: str, table: str, name: str, lang: str) -> int:
    """Join ``table`` at ``server`` as ``name`` and play until Ctrl-C or /quit."""
    words = Words(lang)
    try:
        seat = join(server, table, name, words.lang)
    except JoinRefusedError as refusal:
        print(words.describe("error", refusal.code, refusal.params))
        return 1
    except OSError as problem:
        print(f"{server}: {problem}")
        return 1
    TerminalHand(seat, words).run()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gamenight play", description=__doc__)
    add_arguments(parser)
    args = parser.parse_args(argv)
    return play(args.server, args.table, args.name, args.lang)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``play`` command's arguments (``gamenight play`` and ``python -m``)."""
    parser.add_argument("table", help="the table code shown on the TV")
    parser.add_argument("--name", required=True, help="your name at the table")
    parser.add_argument(
        "--server", default="http://127.0.0.1:8000", help="the Game Night web address"
    )
    parser.add_argument("--lang", default="en", choices=LANGUAGES, help="your language")
