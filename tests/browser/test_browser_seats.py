"""Seats in a real browser: back in the same hand after a reload, never another's cards,
a QR code that decodes to the join address, host controls that reach the phones."""

from __future__ import annotations

import urllib.request
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import pytest
from browser_play import (
    act_and_wait,
    all_cards_shown,
    hand,
    is_my_turn,
    qr_matrix_from_svg,
    seated_game,
    shown_seq,
    table_code,
    two_players_joined,
)

pytestmark = pytest.mark.browser


def test_a_phone_reloaded_in_its_turn_comes_back_to_the_same_hand(
    open_page: Callable[..., Any],
) -> None:
    _, mover, _ = seated_game(open_page)
    act_and_wait(mover, ["#actions [data-action=draw]"])  # now in the middle of the turn
    before = hand(mover)
    assert len(before) == 8
    mover.reload()
    mover.wait_for_selector("#play:not([hidden]) #hand .card")
    assert mover.is_hidden("#join-form")
    assert hand(mover) == before
    assert is_my_turn(mover)
    # And the turn goes on from where it was: the draw is done, a play or the end is next.
    assert mover.query_selector("#actions [data-action=draw]") is None


def test_a_second_phone_never_sees_the_first_phones_cards(
    open_page: Callable[..., Any],
) -> None:
    frames: list[bytes] = []
    _, first, second = seated_game(open_page)
    second.on(
        "websocket",
        lambda socket: socket.on(
            "framereceived",
            lambda frame: frames.append(frame if isinstance(frame, bytes) else frame.encode()),
        ),
    )
    second.reload()  # so every message it gets from now on is recorded
    second.wait_for_selector("#play:not([hidden]) #hand .card")
    act_and_wait(first, ["#actions [data-action=draw]"])
    second.wait_for_function(
        "n => document.querySelector('#others .stat').textContent.includes(n)", arg="8"
    )
    first_hand = set(hand(first))
    assert len(first_hand) == 8
    assert not first_hand & all_cards_shown(second)
    assert not first_hand & set(second.inner_text("body").split())
    first_seat = first.evaluate(
        "() => Object.values(JSON.parse(localStorage.getItem('gamenight.seats')))[0].seat"
    )
    assert frames, "the second phone received nothing to check"
    assert not [frame for frame in frames if f"/seat/{first_seat}/".encode() in frame]

    # Even asking the broker directly with its own login, it gets nothing of that seat:
    # the public view (retained) arrives on the same connection, the other seat's never.
    outcome = second.evaluate(
        """async (otherSeat) => {
          const creds = Object.values(JSON.parse(localStorage.getItem('gamenight.seats')))[0];
          const config = await (await fetch('/api/config')).json();
          const base = `gamenight/v1/table/${creds.table}`;
          const client = mqtt.connect(config.ws_url, {
            username: creds.username, password: creds.password, protocolVersion: 4,
            // The broker binds the account to one client id: the probe takes over the
            // page's connection for a moment (another client id would be refused).
            clientId: creds.username, reconnectPeriod: 0,
          });
          const got = [];
          client.on('message', (topic) => got.push(topic));
          await new Promise((done, fail) => {
            client.on('connect', done);
            client.on('error', fail);
          });
          client.subscribe([`${base}/seat/${otherSeat}/view`, `${base}/view`], { qos: 1 });
          await new Promise((done) => setTimeout(done, 1500));
          client.end(true);
          return got;
        }""",
        first_seat,
    )
    assert any(topic.endswith("/view") and "/seat/" not in topic for topic in outcome)
    assert not [topic for topic in outcome if f"/seat/{first_seat}/" in topic]


def test_the_qr_code_decodes_to_the_join_address(
    open_page: Callable[..., Any], game_stack: Any
) -> None:
    zxingcpp = pytest.importorskip("zxingcpp")
    tv = open_page("tv", "/", label="tv")
    code = table_code(tv)
    shown_address = tv.inner_text("#join-address")
    source = tv.get_attribute("#qr", "src")
    assert source == f"/api/tables/{code}/qr.svg"
    with urllib.request.urlopen(game_stack.url + source, timeout=5) as response:
        svg = response.read().decode("utf-8")
    matrix = qr_matrix_from_svg(svg)
    scale = 4
    pixels = bytearray()
    for row in matrix:
        line = b"".join(b"\x00" * scale if dark else b"\xff" * scale for dark in row)
        pixels += line * scale
    size = len(matrix) * scale
    image = memoryview(bytes(pixels)).cast("B", (size, size))
    decoded = [found.text for found in zxingcpp.read_barcodes(image)]
    assert decoded == [f"{shown_address}/{code}"]
    assert decoded[0] == game_stack.web.settings.join_url(code)
    # What it opens is this table's phone page.
    phone = open_page("phone", urlsplit(decoded[0]).path, label="scanner")
    phone.wait_for_selector("#join-form:not([hidden])")
    assert phone.is_hidden("#code-field")


def test_host_controls_reach_every_screen(open_page: Callable[..., Any]) -> None:
    tv, mover, other = seated_game(open_page)
    tv.click("#host-open")
    tv.click("#host-panel [data-op=pause]")
    for phone in (mover, other):
        phone.wait_for_selector("#paused:not([hidden])")
    mover.click("#board .stock-cell")  # a paused table refuses, and says so
    mover.wait_for_selector("#toast:not([hidden])")
    assert "paused" in mover.inner_text("#toast").lower()
    tv.click("#host-panel [data-op=resume]")
    for phone in (mover, other):
        phone.wait_for_selector("#paused[hidden]", state="attached")
    # The host phone (Ana joined first) locks the table from its own controls.
    host = mover if mover.is_visible("#host-open") else other
    host.click("#host-open")
    host.click("#host-panel [data-op=lock]")
    tv.wait_for_selector("#host-panel [data-op=unlock]")
    code = table_code_from(tv)
    late = open_page("phone", f"/join/{code}", label="late")
    # Said at once, before a name is typed (issue 9): no form to fill for nothing.
    late.wait_for_selector("#join-info.locked")
    assert "locked" in late.inner_text("#join-info").lower()
    assert late.is_disabled("#join-name")


def table_code_from(tv: Any) -> str:
    code: str = tv.evaluate("() => JSON.parse(localStorage.getItem('gamenight.tv')).table")
    return code


def test_a_card_dragged_onto_a_pile_is_played(open_page: Callable[..., Any]) -> None:
    tv, mover, other = seated_game(open_page)
    for _ in range(12):  # turns pass until someone holds a card that fits somewhere
        act_and_wait(mover, ["#actions [data-action=draw]"])
        if mover.query_selector("#hand .card.playable"):
            break
        act_and_wait(mover, ["#actions [data-action=end_turn]"])
        mover, other = other, mover
        mover.wait_for_selector("#turn-line.mine")
    card = mover.get_attribute("#hand .card.playable", "data-card")
    selector = f"#hand .card[data-card='{card}']"
    mover.click(selector)  # a tap shows where it may go ...
    target = mover.get_attribute("#board .pile-cell.target", "data-pile")
    mover.click(selector)  # ... a second tap puts it back
    assert mover.query_selector("#board .pile-cell.target") is None
    before = shown_seq(mover)
    mover.drag_and_drop(selector, f"#board [data-pile='{target}']")
    mover.wait_for_function(
        "n => Number(document.querySelector('#play').dataset.seq) > n", arg=before
    )
    assert card not in hand(mover)
    tv.wait_for_selector(f"#board [data-pile='{target}'] .card[data-card='{card}']")


def test_the_host_removes_a_player_who_is_told_so(open_page: Callable[..., Any]) -> None:
    tv, _, bob = two_players_joined(open_page)
    tv.click("#lobby-controls .player-row:nth-child(2) button")
    bob.wait_for_selector("#join-form:not([hidden])")
    assert bob.inner_text("#join-error")
    tv.wait_for_function(
        "() => document.querySelectorAll('#lobby-controls .player-row').length === 1"
    )
