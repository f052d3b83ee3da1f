"""Lines of several sentences: the one that asks or acts, the rest being talk around it.

"Would you remind me, dear, what goes in an empty corner? I never can recall." asks one
thing; read whole, the second sentence's words blur the first's. Each sentence is read on
its own: an answer asked for in one of them stands (the first asked with "?" if they
differ); an action only when every other sentence is plain talk, naming no card and no
move, so "… on north. No, wait." or two moves are never cut down to one; and never when a
sentence says no ("the queen? no thanks").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from services.assistant.outcomes import Act, Answer, Understood
from services.assistant.reading import read

_BREAK = re.compile(r"(?<=[.?!:;…])\s+(?=\w)")
_MOVES = frozenset({"draw", "take", "discard", "go_out", "end_turn", "move", "play"})


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` that have words."""
    return [part for part in _BREAK.split(text.strip()) if any(c.isalnum() for c in part)]


def by_sentence(
    parts: list[str], understand: Callable[[str], Understood], lang: str | None
) -> Understood | None:
    """What one of ``parts`` asks for, the others being talk; None to read the line whole."""
    if any(_declines(part, lang) for part in parts):
        return None  # "the queen? no thanks": the line as a whole turns it down
    results = [(part, understand(part)) for part in parts]
    acts = [understood for _, understood in results if isinstance(understood, Act)]
    if acts:
        others = [part for part, understood in results if not isinstance(understood, Act)]
        return acts[0] if len(acts) == 1 and all(_talk(part, lang) for part in others) else None
    answers = [(part, understood) for part, understood in results if isinstance(understood, Answer)]
    if not answers:
        return None
    if len({(a.code, repr(a.params)) for _, a in answers}) == 1:
        return answers[0][1]
    asked = [understood for part, understood in answers if part.rstrip().endswith("?")]
    return asked[0] if asked else None


_NO = re.compile(r"^\W*(?:no|non|n[aã]o|nee|neen|nah|nope)\b", re.IGNORECASE)


def _declines(part: str, lang: str | None) -> bool:
    """A sentence that says no or takes something back."""
    return _NO.match(part) is not None or read(part, lang).negated


def _talk(part: str, lang: str | None) -> bool:
    """A sentence naming no card, no pile and no move, and taking nothing back."""
    reading = read(part, lang)
    return not (reading.cards or reading.piles or reading.negated or reading.concepts & _MOVES)
