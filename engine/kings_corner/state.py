"""The state of a Kings in the Corner game and its hot path: legal actions and apply.

A ``State`` never changes once made: ``apply`` returns a new one. Its fields are plain
slots, read-only by convention: a frozen dataclass costs three times as much to copy,
and a game copies the state once per action. Nothing outside this module writes them;
``current_seat`` is a plain attribute, not a property, because every caller reads it
once per action. The only things filled in later are memos of values the rest decides:
the legal actions, and what of them depends on the piles alone.
"""

from __future__ import annotations

from typing import Any

from engine.cards import Card
from engine.errors import IllegalActionError
from engine.game import Event, Outcome
from engine.kings_corner.actions import DRAW, END_TURN, MOVE_BASE, OP_DRAW, Action
from engine.kings_corner.deal import deal_round
from engine.kings_corner.events import (
    DRAW_EVENTS,
    MOVE_EVENTS,
    PLAY_EVENTS,
    TURN_EVENTS,
    draw_event,
    event,
    move_event,
    play_event,
    turn_event,
)
from engine.kings_corner.legal import (
    Board,
    Piles,
    analyse_board,
    board_after_build,
    board_after_fill,
    board_after_move,
    corner_kings,
    fills,
)
from engine.kings_corner.rounds import RoundInfo, RoundResult, blocked_winners, finish_round
from engine.kings_corner.rounds import game_outcome as _game_outcome
from engine.kings_corner.setup import Setup
from engine.kings_corner.tables import BIT, CARDS, KING_MASK, PILES, cards_of

DRAW_PHASE, PLAY_PHASE, OVER_PHASE = 0, 1, 2
_new_state = object.__new__
_DRAW_ONLY: tuple[Action, ...] = (DRAW,)


class State:
    """One position of a game: the round record, hands, piles, stock and whose turn."""

    __slots__ = (
        "_acted",
        "_board",
        "_drawn",
        "_hands",
        "_idle",
        "_info",
        "_kinged",
        "_legal",
        "_phase",
        "_piles",
        "current_seat",
    )
    _info: RoundInfo
    _hands: tuple[int, ...]  # a bit mask of card numbers per seat
    _piles: Piles  # card numbers, bottom first, in the order of ``PILES``
    _drawn: int  # cards already taken from ``_info.stock``
    current_seat: int | None  # whose turn it is; None once the round is over
    _phase: int
    _acted: bool  # drew, played or moved this turn (a blocked round counts idle turns)
    _kinged: bool  # put a King from hand into a corner this turn (royal kings)
    _idle: int  # turns in a row, just before this one, in which nobody acted
    _board: Board | None  # memo of ``analyse_board(_piles)``, passed on and kept up to date
    _legal: tuple[Action, ...] | None  # memo of the current seat's legal actions

    @classmethod
    def build(
        cls,
        info: RoundInfo,
        hands: tuple[int, ...],
        piles: Piles,
        drawn: int,
        seat: int | None,
        phase: int,
        acted: bool = False,
        kinged: bool = False,
        idle: int = 0,
    ) -> State:
        """A state from its parts (the deal, the notation and the dict form use this)."""
        state = object.__new__(cls)
        state._info, state._hands, state._piles, state._drawn = info, hands, piles, drawn
        state.current_seat, state._phase, state._acted = seat, phase, acted
        state._kinged, state._idle = kinged, idle
        state._board = None
        state._legal = () if phase == OVER_PHASE else _DRAW_ONLY if phase == DRAW_PHASE else None
        return state

    @classmethod
    def deal(
        cls,
        setup: Setup,
        number: int,
        dealer: int,
        scores: tuple[int, ...],
        history: tuple[RoundResult, ...],
        with_events: bool = True,
    ) -> tuple[State, tuple[Event, ...]]:
        """Deal round ``number`` (the player left of the dealer starts)."""
        dealt = deal_round(setup, number, dealer, with_events)
        info = RoundInfo(setup, number, dealer, scores, history, dealt.stock)
        phase = DRAW_PHASE if info.start_draws else PLAY_PHASE
        seat = (dealer + 1) % setup.seats
        return cls.build(info, dealt.hands, dealt.piles, 0, seat, phase), dealt.events

    # ------------------------------------------------------------------ the hot path
    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every legal action of ``seat`` in a fixed order; empty if it is not to act."""
        if seat != self.current_seat:
            return ()
        legal = self._legal
        if legal is None:  # the play phase (a draw phase is born with its one action)
            info = self._info
            board = self._board
            if board is None:
                board = self._board = analyse_board(self._piles, info.king_pile_to_corner)
            # Written out here rather than called: this runs for nearly every position.
            # The order: cards onto piles (pile order N … NW, then card number); cards
            # into empty side spots; Kings into empty corners; pile moves; the ending.
            targets, sides, corners, moves, _ = board
            hand = self._hands[seat]
            found: list[Action] = []
            for mask, plays in targets:
                if hand & mask:
                    for bit, play in plays:
                        if hand & bit:
                            found.append(play)
            for side in sides:
                found += fills(side, hand)
            kings = hand & KING_MASK
            if kings and corners:
                cornered = corner_kings(kings, corners)
                if info.mandatory_kings:  # a King in hand must go to a corner first
                    self._legal = cornered
                    return cornered
                found += cornered
            found += moves
            # Drawing is how a turn ends under draw=end, while the stock lasts.
            found.append(DRAW if self._drawn < info.end_draws else END_TURN)
            legal = self._legal = tuple(found)
        return legal

    def apply(self, seat: int, action: Action) -> tuple[State, tuple[Event, ...]]:
        """The state after ``seat`` does ``action``; ``IllegalActionError`` if not allowed."""
        if seat != self.current_seat:
            raise self._refusal(seat, action)
        legal = self._legal
        if legal is None:
            legal = self.legal_actions(seat)
        try:
            op = legal[legal.index(action)].op  # the shared instance: identity, then equality
        except ValueError:
            raise self._refusal(seat, action) from None
        if op < MOVE_BASE:
            return self._play(seat, op)
        if op < OP_DRAW:
            return self._move(seat, op - MOVE_BASE)
        if op == OP_DRAW:
            return self._draw(seat)
        return self._end_turn(seat, self._hands, self._drawn, self._acted, ())

    def _next(self, hands: tuple[int, ...], piles: Piles, board: Board | None) -> State:
        """The same turn, after the seat to act drew, played or moved."""
        new = _new_state(State)
        new._info, new._hands, new._piles, new._drawn = self._info, hands, piles, self._drawn
        new.current_seat, new._phase, new._acted = self.current_seat, PLAY_PHASE, True
        new._kinged, new._idle, new._board, new._legal = self._kinged, self._idle, board, None
        return new

    def _play(self, seat: int, op: int) -> tuple[State, tuple[Event, ...]]:
        card, index = op >> 3, op & 7
        hands = list(self._hands)
        hand = hands[seat] = hands[seat] ^ BIT[card]
        piles = list(self._piles)
        pile = piles[index]
        piles[index] = (*pile, card)
        after = tuple(piles)
        onto_empty = 0 if pile else 1
        played = PLAY_EVENTS[(seat * MOVE_BASE + op) * 2 + onto_empty] or play_event(
            seat, op, onto_empty
        )
        if not hand:
            return self._end_round(tuple(hands), after, (seat,), "went_out", (played,))
        board = self._board
        if board is not None:
            if pile:
                board = board_after_build(board, after, index, pile[-1], card)
            else:
                king_pile = self._info.king_pile_to_corner
                board = board_after_fill(board, after, index, card, king_pile)
        new = _new_state(State)  # as ``_next`` does, written out: this is the commonest
        new._info, new._hands, new._piles, new._drawn = self._info, tuple(hands), after, self._drawn
        new.current_seat, new._phase, new._acted, new._idle = seat, PLAY_PHASE, True, self._idle
        new._kinged = self._kinged or (index >= 4 and not pile)
        new._board, new._legal = board, None
        return new, (played,)

    def _move(self, seat: int, op: int) -> tuple[State, tuple[Event, ...]]:
        source, target = op >> 3, op & 7
        piles = list(self._piles)
        onto_empty = 0 if piles[target] else 1
        bottom = piles[source][0]
        piles[target] += piles[source]
        piles[source] = ()
        after = tuple(piles)
        moved = MOVE_EVENTS[(seat * 64 + op) * 2 + onto_empty] or move_event(
            seat, source, target, onto_empty
        )
        board = self._board
        if board is not None:
            king_pile = self._info.king_pile_to_corner
            board = board_after_move(board, after, source, target, bottom, king_pile)
        return self._next(self._hands, after, board), (moved,)

    def _draw(self, seat: int) -> tuple[State, tuple[Event, ...]]:
        card = self._info.stock[self._drawn]
        hands = list(self._hands)
        hands[seat] |= BIT[card]
        drew = DRAW_EVENTS[seat * 52 + card] or draw_event(seat, card)
        if self._phase == PLAY_PHASE:  # drawing at the end of the turn ends it
            return self._end_turn(seat, tuple(hands), self._drawn + 1, True, (drew,))
        new = self._next(tuple(hands), self._piles, self._board)
        new._drawn += 1
        return new, (drew,)

    def _end_turn(
        self,
        seat: int,
        hands: tuple[int, ...],
        drawn: int,
        acted: bool,
        before: tuple[Event, ...],
    ) -> tuple[State, tuple[Event, ...]]:
        info = self._info
        idle = 0 if acted else self._idle + 1
        if idle >= info.seats:  # a full circle of turns without a card drawn, played or moved
            blocked = (*before, event("round_blocked", None, idle_turns=idle))
            return self._end_round(hands, self._piles, blocked_winners(hands), "blocked", blocked)
        if self._kinged and info.royal_kings:
            next_seat = seat
            before = (*before, event("extra_turn", seat))
        else:
            next_seat = seat + 1 if seat + 1 < info.seats else 0
        ended = TURN_EVENTS[seat * 8 + next_seat] or turn_event(seat, next_seat)
        new = _new_state(State)
        new._info, new._hands, new._piles, new._drawn = info, hands, self._piles, drawn
        new.current_seat, new._acted, new._kinged, new._idle = next_seat, False, False, idle
        new._board = self._board
        if drawn < info.start_draws:
            new._phase, new._legal = DRAW_PHASE, _DRAW_ONLY
        else:
            new._phase, new._legal = PLAY_PHASE, None
        return new, (*before, ended)

    def _end_round(
        self,
        hands: tuple[int, ...],
        piles: Piles,
        winners: tuple[int, ...],
        reason: str,
        before: tuple[Event, ...],
    ) -> tuple[State, tuple[Event, ...]]:
        info, scored = finish_round(self._info, hands, winners, reason)
        if reason == "went_out":
            before = (*before, event("went_out", winners[0]))
        state = State.build(info, hands, piles, self._drawn, None, OVER_PHASE, idle=self._idle)
        return state, (*before, *scored)

    def _refusal(self, seat: int, action: object) -> Exception:
        from engine.kings_corner.refusals import refusal  # the slow path, loaded on demand

        return refusal(self, seat, action)

    # ------------------------------------------------------------------ rounds and results
    def can_start_next_round(self) -> bool:
        """True after a round of a session that nobody has won yet."""
        return self._phase == OVER_PHASE and not self._info.game_over

    def start_next_round(self) -> tuple[State, tuple[Event, ...]]:
        """Deal the next round of the session; the deal passes to the left."""
        info = self._info
        if self._phase != OVER_PHASE:
            raise IllegalActionError("round_not_over", round=info.number)
        if info.game_over:
            raise IllegalActionError("game_over")
        dealer = (info.dealer + 1) % info.setup.seats
        return State.deal(info.setup, info.number + 1, dealer, info.scores, info.history)

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on (a session between rounds too)."""
        if self._phase != OVER_PHASE or not self._info.game_over:
            return None
        winners, scores, reason = _game_outcome(self._info)
        return Outcome(winners, scores, reason)

    # ------------------------------------------------------------------ read-only accessors
    @property
    def seats(self) -> int:
        return self._info.setup.seats

    @property
    def setup(self) -> Setup:
        return self._info.setup

    @property
    def options(self) -> dict[str, Any]:
        return dict(self._info.setup.options)

    @property
    def round_number(self) -> int:
        return self._info.number

    @property
    def dealer(self) -> int:
        return self._info.dealer

    @property
    def scores(self) -> tuple[int, ...]:
        """Session totals of penalty points per seat."""
        return self._info.scores

    @property
    def history(self) -> tuple[RoundResult, ...]:
        """The results of every finished round, oldest first."""
        return self._info.history

    @property
    def phase(self) -> str:
        """``draw``, ``play``, ``round_over`` or ``game_over``."""
        if self._phase == OVER_PHASE:
            return "game_over" if self._info.game_over else "round_over"
        return "draw" if self._phase == DRAW_PHASE else "play"

    @property
    def acted_this_turn(self) -> bool:
        return self._acted

    @property
    def king_cornered_this_turn(self) -> bool:
        return self._kinged

    @property
    def idle_turns(self) -> int:
        """Turns in a row, before the current one, without a card drawn, played or moved."""
        return self._idle

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, top card first (the engine's secret: no view shows it)."""
        return tuple(CARDS[card] for card in self._info.stock[self._drawn :])

    @property
    def stock_count(self) -> int:
        return len(self._info.stock) - self._drawn

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards in ``seat``'s hand, sorted (by suit, then rank)."""
        return tuple(CARDS[card] for card in cards_of(self._hands[seat]))

    @property
    def hand_counts(self) -> tuple[int, ...]:
        return tuple(hand.bit_count() for hand in self._hands)

    @property
    def piles(self) -> dict[str, tuple[Card, ...]]:
        """Each pile's cards, bottom first, by pile name (N E S W NE SE SW NW)."""
        piles = zip(PILES, self._piles, strict=True)
        return {name: tuple(CARDS[card] for card in pile) for name, pile in piles}

    # ------------------------------------------------------------------ other forms
    # Imported in the method: those modules import this one.
    def opening_events(self) -> tuple[Event, ...]:
        """The events of how this game began: first-dealer draws and the first deal."""
        from engine.kings_corner.start import opening_events

        return opening_events(self._info.setup)

    def view_for(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (None: the TV, which never sees a hidden card)."""
        from engine.kings_corner.views import view_for

        return view_for(self, seat)

    def private_view(self, seat: int, *, hint: bool = True) -> dict[str, Any]:
        """Only what ``seat`` adds to the public view: ``view_for(seat)`` is their union.
        (Kings in the Corner's views carry no hint: ``hint`` changes nothing.)"""
        from engine.kings_corner.views import private_view

        return private_view(self, seat)

    def to_dict(self) -> dict[str, Any]:
        """Everything, secrets included, JSON-ready (``state_from_dict`` reads it back)."""
        from engine.kings_corner.serial import state_to_dict

        return state_to_dict(self)

    def to_position(self) -> str:
        """The one-line notation of this position (``parse_position`` reads it back)."""
        from engine.kings_corner.notation import format_position

        return format_position(self)

    def check_invariants(self) -> None:
        """Raise ``InvariantError`` (an ``AssertionError``) if the position is impossible."""
        from engine.kings_corner.invariants import check_invariants

        check_invariants(self)

    def __repr__(self) -> str:
        return f"<kings-corner State {self.to_position()}>"
