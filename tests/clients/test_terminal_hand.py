"""The terminal hand in a real terminal (tmux) against a real stack: two players join
from their terminals, the host starts, the mover draws by typing, both ask questions and
get answers spoken to them, in their own languages."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from services.serve import Stack, StackSettings

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = ROOT / "clients" / "web" / "i18n"
pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


def plain(text: str) -> str:
    """As tmux shows it: French no-break spaces come out as plain spaces."""
    return text.replace("\u00a0", " ").replace("\u202f", " ")


def words(lang: str) -> dict[str, str]:
    loaded: dict[str, str] = json.loads((CATALOGUES / f"{lang}.json").read_text("utf-8"))
    return {key: plain(text) for key, text in loaded.items()}


class Terminal:
    """One tmux session running ``gamenight play``."""

    def __init__(self, name: str, command: list[str]) -> None:
        self.session = f"gn-{name}-{uuid.uuid4().hex[:6]}"
        shell = " ".join(f"'{part}'" for part in command)
        subprocess.run(
            ["tmux", "new-session", "-d", "-s", self.session, "-x", "110", "-y", "40", shell],
            check=True,
            cwd=ROOT,
        )

    def screen(self) -> str:
        done = subprocess.run(
            ["tmux", "capture-pane", "-p", "-t", self.session],
            capture_output=True,
            text=True,
            check=False,
        )
        return plain(done.stdout)

    def type(self, line: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.session, "-l", line], check=True)
        subprocess.run(["tmux", "send-keys", "-t", self.session, "Enter"], check=True)

    def wait_for(self, check: Callable[[str], bool], timeout: float = 20.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            shown = self.screen()
            if check(shown):
                return shown
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.session} never showed it:\n{shown}")
            time.sleep(0.2)

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.session], check=False)


def first_shown(expected: dict[Terminal, str], timeout: float = 20.0) -> Terminal:
    """The first terminal whose screen shows its expected text."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for terminal, text in expected.items():
            if text in terminal.screen():
                return terminal
        time.sleep(0.2)
    screens = "\n".join(terminal.screen() for terminal in expected)
    raise AssertionError(f"none showed {' / '.join(expected.values())}:\n{screens}")


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    settings = StackSettings(
        data=tmp_path / "gn.db",
        mqtt_listen="127.0.0.1:0",
        ws_listen="127.0.0.1:0",
        web_host="127.0.0.1",
        web_port=0,
        bots=False,
    )
    with Stack(settings).start() as running:
        yield running


def create_table(web_url: str, game: str) -> str:
    request = urllib.request.Request(
        f"{web_url}/api/tables",
        data=json.dumps({"game": game}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return str(json.load(response)["table"])


def test_two_terminals_play_and_ask_in_their_languages(stack: Stack) -> None:
    assert stack.web is not None
    web_url = stack.web.url.rstrip("/")
    table = create_table(web_url, "kings-corner")
    fr, en = words("fr"), words("en")
    play = [sys.executable, "-m", "services.cli", "play", table, "--server", web_url]
    ana = Terminal("ana", [*play, "--name", "Ana", "--lang", "fr"])
    try:
        ana.wait_for(lambda shown: fr["ui.waiting_start"] in shown)  # first in: the host
        ben = Terminal("ben", [*play, "--name", "Ben"])
        try:
            ben.wait_for(lambda shown: en["ui.waiting_start"] in shown)
            ana.type("/start")
            hand_fr = fr["ui.your_hand"]
            # (tmux shows French's no-break space before the colon as a space)
            ana.wait_for(lambda shown: f"{hand_fr} : " in shown and "N: " in shown)
            ben.wait_for(lambda shown: f"{en['ui.your_hand']}: " in shown)
            draw_fr = fr["ui.your_turn"].replace("{phase}", fr["phase.draw"])
            draw_en = en["ui.your_turn"].replace("{phase}", en["phase.draw"])
            # Whose turn it is shows a moment after the hand: wait for one of them to say so.
            mover_is_ana = first_shown({ana: draw_fr, ben: draw_en}) is ana
            mover, waiting = (ana, ben) if mover_is_ana else (ben, ana)
            mover_words, waiting_words = (fr, en) if mover_is_ana else (en, fr)

            # The mover draws by typing, in its own language; the table moves.
            mover.type("je pioche" if mover_is_ana else "I'll draw a card")
            play_phase = mover_words["ui.your_turn"].replace("{phase}", mover_words["phase.play"])
            mover.wait_for(lambda shown: play_phase in shown)

            # Both ask whose turn it is: the mover is spoken to, the other told a name.
            mover.type("c'est à qui ?" if mover_is_ana else "whose turn is it?")
            mover.wait_for(lambda shown: mover_words["answer.turn_you"] in shown)
            waiting.type("whose turn?" if mover_is_ana else "c'est à qui ?")
            named = waiting_words["answer.turn"].replace("{seat}", "Ana" if mover_is_ana else "Ben")
            waiting.wait_for(lambda shown: named in shown)

            # A named player's card count, read from the public view's names.
            waiting.type(
                "how many cards has Ana got?" if mover_is_ana else "combien de cartes a Ben ?"
            )
            counted = (
                waiting_words["answer.cards_of"]
                .replace("{seat}", "Ana" if mover_is_ana else "Ben")
                .replace("{count}", "8")  # seven dealt, one drawn
            )
            waiting.wait_for(lambda shown: counted in shown)

            # Nonsense is refused, worded, and the table does not move.
            mover.type("the weather is lovely")
            refused = mover_words["error.not_understood"].replace("{text}", "the weather is lovely")
            mover.wait_for(lambda shown: refused in shown)
            assert play_phase in mover.screen()
        finally:
            ben.close()
    finally:
        ana.close()


def test_a_refused_join_is_worded_in_the_players_language(stack: Stack) -> None:
    assert stack.web is not None
    web_url = stack.web.url.rstrip("/")
    command = [sys.executable, "-m", "services.cli", "play", "ZZZZ9", "--name", "Ana"]
    done = subprocess.run(
        [*command, "--server", web_url, "--lang", "nl"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert words("nl")["error.unknown_table"].split("{")[0].strip() in done.stdout


def test_the_terminal_hand_speaks_only_the_protocol() -> None:
    """Clients speak only the protocol: no service, no engine, in the terminal client."""
    for path in (ROOT / "clients" / "terminal").rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert node.module.split(".")[0] not in ("services", "engine"), path
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert alias.name.split(".")[0] not in ("services", "engine"), path
