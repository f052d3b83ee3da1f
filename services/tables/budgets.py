"""Per-seat rate budgets of the tables service's intake (token buckets).

A seat's flood is dropped before any parsing, so other seats go first; a reconnecting
phone's syncs, each costing a view, have a budget of their own.
"""

from __future__ import annotations

import time
from collections.abc import Callable

SEAT_BURST, SEAT_RATE = 300.0, 100.0  # messages per seat: more are dropped unread
SYNC_BURST, SYNC_RATE = 20.0, 5.0  # per seat: a reconnecting phone needs one or two


class SeatBudgets:
    """Token buckets per (table, seat): one for every message, one for syncs."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.seat_tokens: dict[tuple[str, int], tuple[float, float]] = {}  # thread: paho's
        self.sync_tokens: dict[tuple[str, int], tuple[float, float]] = {}

    def intake_allowed(self, code: str, seat: int | None) -> bool:
        """Per seat, at most ``SEAT_BURST`` messages at once then ``SEAT_RATE`` a second.

        Far above what a phone, a bot or the assistant sends for one seat; a sender over
        it resends its intents (same id) once the flood has passed.
        """
        key = (code, -1 if seat is None else seat)
        now = self.clock()
        tokens, then = self.seat_tokens.get(key, (SEAT_BURST, now))
        tokens = min(SEAT_BURST, tokens + (now - then) * SEAT_RATE)
        if tokens < 1:
            self.seat_tokens[key] = (tokens, now)
            return False
        self.seat_tokens[key] = (tokens - 1, now)
        return True

    def sync_allowed(self, code: str, seat: int) -> bool:
        """``SYNC_BURST`` syncs at once, then ``SYNC_RATE`` a second."""
        now = self.clock()
        tokens, then = self.sync_tokens.get((code, seat), (SYNC_BURST, now))
        tokens = min(SYNC_BURST, tokens + (now - then) * SYNC_RATE)
        if tokens < 1:
            return False
        self.sync_tokens[(code, seat)] = (tokens - 1, now)
        return True
