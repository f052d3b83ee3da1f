"""Action values, their wire forms and parser, and the refusals that do not depend on a rule."""

from __future__ import annotations

from typing import Any

import pytest
from kc_helpers import DRAW, END, at, move, play, refusal

from engine.cards import Card
from engine.errors import ActionSyntaxError, IllegalActionError
from engine.kings_corner import DRAW as DRAW_ACTION
from engine.kings_corner import END_TURN, Draw, EndTurn, Move, Play, parse_action

POSITION = "9S/4D/5C/2H/-/-/-/- 8H,3D/4C * 0 play"


@pytest.mark.parametrize(
    ("wire", "action", "written"),
    [
        (play("7H", "N"), Play(Card(7, "H"), "N"), play("7H", "N")),
        (play("10s", "NE"), Play(Card(10, "S"), "NE"), play("10S", "NE")),
        (move("W", "SE"), Move("W", "SE"), move("W", "SE")),
        (DRAW, Draw(), DRAW),
        (END, EndTurn(), END),
    ],
)
def test_wire_forms_parse_to_actions_and_back(
    wire: dict[str, Any], action: object, written: dict[str, Any]
) -> None:
    parsed = parse_action(wire)
    assert parsed == action
    assert parsed.to_wire() == written


def test_parsing_returns_the_shared_instances() -> None:
    assert parse_action(DRAW) is DRAW_ACTION
    assert parse_action(END) is END_TURN
    assert parse_action(play("7H", "N")) is parse_action(play("7h", "N"))


def test_actions_of_different_kinds_are_never_equal() -> None:
    kinds: list[object] = [Draw(), EndTurn(), Move("N", "E"), Play(Card(7, "H"), "N")]
    assert [[a == b for b in kinds] for a in kinds] == [[a is b for b in kinds] for a in kinds]


@pytest.mark.parametrize(
    ("wire", "code"),
    [
        ("draw", "bad_action"),
        ({}, "bad_action"),
        ({"type": "pass"}, "bad_action"),
        ({"type": "draw", "card": "7H"}, "bad_action"),
        ({"type": "play", "card": "7H"}, "bad_action"),
        ({"type": "play", "card": "7X", "pile": "N"}, "bad_card"),
        ({"type": "play", "card": "JK", "pile": "N"}, "bad_card"),
        ({"type": "play", "card": "QT", "pile": "N"}, "bad_card"),
        ({"type": "play", "card": 7, "pile": "N"}, "bad_card"),
        ({"type": "play", "card": "7H", "pile": "C"}, "bad_pile"),
        ({"type": "move", "from": "N", "to": "north"}, "bad_pile"),
        ({"type": "move", "from": None, "to": "N"}, "bad_pile"),
    ],
)
def test_unreadable_actions_are_syntax_errors(wire: Any, code: str) -> None:
    with pytest.raises(ActionSyntaxError) as caught:
        parse_action(wire)
    assert caught.value.code == code


def test_only_the_seat_to_act_may_act() -> None:
    state = at(POSITION)
    error = refusal(state, play("8H", "N"), seat=1)
    assert (error.code, dict(error.params)) == ("not_your_turn", {"seat": 1, "current_seat": 0})
    assert state.legal_actions(1) == ()


def test_a_card_must_be_in_the_hand() -> None:
    error = refusal(at(POSITION), play("8D", "N"))
    assert (error.code, dict(error.params)) == ("card_not_in_hand", {"card": "8D"})


def test_a_hand_made_action_with_an_unknown_pile_is_refused() -> None:
    state = at(POSITION)
    with pytest.raises(IllegalActionError) as caught:
        state.apply(0, Play(Card(8, "H"), "X"))
    assert (caught.value.code, dict(caught.value.params)) == ("no_such_pile", {"pile": "X"})
    with pytest.raises(IllegalActionError) as caught:
        state.apply(0, Move("N", "Y"))
    assert caught.value.code == "no_such_pile"


def test_an_equal_but_separately_made_action_is_accepted() -> None:
    state = at(POSITION)
    made = Play(Card(8, "H"), "N")
    assert made is not parse_action(play("8H", "N"))
    following, _ = state.apply(0, made)
    assert [str(card) for card in following.piles["N"]] == ["9S", "8H"]


def test_something_that_is_no_action_is_a_syntax_error() -> None:
    with pytest.raises(ActionSyntaxError) as caught:
        at(POSITION).apply(0, {"type": "draw"})  # type: ignore[arg-type]
    assert caught.value.code == "bad_action"
