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


@pytest.mark.parametrize(
    ("position", "lang", "text", "expected"),
    [
        # Chat shorthand in the speaker's language, and piles typed as their initials.
        ("K3", "fr", "c ki qui joue", "answer turn seat=1"),
        ("K1", "pt", "qnts cartas a zoé tem", "answer cards_of seat=2 count=5"),
        ("K1", "nl", "hvl kaarten heeft ben", "answer cards_of seat=1 count=4"),
        ("K1", "en", "do i hv the king of hearts", "answer holding_yes"),
        ("K1", "fr", "6 trefle sur E", "play 6C E"),
        ("K1", "pt", "rei de copas no NO", "play KH NW"),
        ("K1", "nl", "harten heer op ZO", "play KH SE"),
        ("K1", "pt", "O rei de copas no canto de cima à esquerda", "play KH NW"),
        ("K1", "en", "kh SE", "play KH SE"),
        # A pile asked about: empty, or what is on it; what fits on it.
        ("K4", "pt", "o norte tá vazio?", "answer pile_empty pile=N"),
        ("K4", "fr", "l'ouest est libre ?", "answer pile_top pile=W card=9D"),
        ("K1", "nl", "wat ligt er linksonder", "answer pile_top pile=SW card=10H"),
        ("K1", "en", "anything on the north east corner?", "answer pile_empty pile=NE"),
        ("K1", "fr", "qu'est-ce qui peut aller sur l'est ?", "answer moves"),
        # An empty side spot placed on the screen.
        ("K4", "en", "the five of spades in the empty spot at the top", "play 5S N"),
        # Corrections: a hesitation or a bare "no" before the next card; the suit alone.
        ("K1", "en", "the nine of diamonds uh no the nine of clubs on the ten", "play 9C SW"),
        ("K1", "pt", "o nove de ouros não o nove de paus no dez", "play 9C SW"),
        (
            "K1",
            "en",
            "six of clubs on the seven of hearts, no wait, the one of spades",
            "play 6S E",
        ),
        # A run named by its suit is no card; "un"/"een" before a suit is an article.
        ("F2", "nl", "ik leg mijn harten neer en gooi de heer weg", "go_out KS"),
        ("F2", "pt", "baixo a sequência de copas e descarto o rei", "go_out KS"),
        ("F3", "fr", "je jette un cœur", "ask which_card"),
        # "Not yet", and a name before "has": no move.
        ("K1", "fr", "je joue pas encore", "refuse not_understood"),
        # A discard that could go out is asked about, unless "just" or refused.
        ("F2", "en", "discard the king", "ask go_out_or_discard card=KS"),
        ("F2", "en", "just discard the king", "discard KS"),
        ("F2", "fr", "je jette le roi sans sortir", "discard KS"),
        # Several ways out: "can I go out?" is yes.
        ("F5", "en", "can i go out?", "answer legal_yes_go_out"),
        # A pile named by its cards is that move, asked as a favour.
        ("K1", "en", "could you put the seven of hearts pile onto the eight of clubs", "move E N"),
        # A lone "1" after a draw is one card, not an ace.
        ("K2", "en", "draw 1", "draw"),
        # A name's possessive without its apostrophe; a question word after a preposition.
        ("F4", "en", "zoes total?", "answer score_of seat=2 points=7"),
        ("F4", "pt", "estamos em qual rodada", "answer round_is round=4"),
        # "which of my cards…", "ok what do I play": where they fit, and a hint.
        ("K1", "en", "which of my cards can go somewhere?", "answer moves"),
        ("K1", "en", "ok so what do i play", "answer hint_play"),
    ],
)
def test_a_typed_line_is_understood(position: str, lang: str, text: str, expected: str) -> None:
    sent = said(position, lang, text)
    assert expected_matches(expected, sent), sent


@pytest.mark.parametrize(
    ("position", "lang", "text", "expected"),
    [
        # One sentence asks, the others are talk around it.
        (
            "K1",
            "en",
            "Would you tell me, dear, what may go in an empty corner? I always forget.",
            "answer rule_kc_corner",
        ),
        ("F4", "fr", "Excusez-moi : c'est à qui ? Je n'ai pas suivi.", "answer turn seat=1"),
        ("K1", "en", "Seven of spades on west. Lovely weather today.", "play 7S W"),
    ],
)
def test_a_line_of_several_sentences_answers_the_one_that_asks(
    position: str, lang: str, text: str, expected: str
) -> None:
    sent = said(position, lang, text)
    assert expected_matches(expected, sent), sent


@pytest.mark.parametrize(
    "text",
    [
        "Seven of spades on west. No, wait.",  # taken back
        "Seven of spades on west. Then the six of clubs on east.",  # two moves
        "on N",  # where, but not what: no pile moved on a guess
        "it on N",
    ],
)
def test_no_move_is_cut_out_of_a_line_that_does_not_name_one(text: str) -> None:
    kind, message = said("K1", "en", text)
    assert kind == "reply", message


@pytest.mark.parametrize(
    ("position", "lang", "text"),
    [
        # Refused outright, or negated before the verb's particle.
        ("F6", "en", "not a chance i'm throwing the joker"),
        ("F6", "fr", "hors de question que je jette le joker"),
        ("F6", "pt", "de jeito nenhum vou descartar o coringa"),
        ("F6", "nl", "ik leg de joker echt niet af"),
        # Two moves joined by "or", or whether a move is worth it: advice, not the move.
        ("F1", "en", "take the queen or draw a fresh one"),
        ("F1", "nl", "pak ik de vrouw of trek ik een kaart"),
        ("F1", "fr", "ça vaut le coup de prendre la dame"),
        # Thinking aloud after "if".
        ("K1", "en", "if i put the seven of spades on west then west is stuck"),
        ("K1", "pt", "se eu puser o sete de espadas no oeste fico sem jogada"),
    ],
)
def test_a_move_refused_or_weighed_up_is_not_made(position: str, lang: str, text: str) -> None:
    kind, message = said(position, lang, text)
    assert kind == "reply", message


@pytest.mark.parametrize(
    ("position", "lang", "text", "expected"),
    [
        # No discard in Kings in the Corner: a verb of getting rid of a card plays it.
        ("K1", "en", "chuck the seven of spades on the eight of diamonds", "play 7S W"),
        ("K1", "fr", "je balance le neuf de trèfle sur le dix", "play 9C SW"),
        ("K1", "pt", "larga o sete de espadas no oeste", "play 7S W"),
        ("K1", "nl", "dump schoppen zeven op west", "play 7S W"),
        ("K1", "en", "dump the king of hearts in a corner", "ask which_pile"),
        # ... and in Five Crowns it still discards; "il me sert à rien" is no end of turn.
        ("F6", "en", "ditch the king of spades", "discard KS"),
        ("F6", "fr", "je balance le roi de pique, il me sert à rien", "discard KS"),
        # "eruit" is out, not diamonds heard.
        ("F3", "nl", "de schoppen vrouw eruit", "discard QS"),
    ],
)
def test_a_slang_verb_is_the_game_s_move(
    position: str, lang: str, text: str, expected: str
) -> None:
    sent = said(position, lang, text)
    assert expected_matches(expected, sent), sent
