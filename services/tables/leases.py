"""Leases on tables in a NATS key-value bucket: one owner per table, an epoch that only grows.

``gn_leases``: one key per table, value ``{"owner": NAME, "epoch": N}``. A lease changes
hands only by a compare-and-set on the key's revision (``update(..., last=revision)``),
always to ``epoch + 1``: two copies racing for one table cannot both win, and epochs
never go back, whatever the interleaving. A closed table's lease has no owner.

Renewal is per copy, not per table: each copy puts its own key in ``gn_copies`` every
``HEARTBEAT_SECONDS``; that renews every lease it holds. A copy whose key has not changed
for ``LEASE_SECONDS`` (as timed by the observer's own clock: no clocks are compared) is
dead, and its tables are taken over. A copy also stops writing by itself once its last
heartbeat is older than ``LEASE_SECONDS - MARGIN_SECONDS``: before anyone may take over.
The log's expected-sequence publish fences whatever slips through (see ``jetstream``).
"""

from __future__ import annotations

import contextlib
import json
import time
from dataclasses import dataclass
from typing import Any

from nats.js.errors import KeyNotFoundError, KeyWrongLastSequenceError, NoKeysError
from nats.js.kv import KeyValue

from services.tables.natsloop import NatsLoop

LEASES_BUCKET = "gn_leases"
COPIES_BUCKET = "gn_copies"
HEARTBEAT_SECONDS = 0.5
# A copy silent this long is dead: noticed 3-3.5 s after its death (under 5 s with the
# takeover), and a copy slowed by a loaded machine is not taken for dead too soon.
LEASE_SECONDS = 3.0
# A copy stops writing this long before others may take over. Not what makes it safe (the
# new owner seals the log first, so a stale append fails whatever the clocks say): it
# only spares a copy whose heartbeats are late appends that would be refused anyway.
MARGIN_SECONDS = 0.25
NO_OWNER = ""  # a closed table's lease


@dataclass(frozen=True)
class Lease:
    """Who owns one table, at which epoch, as of KV revision ``revision``."""

    owner: str
    epoch: int
    revision: int

    def encode(self) -> bytes:
        return json.dumps({"owner": self.owner, "epoch": self.epoch}).encode()

    @classmethod
    def decode(cls, value: bytes | None, revision: int) -> Lease:
        data: dict[str, Any] = json.loads(value or b"{}")
        return cls(str(data.get("owner", NO_OWNER)), int(data.get("epoch", 0)), revision)


class Leases:
    """This copy's view of the lease bucket: what it holds, and whether it may still write."""

    def __init__(self, nats_loop: NatsLoop, owner: str, replicas: int = 1) -> None:
        self.nats = nats_loop
        self.owner = owner
        self.replicas = replicas
        self.held: dict[str, Lease] = {}  # table code -> our lease on it
        self._valid_until = 0.0  # monotonic: our last heartbeat + LEASE - MARGIN
        self._leases: KeyValue | None = None
        self._copies: KeyValue | None = None

    async def setup(self) -> None:
        js = self.nats.js
        self._leases = await js.create_key_value(
            bucket=LEASES_BUCKET, history=1, replicas=self.replicas
        )
        # A dead copy's key goes after a while; the observers' clocks decide, not this TTL.
        self._copies = await js.create_key_value(
            bucket=COPIES_BUCKET, history=1, replicas=self.replicas, ttl=3600.0
        )

    @property
    def kv(self) -> KeyValue:
        assert self._leases is not None, "setup() first"
        return self._leases

    # ------------------------------------------------------------------ leases
    def create(self, code: str) -> Lease:
        """The first lease of a new table (epoch 1); fails if the table has one."""
        lease = Lease(self.owner, 1, 0)
        revision = self.nats.run(self.kv.create(code, lease.encode()))
        self.held[code] = Lease(self.owner, 1, revision)
        return self.held[code]

    def get(self, code: str) -> Lease | None:
        try:
            entry = self.nats.run(self.kv.get(code))
        except KeyNotFoundError:
            return None
        return Lease.decode(entry.value, entry.revision or 0)

    def claim(self, code: str, seen: Lease) -> Lease | None:
        """Take ``code`` from the lease ``seen`` (compare-and-set); None if it changed meanwhile."""
        return self.nats.run(self.claim_async(code, seen))

    async def claim_async(self, code: str, seen: Lease) -> Lease | None:
        lease = Lease(self.owner, seen.epoch + 1, 0)
        try:
            revision = await self.kv.update(code, lease.encode(), last=seen.revision)
        except KeyWrongLastSequenceError:
            return None
        self.held[code] = Lease(self.owner, lease.epoch, revision)
        return self.held[code]

    def release(self, code: str) -> None:
        """Give up a held table for good (it is closed): no owner, same epoch."""
        lease = self.held.pop(code, None)
        if lease is not None:
            free = Lease(NO_OWNER, lease.epoch, 0)
            with contextlib.suppress(KeyWrongLastSequenceError):  # someone else has it
                self.nats.run(self.kv.update(code, free.encode(), last=lease.revision))

    def snapshot(self) -> dict[str, Lease]:
        """Every table's lease, as the bucket has it now (one consumer, not one get each)."""
        return self.nats.run(self._snapshot(), timeout=30.0)

    async def _snapshot(self) -> dict[str, Lease]:
        watcher = await self.kv.watchall(ignore_deletes=True)
        leases: dict[str, Lease] = {}
        try:
            while True:
                entry = await watcher.updates(timeout=self.nats.timeout)  # type: ignore[no-untyped-call]
                if entry is None:
                    break
                leases[entry.key] = Lease.decode(entry.value, entry.revision or 0)
        finally:
            await watcher.stop()  # type: ignore[no-untyped-call]
        # The watcher says "that was all" when its consumer has nothing pending, which a
        # lease changed while it started can beat (a takeover's: seen in a fault test).
        # The stream's own list of keys is exact: fetch any the watcher left out.
        for key in await self._keys() - leases.keys():
            try:
                entry = await self.kv.get(key)
            except KeyNotFoundError:
                continue  # deleted
            leases[key] = Lease.decode(entry.value, entry.revision or 0)
        return leases

    async def _keys(self) -> set[str]:
        prefix = f"$KV.{LEASES_BUCKET}."
        info = await self.nats.js.stream_info(f"KV_{LEASES_BUCKET}", subjects_filter=prefix + ">")
        return {subject[len(prefix) :] for subject in (info.state.subjects or {})}

    def holds(self, code: str, epoch: int) -> bool:
        lease = self.held.get(code)
        return lease is not None and lease.epoch == epoch

    # ------------------------------------------------------------------ liveness
    def heartbeat(self, tables: int) -> bool:
        """Renew every lease we hold; False if NATS did not take it."""
        assert self._copies is not None
        sent = time.monotonic()
        value = json.dumps({"tables": tables, "at": time.time()}).encode()
        try:
            self.nats.run(self._copies.put(self.owner, value), timeout=LEASE_SECONDS)
        except Exception:  # NATS away: the lease runs out by itself
            return False
        self._valid_until = sent + LEASE_SECONDS - MARGIN_SECONDS
        return True

    def valid(self) -> bool:
        """Whether our leases are surely still ours (the last heartbeat is recent enough)."""
        return time.monotonic() < self._valid_until

    def copies(self) -> dict[str, tuple[int, int]]:
        """Every copy's heartbeat key: ``{owner: (revision, tables)}``."""
        return self.nats.run(self._copies_now())

    async def _copies_now(self) -> dict[str, tuple[int, int]]:
        assert self._copies is not None
        try:
            names = await self._copies.keys()
        except NoKeysError:
            return {}
        found: dict[str, tuple[int, int]] = {}
        for name in names:
            try:
                entry = await self._copies.get(name)
            except KeyNotFoundError:
                continue
            tables = int(json.loads(entry.value or b"{}").get("tables", 0))
            found[name] = (entry.revision or 0, tables)
        return found
