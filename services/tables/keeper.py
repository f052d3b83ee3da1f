"""Keeps this copy's leases, and takes over the tables of copies that died.

Every ``HEARTBEAT_SECONDS`` (a thread of its own):

1. heartbeat: renews every lease this copy holds (``Leases.heartbeat``);
2. liveness: a copy whose heartbeat key has not changed for ``LEASE_SECONDS`` is dead;
3. takeover: the tables leased to dead copies are shared out among the live ones
   (rendezvous hashing on the table code, so the live copies agree without talking);
   a table its chosen copy has not taken within ``ORPHAN_GRACE_SECONDS`` is taken by
   anyone. A take is a compare-and-set on the lease (epoch + 1), then a rebuild from
   the log (which seals the log at the new epoch), then fresh views;
4. repair: a table we hold but no longer serve (an append failed, NATS was away) is
   claimed again at a new epoch and rebuilt, or given up if someone else has it. If our
   heartbeats lapsed, every held table is checked that way.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Callable, Iterable

from services.tables.jetstream import JetStreamStore
from services.tables.leases import HEARTBEAT_SECONDS, LEASE_SECONDS, NO_OWNER, Lease
from services.tables.service import TablesService

log = logging.getLogger("gamenight.tables")

ORPHAN_GRACE_SECONDS = 1.5  # then any live copy takes a dead copy's table
RESCAN_SECONDS = 10.0  # a full look at the leases now and then, whatever happened


def rendezvous(key: str, candidates: Iterable[str]) -> str:
    """The candidate chosen for ``key``: the same answer on every copy, spread evenly."""
    return max(candidates, key=lambda name: (_weight(key, name), name))


def _weight(key: str, name: str) -> bytes:
    # A real hash: crc32 of such near-identical strings gave one copy of three half the keys.
    return hashlib.blake2b(f"{key}/{name}".encode(), digest_size=8).digest()


class LeaseKeeper:
    """The heartbeat, liveness and takeover loop of one copy of the tables service."""

    def __init__(
        self,
        store: JetStreamStore,
        service: TablesService,
        on_takeover: Callable[[], None] = lambda: None,
        after_adopt: Callable[[str], None] = lambda code: None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.leases = store.leases
        self.service = service
        self.owner = store.owner
        self.on_takeover = on_takeover  # e.g. say "online" again: senders resend at once
        self.after_adopt = after_adopt  # e.g. the presence heard while another copy had it
        self.clock = clock
        self.live: list[str] = [self.owner]
        self._seen: dict[str, tuple[int, float]] = {}  # copy -> (revision, since when)
        self._orphans: dict[str, float] = {}  # table -> since when its owner is dead
        self._dead: set[str] = set()
        self._next_scan = 0.0
        self._beating = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> LeaseKeeper:
        self._thread = threading.Thread(target=self._loop, name="lease-keeper", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _loop(self) -> None:
        while not self._stop.wait(HEARTBEAT_SECONDS):
            try:
                self.round()
            except Exception:  # the keeper must outlive NATS being away for a while
                log.exception("lease round failed")

    # ------------------------------------------------------------------ one round
    def heartbeat(self) -> bool:
        if self._beating and not self.leases.valid():
            # Our heartbeats were late (we were paused, or NATS was away): another copy
            # may have taken tables. Settle that before our leases count as valid again
            # (until then this copy ignores its tables' messages: their senders resend).
            log.warning("lease heartbeats were late: checking every table we hold")
            self._settle_all()
        beat = self.leases.heartbeat(len(self.service.tables))
        self._beating = self._beating or beat
        return beat

    def _settle_all(self) -> None:
        """Claim every held table again at a new epoch (all at once), or give it up."""
        with self.service.lock:  # no table is being created meanwhile
            seen = dict(self.leases.held)
            epochs, unknown = self.store.try_take_over(seen)
            for code in seen:
                if code in epochs:
                    self._adopt(code, epochs[code])
                elif code in unknown:
                    # NATS failed (a stream leader being elected): maybe still ours. Not
                    # served until ``_recheck`` claims it again; given up, no copy would
                    # take it (its lease names a live copy) and it would answer nobody.
                    self.service.drop(code)
                else:
                    self._lost(code)

    def round(self) -> None:
        if not self.heartbeat():
            return
        now = self.clock()
        copies = self.leases.copies()
        live = [self.owner]
        for name, (revision, _tables) in copies.items():
            if name == self.owner:
                continue
            seen = self._seen.get(name)
            if seen is None or seen[0] != revision:
                self._seen[name] = seen = (revision, now)
            if now - seen[1] < LEASE_SECONDS:
                live.append(name)
        self.live = sorted(live)
        dead = set(copies) - set(live)
        if dead != self._dead or self._orphans or now >= self._next_scan:
            newly_dead = dead - self._dead
            self._dead = dead
            self._next_scan = now + RESCAN_SECONDS
            self._scan(now)
            if newly_dead:
                self.on_takeover()  # its will said "offline": we are here, tables or not
        self._recheck(list(self.leases.held), only_missing=True)

    def _scan(self, now: float) -> None:
        """Look at every lease: take our share of the dead copies' tables."""
        orphans: dict[str, float] = {}
        ours: dict[str, Lease] = {}
        mine: dict[str, Lease] = {}
        for code, lease in self.leases.snapshot().items():
            held = self.leases.held.get(code)
            if lease.owner == self.owner and (held is None or held.revision < lease.revision):
                # Ours, at a revision we never heard of (a claim whose reply NATS lost):
                # nobody else would take it. Taken back (checked under the lock, below).
                mine[code] = lease
                continue
            if held is not None and held.revision != lease.revision:
                self._lost(code)  # someone took it from us
                continue
            if lease.owner in (NO_OWNER, self.owner) or lease.owner in self.live:
                continue  # a copy never heard from (its key long expired) is dead too
            since = self._orphans.get(code, now)
            if rendezvous(code, self.live) == self.owner or now - since >= ORPHAN_GRACE_SECONDS:
                ours[code] = lease
            else:
                orphans[code] = since
        self._orphans = orphans
        if mine:
            with self.service.lock:  # a table being created is held once this is free
                mine = {c: lease for c, lease in mine.items() if self._unheld(c, lease)}
            if mine:
                log.warning("%d tables leased to this copy but not held: taken back", len(mine))
            ours.update(mine)
        if ours:
            self._take(ours)

    def _unheld(self, code: str, lease: Lease) -> bool:
        held = self.leases.held.get(code)
        return held is None or held.revision < lease.revision

    def _take(self, seen: dict[str, Lease]) -> None:
        """Claim and read the tables at once, then adopt them one by one (under the lock)."""
        try:
            epochs = self.store.take_over(seen)
        except Exception:
            log.exception("could not take over %d tables", len(seen))
            return
        for code, epoch in epochs.items():
            with self.service.lock:
                self._adopt(code, epoch)
        if epochs:
            log.info("took %d tables from %s", len(epochs), sorted({seen[c].owner for c in epochs}))

    def _adopt(self, code: str, epoch: int) -> None:
        try:
            self.service.adopt(code, epoch, show=False)
        except Exception:  # NATS away: the next round tries again (we hold the lease)
            log.exception("could not rebuild table %s", code)
            self.service.drop(code)
            return
        self.after_adopt(code)  # before its first views: they show who is online
        self.service.publish_views(self.service.tables[code])

    def _recheck(self, codes: list[str], only_missing: bool = False) -> None:
        """Claim again (new epoch, rebuilt) each held table, or give it up if it is gone.

        ``only_missing``: only those we hold but do not serve (not one being created).
        """
        for code in codes:
            if only_missing and code in self.service.tables:
                continue
            with self.service.lock:
                held = self.leases.held.get(code)
                if held is None or (only_missing and code in self.service.tables):
                    continue
                epoch = self.store.claim(code, held)
                if epoch is None:
                    self._lost(code)
                    continue
                self._adopt(code, epoch)

    def _lost(self, code: str) -> None:
        self.leases.held.pop(code, None)
        self.service.drop(code)
