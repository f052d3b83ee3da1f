"""Deals, options, first dealer, scoring and sessions of Kings in the Corner."""

from __future__ import annotations

import random

import pytest
from kc_helpers import END, act, after, at, play

from engine.errors import IllegalActionError, OptionError
from engine.kings_corner import State, new_game
from engine.kings_corner.deal import dealer_events
from engine.playout import random_playout
from engine.registry import game_rules

RULES = game_rules("kings-corner")


# ----------------------------------------------------------------------------- deals


@pytest.mark.parametrize(
    ("seats", "deal"),
    [(2, 7), (4, 7), (6, 7), (2, 9), (3, 9), (2, 10), (4, 10), (2, 13), (3, 13), (5, 6), (6, 6)],
)
def test_each_seat_is_dealt_the_chosen_number_and_four_sides_turned_up(
    seats: int, deal: int
) -> None:
    state = new_game(seats, 11, {"deal": deal})
    assert state.hand_counts == (deal,) * seats
    assert [len(state.piles[name]) for name in ("N", "E", "S", "W")] == [1, 1, 1, 1]
    assert [state.piles[name] for name in ("NE", "SE", "SW", "NW")] == [()] * 4
    assert state.stock_count == 52 - seats * deal - 4
    state.check_invariants()


def test_the_default_deal_is_seven() -> None:
    assert new_game(3, 1).hand_counts == (7, 7, 7)


@pytest.mark.parametrize(("seats", "deal"), [(4, 9), (5, 9), (6, 9)])
def test_nine_cards_only_for_two_or_three(seats: int, deal: int) -> None:
    with pytest.raises(OptionError) as caught:
        new_game(seats, 1, {"deal": deal})
    assert caught.value.code == "deal_needs_two_or_three_seats"


@pytest.mark.parametrize(
    ("seats", "deal", "largest"), [(4, 13, 10), (5, 10, 7), (6, 10, 7), (5, 13, 7), (6, 13, 7)]
)
def test_a_deal_larger_than_the_deck_is_refused(seats: int, deal: int, largest: int) -> None:
    with pytest.raises(OptionError) as caught:
        new_game(seats, 1, {"deal": deal})
    assert caught.value.code == "deal_too_large"
    assert dict(caught.value.params) == {"deal": deal, "seats": seats, "maximum": largest}


@pytest.mark.parametrize("seats", [0, 1, 7, True])
def test_two_to_six_seats(seats: int) -> None:
    with pytest.raises(OptionError) as caught:
        new_game(seats, 1)
    assert caught.value.code == "bad_seat_count"


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"deal": 8}, "bad_option"),
        ({"draw": "sometimes"}, "bad_option"),
        ({"royal_kings": 1}, "bad_option"),
        ({"target": 0}, "bad_option"),
        ({"colour": "red"}, "unknown_option"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], code: str) -> None:
    with pytest.raises(OptionError) as caught:
        new_game(2, 1, options)
    assert caught.value.code == code


def test_a_bad_seed_is_refused() -> None:
    with pytest.raises(OptionError) as caught:
        new_game(2, 1.5, None)  # type: ignore[arg-type]
    assert caught.value.code == "bad_seed"


def test_thirteen_cards_and_no_draw_are_independent_options() -> None:
    drawing = new_game(3, 5, {"deal": 13})
    assert drawing.phase == "draw"
    assert drawing.stock_count == 52 - 39 - 4
    no_draw = new_game(3, 5, {"draw": "never"})
    assert (no_draw.phase, no_draw.hand_counts) == ("play", (7, 7, 7))


def test_kings_turned_up_at_the_deal_go_to_the_corners() -> None:
    cornered = 0
    for seed in range(60):
        state = new_game(4, seed, {"kings_to_corners": True})
        sides = [state.piles[name] for name in ("N", "E", "S", "W")]
        corners = [state.piles[name] for name in ("NE", "SE", "SW", "NW")]
        assert all(len(pile) == 1 and pile[0].rank != 13 for pile in sides)
        filled = [pile for pile in corners if pile]
        assert all(len(pile) == 1 and pile[0].rank == 13 for pile in filled)
        assert corners[: len(filled)] == filled  # NE first, then SE, SW, NW
        assert state.stock_count == 52 - 28 - 4 - len(filled)
        codes = [event.code for event in state.opening_events()]
        assert codes.count("king_to_corner_at_deal") == len(filled)
        cornered += len(filled)
    assert cornered > 0  # the seeds above do turn up Kings


def test_without_the_option_a_turned_up_king_stays_on_its_side() -> None:
    kings_on_sides = sum(
        1
        for seed in range(60)
        for name in ("N", "E", "S", "W")
        if new_game(4, seed).piles[name][0].rank == 13
    )
    assert kings_on_sides > 0


def test_a_game_is_a_pure_function_of_its_seed() -> None:
    assert new_game(4, 99).to_dict() == new_game(4, 99).to_dict()
    assert new_game(4, "table-7").to_dict() == new_game(4, "table-7").to_dict()
    assert new_game(4, 99).to_dict() != new_game(4, 100).to_dict()


# ----------------------------------------------------------------------------- first dealer


def test_the_highest_card_deals_first_and_the_player_to_its_left_starts() -> None:
    for seed in range(30):
        state = new_game(5, seed)
        final = state.setup.dealer_draws[-1]
        ranks = {seat: card % 13 for seat, card in final}
        assert ranks[state.dealer] == max(ranks.values())
        assert list(ranks.values()).count(max(ranks.values())) == 1
        assert state.current_seat == (state.dealer + 1) % 5


def test_players_tied_for_the_highest_card_draw_again() -> None:
    tied = [new_game(6, seed) for seed in range(80)]
    tied = [state for state in tied if len(state.setup.dealer_draws) > 1]
    assert tied, "some seed below 80 ties"
    state = tied[0]
    first, second = state.setup.dealer_draws[:2]
    best = max(card % 13 for _, card in first)
    assert [seat for seat, _ in second] == [seat for seat, card in first if card % 13 == best]
    codes = [event.code for event in state.opening_events()]
    assert codes.count("dealer_draw_tied") == len(state.setup.dealer_draws) - 1
    assert codes.count("dealer_draw") == sum(len(draw) for draw in state.setup.dealer_draws)


def test_the_first_dealer_may_be_chosen_at_random() -> None:
    dealers = {new_game(4, seed, {"first_dealer": "random"}).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    state = new_game(4, 3, {"first_dealer": "random"})
    assert state.setup.dealer_draws == ()
    assert state.opening_events()[0].code == "dealer_chosen"


def test_the_dealer_choice_is_shown_as_events() -> None:
    events = dealer_events(1, (((0, 0), (1, 12)),))
    assert [(e.code, e.seat, dict(e.params)) for e in events] == [
        ("dealer_draw", 0, {"card": "AC", "draw": 1}),
        ("dealer_draw", 1, {"card": "KC", "draw": 1}),
        ("dealer_chosen", 1, {"method": "high_card"}),
    ]


# ----------------------------------------------------------------------------- scoring


@pytest.mark.parametrize(
    ("scoring", "penalty"), [("kings_ten", 13), ("face_value", 19), ("alternate", 52)]
)
def test_cards_left_in_hand_score_penalties_by_scheme(scoring: str, penalty: int) -> None:
    state = after(
        at(f"9S/4D/5C/2H/-/-/-/- 8H/KS,QH,AD,7C * 0 play scoring={scoring}"), play("8H", "N")
    )
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.scores == (0, penalty)
    assert state.history[-1].penalties == (0, penalty)


def test_round_winners_of_a_blocked_round_all_score_nothing() -> None:
    state = after(at("9S/4D/5C/2H/-/-/-/- QS/KD/* - 2 play idle=2"), END)
    assert state.history[-1].winners == (0, 1)
    assert state.history[-1].penalties[:2] == (0, 0)
    assert state.history[-1].penalties[2] == 46 + 3 * 9  # 46 cards, three of them Kings


# ----------------------------------------------------------------------------- sessions


def test_a_session_goes_on_until_someone_reaches_the_target() -> None:
    state = after(at("9S/4D/5C/2H/-/-/-/- 8H/KS,QH,AD,7C * 0 play session=yes"), play("8H", "N"))
    assert (state.phase, state.scores, state.outcome()) == ("round_over", (0, 13), None)
    assert state.can_start_next_round()
    following, events = state.start_next_round()
    assert (following.round_number, following.dealer, following.current_seat) == (2, 1, 0)
    assert following.scores == (0, 13)
    assert following.hand_counts == (7, 7)
    assert following.history == state.history
    assert [e.code for e in events][:1] == ["round_started"]


def test_reaching_the_target_ends_the_session_lowest_total_wins() -> None:
    text = "9S/4D/5C/2H/-/-/-/- 8H/KS,QH,AD,7C * 0 play session=yes scores=5,20"
    state, events = act(at(text), play("8H", "N"))
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.winners, outcome.scores, outcome.reason) == ((0,), (5, 33), "target_reached")
    assert state.phase == "game_over"
    assert not state.can_start_next_round()
    assert events[-1].code == "game_ended"
    with pytest.raises(IllegalActionError) as caught:
        state.start_next_round()
    assert caught.value.code == "game_over"


def test_equal_lowest_totals_share_the_session() -> None:
    text = "9S/4D/5C/2H/-/-/-/- 8H/KS,QH,AD,7C * 0 play session=yes target=13 scores=13,0"
    outcome = after(at(text), play("8H", "N")).outcome()
    assert outcome is not None
    assert (outcome.winners, outcome.scores) == ((0, 1), (13, 13))


def test_any_target_may_be_set() -> None:
    text = "9S/4D/5C/2H/-/-/-/- 8H/KS,QH,AD,7C * 0 play session=yes target=250 scores=0,200"
    state = after(at(text), play("8H", "N"))
    assert state.can_start_next_round()


def test_without_a_session_one_round_is_the_whole_game() -> None:
    state = after(at("9S/4D/5C/2H/-/-/-/- 8H/KS * 0 play"), play("8H", "N"))
    assert not state.can_start_next_round()
    assert state.phase == "game_over"


def test_a_next_round_waits_for_the_end_of_this_one() -> None:
    with pytest.raises(IllegalActionError) as caught:
        new_game(3, 1, {"session": True}).start_next_round()
    assert caught.value.code == "round_not_over"


def test_the_deal_passes_clockwise_round_after_round() -> None:
    options = {"session": True, "target": 40}
    rounds: list[State] = []
    for step in random_playout(RULES, 3, 8, options, random.Random(8)):
        if step.seat is None:
            assert isinstance(step.state, State)
            rounds.append(step.state)
    first = new_game(3, 8, options)
    dealers = [first.dealer] + [state.dealer for state in rounds]
    assert len(dealers) > 2
    assert dealers == [(first.dealer + n) % 3 for n in range(len(dealers))]
    assert all(state.current_seat == (state.dealer + 1) % 3 for state in rounds)
    assert [state.round_number for state in rounds] == list(range(2, len(rounds) + 2))
