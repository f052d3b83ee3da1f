"""General fixes after held-out batches 41 (long rambling lines at a holiday table) and 42
(speech recognition in a noisy kitchen), each checked on lines other than those batches':
a move said among talk, the face-down card, "want to" before another verb, the discard
pile named as a noun after the draw, a card nobody wants."""

from __future__ import annotations

import pytest
from assistant_corpus import expected_matches, said


@pytest.mark.parametrize(
    ("position", "lang", "text", "expected"),
    [
        # A move among talk: the talk before it and the tags after it are cut away.
        (
            "K1",
            "en",
            "grandpa says I'm too slow, fine, seven of spades on west, happy?",
            "play 7S W",
        ),
        ("K1", "fr", "bon, je mets le sept de pique à l'ouest, ça vous va ?", "play 7S W"),
        ("K1", "pt", "tá bom, sete de espadas no oeste, pode ser?", "play 7S W"),
        ("K1", "nl", "oké, schoppen zeven op west, toch?", "play 7S W"),
        # ... but never a card alone, a question of its own, or a "no".
        ("F6", "fr", "ce roi, je l'attends depuis le début", "refuse not_understood"),
        ("F3", "fr", "une dame, je perds combien ?", "answer card_value"),
        ("K1", "en", "seven of spades on west, no?", "answer legal_yes_play"),
        # The face-down card is the stock's; "want to" is a modal before another verb.
        ("F1", "en", "I'll have the face-down one off the deck", "draw stock"),
        ("F5", "en", "I want to keep my wild, I'll just discard the six of hearts", "discard 6H"),
        # A card nobody wants is no card taken; the stock named takes from the stock.
        ("F1", "en", "nobody wants the queen, poor thing", "refuse not_understood"),
        ("F1", "pt", "ninguém quer a dama", "refuse not_understood"),
        (
            "F1",
            "en",
            "nobody wants the queen, me neither, I'll take one from the deck",
            "draw stock",
        ),
        ("F3", "en", "throwing the nine of clubs, nobody collects clubs anyway", "discard 9C"),
        # The discard pile named as a noun after the draw: the draw is done.
        ("F3", "en", "grab the queen of clubs from the discard", "refuse already_drew"),
        ("F3", "fr", "je défausse juste le neuf de trèfle", "discard 9C"),
    ],
)
def test_lines_of_batches_41_and_42(position: str, lang: str, text: str, expected: str) -> None:
    sent = said(position, lang, text)
    assert expected_matches(expected, sent), sent
