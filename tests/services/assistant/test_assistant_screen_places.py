"""General fixes for misses left in batches 19-28, each checked on lines other than
theirs: a side pile said by where it lies on the screen ("the pile on the right", "celui
du haut", "die bovenaan"); a Dutch compound of a place and a pile's noun
("noordoosthoek"); a corner word a recogniser split after "corner" ("canto nor deste");
the speaker's own card asked to be moved "for me" is a move, not the corner rule; a card
not held spoken of where it lies is talk; a joker's own price "at the end of the round"."""

from __future__ import annotations

import pytest
from assistant_corpus import expected_matches, said


@pytest.mark.parametrize(
    ("position", "lang", "text", "expected"),
    [
        # A side by its place on the screen, as a pile's noun or "the one" says it.
        ("K1", "en", "move the pile on the right onto the top one", "move E N"),
        ("K5", "pt", "põe a pilha da direita pra de cima", "move E N"),
        ("K1", "pt", "seis de espadas no de cima", "play 6S N"),
        ("K1", "fr", "le sept de pique sur le tas de gauche", "play 7S W"),
        ("K1", "nl", "leg schoppen zeven op die links", "play 7S W"),
        # Not "on top of" (a preposition), nor one corner said in two words.
        ("K1", "en", "move the east pile on top of north", "move E N"),
        ("K1", "fr", "roi de cœur en haut à droite", "play KH NE"),
        ("K1", "en", "king of hearts in the corner at the top on the right", "play KH NE"),
        ("F1", "en", "take the top one", "refuse no_such_move"),
        ("K4", "nl", "leg de schoppen acht in het lege vakje bovenaan", "play 8S N"),
        # Dutch compounds of a place and a pile's noun; a corner split after "canto".
        ("K1", "nl", "harten heer in de zuidoosthoek", "play KH SE"),
        ("K1", "nl", "schoppen zeven op de westkant", "play 7S W"),
        ("K1", "pt", "rei de copas no canto su deste", "play KH SE"),
        # The assistant asked to move the speaker's own card: the move (which corner?).
        ("K1", "fr", "tu peux mettre mon roi dans un coin ?", "ask which_pile card=KH"),
        ("K1", "nl", "kun je mijn koning in een hoek leggen?", "ask which_pile card=KH"),
        ("K1", "en", "can you put a queen in a corner?", "answer rule_kc_corner"),
        # A card not held, spoken of where it lies: talk; said alone, not held.
        (
            "K1",
            "en",
            "that eight of clubs has been sitting on north forever",
            "refuse not_understood",
        ),
        ("K1", "fr", "le huit de trèfle est au nord depuis le début", "refuse not_understood"),
        ("K1", "en", "seven of hearts on east", "refuse card_not_held card=7H"),
        # A joker's price at the end of the round; the round's joker is its wild.
        (
            "F6",
            "pt",
            "quanto vale um coringa no fim da rodada?",
            "answer card_value_joker points=50",
        ),
        (
            "F6",
            "nl",
            "hoeveel telt een joker aan het eind van de ronde?",
            "answer card_value_joker points=50",
        ),
        (
            "F1",
            "fr",
            "un joker de cette manche, ça vaut combien ?",
            "answer card_value_wild points=20",
        ),
    ],
)
def test_places_and_talk(position: str, lang: str, text: str, expected: str) -> None:
    sent = said(position, lang, text)
    assert expected_matches(expected, sent), sent
