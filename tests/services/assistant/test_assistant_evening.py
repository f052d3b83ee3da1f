"""General fixes after held-out batches 43-46 (an ordinary evening, typed and said to the
TV; a Five Crowns and a Kings in the Corner evening), each checked on lines other than those
batches': going out said as laying everything down or as being done, the thrown card named
before its verb, a card corrected while its pile stands, "no no no", a name as a
recogniser spells it, a percentage, the last turn after going out, the pack's jokers."""

from __future__ import annotations

import pytest
from assistant_corpus import expected_matches, said, seat_view

from services.bots.players import make_player


@pytest.mark.parametrize(
    ("position", "lang", "text", "expected"),
    [
        ("K4", "fr", "la dame de cœur sur le nord, la case est libre", "play QH N"),
        ("K1", "en", "six of spades on west, I meant the seven of spades", "play 7S W"),
        ("K1", "fr", "six de pique à l'ouest, je voulais dire le sept de pique", "play 7S W"),
        ("F6", "en", "discard the king of spades, no no no, the queen of spades", "discard QS"),
        ("F6", "nl", "de heer weg, nee joh, de schoppen vrouw", "discard QS"),
        ("K1", "en", "the spade one on east", "play 6S E"),
        ("F2", "en", "lay them all down and throw the king of spades", "go_out KS"),
        ("F2", "fr", "je pose tout et je jette le roi de pique", "go_out KS"),
        ("F2", "nl", "ik leg alles neer, schoppen heer weg", "go_out KS"),
        ("F2", "en", "done, discarding the king of spades", "go_out KS"),
        ("F2", "nl", "klaar, de schoppen heer weg", "go_out KS"),
        ("F2", "pt", "bati, o rei de espadas vai pro lixo", "go_out KS"),
        ("K4", "en", "how many cards has zoey got", "answer cards_of count=2"),
        ("K1", "en", "my phone is at 7% battery", "refuse not_understood"),
        ("F5", "en", "what should I do?", "answer hint_go_out discard=7H"),
        ("F5", "fr", "si je sors, les autres jouent encore ?", "answer rule_fc_last_turn"),
        (
            "F3",
            "fr",
            "la carte que je prends de la défausse, je peux la jeter tout de suite ?",
            "answer rule_fc_discard_taken_no",
        ),
        ("K1", "en", "show me what goes on what", "answer rule_kc_build"),
        ("K1", "pt", "a gente joga com coringa?", "answer no_jokers"),
        ("K1", "en", "are we playing with jokers?", "answer no_jokers"),
        ("K1", "fr", "quelle carte je joue ?", "answer hint_play"),
        ("K5", "en", "I'll take another card", "refuse already_drew"),
        ("K2", "en", "take a card", "draw"),
        ("K1", "en", "who wants some more pizza?", "refuse not_understood"),
        ("F6", "en", "haha grandpa is losing again", "refuse not_understood"),
        ("K4", "en", "done, your go", "end_turn"),
        ("K4", "pt", "terminei, pode jogar", "end_turn"),
        ("F5", "nl", "een rij met een joker erin, mag dat?", "answer rule_fc_melds"),
    ],
)
def test_lines_of_batches_43_to_46(position: str, lang: str, text: str, expected: str) -> None:
    sent = said(position, lang, text)
    assert expected_matches(expected, sent), sent


def test_going_out_throws_the_costliest_natural_card() -> None:
    """F5 goes out four ways (5H, 6H, 7H or the wild 3S): the 7 goes, never the wild."""
    view = seat_view("F5")["state"]
    choice = make_player("five-crowns", "normal", 1).choose(view)
    assert choice == {"type": "go_out", "discard": "7H"}
