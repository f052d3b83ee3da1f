"""Views, stored forms (dict and one-line position), sentences, and the package's face."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.errors import IllegalActionError, RuleError
from engine.five_crowns import describe_event, new_game, parse_position, state_from_dict
from engine.game import Event, GameState
from engine.registry import game_rules

MID = "fc round=1 dealer=2 turn=0 | hands: 4H 5H 9C / 7D 8S KT / QC QD 10S | discard: 6H"


def test_the_package_is_what_the_registry_expects() -> None:
    rules = game_rules("five-crowns")
    assert (rules.NAME, rules.MIN_SEATS, rules.MAX_SEATS) == ("five-crowns", 1, 14)
    assert {spec.name for spec in rules.OPTIONS} == {
        "packs",
        "start_round",
        "discard_taken",
        "tiebreak",
        "reshuffle",
        "solo_turns",
    }
    assert isinstance(rules.new_game(2, 1), GameState)


def test_the_tv_sees_counts_and_the_discard_top_but_no_hand() -> None:
    view = parse_position(MID).view_for(None)
    assert "hand" not in view and "legal_actions" not in view
    assert view["hand_counts"] == [3, 3, 3] and view["stock_count"] == 116 - 10
    assert view["discard_top"] == "6H" and view["discard_count"] == 1
    assert (view["phase"], view["round"], view["wild_rank"], view["cards_dealt"]) == (
        "draw",
        1,
        3,
        3,
    )
    assert (view["dealer"], view["current_seat"], view["went_out"]) == (2, 0, None)
    text = json.dumps(view)
    for secret in ("4H", "9C", "7D", "KT", "QC"):
        assert f'"{secret}"' not in text


def test_a_seat_sees_its_sorted_hand_its_actions_and_a_hint() -> None:
    state = parse_position(MID)
    view = state.view_for(0)
    assert view["hand"] == ["4H", "5H", "9C"]
    assert view["legal_actions"] == [
        {"type": "draw", "source": "stock"},
        {"type": "draw", "source": "discard"},
    ]
    assert view["hint"] == {"penalty": 4 + 5 + 9}
    assert state.view_for(1)["legal_actions"] == []
    after, _ = state.apply(0, {"type": "draw", "source": "discard"})
    assert after.view_for(0)["hint"] == {"penalty": 0, "discard": "9C", "can_go_out": True}
    assert after.view_for(None)["taken_from_discard"] == "6H"


def test_a_view_for_no_such_seat_is_refused() -> None:
    with pytest.raises(IllegalActionError) as caught:
        parse_position(MID).view_for(3)
    assert caught.value.code == "bad_seat"


POSITIONS = [
    MID,
    MID.replace("turn=0", 'turn=1 reshuffles=2 seed="two\\u0020words" tiebreak=extra_round'),
    "fc round=1 dealer=2 turn=1 out=0 | hands: 4H 5H 6H / 7D 8S KT / QC QD 10S | discard: 9C",
    "fc round=1 dealer=2 phase=round_over out=0 | hands: 4H 5H 6H / 8S 9S KH / QC QD 10S",
    "fc round=2 dealer=0 turn=2 | hands: 4H 5H 6H 7H / 8S 9S KH 3D / QC QD 10S 3S"
    " / 9D 9C 9T JK | discard: ... 10T | stock: 5C 5D | history: 0 30 0 41"
    " | last: round=1 out=0 4H 5H 6H / 10H JC 9S / 7C 7D 7S / 10D JS 3C",
]


@pytest.mark.parametrize("position", POSITIONS)
def test_dict_and_position_forms_round_trip(position: str) -> None:
    state = parse_position(position)
    assert state_from_dict(json.loads(json.dumps(state.to_dict()))) == state
    assert parse_position(state.to_position()) == state


def test_a_fresh_game_round_trips_too() -> None:
    state = new_game(5, 2024, {"start_round": 6})
    assert state_from_dict(state.to_dict()) == state
    assert parse_position(state.to_position()) == state


def broken(change: dict[str, Any]) -> str:
    data = parse_position(MID).to_dict()
    data.update(change)
    with pytest.raises(RuleError) as caught:
        state_from_dict(data)
    assert caught.value.code in ("bad_state", "bad_seat_count")
    return str(caught.value.params.get("reason"))


def test_inconsistent_states_are_refused_with_a_reason() -> None:
    data = parse_position(MID).to_dict()
    assert broken({"game": "kings-corner"}) == "game"
    assert broken({"stock": data["stock"][1:]}) == "cards"  # a card went missing
    assert (
        broken({"hands": [["4H", "5H"], *data["hands"][1:]], "stock": ["9C", *data["stock"]]})
        == "hands"
    )
    assert broken({"phase": "dancing"}) == "round"
    assert broken({"turn": 5}) == "turn"
    assert broken({"taken": "6H"}) == "taken"
    assert broken({"went_out": 1}) == "went_out"
    assert broken({"history": [[0, 0, 0]]}) == "history"
    assert broken({"hands": "nope"}) == "hands"
    assert broken({"stock": None}) == "cards"
    assert broken({"last_round": {"round": 1}}) == "shape"
    last = {"round": 1, "went_out": None, "hands": [["4H", "5H", "9C"], [], []]}
    assert broken({"last_round": last}) == "last_round"


@pytest.mark.parametrize(
    "text",
    [
        "fc round=1 | stock: ...",  # no hands
        "fc round=1 colour=red | hands: 4H 5H 9C",
        "fc | hands: 4H 5H 9X",
        "fc | hands: 4H 5H 9C | pile: 7C",
        "fc | hands: 4H 5H 9C | stock: ... | discard: ... 7C",
    ],
)
def test_unreadable_positions(text: str) -> None:
    with pytest.raises(RuleError) as caught:
        parse_position(text)
    assert caught.value.code == "bad_position"


def test_events_read_as_plain_english() -> None:
    state = parse_position(MID + " | stock: 9D ...")
    state, drew = state.apply(0, {"type": "draw", "source": "stock"})
    state, discarded = state.apply(0, {"type": "discard", "card": "9C"})
    state, took = state.apply(1, {"type": "draw", "source": "discard"})
    assert [describe_event(e) for e in (*drew, *discarded, *took)] == [
        "Seat 0 draws from the stock.",
        "Seat 0 discards the 9 of clubs.",
        "Seat 1 takes the 9 of clubs from the discard pile.",
    ]
    started = Event(
        "round_started",
        params={
            "round": 11,
            "cards_dealt": 13,
            "wild_rank": 13,
            "dealer": 0,
            "first_seat": 1,
            "players": [1, 0],
            "discard_top": "QT",
        },
    )
    assert describe_event(started) == (
        "Round 11: 13 cards each, kings and jokers are wild. Seat 0 deals; Seat 1 starts. "
        "The queen of stars starts the discard pile."
    )
    over = Event(
        "game_over", params={"winners": [0, 2], "scores": [5, 9, 5], "reason": "lowest_total"}
    )
    assert describe_event(over) == "Game over: Seat 0 and Seat 2 share the win with 5 points."
    assert describe_event(Event("went_out", 2, {"card": "JK", "melds": []})) == (
        "Seat 2 goes out, discarding the joker! Everyone else has one last turn."
    )
