"""Questions recognised by likeness when the rules place no reading: answered only, the
parameters from the line, never an action, never chatter answered for its shape."""

from __future__ import annotations

from pathlib import Path

import assistant_corpus
import pytest
from assistant_corpus import LANGUAGES, NAMES, load, seat_view
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.assistant_similar import batches, exemplars_of
from services.assistant import similar
from services.assistant.outcomes import Act, Answer, Refusal
from services.assistant.reading import read
from services.assistant.respond import respond
from services.assistant.sentences import core, said_twice, sentences
from services.assistant.similar import Exemplar, Model, kind_of, load_exemplars
from services.assistant.understand import _by_rules, understand

HELDOUT = Path(__file__).resolve().parents[3] / "benchmarks" / "assistant_heldout"
FIRST_NAMES = frozenset({"ana", "ben", "zoe"})


def said(text: str, lang: str = "en") -> dict[str, str]:
    return {"v": 1, "id": "l1", "text": text, "lang": lang}


@pytest.mark.parametrize(
    ("expected", "kind"),
    [
        ("answer cards_of seat=2 count=5", "count"),
        ("answer leader_cards seat=1 count=4", "standings"),
        ("answer stock_count_one", "stock"),
        ("answer rule_kc_draw_start", "rule_kc:draw"),
        ("answer rule_kc_score_kings_ten", "rule_kc:score"),
        ("answer rule_kc_move_kings", "rule_kc:move"),
        ("answer rule_fc_go_out", "rule_fc:go_out"),
        ("answer legal_yes_play card=7S pile=W", "specific"),
        ("refuse not_understood", "none"),
        ("refuse card_not_held", "action"),
        ("play 7S W", "action"),
        ("ask which_card", "action"),
    ],
)
def test_a_labelled_line_has_the_kind_of_its_answer(expected: str, kind: str) -> None:
    assert kind_of(expected) == kind


def test_the_exemplars_are_the_labelled_lines_of_the_corpus_and_held_out_batches() -> None:
    lines = [line for lang in LANGUAGES for line in load(lang)]
    for batch in batches(assistant_corpus, HELDOUT).values():
        lines += batch
    assert load_exemplars() == exemplars_of(lines)  # else: --write-exemplars


def test_a_question_no_rule_places_is_answered_by_its_likeness() -> None:
    view = seat_view("K1")
    line = "run through my cards for me"
    refused = _by_rules(line, read(line, "en", FIRST_NAMES), view["state"], NAMES)
    assert isinstance(refused, Refusal) and refused.code == "not_understood"
    assert understand(line, view["state"], NAMES, "en") == Answer(
        "hand", {"cards": view["state"]["hand"]}
    )


def test_a_question_answered_by_likeness_takes_its_parameters_from_the_line() -> None:
    model = Model(
        [
            Exemplar("en", "kings-corner", "count", "how many cards has Ben got?"),
            Exemplar("en", "kings-corner", "count", "how many cards for Zoé?"),
            Exemplar("en", "kings-corner", "none", "who ordered the pizza?"),
        ]
    )
    similar.use(model)
    try:
        state = seat_view("K1")["state"]
        got = similar.recognise(read("cards, Zoé?", "en", FIRST_NAMES), state, NAMES, "en")
        assert got == Answer("cards_of", {"seat": 2, "count": state["hand_counts"][2]})
        renamed = {0: "Ana", 1: "Ben", 2: "Maud"}  # the names of this table, not the corpus's
        got = similar.recognise(
            read("cards, Maud?", "en", frozenset({"maud"})), state, renamed, "en"
        )
        assert got == Answer("cards_of", {"seat": 2, "count": state["hand_counts"][2]})
    finally:
        similar.use(None)


def test_a_rule_is_only_ever_the_table_game_s() -> None:
    model = Model(
        [
            Exemplar("en", "five-crowns", "rule_fc:go_out", "what does going out mean?"),
            Exemplar("en", "kings-corner", "rule_kc:corner", "what goes in a corner?"),
        ]
    )
    similar.use(model)
    try:
        reading = read("going out, what does it mean?", "en", FIRST_NAMES)
        crowns = similar.recognise(reading, seat_view("F1")["state"], NAMES, "en")
        assert crowns == Answer("rule_fc_go_out")
        kings = similar.recognise(reading, seat_view("K1")["state"], NAMES, "en")
        assert kings is None or kings.code.startswith("rule_kc_")
    finally:
        similar.use(None)


@pytest.mark.parametrize(
    ("text", "lang", "position"),
    [
        ("don't draw", "en", "K2"),
        ("where's the remote?", "en", "K1"),
        ("who ordered pizza?", "en", "K1"),
        ("what time is it?", "en", "K1"),
        ("who wants tea?", "en", "K1"),
        ("did someone feed the cat?", "en", "F1"),
        ("qui veut du café ?", "fr", "K1"),
        ("quem quer mais cerveja?", "pt", "F1"),
        ("wie heeft de afstandsbediening?", "nl", "K1"),
        ("is the oven still on?", "en", "K1"),
        ("ne pioche pas", "fr", "K2"),
    ],
)
def test_chatter_and_negations_are_never_answered_or_played_by_likeness(
    text: str, lang: str, position: str
) -> None:
    kind, message = respond(said(text, lang), seat_view(position), NAMES)
    assert kind == "reply"
    assert message["status"] == "error" and message["error"]["code"] == "not_understood"


def test_a_line_nearest_an_action_gets_no_action_from_likeness() -> None:
    model = Model([Exemplar("en", "kings-corner", "action", "I'll stop there")])
    similar.use(model)
    try:
        reading = read("I'll stop there", "en", FIRST_NAMES)
        assert similar.recognise(reading, seat_view("K1")["state"], NAMES, "en") is None
    finally:
        similar.use(None)


_WORDS = sorted({word for exemplar in load_exemplars()[::7] for word in exemplar.text.split()})


@settings(max_examples=150, deadline=None)
@given(
    words=st.lists(st.sampled_from(_WORDS), min_size=1, max_size=8),
    position=st.sampled_from(["K1", "K2", "K5", "F1", "F2", "F6"]),
    lang=st.sampled_from(LANGUAGES),
    asked=st.booleans(),
)
def test_likeness_never_makes_an_action_the_rules_did_not(
    words: list[str], position: str, lang: str, asked: bool
) -> None:
    text = " ".join(words) + ("?" if asked else "")
    state = seat_view(position)["state"]
    got = understand(text, state, NAMES, lang)
    if isinstance(got, Act):
        # The rules' action, read in the phone's language or (a whole action said in
        # another one, "acaba" on an English phone) in every language's words, of the
        # whole line or of one of its sentences (the others being talk: "scored? sors").
        by_rules = [
            _by_rules(part, r, state, NAMES)
            for part in {
                text,
                *sentences(text),
                *(said_twice(text) or ()),
                core(text, lang) or text,
            }
            for r in (read(part, lang, FIRST_NAMES), read(part, None, FIRST_NAMES))
        ]
        assert got in by_rules
