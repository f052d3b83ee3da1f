"""Which of a few sentences was said: pocketsphinx with a grammar, its English model only.

One decoder is loaded once (about 0.1 s) and kept warm; each distinct set of sentences
becomes a grammar search, kept in a small cache, so a command costs only its decoding. The
dictionary is cut down to the words a grammar can hold (``grammar.VOCABULARY``), which
saves most of the full one's memory and load time. Nothing is downloaded: the model ships
inside the pocketsphinx wheel.
"""

from __future__ import annotations

import hashlib
import logging
import math
import operator
import random
import tempfile
import threading
from array import array
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

from pocketsphinx import Config, Decoder, get_model_path

from services.assistant.speech.grammar import VOCABULARY, jsgf

log = logging.getLogger("gamenight.assistant.speech")
GRAMMAR_CACHE = 32
# Below this RMS (of 32767) a clip holds no speech worth decoding: about -50 dBFS.
SILENCE_RMS = 100.0
# Exact digital silence (synthetic speech, some browsers' noise suppression) throws the
# model's feature normalisation off: measured here, espeak-ng commands went from about 65%
# to 90-95% recognised with a faint noise floor (-45 dBFS) under them and on both ends.
NOISE_FLOOR = 300
PAD_SECONDS = 0.3
KEEP_SECONDS = 0.3
# The grammar always finds its nearest sentence, even for "pass the salt please": a path
# that costs more than this per 10 ms frame (log base 1.0001, as pocketsphinx scores) is
# not taken as said. Measured here on espeak-ng: sentences of the grammar cost 12-26,
# other words that still found a whole sentence 28-44 (a few, like "play some music"
# heard as "who plays", cost less: the phone shows what was heard).
MAX_COST_PER_FRAME = 27.5
LOG_BASE = 1.0001
_NOISE_SOURCE = random.Random(8)  # the same faint noise every time: results are repeatable
_NOISE = array("h", (_NOISE_SOURCE.randint(-NOISE_FLOOR, NOISE_FLOOR) for _ in range(1 << 17)))


def _model_dir() -> Path:
    return Path(get_model_path()) / "en-us"


def _dictionary_lines(words: frozenset[str]) -> list[str]:
    """The lines of the wheel's English dictionary for ``words`` (alternates included)."""
    lines = []
    with (_model_dir() / "cmudict-en-us.dict").open(encoding="utf-8") as full:
        for line in full:
            head = line.split(" ", 1)[0]
            if head.split("(", 1)[0] in words:
                lines.append(line.rstrip("\n"))
    missing = words - {line.split(" ", 1)[0].split("(", 1)[0] for line in lines}
    if missing:
        raise ValueError(f"words missing from the dictionary: {sorted(missing)}")
    return lines


def _samples(pcm: bytes) -> array[int]:
    samples = array("h")
    samples.frombytes(pcm[: len(pcm) // 2 * 2])
    return samples


def loudness(pcm: bytes) -> float:
    """The root mean square of 16-bit little-endian samples."""
    samples = _samples(pcm)
    if not samples:
        return 0.0
    return float((sum(map(operator.mul, samples, samples)) / len(samples)) ** 0.5)


def trimmed(pcm: bytes, rate: int = 16000) -> bytes:
    """``pcm`` without the silence beyond ``KEEP_SECONDS`` around its loud part.

    The phone sends its pause before it stops (and whatever came before the words):
    decoding time grows with the clip, so quiet that holds no word is cut off first.
    """
    samples = _samples(pcm)
    frame = rate // 100
    levels = [
        loudness(samples[start : start + frame].tobytes())
        for start in range(0, len(samples), frame)
    ]
    if not levels:
        return pcm
    threshold = max(3 * SILENCE_RMS, 0.05 * max(levels))
    loud = [index for index, level in enumerate(levels) if level > threshold]
    if not loud:
        return pcm
    keep = int(KEEP_SECONDS * 100)
    first, last = max(0, loud[0] - keep), min(len(levels), loud[-1] + 1 + keep)
    return samples[first * frame : last * frame].tobytes()


def with_noise_floor(pcm: bytes, rate: int = 16000) -> bytes:
    """``pcm`` over a faint noise, with a quarter second of that noise before and after."""
    pad = int(PAD_SECONDS * rate)
    samples = _samples(pcm)
    mixed = [0] * pad + list(samples) + [0] * pad
    if len(mixed) > len(_NOISE):
        mixed = mixed[: len(_NOISE)]
    mixed = list(map(operator.add, mixed, _NOISE))
    if max(mixed) > 32767 or min(mixed) < -32768:
        mixed = [min(32767, max(-32768, sample)) for sample in mixed]
    return array("h", mixed).tobytes()


class Recognizer:
    """Decodes 16 kHz mono 16-bit speech against a list of sentences; thread-safe."""

    def __init__(self, cache_size: int = GRAMMAR_CACHE) -> None:
        self._lock = threading.Lock()
        self._cache_size = cache_size
        self._searches: OrderedDict[str, frozenset[str]] = OrderedDict()
        with tempfile.TemporaryDirectory(prefix="gamenight-dict-") as folder:
            dictionary = Path(folder) / "words.dict"
            dictionary.write_text("\n".join(_dictionary_lines(VOCABULARY)) + "\n", "utf-8")
            config = Config(
                hmm=str(_model_dir() / "en-us"), dict=str(dictionary), lm=None, loglevel="FATAL"
            )
            self._decoder = Decoder(config)

    def recognize(self, pcm: bytes, choices: Sequence[str]) -> str | None:
        """The sentence of ``choices`` that was said, or None for silence or anything else."""
        if not choices or loudness(pcm) < SILENCE_RMS:
            return None
        with self._lock:
            allowed = self._activate(choices)
            self._decoder.start_utt()
            self._decoder.process_raw(with_noise_floor(trimmed(pcm)), full_utt=True)
            self._decoder.end_utt()
            hypothesis = self._decoder.hyp()
            frames = max(1, self._decoder.n_frames())
        if hypothesis is None:
            return None
        text = " ".join(str(hypothesis.hypstr).split())
        # A path that stopped inside a sentence ("what can i" of noise) is no sentence.
        if text not in allowed:
            return None
        # The Python binding gives the path's score as a probability: back to log units.
        cost = -math.log(max(float(hypothesis.score), 1e-300)) / math.log(LOG_BASE) / frames
        return text if cost <= MAX_COST_PER_FRAME else None

    def cached_grammars(self) -> list[str]:
        """The names of the grammar searches kept warm, oldest first."""
        with self._lock:
            return list(self._searches)

    def _activate(self, choices: Sequence[str]) -> frozenset[str]:
        grammar = jsgf(choices)
        name = "g" + hashlib.sha1(grammar.encode("utf-8"), usedforsecurity=False).hexdigest()[:16]
        allowed = self._searches.get(name)
        if allowed is None:
            self._decoder.add_jsgf_string(name, grammar)
            allowed = frozenset(choices)
            self._searches[name] = allowed
            while len(self._searches) > self._cache_size:
                old, _ = self._searches.popitem(last=False)
                self._decoder.remove_search(old)
        self._searches.move_to_end(name)
        self._decoder.activate_search(name)
        return allowed
