"""General fixes after held-out batches 59-62 (teenagers at a sleepover; an uncle who cares
about the score; regional accents through a recogniser; an evening of other talk), each
checked on lines other than those batches': a draw told to another player by name is
theirs (batch 62's one wrong action: "…, Ben grab it" took the discard), numbers of days,
weeks, times and hours are no cards, "out it goes", the hint asked to keep the score down,
"buscar" takes."""

from __future__ import annotations

import pytest
from assistant_corpus import expected_matches, said


@pytest.mark.parametrize(
    ("position", "lang", "text", "expected"),
    [
        ("F1", "en", "the cat's on the table again, Zoé grab it", "refuse not_understood"),
        ("K1", "fr", "on a attendu le plombier trois semaines", "refuse not_understood"),
        ("K1", "pt", "cheguei às cinco da manhã", "refuse not_understood"),
        ("F6", "en", "queen of spades, out it goes", "discard QS"),
        ("F3", "en", "what should I discard to keep my score low?", "answer hint_discard"),
        ("F1", "pt", "vou buscar a dama", "draw discard"),
    ],
)
def test_lines_of_batches_59_to_62(position: str, lang: str, text: str, expected: str) -> None:
    sent = said(position, lang, text)
    assert expected_matches(expected, sent), sent
