"""The shape every game shares, so services, bots and generic tests need not know the game.

A game module (``engine.kings_corner``, ``engine.five_crowns``) provides:

- ``new_game(seats: int, seed: int | str, options: Mapping[str, Any] | None) -> State``
- ``parse_action(wire: Mapping[str, Any]) -> Action`` (raises ``ActionSyntaxError``)
- ``state_from_dict(data) -> State`` and ``parse_position(text) -> State``
- ``NAME``, ``MIN_SEATS``, ``MAX_SEATS`` and ``OPTIONS`` (the rule options the lobby offers)

and its ``State`` satisfies ``GameState`` below. States are immutable: ``apply`` returns a
new state and leaves the old one as it was, which makes undo, replay and look-ahead free.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, Self, runtime_checkable


class Action(Protocol):
    """An action is a small immutable value with a wire form."""

    def to_wire(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``secret`` holds what only ``seat`` may see (a drawn card)."""

    code: str
    seat: int | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    secret: Mapping[str, Any] = field(default_factory=dict)

    def for_seat(self, viewer: int | None) -> dict[str, Any]:
        """The event as ``viewer`` (None: the TV) may see it."""
        data: dict[str, Any] = {"code": self.code, "seat": self.seat, "params": dict(self.params)}
        if self.secret and viewer is not None and viewer == self.seat:
            data["params"].update(self.secret)
        return data

    def to_dict(self) -> dict[str, Any]:
        """The whole event, secrets included (for the authority's own log)."""
        return {"code": self.code, "seat": self.seat, "params": {**self.params, **self.secret}}


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: winners share the win; ``scores`` are totals per seat."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "scores": list(self.scores), "reason": self.reason}


@runtime_checkable
class GameState(Protocol):
    """The common interface of a game's state."""

    @property
    def seats(self) -> int: ...

    @property
    def current_seat(self) -> int | None: ...

    def legal_actions(self, seat: int) -> tuple[Any, ...]: ...

    def apply(self, seat: int, action: Any) -> tuple[Self, tuple[Event, ...]]: ...

    def opening_events(self) -> tuple[Event, ...]: ...

    def can_start_next_round(self) -> bool: ...

    def start_next_round(self) -> tuple[Self, tuple[Event, ...]]: ...

    def view_for(self, seat: int | None) -> dict[str, Any]: ...

    # What ``seat`` adds to the public view: view_for(seat) == view_for(None) | this.
    # ``hint=False``: without the game's advice, if its views carry one (for a reader that
    # does not use it: solving it is most of a view's cost).
    def private_view(self, seat: int, *, hint: bool = True) -> dict[str, Any]: ...

    def outcome(self) -> Outcome | None: ...

    def to_dict(self) -> dict[str, Any]: ...

    def to_position(self) -> str: ...

    def check_invariants(self) -> None: ...
