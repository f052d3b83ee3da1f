"""The comforts of the screens: spoken announcements, the four-colour deck, a phone that
stays awake while it plays. The platform's speech and wake-lock calls are recorded in the
page (headless Chromium has no voice, and no screen to keep on); the pages' own code runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from browser_play import join, table_code

pytestmark = pytest.mark.browser

RECORD_PLATFORM_CALLS = """
window.__calls = [];
if ("speechSynthesis" in window) {
  speechSynthesis.speak = (utterance) =>
    window.__calls.push(["speak", utterance.text, utterance.lang]);
}
const lockFor = (type) => {
  const lock = new EventTarget();
  lock.type = type;
  lock.release = async () => {
    window.__calls.push(["release", type]);
    lock.dispatchEvent(new Event("release"));
  };
  return lock;
};
Object.defineProperty(navigator, "wakeLock", {
  configurable: true,
  value: {
    request: async (type) => {
      window.__calls.push(["wake", type]);
      return lockFor(type);
    },
  },
});
"""


def calls(page: Any, kind: str) -> list[list[str]]:
    found: list[list[str]] = page.evaluate(f"() => window.__calls.filter(c => c[0] === {kind!r})")
    return found


def test_the_tv_says_what_happens_in_its_language_until_silenced(
    open_page: Callable[..., Any],
) -> None:
    tv = open_page("tv", "/", label="tv", lang="fr-FR", init_script=RECORD_PLATFORM_CALLS)
    code = table_code(tv)
    join(open_page("phone", f"/join/{code}", label="Ana"), "Ana")
    tv.wait_for_function("() => window.__calls.some(c => c[0] === 'speak' && c[1].includes('Ana'))")
    spoken = [call for call in calls(tv, "speak") if "Ana" in call[1]]
    assert spoken[0][2] == "fr-FR"
    log = tv.inner_text("#log")
    assert "Ana" in log and spoken[0][1] in log  # said as the log writes it, in French

    tv.click("#speech-toggle")
    assert tv.get_attribute("#speech-toggle", "aria-pressed") == "false"
    join(open_page("phone", f"/join/{code}", label="Bob"), "Bob")
    tv.wait_for_function("() => document.querySelector('#log').textContent.includes('Bob')")
    assert not [call for call in calls(tv, "speak") if "Bob" in call[1]]
    tv.reload()  # the choice is the screen's: it stays off
    tv.wait_for_selector("#table-code:not(:empty)")
    assert tv.get_attribute("#speech-toggle", "aria-pressed") == "false"


def test_the_four_colour_deck_is_each_screens_own_remembered_choice(
    open_page: Callable[..., Any],
) -> None:
    tv = open_page("tv", "/", label="tv")
    table_code(tv)
    colour_of = """suit => {
      const card = document.createElement('span');
      card.className = 'card suit-' + suit;
      document.body.append(card);
      const colour = getComputedStyle(card).color;
      card.remove();
      return colour;
    }"""
    before = {suit: tv.evaluate(colour_of, suit) for suit in "HDCS"}
    assert before["H"] == before["D"] and before["C"] == before["S"]  # two colours
    tv.click("#four-colour")
    assert tv.evaluate("document.body.classList.contains('four-colour')")
    after = {suit: tv.evaluate(colour_of, suit) for suit in "HDCS"}
    assert len(set(after.values())) == 4  # diamonds and clubs have their own colours now
    assert after["H"] == before["H"] and after["S"] == before["S"]
    tv.reload()
    tv.wait_for_selector("#table-code:not(:empty)")
    assert tv.get_attribute("#four-colour", "aria-pressed") == "true"
    phone = open_page("phone", f"/join/{table_code(tv)}", label="Ana")
    assert not phone.evaluate("document.body.classList.contains('four-colour')")


def test_a_phone_stays_awake_while_it_plays_and_lets_go_after(
    open_page: Callable[..., Any],
) -> None:
    tv = open_page("tv", "/", label="tv")
    code = table_code(tv)
    phones = []
    for name in ("Ana", "Bob"):
        phone = open_page("phone", f"/join/{code}", label=name, init_script=RECORD_PLATFORM_CALLS)
        join(phone, name)
        phones.append(phone)
    assert calls(phones[0], "wake") == []  # not in the lobby
    tv.click("#lobby-controls [data-op=start]")
    for phone in phones:
        phone.wait_for_selector("#play:not([hidden]) #hand .card")
        phone.wait_for_function("() => window.__calls.some(c => c[0] === 'wake')")
        assert calls(phone, "wake") == [["wake", "screen"]]  # once, however many views
    tv.click("#host-open")
    tv.click("#host-panel [data-op=end_session]")
    for phone in phones:
        phone.wait_for_function("() => window.__calls.some(c => c[0] === 'release')")
        assert calls(phone, "release") == [["release", "screen"]]
