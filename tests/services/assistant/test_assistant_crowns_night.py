"""General fixes after held-out batch 38 (a loud Five Crowns night), each checked on lines
other than that batch's: the discard's card asked for after the draw, "no no" as a
correction, a number of seconds or minutes, "à ton avis", something asked of somebody
else, a memory called up."""

from __future__ import annotations

import pytest
from assistant_corpus import expected_matches, said


@pytest.mark.parametrize(
    ("position", "lang", "text", "expected"),
    [
        # Batch 38 answered "the queen of diamonds is not on the discard pile" when it was,
        # after the draw: the draw is done, said so.
        ("F3", "en", "I'll take the queen of clubs", "refuse already_drew"),
        ("F2", "nl", "geef mij die ruitenvrouw van de aflegstapel", "refuse already_drew"),
        ("F1", "pt", "quero a dama de ouros", "draw discard"),
        ("F1", "fr", "je prends la dame de pique", "refuse not_discard_top card=QS"),
        # "No no" takes back what came before it.
        ("F3", "en", "the seven of diamonds no no the nine of clubs", "discard 9C"),
        ("F3", "pt", "o sete de ouros não não o nove de paus", "discard 9C"),
        # A number of seconds or minutes is no card.
        ("F6", "en", "hold on, two minutes", "refuse not_understood"),
        ("F6", "nl", "wacht, twee seconden, de bel", "refuse not_understood"),
        ("F3", "fr", "je défausse quoi, à ton avis ?", "answer hint_discard"),
        # Asked of somebody else, or a memory called up: nothing for the assistant.
        ("F6", "en", "could someone grab me a drink?", "refuse not_understood"),
        (
            "F6",
            "fr",
            "tu te souviens quand Ben a perdu toutes les manches ?",
            "refuse not_understood",
        ),
        ("F6", "nl", "weet je nog dat Zoé alles won vorige zomer", "refuse not_understood"),
    ],
)
def test_lines_of_batch_38(position: str, lang: str, text: str, expected: str) -> None:
    sent = said(position, lang, text)
    assert expected_matches(expected, sent), sent
