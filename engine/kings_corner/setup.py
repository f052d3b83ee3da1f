"""Rule options and the per-game settings derived from them.

The 13-card deal and "draw never" are independent options: the seeds say the no-draw
variant *usually* deals 13, so a host may pick either alone (13 with drawing is simply a
longer game; no-draw with 7 a shorter one). A six-card deal is allowed at any table size
(the seeds suggest it for five players; it is never impossible).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from engine.errors import OptionError
from engine.kings_corner.tables import PENALTY
from engine.options import OptionSpec, resolve_options

NAME = "kings-corner"
MIN_SEATS = 2
MAX_SEATS = 6
BOARD_CARDS = 4  # the four side piles turned up at the deal

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("deal", 7, choices=(7, 6, 9, 10, 13)),
    OptionSpec("draw", "start", choices=("start", "end", "never")),
    OptionSpec("kings_to_corners", False, choices=(False, True)),
    OptionSpec("king_pile_to_corner", True, choices=(True, False)),
    OptionSpec("mandatory_kings", False, choices=(False, True)),
    OptionSpec("royal_kings", False, choices=(False, True)),
    OptionSpec("session", False, choices=(False, True)),
    OptionSpec("scoring", "kings_ten", choices=("kings_ten", "face_value", "alternate")),
    # rules.md: the alternate scoring (Ace 25) plays to 250, unless the host sets a target.
    OptionSpec(
        "target", 25, minimum=1, maximum=100_000, default_by=("scoring", (("alternate", 250),))
    ),
    OptionSpec("first_dealer", "high_card", choices=("high_card", "random")),
)
DEFAULT_OPTIONS: Mapping[str, Any] = MappingProxyType({spec.name: spec.default for spec in OPTIONS})

DRAW_START, DRAW_END, DRAW_NEVER = 0, 1, 2
_DRAW_MODES = {"start": DRAW_START, "end": DRAW_END, "never": DRAW_NEVER}

# One dealer-choosing draw: (seat, card number) for each seat that drew.
DealerDraw = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Setup:
    """What stays fixed for a whole game: table size, seed, options, first-dealer draws."""

    seats: int
    seed: int | str
    options: Mapping[str, Any]
    dealer_draws: tuple[DealerDraw, ...] = ()
    # Derived from ``options`` once, so the hot path reads plain attributes.
    draw_mode: int = field(init=False)
    deal: int = field(init=False)
    kings_to_corners: bool = field(init=False)
    king_pile_to_corner: bool = field(init=False)
    mandatory_kings: bool = field(init=False)
    royal_kings: bool = field(init=False)
    session: bool = field(init=False)
    penalty: tuple[int, ...] = field(init=False)
    target: int = field(init=False)

    def __post_init__(self) -> None:
        options = self.options
        derived = {
            "draw_mode": _DRAW_MODES[options["draw"]],
            "deal": options["deal"],
            "kings_to_corners": options["kings_to_corners"],
            "king_pile_to_corner": options["king_pile_to_corner"],
            "mandatory_kings": options["mandatory_kings"],
            "royal_kings": options["royal_kings"],
            "session": options["session"],
            "penalty": PENALTY[options["scoring"]],
            "target": options["target"],
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)


def check_seed(seed: object) -> int | str:
    """A seed is an int or a str (never a bool)."""
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise OptionError("bad_seed", seed=repr(seed))
    return seed


def check_options(seats: int, seed: object, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validate the table size, the seed and the options together; raise ``OptionError``."""
    if isinstance(seats, bool) or not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise OptionError("bad_seat_count", seats=seats, minimum=MIN_SEATS, maximum=MAX_SEATS)
    check_seed(seed)
    # The defaults need no checking (the common case: a benchmark deals thousands).
    resolved = dict(DEFAULT_OPTIONS) if not options else resolve_options(OPTIONS, options)
    deal = resolved["deal"]
    if deal == 9 and seats > 3:
        raise OptionError("deal_needs_two_or_three_seats", deal=deal, seats=seats)
    if seats * deal + BOARD_CARDS > 52:
        allowed = (6, 7, 9, 10, 13) if seats <= 3 else (6, 7, 10, 13)
        largest = max(d for d in allowed if seats * d + BOARD_CARDS <= 52)
        raise OptionError("deal_too_large", deal=deal, seats=seats, maximum=largest)
    return resolved


def make_setup(
    seats: int,
    seed: int | str,
    options: Mapping[str, Any] | None,
    dealer_draws: tuple[DealerDraw, ...] = (),
) -> Setup:
    """A checked ``Setup``; raise ``OptionError`` for impossible settings."""
    resolved = check_options(seats, seed, options)
    return Setup(seats, seed, MappingProxyType(resolved), dealer_draws)
