"""General fixes after held-out batch 30 (lines said aloud, as an offline recogniser
writes them), each checked on lines other than the batch's: a short rank heard by its
sound before a card's own "of"; suits that sound alike without their vowels told apart
with them ("carro" is carreau); "my turn to play" asks whose turn; "good" and "quickly"
are padding; a verb of someone else's after the speaker's move; a thought lost ("what
was I going to say") asks nothing; Dutch "wilde ik" is a verb."""

from __future__ import annotations

import pytest
from assistant_corpus import expected_matches, said


@pytest.mark.parametrize(
    ("position", "lang", "text", "expected"),
    [
        # A rank of three letters heard by its sound, then "of" and a suit's sound: a card
        # (sent only if legal, as every card heard by its sound).
        ("F2", "en", "get rid of the sex of hurts", "discard 6H"),
        ("F2", "fr", "je jette le sis de keur", "discard 6H"),
        ("F3", "en", "is the pizza", "refuse not_understood"),
        # Dutch "de" before a suit is the article, no card's "of".
        ("F3", "nl", "doe de ruiten vrouw maar weg", "discard QD"),
        # Two suits alike without vowels ("kr": coeur, carreau): with them, one.
        ("F3", "fr", "je jette la dame de carro", "discard QD"),
        ("K1", "fr", "six de piques à l'este", "play 6S E"),  # not "oeste"
        # "My turn to play": whose turn, asked or said; a card named is still a move.
        ("K3", "pt", "é a minha vez de jogar", "answer turn seat=1"),
        ("K1", "en", "it's my turn to play", "answer turn_you"),
        ("K1", "fr", "c'est à moi, je joue le sept de pique à l'ouest", "play 7S W"),
        # "Good", "quickly": padding around a move.
        ("K2", "nl", "snel even een kaart trekken", "draw"),
        ("F1", "pt", "tá bom, compro do monte", "draw stock"),
        ("K2", "fr", "bien, je pioche", "draw"),
        # The speaker's move, then someone else's verb: only the speaker's is made.
        ("F3", "en", "discard the queen of spades and someone grab me a drink", "discard QS"),
        ("F1", "fr", "je pioche et quelqu'un prend les chips", "draw stock"),
        ("F5", "en", "do I get another turn after someone goes out?", "answer rule_fc_last_turn"),
        # A thought lost, said to oneself: nothing asked (and a question after it stands).
        ("F2", "fr", "euh qu'est-ce que j'allais dire", "refuse not_understood"),
        ("F2", "en", "hang on what was I saying", "refuse not_understood"),
        ("K3", "nl", "wat wilde ik nou zeggen", "refuse not_understood"),
        ("K1", "pt", "o que é que eu ia dizer", "refuse not_understood"),
        ("F1", "en", "what was i going to say, oh, what's wild?", "answer wild wild_rank=5"),
        ("F1", "nl", "wat is de wilde kaart?", "answer wild wild_rank=5"),
    ],
)
def test_lines_heard_aloud(position: str, lang: str, text: str, expected: str) -> None:
    sent = said(position, lang, text)
    assert expected_matches(expected, sent), sent
