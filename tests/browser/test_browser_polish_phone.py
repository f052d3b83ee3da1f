"""The phones of issue 9 (390×844, touch, loaded from the LAN host name): piles that drag
under a finger, a cancelled drag that leaves nothing picked up, answers apart from
refusals, "Daan is drawing", a host panel made for fingers, Start in view at once, the
chosen game on every waiting screen, and sentences that agree with their numbers.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser_play import is_my_turn, shown_seq
from browser_polish import box, seated, start, words

pytestmark = pytest.mark.browser
PHONE_HEIGHT = 844
SIDES = ("N", "E", "S", "W")


def touch(page: Any) -> Any:
    """A DevTools session that sends real touch input (the page sees pointer events)."""
    return page.context.new_cdp_session(page)


def centre(page: Any, selector: str) -> tuple[float, float]:
    found = box(page, selector)
    return (found["left"] + found["right"]) / 2, (found["top"] + found["bottom"]) / 2


def finger_drag(
    page: Any, start: tuple[float, float], end: tuple[float, float], *, cancel: bool = False
) -> None:
    session = touch(page)
    session.send(
        "Input.dispatchTouchEvent",
        {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]},
    )
    steps = 12
    for step in range(1, steps + 1):
        x = start[0] + (end[0] - start[0]) * step / steps
        y = start[1] + (end[1] - start[1]) * step / steps
        session.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
        )
        time.sleep(0.015)
    session.send(
        "Input.dispatchTouchEvent",
        {"type": "touchCancel" if cancel else "touchEnd", "touchPoints": []},
    )
    session.detach()


def movable_pile(phone: Any) -> tuple[str, str] | None:
    """A side pile this phone may move, found by tapping as a player would; and a target."""
    for pile in SIDES:
        cell = f"#board .pile-cell[data-pile={pile}]"
        if phone.query_selector(f"{cell} .card:not(.spot)") is None:
            continue
        phone.click(cell)
        if phone.query_selector(f"{cell}.source"):
            target = phone.get_attribute("#board .pile-cell.target", "data-pile")
            phone.click(cell)  # put it down again
            phone.wait_for_selector("#board .pile-cell.source", state="detached")
            assert target
            return pile, target
    return None


def deal_with_a_move(tv: Any, phones: list[Any]) -> tuple[Any, str, str]:
    """Deal again (end the game, play again) until the player to act can move a pile."""
    for _ in range(40):
        mover = next(phone for phone in phones if is_my_turn(phone))
        found = movable_pile(mover)
        if found:
            return mover, *found
        seq = shown_seq(mover)
        tv.click("#host-open")
        tv.click("#host-panel [data-op=end_session]")
        tv.click("#score-sheet[open] [data-op=rematch]")
        tv.wait_for_selector("#score-sheet:not([open])", state="attached")
        # The score sheet closes the host panel itself; close it only if it is still open.
        if tv.is_visible("#host-panel [data-close]"):
            tv.click("#host-panel [data-close]")
        for phone in phones:
            phone.wait_for_function(
                "seq => Number(document.querySelector('#play').dataset.seq) > seq"
                " && !document.querySelector('#play').hidden",
                arg=seq,
            )
    raise AssertionError("no deal gave a pile to move")


def test_a_pile_drags_under_a_finger_and_a_cancelled_drag_puts_it_down(
    lan_page: Callable[..., Any], artefacts: Path
) -> None:
    tv, phones = seated(lan_page)
    # No drawing: the first player may move a pile at once.
    tv.select_option("#lobby-controls #opt-draw", label=words("en")["option.draw.never"])
    tv.wait_for_function("() => document.querySelector('#lobby-controls #opt-draw').value === '2'")
    start(tv, phones)
    mover, source, target = deal_with_a_move(tv, phones)
    source_cell = f"#board .pile-cell[data-pile={source}]"
    target_cell = f"#board .pile-cell[data-pile={target}]"

    # A drag the system cancels (a call comes in, say) leaves nothing picked up.
    here = centre(mover, source_cell)
    finger_drag(mover, here, (here[0] + 40, here[1] + 60), cancel=True)
    time.sleep(0.2)
    assert mover.query_selector("#board .pile-cell.source") is None
    assert mover.query_selector("#board .pile-cell.target") is None

    before = shown_seq(mover)
    finger_drag(mover, centre(mover, source_cell), centre(mover, target_cell))
    mover.wait_for_function(
        "seq => Number(document.querySelector('#play').dataset.seq) > seq", arg=before
    )
    tv.wait_for_selector("#log li[data-code^=moved]")
    assert mover.query_selector("#board .pile-cell.source") is None
    mover.screenshot(path=str(artefacts / "polish_phone_after_drag.png"))


def test_an_answer_is_a_note_apart_from_refusals(
    lan_page: Callable[..., Any], artefacts: Path
) -> None:
    tv, phones = seated(lan_page)
    start(tv, phones)
    phone = phones[0]
    phone.fill("#say-text", "whose turn?")
    phone.press("#say-text", "Enter")
    phone.wait_for_selector("#answer:not([hidden])")
    assert phone.inner_text("#answer-text").strip()
    assert not phone.is_visible("#toast")
    phone.screenshot(path=str(artefacts / "polish_phone_answer.png"))
    note = box(phone, "#answer")
    for other in ("#say-form", "#hand"):
        covered = box(phone, other)
        assert note["bottom"] <= covered["top"] or note["top"] >= covered["bottom"], other
    colours = phone.eval_on_selector(
        "#answer", "e => [getComputedStyle(e).backgroundColor, getComputedStyle(e).borderTopColor]"
    )
    toast = phone.eval_on_selector(
        "#toast", "e => [getComputedStyle(e).backgroundColor, getComputedStyle(e).borderTopColor]"
    )
    assert colours != toast
    # A refusal still uses the red toast.
    waiting = next(p for p in phones if not is_my_turn(p))
    waiting.click("#board .stock-cell")
    waiting.wait_for_selector("#toast:not([hidden])")


def test_the_others_read_what_the_player_to_act_is_doing(lan_page: Callable[..., Any]) -> None:
    tv, phones = seated(lan_page, ("Daan", "Zoé"))
    start(tv, phones)
    mover = next(phone for phone in phones if is_my_turn(phone))
    waiting = next(phone for phone in phones if phone is not mover)
    name = mover.inner_text("#my-name")
    assert waiting.inner_text("#turn-line") == f"{name} is drawing"
    mover.click("#actions [data-action=draw]")
    waiting.wait_for_function(
        "text => document.querySelector('#turn-line').innerText === text", arg=f"{name} is playing"
    )


def test_the_host_panel_fits_a_phone_and_its_fingers(
    lan_page: Callable[..., Any], artefacts: Path
) -> None:
    tv, phones = seated(lan_page)
    start(tv, phones)
    host = phones[0]  # the first to join hosts
    host.click("#host-open")
    host.wait_for_selector("#host-panel[open] .option select[id^=opt-]")
    host.screenshot(path=str(artefacts / "polish_phone_host_panel.png"))
    panel = box(host, "#host-panel")
    spills = host.eval_on_selector_all(
        "#host-panel *",
        "(els, right) => els.filter(e => e.getClientRects().length"
        " && e.getBoundingClientRect().right > right + 0.5).map(e => e.outerHTML.slice(0, 80))",
        panel["right"],
    )
    assert not spills, spills
    small = host.eval_on_selector_all(
        "#host-panel button, #host-panel select, #host-panel input",
        "els => els.filter(e => e.getClientRects().length && e.getBoundingClientRect().height < 44)"
        ".map(e => [e.outerHTML.slice(0, 60), e.getBoundingClientRect().height])",
    )
    assert not small, small
    # Mid-game the rules cannot change, and their menus say so by their look.
    looks = host.eval_on_selector_all(
        "#host-panel .option select[id^=opt-]",  # the game's rules (not the computer players')
        "els => els.map(e => [e.disabled, parseFloat(getComputedStyle(e).opacity),"
        " getComputedStyle(e).borderTopStyle])",
    )
    assert looks and all(
        disabled and opacity < 0.6 and style == "dashed" for disabled, opacity, style in looks
    ), looks


def test_start_is_in_view_and_the_waiting_players_see_the_chosen_game(
    lan_page: Callable[..., Any], artefacts: Path
) -> None:
    tv, phones = seated(lan_page)
    host, guest = phones
    start_box = box(host, "#score-body [data-op=start]")
    first_rule = box(host, "#score-body .option")
    assert start_box["bottom"] <= PHONE_HEIGHT and start_box["bottom"] <= first_rule["top"]
    tv_start, tv_rule = (
        box(tv, "#lobby-controls [data-op=start]"),
        box(tv, "#lobby-controls .option"),
    )
    assert tv_start["bottom"] <= tv_rule["top"]
    english = words("en")
    shown = guest.inner_text("#waiting-game")
    assert english["game.kings-corner"] in shown and "Cards dealt: 7" in shown, shown
    tv.click("#lobby-controls .game-choice:nth-child(2)")
    guest.wait_for_function(
        "name => document.querySelector('#waiting-game').innerText.includes(name)",
        arg=english["game.five-crowns"],
    )
    guest.screenshot(path=str(artefacts / "polish_phone_waiting.png"))
    assert "Packs: 1" in guest.inner_text("#waiting-game")


AGREEMENT = """async () => {
  const i18n = await import("/static/js/i18n.js");
  const table = await import("/static/js/table.js");
  const out = {};
  for (const lang of ["en", "fr", "pt", "nl"]) {
    await i18n.setLanguage(lang);
    table.setGame("kings-corner");
    table.setNames([{ seat: 0, name: "Ana" }, { seat: 1, name: "Bob" }, { seat: 2, name: "Zoé" }]);
    out[lang] = {
      one_card: i18n.t("ui.n_cards", { count: 1 }),
      two_cards: i18n.t("ui.n_cards", { count: 2 }),
      zero_points: i18n.t("ui.hint_penalty", { penalty: 0 }),
      dealt_one: table.eventText({ code: "dealt", seat: 0, params: { count: 1 } }),
      played: table.eventText({ code: "played", seat: 0, params: { card: "QH", pile: "NW" }}),
      king: table.eventText({ code: "king_to_corner", seat: 0, params: { card: "KS", pile: "NW" }}),
      turned: table.eventText({ code: "pile_turned", params: { card: "QH", pile: "W" } }),
      empty: table.errorText({ code: "pile_empty", params: { pile: "N" } }),
      winners: table.eventText({ code: "game_ended", seat: null, params: { winners: [0, 2] } }),
      winner: table.eventText({ code: "game_ended", seat: null, params: { winners: [1] } }),
    };
  }
  return out;
}"""


def test_sentences_agree_with_their_numbers_in_four_languages(lan_page: Callable[..., Any]) -> None:
    phone = lan_page("phone", "/join/ABCD", label="reader")
    phone.wait_for_selector("#join-form:not([hidden])")
    said = phone.evaluate(AGREEMENT)
    assert [said[lang]["one_card"] for lang in ("en", "fr", "pt", "nl")] == [
        "1 card",
        "1 carte",
        "1 carta",
        "1 kaart",
    ]
    assert [said[lang]["two_cards"] for lang in ("en", "fr", "pt", "nl")] == [
        "2 cards",
        "2 cartes",
        "2 cartas",
        "2 kaarten",
    ]
    # French: 0 is singular
    assert said["fr"]["zero_points"] == "Ta main vaut maintenant 0 point"
    assert said["en"]["zero_points"] == "Your hand is worth 0 points now"
    assert said["en"]["dealt_one"] == "Ana is dealt 1 card."
    # One way of naming a corner, whatever is put there.
    assert said["en"]["played"] == "Ana plays Q♥ on the north-west corner."
    assert said["en"]["king"] == "Ana puts K♠ in the north-west corner."
    assert said["fr"]["turned"].endswith("sur la pile ouest.")
    assert said["pt"]["played"].endswith("no canto noroeste.")  # "em o canto" fused
    assert said["pt"]["turned"].endswith("na pilha oeste.")
    assert said["nl"]["played"].endswith("op de noordwesthoek.")
    assert said["fr"]["empty"] == "La pile nord est vide."  # a sentence starts with a capital
    assert said["en"]["winners"] == "Game over: Ana and Zoé win!"
    assert said["en"]["winner"] == "Game over: Bob wins!"
    assert said["fr"]["winners"] == "Partie terminée\u00a0: Ana et Zoé gagnent\u202f!"
    assert said["nl"]["winners"] == "Spel afgelopen: Ana en Zoé winnen!"


PARTLY_NAMED = """async () => {
  const i18n = await import("/static/js/i18n.js");
  const table = await import("/static/js/table.js");
  const out = {};
  for (const lang of ["en", "fr", "pt", "nl"]) {
    await i18n.setLanguage(lang);
    const refused = (card) => table.errorText({ code: "card_not_held", params: { card } });
    out[lang] = { wild: refused("wild"), king: refused("K"), hearts: refused("H"),
                  whole: refused("QH"), words: [i18n.t("card.wild"), i18n.t("rank.K"),
                  i18n.t("suit.H")] };
  }
  return out;
}"""


def test_a_card_named_only_in_part_is_worded_on_the_phone(lan_page: Callable[..., Any]) -> None:
    """The assistant sends a card said only by its rank, suit or wildness as said ("K",
    "H", "wild"): the phone, met as on the LAN, words each in its language."""
    phone = lan_page("phone", "/join/ABCD", label="partly")
    phone.wait_for_selector("#join-form:not([hidden])")
    said = phone.evaluate(PARTLY_NAMED)
    for lang in ("en", "fr", "pt", "nl"):
        wild, king, hearts = said[lang]["words"]
        assert wild in said[lang]["wild"] and "wild" not in said[lang]["wild"].split(wild)[0]
        assert king in said[lang]["king"] and hearts in said[lang]["hearts"]
        assert "?" not in said[lang]["wild"] and " K." not in said[lang]["king"]
    assert said["en"]["wild"] == "You do not hold a wild card."
    assert said["en"]["whole"] == "You do not hold Q♥."
