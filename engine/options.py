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
    """Defaults overlaid with ``given``; refuses unknown names and bad values."""
    known = {spec.name: spec for spec in specs}
    for name in given or {}:
        if name not in known:
            raise OptionError("unknown_option", option=name)
    return {spec.name: spec.check((given or {}).get(spec.name, spec.default)) for spec in specs}
