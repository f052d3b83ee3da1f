"""A turn, rule by rule, each from a one-line position (rules.md section 2, "A turn")."""

from __future__ import annotations

from typing import Any

import pytest

from engine.cards import parse_card
from engine.errors import ActionSyntaxError, IllegalActionError, OptionError
from engine.five_crowns import Discard, Draw, GoOut, new_game, parse_action, parse_position
from engine.five_crowns.state import FiveCrownsState
from engine.game import Event

# Round 1: three cards each, threes wild. Seat 0 to play.
START = "fc round=1 dealer=2 turn=0 | hands: 4H 5H 9C / 7D 8S KT / QC QD 10S | discard: 6H"


def play(state: FiveCrownsState, seat: int, wire: dict[str, Any]) -> tuple[Any, list[Event]]:
    after, events = state.apply(seat, wire)
    after.check_invariants()
    return after, list(events)


def refusal(state: FiveCrownsState, seat: int, wire: dict[str, Any]) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        state.apply(seat, wire)
    return caught.value


def test_draw_from_the_stock_takes_its_top_card_in_secret() -> None:
    state = parse_position(START + " | stock: 9D ...")
    after, events = play(state, 0, {"type": "draw", "source": "stock"})
    assert parse_card("9D") in after.hands[0]
    assert len(after.stock) == len(state.stock) - 1
    assert after.phase == "discard"
    (drew,) = events
    assert drew.params == {"source": "stock"} and drew.secret == {"card": "9D"}
    assert drew.for_seat(1)["params"] == {"source": "stock"}  # others never see it


def test_draw_from_the_discard_pile_is_public() -> None:
    state = parse_position(START)
    after, events = play(state, 0, {"type": "draw", "source": "discard"})
    assert after.hands[0] == tuple(map(parse_card, ["4H", "5H", "6H", "9C"]))
    assert after.discard == () and after.taken == parse_card("6H")
    assert events[0].params == {"source": "discard", "card": "6H"}


def test_discard_ends_the_turn_and_passes_left() -> None:
    state = parse_position(START)
    state, _ = play(state, 0, {"type": "draw", "source": "stock"})
    after, events = play(state, 0, {"type": "discard", "card": "9C"})
    assert after.discard[-1] == parse_card("9C")
    assert (after.turn, after.phase) == (1, "draw")
    assert [event.code for event in events] == ["discarded"]


def test_a_card_taken_from_the_discard_pile_cannot_go_straight_back() -> None:
    state, _ = play(parse_position(START), 0, {"type": "draw", "source": "discard"})
    error = refusal(state, 0, {"type": "discard", "card": "6H"})
    assert error.code == "cannot_discard_taken_card" and error.params == {"card": "6H"}
    assert Discard(parse_card("6H")) not in state.legal_actions(0)
    # the option lifts the rule
    allowed = parse_position(START.replace("turn=0", "turn=0 discard_taken=yes"))
    allowed, _ = play(allowed, 0, {"type": "draw", "source": "discard"})
    after, _ = play(allowed, 0, {"type": "discard", "card": "6H"})
    assert after.discard == (parse_card("6H"),)


def test_an_identical_twin_of_the_taken_card_counts_as_the_taken_card() -> None:
    state = parse_position(START.replace("4H 5H 9C", "4H 6H 9C"))
    state, _ = play(state, 0, {"type": "draw", "source": "discard"})
    assert refusal(state, 0, {"type": "discard", "card": "6H"}).code == (
        "cannot_discard_taken_card"
    )


def test_a_hand_of_nothing_but_the_taken_card_may_throw_it_back() -> None:
    hands = " / ".join(["6H 6H 6H"] + [f"{r}C {r}D {r}S" for r in range(4, 11)])
    state = parse_position(f"fc packs=2 dealer=7 turn=0 | hands: {hands} | discard: 6H")
    state, _ = play(state, 0, {"type": "draw", "source": "discard"})
    assert state.legal_actions(0)[0] == Discard(parse_card("6H"))


def test_wilds_and_jokers_may_be_discarded() -> None:
    state = parse_position(START.replace("9C", "JK") + " | stock: 3S ...")
    state, _ = play(state, 0, {"type": "draw", "source": "stock"})
    after, _ = play(state, 0, {"type": "discard", "card": "JK"})
    assert after.discard[-1] == parse_card("JK")
    after, _ = play(state, 0, {"type": "discard", "card": "3S"})  # 3s are wild in round 1
    assert after.discard[-1] == parse_card("3S")


def test_going_out_needs_the_rest_of_the_hand_to_meld() -> None:
    state, _ = play(parse_position(START), 0, {"type": "draw", "source": "discard"})
    error = refusal(state, 0, {"type": "go_out", "discard": "4H"})
    assert error.code == "cannot_go_out"
    assert error.params["penalty"] == 5 + 6 + 9 and error.params["card"] == "4H"
    after, events = play(state, 0, {"type": "go_out", "discard": "9C"})
    assert after.went_out == 0 and after.turn == 1
    (out,) = events
    assert out.code == "went_out"
    assert out.params == {"card": "9C", "melds": [{"kind": "run", "cards": ["4H", "5H", "6H"]}]}


def test_legal_actions_list_draws_then_discards_then_ways_out_once_each() -> None:
    state = parse_position(START.replace("4H 5H 9C", "4H 5H 5H") + " | stock: 6H ...")
    assert [a.to_wire() for a in state.legal_actions(0)] == [
        {"type": "draw", "source": "stock"},
        {"type": "draw", "source": "discard"},
    ]
    assert state.legal_actions(1) == ()
    state, _ = play(state, 0, {"type": "draw", "source": "stock"})
    assert state.legal_actions(0) == (
        Discard(parse_card("4H")),
        Discard(parse_card("5H")),
        Discard(parse_card("6H")),
        GoOut(parse_card("5H")),
    )


@pytest.mark.parametrize(
    ("position", "seat", "wire", "code"),
    [
        (START, 1, {"type": "draw", "source": "stock"}, "not_your_turn"),
        (START, 0, {"type": "discard", "card": "9C"}, "must_draw_first"),
        (START, 0, {"type": "go_out", "discard": "9C"}, "must_draw_first"),
        (
            START.replace("discard: 6H", "discard: -"),
            0,
            {"type": "draw", "source": "discard"},
            "discard_empty",
        ),
        (START + " | stock: -", 0, {"type": "draw", "source": "stock"}, "stock_empty"),
        (START, 7, {"type": "draw", "source": "stock"}, "bad_seat"),
    ],
)
def test_refusals_in_the_draw_phase(
    position: str, seat: int, wire: dict[str, Any], code: str
) -> None:
    if "stock: -" in position:  # every card must be somewhere: put the rest in the pile
        position = position.replace("discard: 6H", "discard: ... 6H")
    assert refusal(parse_position(position), seat, wire).code == code


def test_refusals_in_the_discard_phase() -> None:
    state, _ = play(parse_position(START), 0, {"type": "draw", "source": "stock"})
    assert refusal(state, 0, {"type": "draw", "source": "stock"}).code == "already_drew"
    error = refusal(state, 0, {"type": "discard", "card": "KS"})
    assert (error.code, dict(error.params)) == ("card_not_in_hand", {"card": "KS"})
    assert refusal(state, 2, {"type": "discard", "card": "QC"}).params == {
        "seat": 2,
        "current_seat": 0,
    }


def test_a_refusal_leaves_the_state_as_it_was() -> None:
    state = parse_position(START)
    before = state.to_dict()
    refusal(state, 0, {"type": "discard", "card": "9C"})
    assert state.to_dict() == before


def test_actions_parse_from_their_wire_form_and_back() -> None:
    for action in (
        Draw("stock"),
        Draw("discard"),
        Discard(parse_card("10T")),
        GoOut(parse_card("JK")),
    ):
        assert parse_action(action.to_wire()) == action
    assert parse_action({"type": "discard", "card": "ts"}) == Discard(parse_card("10S"))


@pytest.mark.parametrize(
    ("wire", "code"),
    [
        ({"type": "fly"}, "bad_action"),
        ({"source": "stock"}, "bad_action"),
        ({"type": "draw", "source": "deck"}, "bad_action"),
        ({"type": "draw"}, "bad_action"),
        ({"type": "draw", "source": "stock", "extra": 1}, "bad_action"),
        ({"type": "discard", "card": "2H"}, "bad_card"),  # no 2s in Five Crowns
        ({"type": "discard", "card": "AH"}, "bad_card"),
        ({"type": "discard", "card": "7X"}, "bad_card"),
        ({"type": "go_out", "discard": 7}, "bad_card"),
    ],
)
def test_unreadable_actions(wire: dict[str, Any], code: str) -> None:
    with pytest.raises(ActionSyntaxError) as caught:
        parse_action(wire)
    assert caught.value.code == code
    with pytest.raises(ActionSyntaxError):
        parse_position(START).apply(0, wire)


@pytest.mark.parametrize(
    ("seats", "options", "code"),
    [
        (0, None, "bad_seat_count"),
        (15, {"packs": 2}, "bad_seat_count"),
        (8, None, "seats_need_two_packs"),
        (7, {"packs": 2}, "two_packs_need_more_seats"),
        (3, {"start_round": 12}, "bad_option"),
        (3, {"express": True}, "unknown_option"),
        (3, {"discard_taken": 1}, "bad_option"),
    ],
)
def test_refused_tables(seats: int, options: dict[str, Any] | None, code: str) -> None:
    with pytest.raises(OptionError) as caught:
        new_game(seats, 1, options)
    assert caught.value.code == code
