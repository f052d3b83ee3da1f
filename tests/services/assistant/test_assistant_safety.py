"""Never an action the words do not clearly name: a word the assistant cannot place keeps
it from sending a whole action the table would have to refuse, and a phrasal verb is not
the verb its particle is elsewhere ("throw out" is no going out)."""

from __future__ import annotations

import pytest
from assistant_corpus import said

from services.assistant.reading import read


def test_a_whole_action_the_words_name_goes_to_the_table_even_when_illegal() -> None:
    kind, message = said("K1", "en", "eight of hearts on north")
    assert kind == "intent"  # the table says why not, in the player's language
    assert message["action"] == {"type": "play", "card": "8H", "pile": "N"}


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("eight of hearts on north blorf", "en"),
        ("huit de cœur au nord machin", "fr"),
        ("oito de copas no norte trem", "pt"),
        ("harten acht op noord dinges", "nl"),
    ],
)
def test_an_unplaced_word_keeps_an_illegal_whole_action_from_being_sent(
    text: str, lang: str
) -> None:
    kind, message = said("K1", lang, text)
    assert kind == "reply" and message["status"] == "error"


@pytest.mark.parametrize("text", ["throw out the four of hearts", "chuck out the four"])
def test_throw_out_is_a_discard_not_going_out(text: str) -> None:
    kind, message = said("F3", "en", text)
    assert (kind, message["action"]) == ("intent", {"type": "discard", "card": "4H"})


def test_a_negated_action_gives_way_to_the_one_said_plainly() -> None:
    line = "just discard the king, I'm not going out"
    kind, message = said("F2", "en", line)
    assert (kind, message["action"]) == ("intent", {"type": "discard", "card": "KS"})
    kind, message = said("F2", "en", "I'm not going out")
    assert kind == "reply" and message["status"] == "error"


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("heaven of diamonds on north", "en"),  # a rhyme of "seven": a guess
        ("ruite zeve op noord", "nl"),  # suit and rank both only by their sound
        ("harte zeve op zuid", "nl"),
    ],
)
def test_a_card_only_guessed_is_never_sent_unless_a_legal_action_holds_it(
    text: str, lang: str
) -> None:
    kind, message = said("K1", lang, text)
    assert (kind, message["status"], message["error"]["code"]) == (
        "reply",
        "error",
        "not_understood",
    )


@pytest.mark.parametrize(
    ("text", "lang", "action"),
    [
        ("heaven of spades on west", "en", {"type": "play", "card": "7S", "pile": "W"}),
        ("schoppe zeve op west", "nl", {"type": "play", "card": "7S", "pile": "W"}),
        ("klaver en zes op oost", "nl", {"type": "play", "card": "6C", "pile": "E"}),
        ("neuf de trèfle au sud où est", "fr", {"type": "play", "card": "9C", "pile": "SW"}),
        ("nove de paus no sul o este", "pt", {"type": "play", "card": "9C", "pile": "SW"}),
    ],
)
def test_a_slip_finds_the_one_legal_action_that_sounds_like_it(
    text: str, lang: str, action: dict[str, str]
) -> None:
    kind, message = said("K1", lang, text)
    assert (kind, message["action"]) == ("intent", action)


@pytest.mark.parametrize("text", ["où est le roi ?", "où est la défausse ?"])
def test_where_is_stays_a_question_and_names_no_pile(text: str) -> None:
    kind, _ = said("K1", "fr", text)
    assert kind == "reply"  # "ou est" is rejoined as "ouest" only after "sud" or "sur"


def test_another_languages_rank_that_is_a_word_of_the_speakers_names_no_card() -> None:
    assert read("comment je dois te parler ?", "fr").cards == ()  # "dois": must
    assert read("très bien, je passe", "fr").cards == ()  # "très": very
    assert [spec.text() for spec in read("dois de copas", "pt").cards] == ["2H"]


@pytest.mark.parametrize(
    ("text", "lang"),
    [("another card please", "en"), ("une autre carte stp", "fr"), ("preciso de uma carta", "pt")],
)
def test_asking_for_a_card_in_the_play_phase_sends_nothing(text: str, lang: str) -> None:
    kind, message = said("K1", lang, text)  # Ana drew already
    assert kind == "reply" and message["status"] == "error"


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("six of spades on east, no wait", "en"),
        ("le six de pique à l'est, non attends", "fr"),
        ("seis de espadas no leste, não, espera", "pt"),
        ("schoppen zes op oost, nee wacht", "nl"),
    ],
)
def test_a_line_taken_back_sends_nothing(text: str, lang: str) -> None:
    kind, message = said("K1", lang, text)
    assert kind == "reply" and message["status"] == "error"


def test_a_line_that_corrects_itself_sends_what_follows_the_correction() -> None:
    line = "the six of clubs, no wait, six of spades on east"
    kind, message = said("K1", "en", line)
    assert (kind, message["action"]) == ("intent", {"type": "play", "card": "6S", "pile": "E"})


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("not the queen, I'll draw from the deck", "en"),
        ("pas la dame, je pioche dans le talon", "fr"),
        ("a dama não, compro do monte", "pt"),
        ("niet de vrouw, ik trek van de stapel", "nl"),
        ("I don't want the queen, just draw", "en"),
    ],
)
def test_a_card_ruled_out_is_never_taken(text: str, lang: str) -> None:
    kind, message = said("F1", lang, text)  # the queen is on top
    assert kind != "intent" or message["action"] == {"type": "draw", "source": "stock"}


def test_the_card_kept_is_played_not_the_one_ruled_out() -> None:
    kind, message = said("K1", "en", "the seven of spades, not the six")
    assert (kind, message["action"]) == ("intent", {"type": "play", "card": "7S", "pile": "W"})


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("je veux pas la défausse, la pioche stp", "fr"),
        ("ik wil de aflegstapel niet, de pot graag", "nl"),
        ("I don't want the discard, deck please", "en"),
        ("não quero o lixo, do monte por favor", "pt"),
    ],
)
def test_a_pile_refused_in_its_own_clause_is_not_drawn_from(text: str, lang: str) -> None:
    kind, message = said("F1", lang, text)
    assert (kind, message["action"]) == ("intent", {"type": "draw", "source": "stock"})


@pytest.mark.parametrize("text", ["speel de zeven niet", "ik verplaats oost niet", "niet"])
def test_dutch_niet_at_the_end_negates_the_line(text: str) -> None:
    kind, message = said("K1", "nl", text)
    assert kind == "reply" and message["status"] == "error"


def test_a_tag_question_is_no_negation() -> None:
    kind, message = said("K1", "pt", "só reis nos cantos, né?")
    assert kind == "reply" and message["data"]["answer"] == "rule_kc_corner"


def test_a_players_name_is_never_heard_as_a_pile_or_a_card() -> None:
    assert read("les cartes de Zoé ?", "fr", frozenset({"zoe"})).piles == ()
    kind, message = said("K1", "fr", "les cartes de Zoé ?")
    assert (kind, message["data"]["answer"]) == ("reply", "cards_of")
