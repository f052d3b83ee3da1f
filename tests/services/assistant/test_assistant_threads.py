"""The assistant reads lines in several threads at once (the service and the likeness
index building beside it): stemming and the index give each thread the right answer.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import snowballstemmer

from services.assistant import words
from services.assistant.similar import default_model

ALGORITHMS = {"en": "english", "fr": "french", "pt": "portuguese", "nl": "dutch"}
WORDS = [
    f"{stem}{ending}"
    for stem in ("pioch", "jog", "speel", "play", "acab", "tir", "compr", "discard", "kaart")
    for ending in ("", "e", "er", "ed", "ing", "ons", "ei", "aram", "ende", "ées", "ando")
]


def test_stems_in_threads_are_the_stems_of_one_thread() -> None:
    fresh = {lang: snowballstemmer.stemmer(name) for lang, name in ALGORITHMS.items()}
    expected = {
        word: tuple(fresh[lang].stemWord(word) for lang in words.LANGUAGES) for word in WORDS
    }
    start = threading.Barrier(8)

    def stem_all(offset: int) -> dict[str, tuple[str, ...]]:
        start.wait()
        got = {}
        for _ in range(20):
            words.stems.cache_clear()  # each thread stems for itself, not from the cache
            for word in WORDS[offset:] + WORDS[:offset]:
                got[word] = words.stems(word)
        return got

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(stem_all, range(0, 80, 10)))
    for got in results:
        assert got == expected


def test_the_likeness_index_is_built_once_for_callers_at_once() -> None:
    with ThreadPoolExecutor(3) as pool:
        models = list(pool.map(lambda _: default_model(), range(3)))
    assert models[0] is models[1] is models[2]
