"""A question back on a phone ("which one?"): shown as a note of its own, apart from both
the red refusals and the answers, in the phone's language; the table does not move."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from browser_play import is_my_turn, join, shown_seq, table_code

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


def test_a_question_back_is_a_note_of_its_own(open_page: Callable[..., Any]) -> None:
    tv = open_page("tv", "/", label="tv")
    code = table_code(tv)
    tv.click("#lobby-controls .game-choice:nth-child(2)")  # Five Crowns: a discard to ask
    tv.wait_for_selector("#lobby-controls .game-choice:nth-child(2)[aria-pressed=true]")
    ana = open_page("phone", f"/join/{code}", label="Ana-fr", lang="fr-FR")
    join(ana, "Ana")
    bob = open_page("phone", f"/join/{code}", label="Bob")
    join(bob, "Bob")
    tv.wait_for_function(
        "() => document.querySelectorAll('#lobby-controls .player-row').length === 2"
    )
    tv.click("#lobby-controls [data-op=start]")
    for phone in (ana, bob):
        phone.wait_for_selector("#play:not([hidden]) #hand .card")
    mover = ana if is_my_turn(ana) else bob
    lang = "fr" if mover is ana else "en"
    before = shown_seq(mover)
    type_line(mover, "je pioche" if lang == "fr" else "draw a card")
    mover.wait_for_function(f"() => Number(document.querySelector('#play').dataset.seq) > {before}")

    # "Discard" names the move, not the card: a question back, not a refusal.
    drawn = shown_seq(mover)
    type_line(mover, "je défausse" if lang == "fr" else "discard")
    mover.wait_for_selector("#answer.question-note:not([hidden])")
    asked = words(lang)["question.which_card"].split("{")[0].strip()
    assert mover.inner_text("#answer-text").startswith(asked)
    assert mover.is_hidden("#toast")  # the refusals' red toast stays away
    assert shown_seq(mover) == drawn  # nothing changed at the table

    # An answer afterwards is a plain answer note again.
    type_line(mover, "c'est à qui ?" if lang == "fr" else "whose turn is it?")
    mover.wait_for_function(
        "() => !document.querySelector('#answer').classList.contains('question-note')"
    )
    assert mover.inner_text("#answer-text") == words(lang)["answer.turn_you"]
