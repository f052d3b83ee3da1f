"""Driving the pages as people would: join, tap cards and piles, read what is shown.

Phones choose their moves only from what their page shows (playable cards, marked
targets, the buttons of the phase), never from the protocol.
"""

from __future__ import annotations

import re
import time
from typing import Any

STEP_TIMEOUT = 10.0


def table_code(tv: Any) -> str:
    tv.wait_for_selector("#table-code:not(:empty)")
    code: str = tv.inner_text("#table-code").strip()
    assert re.fullmatch(r"[A-Z0-9]{3,12}", code), code
    return code


def join(phone: Any, name: str) -> None:
    phone.fill("#join-name", name)
    phone.click("#join-form button[type=submit]")
    phone.wait_for_selector("#waiting:not([hidden])")


def two_players_joined(open_page: Any, ana_lang: str = "en") -> tuple[Any, Any, Any]:
    """A TV in its lobby with Ana's (in ``ana_lang``) and Bob's phones seated."""
    tv = open_page("tv", "/", label="tv")
    code = table_code(tv)
    ana = open_page("phone", f"/join/{code}", label=f"Ana-{ana_lang}", lang=ana_lang)
    join(ana, "Ana")
    bob = open_page("phone", f"/join/{code}", label="Bob")
    join(bob, "Bob")
    return tv, ana, bob


def start_game(tv: Any, phones: tuple[Any, ...]) -> None:
    """The host starts from the TV; returns once every phone shows its hand."""
    tv.click("#lobby-controls [data-op=start]")
    for phone in phones:
        phone.wait_for_selector("#play:not([hidden]) #hand .card")


def seated_game(open_page: Any, ana_lang: str = "en") -> tuple[Any, Any, Any]:
    """A Kings in the Corner game under way: the TV, the phone whose turn it is, the other."""
    tv, ana, bob = two_players_joined(open_page, ana_lang)
    start_game(tv, (ana, bob))
    return (tv, ana, bob) if is_my_turn(ana) else (tv, bob, ana)


def hand(phone: Any) -> list[str]:
    cards: list[str] = phone.eval_on_selector_all("#hand .card", "e => e.map(c => c.dataset.card)")
    return cards


def all_cards_shown(page: Any) -> set[str]:
    cards: list[str] = page.eval_on_selector_all("[data-card]", "e => e.map(c => c.dataset.card)")
    return set(cards)


def is_my_turn(phone: Any) -> bool:
    return bool(
        phone.is_visible("#play")
        and phone.eval_on_selector("#turn-line", "e => e.classList.contains('mine')")
    )


def shown_seq(phone: Any) -> int:
    return int(phone.get_attribute("#play", "data-seq") or -1)


def shown_toast(phone: Any) -> str | None:
    """The toast's text while it shows, else None."""
    return phone.inner_text("#toast") if phone.is_visible("#toast") else None


def act_and_wait(phone: Any, click: list[str]) -> None:
    """Click each selector in turn, then wait until the hand shows a newer view or a refusal.

    A refusal is a toast that was not there before the clicks: one still showing from an
    earlier step ("pick the card to go out with") is no answer to these clicks.
    """
    before, toast_before = shown_seq(phone), shown_toast(phone)
    for selector in click:
        phone.click(selector)
    deadline = time.monotonic() + STEP_TIMEOUT
    while time.monotonic() < deadline:
        if shown_seq(phone) > before:
            return
        toast_now = shown_toast(phone)
        if toast_now is not None and toast_now != toast_before:
            return
        if not phone.is_visible("#play"):
            return  # the round ended: the phone shows the score sheet
        time.sleep(0.02)
    raise AssertionError(f"no new view after clicking {click}")


def _has(phone: Any, selector: str) -> bool:
    return phone.query_selector(selector) is not None


def kings_step(phone: Any) -> None:
    """One action of a simple Kings in the Corner player: draw, play what fits, end the turn."""
    if _has(phone, "#hand .card.playable"):
        phone.click("#hand .card.playable")
        phone.wait_for_selector("#board .pile-cell.target")
        act_and_wait(phone, ["#board .pile-cell.target"])
    elif _has(phone, "#actions [data-action=end_turn]"):
        act_and_wait(phone, ["#actions [data-action=end_turn]"])
    else:
        act_and_wait(phone, ["#actions [data-action=draw]"])


def crowns_step(phone: Any) -> None:
    """One action of a simple Five Crowns player: draw from the stock, go out or discard."""
    if _has(phone, "#actions [data-action=draw]"):
        act_and_wait(phone, ["#actions [data-action=draw]"])
    elif _has(phone, "#actions [data-action=go_out]"):
        phone.click("#actions [data-action=go_out]")
        if phone.is_visible("#play") and _has(phone, "#hand .card.go-out-choice"):
            act_and_wait(phone, ["#hand .card.go-out-choice"])
        else:
            # Answered, or the round is over (the hand is then hidden and left as it was).
            phone.wait_for_function(
                "() => !document.querySelector('#hand.pending')"
                " || document.querySelector('#play').hidden"
            )
    else:
        # Keep wild cards (sorted to the right): give up the first natural card.
        phone.click("#hand .card.playable:not(.wild)")
        act_and_wait(phone, ["#actions [data-action=discard]"])


def play_until(tv: Any, phones: list[Any], step: Any, done: str, limit: int = 800) -> int:
    """Let whichever phone has the turn act, until ``done`` (a selector) shows on the TV."""
    actions = 0
    while not tv.is_visible(done):
        moved = False
        for phone in phones:
            if is_my_turn(phone):
                step(phone)
                actions += 1
                moved = True
        assert actions < limit, "the round did not end"
        if not moved:
            time.sleep(0.03)
    return actions


def smallest_text_px(page: Any) -> float:
    """The smallest font size of any visible text on the page, in CSS pixels."""
    size: float = page.evaluate(
        """() => {
          let smallest = Infinity;
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (!node.textContent.trim()) continue;
            const element = node.parentElement;
            const box = element.getBoundingClientRect();
            const style = getComputedStyle(element);
            if (!box.width || !box.height || style.visibility === 'hidden') continue;
            if (element.closest('[hidden], .sr-only, dialog:not([open]), select')) continue;
            smallest = Math.min(smallest, parseFloat(style.fontSize));
          }
          return smallest;
        }"""
    )
    return size


def qr_matrix_from_svg(svg: str) -> list[list[bool]]:
    """The modules of the join QR code back from its SVG path of horizontal runs."""
    size_match = re.search(r'viewBox="0 0 (\d+) (\d+)"', svg)
    assert size_match, svg[:200]
    size = int(size_match.group(1))
    matrix = [[False] * size for _ in range(size)]
    for x, y, width in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\d+z", svg):
        for column in range(int(x), int(x) + int(width)):
            matrix[int(y)][column] = True
    return matrix
