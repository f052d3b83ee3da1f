"""Seeded shuffles that replay identically on every Python version.

The stream is BLAKE2b in counter mode over the seed and a label; each 64-bit word
feeds an unbiased Fisher-Yates step (rejection sampling, not modulo). Python's
``random`` is not used: its algorithms are not promised to stay the same.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")

_WORDS_PER_BLOCK = 8
_BLOCK = struct.Struct("<8Q")
_TWO_64 = 1 << 64


def _seed_bytes(seed: int | str) -> bytes:
    if isinstance(seed, int):
        return seed.to_bytes((seed.bit_length() + 8) // 8 + 1, "big", signed=True)
    return seed.encode("utf-8")


class SeededStream:
    """An endless stream of uniform 64-bit words for one ``(seed, label)``."""

    __slots__ = ("_counter", "_key", "_words")

    def __init__(self, seed: int | str, label: str = "") -> None:
        # BLAKE2b keys are at most 64 bytes: hash longer seeds down first.
        material = _seed_bytes(seed) + b"\x00" + label.encode("utf-8")
        self._key = hashlib.blake2b(material, digest_size=32).digest()
        self._counter = 0
        self._words: Iterator[int] = iter(())

    def _refill(self) -> None:
        block = hashlib.blake2b(self._counter.to_bytes(8, "little"), key=self._key).digest()
        self._counter += 1
        self._words = iter(_BLOCK.unpack(block))

    def word(self) -> int:
        """The next 64-bit word."""
        for value in self._words:
            return value
        self._refill()
        return next(self._words)

    def below(self, bound: int) -> int:
        """A uniform integer in ``[0, bound)``."""
        if not 0 < bound <= _TWO_64:
            raise ValueError(f"bound out of range: {bound}")
        limit = _TWO_64 - (_TWO_64 % bound)
        while True:
            value = self.word()
            if value < limit:
                return value % bound


def shuffled(items: Sequence[T], seed: int | str, label: str = "") -> list[T]:
    """A Fisher-Yates shuffle of ``items`` determined by ``(seed, label)`` alone."""
    stream = SeededStream(seed, label)
    result = list(items)
    for index in range(len(result) - 1, 0, -1):
        other = stream.below(index + 1)
        result[index], result[other] = result[other], result[index]
    return result
