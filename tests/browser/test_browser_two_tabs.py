"""The same seat open in two tabs: the older one steps back and says so, no flip-flop."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from browser_play import two_players_joined


def test_a_seat_opened_in_a_second_tab_makes_the_first_step_back(
    open_page: Callable[..., Any],
) -> None:
    _, ana, _ = two_players_joined(open_page)
    second = ana.context.new_page()  # the same phone's browser: the same saved seat
    second.set_default_timeout(15_000)
    second.goto(ana.url)
    second.wait_for_selector("#waiting:not([hidden])")
    ana.wait_for_selector("#toast:not([hidden])")
    assert "another tab or phone" in ana.inner_text("#toast")
    # Settled: the new tab keeps its connection (no taking it back and forth).
    time.sleep(4)
    assert second.inner_text("#connection") == ""
    assert "another tab or phone" not in (second.inner_text("#toast") or "")
