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

from services.assistant.outcomes import QUESTION_CODES, Act, Answer, Refusal, Understood
from services.assistant.reading import read
from services.assistant.words import HESITATION_SOUNDS

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
    """A sentence that says no, or takes back a card, a pile or a move ("not the queen");
    not "I don't think I have anything else", which names none."""
    return _NO.match(part) is not None or (read(part, lang).negated and not _talk(part, lang))


def _talk(part: str, lang: str | None) -> bool:
    """A sentence naming no card, no pile and no move."""
    reading = read(part, lang)
    # "take" with nothing taken is "have" said of oneself ("I don't think I have anything")
    moves = reading.concepts & _MOVES - ({"take"} if not reading.any("there", "card") else set())
    return not (reading.cards or reading.piles or moves)


def after_talk(text: str, lang: str | None) -> str | None:
    """A spoken line with talk to the room first and the move after a hesitation ("ben
    attends euh je prends la dame de carreau", "fecha a porta menino eh descarta o nove de
    paus"): the part after it, when the part before names no card, pile or move and is
    more than a name ("ben, um, draw" is told to Ben); None otherwise."""
    if _BREAK.search(text):
        return None  # written with full stops: its sentences are read one by one
    sounds = HESITATION_SOUNDS - {"um"} if lang == "pt" else HESITATION_SOUNDS
    said = text.split()
    for at, word in enumerate(said[2:-1], start=2):  # words before it, and after
        if word.lower().strip(",;:!?.…") not in sounds:  # every line passes here: cheap
            continue
        head, tail = " ".join(said[:at]), " ".join(said[at + 1 :])
        if _talk(head, lang) and not _talk(tail, lang):
            return tail
        return None  # the first hesitation after words decides
    return None


# Joiners of two steps said in one line, the first to be done first.
_THEN = re.compile(
    r"\s(?:and\s+then|and|then|et\s+(?:puis|apr[eè]s|ensuite)|puis|ensuite|et"
    r"|e\s+depois|e|depois|en\s+(?:dan|daarna)|en|daarna)\s",
    re.IGNORECASE,
)


def first_step(text: str, lang: str | None) -> str | None:
    """The first of two steps said in one line ("draw and then slap the seven on west",
    "pega a dama do lixo e descarta o sete de ouros"): the words before the joiner, when
    both sides name a card, a pile or a move; None otherwise (the caller acts on it only
    when it is the draw that must come first)."""
    match = _THEN.search(text)
    if match is None:
        return None
    head, rest = text[: match.start()], text[match.end() :]
    if _talk(head, lang) or _talk(rest, lang):
        return None
    return head.strip()


# Words that lead a repeated phrase without being its content ("le six … le six").
_LEADERS = frozenset(
    {"the", "a", "le", "la", "l", "les", "un", "une", "o", "os", "as", "um", "uma",
     "de", "het", "een", "die", "dat", "uh", "euh", "eh", "hum", "ah", "ok", "so"}
)  # fmt: skip


def said_twice(text: str) -> tuple[str, str] | None:
    """A line that says its phrase again, as people do when the room is loud ("six on the
    east one six on east", "ruite zeven ruite zeven weg"): the first saying and the
    second, cut where the phrase's first content word comes back; None when it does not."""
    words = text.split()
    plain = [re.sub(r"\W", "", word.lower()) for word in words]
    first = next((at for at, word in enumerate(plain) if word and word not in _LEADERS), None)
    if first is None:
        return None
    for again in range(first + 2, len(plain)):
        if plain[again] == plain[first]:
            cut = again
            while cut > first + 1 and plain[cut - 1] in _LEADERS:
                cut -= 1  # "le six sur le sept | le six": the article goes with the repeat
            return " ".join(words[:cut]), " ".join(words[cut:])
    return None


def once(halves: tuple[str, str], understand: Callable[[str], Understood]) -> Understood | None:
    """What a line said twice asks for: the action (or the question back) one saying names
    when the other names no other; None to read the line whole."""
    results = [understand(half) for half in halves]
    acts = [r for r in results if isinstance(r, Act)]
    asked = [r for r in results if isinstance(r, Refusal) and r.code in QUESTION_CODES]
    if len(acts) == 2:
        return acts[0] if acts[0] == acts[1] else None  # two moves: neither is cut away
    if acts:
        # "six on east, six of spades on east": the second saying chose among the first's
        chosen = acts[0].action
        fits = all(
            chosen.get("card") in r.params.get("cards", [chosen.get("card")])
            and chosen.get("pile") in r.params.get("piles", [chosen.get("pile")])
            for r in asked
        )
        return acts[0] if fits else None
    if asked and all(r == asked[0] for r in asked):
        return asked[0]
    return None


_ASKING = frozenset(
    {"what", "how", "how_many", "should", "who", "which", "where", "when", "hint", "can",
     "value", "score", "turn", "have", "left", "mean", "works", "lead", "legal"}
)  # fmt: skip


def core(text: str, lang: str | None) -> str | None:
    """A move said among talk, in clauses around it: "uncle Rob says I'm slow, fine, nine
    of clubs on the ten of hearts, happy now?". The line without the talk said before it
    and the tags or talk after it ("right?", "ça vous va ?", "pode ser?", "toch?"); None
    when nothing is cut away. A clause is cut only when it names no card, pile or move,
    says no "no" and "not", and (after the move) asks nothing of its own."""
    clauses = [part for part in re.split(r"(?<=[,;!?])\s+", text.strip()) if part.strip()]
    start, end = 0, len(clauses)
    while start < end - 1 and _cuttable(clauses[start], lang):
        start += 1
    while end > start + 1 and _tail_cuttable(clauses[end - 1], lang):
        end -= 1
    if (start, end) == (0, len(clauses)):
        return None
    kept = " ".join(clauses[start:end]).strip(" ,;")
    reading = read(kept, lang)
    named = reading.concepts & _MOVES or (
        reading.cards and (reading.piles or len(reading.cards) > 1)
    )
    # A card alone is no move ("ce joker, je l'ai attendu toute la soirée"): a verb of a
    # move, or a card and where it goes, must be said.
    return kept if named else None


# Tags asking the table to agree, after a move: cut even where their words mean more.
_TAG = re.compile(
    r"^\W*(?:right|ok(?:ay)?|alright|yeah|happy(?:\s+now)?|(?:ça|ca)\s+(?:vous\s+|te\s+)?va"
    r"|d['’ ]?accord|pode\s+ser|beleza|fechou|t[aá]|n[eé]|toch|goed|ok[eé]|prima"
    r"|satisf(?:ied|eit[oa]s?|aits?)|content(?:s|e|es)?|tevreden)\W*$",
    re.IGNORECASE,
)


def _tail_cuttable(clause: str, lang: str | None) -> bool:
    """After the move: a tag asking agreement ("right?"), or talk that asks nothing; a
    clause that carries the line's "?" otherwise keeps the line a question."""
    if _TAG.match(clause):
        return True
    return "?" not in clause and any(c.isalnum() for c in clause) and _cuttable(clause, lang)


def _cuttable(clause: str, lang: str | None) -> bool:
    """Talk or a tag: no card, pile, move or "no", and nothing asked of its own."""
    if _TAG.match(clause):
        return True
    reading = read(clause, lang)
    if _NO.match(clause) or reading.negated or reading.cards or reading.piles:
        return False
    if reading.concepts & (_MOVES | _SOURCES):  # "I'll grab one from the deck" is a move
        return False
    return not reading.concepts & _ASKING


_SOURCES = frozenset({"stock", "discard_pile", "card"})
