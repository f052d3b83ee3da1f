"""A move spoken into the phone page: Chromium's fake microphone plays espeak-ng's words,
the page records and sends them, the assistant hears them offline, the TV shows the move.
The microphone needs a secure context: on ``localhost``, and as a phone on the home network
meets the game, over https at ``gamenight.test`` (our own certificate, wss to the broker)."""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from browser_play import act_and_wait, is_my_turn, join, start_game, table_code, two_players_joined
from chromium import CHROMIUM, CHROMIUM_ARGS, LAN_HOST, LAN_RULES

from services.assistant.runner import AssistantRunner
from services.assistant.speech import spoken
from services.assistant.speech.grammar import card_words
from services.broker.credentials import ServiceCredentials
from services.broker.embedded import start_embedded_broker
from services.broker.mosquitto import free_tcp_port
from services.tables.runner import TablesRunner
from services.tls import ensure_certificate
from services.web import start_web

pytestmark = pytest.mark.browser
LAN_ARGS = [LAN_RULES, "--ignore-certificate-errors"]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
PILE_WORDS = {
    "N": "north", "E": "east", "S": "south", "W": "west",
    "NE": "north east", "NW": "north west", "SE": "south east", "SW": "south west",
}  # fmt: skip


@pytest.fixture
def browser_type(chromium: Any) -> Any:
    """Playwright's Chromium launcher (one Playwright per process: the session's)."""
    if not spoken.available():
        if os.environ.get("CI"):
            pytest.fail("espeak-ng and sox are required in CI")
        pytest.skip("espeak-ng or sox missing")
    return chromium.browser_type


def launch_with_microphone(browser_type: Any, wav: Path, lan: bool = False) -> Any:
    """A Chromium whose microphone says what ``wav`` holds, once, and asks no permission."""
    return browser_type.launch(
        executable_path=str(CHROMIUM),
        args=[
            *CHROMIUM_ARGS,
            *(LAN_ARGS if lan else []),
            "--use-fake-ui-for-media-stream",
            "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-audio-capture={wav}%noloop",
        ],
    )


def a_move_to_say(phone: Any) -> tuple[str, str | None, str | None]:
    """What to say for a move the phone's page offers: a card onto a pile, else the end of
    the turn; with that card and pile (None, None for the end of the turn)."""
    card = phone.eval_on_selector_all("#hand .card.playable", "e => e.map(c => c.dataset.card)")
    if not card:
        return "end my turn", None, None
    phone.click(f"#hand .card[data-card='{card[0]}']")
    phone.wait_for_selector("#board .pile-cell.target")
    pile = phone.get_attribute("#board .pile-cell.target", "data-pile")
    phone.click(f"#hand .card[data-card='{card[0]}']")  # put it back
    assert pile is not None
    return f"{card_words(card[0])} on {PILE_WORDS[pile]}", card[0], pile


def speak_a_move(
    tv: Any, mover: Any, base_url: str, browser_type: Any, folder: Path, lan: bool = False
) -> None:
    """The mover draws by tapping, then says a move into a phone with a microphone (the same
    seat, its old page closed); the phone shows what was heard and the TV the move."""
    act_and_wait(mover, ["#actions [data-action=draw]"])
    sentence, card, pile = a_move_to_say(mover)
    turns_ended = tv.eval_on_selector_all("#log li[data-code=turn_ended]", "e => e.length")
    wav = folder / "move.wav"
    spoken.speak_wav(sentence, str(wav), voice="en-us", speed=150, pad=0.6)
    saved = mover.evaluate("() => localStorage.getItem('gamenight.seats')")
    path = mover.evaluate("() => location.pathname")
    mover.goto("about:blank")
    browser = launch_with_microphone(browser_type, wav, lan)
    try:
        context = browser.new_context(**PHONE, locale="en")
        context.add_init_script(f"localStorage.setItem('gamenight.seats', {json.dumps(saved)})")
        phone = context.new_page()
        problems: list[str] = []
        phone.on("pageerror", lambda error: problems.append(str(error)))
        phone.set_default_timeout(20_000)
        phone.goto(base_url + path)
        phone.wait_for_selector("#play:not([hidden]) #hand .card")
        assert phone.evaluate("() => isSecureContext")
        phone.wait_for_selector("#say-listen:not([hidden])")
        phone.click("#say-listen")  # a tap: recording stops by itself after the words

        heard = phone.wait_for_selector("#say-heard:not([hidden])")
        assert heard.inner_text() == f"Heard: “{sentence}”"
        if card is None:
            tv.wait_for_function(
                "n => document.querySelectorAll('#log li[data-code=turn_ended]').length > n",
                arg=turns_ended,
            )
        else:
            tv.wait_for_selector(f"#board [data-pile='{pile}'] [data-card='{card}']")
            phone.wait_for_function(
                f"() => !document.querySelector(\"#hand [data-card='{card}']\")"
            )
        assert problems == []
    finally:
        browser.close()


def test_a_spoken_move_is_played_and_shown_on_the_tv(
    open_page: Any, game_stack: Any, browser_type: Any, tmp_path: Path
) -> None:
    tv, ana, bob = two_players_joined(open_page)
    start_game(tv, (ana, bob))
    mover = ana if is_my_turn(ana) else bob
    speak_a_move(tv, mover, game_stack.url, browser_type, tmp_path)


@dataclass
class HttpsStack:
    """The embedded broker over wss, tables, assistant and an https web service."""

    url: str


@pytest.fixture(scope="module")
def https_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpsStack]:
    folder = tmp_path_factory.mktemp("voice-https")
    certificate = ensure_certificate(folder / "tls", ["127.0.0.1"], [LAN_HOST])
    credentials = ServiceCredentials.generate()
    stops: list[Callable[[], None]] = []
    try:
        broker = start_embedded_broker(
            credentials,
            tcp="127.0.0.1:0",
            ws="127.0.0.1:0",
            data_dir=folder / "broker",
            ws_certificate=(certificate.cert, certificate.key),
        )
        stops.append(broker.stop)
        endpoint = broker.endpoint
        owner = f"tables-voice-{secrets.token_hex(4)}"
        tables = TablesRunner(endpoint.service_url("tables"), folder / "gn.db", owner=owner)
        stops.append(tables.start().stop)
        stops.append(AssistantRunner(endpoint.service_url("assistant")).start().stop)
        port = free_tcp_port()
        url = f"https://{LAN_HOST}:{port}"
        web = start_web(
            port=port,
            certificate=certificate,
            broker_url=endpoint.service_url("web"),
            ws_url=f"wss://{{host}}:{endpoint.ws_port}/mqtt",
            public_url=url,
        )
        stops.append(web.stop)
        yield HttpsStack(url)
    finally:
        for stop in reversed(stops):
            stop()


def test_over_https_on_the_home_network_a_spoken_move_is_played(
    open_lan_page: Callable[..., Any], https_stack: HttpsStack, browser_type: Any, tmp_path: Path
) -> None:
    tv = open_lan_page("tv", https_stack.url + "/", label="tv")
    code = table_code(tv)
    ana = open_lan_page("phone", f"{https_stack.url}/join/{code}", label="Ana")
    join(ana, "Ana")
    bob = open_lan_page("phone", f"{https_stack.url}/join/{code}", label="Bob")
    join(bob, "Bob")
    start_game(tv, (ana, bob))
    mover = ana if is_my_turn(ana) else bob
    speak_a_move(tv, mover, https_stack.url, browser_type, tmp_path, lan=True)
