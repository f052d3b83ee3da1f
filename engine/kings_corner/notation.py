"""A one-line notation of a position, so that a rule test is one line.

    <piles> <hands> <stock> <seat> <phase> [name=value ...]

- piles: the eight piles N/E/S/W/NE/SE/SW/NW separated by ``/``; each pile's cards
  bottom first, separated by ``,``; ``-`` for an empty pile.
- hands: one per seat, separated by ``/``, cards separated by ``,`` (``-``: empty).
- stock: top card first, separated by ``,`` (``-``: empty).
- seat: whose turn it is (``-`` once the round is over); phase: ``draw``, ``play``, ``over``.
- then only what differs from its default: any rule option (``draw=end``,
  ``royal_kings=yes`` …), ``round=``, ``dealer=``, ``scores=3,0``, ``idle=`` (idle turns
  before this one), ``acted=yes``, ``kinged=yes``, ``seed=`` (an integer, or a quoted
  %-escaped text), and for a finished round ``winners=0,2`` and ``reason=blocked``.

In a hand or the stock, ``*`` stands for every card not written anywhere else, in
deck order (clubs, diamonds, hearts, spades; Ace to King), so a test need not list 52
cards. Example: ``9S,8H/-/KD/5C/-/-/-/- 7H,KC/* - 0 play draw=never``.
The notation holds the position, not the game's history (earlier rounds' results and the
first-dealer draws): ``parse_position(state.to_position())`` keeps everything else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote

from engine.kings_corner.rounds import RoundInfo, RoundResult, blocked_winners, penalties
from engine.kings_corner.serial import PHASES, PositionError, card_number, raw_phase
from engine.kings_corner.setup import DEFAULT_OPTIONS, OPTIONS, make_setup
from engine.kings_corner.state import OVER_PHASE, State
from engine.kings_corner.tables import BIT, FULL_DECK_MASK, PILES, TEXT, cards_of

if TYPE_CHECKING:
    from collections.abc import Iterable

    from engine.cards import Card

_EXTRAS = ("round", "dealer", "scores", "idle", "acted", "kinged", "seed", "winners", "reason")
_SPECS = {spec.name: spec for spec in OPTIONS}
_OPTION_NAMES = tuple(spec.name for spec in OPTIONS)


def _cards_text(cards: Iterable[Card]) -> str:
    return ",".join(str(card) for card in cards) or "-"


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _seed_text(seed: int | str) -> str:
    return str(seed) if isinstance(seed, int) else '"' + quote(seed, safe="") + '"'


def format_position(state: State) -> str:
    """The notation of ``state`` (its inverse is ``parse_position``)."""
    fields = [
        "/".join(_cards_text(pile) for pile in state.piles.values()),
        "/".join(_cards_text(state.hand(seat)) for seat in range(state.seats)),
        _cards_text(state.stock),
        "-" if state.current_seat is None else str(state.current_seat),
        raw_phase(state),
    ]
    options = state.setup.options
    fields += [
        f"{name}={_value_text(options[name])}"
        for name in _OPTION_NAMES
        # The default may follow another option (the target follows the scoring).
        if options[name] != _SPECS[name].default_for(options)
    ]
    extras: dict[str, str] = {
        "round": str(state.round_number),
        "dealer": str(state.dealer),
        "scores": ",".join(str(score) for score in state.scores),
        "idle": str(state.idle_turns),
        "acted": _value_text(state.acted_this_turn),
        "kinged": _value_text(state.king_cornered_this_turn),
        "seed": _seed_text(state.setup.seed),
    }
    defaults = _extra_defaults(state.seats)
    fields += [f"{name}={text}" for name, text in extras.items() if text != defaults[name]]
    if state.current_seat is None:
        last = state.history[-1]
        fields.append("winners=" + ",".join(str(seat) for seat in last.winners))
        fields.append(f"reason={last.reason}")
    return " ".join(fields)


def _extra_defaults(seats: int) -> dict[str, str]:
    return {
        "round": "1",
        "dealer": "0",
        "scores": ",".join("0" * seats),
        "idle": "0",
        "acted": "no",
        "kinged": "no",
        "seed": "0",
    }


def _option_value(name: str, text: str) -> Any:
    default = DEFAULT_OPTIONS[name]
    if isinstance(default, bool):
        if text not in ("yes", "no"):
            raise PositionError("bad_value", name=name, value=text)
        return text == "yes"
    if isinstance(default, int):
        return _int(name, text)
    return text


def _int(name: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise PositionError("bad_value", name=name, value=text) from None


def _card_list(text: str) -> list[int | None]:
    """Card numbers, with None where ``*`` stands for the rest of the deck."""
    if text == "-":
        return []
    return [None if word == "*" else card_number(word) for word in text.split(",")]


def parse_position(text: str) -> State:
    """Read the notation; raise ``PositionError`` (or ``InvariantError`` if impossible)."""
    words = text.split()
    if len(words) < 5:
        raise PositionError("too_few_fields", fields=len(words))
    pile_texts, hand_texts = words[0].split("/"), words[1].split("/")
    if len(pile_texts) != len(PILES):
        raise PositionError("bad_piles", piles=len(pile_texts))
    named: dict[str, str] = {}
    for word in words[5:]:
        name, sep, value = word.partition("=")
        if not sep or name in named or (name not in _OPTION_NAMES and name not in _EXTRAS):
            raise PositionError("bad_field", field=word)
        named[name] = value
    options = {n: _option_value(n, named[n]) for n in _OPTION_NAMES if n in named}
    seed: int | str = 0
    if "seed" in named:
        raw = named["seed"]
        quoted = len(raw) >= 2 and raw[0] == raw[-1] == '"'
        seed = unquote(raw[1:-1]) if quoted else _int("seed", raw)
    setup = make_setup(len(hand_texts), seed, options)
    piles_given = [_card_list(pile) for pile in pile_texts]
    hands_given = [_card_list(hand) for hand in hand_texts]
    stock_given = _card_list(words[2])
    if any(None in pile for pile in piles_given):
        raise PositionError("star_in_pile")
    piles, hands, stock = _expand_rest(piles_given, hands_given, stock_given)
    if words[4] not in PHASES:
        raise PositionError("bad_phase", phase=words[4])
    phase = PHASES[words[4]]
    seat = None if words[3] == "-" else _int("seat", words[3])
    scores = (
        tuple(_int("scores", s) for s in named["scores"].split(","))
        if "scores" in named
        else (0,) * setup.seats
    )
    history: tuple[RoundResult, ...] = ()
    if phase != OVER_PHASE and ("winners" in named or "reason" in named):
        raise PositionError("result_before_end")
    round_number = _int("round", named.get("round", "1"))
    if phase == OVER_PHASE:
        winners = (
            tuple(_int("winners", s) for s in named["winners"].split(","))
            if "winners" in named
            else blocked_winners(hands)
        )
        reason = named.get("reason", "went_out" if not all(hands) else "blocked")
        history = (RoundResult(round_number, winners, reason, penalties(setup, hands, winners)),)
    info = RoundInfo(
        setup, round_number, _int("dealer", named.get("dealer", "0")), scores, history, stock
    )
    flags = {name: named.get(name, "no") for name in ("acted", "kinged")}
    if any(value not in ("yes", "no") for value in flags.values()):
        raise PositionError("bad_value", name="acted", value=str(flags))
    state = State.build(
        info,
        hands,
        piles,
        0,
        seat,
        phase,
        flags["acted"] == "yes",
        flags["kinged"] == "yes",
        _int("idle", named.get("idle", "0")),
    )
    state.check_invariants()
    return state


def _expand_rest(
    piles_given: list[list[int | None]],
    hands_given: list[list[int | None]],
    stock_given: list[int | None],
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
    """Replace the one ``*`` by the cards written nowhere else, in deck order."""
    lists = [*piles_given, *hands_given, stock_given]
    stars = sum(cards.count(None) for cards in lists)
    if stars > 1:
        raise PositionError("star_twice")
    written = 0
    for cards in lists:
        for card in cards:
            if card is not None:
                if written & BIT[card]:
                    raise PositionError("card_twice", card=TEXT[card])
                written |= BIT[card]
    rest = cards_of(FULL_DECK_MASK & ~written)
    expanded = [
        tuple(n for card in cards for n in ((card,) if card is not None else rest))
        for cards in lists
    ]
    count = len(piles_given)
    hands = tuple(sum(BIT[card] for card in hand) for hand in expanded[count:-1])
    return tuple(expanded[:count]), hands, expanded[-1]
