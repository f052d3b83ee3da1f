"""Dealing, reshuffling the stock, ending a round and the game's outcome."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from engine.cards import Card
from engine.errors import IllegalActionError
from engine.five_crowns.deck import card_text, full_deck, sorted_hand
from engine.five_crowns.melds import best_arrangement
from engine.five_crowns.model import TIEBREAK_ROUND, LastRound, Phase, cards_dealt, lowest
from engine.five_crowns.variants import LAST_ROUND
from engine.game import Event, Outcome
from engine.rng import shuffled

if TYPE_CHECKING:
    from engine.five_crowns.state import FiveCrownsState


def seats_in_order(players: tuple[int, ...], after: int, seats: int) -> tuple[int, ...]:
    """``players`` clockwise, starting with the first one left of seat ``after``."""
    return tuple(sorted(players, key=lambda seat: (seat - after - 1) % seats))


def deal(
    state: FiveCrownsState, round_number: int, dealer: int
) -> tuple[FiveCrownsState, tuple[Event, ...]]:
    """Shuffle every card, deal the round clockwise from the dealer's left, turn one up."""
    players = state.players_of(round_number)
    order = seats_in_order(players, dealer, state.seats)
    count = cards_dealt(round_number)
    cards = shuffled(full_deck(state.variant.packs), state.seed, f"deal-{round_number}")
    dealing: list[list[Card]] = [[] for _ in range(state.seats)]
    dealt = count * len(order)
    for index in range(dealt):
        dealing[order[index % len(order)]].append(cards[index])
    hands = tuple(sorted_hand(hand) for hand in dealing)
    new_state = replace(
        state,
        round=round_number,
        dealer=dealer,
        hands=hands,
        stock=tuple(cards[dealt + 1 :]),
        discard=(cards[dealt],),
        phase=Phase.DRAW,
        turn=order[0],
        taken=None,
        went_out=None,
        reshuffles=0,
        round_turns=0,
    )
    started = Event(
        "round_started",
        params={
            "round": round_number,
            "cards_dealt": count,
            "wild_rank": count,
            "dealer": dealer,
            "first_seat": order[0],
            "players": list(order),
            "discard_top": card_text(cards[dealt]),
        },
    )
    dealt_events = tuple(
        Event("dealt", seat, {"count": count}, {"hand": [card_text(card) for card in hands[seat]]})
        for seat in order
    )
    return new_state, (started, *dealt_events)


def reshuffle(state: FiveCrownsState) -> tuple[FiveCrownsState, tuple[Event, ...]]:
    """Rebuild an empty stock from the discard pile (how depends on the option)."""
    if state.stock:
        return state, ()
    keep_top = state.variant.reshuffle == "keep_top"
    pile = state.discard[:-1] if keep_top else state.discard
    if not pile:
        return state, ()
    number = state.reshuffles + 1
    cards = shuffled(pile, state.seed, f"reshuffle-{state.round}-{number}")
    if keep_top:
        stock, discard = tuple(cards), state.discard[-1:]
    else:
        stock, discard = tuple(cards[1:]), (cards[0],)
    event = Event(
        "reshuffled",
        params={"stock_count": len(stock), "discard_top": str(discard[-1]), "number": number},
    )
    return replace(state, stock=stock, discard=discard, reshuffles=number), (event,)


def end_round(state: FiveCrownsState) -> tuple[FiveCrownsState, tuple[Event, ...]]:
    """Arrange every hand to its lowest penalty, score it, and see whether the game ends."""
    wild_rank = state.wild_rank
    players = state.players
    results = {seat: best_arrangement(state.hands[seat], wild_rank) for seat in players}
    penalties = tuple(
        results[seat].penalty if seat in results else 0 for seat in range(state.seats)
    )
    ended = replace(
        state,
        phase=Phase.ROUND_OVER,
        turn=None,
        taken=None,
        history=(*state.history, penalties),
        last_round=LastRound(state.round, state.went_out, state.hands),
    )
    events = [
        Event(
            "round_ended",
            params={
                "round": state.round,
                "wild_rank": wild_rank,
                "went_out": state.went_out,
                "results": [{"seat": seat, **results[seat].to_dict()} for seat in players],
                "scores": list(ended.totals()),
            },
        )
    ]
    if state.round < LAST_ROUND:
        return ended, tuple(events)
    tied = lowest(ended.totals(), tuple(range(state.seats)))
    if state.round == LAST_ROUND and len(tied) > 1 and state.variant.tiebreak == "extra_round":
        events.append(Event("tiebreak", params={"seats": list(tied)}))
        return ended, tuple(events)
    finished = replace(ended, phase=Phase.GAME_OVER)
    outcome = game_outcome(finished)
    assert outcome is not None
    events.append(Event("game_over", params=outcome.to_dict()))
    return finished, tuple(events)


def next_round(state: FiveCrownsState) -> tuple[FiveCrownsState, tuple[Event, ...]]:
    """Deal the following round (or the tie-break round), the deal moving one seat on."""
    if state.phase != Phase.ROUND_OVER:
        raise IllegalActionError("round_not_over", phase=str(state.phase))
    following = state.round + 1 if state.round < LAST_ROUND else TIEBREAK_ROUND
    return deal(state, following, (state.dealer + 1) % state.seats)


def game_outcome(state: FiveCrownsState) -> Outcome | None:
    """Lowest total wins (ties share); after a tie-break round, its lowest penalty wins."""
    if state.phase != Phase.GAME_OVER:
        return None
    totals = state.totals()
    if state.round == TIEBREAK_ROUND:
        tied = state.players
        winners = lowest(state.history[-1], tied)
        return Outcome(winners, totals, "tiebreak_round")
    reason = "solo" if state.seats == 1 else "lowest_total"
    return Outcome(lowest(totals, tuple(range(state.seats))), totals, reason)
