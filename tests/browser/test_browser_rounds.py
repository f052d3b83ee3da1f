"""A TV and two phones play a whole round of each game through the real stack."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser_play import (
    crowns_step,
    hand,
    join,
    kings_step,
    play_until,
    smallest_text_px,
    start_game,
    table_code,
    two_players_joined,
)

from services.web.settings import DEFAULT_CLIENT_DIR

pytestmark = pytest.mark.browser
MIN_TV_TEXT_PX = 24.0


def start_table(open_page: Callable[..., Any], game: str) -> tuple[Any, list[Any]]:
    """A TV with ``game`` chosen and two phones seated (Ana is the host)."""
    tv = open_page("tv", "/", label="tv")
    code = table_code(tv)
    if game != "kings-corner":
        tv.click("#lobby-controls .game-choice:nth-child(2)")
        tv.wait_for_selector("#lobby-controls .game-choice:nth-child(2)[aria-pressed=true]")
    phones = []
    for name in ("Ana", "Bob"):
        phone = open_page("phone", f"/join/{code}", label=name)
        join(phone, name)
        phones.append(phone)
    tv.wait_for_function(
        "() => document.querySelectorAll('#lobby-controls .player-row').length === 2"
    )
    return tv, phones


def test_a_whole_round_of_kings_in_the_corner(
    open_page: Callable[..., Any], artefacts: Path
) -> None:
    tv, phones = start_table(open_page, "kings-corner")
    assert smallest_text_px(tv) >= MIN_TV_TEXT_PX
    tv.screenshot(path=artefacts / "kings_tv_lobby.png")
    tv.click("#lobby-controls [data-op=start]")
    for phone in phones:
        phone.wait_for_selector("#play:not([hidden]) #hand .card")
        assert len(hand(phone)) == 7
    tv.wait_for_selector("#board .cross")
    # Every pile of the cross is on the TV, and the four side piles got a card.
    piles = tv.eval_on_selector_all("#board .pile-cell", "e => e.map(c => c.dataset.pile)")
    assert sorted(piles) == sorted(["N", "E", "S", "W", "NE", "SE", "SW", "NW"])
    assert len(tv.query_selector_all("#board .pile-cell .card:not(.spot)")) >= 4
    assert smallest_text_px(tv) >= MIN_TV_TEXT_PX

    actions = play_until(tv, phones, kings_step, "#score-sheet[open]")
    assert actions > 5
    tv.screenshot(path=artefacts / "kings_tv_round_over.png")
    phones[0].screenshot(path=artefacts / "kings_phone_round_over.png")
    sheet = tv.inner_text("#score-sheet")
    assert "Ana" in sheet and "Bob" in sheet
    # The log spoke of plays in words, with names, not codes.
    log = tv.inner_text("#log")
    assert "Ana" in log or "Bob" in log
    assert "played" not in log.split()


def test_a_whole_round_of_five_crowns(open_page: Callable[..., Any], artefacts: Path) -> None:
    tv, phones = start_table(open_page, "five-crowns")
    tv.click("#lobby-controls [data-op=start]")
    for phone in phones:
        phone.wait_for_selector("#play:not([hidden]) #hand .card")
        assert len(hand(phone)) == 3  # round 1 deals three cards, threes wild
    tv.wait_for_selector("#board .discard-cell .card")
    assert "3" in tv.inner_text("#board .wild-rank") or "three" in tv.inner_text("#board").lower()
    tv.screenshot(path=artefacts / "crowns_tv_playing.png")
    phones[0].screenshot(path=artefacts / "crowns_phone_playing.png")

    play_until(tv, phones, crowns_step, "#score-sheet[open]")
    tv.screenshot(path=artefacts / "crowns_tv_round_over.png")
    # The automatic arrangement of both hands is shown, and the points add up.
    arranged = tv.query_selector_all("#score-sheet .arranged-hand")
    assert len(arranged) == 2
    assert smallest_text_px(tv) >= MIN_TV_TEXT_PX
    assert tv.is_visible("#score-sheet [data-op=next_round]")


def test_a_refusal_is_worded_in_the_players_language(open_page: Callable[..., Any]) -> None:
    tv, french, other = two_players_joined(open_page, ana_lang="fr-FR")
    assert french.evaluate("document.documentElement.lang") == "fr"
    start_game(tv, (french, other))
    waiting = (
        other
        if french.eval_on_selector("#turn-line", "e => e.classList.contains('mine')")
        else french
    )
    # Whoever waits taps the stock: the table refuses, and says why in that phone's words.
    waiting.click("#board .stock-cell")
    waiting.wait_for_selector("#toast:not([hidden])")
    words = json.loads(
        (DEFAULT_CLIENT_DIR / "i18n" / f"{'fr' if waiting is french else 'en'}.json").read_text(
            "utf-8"
        )
    )
    shown = waiting.inner_text("#toast")
    expected_start = words["error.not_your_turn"].split("{")[0]
    assert shown.startswith(expected_start), (shown, expected_start)
