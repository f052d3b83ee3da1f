"""The table log on NATS JetStream: replicated, fenced, enough to rebuild every table.

- stream ``GN_LOG``, one subject per table (``gn.log.<code>``), each message one entry
  (headers: the writer's epoch, the wall-clock time). An append is published with
  ``Nats-Expected-Last-Subject-Sequence`` set to the last message of that table we know:
  if anyone else wrote to the table since, the server refuses it (``LeaseLostError``).
- key-value buckets for what the SQLite ``Store`` keeps beside the log: ``gn_tables``
  (code -> game, status), ``gn_players`` (``<code>_<player_id>`` -> the player row) and
  ``gn_results`` (``<code>_<seq>`` -> a finished game's scores). The log alone rebuilds a
  table; these answer questions without replaying it.
- the leases (``services.tables.leases``). A copy that takes a table reads its log, then
  seals it: a fence message (no entry, header ``Gn-Fence: <epoch>``) published with the
  sequence it read last. Once that is in, every append of the previous owner fails,
  whatever it believes about its lease; if the previous owner wrote meanwhile, the seal
  fails and the log is read again.

Replicas: 3 when given three or more server addresses (a cluster), else 1.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Iterator, Mapping
from typing import Any

from nats.js import api
from nats.js.errors import (
    APIError,
    BadRequestError,
    KeyNotFoundError,
    KeyWrongLastSequenceError,
    NotFoundError,
)
from nats.js.kv import KeyValue

from services.tables.leases import NO_OWNER, Lease, Leases
from services.tables.natsloop import NatsLoop, NatsUnavailableError
from services.tables.store import (
    CLOSED,
    LeaseLostError,
    StoreUnavailableError,
    TableMovedOnError,
)

LOG_STREAM = "GN_LOG"
LOG_SUBJECT = "gn.log.{code}"
TABLES_BUCKET, PLAYERS_BUCKET, RESULTS_BUCKET = "gn_tables", "gn_players", "gn_results"
WRONG_LAST_SEQUENCE = (10071, 10164)  # the server's codes for a failed expected-sequence
TAKEOVER_AT_ONCE = 64  # tables claimed and read concurrently by one takeover
SETUP_SECONDS = 30.0  # a cluster just started may still be electing its leaders
EPOCH_HEADER, AT_HEADER, FENCE_HEADER = "Gn-Epoch", "Gn-At", "Gn-Fence"
log = logging.getLogger("gamenight.tables")


class JetStreamStore:
    """``TableStore`` on a NATS cluster; ``leases`` says which tables this copy owns."""

    def __init__(
        self,
        urls: list[str],
        owner: str,
        *,
        user: str | None = None,
        password: str | None = None,
        replicas: int | None = None,
        timeout: float = 5.0,
    ) -> None:
        self.owner = owner
        self.replicas = replicas if replicas is not None else (3 if len(urls) >= 3 else 1)
        self.nats = NatsLoop(urls, user, password, timeout)
        self.leases = Leases(self.nats, owner, self.replicas)
        self._last: dict[str, int] = {}  # table -> stream sequence of its newest entry
        self._at: dict[str, float] = {}  # table -> wall-clock time of its newest entry
        self._listed: dict[str, tuple[str, str]] = {}  # (status, game) as last written
        self._known: set[str] = set()  # codes known to exist (a table is never deleted)
        self._sealed: dict[str, int] = {}  # table -> the epoch we sealed its log at
        # Logs read by ``take_over``, with the epoch they were sealed at.
        self._prefetched: dict[str, tuple[int, list[dict[str, Any]]]] = {}
        self._tables: KeyValue | None = None
        self._players: KeyValue | None = None
        self._results: KeyValue | None = None

    def start(self) -> JetStreamStore:
        self.nats.start()
        self.nats.run(self._setup(), timeout=SETUP_SECONDS + self.nats.timeout)
        return self

    async def _setup(self) -> None:
        deadline = time.monotonic() + SETUP_SECONDS
        while True:
            try:
                await self._create_all()
                return
            except (APIError, TimeoutError):
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.5)  # no JetStream leader yet

    async def _create_all(self) -> None:
        js = self.nats.js
        config = api.StreamConfig(
            name=LOG_STREAM,
            subjects=[LOG_SUBJECT.format(code="*")],
            storage=api.StorageType.FILE,
            num_replicas=self.replicas,
            discard=api.DiscardPolicy.NEW,  # a full store refuses appends, never drops entries
        )
        try:
            await js.add_stream(config)
        except BadRequestError:  # made already by another copy, maybe with other settings
            await js.stream_info(LOG_STREAM)
        self._tables = await js.create_key_value(
            bucket=TABLES_BUCKET, history=1, replicas=self.replicas
        )
        self._players = await js.create_key_value(
            bucket=PLAYERS_BUCKET, history=1, replicas=self.replicas
        )
        self._results = await js.create_key_value(
            bucket=RESULTS_BUCKET, history=1, replicas=self.replicas
        )
        await self.leases.setup()

    def _run(self, coroutine: Any, timeout: float | None = None) -> Any:
        """Run on the NATS loop; any failure but a fence is 'not known to be stored'."""
        try:
            return self.nats.run(coroutine, timeout)
        except NatsUnavailableError:
            raise
        except (KeyWrongLastSequenceError, LeaseLostError, KeyNotFoundError, NotFoundError):
            raise
        except APIError as error:
            if error.err_code in WRONG_LAST_SEQUENCE:
                raise
            raise StoreUnavailableError(str(error)) from None

    # ----------------------------------------------------------------- leases
    def claim_open_tables(self, owner: str) -> dict[str, int]:
        """At start: take back the open tables whose lease is ours (a restart of this copy).

        Other copies' tables are taken only once those copies are seen dead (the keeper).
        """
        ours = {
            code: lease for code, lease in self.leases.snapshot().items() if lease.owner == owner
        }
        return self.take_over(ours)

    def claim(self, code: str, seen: Lease) -> int | None:
        """Take an open table from the lease ``seen``; its new epoch, or None."""
        if seen.owner == NO_OWNER or self._status(code) in (None, CLOSED):
            return None
        lease = self._run(self._claim(code, seen))
        return None if lease is None else lease.epoch

    async def _claim(self, code: str, seen: Lease) -> Lease | None:
        """``Leases.claim_async``, and if the lease changed: ours anyway, it is taken again.

        A claim whose reply NATS lost (a leader being elected) may have been made: the
        lease then names us at a revision we never heard of. Giving that table up would
        leave it to nobody (no copy takes a live copy's table), so it is claimed again.
        """
        taken = await self.leases.claim_async(code, seen)
        if taken is not None:
            return taken
        try:
            entry = await self.leases.kv.get(code)
        except KeyNotFoundError:
            return None
        now = Lease.decode(entry.value, entry.revision or 0)
        if now.owner != self.owner:
            return None  # another copy's now
        return await self.leases.claim_async(code, now)

    def take_over(self, seen: Mapping[str, Lease]) -> dict[str, int]:
        """Claim many tables at once and read their logs back (sealed): ``{code: epoch}``.

        Concurrent, so that a copy taking a thousand tables does it in about the time
        of a few dozen; ``entries`` then answers those tables from what was read.
        """
        return self.try_take_over(seen)[0]

    def try_take_over(self, seen: Mapping[str, Lease]) -> tuple[dict[str, int], set[str]]:
        """``take_over``, and the tables whose fate is unknown (NATS failed: try again).

        The others not taken are surely not ours (another copy's lease, or closed).
        """
        taken, failed = self._run(self._take_over(seen), timeout=SETUP_SECONDS * 2)
        if failed:
            first = next(iter(failed.values()))
            log.warning(
                "%d of %d tables not taken over (%s: %s); tried again",
                len(failed),
                len(seen),
                type(first).__name__,
                first,
            )
        return taken, set(failed)

    async def _take_over(
        self, seen: Mapping[str, Lease]
    ) -> tuple[dict[str, int], dict[str, BaseException]]:
        assert self._tables is not None
        tables = self._tables
        at_once = asyncio.Semaphore(TAKEOVER_AT_ONCE)

        async def one(code: str, lease: Lease) -> int | None:
            async with at_once:
                try:
                    meta = json.loads((await tables.get(code)).value or b"{}")
                except KeyNotFoundError:
                    return None
                if lease.owner == NO_OWNER or meta.get("status") == CLOSED:
                    return None
                taken = await self._claim(code, lease)
                if taken is None:
                    return None
                self._prefetched[code] = (taken.epoch, await self._read_and_seal(code))
                return taken.epoch

        codes = list(seen)
        results = await asyncio.gather(*(one(c, seen[c]) for c in codes), return_exceptions=True)
        taken = {c: r for c, r in zip(codes, results, strict=True) if isinstance(r, int)}
        failed = {c: r for c, r in zip(codes, results, strict=True) if isinstance(r, BaseException)}
        return taken, failed

    def _status(self, code: str) -> str | None:
        assert self._tables is not None
        try:
            value = self._run(self._tables.get(code)).value
        except KeyNotFoundError:
            # A direct get may be served by a replica a write has not reached yet: a
            # table made a moment ago would look unknown. Ask the stream's leader.
            subject = f"$KV.{TABLES_BUCKET}.{code}"
            try:
                value = self._run(self.nats.js.get_last_msg(f"KV_{TABLES_BUCKET}", subject)).data
            except NotFoundError:
                return None
        self._known.add(code)
        meta: dict[str, Any] = json.loads(value or b"{}")
        return str(meta.get("status"))

    def create_table(self, code: str, game: str, owner: str) -> int:
        assert self._tables is not None
        meta = json.dumps({"game": game, "status": "lobby", "created": time.time()}).encode()
        try:
            self._run(self._tables.create(code, meta))
        except KeyWrongLastSequenceError:
            raise StoreUnavailableError(f"table code {code} taken meanwhile") from None
        self._known.add(code)
        self._listed[code] = ("lobby", game)
        self._last[code] = 0
        epoch = self.leases.create(code).epoch
        self._sealed[code] = epoch  # nobody wrote before us: there is nothing to fence
        return epoch

    def close_table(self, code: str, epoch: int) -> None:
        assert self._tables is not None
        if not self.leases.holds(code, epoch):
            raise LeaseLostError(code)
        game = self._listed.get(code, ("", ""))[1]
        meta = json.dumps({"game": game, "status": CLOSED}).encode()
        self._run(self._tables.put(code, meta))
        self.leases.release(code)
        self._listed.pop(code, None)

    def last_activity(self, code: str) -> float | None:
        return self._at.get(code)

    def table_exists(self, code: str) -> bool:
        return code in self._known or self._status(code) is not None

    # ----------------------------------------------------------------- the log
    def append(
        self,
        code: str,
        epoch: int,
        seq: int,
        entry: Mapping[str, Any],
        status: str,
        game: str,
        player: Mapping[str, Any] | None = None,
        result: Mapping[str, Any] | None = None,
    ) -> None:
        if not self.leases.holds(code, epoch):
            raise LeaseLostError(code)
        if not self.leases.valid():
            # Our heartbeats are late: others may be about to take over. Write nothing.
            raise StoreUnavailableError("lease not renewed in time")
        now = time.time()
        headers = {
            api.Header.EXPECTED_LAST_SUBJECT_SEQUENCE: str(self._last.get(code, 0)),
            EPOCH_HEADER: str(epoch),
            AT_HEADER: repr(now),
        }
        payload = json.dumps(entry, separators=(",", ":")).encode()
        subject = LOG_SUBJECT.format(code=code)
        try:
            ack = self._run(self.nats.js.publish(subject, payload, headers=headers))
        except APIError as error:
            if error.err_code in WRONG_LAST_SEQUENCE:
                raise TableMovedOnError(code) from None  # another copy sealed or wrote it
            raise
        self._last[code] = int(ack.seq)
        self._at[code] = now
        self._write_rows(code, seq, status, game, player, result)

    def _write_rows(
        self,
        code: str,
        seq: int,
        status: str,
        game: str,
        player: Mapping[str, Any] | None,
        result: Mapping[str, Any] | None,
    ) -> None:
        """What the entry implies beside the log (derived data: the log is the truth)."""
        assert self._tables and self._players and self._results
        if self._listed.get(code) != (status, game):
            meta = json.dumps({"game": game, "status": status}).encode()
            self._run(self._tables.put(code, meta))
            self._listed[code] = (status, game)
        if player is not None:
            row = {**player, "table_code": code, "active": int(player.get("active", 1))}
            key = f"{code}_{player['player_id']}"
            self._run(self._players.put(key, json.dumps(row).encode()))
        if result is not None:
            row = {"game": result["game"], "outcome": result["outcome"]}
            self._run(self._results.put(f"{code}_{seq}", json.dumps(row).encode()))

    def entries(self, code: str) -> Iterator[dict[str, Any]]:
        """The table's entries; if we hold the table, the log is sealed at our epoch first."""
        epoch, found = self._prefetched.pop(code, (0, []))  # read by ``take_over`` just now
        lease = self.leases.held.get(code)
        if lease is None or lease.epoch != epoch:  # not that, or no longer: read it again
            found = self._run(self._read_and_seal(code), timeout=60.0)
        return iter(found)

    async def _read_and_seal(self, code: str) -> list[dict[str, Any]]:
        while True:
            found = await self._read_log(code)
            lease = self.leases.held.get(code)
            if lease is None or self._sealed.get(code) == lease.epoch:
                return found
            headers = {
                api.Header.EXPECTED_LAST_SUBJECT_SEQUENCE: str(self._last.get(code, 0)),
                FENCE_HEADER: str(lease.epoch),
            }
            try:
                subject = LOG_SUBJECT.format(code=code)
                ack = await self.nats.js.publish(subject, b"", headers=headers)
            except APIError as error:
                if error.err_code in WRONG_LAST_SEQUENCE:
                    continue  # the previous owner wrote meanwhile: read it too, then seal
                raise
            self._last[code] = int(ack.seq)
            self._sealed[code] = lease.epoch
            return found

    async def _read_log(self, code: str) -> list[dict[str, Any]]:
        js = self.nats.js
        subject = LOG_SUBJECT.format(code=code)
        try:
            last = await js.get_last_msg(LOG_STREAM, subject)
        except NotFoundError:
            self._last[code] = 0
            return []
        assert last.seq is not None
        found: list[dict[str, Any]] = []
        subscription = await js.subscribe(
            subject, stream=LOG_STREAM, ordered_consumer=True, deliver_policy=api.DeliverPolicy.ALL
        )
        at: str | None = None
        try:
            while True:
                message = await subscription.next_msg(timeout=self.nats.timeout)
                headers = message.headers or {}
                if FENCE_HEADER not in headers:
                    found.append(json.loads(message.data))
                    at = headers.get(AT_HEADER, at)
                sequence = message.metadata.sequence.stream
                if sequence >= last.seq:
                    break
        finally:
            await subscription.unsubscribe()
        self._last[code] = int(sequence)
        if at is not None:
            self._at[code] = float(at)
        self._known.add(code)
        return found

    def log_epochs(self, code: str) -> list[int]:
        """The epoch each entry was written under, oldest first (for audits and tests)."""
        return self._run(self._read_epochs(code), timeout=60.0)  # type: ignore[no-any-return]

    async def _read_epochs(self, code: str) -> list[int]:
        js = self.nats.js
        subject = LOG_SUBJECT.format(code=code)
        try:
            last = await js.get_last_msg(LOG_STREAM, subject)
        except NotFoundError:
            return []
        epochs: list[int] = []
        subscription = await js.subscribe(subject, stream=LOG_STREAM, ordered_consumer=True)
        try:
            while True:
                message = await subscription.next_msg(timeout=self.nats.timeout)
                headers = message.headers or {}
                if FENCE_HEADER not in headers:
                    epochs.append(int(headers.get(EPOCH_HEADER, "0")))
                if message.metadata.sequence.stream >= (last.seq or 0):
                    return epochs
        finally:
            await subscription.unsubscribe()

    def log_length(self, code: str) -> int:
        return sum(1 for _ in self.entries(code))

    def close(self) -> None:
        self.nats.stop()
