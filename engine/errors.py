"""Rule errors with stable codes and parameters, so every screen can translate them.

``ActionSyntaxError``: the action could not be read at all (its wire form is wrong).
``IllegalActionError``: a well-formed action that the rules do not allow now.
Both leave the state unchanged: states are immutable.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any


class RuleError(ValueError):
    """Base of every refusal by an engine: a code and its parameters."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code if not params else f"{code} {params}")
        self.code = code
        self.params: Mapping[str, Any] = MappingProxyType(dict(params))

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}


class ActionSyntaxError(RuleError):
    """The action's wire form is not one the game knows."""


class IllegalActionError(RuleError):
    """A readable action that the rules refuse in this position."""


class OptionError(RuleError):
    """A rule option (or the seat count) that the game does not accept."""
