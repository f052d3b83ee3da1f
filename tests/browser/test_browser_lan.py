"""The pages as a phone on the home network meets them: ``http://gamenight.test:PORT/``
(not a secure context, as ``http://<LAN address>`` is not), and the same over https with
our own certificate (a secure context once accepted), both brokers' WebSockets over wss.

``gamenight.test`` resolves to 127.0.0.1 inside Chromium only (``lan_chromium``): every
byte goes to loopback, yet the page's origin is not ``localhost``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from browser_play import is_my_turn, join, kings_step, shown_seq, table_code

from services.broker.credentials import ServiceCredentials
from services.broker.embedded import start_embedded_broker
from services.broker.mosquitto import MosquittoProcess, free_tcp_port
from services.tables.runner import TablesRunner
from services.tls import CertificateFiles, ensure_certificate
from services.web import WebServer, start_web

pytestmark = pytest.mark.browser
LAN_HOST = "gamenight.test"  # what lan_chromium maps to 127.0.0.1 (tests/browser/conftest.py)
GameStack = Any

# What the page may use, as the page itself sees it.
CAPABILITIES = """() => ({
  secure: window.isSecureContext,
  wakeLockApi: "wakeLock" in navigator,
  getUserMedia: Boolean(navigator.mediaDevices && navigator.mediaDevices.getUserMedia),
  micShown: !document.querySelector("#say-listen").hidden,
  hintShown: !document.querySelector("#say-hint").hidden,
  hint: document.querySelector("#say-hint").textContent,
})"""
VIDEO_PLAYING = """() => {
  const video = document.querySelector("video.keep-awake-video");
  return Boolean(video && !video.paused && video.currentTime > 0 && video.readyState >= 2);
}"""
# The TV's QR image as grey levels, read back from a canvas (what the TV really draws).
QR_PIXELS = """() => {
  const image = document.querySelector("#qr");
  const size = 400;
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = size;
  const context = canvas.getContext("2d");
  context.fillStyle = "#fff";
  context.fillRect(0, 0, size, size);
  context.drawImage(image, 20, 20, size - 40, size - 40);
  const rgba = context.getImageData(0, 0, size, size).data;
  const grey = [];
  for (let i = 0; i < rgba.length; i += 4) grey.push(rgba[i]);
  return { size, grey };
}"""


def decode_qr(tv: Any) -> list[str]:
    zxingcpp = pytest.importorskip("zxingcpp")
    tv.wait_for_function("() => document.querySelector('#qr').complete")
    drawn = tv.evaluate(QR_PIXELS)
    image = memoryview(bytes(drawn["grey"])).cast("B", (drawn["size"], drawn["size"]))
    return [found.text for found in zxingcpp.read_barcodes(image)]


def start_and_play_one_move(tv: Any, phones: list[Any]) -> None:
    """The host starts on the TV; whoever has the turn makes one move from their phone."""
    tv.click("#lobby-controls [data-op=start]")
    for phone in phones:
        phone.wait_for_selector("#play:not([hidden]) #hand .card")
    tv.wait_for_selector("#game:not([hidden])")
    mover = next(phone for phone in phones if is_my_turn(phone))
    before = shown_seq(mover)
    log_before = tv.eval_on_selector_all("#log li", "items => items.length")
    kings_step(mover)
    assert shown_seq(mover) > before  # accepted: the table moved on
    tv.wait_for_function(
        "n => document.querySelectorAll('#log li').length > n", arg=log_before
    )  # and the TV, over its own wss connection, shows it


# ---------------------------------------------------------------------- plain http


def test_a_phone_on_plain_http_stays_awake_with_the_video_and_is_told_about_dictation(
    open_lan_page: Callable[..., Any], game_stack: GameStack
) -> None:
    tv = open_lan_page("tv", game_stack.url + "/", label="tv")
    code = table_code(tv)
    phones = []
    for name in ("Ana", "Bob"):
        phone = open_lan_page("phone", f"{game_stack.url}/join/{code}", label=name)
        join(phone, name)
        phones.append(phone)
    ana = phones[0]
    assert ana.evaluate("location.hostname") == LAN_HOST
    seen = ana.evaluate(CAPABILITIES)
    assert seen["secure"] is False  # what http://<LAN address> gives a phone
    assert seen["wakeLockApi"] is False and seen["getUserMedia"] is False
    assert ana.evaluate("document.documentElement.dataset.wakeLock || 'off'") == "off"

    tv.click("#lobby-controls [data-op=start]")
    for phone in phones:
        phone.wait_for_selector("#play:not([hidden]) #hand .card")
        seen = phone.evaluate(CAPABILITIES)
        assert not seen["micShown"]  # it could never get the microphone here
        assert seen["hintShown"] and "keyboard" in seen["hint"]
        phone.wait_for_function(VIDEO_PLAYING)  # the fallback really plays, no tap needed
        assert phone.evaluate("document.documentElement.dataset.wakeLock") == "video"
        # The video is ours, served with byte ranges (Safari plays nothing without them).
        source = phone.evaluate("document.querySelector('video.keep-awake-video').currentSrc")
        assert source.startswith(f"http://{LAN_HOST}:") and "/static/media/keep-awake." in source

    tv.click("#host-open")
    tv.click("#host-panel [data-op=end_session]")
    for phone in phones:
        phone.wait_for_function("() => document.documentElement.dataset.wakeLock === 'off'")
        assert phone.evaluate(
            "document.querySelector('video.keep-awake-video').paused"
        )  # and lets the screen sleep again


def test_the_dictation_hint_is_in_the_phones_language(
    open_lan_page: Callable[..., Any], game_stack: GameStack
) -> None:
    tv = open_lan_page("tv", game_stack.url + "/", label="tv")
    code = table_code(tv)
    phone = open_lan_page("phone", f"{game_stack.url}/join/{code}", label="Zoé", lang="fr-FR")
    join(phone, "Zoé")
    bob = open_lan_page("phone", f"{game_stack.url}/join/{code}", label="Bob")
    join(bob, "Bob")
    tv.click("#lobby-controls [data-op=start]")
    phone.wait_for_selector("#play:not([hidden]) #say-hint:not([hidden])")
    assert "touche micro du clavier" in phone.inner_text("#say-hint")


def test_the_tv_warns_in_its_language_when_the_qr_code_points_at_loopback(
    open_lan_page: Callable[..., Any], game_stack: GameStack
) -> None:
    port = free_tcp_port()
    web = start_web(
        port=port,
        broker_url=game_stack.endpoint.service_url("web"),
        ws_url=f"ws://{{host}}:{game_stack.endpoint.ws_port}/mqtt",
        public_url=f"http://127.0.0.1:{port}",  # what the old chooser gave on Debian
    )
    try:
        for lang, expected in (
            ("en", "Phones cannot reach 127.0.0.1: start with --public-url http://<this"),
            ("nl", "Telefoons kunnen 127.0.0.1 niet bereiken: start met --public-url http://<"),
        ):
            tv = open_lan_page("tv", web.url + "/", label=f"tv-{lang}", lang=lang)
            table_code(tv)
            warning = tv.inner_text("#network-notices [data-notice=loopback_only]")
            assert warning.startswith(expected), warning
            assert warning.endswith(f">:{port}")
            assert tv.get_attribute("#network-notices [data-notice]", "role") == "alert"
        # A reachable address gives no warning (and no certificate step over http).
        plain = open_lan_page("tv", game_stack.url + "/", label="tv-lan")
        table_code(plain)
        assert plain.is_hidden("#network-notices")
    finally:
        web.stop()


# ---------------------------------------------------------------------- https


@dataclass
class HttpsStack:
    """A broker whose WebSocket speaks wss only, a tables service and an https web service."""

    web: WebServer
    certificate: CertificateFiles

    @property
    def url(self) -> str:
        return f"https://{LAN_HOST}:{self.web.port}"


def _certificate(folder: Path) -> CertificateFiles:
    # Named for the test host, as `serve --https` names the advertised address.
    return ensure_certificate(folder, ["127.0.0.1"], [LAN_HOST])


@pytest.fixture(
    scope="module",
    params=["embedded", pytest.param("mosquitto", marks=pytest.mark.mosquitto)],
)
def https_stack(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[HttpsStack]:
    folder = tmp_path_factory.mktemp(f"https-{request.param}")
    certificate = _certificate(folder / "tls")
    pair = (certificate.cert, certificate.key)
    credentials = ServiceCredentials.generate()
    stops: list[Callable[[], None]] = []
    try:
        if request.param == "embedded":
            broker: Any = start_embedded_broker(
                credentials,
                tcp="127.0.0.1:0",
                ws="127.0.0.1:0",
                data_dir=folder / "broker",
                ws_certificate=pair,
            )
        else:
            binary, plugin = request.getfixturevalue("mosquitto_install")
            broker = MosquittoProcess(
                folder / "mosquitto",
                credentials,
                binary=binary,
                plugin=plugin,
                ws_certificate=pair,
            )
        stops.append(broker.stop)
        endpoint = broker.endpoint
        owner = f"tables-lan-{secrets.token_hex(4)}"
        tables = TablesRunner(endpoint.service_url("tables"), folder / "gn.db", owner=owner)
        stops.append(tables.start().stop)
        port = free_tcp_port()
        web = start_web(
            port=port,
            certificate=certificate,
            broker_url=endpoint.service_url("web"),
            ws_url=f"wss://{{host}}:{endpoint.ws_port}/mqtt",
            public_url=f"https://{LAN_HOST}:{port}",
        )
        stops.append(web.stop)
        yield HttpsStack(web, certificate)
    finally:
        for stop in reversed(stops):
            stop()


def test_over_https_the_qr_code_opens_a_secure_phone_that_plays_over_wss(
    open_lan_page: Callable[..., Any], https_stack: HttpsStack
) -> None:
    tv = open_lan_page("tv", https_stack.url + "/", label="tv")
    code = table_code(tv)
    decoded = decode_qr(tv)
    assert decoded == [f"{https_stack.url}/join/{code}"]  # the advertised https address
    assert tv.inner_text("#join-address") == f"{https_stack.url}/join"  # and in words
    config = tv.evaluate("fetch('/api/config').then(r => r.json())")
    assert config["ws_url"].startswith(f"wss://{LAN_HOST}:")
    steps = tv.inner_text("#network-notices [data-notice=accept_certificate]")
    assert "First time on a phone?" in steps and "Advanced" in steps

    phones = []
    for name in ("Ana", "Bob"):
        phone = open_lan_page("phone", decoded[0], label=name)
        join(phone, name)
        phones.append(phone)
    seen = phones[0].evaluate(CAPABILITIES)
    assert seen["secure"] is True
    assert seen["wakeLockApi"] is True and seen["getUserMedia"] is True

    start_and_play_one_move(tv, phones)
    for phone in phones:
        seen = phone.evaluate(CAPABILITIES)
        assert seen["micShown"] and not seen["hintShown"]
        # The Wake Lock API holds; where a browser refuses it, the video does instead.
        phone.wait_for_function(
            "() => ['api', 'video'].includes(document.documentElement.dataset.wakeLock)"
        )
        if phone.evaluate("document.documentElement.dataset.wakeLock") == "video":
            phone.wait_for_function(VIDEO_PLAYING)


def test_the_certificate_steps_are_in_the_tvs_language(
    open_lan_page: Callable[..., Any], https_stack: HttpsStack
) -> None:
    for lang, title, button in (
        ("fr-FR", "Première fois sur ce téléphone\u00a0?", "Paramètres avancés"),
        ("pt-PT", "Primeira vez num telemóvel?", "Avançadas"),
        ("nl-NL", "Voor het eerst op een telefoon?", "Geavanceerd"),
    ):
        tv = open_lan_page("tv", https_stack.url + "/", label=f"tv-{lang}", lang=lang)
        table_code(tv)
        steps = tv.inner_text("#network-notices [data-notice=accept_certificate]")
        assert title in steps and button in steps
        assert f"https://{LAN_HOST}:" in steps  # where to accept the broker's port too
