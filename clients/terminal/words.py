"""The pages' own translations (clients/web/i18n), worded for a terminal."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

CATALOGUES = Path(__file__).resolve().parent.parent / "web" / "i18n"
LANGUAGES = ("en", "fr", "pt", "nl")
SUIT_SYMBOL = {"H": "♥", "D": "♦", "C": "♣", "S": "♠", "T": "★"}
FACE_RANKS = {1: "A", 11: "J", 12: "Q", 13: "K"}
CARD_PARAMS = frozenset({"card", "top", "bottom", "discard", "drawn", "taken"})
PILE_PARAMS = frozenset({"pile", "from", "to"})
SEAT_PARAMS = frozenset({"seat", "next_seat", "current_seat", "dealer", "first_seat"})
_CARD = re.compile(r"^(?:[2-9]|10|[AJQK])[HDCST]$|^JK$")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


class Words:
    """One language's catalogue (English behind it), with the table's names by seat."""

    def __init__(self, lang: str) -> None:
        self.lang = lang if lang in LANGUAGES else "en"
        self._english = _load("en")
        self._own = _load(self.lang)
        self.names: dict[int, str] = {}

    def has(self, key: str) -> bool:
        return key in self._own or key in self._english

    def t(self, key: str, params: Mapping[str, Any] | None = None) -> str:
        template = self._own.get(key, self._english.get(key))
        if template is None:
            return key
        given = params or {}

        def fill(match: re.Match[str]) -> str:
            name = match.group(1)
            return self.param(name, given[name]) if name in given else match.group(0)

        return _PLACEHOLDER.sub(fill, template)

    def describe(self, kind: str, code: str, params: Mapping[str, Any]) -> str:
        """A coded answer, refusal or event as a sentence; unknown codes still say something."""
        key = f"{kind}.{code}"
        return self.t(key, params) if self.has(key) else self.t(f"{kind}.unknown", {"code": code})

    def colon(self) -> str:
        """A colon and its spaces: French puts a no-break space before it."""
        return "\u00a0: " if self.lang == "fr" else ": "

    def card(self, code: str) -> str:
        if code == "JK":
            return self.t("card.joker_short")
        return f"{code[:-1]}{SUIT_SYMBOL.get(code[-1], code[-1])}"

    def cards(self, codes: Sequence[str]) -> str:
        return " ".join(self.card(code) for code in codes)

    def name_of(self, seat: int | None) -> str:
        if seat is None:
            return self.t("ui.the_table")
        return self.names.get(seat) or self.t("ui.seat_n", {"number": seat + 1})

    def param(self, name: str, value: Any) -> str:
        if isinstance(value, list):
            if all(isinstance(v, str) and _CARD.match(v) for v in value) and value:
                return ", ".join(self.card(v) for v in value)
            if name in ("seats", "winners"):
                return ", ".join(self.name_of(v) for v in value)
            if name == "piles":
                return ", ".join(self.param("pile", v) for v in value)
            return ", ".join(str(v) for v in value)
        if name in CARD_PARAMS and isinstance(value, str) and _CARD.match(value):
            return self.card(value)
        if name in CARD_PARAMS and value == "wild":  # a card named only in part
            return self.t("card.wild")
        for part in ("rank", "suit"):
            if name in CARD_PARAMS and self.has(f"{part}.{value}"):
                return self.t(f"{part}.{value}")
        if name in PILE_PARAMS and self.has(f"pile.{value}"):
            return self.t(f"pile.{value}")
        if name in SEAT_PARAMS and isinstance(value, int):
            return self.name_of(value)
        if name == "game" and self.has(f"game.{value}"):
            return self.t(f"game.{value}")
        if name == "wild_rank" and isinstance(value, int):
            return self.t(f"rank.{FACE_RANKS.get(value, value)}")
        if name in ("rank", "wild") and self.has(f"rank.{value}"):
            return self.t(f"rank.{value}")
        return str(value)


def _load(lang: str) -> dict[str, str]:
    loaded: dict[str, str] = json.loads((CATALOGUES / f"{lang}.json").read_text("utf-8"))
    return loaded
