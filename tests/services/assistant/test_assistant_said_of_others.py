"""General fixes after held-out batches 27 and 28, each checked on lines other than those
batches': a card named beside a remark is not thrown, news of another player is no
question, the games' names are no cards, "oops" corrects, "not X, the one of Y", a clause
that refuses going out, Portuguese "consigo" and "pôr" without its accent, "closest to
going out" in French, the French oven."""

from __future__ import annotations

import pytest
from assistant_corpus import expected_matches, said


@pytest.mark.parametrize(
    ("position", "lang", "text", "expected"),
    [
        # A card of the hand named with no verb beside a remark is not thrown (batch 28
        # discarded the joker for "ce joker, je l'ai attendu toute la soirée").
        ("F6", "pt", "esse coringa, esperei por ele a noite toda", "refuse not_understood"),
        # News of another player: no move, and no question either.
        ("F3", "en", "Ben threw the nine of clubs again, typical", "refuse not_understood"),
        ("K1", "fr", "Zoé a encore eu un roi, quelle chance", "refuse not_understood"),
        ("F4", "pt", "a Zoé vai pegar essa dama, aposto", "refuse not_understood"),
        ("K3", "nl", "ben ik aan de beurt?", "answer turn seat=1"),  # Dutch "ben", not Ben
        # The games' names are neither cards nor piles.
        ("F2", "en", "how does a turn go in five crowns?", "answer rule_fc_turn"),
        (
            "K5",
            "pt",
            "como se contam os pontos nos reis nos cantos?",
            "answer rule_kc_score_kings_ten",
        ),
        ("K1", "en", "king in the corner please", "ask which_pile card=KH"),  # a move
        # "Oops" corrects; "not X, the one of Y"; a clause that refuses going out.
        ("F3", "en", "discard the queen of diamonds, oops, the one of spades", "discard QS"),
        ("K1", "pt", "não o seis de paus, o de espadas no leste", "play 6S E"),
        ("F2", "fr", "je jette le roi, mais je sors pas encore", "discard KS"),
        # Portuguese "consigo" (I can), "por" as "for"; French "le plus proche de sortir".
        ("F5", "pt", "consigo bater agora?", "answer legal_yes_go_out"),
        ("K1", "fr", "qui est le plus proche de sortir ?", "answer leader_cards seat=1"),
        # A French "four" is an oven.
        ("K1", "fr", "le four est chaud", "refuse not_understood"),
    ],
)
def test_lines_said_of_others(position: str, lang: str, text: str, expected: str) -> None:
    sent = said(position, lang, text)
    assert expected_matches(expected, sent), sent
