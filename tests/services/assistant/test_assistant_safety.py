"""Never an action the words do not clearly name: a word the assistant cannot place keeps
it from sending a whole action the table would have to refuse, and a phrasal verb is not
the verb its particle is elsewhere ("throw out" is no going out)."""

from __future__ import annotations

import pytest
from assistant_corpus import NAMES, seat_view

from services.assistant.respond import respond


def said(text: str, lang: str = "en") -> dict[str, str]:
    return {"v": 1, "id": "s1", "text": text, "lang": lang}


def test_a_whole_action_the_words_name_goes_to_the_table_even_when_illegal() -> None:
    kind, message = respond(said("eight of hearts on north"), seat_view("K1"), NAMES)
    assert kind == "intent"  # the table says why not, in the player's language
    assert message["action"] == {"type": "play", "card": "8H", "pile": "N"}


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("eight of hearts on north blorf", "en"),
        ("huit de cœur au nord machin", "fr"),
        ("oito de copas no norte trem", "pt"),
        ("harten acht op noord dinges", "nl"),
    ],
)
def test_an_unplaced_word_keeps_an_illegal_whole_action_from_being_sent(
    text: str, lang: str
) -> None:
    kind, message = respond(said(text, lang), seat_view("K1"), NAMES)
    assert kind == "reply" and message["status"] == "error"


@pytest.mark.parametrize("text", ["throw out the four of hearts", "chuck out the four"])
def test_throw_out_is_a_discard_not_going_out(text: str) -> None:
    kind, message = respond(said(text), seat_view("F3"), NAMES)
    assert (kind, message["action"]) == ("intent", {"type": "discard", "card": "4H"})


def test_a_negated_action_gives_way_to_the_one_said_plainly() -> None:
    line = "just discard the king, I'm not going out"
    kind, message = respond(said(line), seat_view("F2"), NAMES)
    assert (kind, message["action"]) == ("intent", {"type": "discard", "card": "KS"})
    kind, message = respond(said("I'm not going out"), seat_view("F2"), NAMES)
    assert kind == "reply" and message["status"] == "error"
