"""Joining, as issue 9 found it (phones at 390×844 from the LAN host name): the join page
says which table and game it joins, a locked table says so before a name is typed, a
latecomer watches the game under way and plays the next one, a long name is refused with
a word rather than cut short.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser_play import join, table_code
from browser_polish import seated, start, words

pytestmark = pytest.mark.browser


def test_the_join_page_names_the_table_and_its_game(lan_page: Callable[..., Any]) -> None:
    tv = lan_page("tv", "/", label="tv")
    code = table_code(tv)
    first = lan_page("phone", f"/join/{code}", label="first")
    first.wait_for_selector("#join-info:not([hidden])")
    info = first.inner_text("#join-info")
    english = words("en")
    assert code in info and english["game.kings-corner"] in info
    assert english["ui.first_here"] in info
    join(first, "Ana")
    tv.click("#lobby-controls .game-choice:nth-child(2)")
    tv.wait_for_selector("#lobby-controls .game-choice:nth-child(2)[aria-pressed=true]")
    second = lan_page("phone", f"/join/{code}", label="second", lang="nl-NL")
    second.wait_for_selector("#join-info:not([hidden])")
    dutch = words("nl")
    info = second.inner_text("#join-info")
    assert dutch["game.five-crowns"] in info and "Ana" in info
    assert "1 speler is er al" in info  # one player: singular


def test_a_locked_table_says_so_before_a_name_is_typed(
    lan_page: Callable[..., Any], artefacts: Path
) -> None:
    tv = lan_page("tv", "/", label="tv")
    code = table_code(tv)
    tv.click("#lobby-controls [data-op=lock]")
    tv.wait_for_selector("#lobby-controls [data-op=unlock]")
    phone = lan_page("phone", f"/join/{code}", label="late", lang="fr-FR")
    phone.wait_for_selector("#join-info.locked")
    phone.screenshot(path=str(artefacts / "polish_join_locked.png"))
    assert words("fr")["error.table_locked"] in phone.inner_text("#join-info")
    assert phone.is_disabled("#join-name")
    assert phone.is_disabled("#join-form button[type=submit]")


def test_a_latecomer_watches_and_plays_the_next_game(
    lan_page: Callable[..., Any], artefacts: Path
) -> None:
    tv, phones = seated(lan_page)
    start(tv, phones)
    code = table_code_of(tv)
    late = lan_page("phone", f"/join/{code}", label="Zoé")
    late.wait_for_selector("#join-info:not([hidden])")
    english = words("en")
    assert english["ui.join_to_watch"] in late.inner_text("#join-info")
    join(late, "Zoé")
    late.wait_for_selector("#watch-board .pile-cell")
    assert late.inner_text("#waiting-text") == english["ui.watching"]
    late.screenshot(path=str(artefacts / "polish_join_latecomer.png"))
    # The TV lists Zoé for the next game; the game under way keeps its two hands.
    tv.wait_for_function(
        "() => [...document.querySelectorAll('#players .player-chip')]"
        ".some(c => c.innerText.includes('Zoé'))"
    )
    chip = tv.eval_on_selector_all(
        "#players .player-chip", "e => e.map(c => c.innerText).filter(t => t.includes('Zoé'))"
    )[0]
    assert english["ui.next_game"] in chip
    # The host ends this game and starts the next: Zoé is dealt in.
    tv.click("#host-open")
    tv.click("#host-panel [data-op=end_session]")
    tv.click("#score-sheet[open] [data-op=rematch]")
    late.wait_for_selector("#play:not([hidden]) #hand .card")
    assert len(late.query_selector_all("#hand .card")) == 7


def table_code_of(tv: Any) -> str:
    """The table's code once the game is on (the lobby's code box is hidden then)."""
    code: str = tv.evaluate("JSON.parse(localStorage.getItem('gamenight.tv')).table")
    return code


def test_a_name_over_the_limit_is_refused_with_a_word(lan_page: Callable[..., Any]) -> None:
    tv = lan_page("tv", "/", label="tv")
    code = table_code(tv)
    phone = lan_page("phone", f"/join/{code}", label="long")
    long_name = "Alexandra-Marguerite de la Tour"  # 31 characters
    phone.fill("#join-name", long_name)
    assert phone.input_value("#join-name") == long_name  # nothing cut while typing
    message = phone.inner_text("#join-error")
    assert "31" in message and "24" in message, message
    phone.click("#join-form button[type=submit]")
    assert phone.is_visible("#join-form")
    assert phone.get_attribute("#join-name", "aria-invalid") == "true"
    phone.fill("#join-name", "Alexandra")
    assert phone.inner_text("#join-error") == ""
    join(phone, "Alexandra")
