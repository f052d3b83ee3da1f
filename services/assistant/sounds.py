"""Words that sound like (or are typed like) a card or pile word: speech slips and typos.

A recogniser hears "for of clubs", "too of spades", "cette de pique", "nought"; a thumb
types "hearst". Each word gets a rough sound key (in an English and a French reading:
silent letters dropped, like-sounding letters merged), and an unknown word that shares a
key with exactly one known word, or is one keystroke away from exactly one, is read as it.
The caller only asks where the context wants a rank, a suit or a pile.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Generic, TypeVar, cast

from services.assistant.words import (
    CONCEPTS,
    CORNER_WORDS,
    HORIZONTAL,
    RANK_WORDS,
    SUIT_WORDS,
    VERTICAL,
    concepts_of,
)

_VOWELS = "aeiouy"
Meaning = TypeVar("Meaning")


def _common(word: str) -> str:
    word = word.replace("gh", "").replace("ph", "f").replace("th", "t").replace("ck", "k")
    word = word.replace("qu", "k").replace("q", "k").replace("x", "ks").replace("z", "s")
    return re.sub(r"c(?=[eiy])", "s", word).replace("c", "k")


def _squeeze(word: str) -> str:
    """Doubled letters once, vowels after the first letter dropped, a leading vowel as "a"."""
    if not word:
        return ""
    head = "a" if word[0] in _VOWELS else word[0]
    tail = "".join(char for char in word[1:] if char not in _VOWELS + "hw")
    squeezed = head + tail
    return re.sub(r"(.)\1+", r"\1", squeezed)


@lru_cache(maxsize=4096)
def sound_keys(word: str) -> frozenset[str]:
    """Rough pronunciations of ``word``: an English reading and a French one."""
    if not word.isalpha():
        return frozenset()
    common = _common(word)
    english = re.sub(r"r(?![aeiouy])", "", common)  # non-rhotic: "four" ~ "for" ~ "fo"
    english = re.sub(r"e$", "", english) if len(english) > 3 else english
    french = re.sub(r"pt$", "t", common)  # "sept" is said "set"
    french = re.sub(r"(?<=.)[e]$", "", french)
    french = re.sub(r"(?<=..)[sdx]$", "", french)
    return frozenset({_squeeze(english), _squeeze(french)} - {"", "a"})


# Vowel groups as they sound, for ``_vowelled``: "carreau" and "carro" are one sound.
_VOWEL_GROUPS = (
    ("eau", "o"), ("oeu", "e"), ("au", "o"), ("eu", "e"), ("ou", "u"),
    ("ai", "e"), ("ei", "e"), ("ee", "i"), ("oo", "u"),
)  # fmt: skip


@lru_cache(maxsize=4096)
def _vowelled(word: str) -> str:
    """A finer sound key keeping the vowels (groups as they sound, a silent French ending
    dropped): settles a tie of ``sound_keys`` ("carro" is "carreau", not "coeur")."""
    sound = _common(word)
    for group, said in _VOWEL_GROUPS:
        sound = sound.replace(group, said)
    sound = re.sub(r"(.)\1+", r"\1", sound)
    return re.sub(r"(?<=..)(?:e|[sxtd])$", "", sound)


def _one_edit(a: str, b: str) -> bool:
    """Whether one insertion, deletion, substitution or swap of neighbours turns a into b."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and (a[diff[1]] == b[diff[0]])
        )
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


_REMEMBERED = 1 << 14  # answers kept per index: bounded, for a long-running service
_UNASKED = object()


class SoundIndex(Generic[Meaning]):
    """Known words by sound key, to find what a slip or typo stands for."""

    def __init__(
        self, words: Mapping[str, Meaning], languages: Mapping[str, str] | None = None
    ) -> None:
        self.words = dict(words)
        self.languages = dict(languages or {})  # a word's languages ("en nl"), if known
        self._by_key: dict[str, set[Meaning]] = {}
        self._closest: dict[tuple[str, str | None, bool], object] = {}
        for word, meaning in self.words.items():
            for key in sound_keys(word):
                self._by_key.setdefault(key, set()).add(meaning)

    def rhyme(self, heard: str) -> Meaning | None:
        """What ``heard`` rhymes with, when it is one meaning: its sound past the first
        letter ("heaven" and "seven"). Weaker than ``closest``: only where the words
        around want this kind of word."""
        tails = {key[1:] for key in sound_keys(heard) if len(key) >= 3}
        alike = {
            meaning
            for word, meaning in self.words.items()
            if any(key[1:] in tails for key in sound_keys(word) if len(key) >= 3)
        }
        return next(iter(alike)) if len(alike) == 1 else None

    def closest(
        self, heard: str, lang: str | None = None, *, short: bool = False
    ) -> Meaning | None:
        """What ``heard`` stands for, when every known word like it means one thing.

        Sound first; else one keystroke away; when that still leaves two meanings, the
        speaker's own language's word ("oest" is Portuguese "oeste", not Dutch "oost").
        """
        asked = (heard, lang, short)
        found = self._closest.get(asked, _UNASKED)  # a line's words are heard again and again
        if found is _UNASKED:
            found = self._find(heard, lang, short)
            if len(self._closest) >= _REMEMBERED:
                self._closest.clear()
            self._closest[asked] = found
        return cast("Meaning | None", found)

    def _find(self, heard: str, lang: str | None, short: bool) -> Meaning | None:
        if heard in self.words:
            return self.words[heard]
        alike = {meaning for key in sound_keys(heard) for meaning in self._by_key.get(key, ())}
        if len(alike) == 1:
            return next(iter(alike))
        if len(heard) == 3 and short:  # "wes", "oos": a pile word cut short by one letter
            cut = {m for w, m in self.words.items() if len(w) == 4 and w.startswith(heard)}
            return next(iter(cut)) if len(cut) == 1 and not alike else None
        if len(heard) < 4:
            return None
        near = [word for word in self.words if len(word) >= 4 and _one_edit(heard, word)]
        typed = {self.words[word] for word in near}
        if len(typed) > 1 and lang is not None:
            typed = {self.words[w] for w in near if lang in self.languages.get(w, lang).split()}
        if len(typed) == 1 and (not alike or typed <= alike):
            return next(iter(typed))
        if len(alike) > 1 and not typed:  # alike without their vowels: with them, maybe one
            vowelled = _vowelled(heard)
            fine = {m for w, m in self.words.items() if m in alike and _vowelled(w) == vowelled}
            if len(fine) == 1:
                return next(iter(fine))
        return None


# Eleven to thirteen as numbers are left out: a face card is called by its name, and
# "treze" would sound like "three".
RANK_SOUNDS = SoundIndex({word: rank for word, rank in RANK_WORDS.items() if rank <= 10})
_NUMBERS_PAST_TEN = frozenset(
    {"eleven", "twelve", "thirteen", "onze", "douze", "treize", "doze", "treze", "elf",
     "twaalf", "dertien"}
)  # fmt: skip
_FACE_NAMES = {
    word: rank
    for word, rank in RANK_WORDS.items()
    if rank > 10 and len(word) >= 4 and word not in _NUMBERS_PAST_TEN
}


def typed_face(word: str) -> int | None:
    """The face card a typo of its name stands for ("kign", "qeen"): a keystroke away from
    names of one rank only. By keystrokes, not sound: a face name sounds like too much."""
    if len(word) < 3 or not word.isalpha():
        return None
    ranks = {rank for name, rank in _FACE_NAMES.items() if _one_edit(word, name)}
    return next(iter(ranks)) if len(ranks) == 1 else None


SUIT_SOUNDS = SoundIndex(SUIT_WORDS)
_PILE_LANGUAGES = {
    "north": "en", "south": "en", "east": "en", "northeast": "en", "northwest": "en",
    "southeast": "en", "southwest": "en", "nord": "fr", "sud": "fr", "est": "fr", "ouest": "fr",
    "norte": "pt", "sul": "pt", "leste": "pt", "oeste": "pt", "nordeste": "pt", "noroeste": "pt",
    "sudeste": "pt", "sudoeste": "pt", "noord": "nl", "zuid": "nl", "oost": "nl",
    "noordoost": "nl", "noordwest": "nl", "zuidoost": "nl", "zuidwest": "nl", "west": "en nl",
}  # fmt: skip
PILE_SOUNDS = SoundIndex({**VERTICAL, **HORIZONTAL, **CORNER_WORDS}, _PILE_LANGUAGES)


# Not "take": its words are wanting and having too ("envie", "envoie").
_MOVE_VERBS = frozenset({"draw", "discard", "move", "play"})
# The verbs of a move, by language, as typed in full: a thumb's slip of one of them
# ("dicsard", "descrata") or its sound spelled anyhow ("défose") is still that verb.
_TYPED_VERBS = {
    lang: {
        form: concept
        for concept in _MOVE_VERBS
        for form in CONCEPTS[concept].get(lang, ())
        if len(form) >= 5
    }
    for lang in ("en", "fr", "pt", "nl")
}


@lru_cache(maxsize=4096)
def typed_verb(word: str, lang: str | None) -> str | None:
    """The move verb an unknown word of five letters or more was meant to be, if one."""
    if len(word) < 5 or not word.isalpha():
        return None
    languages = [lang] if lang in _TYPED_VERBS else list(_TYPED_VERBS)
    sound = _vowelled(word)
    meant = {
        concept
        for code in languages
        for form, concept in _TYPED_VERBS[code].items()
        if _one_edit(word, form) or _vowelled(form) == sound
    }
    # Two letters swapped or one doubled by the thumb, in any form the stemmer knows
    # ("descrata" is "descarta").
    swapped = (word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1))
    dropped = (word[:i] + word[i + 1 :] for i in range(len(word)))
    for variant in itertools.chain(swapped, dropped):
        meant.update(concepts_of(variant, lang) & _MOVE_VERBS)
    return next(iter(meant)) if len(meant) == 1 else None
