"""General fixes after held-out batch 29 ("a family table, everyone at once"), each
checked on lines other than the batch's: a correction naming only the pile or only the
suit keeps the rest of the card said first; news of another player that gives the number
itself is no question; a story of another evening is neither a question nor a move; a
comparison ("meilleure que", "melhor do que") asks no advice; "I have bad cards" said is
not the hand asked; "always … at the start" asks the drawing rule; "one of clubs" is a
club; the score asked where none is kept."""

from __future__ import annotations

import pytest
from assistant_corpus import expected_matches, said


@pytest.mark.parametrize(
    ("position", "lang", "text", "expected"),
    [
        # The pile corrected: the card said first goes there.
        ("K1", "en", "put the seven of spades on north, no wait, on west", "play 7S W"),
        ("K1", "pt", "sete de espadas no norte, não, no oeste", "play 7S W"),
        ("K1", "nl", "schoppen zeven op noord, nee wacht, op west", "play 7S W"),
        # The suit corrected ("…, no, of spades"): that card, and the rest of the line.
        ("K1", "fr", "six de trèfle, non, de pique, à l'est", "play 6S E"),
        ("F3", "en", "discard the queen of diamonds, no, of spades", "discard QS"),
        ("F3", "nl", "gooi de ruiten vrouw weg nee de schoppen vrouw", "discard QS"),
        # News of another player with the number said: told, not asked; a tag asks.
        ("K5", "en", "Zoé on twenty points, poor thing", "refuse not_understood"),
        ("K4", "fr", "Ben a encore quatre cartes, ça va être long", "refuse not_understood"),
        ("K1", "pt", "o Ben tem quatro cartas, né", "answer cards_of seat=1 count=4"),
        # Another evening's story: nothing asked, nothing played (Dutch "hier" is here).
        ("K1", "en", "last week Ben won with two kings left", "refuse not_understood"),
        ("K5", "fr", "hier soir Zoé a gagné avec trois points", "refuse not_understood"),
        ("K1", "pt", "ontem o Ben ganhou de novo", "refuse not_understood"),
        ("K1", "nl", "wat is hier een goede zet?", "answer hint_play"),
        # A comparison is no advice asked; "the best (one) I can…" is.
        ("F2", "pt", "esse bolo é melhor do que as minhas cartas", "refuse not_understood"),
        ("F2", "fr", "c'est quoi la meilleure que je peux jeter ?", "answer hint_go_out"),
        # The hand said of, not asked for; asked for, tersely.
        ("F6", "en", "I have such bad cards tonight", "refuse not_understood"),
        ("F6", "fr", "mes cartes", "answer hand"),
        # "Always", "at the start": the drawing rule, not advice.
        (
            "K1",
            "en",
            "do you always have to draw at the start of your turn?",
            "answer rule_kc_draw_start",
        ),
        ("K1", "pt", "tem que comprar sempre no começo da vez?", "answer rule_kc_draw_start"),
        # "One of clubs": a club (the ace is called by its name).
        ("K4", "fr", "un de trèfle au nord", "ask which_card"),
        ("K4", "en", "one of clubs on north", "ask which_card"),
        # The score asked where none is kept; who leads is still the fewest cards.
        ("K1", "en", "what's the score?", "answer no_scores"),
        ("K1", "en", "who's winning?", "answer leader_cards seat=1"),
        ("K5", "fr", "c'est quoi le score ?", "answer leader seat=1"),
    ],
)
def test_lines_of_a_family_table(position: str, lang: str, text: str, expected: str) -> None:
    sent = said(position, lang, text)
    assert expected_matches(expected, sent), sent
