"""The Five Crowns state: an immutable value; every move returns a new one."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import Card, CardSyntaxError, parse_card
from engine.errors import OptionError, RuleError
from engine.five_crowns import notation, rounds, turns, views
from engine.five_crowns.actions import Action
from engine.five_crowns.deck import full_deck, is_five_crowns_card, sorted_hand
from engine.five_crowns.melds import min_penalty
from engine.five_crowns.model import (
    TIEBREAK_ROUND,
    Hand,
    LastRound,
    Phase,
    cards_dealt,
    is_round_number,
    lowest,
)
from engine.five_crowns.variants import LAST_ROUND, Variant, resolve_variant
from engine.game import Event, Outcome
from engine.rng import shuffled

NAME = "five-crowns"


@dataclass(frozen=True, slots=True)
class FiveCrownsState:
    """A whole game: this round's cards, whose turn it is, and the score sheet.

    ``stock[0]`` is the stock's top card; ``discard[-1]`` the discard pile's. ``history``
    holds each finished round's penalties per seat (the tie-break round last, if played).
    """

    variant: Variant
    seed: int | str
    round: int
    dealer: int
    hands: tuple[Hand, ...]
    stock: tuple[Card, ...]
    discard: tuple[Card, ...]
    phase: Phase
    turn: int | None
    taken: Card | None = None
    went_out: int | None = None
    reshuffles: int = 0
    round_turns: int = 0  # turns finished in this round (solo play ends at a limit)
    history: tuple[tuple[int, ...], ...] = ()
    last_round: LastRound | None = None

    # ------------------------------------------------------------ derived facts

    @property
    def seats(self) -> int:
        return len(self.hands)

    @property
    def current_seat(self) -> int | None:
        return self.turn

    @property
    def cards_dealt(self) -> int:
        return cards_dealt(self.round)

    @property
    def wild_rank(self) -> int:
        """The number of cards dealt is the wild rank (J = 11, Q = 12, K = 13)."""
        return self.cards_dealt

    @property
    def regular_rounds(self) -> int:
        return LAST_ROUND - self.variant.start_round + 1

    @property
    def solo(self) -> bool:
        return self.seats == 1

    @property
    def solo_turns_left(self) -> int | None:
        """Solo play: the turns this round still has (this one included); else None."""
        if not self.solo:
            return None
        return max(0, self.variant.solo_turns - self.round_turns)

    @property
    def players(self) -> tuple[int, ...]:
        """The seats dealt in this round: everyone, or the tied leaders in a tie-break."""
        return self.players_of(self.round)

    def players_of(self, round_number: int) -> tuple[int, ...]:
        everyone = tuple(range(self.seats))
        if round_number == TIEBREAK_ROUND:
            return lowest(self.totals(), everyone)
        return everyone

    def totals(self) -> tuple[int, ...]:
        """Total penalty per seat over the regular rounds (a tie-break round is apart)."""
        rows = self.history[: self.regular_rounds]
        return tuple(sum(row[seat] for row in rows) for seat in range(self.seats))

    # ------------------------------------------------------------ the GameState interface

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        return turns.legal_actions(self, seat)

    def apply(
        self, seat: int, action: Action | Mapping[str, Any]
    ) -> tuple[FiveCrownsState, tuple[Event, ...]]:
        return turns.apply(self, seat, action)

    def can_start_next_round(self) -> bool:
        return self.phase == Phase.ROUND_OVER

    def opening_events(self) -> tuple[Event, ...]:
        """The events of how this game began: the first deal (dealt hands are secrets)."""
        return _first_deal(self.variant, self.seed, self.seats)[1]

    def start_next_round(self) -> tuple[FiveCrownsState, tuple[Event, ...]]:
        return rounds.next_round(self)

    def view_for(self, seat: int | None) -> dict[str, Any]:
        return views.view_for(self, seat)

    def private_view(self, seat: int, *, hint: bool = True) -> dict[str, Any]:
        return views.private_view(self, seat, hint=hint)

    def outcome(self) -> Outcome | None:
        return rounds.game_outcome(self)

    def to_position(self) -> str:
        return notation.format_position(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        """Everything, hidden cards included (for the authority's storage), JSON-ready."""
        last = self.last_round
        return {
            "game": NAME,
            "options": self.variant.to_dict(),
            "seed": self.seed,
            "round": self.round,
            "dealer": self.dealer,
            "phase": str(self.phase),
            "turn": self.turn,
            "taken": None if self.taken is None else str(self.taken),
            "went_out": self.went_out,
            "reshuffles": self.reshuffles,
            "round_turns": self.round_turns,
            "hands": [_texts(hand) for hand in self.hands],
            "stock": _texts(self.stock),
            "discard": _texts(self.discard),
            "history": [list(row) for row in self.history],
            "last_round": None
            if last is None
            else {
                "round": last.round,
                "went_out": last.went_out,
                "hands": [_texts(hand) for hand in last.hands],
            },
        }

    def check_invariants(self) -> None:
        """Raise ``RuleError("bad_state", reason=...)`` unless this is a reachable position."""
        for reason in _broken_invariants(self):
            raise RuleError("bad_state", reason=reason)


def _texts(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]


def _hand_sizes_ok(state: FiveCrownsState) -> bool:
    players = state.players
    for seat, hand in enumerate(state.hands):
        expected = state.cards_dealt if seat in players else 0
        if state.phase == Phase.DISCARD and seat == state.turn:
            expected += 1
        if len(hand) != expected:
            return False
    return True


def _history_ok(state: FiveCrownsState) -> bool:
    played = (
        state.regular_rounds
        if state.round == TIEBREAK_ROUND
        else (state.round - state.variant.start_round)
    )
    if state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
        played += 1
    rows_ok = all(
        len(row) == state.seats and all(isinstance(p, int) and p >= 0 for p in row)
        for row in state.history
    )
    return len(state.history) == played and rows_ok


def _broken_invariants(state: FiveCrownsState) -> Iterator[str]:
    """The name of every invariant ``state`` breaks."""
    playing = state.phase in (Phase.DRAW, Phase.DISCARD)
    everything = [card for hand in state.hands for card in hand]
    everything += [*state.stock, *state.discard]
    if _seats_refused(state):
        yield "seats"
    if not state.variant.start_round <= state.round <= TIEBREAK_ROUND:
        yield "round"
    if state.round == TIEBREAK_ROUND and state.variant.tiebreak != "extra_round":
        yield "tiebreak"
    if not 0 <= state.dealer < state.seats:
        yield "dealer"
    if Counter(everything) != Counter(full_deck(state.variant.packs)):
        yield "cards"
    if not _history_ok(state):
        yield "history"
    if any(hand != sorted_hand(hand) for hand in state.hands) or not _hand_sizes_ok(state):
        yield "hands"
    if (state.turn in state.players) != playing:
        yield "turn"
    if state.taken is not None and (
        state.phase != Phase.DISCARD or state.taken not in state.hands[state.turn or 0]
    ):
        yield "taken"
    out = state.went_out
    if out is not None and (
        out not in state.players
        or out == state.turn
        or min_penalty(state.hands[out], state.wild_rank) != 0
    ):
        yield "went_out"
    if state.phase == Phase.DRAW and not state.stock and not state.discard:
        yield "no_card_to_draw"
    if state.reshuffles < 0:
        yield "reshuffles"
    if state.round_turns < 0 or (
        state.solo and playing and state.round_turns >= state.variant.solo_turns
    ):
        yield "round_turns"
    if not playing and not _round_end_ok(state):
        yield "round_end"
    if not _last_round_ok(state):
        yield "last_round"


def _last_round_ok(state: FiveCrownsState) -> bool:
    """The last round's hands are those its score-sheet row was counted from."""
    last = state.last_round
    if last is None:
        return True
    expected_round = state.round - 1 if state.round != TIEBREAK_ROUND else LAST_ROUND
    if state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
        expected_round = state.round
    if last.round != expected_round or len(last.hands) != state.seats or not state.history:
        return False
    wild_rank = cards_dealt(last.round)
    return all(
        min_penalty(hand, wild_rank) == penalty
        for hand, penalty in zip(last.hands, state.history[-1], strict=True)
    )


def _round_end_ok(state: FiveCrownsState) -> bool:
    """After a round: the last round is this one, and the game ends exactly when it must."""
    last = state.last_round
    if last is None or last != LastRound(state.round, state.went_out, state.hands):
        return False
    tie_break_next = (
        state.round == LAST_ROUND
        and state.variant.tiebreak == "extra_round"
        and len(lowest(state.totals(), tuple(range(state.seats)))) > 1
    )
    over = state.round == TIEBREAK_ROUND or (state.round == LAST_ROUND and not tie_break_next)
    return (state.phase == Phase.GAME_OVER) == over


def _seats_refused(state: FiveCrownsState) -> bool:
    try:
        resolve_variant(state.seats, state.variant.to_dict())
    except OptionError:
        return True
    return False


def new_game(
    seats: int, seed: int | str, options: Mapping[str, Any] | None = None
) -> FiveCrownsState:
    """Deal the first round; the first dealer is drawn by lot from the seed."""
    variant = resolve_variant(seats, options)
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise OptionError("bad_seed", seed=repr(seed))
    state, _ = _first_deal(variant, seed, seats)
    return state


def _first_deal(
    variant: Variant, seed: int | str, seats: int
) -> tuple[FiveCrownsState, tuple[Event, ...]]:
    dealer = shuffled(range(seats), seed, "first-dealer")[0]
    blank = FiveCrownsState(
        variant, seed, variant.start_round, dealer, ((),) * seats, (), (), Phase.DRAW, None
    )
    return rounds.deal(blank, variant.start_round, dealer)


# ---------------------------------------------------------------- reading a stored state


def _bad(reason: str) -> RuleError:
    return RuleError("bad_state", reason=reason)


def _card(text: Any) -> Card:
    try:
        card = parse_card(text)
    except (CardSyntaxError, TypeError) as error:
        raise _bad("card") from error
    if not is_five_crowns_card(card):
        raise _bad("card")
    return card


def _cards(items: Any) -> tuple[Card, ...]:
    if not isinstance(items, list):
        raise _bad("cards")
    return tuple(_card(item) for item in items)


def _int(value: Any, reason: str, *, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(reason)
    return value


def state_from_dict(data: Mapping[str, Any]) -> FiveCrownsState:
    """The inverse of ``to_dict``; ``RuleError("bad_state")`` for anything inconsistent."""
    try:
        if data["game"] != NAME:
            raise _bad("game")
        hands = data["hands"]
        if not isinstance(hands, list) or not hands:
            raise _bad("hands")
        variant = resolve_variant(len(hands), data["options"])
        last = data["last_round"]
        seed = data["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise _bad("seed")
        if not is_round_number(data["round"]) or data["phase"] not in set(Phase):
            raise _bad("round")
        state = FiveCrownsState(
            variant=variant,
            seed=seed,
            round=data["round"],
            dealer=_int(data["dealer"], "dealer"),
            hands=tuple(_cards(hand) for hand in hands),
            stock=_cards(data["stock"]),
            discard=_cards(data["discard"]),
            phase=Phase(data["phase"]),
            turn=_int(data["turn"], "turn", optional=True),
            taken=None if data["taken"] is None else _card(data["taken"]),
            went_out=_int(data["went_out"], "went_out", optional=True),
            reshuffles=_int(data["reshuffles"], "reshuffles"),
            round_turns=_int(data.get("round_turns", 0), "round_turns"),
            history=tuple(tuple(_int(p, "history") for p in row) for row in data["history"]),
            last_round=None
            if last is None
            else LastRound(
                _int(last["round"], "last_round"),
                _int(last["went_out"], "last_round", optional=True),
                tuple(_cards(hand) for hand in last["hands"]),
            ),
        )
    except (KeyError, TypeError) as error:
        raise _bad("shape") from error
    state.check_invariants()
    return state
