"""Keeps the garbage collector's full passes short in a long-running service.

CPython's collector walks every tracked object on a full (generation 2) pass. With a
couple of thousand tables that is tens of thousands of objects, 15-25 ms during which no
message is handled: the tail of the tables service's latency (``benchmarks.load``).
Objects that have lived a while (the tables and their states) are moved out of its way
(``gc.freeze``) just after a collection, so a full pass walks only what is new. Cyclic
garbage among frozen objects is never found, so now and then everything is unfrozen and
collected once: one longer pause an hour instead of one every few seconds.

Every 5 s, not 30: between freezes CPython's own full passes come often (a full pass is
due when what reached the oldest generation since the last one exceeds a quarter of what
it found then, and the frozen objects are not counted), each walking everything that
survived since the freeze. At 2,000 tables they grew to 16-24 ms over 30 s; with a
freeze every 5 s they stay at 3-5 ms (``benchmarks.load`` at 2,000 tables: p99 12-20 ->
6.6-7.6 ms).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Protocol

FREEZE_SECONDS = 5.0
UNFREEZE_SECONDS = 3600.0


class Collector(Protocol):
    """What of ``gc`` is used (a test gives a recorder)."""

    def collect(self) -> int: ...

    def freeze(self) -> None: ...

    def unfreeze(self) -> None: ...


class HeapKeeper:
    """Call ``tick()`` now and then (the tables service's clock thread does, every second)."""

    def __init__(
        self,
        collector: Collector = gc,
        clock: Callable[[], float] = time.monotonic,
        freeze_every: float = FREEZE_SECONDS,
        unfreeze_every: float = UNFREEZE_SECONDS,
    ) -> None:
        self.collector = collector
        self.clock = clock
        self.freeze_every = freeze_every
        self.unfreeze_every = unfreeze_every
        now = clock()
        self._next_freeze = now + freeze_every
        self._next_unfreeze = now + unfreeze_every

    def tick(self) -> None:
        now = self.clock()
        if now >= self._next_unfreeze:
            self.collector.unfreeze()  # the whole heap walked once: cycles found
            self._next_unfreeze = now + self.unfreeze_every
        elif now < self._next_freeze:
            return
        self.collector.collect()
        self.collector.freeze()
        self._next_freeze = now + self.freeze_every
