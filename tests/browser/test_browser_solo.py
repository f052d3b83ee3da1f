"""Five Crowns solo on the TV: the turns left in the round, then a round that scores."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from browser_play import act_and_wait, join, table_code

pytestmark = pytest.mark.browser


def test_solo_rounds_have_a_turn_limit_shown_on_the_tv(open_page: Callable[..., Any]) -> None:
    tv = open_page("tv", "/", label="tv")
    code = table_code(tv)
    tv.click("#lobby-controls .game-choice:nth-child(2)")
    tv.wait_for_selector("#lobby-controls .game-choice:nth-child(2)[aria-pressed=true]")
    for option, value in (("solo_turns", "2"), ("start_round", "11")):  # one round: the last
        tv.fill(f"#lobby-controls #opt-{option}", value)
        field = f"#lobby-controls #opt-{option}"
        tv.eval_on_selector(field, "e => { e.dataset.before = 'yes'; }")
        tv.dispatch_event(field, "change")
        # The controls are drawn again from the table's answer (a new view): wait for it.
        tv.wait_for_function(f"() => !document.querySelector('{field}').dataset.before")
    zoe = open_page("phone", f"/join/{code}", label="Zoe")
    join(zoe, "Zoé")
    tv.wait_for_selector("#lobby-controls .player-row")
    tv.wait_for_function(
        "() => document.querySelector('#opt-solo_turns').value === '2'"
        " && document.querySelector('#opt-start_round').value === '11'"
    )
    tv.click("#lobby-controls [data-op=start]")
    zoe.wait_for_selector("#play:not([hidden]) #hand .card")
    assert tv.inner_text("#board .solo-turns") == "Turns left this round: 2"
    for left in (1, 0):
        act_and_wait(zoe, ["#actions [data-action=draw]"])
        zoe.click("#hand .card.playable:not(.wild)")
        act_and_wait(zoe, ["#actions [data-action=discard]"])
        if left:
            tv.wait_for_function(
                f"() => document.querySelector('#board .solo-turns')?.textContent"
                f" === 'Turns left this round: {left}'"
            )
    # Unless she went out, the round ends on its turn limit and her hand is scored; it
    # was the last round, so the game is over and the table's best solo score is shown.
    tv.wait_for_selector("#score-sheet[open] .solo-best")
    assert tv.inner_text("#score-title") == "Game over"
    total = tv.inner_text("#score-body .scores tr.totals td:last-child")
    assert tv.inner_text("#score-body .solo-best") == f"Best solo score at this table: {total}"
    tv.wait_for_selector("#log li[data-code=round_ended]")
    codes = tv.eval_on_selector_all("#log li", "e => e.map(li => li.dataset.code)")
    assert "turn_limit" in codes or "went_out" in codes, codes
