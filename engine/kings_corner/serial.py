"""The dict form of a state (everything, secrets included) and reading it back exactly."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import CardSyntaxError, parse_card
from engine.errors import RuleError
from engine.kings_corner.rounds import RoundInfo, RoundResult
from engine.kings_corner.setup import NAME, DealerDraw, make_setup
from engine.kings_corner.state import DRAW_PHASE, OVER_PHASE, PLAY_PHASE, State
from engine.kings_corner.tables import BIT, CARD_NUMBER, PILES, TEXT

FORMAT_VERSION = 1
PHASES = {"draw": DRAW_PHASE, "play": PLAY_PHASE, "over": OVER_PHASE}
PHASE_NAMES = {number: name for name, number in PHASES.items()}


class PositionError(RuleError):
    """A dict form or notation that does not describe a position (code ``bad_position``)."""

    def __init__(self, reason: str, **params: Any) -> None:
        super().__init__("bad_position", reason=reason, **params)


def card_number(text: object) -> int:
    """The engine's number for a card's text form."""
    try:
        card = parse_card(text) if isinstance(text, str) else None
    except CardSyntaxError:
        card = None
    number = CARD_NUMBER.get(card) if card is not None else None
    if number is None:
        raise PositionError("bad_card", card=repr(text))
    return number


def raw_phase(state: State) -> str:
    """``draw``, ``play`` or ``over`` (a finished round, whether or not the game goes on)."""
    return "over" if state.current_seat is None else state.phase


def state_to_dict(state: State) -> dict[str, Any]:
    """Everything needed to go on playing, and the game's history, JSON-ready."""
    setup = state.setup
    return {
        "game": NAME,
        "version": FORMAT_VERSION,
        "seats": setup.seats,
        "seed": setup.seed,
        "options": dict(setup.options),
        "dealer_draws": [
            [[seat, TEXT[card]] for seat, card in draw] for draw in setup.dealer_draws
        ],
        "round": state.round_number,
        "dealer": state.dealer,
        "scores": list(state.scores),
        "history": [result.to_dict() for result in state.history],
        "stock": [str(card) for card in state.stock],
        "piles": {name: [str(card) for card in pile] for name, pile in state.piles.items()},
        "hands": [[str(card) for card in state.hand(seat)] for seat in range(setup.seats)],
        "current_seat": state.current_seat,
        "phase": raw_phase(state),
        "acted": state.acted_this_turn,
        "kinged": state.king_cornered_this_turn,
        "idle_turns": state.idle_turns,
    }


def _ints(value: object, what: str) -> tuple[int, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise PositionError("bad_field", field=what)
    if not all(isinstance(item, int) and not isinstance(item, bool) for item in value):
        raise PositionError("bad_field", field=what)
    return tuple(value)


def _cards(value: object, what: str) -> tuple[int, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise PositionError("bad_field", field=what)
    return tuple(card_number(text) for text in value)


def _history(value: object) -> tuple[RoundResult, ...]:
    if not isinstance(value, Sequence):
        raise PositionError("bad_field", field="history")
    results = []
    for item in value:
        if not isinstance(item, Mapping) or not isinstance(item.get("reason"), str):
            raise PositionError("bad_field", field="history")
        results.append(
            RoundResult(
                _ints([item.get("round")], "history")[0],
                _ints(item.get("winners"), "history"),
                item["reason"],
                _ints(item.get("penalties"), "history"),
            )
        )
    return tuple(results)


def state_from_dict(data: Mapping[str, Any]) -> State:
    """Read ``state_to_dict``'s form back; raise ``PositionError`` or ``InvariantError``."""
    if not isinstance(data, Mapping) or data.get("game") != NAME:
        raise PositionError("not_kings_corner")
    if data.get("version") != FORMAT_VERSION:
        raise PositionError("bad_version", version=repr(data.get("version")))
    try:
        draws: tuple[DealerDraw, ...] = tuple(
            tuple((int(seat), card_number(card)) for seat, card in draw)
            for draw in data["dealer_draws"]
        )
        setup = make_setup(data["seats"], data["seed"], data["options"], draws)
        piles_given = data["piles"]
        if not isinstance(piles_given, Mapping) or set(piles_given) != set(PILES):
            raise PositionError("bad_field", field="piles")
        piles = tuple(_cards(piles_given[name], "piles") for name in PILES)
        hands_given = data["hands"]
        if not isinstance(hands_given, Sequence) or len(hands_given) != setup.seats:
            raise PositionError("bad_field", field="hands")
        hands = tuple(_mask(_cards(hand, "hands")) for hand in hands_given)
        scores = _ints(data["scores"], "scores")
        round_number, dealer, idle = _ints(
            [data["round"], data["dealer"], data["idle_turns"]], "round"
        )
        seat = data["current_seat"]
        if seat is not None:
            seat = _ints([seat], "current_seat")[0]
        phase = PHASES.get(data["phase"])
        if phase is None:
            raise PositionError("bad_field", field="phase")
        acted, kinged = data["acted"], data["kinged"]
        if not isinstance(acted, bool) or not isinstance(kinged, bool):
            raise PositionError("bad_field", field="acted")
        stock = _cards(data["stock"], "stock")
        history = _history(data["history"])
        _mask([*(card for pile in piles for card in pile), *stock], hands)
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, RuleError):
            raise
        raise PositionError("bad_field", field=str(error)) from None
    info = RoundInfo(setup, round_number, dealer, scores, history, stock)
    state = State.build(info, hands, piles, 0, seat, phase, acted, kinged, idle)
    state.check_invariants()
    return state


def _mask(cards: Sequence[int], hands: Sequence[int] = ()) -> int:
    """The mask of ``cards`` and ``hands`` together; ``card_twice`` if a card comes twice."""
    mask = 0
    for hand in hands:
        if mask & hand:
            raise PositionError("card_twice", card=TEXT[(mask & hand).bit_length() - 1])
        mask |= hand
    for card in cards:
        if mask & BIT[card]:
            raise PositionError("card_twice", card=TEXT[card])
        mask |= BIT[card]
    return mask
