"""A turn: draw from the stock or the discard pile, then discard, possibly going out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.cards import Card
from engine.errors import IllegalActionError
from engine.five_crowns.actions import (
    DISCARD_PILE,
    DISCARDS,
    GOING_OUT,
    STOCK,
    Action,
    Discard,
    Draw,
    GoOut,
    as_action,
)
from engine.five_crowns.deck import sorted_hand
from engine.five_crowns.melds import (
    best_arrangement,
    without_one,
)
from engine.five_crowns.model import Hand, Phase
from engine.five_crowns.rounds import end_round, reshuffle, seats_in_order
from engine.five_crowns.solvers import solver_for
from engine.game import Event

if TYPE_CHECKING:
    from engine.five_crowns.state import FiveCrownsState

Result = tuple["FiveCrownsState", tuple[Event, ...]]


def may_discard(state: FiveCrownsState, hand: Hand, card: Card) -> bool:
    """The taken-card rule: a card just taken from the discard pile stays this turn.

    Identical copies count as that card (throwing back a twin is the same loop), unless
    the hand holds nothing else, so that a turn can always end.
    """
    if state.variant.discard_taken or state.taken is None or card != state.taken:
        return True
    return all(other == card for other in hand)


def legal_actions(state: FiveCrownsState, seat: int) -> tuple[Action, ...]:
    """Every legal action of ``seat``: draws, then discards, then ways to go out.

    Identical cards are listed once, in hand order.
    """
    if seat != state.turn:
        return ()
    if state.phase == Phase.DRAW:
        sources = [Draw(STOCK)] if state.stock else []
        return (*sources, *([Draw(DISCARD_PILE)] if state.discard else []))
    hand = state.hands[seat]
    cards = [card for card in dict.fromkeys(hand) if may_discard(state, hand, card)]
    ways_out = solver_for(hand, state.wild_rank).ways_out()
    going_out = [GOING_OUT.get(card) or GoOut(card) for card in cards if card in ways_out]
    return (*(DISCARDS.get(card) or Discard(card) for card in cards), *going_out)


def apply(state: FiveCrownsState, seat: int, action: Action | Mapping[str, Any]) -> Result:
    """Validate and play ``action`` for ``seat``; a coded ``IllegalActionError`` if refused."""
    parsed = as_action(action)
    if not isinstance(seat, int) or not 0 <= seat < state.seats:
        raise IllegalActionError("bad_seat", seat=seat)
    if state.phase == Phase.GAME_OVER:
        raise IllegalActionError("game_over")
    if state.phase == Phase.ROUND_OVER:
        raise IllegalActionError("round_over")
    if seat != state.turn:
        raise IllegalActionError("not_your_turn", seat=seat, current_seat=state.turn)
    if isinstance(parsed, Draw):
        return _draw(state, seat, parsed)
    return _end_turn(state, seat, parsed)


def _draw(state: FiveCrownsState, seat: int, action: Draw) -> Result:
    if state.phase != Phase.DRAW:
        raise IllegalActionError("already_drew")
    if action.source == STOCK:
        if not state.stock:
            raise IllegalActionError("stock_empty")
        card, stock, discard = state.stock[0], state.stock[1:], state.discard
        event = Event("drew", seat, {"source": STOCK}, {"card": str(card)})
        taken = None
    else:
        if not state.discard:
            raise IllegalActionError("discard_empty")
        card, stock, discard = state.discard[-1], state.stock, state.discard[:-1]
        event = Event("drew", seat, {"source": DISCARD_PILE, "card": str(card)})
        taken = card
    hands = list(state.hands)
    hands[seat] = sorted_hand((*hands[seat], card))
    drawn = replace(
        state, hands=tuple(hands), stock=stock, discard=discard, phase=Phase.DISCARD, taken=taken
    )
    return drawn, (event,)


def _end_turn(state: FiveCrownsState, seat: int, action: Discard | GoOut) -> Result:
    if state.phase != Phase.DISCARD:
        raise IllegalActionError("must_draw_first")
    card = action.card if isinstance(action, Discard) else action.discard
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalActionError("card_not_in_hand", card=str(card))
    if not may_discard(state, hand, card):
        raise IllegalActionError("cannot_discard_taken_card", card=str(card))
    kept = tuple(without_one(hand, card))
    went_out = state.went_out
    if isinstance(action, GoOut):
        arrangement = best_arrangement(kept, state.wild_rank)
        if arrangement.penalty:
            raise IllegalActionError(
                "cannot_go_out",
                card=str(card),
                penalty=arrangement.penalty,
                leftover=[str(left) for left in arrangement.leftover],
            )
        melds = [meld.to_dict() for meld in arrangement.melds]
        code = "went_out" if went_out is None else "laid_down"
        event = Event(code, seat, {"card": str(card), "melds": melds})
        went_out = seat if went_out is None else went_out
    else:
        event = Event("discarded", seat, {"card": str(card)})
    hands = list(state.hands)
    hands[seat] = kept
    following = seats_in_order(state.players, seat, state.seats)[0]
    round_ends = went_out is not None and following == went_out
    solo_ends = state.solo and state.round_turns + 1 >= state.variant.solo_turns
    if not (round_ends or solo_ends or not state.stock):  # the usual turn: one new state
        # (``dataclasses.replace`` is most of a move's cost: once, not twice)
        after = replace(
            state,
            hands=tuple(hands),
            discard=(*state.discard, card),
            taken=None,
            went_out=went_out,
            round_turns=state.round_turns + 1,
            phase=Phase.DRAW,
            turn=following,
        )
        return after, (event,)
    after = replace(
        state,
        hands=tuple(hands),
        discard=(*state.discard, card),
        taken=None,
        went_out=went_out,
        round_turns=state.round_turns + 1,
    )
    if round_ends:
        ended, events = end_round(after)
        return ended, (event, *events)
    if solo_ends:
        # Solo play: the round's turns are used up; the hand is scored as it stands.
        limit = Event("turn_limit", params={"turns": after.round_turns})
        ended, events = end_round(after)
        return ended, (event, limit, *events)
    refilled, events = reshuffle(after)
    return replace(refilled, phase=Phase.DRAW, turn=following), (event, *events)


def hint(state: FiveCrownsState, seat: int) -> dict[str, Any]:
    """The seat's best penalty now (and, holding a card to discard, the best discard)."""
    hand = state.hands[seat]
    if state.phase == Phase.DISCARD and seat == state.turn:
        choices = [card for card in hand if may_discard(state, hand, card)]
        card, penalty = solver_for(hand, state.wild_rank).best_discard(choices)
        return {"penalty": penalty, "discard": str(card), "can_go_out": penalty == 0}
    # The seat's solver, shared with its bot's next draw choice (the same hand).
    return {"penalty": solver_for(hand, state.wild_rank).keep}
