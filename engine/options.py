"""Rule options: what the host may choose before a round, validated once for every game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import OptionError


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One rule option: its default and either a list of choices or an integer range."""

    name: str
    default: Any
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    # A default that depends on another option's value: (that option, {its value:
    # this default}). Used only when the host has not chosen this option itself.
    default_by: tuple[str, tuple[tuple[Any, Any], ...]] | None = None

    def default_for(self, chosen: Mapping[str, Any]) -> Any:
        """This option's default, given the other options' values."""
        if self.default_by is None:
            return self.default
        other, defaults = self.default_by
        return dict(defaults).get(chosen.get(other), self.default)

    def check(self, value: Any) -> Any:
        if self.choices:
            if value not in self.choices or isinstance(value, bool) != isinstance(
                self.default, bool
            ):
                raise OptionError("bad_option", option=self.name, value=value)
            return value
        if not isinstance(value, int) or isinstance(value, bool):
            raise OptionError("bad_option", option=self.name, value=value)
        if (self.minimum is not None and value < self.minimum) or (
            self.maximum is not None and value > self.maximum
        ):
            raise OptionError("bad_option", option=self.name, value=value)
        return value

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "default": self.default}
        if self.choices:
            data["choices"] = list(self.choices)
        else:
            data["minimum"] = self.minimum
            data["maximum"] = self.maximum
        return data


def resolve_options(
    specs: tuple[OptionSpec, ...], given: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Defaults overlaid with ``given``; refuses unknown names and bad values.

    An option not given takes its default, which may follow an earlier option's value
    (``default_by``): specs list such an option after the one it follows.
    """
    known = {spec.name: spec for spec in specs}
    chosen = given or {}
    for name in chosen:
        if name not in known:
            raise OptionError("unknown_option", option=name)
    resolved: dict[str, Any] = {}
    for spec in specs:
        value = chosen[spec.name] if spec.name in chosen else spec.default_for(resolved)
        resolved[spec.name] = spec.check(value)
    return resolved
