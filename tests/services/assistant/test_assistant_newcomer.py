"""General fixes after held-out batch 37 (a newcomer's first evening), each checked on lines
other than that batch's: the face-up card is the discard's, a target card corrected, the
empty spot "of" a pile, "first time", a sentence that says "don't" about nothing, going
out with the meld shown and the thrown card named, a side pile right after its noun."""

from __future__ import annotations

import pytest
from assistant_corpus import expected_matches, said


@pytest.mark.parametrize(
    ("position", "lang", "text", "expected"),
    [
        # Batch 37 drew from the stock for "die open kaart daar, die wil ik": the card
        # lying face up is the discard's.
        ("F1", "nl", "ik wil de open kaart", "draw discard"),
        ("F1", "fr", "je prends la carte retournée", "draw discard"),
        ("F1", "pt", "pego a carta virada", "draw discard"),
        ("F1", "en", "take a card", "draw stock"),
        # A target card corrected after a card target.
        (
            "K4",
            "en",
            "three of clubs on the seven of hearts, no, on the four of hearts",
            "play 3C S",
        ),
        ("K4", "pt", "três de paus no sete de copas, não, no quatro de copas", "play 3C S"),
        # The empty spot "of" a pile is that pile, not one taken from.
        ("K4", "en", "jack of hearts in the empty spot of north", "play JH N"),
        ("K4", "nl", "harten boer in het lege vak van noord", "play JH N"),
        ("K4", "pt", "o três de paus vai pro lugar vazio do norte", "play 3C N"),
        # Saying it is one's first time is talk, not the leader asked.
        ("K1", "en", "it's my first time, be nice", "refuse not_understood"),
        ("K1", "fr", "c'est la première fois que je joue", "refuse not_understood"),
        ("K1", "nl", "het is de eerste keer dat ik dit speel", "refuse not_understood"),
        ("K1", "fr", "qui est à la première place ?", "answer leader_cards seat=1"),
        # "Don't" about nothing does not take back the move said after it.
        ("K1", "en", "I don't know what else to do. End my turn.", "end_turn"),
        ("F1", "en", "I don't want the queen. Draw.", "draw stock"),
        # The meld shown, then the card thrown: going out with that card.
        ("F5", "en", "three five six, that's a run, I'm out and I throw the seven", "go_out 7H"),
        ("F2", "pt", "cinco, seis e sete de copas, bati, e descarto o rei", "go_out KS"),
        ("F2", "en", "I'm not going out, just discard the king", "discard KS"),
        # A side pile right after its noun ("de stapel links").
        ("K1", "nl", "de stapel rechts op de noordstapel", "move E N"),
    ],
)
def test_lines_of_batch_37(position: str, lang: str, text: str, expected: str) -> None:
    sent = said(position, lang, text)
    assert expected_matches(expected, sent), sent
