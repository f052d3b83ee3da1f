"""One scenario per rule of Kings in the Corner (rules.md section 1), each position one line.

Notation: ``<piles N/E/S/W/NE/SE/SW/NW> <hands> <stock> <seat> <phase> [options]``;
``*`` is every card not written elsewhere.
"""

from __future__ import annotations

from kc_helpers import DRAW, END, act, after, at, move, play, refusal, wires

from engine.kings_corner import State


def pile(state: State, name: str) -> list[str]:
    return [str(card) for card in state.piles[name]]


def hand(state: State, seat: int) -> list[str]:
    return [str(card) for card in state.hand(seat)]


# ----------------------------------------------------------------------------- building


def test_a_card_goes_on_a_top_one_rank_higher_of_the_other_colour() -> None:
    state, events = act(at("9S/KD/5C/2H/-/-/-/- 8H,8C,7H/4D * 0 play"), play("8H", "N"))
    assert pile(state, "N") == ["9S", "8H"]
    assert hand(state, 0) == ["8C", "7H"]
    assert [(e.code, dict(e.params)) for e in events] == [("played", {"card": "8H", "pile": "N"})]


def test_a_card_of_the_same_colour_is_refused() -> None:
    error = refusal(at("9S/KD/5C/2H/-/-/-/- 8H,8C,7H/4D * 0 play"), play("8C", "N"))
    assert (error.code, dict(error.params)) == (
        "same_colour",
        {"card": "8C", "top": "9S", "pile": "N"},
    )


def test_a_card_not_one_rank_lower_is_refused() -> None:
    error = refusal(at("9S/KD/5C/2H/-/-/-/- 8H,8C,7H/4D * 0 play"), play("7H", "N"))
    assert error.code == "not_one_lower"
    assert dict(error.params) == {"card": "7H", "top": "9S", "pile": "N"}


def test_nothing_goes_on_an_ace() -> None:
    state = at("AS/KD/5C/2H/-/-/-/- AH,2D,KS/4D * 0 play")
    assert refusal(state, play("AH", "N")).code == "not_one_lower"
    assert all(w.get("pile") != "N" for w in wires(state))


def test_corners_are_built_like_side_piles() -> None:
    state = after(at("9S/4D/5C/2H/KD/-/-/- QS,QH,7H/3C * 0 play"), play("QS", "NE"))
    assert pile(state, "NE") == ["KD", "QS"]
    assert refusal(state, play("QH", "NE")).code == "not_one_lower"


# ----------------------------------------------------------------------------- empty spots


def test_an_empty_corner_takes_only_a_king() -> None:
    state = at("9S/4D/5C/2H/-/-/-/- KD,QS,7H/3C * 0 play")
    error = refusal(state, play("QS", "NE"))
    assert (error.code, dict(error.params)) == ("corner_needs_king", {"card": "QS", "pile": "NE"})
    state, events = act(state, play("KD", "SW"))
    assert pile(state, "SW") == ["KD"]
    assert events[0].code == "king_to_corner"


def test_an_empty_side_spot_takes_any_card_a_king_too() -> None:
    state = at("-/4D/5C/2H/-/-/-/- KD,QS,7H/3C * 0 play")
    assert {w["card"] for w in wires(state) if w.get("pile") == "N"} == {"KD", "QS", "7H"}
    state, events = act(state, play("7H", "N"))
    assert pile(state, "N") == ["7H"]
    assert events[0].code == "filled"
    assert pile(after(at("-/4D/5C/2H/-/-/-/- KD,QS,7H/3C * 0 play"), play("KD", "N")), "N") == [
        "KD"
    ]


# ----------------------------------------------------------------------------- moving piles


def test_a_whole_pile_moves_onto_a_top_one_higher_than_its_bottom() -> None:
    state, events = act(at("9C/8H,7S/5C/2H/-/-/-/- 3D/4D * 0 play"), move("E", "N"))
    assert pile(state, "N") == ["9C", "8H", "7S"]
    assert pile(state, "E") == []
    assert events[0].code == "moved"
    # The spot it leaves is empty and takes any card.
    assert play("3D", "E") in wires(state)


def test_the_moved_pile_must_fit_by_its_bottom_card() -> None:
    # 7S (E's top) would fit on 8D, but E's bottom 8H does not: partial piles never move.
    state = at("8D/8H,7S/5C/2H/-/-/-/- 3D/4D * 0 play")
    error = refusal(state, move("E", "N"))
    assert (error.code, dict(error.params)) == (
        "not_one_lower",
        {"card": "8H", "top": "8D", "from": "E", "to": "N"},
    )
    assert not [w for w in wires(state) if w["type"] == "move"]


def test_moving_onto_same_colour_is_refused() -> None:
    assert refusal(at("9D/8H,7S/5C/2H/-/-/-/- 3D/4D * 0 play"), move("E", "N")).code == (
        "same_colour"
    )


def test_a_pile_never_moves_onto_an_empty_side_spot() -> None:
    error = refusal(at("-/8H,7S/5C/2H/-/-/-/- 3D/4D * 0 play"), move("E", "N"))
    assert (error.code, error.params["reason"]) == ("cannot_move_pile", "empty_side")


def test_moving_an_empty_pile_or_onto_itself_is_refused() -> None:
    state = at("-/8H,7S/5C/2H/-/-/-/- 3D/4D * 0 play")
    assert dict(refusal(state, move("N", "E")).params) == {"pile": "N"}
    assert refusal(state, move("N", "E")).code == "pile_empty"
    assert refusal(state, move("E", "E")).params["reason"] == "same_pile"


def test_a_king_bottomed_side_pile_may_move_into_an_empty_corner() -> None:
    state, events = act(at("KS,QH/4D/5C/2H/-/-/-/- 3D/4C * 0 play"), move("N", "SE"))
    assert pile(state, "SE") == ["KS", "QH"]
    assert pile(state, "N") == []
    assert events[0].code == "moved_to_corner"


def test_the_king_pile_move_can_be_switched_off() -> None:
    state = at("KS,QH/6C/5C/2H/-/-/-/- 3D/4C * 0 play king_pile_to_corner=no")
    assert refusal(state, move("N", "SE")).params["reason"] == "option_off"
    assert not [w for w in wires(state) if w["type"] == "move"]


def test_a_corner_pile_never_moves_to_another_corner() -> None:
    state = at("9S/4D/5C/2H/KS,QH/-/-/- 3D/4C * 0 play")
    assert refusal(state, move("NE", "SE")).params["reason"] == "corner_to_corner"


def test_only_a_king_bottomed_pile_goes_into_a_corner() -> None:
    error = refusal(at("QS,JH/4D/5C/2H/-/-/-/- 3D/4C * 0 play"), move("N", "SE"))
    assert (error.code, dict(error.params)) == ("corner_needs_king", {"card": "QS", "pile": "SE"})


# ----------------------------------------------------------------------------- drawing


def test_draw_at_the_start_of_the_turn_comes_first() -> None:
    state = at("9S/4D/5C/2H/-/-/-/- 8H,3D/4C 7C,* 0 draw")
    assert wires(state) == [DRAW]
    assert refusal(state, play("8H", "N")).code == "must_draw_first"
    assert refusal(state, END).code == "must_draw_first"
    state, events = act(state, DRAW)
    assert hand(state, 0) == ["7C", "3D", "8H"]
    assert (events[0].code, dict(events[0].params), dict(events[0].secret)) == (
        "drew",
        {},
        {"card": "7C"},
    )
    assert state.phase == "play"
    assert refusal(state, DRAW).code == "already_drew"
    state = after(state, END)
    assert (state.current_seat, state.phase) == (1, "draw")


def test_draw_at_the_end_ends_the_turn() -> None:
    state = at("9S/4D/5C/2H/-/-/-/- 8H,3D/4C 7C,* 0 play draw=end")
    assert refusal(state, END).code == "must_draw_to_end_turn"
    assert wires(state)[-1] == DRAW
    state = after(state, play("8H", "N"), DRAW)
    assert hand(state, 0) == ["7C", "3D"]
    assert (state.current_seat, state.phase) == (1, "play")


def test_no_draw_rule_never_draws() -> None:
    state = at("9S/4D/5C/2H/-/-/-/- 8H,3D/4C 7C,* 0 play draw=never")
    assert refusal(state, DRAW).code == "no_draw_rule"
    assert wires(state)[-1] == END
    state = after(state, END)
    assert (state.current_seat, state.phase, state.stock_count) == (1, "play", 45)


def test_the_stock_is_never_reshuffled_an_empty_stock_means_no_draw() -> None:
    state = at("9S/4D/5C/2H/-/-/-/- 8H,3D/* - 1 play acted=yes")
    state = after(state, END)
    assert (state.current_seat, state.phase, state.stock_count) == (0, "play", 0)
    assert refusal(state, DRAW).code == "stock_empty"
    assert refusal(at("9S/4D/5C/2H/-/-/-/- 8H,3D/* - 0 play draw=end"), DRAW).code == "stock_empty"
    assert wires(at("9S/4D/5C/2H/-/-/-/- 8H,3D/* - 0 play draw=end"))[-1] == END


def test_the_last_card_of_the_stock_is_drawn_then_none() -> None:
    state = after(at("9S/4D/5C/2H/-/-/-/- 3D/* 8H 0 draw"), DRAW, END)
    assert (state.stock_count, state.current_seat, state.phase) == (0, 1, "play")


# ----------------------------------------------------------------------------- ending a round


def test_playing_the_last_card_wins_the_round_at_once() -> None:
    state, events = act(at("9S/4D/5C/2H/-/-/-/- 8H/KS,QH,AD,7C * 0 play"), play("8H", "N"))
    assert state.current_seat is None
    assert [e.code for e in events] == ["played", "went_out", "round_ended", "game_ended"]
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.winners, outcome.reason) == ((0,), "went_out")
    assert outcome.scores == (0, 13)
    assert refusal(state, END, seat=1).code == "round_over"
    assert state.legal_actions(0) == state.legal_actions(1) == ()


def test_a_full_circle_of_idle_turns_blocks_the_round_fewest_cards_win() -> None:
    state = at("9S/4D/5C/2H/-/-/-/- 8H,3D/QS/* - 2 play idle=2")
    state, events = act(state, END)
    assert [e.code for e in events] == ["round_blocked", "round_ended", "game_ended"]
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.winners, outcome.reason) == ((1,), "blocked")


def test_a_blocked_round_with_tied_hands_is_a_shared_win() -> None:
    state = after(at("9S/4D/5C/2H/-/-/-/- QS/3D/* - 2 play idle=2"), END)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (0, 1)


def test_a_round_is_not_blocked_before_the_circle_closes() -> None:
    state = after(at("9S/4D/5C/2H/-/-/-/- 8H,3D/QS/* - 2 play"), END)
    assert (state.current_seat, state.idle_turns) == (0, 1)
    state = after(state, END)
    assert (state.current_seat, state.idle_turns) == (1, 2)


def test_a_card_played_starts_the_circle_again() -> None:
    state = after(at("9S/4D/5C/2H/-/-/-/- 8H,3D/QS/* - 0 play idle=2"), play("8H", "N"), END)
    assert (state.current_seat, state.idle_turns) == (1, 0)


def test_a_draw_is_not_an_idle_turn() -> None:
    state = after(at("9S/4D/5C/2H/-/-/-/- 3D/QS/* 8H 2 draw idle=2"), DRAW, END)
    assert (state.current_seat, state.idle_turns) == (0, 0)


# ----------------------------------------------------------------------------- options


def test_mandatory_kings_must_go_to_a_corner_first() -> None:
    state = at("9S/4D/5C/2H/-/KC/KH/KS 8H,KD,3D/4C * 0 play mandatory_kings=yes")
    assert wires(state) == [play("KD", "NE")]
    assert refusal(state, play("8H", "N")).code == "must_play_king"
    assert dict(refusal(state, END).params) == {"kings": ["KD"]}
    state = after(state, play("KD", "NE"))
    assert play("8H", "N") in wires(state)
    assert wires(state)[-1] == END


def test_mandatory_kings_a_drawn_king_goes_at_once() -> None:
    state = after(at("9S/4D/5C/2H/-/-/-/- 8H,3D/4C KD,* 0 draw mandatory_kings=yes"), DRAW)
    assert {w["card"] for w in wires(state)} == {"KD"}
    assert {w["pile"] for w in wires(state)} == {"NE", "SE", "SW", "NW"}


def test_mandatory_kings_needs_an_empty_corner() -> None:
    state = at("9S/4D/5C/2H/KC/KH/KS/KD,QS 8H,3D/4C * 0 play mandatory_kings=yes")
    assert play("8H", "N") in wires(state)
    state = at("9S/4D/5C/2H/-/-/-/- 8H,KD/4C * 0 play")  # the option is off by default
    assert END in wires(state)


def test_royal_kings_a_king_in_a_corner_earns_an_extra_turn() -> None:
    state = after(at("9S/4D/5C/2H/-/-/-/- 8H,KD/4C * 0 play royal_kings=yes"), play("KD", "NE"))
    state, events = act(state, END)
    assert [e.code for e in events] == ["extra_turn", "turn_ended"]
    assert (state.current_seat, state.phase) == (0, "draw")
    state = after(state, DRAW, END)  # the extra turn earns no other
    assert state.current_seat == 1


def test_royal_kings_a_king_on_a_side_spot_earns_nothing() -> None:
    state = after(at("-/4D/5C/2H/-/-/-/- 8H,KD/4C * 0 play royal_kings=yes"), play("KD", "N"), END)
    assert state.current_seat == 1


def test_without_royal_kings_a_corner_king_earns_nothing() -> None:
    state = after(at("9S/4D/5C/2H/-/-/-/- 8H,KD/4C * 0 play"), play("KD", "NE"), END)
    assert state.current_seat == 1


def test_turns_pass_clockwise_and_wrap() -> None:
    state = after(at("9S/4D/5C/2H/-/-/-/- 8H/3D/* - 2 play"), END)
    assert state.current_seat == 0
