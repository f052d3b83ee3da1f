"""General fixes after held-out batches 39 (Kings with teenagers and parents) and 40 (a
phone in one language, lines in another; one- and two-word lines), each checked on lines
other than those batches': a pile said alone, "mine?", "go out!" without melds, a card
pointed at on the screen, "seven a spades", a side said right after a card, "supposed to",
Dutch "effe"."""

from __future__ import annotations

import pytest
from assistant_corpus import expected_matches, said


@pytest.mark.parametrize(
    ("position", "lang", "text", "expected"),
    [
        # A pile said alone: which card is asked back, or that the one card fits; no move.
        ("K1", "pt", "leste?", "ask which_card"),
        ("K1", "fr", "sud-ouest ?", "answer legal_yes_play card=9C pile=SW"),
        ("K1", "en", "west", "answer legal_yes_play card=7S pile=W"),
        # "Mine?" asks whose turn; "go out!" with cards that do not meld is refused.
        ("K3", "en", "mine?", "answer turn seat=1"),
        ("F6", "en", "go out!", "refuse cannot_go_out"),
        # A card pointed at on the screen, unseen by the assistant: which one, asked back.
        ("K1", "en", "that one there", "ask which_card"),
        ("F3", "nl", "deze hier", "ask which_card"),
        ("K1", "en", "that's so unfair", "refuse not_understood"),
        # "Of" run into "a"; a side said right after a card; "supposed to"; "effe".
        ("K1", "en", "six a clubs on east", "play 6C E"),
        ("K1", "fr", "sept de pique gauche", "play 7S W"),
        ("K1", "pt", "7S esquerda", "play 7S W"),
        ("K2", "en", "what am I supposed to do?", "answer hint_draw"),
        ("K2", "nl", "effe een kaart pakken", "draw"),
    ],
)
def test_lines_of_batches_39_and_40(position: str, lang: str, text: str, expected: str) -> None:
    sent = said(position, lang, text)
    assert expected_matches(expected, sent), sent
