"""The one-line notation, the dict form, and the invariant checks on hand-made positions."""

from __future__ import annotations

import json
from typing import Any

import pytest
from kc_helpers import DRAW, after, at, play

from engine.errors import OptionError
from engine.kings_corner import (
    InvariantError,
    PositionError,
    new_game,
    parse_position,
    state_from_dict,
)

EXPLICIT = (
    "KS,QH/4D/5C/2H/KD,QC,JH/-/-/- "
    "-/AC,2C,3C,4C,6C,7C,8C,9C,10C,JC,KC,AD,2D,3D,5D,6D,7D,8D,9D,10D,JD,QD,AH,3H,8H,10S "
    "4H,5H,6H,7H,9H,10H,KH,AS,2S,3S,4S,5S,6S,7S,8S,9S,JS,QS - over draw=end royal_kings=yes "
    'session=yes target=50 round=3 dealer=1 scores=7,12 idle=1 seed="x%20y" winners=0 '
    "reason=went_out"
)


def test_the_notation_reads_back_exactly() -> None:
    state = parse_position(EXPLICIT)
    assert state.to_position() == EXPLICIT
    assert state.setup.seed == "x y"
    assert (state.round_number, state.dealer, state.scores) == (3, 1, (7, 12))
    assert state.options["draw"] == "end"
    assert state.history[-1].winners == (0,)


def test_a_star_stands_for_the_rest_of_the_deck_in_deck_order() -> None:
    state = at("9S/4D/5C/2H/-/-/-/- 8H/3D 7C,* 0 draw")
    assert [str(card) for card in state.stock[:4]] == ["7C", "AC", "2C", "3C"]
    assert state.stock_count == 52 - 6
    assert at(state.to_position()).to_dict() == state.to_dict()


def test_positions_of_a_real_game_round_trip() -> None:
    state = new_game(4, 12, {"session": True})
    for seat_action in range(12):
        seat = state.current_seat
        assert seat is not None
        state, _ = state.apply(seat, state.legal_actions(seat)[seat_action % 3 - 1])
        text = state.to_position()
        again = parse_position(text)
        assert again.to_position() == text
        expected = {**state.to_dict(), "dealer_draws": [], "history": []}
        assert again.to_dict() == expected


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("9S/4D/5C/2H/-/-/-/- 8H/3D", "too_few_fields"),
        ("9S/4D/5C/2H/-/-/- 8H/3D * 0 play", "bad_piles"),
        ("9S/4D/5C/2X/-/-/-/- 8H/3D * 0 play", "bad_card"),
        ("9S/4D/5C/2H/-/-/-/- 8H/* * 0 play", "star_twice"),
        ("9S/4D/5C/*/-/-/-/- 8H/3D - 0 play", "star_in_pile"),
        ("9S/4D/5C/2H/-/-/-/- 8H,9S/3D * 0 play", "card_twice"),
        ("9S/4D/5C/2H/-/-/-/- 8H/3D * 0 playing", "bad_phase"),
        ("9S/4D/5C/2H/-/-/-/- 8H/3D * 0 play colour=red", "bad_field"),
        ("9S/4D/5C/2H/-/-/-/- 8H/3D * 0 play idle=1 idle=0", "bad_field"),
        ("9S/4D/5C/2H/-/-/-/- 8H/3D * 0 play royal_kings=maybe", "bad_value"),
        ("9S/4D/5C/2H/-/-/-/- 8H/3D * 0 play round=x", "bad_value"),
        ("9S/4D/5C/2H/-/-/-/- 8H/3D * 0 play winners=0", "result_before_end"),
    ],
)
def test_unreadable_notation_is_refused(text: str, reason: str) -> None:
    with pytest.raises(PositionError) as caught:
        parse_position(text)
    assert (caught.value.code, caught.value.params["reason"]) == ("bad_position", reason)


def test_notation_with_impossible_options_is_refused() -> None:
    with pytest.raises(OptionError) as caught:
        parse_position("9S/4D/5C/2H/-/-/-/- 8H/3D/4C/5C * 0 play deal=9")
    assert caught.value.code == "deal_needs_two_or_three_seats"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("9S/4D/5C/2H/-/-/-/- 8H/3D 7C 0 play", "cards missing"),
        ("9S,8S/4D/5C/2H/-/-/-/- 8H/3D * 0 play", "pile N: 8S on 9S"),
        ("9S,7H/4D/5C/2H/-/-/-/- 8H/3D * 0 play", "pile N: 7H on 9S"),
        ("9S/4D/5C/2H/QS/-/-/- 8H/3D * 0 play", "corner NE starts with QS"),
        ("9S/4D/5C/2H/-/-/-/- 8H/3D * - play", "current seat None"),
        ("9S/4D/5C/2H/-/-/-/- 8H/3D * 2 play", "current seat 2"),
        ("9S/4D/5C/2H/-/-/-/- 8H/* - 0 draw", "empty stock"),
        ("9S/4D/5C/2H/-/-/-/- 8H/3D * 0 draw draw=end", "without drawing first"),
        ("9S/4D/5C/2H/-/-/-/- -/3D * 0 play", "empty hand"),
        ("9S/4D/5C/2H/-/-/-/- 8H/3D * 0 play idle=2", "idle turns"),
        ("9S/4D/5C/2H/-/-/-/- 8H/3D * 0 play dealer=2", "dealer"),
        ("9S/4D/5C/2H/-/-/-/- 8H/3D * 0 play scores=1", "scores"),
        ("9S/4D/5C/2H/-/-/-/- 8H/3D * 0 play kinged=yes", "without acting"),
        ("9S/4D/5C/2H/-/-/-/- 8H/3D * - over winners=0 reason=went_out", "no winner went out"),
        ("9S/4D/5C/2H/-/-/-/- 8H/3D * - over winners=0 reason=blocked", "blocked round won by"),
    ],
)
def test_impossible_positions_break_an_invariant(text: str, message: str) -> None:
    with pytest.raises(InvariantError, match=message):
        parse_position(text)


def test_the_dict_form_round_trips_exactly_and_is_json() -> None:
    state = after(at("9S/4D/5C/2H/-/-/-/- 8H,3D/4C 7C,* 0 draw session=yes"), DRAW, play("8H", "N"))
    data = state.to_dict()
    assert json.loads(json.dumps(data)) == data
    again = state_from_dict(data)
    assert again.to_dict() == data
    assert again.legal_actions(0) == state.legal_actions(0)
    assert again.to_position() == state.to_position()


def test_the_dict_form_keeps_the_history() -> None:
    state = new_game(3, 4, {"session": True, "target": 10})
    while state.current_seat is not None:
        state, _ = state.apply(state.current_seat, state.legal_actions(state.current_seat)[0])
    assert state.history
    data = state.to_dict()
    assert state_from_dict(data).to_dict() == data
    assert data["dealer_draws"]


def broken(change: dict[str, Any]) -> dict[str, Any]:
    return {**new_game(2, 3).to_dict(), **change}


@pytest.mark.parametrize(
    "change",
    [
        {"game": "five-crowns"},
        {"version": 2},
        {"piles": {"N": []}},
        {"hands": [[]]},
        {"scores": ["a", "b"]},
        {"phase": "resting"},
        {"acted": "no"},
        {"stock": "7H"},
        {"history": [{"round": 1}]},
        {"round": None},
    ],
)
def test_a_broken_dict_form_is_refused(change: dict[str, Any]) -> None:
    with pytest.raises(PositionError):
        state_from_dict(broken(change))


def test_a_dict_form_with_a_card_twice_is_refused() -> None:
    data = new_game(2, 3).to_dict()
    data["hands"][0][0] = data["hands"][1][0]
    with pytest.raises(PositionError) as caught:
        state_from_dict(data)
    assert dict(caught.value.params) == {"reason": "card_twice", "card": data["hands"][1][0]}
