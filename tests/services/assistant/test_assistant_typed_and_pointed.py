"""General fixes after held-out batches 31 (a Five Crowns night) and 32 (a Kings night),
each checked on lines other than those batches': a card pointed at when drawing, typos of
verbs and face cards, a card named only by its kind or colour, the highest card, rules of
melds, last turns and round ends, empty piles and screen corners, talk of luck."""

from __future__ import annotations

import pytest
from assistant_corpus import expected_matches, said


@pytest.mark.parametrize(
    ("position", "lang", "text", "expected"),
    [
        # The card everyone can see is the discard's: "that one" pointed at is it (batch 31 drew
        # from the stock for "I'll grab that one off the pile"); the stock named keeps it.
        ("F1", "en", "take that card", "draw discard"),
        ("F1", "fr", "je prends cette carte-là", "draw discard"),
        ("F1", "nl", "ik pak die kaart van de stapel", "draw discard"),
        ("F1", "en", "grab one off the pile", "draw stock"),
        ("F1", "en", "take that one from the deck", "draw stock"),
        # A move's verb or a face card mistyped by a thumb, or spelled by ear.
        ("F3", "en", "discrad the queen of spades", "discard QS"),
        ("F3", "en", "disacrd the nine of clubs", "discard 9C"),
        ("F3", "fr", "défausse la dame de pique", "discard QS"),
        ("F3", "fr", "défose le neuf de trèfle", "discard 9C"),
        ("F3", "pt", "descatra o nove de paus", "discard 9C"),
        ("F3", "nl", "gooj de klaveren negen weg", "discard 9C"),
        ("K4", "en", "qeen of hearts on north", "play QH N"),
        ("K1", "en", "kign of hearts in the top left corner", "play KH NW"),
        ("K1", "en", "is the pizza here yet?", "refuse not_understood"),
        ("K4", "en", "put a heart on north", "ask which_card"),
        # A card named by its kind only, before the pile it goes on: which one is asked back.
        ("K4", "en", "a black card on north", "ask which_card"),
        ("K4", "fr", "pose une carte noire au nord", "ask which_card"),
        ("K4", "pt", "põe a carta preta no norte", "ask which_card"),
        ("K4", "nl", "leg een hartenkaart op noord", "ask which_card"),
        ("F2", "en", "throw away the biggest card", "ask go_out_or_discard card=KS"),
        # The hand's highest or lowest card, a card by colour, the wild by a Dutch compound.
        ("F3", "en", "discard the smallest one", "discard 3H"),
        ("F3", "fr", "je jette la plus haute", "ask which_card"),
        ("F2", "nl", "gooi de rode kaart weg", "ask which_card"),
        ("F5", "en", "discard the wildcard", "ask go_out_or_discard card=3S"),
        ("F6", "fr", "une suite peut contenir un joker ?", "answer rule_fc_melds"),
        # Rules: wilds in melds, another player going out, a round's end, the scoring at the end,
        # an empty side pile as one Dutch word.
        ("F6", "nl", "mag er een joker in een reeks?", "answer rule_fc_melds"),
        ("F3", "fr", "si Zoé sort, je rejoue encore ?", "answer rule_fc_last_turn"),
        ("F3", "nl", "als Zoé uitgaat, mag ik dan nog een keer?", "answer rule_fc_last_turn"),
        ("F6", "pt", "o que acontece no fim da rodada?", "answer rule_fc_round_end"),
        ("F6", "fr", "que se passe-t-il à la fin d'une manche ?", "answer rule_fc_round_end"),
        ("K3", "en", "who's playing right now?", "answer turn seat=1"),
        ("K5", "en", "how are points counted at the end?", "answer rule_kc_score_kings_ten"),
        ("K4", "nl", "wat hoort er op een lege zijstapel?", "answer rule_kc_empty_side"),
        ("K4", "nl", "de harten boer op de lege stapel bovenaan", "play JH N"),
        # Places: an empty pile placed on the screen or named; a corrected screen corner.
        ("K4", "pt", "oito de espadas na pilha vazia do norte", "play 8S N"),
        ("K1", "nl", "klaveren zes op oost, nee, op noord", "play 6C N"),
        ("K1", "fr", "roi de cœur en haut à droite, non, en haut à gauche", "play KH NW"),
        ("F5", "fr", "quelle poisse ce soir, il ne vient que des étoiles", "refuse not_understood"),
        # Luck talked about: a suit in a sentence with no verb of a move is no card asked for.
    ],
)
def test_lines_of_batches_31_and_32(position: str, lang: str, text: str, expected: str) -> None:
    sent = said(position, lang, text)
    assert expected_matches(expected, sent), sent
