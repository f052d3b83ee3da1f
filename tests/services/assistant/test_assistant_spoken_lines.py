"""Lines as spoken or typed at the table, after held-out batches 17 and 18, each checked on
lines other than the batches': advice asked ("would you…?"), a move said out of turn or
before the draw, "without" going out, hesitations before a question, "or not" after a
card, "which number is wild"."""

from __future__ import annotations

import pytest
from assistant_corpus import expected_matches, said


@pytest.mark.parametrize(
    ("position", "lang", "text", "expected"),
    [
        # What the assistant would do in the speaker's place: advice, never the move.
        ("F1", "en", "would you grab that queen?", "answer hint_draw_discard card=QD"),
        ("F1", "fr", "tu piocherais la dame ?", "answer hint_draw_discard card=QD"),
        ("F1", "pt", "você compraria a dama?", "answer hint_draw_discard card=QD"),
        ("F1", "nl", "zou jij die vrouw nemen?", "answer hint_draw_discard card=QD"),
        ("K1", "en", "would you put the king in a corner?", "answer hint_play"),
        # ... unless it is asked as a favour.
        ("F1", "en", "would you take the queen for me please", "draw discard"),
        ("K1", "nl", "zou je de schoppen zeven op west willen leggen?", "play 7S W"),
        ("K1", "en", "would you mind putting the seven of spades on west?", "play 7S W"),
        # A move said while another player is on turn, or before the draw that comes first.
        ("K3", "en", "six of clubs on the seven of hearts", "refuse not_your_turn current_seat=1"),
        ("K3", "fr", "je mets le sept de pique à l'ouest", "refuse not_your_turn current_seat=1"),
        ("F4", "pt", "vou pegar a dama de paus", "refuse not_your_turn current_seat=1"),
        ("K2", "en", "seven of spades onto the eight of diamonds", "refuse must_draw_first"),
        ("F1", "nl", "ik gooi de schoppen vrouw weg", "refuse must_draw_first"),
        # ... but a card not held is said to be so, and a draw still draws.
        ("K3", "en", "queen of hearts on north", "refuse card_not_held"),
        ("K2", "fr", "je pioche", "draw"),
        # A discard "without" going out is only a discard.
        ("F5", "en", "throw the six of hearts away without going out", "discard 6H"),
        ("F5", "fr", "je défausse le six de cœur sans sortir", "discard 6H"),
        ("F5", "nl", "harten zes weg zonder uit te gaan", "discard 6H"),
        ("F5", "pt", "descarto o seis de copas sem bater", "discard 6H"),
        # Hesitations before a question, as a recogniser writes them (no "?").
        ("K2", "en", "uh wait can i play before i draw", "answer rule_kc_draw_start"),
        ("K2", "fr", "euh je peux jouer avant de piocher", "answer rule_kc_draw_start"),
        ("F2", "pt", "dá pra bater agora", "answer legal_yes_go_out"),
        ("F6", "pt", "será que eu tenho o nove de ouros", "answer holding_yes"),
        ("F2", "en", "am i allowed to go out", "answer legal_yes_go_out"),
        ("F6", "en", "have i got the king of spades", "answer holding_yes"),
        # "…ou pas" after a card: "or", not "où".
        ("F6", "fr", "j'ai le roi de pique ou pas", "answer holding_yes"),
        # "Which number is wild": the rank, not a price.
        ("F6", "en", "so which number's wild this round", "answer wild wild_rank=4"),
        ("F6", "nl", "welk nummer is wild", "answer wild wild_rank=4"),
    ],
)
def test_a_spoken_line_is_understood(position: str, lang: str, text: str, expected: str) -> None:
    sent = said(position, lang, text)
    assert expected_matches(expected, sent), sent


@pytest.mark.parametrize(
    ("position", "lang", "text"),
    [
        ("K1", "fr", "je peux jouer le roi, je le mets dans le coin nord-est"),
        ("F2", "fr", "je peux sortir, je jette le roi"),
    ],
)
def test_an_opening_can_with_a_second_clause_is_said_not_asked(
    position: str, lang: str, text: str
) -> None:
    kind, _ = said(position, lang, text)
    assert kind == "intent"
