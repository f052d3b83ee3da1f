"""The corpus, line by line, through the service's own decision (``respond``); and lines
of any shape still get an answer, a question back or a coded refusal in the four
languages."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from functools import cache
from typing import Any

import pytest
from assistant_corpus import LANGUAGES, NAMES, POSITIONS, Line, expected_matches, load, seat_view
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.playout import random_playout
from engine.registry import game_rules
from services.assistant.hint import simple_suggestion, suggest
from services.assistant.respond import respond
from services.web.settings import DEFAULT_CLIENT_DIR

ALL_LINES = [line for lang in LANGUAGES for line in load(lang)]
# Every kind of line the issue names, in every language.
KINDS = {
    "play", "move", "draw", "take_discard", "discard", "go_out", "end_turn", "colour",
    "top_card", "numbers", "slip", "verb_form", "ambiguous", "not_held", "nonsense",
    "question_card", "question_turn", "question_hand", "question_moves", "question_hint",
    "question_count", "question_stock", "question_standings", "question_value",
    "question_wild", "question_rules", "question_discard", "help",
}  # fmt: skip


@cache
def catalogue(lang: str) -> dict[str, str]:
    path = DEFAULT_CLIENT_DIR / "i18n" / f"{lang}.json"
    loaded: dict[str, str] = json.loads(path.read_text("utf-8"))
    return loaded


def said(text: str, lang: str, line_id: str = "t1") -> dict[str, Any]:
    return {"v": 1, "id": line_id, "text": text, "lang": lang}


def test_the_corpus_is_big_and_covers_every_kind_in_every_language() -> None:
    assert len(ALL_LINES) >= 400
    for lang in LANGUAGES:
        lines = load(lang)
        assert len(lines) >= 80, lang
        assert {line.kind for line in lines} >= KINDS, KINDS - {line.kind for line in lines}
        assert {line.position for line in lines} <= POSITIONS.keys()
    # Many lines are said where more than one reading is legal.
    assert Counter(line.kind for line in ALL_LINES)["ambiguous"] >= 40


@pytest.mark.parametrize("line", ALL_LINES, ids=lambda line: f"{line.lang}:{line.number}")
def test_a_corpus_line_is_understood(line: Line) -> None:
    sent = respond(said(line.text, line.lang), seat_view(line.position), NAMES)
    assert expected_matches(line.expected, sent), (line.text, sent)


def test_every_answer_and_refusal_of_the_corpus_is_worded_in_every_language() -> None:
    keys = set()
    for line in ALL_LINES:
        kind, message = respond(said(line.text, line.lang), seat_view(line.position), NAMES)
        if kind == "reply" and message["status"] == "ok":
            data = message["data"]
            keys.add(f"{data['kind']}.{data[data['kind']]}")
        elif kind == "reply":
            keys.add(f"error.{message['error']['code']}")
    assert len(keys) >= 40
    for lang in LANGUAGES:
        missing = keys - catalogue(lang).keys()
        assert not missing, (lang, missing)


def worded(message: dict[str, Any], lang: str) -> bool:
    """A reply the player's screen can word in ``lang`` (refusals and questions back too)."""
    if message["status"] == "ok":
        data = message["data"]
        return data["kind"] in ("answer", "question") and (
            f"{data['kind']}.{data[data['kind']]}" in catalogue(lang)
        )
    return f"error.{message['error']['code']}" in catalogue(lang)


ODD_LINES = [
    "",
    "   ",
    "x" * 10_000,
    "seven of hearts " * 700,
    "?!?!...;;;",
    "……",
    "七 of 黑桃 на север",
    "😀🃏♥♠",
    "\u200b\u200b",
    "ÉÈÊË çà ñ ß",
    "北 ouest 남쪽",
]


@pytest.mark.parametrize("text", ODD_LINES, ids=range(len(ODD_LINES)))
@pytest.mark.parametrize("position", ["K1", "F1", "F3"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_odd_lines_get_a_worded_reply_and_never_move_the_table(
    text: str, position: str, lang: str
) -> None:
    kind, message = respond(said(text, lang), seat_view(position), NAMES)
    if kind == "intent":  # only when the words name a whole action: "seven of hearts …"
        assert "seven of hearts" in text
        return
    assert worded(message, lang), message


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(max_size=300),
    position=st.sampled_from(sorted(POSITIONS)),
    lang=st.sampled_from(LANGUAGES),
)
def test_any_text_gets_an_action_an_answer_or_a_worded_refusal(
    text: str, position: str, lang: str
) -> None:
    view = seat_view(position)
    kind, message = respond(said(text, lang), view, NAMES)
    if kind == "intent":
        legal = view["state"]["legal_actions"]
        # Random text moves the table only with an action it names in full or a legal one.
        assert message["action"] in legal or message["action"]["type"] in (
            "play",
            "move",
            "draw",
            "discard",
            "go_out",
            "end_turn",
        )
        assert message["id"] == "t1" and message["seq"] == view["seq"]
    else:
        assert message["id"] == "t1" and worded(message, lang), message


LEXICON = [
    "seven",
    "of",
    "hearts",
    "on",
    "north",
    "est",
    "qu",
    "ce",
    "que",
    "sept",
    "de",
    "pique",
    "take",
    "that",
    "queen",
    "discard",
    "the",
    "joker",
    "how",
    "many",
    "cards",
    "has",
    "Ana",
    "who",
    "is",
    "winning",
    "what",
    "wild",
    "can",
    "a",
    "queen",
    "start",
    "an",
    "empty",
    "corner",
    "ruitenvrouw",
    "klaverdrie",
    "for",
    "too",
    "of",
    "spades",
    "nought",
    "ik",
    "ben",
    "klaar",
    "acabei",
    "pioché",
    "?",
    "!",
]


@settings(max_examples=300, deadline=None)
@given(
    words=st.lists(st.sampled_from(LEXICON), max_size=14),
    position=st.sampled_from(sorted(POSITIONS)),
    lang=st.sampled_from(LANGUAGES),
)
def test_any_jumble_of_table_words_is_handled(words: list[str], position: str, lang: str) -> None:
    kind, message = respond(said(" ".join(words), lang), seat_view(position), NAMES)
    assert kind == "intent" or worded(message, lang), message
    if kind == "intent" and words and words[-1] == "?":  # a question is never a move
        pytest.fail(f"a question moved the table: {words}")


@settings(max_examples=15, deadline=None)
@given(
    game=st.sampled_from(["kings-corner", "five-crowns"]),
    seats=st.integers(min_value=2, max_value=4),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_the_hint_is_always_one_legal_move(game: str, seats: int, seed: int) -> None:
    playout = random_playout(game_rules(game), seats, seed, chooser=random.Random(seed))
    for step in itertools.islice(playout, 120):
        seat = step.state.current_seat
        if seat is not None:
            view = step.state.view_for(seat)
            assert suggest(view) in view["legal_actions"]
            # The rule kept for a game without a computer player: legal too.
            assert simple_suggestion(view, view["legal_actions"]) in view["legal_actions"]
