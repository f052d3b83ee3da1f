"""Five Crowns rule options (rules.md section 2), and the seat counts they allow.

- ``packs``: 1 (116 cards, 1–7 players) or 2 (232 cards, 8–14 players: the seed's
  "combine two games"). Two packs are refused below 8 players so that a small table
  plays with the cards in the box; one pack is refused above 7 (it would run short).
- ``start_round``: 1 (3 cards) … 11 (13 cards); the seed's "express" game is 6.
- ``discard_taken``: False (**default**) — a card just taken from the discard pile may
  not be thrown back in the same turn; True allows it (the seed is silent).
- ``tiebreak``: "shared" (**default**: tied leaders share the win) or "extra_round"
  (the tied leaders play one more round, 6 cards, 6s wild; still tied: shared).
- ``reshuffle``: when the stock runs out, "whole_pile" (**default**, the seed: shuffle
  the whole discard pile into a new stock and turn its top card up) or "keep_top"
  (rules.md: shuffle the pile less its top card, which stays).
- ``solo_turns``: solo play only (one player against the stock): the turns a round
  lasts at most, **default** 10 (1–50). The seed gives solo play no score; without a
  limit a round ends only when the player goes out, so every solo game totalled 0.
  A round the player has not gone out of after that many turns ends, and the hand is
  scored as at any round's end (arranged to its lowest penalty): the total means
  "how much was left in hand", lower is better, as at a full table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import OptionError
from engine.options import OptionSpec, resolve_options

MIN_SEATS = 1
MAX_SEATS = 14
MAX_SEATS_ONE_PACK = 7
FIRST_ROUND, LAST_ROUND = 1, 11

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("packs", 1, choices=(1, 2)),
    OptionSpec("start_round", FIRST_ROUND, minimum=FIRST_ROUND, maximum=LAST_ROUND),
    OptionSpec("discard_taken", False, choices=(False, True)),
    OptionSpec("tiebreak", "shared", choices=("shared", "extra_round")),
    OptionSpec("reshuffle", "whole_pile", choices=("whole_pile", "keep_top")),
    OptionSpec("solo_turns", 10, minimum=1, maximum=50),
)


@dataclass(frozen=True, slots=True)
class Variant:
    """The options of one table, resolved and checked against its seat count."""

    packs: int = 1
    start_round: int = FIRST_ROUND
    discard_taken: bool = False
    tiebreak: str = "shared"
    reshuffle: str = "whole_pile"
    solo_turns: int = 10

    def to_dict(self) -> dict[str, Any]:
        return {spec.name: getattr(self, spec.name) for spec in OPTIONS}


def resolve_variant(seats: int, given: Mapping[str, Any] | None) -> Variant:
    """Check ``seats`` and the options together; ``OptionError`` with a code otherwise."""
    if not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise OptionError("bad_seat_count", seats=seats, minimum=MIN_SEATS, maximum=MAX_SEATS)
    variant = Variant(**resolve_options(OPTIONS, given))
    if seats > MAX_SEATS_ONE_PACK and variant.packs == 1:
        raise OptionError("seats_need_two_packs", seats=seats, packs=2)
    if seats <= MAX_SEATS_ONE_PACK and variant.packs == 2:
        raise OptionError("two_packs_need_more_seats", seats=seats, minimum=8)
    return variant
