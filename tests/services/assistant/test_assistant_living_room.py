"""General fixes after held-out batches 63-66 (a newcomer's first evening; a mischievous
teenager; a noisy living room through a recogniser; three generations on a Sunday), each
checked on lines other than those batches': talk to the room before a hesitation, then
the move; the first of two steps said at once; a move offered with a "?" and no word of
asking; "I don't get it" passes no turn (batch 63's one wrong action); "how much is" a
card; "upon"; an endearment is no "want"."""

from __future__ import annotations

import pytest
from assistant_corpus import expected_matches, said


@pytest.mark.parametrize(
    ("position", "lang", "text", "expected"),
    [
        # talk to the room, a hesitation, the move
        ("F1", "en", "kids be quiet uh I'll take the queen of diamonds", "draw discard"),
        ("F1", "fr", "les enfants au lit euh je pioche", "draw stock"),
        ("F3", "nl", "mam waar is de afstandsbediening eh klaveren negen afleggen", "discard 9C"),
        # two steps at once: the first now
        ("K2", "en", "I'll draw and then put the six on east", "draw"),
        ("F1", "pt", "compro do monte e depois descarto o rei", "draw stock"),
        # a move offered with a "?" alone; asked in words, a question still
        ("K1", "en", "the nine of clubs on the ten of hearts?", "play 9C SW"),
        ("K1", "pt", "o nove de paus no dez de copas?", "play 9C SW"),
        ("K1", "en", "can the nine of clubs go on the ten of hearts?", "answer legal_yes_play"),
        ("K1", "fr", "le neuf de trèfle va sur le dix de cœur ?", "answer legal_yes_play"),
        # nothing understood is no pass
        ("K1", "fr", "pardon, je comprends rien à ce jeu", "refuse not_understood"),
        ("K1", "en", "sorry I don't understand any of it", "refuse not_understood"),
        # the rest
        ("F6", "en", "how much is a joker again?", "answer card_value_joker"),
        ("K1", "en", "the nine of clubs upon the ten of hearts", "play 9C SW"),
        ("K1", "pt", "querido, põe o rei de copas no canto sudeste", "play KH SE"),
    ],
)
def test_lines_of_batches_63_to_66(position: str, lang: str, text: str, expected: str) -> None:
    sent = said(position, lang, text)
    assert expected_matches(expected, sent), sent
