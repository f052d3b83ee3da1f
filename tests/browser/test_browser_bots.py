"""Computer players in the pages: a robot badge (not the host gear) and a level the host
chooses, a hint that lights up what to play, and the TV's stand-in label."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from browser_play import is_my_turn, join, table_code, two_players_joined

from services.bots.runner import BotsRunner

pytestmark = pytest.mark.browser


@pytest.fixture
def bots(game_stack: Any) -> Iterator[BotsRunner]:
    with BotsRunner(game_stack.endpoint.service_url("bots"), think_seconds=0.2) as runner:
        runner.start()
        yield runner


def test_the_host_sets_a_bots_level_and_the_hint_lights_up_a_move(
    lan_page: Callable[..., Any], bots: BotsRunner
) -> None:
    open_page = lan_page
    tv = open_page("tv", "/", label="tv")
    code = table_code(tv)
    ana = open_page("phone", f"/join/{code}", label="Ana")
    join(ana, "Ana")
    tv.click("#lobby-controls [data-op=add_bot]")
    tv.wait_for_selector("#lobby-controls select#level-1")
    row = tv.inner_text("#lobby-controls .player-list")
    assert "🤖" in row and "⚙" not in row
    assert "Ada" in row and "Bot 1" not in row  # a friendly name, in the host's language
    tv.select_option("#lobby-controls select#level-1", "hard")
    tv.wait_for_function("() => document.querySelector('#level-1').value === 'hard'")
    tv.click("#lobby-controls [data-op=start]")
    ana.wait_for_selector("#play:not([hidden]) #hand .card")
    chip = tv.wait_for_selector("#players [data-seat='1']")
    assert "🤖" in chip.inner_text() and "hard" in chip.inner_text()
    assert "⚙" not in tv.inner_text("#players")
    ana.wait_for_function("() => document.querySelector('#turn-line').classList.contains('mine')")
    assert is_my_turn(ana)
    ana.click("#actions [data-action=hint]")
    marked = ana.wait_for_selector(".hinted")
    # The hint is one of the seat's moves: a draw first, in Kings in the Corner.
    assert marked.get_attribute("data-action") == "draw"


def test_the_tv_says_a_bot_plays_for_a_player_who_went_away(
    lan_page: Callable[..., Any], bots: BotsRunner
) -> None:
    tv, ana, bob = two_players_joined(lan_page)
    tv.click("#lobby-controls [data-op=start]")
    for phone in (ana, bob):
        phone.wait_for_selector("#play:not([hidden]) #hand .card")
    # The shortest wait the host may set; Bob's phone then goes away (its page closes).
    ana.click("#host-open")
    ana.fill("#host-panel-body #away-wait", "10")
    ana.press("#host-panel-body #away-wait", "Enter")
    ana.locator("#host-panel-body #away-wait").blur()
    bob.context.close()
    label = tv.wait_for_selector(".stand-in", timeout=30_000)
    assert label.inner_text() == "played by a bot while Bob is away"


def test_a_lone_player_starts_and_a_computer_player_takes_the_empty_seat(
    lan_page: Callable[..., Any], bots: BotsRunner
) -> None:
    tv = lan_page("tv", "/", label="tv")
    code = table_code(tv)
    assert tv.is_disabled("#lobby-controls [data-op=start]")  # nobody seated yet
    assert not tv.is_visible("#lobby-controls .start-fills")
    ana = lan_page("phone", f"/join/{code}", label="Ana", lang="fr")
    join(ana, "Ana")
    note = tv.wait_for_selector("#lobby-controls .start-fills")
    assert "computer player" in note.inner_text()
    tv.click("#lobby-controls [data-op=start]")  # Kings in the Corner needs two: a bot joins
    ana.wait_for_selector("#play:not([hidden]) #hand .card")
    chip = tv.wait_for_selector("#players [data-seat='1']")
    assert "🤖" in chip.inner_text()
