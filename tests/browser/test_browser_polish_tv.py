"""The TV of issue 9, as a family meets it from the sofa (1920×1080, loaded from the LAN
host name ``gamenight.test``): the newest log line in view, the piles named, whose turn it
is at a glance, the log and the chips in the chosen language and on one line each, pause
shown on every screen, no session figures when no session is played.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser_play import crowns_step, is_my_turn, kings_step
from browser_polish import box, line_count, seated, start, words

pytestmark = pytest.mark.browser
GOLD = "rgb(242, 193, 78)"
LONG_NAMES = ("Marie-Charlotte Dupont", "Jean-Baptiste Lefèvre")


LINES = "lines => lines.map(line => line.innerText)"


def test_the_newest_log_line_is_always_in_view(
    lan_page: Callable[..., Any], artefacts: Path
) -> None:
    # French lines are long: the twelve kept lines overflow the box.
    tv, phones = seated(lan_page, tv_lang="fr-FR")
    start(tv, phones)
    for _ in range(6):
        mover = next(phone for phone in phones if is_my_turn(phone))
        kings_step(mover)
    tv.wait_for_function("() => document.querySelectorAll('#log li').length >= 12")
    log = box(tv, "#log")
    newest = box(tv, "#log li:first-child")
    tv.screenshot(path=str(artefacts / "polish_tv_log.png"))
    assert log["bottom"] <= 1080
    assert log["top"] <= newest["top"] and newest["bottom"] <= log["bottom"] + 0.5, (newest, log)
    # The box is full: older lines are the ones pushed out, at the top.
    oldest = box(tv, "#log li:last-child")
    assert oldest["top"] < log["top"]


def test_the_piles_are_named_as_announcements_name_them(lan_page: Callable[..., Any]) -> None:
    tv, phones = seated(lan_page, tv_lang="fr-FR")
    start(tv, phones)
    named = tv.eval_on_selector_all(
        "#board .pile-cell",
        "cells => Object.fromEntries(cells.map(c => [c.dataset.pile,"
        " c.querySelector('.pile-name')?.innerText]))",
    )
    french = words("fr")
    assert named == {pile: french[f"pile_short.{pile}"] for pile in named}
    assert named["W"] == "O" and named["NW"] == "NO"  # ouest, nord-ouest
    for phone in phones:
        shown = phone.eval_on_selector_all(
            "#board .pile-cell .pile-name", "e => e.map(n => n.offsetParent !== null)"
        )
        assert len(shown) == 8 and all(shown)
    # Big enough to read from the sofa (no TV text under 24 px).
    size = tv.eval_on_selector("#board .pile-name", "e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 24


def test_whose_turn_it_is_reads_from_across_the_room(
    lan_page: Callable[..., Any], artefacts: Path
) -> None:
    tv, phones = seated(lan_page)
    start(tv, phones)
    turn = tv.eval_on_selector(
        "#players .player-chip.turn", "e => [getComputedStyle(e).backgroundColor, e.innerText]"
    )
    other = tv.eval_on_selector(
        "#players .player-chip:not(.turn)", "e => getComputedStyle(e).backgroundColor"
    )
    assert turn[0] == GOLD and other != GOLD
    assert turn[1].startswith("▶")
    turn_box, other_box = (
        box(tv, "#players .player-chip.turn"),
        box(tv, "#players .player-chip:not(.turn)"),
    )
    assert turn_box["height"] > other_box["height"] * 1.08  # drawn bigger
    headline = tv.eval_on_selector(
        "#headline .turn-name", "e => getComputedStyle(e).backgroundColor"
    )
    assert headline == GOLD
    tv.screenshot(path=str(artefacts / "polish_tv_turn.png"))


def test_changing_the_tv_language_rewords_the_old_log_lines(lan_page: Callable[..., Any]) -> None:
    tv, phones = seated(lan_page)
    # The lobby's lines first: once the deal is on, a deal that turns up kings says more
    # than the log keeps, and the join lines scroll out.
    joined = "#log li[data-code=player_joined]"
    tv.wait_for_function(f"() => document.querySelectorAll('{joined}').length === 2")
    assert all("joins" in line for line in tv.eval_on_selector_all(joined, LINES))
    tv.select_option("#lang", "fr")
    tv.wait_for_function("() => document.documentElement.lang === 'fr'")
    french_joins = tv.eval_on_selector_all(joined, LINES)
    assert len(french_joins) == 2 and all("rejoint" in line for line in french_joins)
    start(tv, phones)
    tv.wait_for_function(
        "() => document.querySelector('#log li[data-code=round_started]') !== null"
    )
    assert tv.inner_text("#log li[data-code=round_started]").startswith("Manche 1")
    tv.select_option("#lang", "nl")
    tv.wait_for_function("() => document.documentElement.lang === 'nl'")
    dutch = tv.inner_text("#log li[data-code=round_started]")
    assert dutch.startswith("Ronde 1"), dutch


def test_without_a_session_no_points_and_no_target_are_shown(
    lan_page: Callable[..., Any],
) -> None:
    tv, phones = seated(lan_page)
    start(tv, phones)
    chips = tv.eval_on_selector_all("#players .player-chip", "e => e.map(c => c.innerText)")
    assert all("point" not in chip for chip in chips), chips
    assert all("7 cards" in chip for chip in chips), chips
    rules = tv.inner_text("#options-shown")
    assert words("en")["option.target"] not in rules
    assert "session" in rules.lower()  # "Play a session (scores): off" says why


def test_pause_shows_on_the_tv_and_on_every_phone(lan_page: Callable[..., Any]) -> None:
    tv, phones = seated(lan_page)
    start(tv, phones)
    mover = next(phone for phone in phones if is_my_turn(phone))
    tv.click("#host-open")
    tv.click("#host-panel [data-op=pause]")
    tv.click("#host-panel [data-close]")
    tv.wait_for_selector("#paused:not([hidden])")
    tv.wait_for_selector("#headline .paused-name")
    assert tv.query_selector("#headline .turn-name") is None
    english = words("en")
    for phone in phones:
        phone.wait_for_function(
            "text => document.querySelector('#turn-line').innerText === text",
            arg=english["ui.game_paused"],
        )
        assert not is_my_turn(phone)
    buttons = mover.eval_on_selector_all("#actions button", "e => e.map(b => b.disabled)")
    assert buttons and all(buttons)
    # Resumed: the player to act is told again, and may act.
    tv.click("#host-open")
    tv.click("#host-panel [data-op=resume]")
    tv.click("#host-panel [data-close]")
    mover.wait_for_function("() => document.querySelector('#turn-line').classList.contains('mine')")
    assert not any(mover.eval_on_selector_all("#actions button", "e => e.map(b => b.disabled)"))


def test_french_five_crowns_with_long_names_stays_on_one_line_to_the_score_sheet(
    lan_page: Callable[..., Any], artefacts: Path
) -> None:
    tv, phones = seated(lan_page, LONG_NAMES, tv_lang="fr-FR", game="five-crowns")
    start(tv, phones)
    french = words("fr")
    out_word = french["ui.went_out"]
    # Play until someone goes out: the others' last turns are shown ("dernier tour").
    actions = 0
    while french["phase.last_turn"] not in tv.inner_text("#headline"):
        if tv.is_visible("#score-sheet[open]"):
            break
        mover = [phone for phone in phones if is_my_turn(phone)]
        if mover:
            crowns_step(mover[0])
            actions += 1
        assert actions < 600, "nobody went out"
    if not tv.is_visible("#score-sheet[open]"):
        tv.screenshot(path=str(artefacts / "polish_tv_last_turn_fr.png"))
        assert all(lines < 1.5 for lines in line_count(tv, "#players .player-chip")), line_count(
            tv, "#players .player-chip"
        )
        assert line_count(tv, "#headline")[0] < 1.5
        chips = tv.eval_on_selector_all("#players .player-chip", "e => e.map(c => c.innerText)")
        went_out = [chip for chip in chips if out_word in chip]
        assert len(went_out) == 1 and "3 cartes" not in went_out[0], chips
    while not tv.is_visible("#score-sheet[open]"):
        mover = [phone for phone in phones if is_my_turn(phone)]
        if mover:
            crowns_step(mover[0])
    first_heading = tv.inner_text("#score-sheet table.scores th:first-child")
    assert first_heading == french["ui.round"], first_heading
    assert tv.inner_text("#score-sheet table.scores tbody td:first-child").startswith("Manche 1")
    tv.screenshot(path=str(artefacts / "polish_tv_score_sheet_fr.png"))
