"""A question back ("which one?") is its own kind of reply, not a refusal: the line was
understood, only not which move, so screens show it apart from the red refusals."""

from __future__ import annotations

import json

import pytest
from assistant_corpus import said

from protocol.messages import decode, encode
from services.assistant.outcomes import QUESTION_CODES
from services.web.settings import DEFAULT_CLIENT_DIR


@pytest.mark.parametrize(
    ("position", "text", "lang", "code"),
    [
        ("K1", "play the king", "en", "which_pile"),
        ("K1", "un six sur le sept", "fr", "which_card"),
        ("F2", "o rei de espadas", "pt", "go_out_or_discard"),
        ("F6", "gooi een negen weg", "nl", "which_card"),
    ],
)
def test_a_question_back_is_sent_as_a_question_not_an_error(
    position: str, text: str, lang: str, code: str
) -> None:
    kind, message = said(position, lang, text)
    assert kind == "reply"
    assert message["status"] == "ok"
    assert "error" not in message
    assert message["data"]["kind"] == "question"
    assert message["data"]["question"] == code
    assert decode("reply", encode("reply", message)) == message  # the protocol's reply schema


def test_a_refusal_stays_an_error() -> None:
    kind, message = said("K1", "en", "queen of spades on the king")
    assert (kind, message["status"], message["error"]["code"]) == (
        "reply",
        "error",
        "card_not_held",
    )


@pytest.mark.parametrize("lang", ["en", "fr", "pt", "nl"])
def test_every_question_back_is_worded_in_every_language(lang: str) -> None:
    catalogue = json.loads((DEFAULT_CLIENT_DIR / "i18n" / f"{lang}.json").read_text("utf-8"))
    for code in QUESTION_CODES:
        assert f"question.{code}" in catalogue, (lang, code)
    assert "question.unknown" in catalogue
