"""Typed lines on a phone: a move made by words, a question answered, a line not
understood, each in the phone's own language."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from browser_play import hand, is_my_turn, shown_seq, start_game, two_players_joined

from services.web.settings import DEFAULT_CLIENT_DIR

pytestmark = pytest.mark.browser


def words(lang: str) -> dict[str, str]:
    catalogue: dict[str, str] = json.loads(
        (DEFAULT_CLIENT_DIR / "i18n" / f"{lang}.json").read_text("utf-8")
    )
    return catalogue


def type_line(phone: Any, text: str) -> None:
    phone.fill("#say-text", text)
    phone.press("#say-text", "Enter")


def test_a_phone_plays_and_asks_in_words(open_page: Callable[..., Any]) -> None:
    tv, ana, bob = two_players_joined(open_page, ana_lang="fr-FR")
    start_game(tv, (ana, bob))
    mover, waiting = (ana, bob) if is_my_turn(ana) else (bob, ana)
    before, cards = shown_seq(mover), len(hand(mover))

    # Kings in the Corner starts with a draw: said in the mover's language.
    type_line(mover, "je pioche" if mover is ana else "draw a card")
    mover.wait_for_function(f"() => Number(document.querySelector('#play').dataset.seq) > {before}")
    assert len(hand(mover)) == cards + 1

    # A question, answered to the one who asked, in French for Ana.
    type_line(ana, "c'est à qui ?")
    ana.wait_for_selector("#answer:not([hidden])")  # a note, not the refusals' toast
    # Spoken to: "C'est à toi" to the mover, the mover's name to the other.
    expected = words("fr")["answer.turn_you"] if mover is ana else words("fr")["answer.turn"]
    assert ana.inner_text("#answer-text") == expected.replace("{seat}", "Bob")

    # Nonsense is refused with the line quoted back.
    type_line(waiting, "the weather is lovely")
    waiting.wait_for_function(
        "() => !document.querySelector('#toast').hidden"
        " && document.querySelector('#toast').textContent.includes('weather')"
    )
    lang = "fr" if waiting is ana else "en"
    expected = words(lang)["error.not_understood"].replace("{text}", "the weather is lovely")
    assert waiting.inner_text("#toast") == expected


def test_an_answer_goes_when_the_next_line_is_sent(lan_page: Callable[..., Any]) -> None:
    tv, ana, bob = two_players_joined(lan_page)  # as a phone on the LAN meets the pages
    start_game(tv, (ana, bob))
    type_line(ana, "whose turn is it?")
    ana.wait_for_selector("#answer:not([hidden])")
    type_line(ana, "the weather is lovely")  # refused: the old answer must not stand beside it
    ana.wait_for_function(
        "() => !document.querySelector('#toast').hidden"
        " && document.querySelector('#toast').textContent.includes('weather')"
    )
    assert ana.is_hidden("#answer")
