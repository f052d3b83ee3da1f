"""Pages as a LAN phone meets them: loaded from ``http://gamenight.test:PORT/``.

Chromium maps the name ``gamenight.test`` to 127.0.0.1 (``--host-resolver-rules``), so
the pages run under a non-loopback host name while every byte stays on loopback: the
broker's WebSocket address is built from that name too. The fixtures mirror
``conftest.py``'s ``chromium`` and ``open_page`` (which load from 127.0.0.1); a test
module takes them with ``from browser_lan_launch import lan_chromium_fixture,
lan_page_fixture``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from chromium import CHROMIUM, LAN_HOST, LAN_RULES
from chromium import CHROMIUM_ARGS as BASE_ARGS

CHROMIUM_ARGS = [*BASE_ARGS, LAN_RULES]
VIEWPORTS: dict[str, dict[str, Any]] = {
    "tv": {"viewport": {"width": 1920, "height": 1080}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}


def lan_url(stack: Any) -> str:
    """The web service's address under the LAN host name."""
    port = urlsplit(stack.url).port
    return f"http://{LAN_HOST}:{port}"


@pytest.fixture(scope="module", name="lan_chromium")
def lan_chromium_fixture(chromium: Any) -> Iterator[Any]:
    """A second Chromium that maps the LAN name, from conftest's Playwright (one per run)."""
    browser = chromium.browser_type.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture(name="lan_page")
def lan_page_fixture(lan_chromium: Any, game_stack: Any) -> Iterator[Callable[..., Any]]:
    """``lan_page(kind, path, lang=..., label=...)``: a fresh context on gamenight.test.

    Console errors and uncaught exceptions of every page fail the test at teardown.
    """
    problems: list[str] = []
    contexts: list[Any] = []

    def watch(page: Any, label: str) -> None:
        page.on(
            "console",
            lambda message: message.type == "error" and problems.append(f"{label}: {message.text}"),
        )
        page.on("pageerror", lambda error: problems.append(f"{label}: {error}"))

    def open_lan_page(
        kind: str,
        path: str = "/",
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
        watch(page, label or f"{kind}{len(contexts)}")
        page.goto(lan_url(game_stack) + path)
        return page

    yield open_lan_page
    for context in contexts:
        context.close()
    assert not problems, "pages logged errors:\n" + "\n".join(problems)
