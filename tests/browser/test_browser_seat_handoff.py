"""Host controls in a real browser: a dead phone's seat goes to a new phone by a one-time
link; "Remove" takes two taps, the removed phone is told, and joins again at game over."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from browser_play import act_and_wait, hand, is_my_turn, start_game, two_players_joined

pytestmark = pytest.mark.browser


def open_host_panel(tv: Any) -> None:
    if not tv.eval_on_selector("#host-panel", "d => d.open"):
        tv.click("#host-open")


def test_a_dead_phone_s_seat_goes_to_a_new_phone_once(open_page: Callable[..., Any]) -> None:
    tv, ana, bob = two_players_joined(open_page)
    start_game(tv, (ana, bob))
    cards = sorted(hand(bob))
    bob.context.close()  # the battery dies: the broker tells the table (last will)

    open_host_panel(tv)
    # Only the offline seat offers a new phone; Ana's (online) does not.
    tv.wait_for_selector("#host-panel-body .player-row:nth-child(2) [data-op=seat_link]")
    assert (
        tv.query_selector("#host-panel-body .player-row:nth-child(1) [data-op=seat_link]") is None
    )
    tv.click("#host-panel-body .player-row:nth-child(2) [data-op=seat_link]")
    tv.wait_for_selector("#seat-link[open] img.seat-link-qr")
    tv.wait_for_function(
        "() => document.querySelector('#seat-link img.seat-link-qr').naturalWidth > 0"
    )
    assert "Bob" in tv.inner_text("#seat-link h2")
    link = tv.get_attribute("#seat-link .seat-link-url", "href") or ""
    assert "#seat=1&token=" in link, link
    path = link.split("://", 1)[1].split("/", 1)[1]

    new_phone = open_page("phone", f"/{path}", label="Bob-new")
    new_phone.wait_for_selector("#play:not([hidden]) #hand .card")
    assert sorted(hand(new_phone)) == cards  # the same seat, the same cards
    assert new_phone.inner_text("#my-name") == "Bob"
    assert "#" not in new_phone.url  # the used link is not kept in the address
    # The TV's link closes by itself once the seat is taken (it is used up).
    tv.wait_for_function("() => !document.querySelector('#seat-link').open")
    open_host_panel(tv)
    tv.wait_for_selector("#host-panel-body .player-row:nth-child(2) .player-chip.online")
    assert tv.query_selector("#host-panel-body [data-op=seat_link]") is None

    # The same link a second time opens nothing.
    again = open_page("phone", f"/{path}", label="Bob-again")
    again.wait_for_function(
        "() => document.querySelector('#join-error').textContent.includes('not valid')"
    )
    assert again.is_hidden("#play")


def test_remove_asks_first_then_tells_the_phone_which_joins_again_at_game_over(
    open_page: Callable[..., Any],
) -> None:
    tv, ana, bob = two_players_joined(open_page)
    start_game(tv, (ana, bob))
    open_host_panel(tv)
    remove = "#host-panel-body .player-row:nth-child(2) button.danger"
    tv.click(remove)
    assert tv.inner_text(remove) == "Remove Bob? Tap again"
    # A move meanwhile draws the controls again: the question stays on the button.
    tv.eval_on_selector(remove, "b => { b.dataset.before = 'yes'; }")
    player = ana if is_my_turn(ana) else bob
    act_and_wait(player, ["#actions [data-action=draw]"])
    tv.wait_for_function(f"() => !document.querySelector('{remove}').dataset.before")
    assert tv.inner_text(remove) == "Remove Bob? Tap again"
    assert bob.is_visible("#play")  # one tap removes nobody
    tv.click(remove)
    bob.wait_for_selector("#join-form:not([hidden])")
    assert bob.inner_text("#join-error") == (
        "The host removed you from the table. You can join again when this game is over."
    )

    tv.click("#host-panel-body [data-op=end_session]")
    tv.wait_for_selector("#score-sheet[open]")
    assert bob.input_value("#join-name") == "Bob"
    bob.click("#join-form button[type=submit]")
    bob.wait_for_selector("#waiting:not([hidden])")
    tv.click("#score-sheet [data-op=rematch]")
    bob.wait_for_selector("#play:not([hidden]) #hand .card")
    names = tv.eval_on_selector_all("#players .player-chip .name", "e => e.map(n => n.textContent)")
    assert names == ["Ana", "Bob"]
    assert tv.query_selector("#players .player-chip[data-seat='1'] .badge[title=Bot]") is None
