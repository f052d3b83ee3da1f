"""What the TV and each seat see, the events, and their English lines."""

from __future__ import annotations

import json
import random

import pytest
from kc_helpers import DRAW, END, act, after, at, move, play, scramble

from engine.errors import IllegalActionError
from engine.game import Event
from engine.kings_corner import describe_event, new_game

POSITION = "9S/8H,7S/5C/2H/KD/-/-/- QS,3D,8D/4C 7C,* 0 play session=yes"


def test_the_tv_sees_the_table_and_no_hidden_card() -> None:
    view = at(POSITION).view_for(None)
    assert json.loads(json.dumps(view)) == view
    assert view["piles"] == {
        "N": ["9S"],
        "E": ["8H", "7S"],
        "S": ["5C"],
        "W": ["2H"],
        "NE": ["KD"],
        "SE": [],
        "SW": [],
        "NW": [],
    }
    assert (view["game"], view["phase"], view["current_seat"]) == ("kings-corner", "play", 0)
    assert (view["stock_count"], view["hand_counts"], view["scores"]) == (42, [3, 1], [0, 0])
    assert view["options"]["session"] is True
    assert view["last_round"] is None and view["outcome"] is None
    assert "hand" not in view and "legal_actions" not in view and "stock" not in view


def test_a_seat_sees_its_sorted_hand_and_its_legal_actions() -> None:
    state = at(POSITION)
    view = state.view_for(0)
    assert view["hand"] == ["3D", "8D", "QS"]  # clubs, diamonds, hearts, spades; Ace to King
    assert view["legal_actions"] == [play("8D", "N"), play("QS", "NE"), move("E", "N"), END]
    assert state.view_for(1)["legal_actions"] == []
    assert state.view_for(1)["hand"] == ["4C"]


def test_a_view_for_a_seat_that_does_not_exist_is_refused() -> None:
    with pytest.raises(IllegalActionError) as caught:
        at(POSITION).view_for(2)
    assert caught.value.code == "no_such_seat"


def test_the_last_round_and_the_outcome_are_shown() -> None:
    state = after(at("9S/4D/5C/2H/-/-/-/- 8H/KS,QH * 0 play"), play("8H", "N"))
    view = state.view_for(None)
    assert view["last_round"] == {
        "round": 1,
        "winners": [0],
        "reason": "went_out",
        "penalties": [0, 11],
    }
    assert view["outcome"] == {"winners": [0], "scores": [0, 11], "reason": "went_out"}
    assert view["phase"] == "game_over"


def test_the_first_dealer_draws_are_shown_to_everyone() -> None:
    state = new_game(3, 21)
    shown = state.view_for(None)["dealer_draws"]
    assert len(shown) == len(state.setup.dealer_draws) >= 1
    assert [entry["seat"] for entry in shown[0]] == [0, 1, 2]


def test_a_drawn_card_is_a_secret_of_the_drawer() -> None:
    _, events = act(at("9S/4D/5C/2H/-/-/-/- 8H/4C 7C,* 0 draw"), DRAW)
    drew = events[0]
    assert drew.for_seat(None)["params"] == {}
    assert drew.for_seat(1)["params"] == {}
    assert drew.for_seat(0)["params"] == {"card": "7C"}
    assert describe_event(drew) == "Seat 0 draws a card."


def test_nobody_sees_the_stock_order() -> None:
    state = at("9S/4D/5C/2H/-/-/-/- 8H/4C 7C,* 0 draw")
    reordered = scramble(state, 0, random.Random(1))
    assert reordered.stock != state.stock
    for viewer in (None, 0):
        assert reordered.view_for(viewer) == state.view_for(viewer)


@pytest.mark.parametrize(
    ("event", "line"),
    [
        (Event("played", 2, {"card": "10H", "pile": "NW"}), "Seat 2 plays 10♥ on north-west."),
        (
            Event("filled", 0, {"card": "3C", "pile": "W"}),
            "Seat 0 fills the empty west spot with 3♣.",
        ),
        (
            Event("king_to_corner", 1, {"card": "KD", "pile": "SE"}),
            "Seat 1 puts K♦ in the south-east corner.",
        ),
        (Event("moved", 1, {"from": "E", "to": "N"}), "Seat 1 moves the east pile onto north."),
        (Event("turn_ended", 1, {"next_seat": 2}), "Seat 1 ends the turn; seat 2 to play."),
        (
            Event("dealer_draw_tied", None, {"seats": [0, 2, 3]}),
            "Tie for the highest card: seat 0, seat 2 and seat 3 draw again.",
        ),
        (Event("something_new", None, {"x": 1}), "The table: something_new {'x': 1}"),
    ],
)
def test_events_read_as_plain_english(event: Event, line: str) -> None:
    assert describe_event(event) == line


def test_every_event_of_a_session_has_a_line() -> None:
    state = new_game(3, 5, {"session": True, "target": 15, "royal_kings": True})
    events = list(state.opening_events())
    chooser = random.Random(5)
    while True:
        seat = state.current_seat
        if seat is None:
            if not state.can_start_next_round():
                break
            state, more = state.start_next_round()
        else:
            actions = state.legal_actions(seat)
            state, more = state.apply(seat, actions[chooser.randrange(len(actions))])
        events += more
    codes = {event.code for event in events}
    assert {"round_started", "pile_turned", "drew", "played", "round_ended", "game_ended"} <= codes
    for event in events:
        line = describe_event(event)
        assert line.endswith((".", "!")), line
        assert "{" not in line, line
