"""Rounds and the game: deal, last turns, reshuffles, scoring, the end, ties, solo."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.cards import parse_card, parse_cards
from engine.errors import IllegalActionError
from engine.five_crowns import new_game, parse_position
from engine.five_crowns.deck import full_deck
from engine.five_crowns.state import FiveCrownsState
from engine.game import Event
from engine.rng import shuffled

DRAW_STOCK = {"type": "draw", "source": "stock"}


def play(state: FiveCrownsState, seat: int, wire: dict[str, Any]) -> tuple[Any, list[Event]]:
    after, events = state.apply(seat, wire)
    after.check_invariants()
    return after, list(events)


def turn(state: FiveCrownsState, seat: int, card: str) -> tuple[Any, list[Event]]:
    """Draw from the stock, then discard ``card``."""
    state, first = play(state, seat, DRAW_STOCK)
    state, second = play(state, seat, {"type": "discard", "card": card})
    return state, first + second


@pytest.mark.parametrize("start_round", range(1, 12))
def test_round_r_deals_r_plus_2_cards_and_that_rank_is_wild(start_round: int) -> None:
    state = new_game(4, start_round, {"start_round": start_round})
    state.check_invariants()
    dealt = start_round + 2
    assert (state.round, state.cards_dealt, state.wild_rank) == (start_round, dealt, dealt)
    assert [len(hand) for hand in state.hands] == [dealt] * 4
    assert len(state.discard) == 1
    assert len(state.stock) == 116 - 4 * dealt - 1
    assert state.turn == (state.dealer + 1) % 4  # left of the dealer starts


def test_two_packs_hold_232_cards_for_up_to_14_players() -> None:
    state = new_game(14, "big table", {"packs": 2, "start_round": 11})
    state.check_invariants()
    cards = [c for hand in state.hands for c in hand] + [*state.stock, *state.discard]
    assert Counter(cards) == Counter(full_deck(2))
    assert len(cards) == 232 and cards.count(parse_card("JK")) == 12


def test_the_deal_depends_on_the_seed_only() -> None:
    assert new_game(3, 11).to_dict() == new_game(3, 11).to_dict()
    assert new_game(3, 11).hands != new_game(3, 12).hands


# Round 1, threes wild. Seat 0 holds a run and goes out; seats 1 and 2 have one last turn.
LAST = (
    "fc round=1 dealer=2 turn=0 phase=discard | hands: 4H 5H 6H 9C / JK 8S 9S / QC QD 10S"
    " | discard: 8T | stock: 5D 10C ..."
)


def test_after_going_out_everyone_else_has_exactly_one_last_turn() -> None:
    state, _ = play(parse_position(LAST), 0, {"type": "go_out", "discard": "9C"})
    view = state.view_for(None)
    assert view["last_turn"] and view["last_turns_left"] == 2 and view["went_out"] == 0
    assert view["laid_down"] == [{"kind": "run", "cards": ["4H", "5H", "6H"]}]
    state, _ = turn(state, 1, "5D")
    assert state.view_for(None)["last_turns_left"] == 1
    state, events = turn(state, 2, "10C")
    assert state.phase == "round_over" and state.turn is None
    assert [e.code for e in events] == ["drew", "discarded", "round_ended"]
    # 8S 9S JK is a run; QC QD 10S is left: 12 + 12 + 10
    assert state.history == ((0, 0, 34),)
    results = events[-1].params["results"]
    assert results[1]["melds"] == [{"kind": "run", "cards": ["8S", "9S", "JK"]}]
    assert results[2] == {
        "seat": 2,
        "melds": [],
        "leftover": ["QD", "QC", "10S"],
        "penalty": 34,
    }  # leftovers in hand order: H D C S T


def test_a_player_in_the_last_turn_may_lay_everything_down_too() -> None:
    state, _ = play(parse_position(LAST), 0, {"type": "go_out", "discard": "9C"})
    state, _ = play(state, 1, DRAW_STOCK)
    state, events = play(state, 1, {"type": "go_out", "discard": "5D"})
    assert events[0].code == "laid_down" and state.went_out == 0


def test_round_end_scores_leftovers_wilds_and_jokers() -> None:
    # seat 1 keeps JK 7D 9S (no meld): 50 + 7 + 9; seat 2 keeps 3C 10D QS: 20 + 10 + 12
    position = LAST.replace("JK 8S 9S", "JK 7D 9S").replace("QC QD 10S", "3C 10D QS")
    state, _ = play(parse_position(position), 0, {"type": "go_out", "discard": "9C"})
    state, _ = turn(state, 1, "5D")
    state, _ = turn(state, 2, "10C")
    assert state.history == ((0, 66, 42),)
    assert state.totals() == (0, 66, 42)


def test_the_next_round_deals_one_more_card_from_the_next_dealer() -> None:
    state, _ = play(parse_position(LAST), 0, {"type": "go_out", "discard": "9C"})
    state, _ = turn(state, 1, "5D")
    state, _ = turn(state, 2, "10C")
    with pytest.raises(IllegalActionError) as caught:
        state.apply(0, DRAW_STOCK)
    assert caught.value.code == "round_over"
    assert state.can_start_next_round()
    state, events = state.start_next_round()
    state.check_invariants()
    assert (state.round, state.dealer, state.turn, state.cards_dealt) == (2, 0, 1, 4)
    assert state.history == ((0, 0, 34),) and state.last_round is not None
    assert [e.code for e in events] == ["round_started", "dealt", "dealt", "dealt"]
    assert events[1].secret["hand"] and not events[1].for_seat(None)["params"].get("hand")
    results = state.view_for(None)["last_round"]["results"]
    assert [r["penalty"] for r in results] == [0, 0, 34]


# The stock's last card is drawn: at the end of that turn the pile becomes the new stock.
EMPTYING = "fc round=1 dealer=2 turn=0 | hands: 4H 5H 9C / 7D 8S KT / QC QD 10S | discard: ... 6H"


def test_an_empty_stock_is_rebuilt_from_the_whole_pile_with_a_new_top_card() -> None:
    state = parse_position(EMPTYING + " | stock: 9D")
    pile = state.discard
    state, events = turn(state, 0, "9C")
    assert [e.code for e in events] == ["drew", "discarded", "reshuffled"]
    new_order = shuffled((*pile, parse_card("9C")), 0, "reshuffle-1-1")
    assert state.discard == (new_order[0],) and state.stock == tuple(new_order[1:])
    assert state.reshuffles == 1
    assert events[-1].params == {
        "stock_count": len(state.stock),
        "discard_top": str(new_order[0]),
        "number": 1,
    }


def test_keep_top_variant_reshuffles_the_pile_less_its_top_card() -> None:
    state = parse_position(EMPTYING.replace("turn=0", "turn=0 reshuffle=keep_top") + " | stock: 9D")
    pile = state.discard
    state, _ = turn(state, 0, "9C")
    assert state.discard == (parse_card("9C"),)
    assert state.stock == tuple(shuffled(pile, 0, "reshuffle-1-1"))


# Round 11 alone (kings wild), three players; seat 0 holds 14 cards and goes out.
FINAL = (
    "fc round=11 start_round=11 dealer=2 turn=0 phase=discard {options}"
    " | hands: 3H 4H 5H 6D 7D 8D 9C 10C JC QS QT QH QC 4S"
    " / 3S 3T 3C 5S 6S 7S 8T 9T 10T JD JH JT JS"
    " / 3D 4D 5T 6T 7T 8C 9D 10D 10H 10S 4T 4C 7C"
    " | discard: 9S | stock: 9S JC 5C ..."
)


def finish(options: str = "", seat1_discard: str = "9S") -> tuple[Any, list[Event]]:
    state = parse_position(FINAL.format(options=options))
    state, events = play(state, 0, {"type": "go_out", "discard": "4S"})
    state, more = turn(state, 1, seat1_discard)
    events += more
    state, more = turn(state, 2, "JC")  # seat 2 keeps 3D 4D 5T ... : a run, books, 7C
    return state, events + more


def test_after_the_last_round_the_lowest_total_wins() -> None:
    state, events = finish(seat1_discard="JS")  # seat 1 keeps 9S: 9 points
    assert state.phase == "game_over" and not state.can_start_next_round()
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (0,) and outcome.reason == "lowest_total"
    assert outcome.scores == state.totals() and outcome.scores[:2] == (0, 9)
    assert events[-1].code == "game_over" and events[-1].params == outcome.to_dict()
    assert state.legal_actions(0) == ()


def test_a_tie_shares_the_win_by_default() -> None:
    state, _ = finish()
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0, 1)


def test_the_tiebreak_option_plays_one_more_round_of_six_cards_among_the_tied() -> None:
    state, events = finish("tiebreak=extra_round")
    assert state.phase == "round_over" and events[-1].code == "tiebreak"
    assert events[-1].params == {"seats": [0, 1]}
    assert state.outcome() is None
    state, _ = state.start_next_round()
    state.check_invariants()
    assert (state.round, state.cards_dealt, state.wild_rank) == (12, 6, 6)
    assert state.players == (0, 1)
    assert [len(hand) for hand in state.hands] == [6, 6, 0]
    assert (state.dealer, state.turn) == (0, 1)  # seat 2 sits this round out
    view = state.view_for(None)
    assert view["tiebreak_round"] and view["players"] == [0, 1]


def test_the_tiebreak_round_decides_among_the_tied() -> None:
    position = (
        "fc round=12 start_round=11 tiebreak=extra_round dealer=2 turn=1 phase=discard"
        " | hands: 3H 4H 5H 9S 9T 8C / 6H 7H 8H 10S 10T 10C KD / -"
        " | discard: 8S | stock: QD ... | history: 10 10 40"
    )
    state = parse_position(position)
    assert state.players == (0, 1)
    state, _ = play(state, 1, {"type": "go_out", "discard": "KD"})
    state, _ = turn(state, 0, "QD")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,)
    assert outcome.reason == "tiebreak_round" and outcome.scores == (10, 10, 40)
    assert state.history[-1] == (26, 0, 0)  # seat 0 kept 9S 9T 8C


def test_solo_play_ends_the_round_as_soon_as_the_player_goes_out() -> None:
    state = parse_position(
        "fc start_round=11 | hands: 3H 4H 5H 6D 7D 8D 9C 10C JC QS QT QH 4S | discard: QC"
    )
    assert state.seats == 1 and state.turn == 0
    state, _ = play(state, 0, {"type": "draw", "source": "discard"})
    state, events = play(state, 0, {"type": "go_out", "discard": "4S"})
    assert [e.code for e in events] == ["went_out", "round_ended", "game_over"]
    outcome = state.outcome()
    assert outcome is not None and outcome == type(outcome)((0,), (0,), "solo")


def test_round_over_position_reads_with_its_results() -> None:
    hands = "4H 5H 6H / 8S 9S KH / QC QD 10S"
    state = parse_position(
        f"fc round=1 dealer=2 phase=round_over out=0 | hands: {hands} | history: 0 30 34"
    )
    assert state.view_for(None)["last_round"]["results"][1]["leftover"] == ["KH", "8S", "9S"]
    assert parse_cards("4H 5H 6H") == state.hands[0]
