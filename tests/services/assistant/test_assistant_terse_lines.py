"""General fixes after held-out batches 25 and 26 (newcomers typing; experienced players
typing fast), each checked on lines other than those batches': a card's letter as its
rank ("Q♠"), capitals kept beside suit symbols and "œ", pile initials where a pile goes,
a draw source named alone, one-word questions, a question among talk after a comma, and
"can I draw?" asked about now."""

from __future__ import annotations

import pytest
from assistant_corpus import expected_matches, said


@pytest.mark.parametrize(
    ("position", "lang", "text", "expected"),
    [
        # A card's letter before a suit (or a capital K or Q) is its rank.
        ("F3", "en", "bin the Q♠", "discard QS"),
        ("K4", "en", "J♥ on N", "play JH N"),
        ("F1", "en", "whats a Q worth", "answer card_value rank=Q points=12"),
        # A named card that is the discard pile's top comes from there, "pile" or not.
        ("F1", "en", "q off the pile", "draw discard"),
        # "J'ai…", "A dama…": a French "J" and an article "A" stay words.
        ("K1", "fr", "J'ai quoi comme cartes ?", "answer hand"),
        ("K1", "pt", "A dama de copas no norte", "refuse card_not_held card=QH"),
        # Pile initials after a card, before "onto", after a word for a pile.
        ("K5", "pt", "rei de copas NO", "play KH NW"),
        ("K5", "nl", "harten heer NO", "play KH NE"),
        ("K1", "nl", "O naar N", "move E N"),
        # The discard pile named alone, in the draw phase, is taking its card.
        ("F1", "fr", "la défausse svp", "draw discard"),
        ("F1", "nl", "van de aflegstapel graag", "draw discard"),
        ("K2", "fr", "je pige une carte", "draw"),  # Quebec
        # One-word questions; a question among talk after a comma.
        ("K3", "pt", "vez?", "answer turn seat=1"),
        ("K3", "fr", "tour ?", "answer turn seat=1"),
        ("K2", "en", "got the 4♠?", "answer holding_yes"),
        ("K1", "en", "top of north?", "answer pile_top card=8C pile=N"),
        ("K1", "en", "tell me my cards, I forgot my glasses", "answer hand"),
        # "Can I draw?" asks about now; "can you draw at any time?" the rule.
        ("K2", "nl", "mag ik trekken?", "answer legal_yes_draw"),
        ("K1", "en", "can I draw a card?", "answer legal_no"),
        ("K1", "en", "can you draw at any time?", "answer rule_kc_draw_start"),
        # Whether wilds exist is no question about the asker's hand.
        ("F1", "pt", "tem carta coringa?", "answer wild wild_rank=5"),
    ],
)
def test_terse_lines(position: str, lang: str, text: str, expected: str) -> None:
    sent = said(position, lang, text)
    assert expected_matches(expected, sent), sent
