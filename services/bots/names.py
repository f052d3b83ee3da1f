"""Friendly names for computer players, in the table's language."""

from __future__ import annotations

from collections.abc import Iterable

NAMES: dict[str, tuple[str, ...]] = {
    "en": ("Ada", "Max", "Ruby", "Otto", "Ivy", "Felix", "Rosie", "Hugo"),
    "fr": ("Camille", "Hugo", "Léa", "Jules", "Margot", "Lucien", "Zélie", "Gaston"),
    "pt": ("Rita", "Tiago", "Inês", "Duarte", "Leonor", "Vasco", "Beatriz", "Simão"),
    "nl": ("Sanne", "Bram", "Fleur", "Joost", "Lotte", "Daan", "Noor", "Teun"),
}


def bot_name(lang: str, taken: Iterable[str]) -> str:
    """The first name of ``lang``'s list nobody at the table uses (compared casefolded)."""
    used = {name.casefold() for name in taken}
    names = NAMES.get(lang, NAMES["en"])
    for name in names:
        if name.casefold() not in used:
            return name
    number = 2
    while True:  # every name taken: number them ("Ada 2"), still friendly
        for name in names:
            candidate = f"{name} {number}"
            if candidate.casefold() not in used:
                return candidate
        number += 1
