"""General fixes after held-out batches 55-58 (cousins at a birthday; a parent cooking; a
careful player; neighbours, polite and formal), each checked on lines other than those
batches': something asked of someone else is never the speaker's move (batch 55's wrong
action: "alguém me passa o guaraná" ended the turn), "what can I even play?", "I beg your
pardon" and "perdão" as corrections, formal requests ("auriez-vous l'amabilité",
"poderia", "wilt u"), what one may ask, a card asked for by its pile, "se défaire de",
"that will be all", a card that stands for any other, kitchen talk, throwing back "again",
"first" after a move, an empty spot asked about, "quero" before a verb, "I meant" last."""

from __future__ import annotations

import pytest
from assistant_corpus import expected_matches, said


@pytest.mark.parametrize(
    ("position", "lang", "text", "expected"),
    [
        ("K5", "pt", "alguém me passa o sal", "refuse not_understood"),
        ("K1", "en", "someone pass me the crisps", "refuse not_understood"),
        ("K1", "en", "what can I even play?", "answer moves"),
        (
            "K1",
            "en",
            "the six of spades on east... I beg your pardon, the six of clubs on east",
            "play 6C E",
        ),
        ("K1", "pt", "o seis de paus no leste... perdão, o seis de espadas no leste", "play 6S E"),
        ("K1", "fr", "auriez-vous l'amabilité de poser le sept de pique à l'ouest", "play 7S W"),
        ("K1", "fr", "que puis-je vous demander ?", "answer help"),
        ("F1", "pt", "o que é que eu lhe posso pedir?", "answer help"),
        ("F1", "fr", "une carte de la pioche, s'il vous plaît", "draw stock"),
        ("F3", "fr", "je me défais du neuf de trèfle", "discard 9C"),
        ("K1", "pt", "poderia mover a pilha do leste para o norte?", "move E N"),
        ("K1", "nl", "wilt u de stapel van oost op noord leggen?", "move E N"),
        ("K1", "en", "that will be all, thank you", "end_turn"),
        ("K1", "pt", "existe alguma carta que vale por qualquer outra?", "answer wild_none"),
        (
            "K1",
            "fr",
            "Monsieur, votre gâteau au chocolat est délicieux, vous me donnerez la recette ?",
            "refuse not_understood",
        ),
        (
            "F1",
            "en",
            "if I take the queen, may I throw it away again at once?",
            "answer rule_fc_discard_taken_no",
        ),
        ("K2", "pt", "então eu compro primeiro", "draw"),
        ("K4", "en", "which card can I put on an empty spot?", "answer rule_kc_empty_side"),
        ("F6", "pt", "quero jogar fora um nove", "ask which_card"),
        ("K4", "en", "eight of spades on north, no, on west I meant", "play 8S W"),
    ],
)
def test_lines_of_batches_55_to_58(position: str, lang: str, text: str, expected: str) -> None:
    sent = said(position, lang, text)
    assert expected_matches(expected, sent), sent
