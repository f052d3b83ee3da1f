"""General fixes after held-out batches 51-54 (a Saturday family game; friends over a video
call; a couple late in the evening; grandparents teaching grandchildren), each checked on
lines other than those batches': "..  nah", talking to "this thing" or a robot, playing
again after someone goes out, a wild card not held named as such, what to do first,
"cette fois", talk to the room, the building rule asked of a card and a pile, Dutch
"opleggen" and "wat mag je doen", a card named in a remark ("I love this joker"), Dutch
"laten gaan"."""

from __future__ import annotations

import pytest
from assistant_corpus import expected_matches, said


@pytest.mark.parametrize(
    ("position", "lang", "text", "expected"),
    [
        ("K1", "en", "seven of spades on north.. nah, on west", "play 7S W"),
        ("K1", "en", "what should I say to this thing?", "answer help"),
        ("F1", "en", "how do I talk to the robot?", "answer help"),
        ("F5", "fr", "si Zoé sort, est-ce que les autres rejouent ?", "answer rule_fc_last_turn"),
        ("F3", "en", "throw away the wild card", "refuse card_not_held card=wild"),
        ("K2", "en", "what do I have to do now?", "answer hint_draw"),
        ("F1", "fr", "cette fois je pioche", "draw stock"),
        (
            "K1",
            "en",
            "could you turn the music down, I can't hear a thing",
            "refuse not_understood",
        ),
        (
            "K1",
            "fr",
            "quelle est la règle pour mettre une carte sur une pile ?",
            "answer rule_kc_build",
        ),
        ("K1", "en", "how do you know which card goes on which?", "answer rule_kc_build"),
        ("F3", "nl", "ik pak nog een kaart", "refuse already_drew"),
        ("K4", "nl", "welke kaarten kan ik opleggen?", "answer moves"),
        ("F1", "pt", "como funciona a vez de cada um?", "answer rule_fc_turn"),
        ("K1", "nl", "wat mag je doen als je aan de beurt bent?", "answer rule_kc_turn"),
        ("F6", "en", "I love this joker", "refuse not_understood"),
        ("F6", "fr", "j'adore ce roi de pique", "refuse not_understood"),
        ("F3", "nl", "ik laat de klaveren negen gaan", "discard 9C"),
    ],
)
def test_lines_of_batches_51_to_54(position: str, lang: str, text: str, expected: str) -> None:
    sent = said(position, lang, text)
    assert expected_matches(expected, sent), sent
