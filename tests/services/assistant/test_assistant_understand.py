"""The assistant reads a line in any of the four languages against the speaker's view."""

from __future__ import annotations

import itertools
import json
import random
import re
from typing import Any

import pytest
from hypothesis import example as also_try
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.playout import random_playout
from engine.registry import game_rules
from services.assistant.understand import Act, Answer, Refusal, read, understand
from services.web.settings import DEFAULT_CLIENT_DIR

# The test's own words (written apart from the assistant's tables, as people say them).
RANKS = {
    "en": "ace two three four five six seven eight nine ten jack queen king",
    "fr": "as deux trois quatre cinq six sept huit neuf dix valet dame roi",
    "pt": "ás dois três quatro cinco seis sete oito nove dez valete dama rei",
    "nl": "aas twee drie vier vijf zes zeven acht negen tien boer vrouw heer",
}
SUITS = {
    "en": {"H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades", "T": "stars"},
    "fr": {"H": "cœur", "D": "carreau", "C": "trèfle", "S": "pique", "T": "étoiles"},
    "pt": {"H": "copas", "D": "ouros", "C": "paus", "S": "espadas", "T": "estrelas"},
    "nl": {"H": "harten", "D": "ruiten", "C": "klaveren", "S": "schoppen", "T": "sterren"},
}
JOKER = {"en": "the joker", "fr": "le joker", "pt": "o coringa", "nl": "de joker"}
PILES = {
    "en": "north north-east east south-east south south-west west north-west",
    "fr": "nord nord-est est sud-est sud sud-ouest ouest nord-ouest",
    "pt": "norte nordeste leste sudeste sul sudoeste oeste noroeste",
    "nl": "noord noordoost oost zuidoost zuid zuidwest west noordwest",
}
PILE_CODES = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
SAY = {
    "play": {
        "en": "{card} on {pile}",
        "fr": "{card} sur {pile}",
        "pt": "{card} no {pile}",
        "nl": "{card} op {pile}",
    },
    "move": {
        "en": "move {from} to {to}",
        "fr": "déplace {from} sur {to}",
        "pt": "mover {from} para {to}",
        "nl": "verplaats {from} naar {to}",
    },
    "discard": {
        "en": "discard {card}",
        "fr": "je défausse {card}",
        "pt": "descarto {card}",
        "nl": "gooi {card}",
    },
    "go_out": {
        "en": "go out with {card}",
        "fr": "je sors avec {card}",
        "pt": "bato com {card}",
        "nl": "ga uit met {card}",
    },
    "draw_stock": {"en": "draw", "fr": "je pioche", "pt": "compro", "nl": "trek een kaart"},
    "draw_discard": {
        "en": "take the discard",
        "fr": "je prends la défausse",
        "pt": "pego o descarte",
        "nl": "pak de aflegstapel",
    },
    "end_turn": {"en": "end turn", "fr": "fin du tour", "pt": "passo", "nl": "ik pas"},
}
LANGUAGES = ("en", "fr", "pt", "nl")


def card_words(card: str, lang: str) -> str:
    if card == "JK":
        return JOKER[lang]
    rank = {"A": 1, "J": 11, "Q": 12, "K": 13}.get(card[:-1]) or int(card[:-1])
    rank_word, suit_word = RANKS[lang].split()[rank - 1], SUITS[lang][card[-1]]
    if lang == "nl":
        return f"{suit_word} {rank_word}"  # "harten zeven"
    return {"en": "the {} of {}", "fr": "le {} de {}", "pt": "o {} de {}"}[lang].format(
        rank_word, suit_word
    )


def pile_words(pile: str, lang: str) -> str:
    return PILES[lang].split()[PILE_CODES.index(pile)]


def phrase(action: dict[str, Any], lang: str) -> str:
    kind = action["type"]
    if kind == "draw":
        kind = "draw_discard" if action.get("source") == "discard" else "draw_stock"
    card = action.get("card") or action.get("discard")
    return SAY[kind][lang].format(
        card=card_words(card, lang) if card else "",
        pile=pile_words(action["pile"], lang) if "pile" in action else "",
        **{
            "from": pile_words(action["from"], lang) if "from" in action else "",
            "to": pile_words(action["to"], lang) if "to" in action else "",
        },
    )


@settings(max_examples=30, deadline=None)
@given(
    game=st.sampled_from(["kings-corner", "five-crowns"]),
    seats=st.integers(min_value=2, max_value=4),
    seed=st.integers(min_value=0, max_value=2**32),
    lang=st.sampled_from(LANGUAGES),
)
def test_every_legal_action_said_in_any_language_is_understood(
    game: str, seats: int, seed: int, lang: str
) -> None:
    playout = random_playout(game_rules(game), seats, seed, chooser=random.Random(seed))
    for step in itertools.islice(playout, 60):
        seat = step.state.current_seat
        if seat is None:
            continue
        view = step.state.view_for(seat)
        for action in view["legal_actions"]:
            said = phrase(action, lang)
            going_out = {"type": "go_out", "discard": action.get("card")}
            if action["type"] == "discard" and going_out in view["legal_actions"]:
                # A discard that could also go out is asked about, never sent as it stands.
                asked = Refusal("go_out_or_discard", {"card": action["card"]})
                assert understand(said, view) == asked, said
            else:
                assert understand(said, view) == Act(action), said
            # Read word for word, not guessed from what the view allows:
            words = read(said)
            card = action.get("card") or action.get("discard")
            assert [c.text() for c in words.cards] == ([card] if card else []), said
            named = [action[k] for k in ("from", "to", "pile") if k in action]
            assert [p.code for p in words.piles] == named, said


def kings_view() -> dict[str, Any]:
    rules = game_rules("kings-corner")
    state = rules.new_game(2, 5, None)
    seat = state.current_seat
    assert seat is not None
    state, _ = state.apply(seat, state.legal_actions(seat)[0])  # drawn: now it plays
    return state.view_for(seat)


def test_a_card_alone_is_enough_when_it_fits_one_pile() -> None:
    view = kings_view()
    plays = [a for a in view["legal_actions"] if a["type"] == "play"]
    only = next(a for a in plays if sum(b["card"] == a["card"] for b in plays) == 1)
    assert understand(card_words(only["card"], "en"), view) == Act(only)
    assert understand(only["card"].lower(), view) == Act(only)  # "js", typed as a code


def test_an_action_the_table_would_refuse_is_still_sent_for_it_to_explain() -> None:
    view = kings_view()
    held = view["hand"][0]
    wrong = next(
        pile
        for pile in PILE_CODES
        if {"type": "play", "card": held, "pile": pile} not in view["legal_actions"]
    )
    said = f"{card_words(held, 'fr')} sur {pile_words(wrong, 'fr')}"
    assert understand(said, view) == Act({"type": "play", "card": held, "pile": wrong})


@pytest.mark.parametrize(
    ("said", "code"),
    [
        ("whose turn is it?", "turn_you"),
        ("c'est à qui ?", "turn_you"),
        ("de quem é a vez", "turn_you"),
        ("wie is aan de beurt", "turn_you"),
        ("what are my cards", "hand"),
        ("mes cartes", "hand"),
        ("what can I play", "moves"),
        ("aide", "help"),
    ],
)
def test_questions_are_answered(said: str, code: str) -> None:
    view = kings_view()
    answer = understand(said, view)
    assert isinstance(answer, Answer) and answer.code == code
    if code == "hand":
        assert answer.params == {"cards": view["hand"]}
    if code == "turn_you":  # the view is the seat to play: it is spoken to
        assert view["current_seat"] == view["seat"] and answer.params == {}


def test_what_cannot_be_read_is_refused_with_a_reason() -> None:
    view = kings_view()
    assert understand("the weather is nice", view) == Refusal(
        "not_understood", {"text": "the weather is nice"}
    )
    missing = next(
        f"{rank}{suit}"
        for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10")
        for suit in "HDCS"
        if f"{rank}{suit}" not in view["hand"]
    )
    assert understand(card_words(missing, "en"), view) == Refusal(
        "card_not_held", {"card": missing}
    )
    assert understand("seven of hearts on north", None) == Refusal("no_game_yet")


def test_one_card_on_several_piles_asks_which() -> None:
    view = kings_view()
    view["legal_actions"] = [
        {"type": "play", "card": "7H", "pile": "N"},
        {"type": "play", "card": "7H", "pile": "S"},
    ]
    assert understand("seven of hearts", view) == Refusal(
        "which_pile", {"card": "7H", "piles": ["N", "S"]}
    )
    assert understand("seven of hearts on south", view) == Act(view["legal_actions"][1])


def test_words_that_are_ranks_only_in_another_language_are_not_cards() -> None:
    view = kings_view()
    view["legal_actions"] = [{"type": "draw"}]
    # "as" is an ace in French and Portuguese, "est" is east in French: not here.
    assert understand("draw as fast as you can", view) == Act({"type": "draw"})
    assert understand("as de pique", view) == Refusal(
        "card_not_held" if "AS" not in view["hand"] else "no_move_for_card", {"card": "AS"}
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_example_the_help_gives_is_understood(lang: str) -> None:
    catalogue = json.loads((DEFAULT_CLIENT_DIR / "i18n" / f"{lang}.json").read_text("utf-8"))
    examples = re.findall(r"[“«„]\s*([^”»]+?)\s*[”»]", catalogue["answer.help"])
    assert len(examples) >= 8, examples
    view = kings_view()
    for example in examples:
        understood = understand(example, view)
        assert understood != Refusal("not_understood", {"text": example}), example


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=200), lang=st.sampled_from(LANGUAGES))
@also_try(text="Ð,", lang="en")  # a comma after no word read: once an IndexError
def test_any_text_gets_an_act_an_answer_or_a_coded_refusal(text: str, lang: str) -> None:
    view = kings_view()
    understood = understand(text, view)
    assert isinstance(understood, Act | Answer | Refusal)
    if isinstance(understood, Act):
        assert understood.action["type"] in ("play", "move", "draw", "end_turn")


KNOWN_WORDS = (
    "seven of hearts on north east sud est as de pique draw go out discard the joker"
    " sterren vrouw move to 10 7h qs fin du tour whose turn"
)
JUMBLE = KNOWN_WORDS.split()


@settings(max_examples=200, deadline=None)
@given(
    words=st.lists(
        st.sampled_from(JUMBLE),
        max_size=12,
    )
)
def test_any_jumble_of_known_words_is_handled(words: list[str]) -> None:
    for view in (kings_view(), None):
        assert isinstance(understand(" ".join(words), view), Act | Answer | Refusal)
