"""Fixtures of the browser tests: the real stack and Debian's Chromium through Playwright.

``game_stack``  the embedded broker (from tests/conftest.py), a tables service on it and
                a web service: ``url``, ``endpoint``. One per test module.
``chromium``    one headless Chromium per session (a fresh temporary profile: Playwright's
                ``launch`` makes one; ``playwright install`` cannot download here).
``open_page``   ``open_page(kind, path)``: a page in a fresh context ("tv": 1920×1080,
                "phone": 390×844 touch); ``init_script`` runs before the page's own.
                Every console error and page error is collected and the test fails at
                teardown if there was one.
``artefacts``   the folder for screenshots kept after the run (test-artifacts/browser/).
``lan_chromium`` a Chromium that resolves ``gamenight.test`` (``LAN_HOST``) to 127.0.0.1 and
                accepts our self-signed certificate: pages opened at
                ``http://gamenight.test:PORT/`` meet what a phone on the home network meets
                (no secure context), while every byte still goes to loopback.
``open_lan_page`` ``open_lan_page(kind, url)``: like ``open_page`` in ``lan_chromium``, with
                a full URL (``lan_url(url)`` swaps 127.0.0.1 for ``gamenight.test``).
``lan_page``    ``lan_page(kind, path)``: ``open_lan_page`` on the game stack's pages.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from chromium import CHROMIUM, CHROMIUM_ARGS, LAN_HOST

from services.assistant.runner import AssistantRunner
from services.broker.settings import BrokerEndpoint
from services.tables.runner import TablesRunner
from services.web import WebServer, start_web
from services.web.guard import Limits, Rate, RateLimiter

ROOT = Path(__file__).resolve().parents[2]
LAN_ARGS = [
    f"--host-resolver-rules=MAP {LAN_HOST} 127.0.0.1",
    "--ignore-certificate-errors",  # our own certificate, as a phone accepts it once
]
VIEWPORTS: dict[str, dict[str, Any]] = {
    "tv": {"viewport": {"width": 1920, "height": 1080}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}


@dataclass
class GameStack:
    """Broker, tables, assistant and web service, all real, on loopback."""

    endpoint: BrokerEndpoint
    tables: TablesRunner
    assistant: AssistantRunner
    web: WebServer

    @property
    def url(self) -> str:
        return self.web.url


@pytest.fixture(scope="module")
def game_stack(
    embedded_broker: BrokerEndpoint, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[GameStack]:
    data = tmp_path_factory.mktemp("tables") / "gamenight.db"
    owner = f"tables-browser-{secrets.token_hex(4)}"
    tables = TablesRunner(embedded_broker.service_url("tables"), data, owner=owner).start()
    assistant = AssistantRunner(embedded_broker.service_url("assistant")).start()
    web = start_web(
        broker_url=embedded_broker.service_url("web"),
        ws_url=f"ws://{{host}}:{embedded_broker.ws_port}/mqtt",
    )
    # A module's tests create and join dozens of tables from one address within seconds,
    # which a family's TV never does: the per-address limits (tested on their own in
    # tests/services/web) would refuse them, so this stack gets roomy ones.
    roomy = Rate(burst=10_000, every=0.001)
    web.app.extensions["gamenight.limits"] = Limits(
        RateLimiter(roomy), RateLimiter(roomy), RateLimiter(roomy)
    )
    try:
        yield GameStack(embedded_broker, tables, assistant, web)
    finally:
        web.stop()
        assistant.stop()
        tables.stop()


def _launch(playwright: Any, extra_args: list[str]) -> Any:
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM), args=[*CHROMIUM_ARGS, *extra_args]
    )


@pytest.fixture(scope="session")
def playwright_session() -> Iterator[Any]:
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is required in CI (apt-get install chromium)")
        pytest.skip(f"{CHROMIUM} is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def chromium(playwright_session: Any) -> Iterator[Any]:
    browser = _launch(playwright_session, [])
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture(scope="session")
def lan_chromium(playwright_session: Any) -> Iterator[Any]:
    browser = _launch(playwright_session, LAN_ARGS)
    try:
        yield browser
    finally:
        browser.close()


def lan_url(url: str) -> str:
    """``url`` with this machine's loopback address replaced by the LAN test host name."""
    return url.replace("://127.0.0.1:", f"://{LAN_HOST}:").replace(
        "://localhost:", f"://{LAN_HOST}:"
    )


@pytest.fixture(scope="session")
def artefacts() -> Path:
    folder = ROOT / "test-artifacts" / "browser"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@dataclass
class ConsoleWatch:
    """Console errors and uncaught exceptions of every page a test opened."""

    problems: list[str] = field(default_factory=list)

    def watch(self, page: Any, label: str) -> None:
        page.on(
            "console",
            lambda message: (
                message.type == "error" and self.problems.append(f"{label}: {message.text}")
            ),
        )
        page.on("pageerror", lambda error: self.problems.append(f"{label}: {error}"))


@pytest.fixture
def open_page(chromium: Any, game_stack: GameStack) -> Iterator[Callable[..., Any]]:
    watch = ConsoleWatch()
    contexts: list[Any] = []

    def open_page(
        kind: str,
        path: str = "/",
        *,
        label: str | None = None,
        lang: str = "en",
        init_script: str | None = None,
    ) -> Any:
        context = chromium.new_context(**VIEWPORTS[kind], locale=lang)
        if init_script is not None:  # runs before the page's own scripts, on every load
            context.add_init_script(init_script)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        watch.watch(page, label or f"{kind}{len(contexts)}")
        page.goto(game_stack.url + path)
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert not watch.problems, "pages logged errors:\n" + "\n".join(watch.problems)


@pytest.fixture
def open_lan_page(lan_chromium: Any) -> Iterator[Callable[..., Any]]:
    watch = ConsoleWatch()
    contexts: list[Any] = []

    def open_lan_page(
        kind: str,
        url: str,
        *,
        label: str | None = None,
        lang: str = "en",
        init_script: str | None = None,
    ) -> Any:
        context = lan_chromium.new_context(**VIEWPORTS[kind], locale=lang)
        if init_script is not None:
            context.add_init_script(init_script)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        watch.watch(page, label or f"{kind}{len(contexts)}")
        page.goto(lan_url(url))
        return page

    yield open_lan_page
    for context in contexts:
        context.close()
    assert not watch.problems, "pages logged errors:\n" + "\n".join(watch.problems)


@pytest.fixture
def lan_page(open_lan_page: Callable[..., Any], game_stack: Any) -> Callable[..., Any]:
    """``lan_page(kind, path, lang=..., label=...)``: ``open_page`` as a phone on the LAN
    meets it, at ``http://gamenight.test:PORT/``."""

    def open_page(kind: str, path: str = "/", **options: Any) -> Any:
        return open_lan_page(kind, game_stack.url + path, **options)

    return open_page


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests may be rerun twice: known timing races under load (DEVELOPERS.md).
    ``GAMENIGHT_BROWSER_RERUNS=0`` shows a first attempt's failure in full."""
    reruns = int(os.environ.get("GAMENIGHT_BROWSER_RERUNS", "2"))
    for item in items:
        if reruns and "tests/browser/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.flaky(reruns=reruns, reruns_delay=1))
