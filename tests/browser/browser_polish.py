"""Helpers of the issue-9 browser tests: seat phones at a TV, measure what is drawn."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from browser_play import join, table_code

from services.web.settings import DEFAULT_CLIENT_DIR


def words(lang: str) -> dict[str, str]:
    loaded: dict[str, str] = json.loads(
        (DEFAULT_CLIENT_DIR / "i18n" / f"{lang}.json").read_text("utf-8")
    )
    return loaded


def seated(
    lan_page: Callable[..., Any],
    names: tuple[str, ...] = ("Ana", "Bob"),
    *,
    tv_lang: str = "en",
    game: str = "kings-corner",
) -> tuple[Any, list[Any]]:
    """A TV (in ``tv_lang``) with ``game`` chosen and a phone seated per name."""
    tv = lan_page("tv", "/", label="tv", lang=tv_lang)
    code = table_code(tv)
    if game == "five-crowns":
        tv.click("#lobby-controls .game-choice:nth-child(2)")
        tv.wait_for_selector("#lobby-controls .game-choice:nth-child(2)[aria-pressed=true]")
    phones = []
    for name in names:
        phone = lan_page("phone", f"/join/{code}", label=name)
        join(phone, name)
        phones.append(phone)
    tv.wait_for_function(
        f"() => document.querySelectorAll('#lobby-controls .player-row').length === {len(names)}"
    )
    return tv, phones


def start(tv: Any, phones: list[Any]) -> None:
    tv.click("#lobby-controls [data-op=start]")
    for phone in phones:
        phone.wait_for_selector("#play:not([hidden]) #hand .card")
    tv.wait_for_selector("#players .player-chip.turn")


def box(page: Any, selector: str) -> dict[str, float]:
    found: dict[str, float] = page.eval_on_selector(
        selector,
        "e => { const r = e.getBoundingClientRect();"
        " return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,"
        " height: r.height, width: r.width}; }",
    )
    return found


def line_count(page: Any, selector: str) -> list[float]:
    """For each element: its height in lines of its own text (1.0 = one line)."""
    counts: list[float] = page.eval_on_selector_all(
        selector,
        """els => els.map(e => {
          const style = getComputedStyle(e);
          const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
          const padding = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
          const inner = e.clientHeight - padding;
          return inner / line;
        })""",
    )
    return counts
