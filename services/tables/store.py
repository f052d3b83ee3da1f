"""The tables service's SQLite file: tables, players, the append-only log, results.

WAL with ``synchronous=NORMAL``: a commit survives a crash of the process (the case we
test with kill -9); only a power cut may lose the last few commits, which is the usual
trade for sub-millisecond appends.

Checkpoints (copying the WAL into the database file, with its fsyncs) run in a thread of
their own, on their own connection, once a second: SQLite's automatic one runs inside
whichever commit crosses 1,000 pages, and stalled that intent (and every one queued
behind it) for 20-30 ms every couple of seconds under load (``benchmarks.load``).

Ownership: each table row carries an ``epoch`` that only grows. A service that takes a
table bumps it; an append checks it inside the same transaction, so a second copy of the
service that lost the table can never write to it (``LeaseLostError``).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import sqlite_utils

from services.wire import dumps

OPEN_STATUSES = ("lobby", "playing", "round_over", "finished")


# Appends only while ``epoch`` is still the table's: a newer owner makes it insert nothing.
_APPEND_IF_OWNER = (
    "INSERT INTO log (table_code, seq, kind, entry, at) SELECT ?, ?, ?, ?, ?"
    " WHERE EXISTS (SELECT 1 FROM tables WHERE code = ? AND epoch = ?)"
)
CLOSED = "closed"  # a table closed for idleness: kept with its log, never restored
CHECKPOINT_SECONDS = 1.0  # between the checkpointer's passes (see the module docstring)


class LeaseLostError(Exception):
    """Another copy of the service owns this table now."""


class StoreUnavailableError(Exception):
    """The store did not answer: the entry may or may not be stored (read the log again).

    The sender is not answered: it resends the intent (same id) and is answered then,
    by us or by the copy that owns the table by then.
    """


class TableMovedOnError(LeaseLostError, StoreUnavailableError):
    """Another copy took the table (its log is sealed): that copy answers the resent intent."""


# What an append may raise besides ``LeaseLostError``: not stored, or not known to be.
STORAGE_ERRORS: tuple[type[Exception], ...] = (sqlite3.Error, StoreUnavailableError)
APPEND_ERRORS: tuple[type[Exception], ...] = (LeaseLostError, *STORAGE_ERRORS)


class Store:
    """Typed access to the database file."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA busy_timeout=5000")
        self.db = sqlite_utils.Database(conn)
        # (status, game) as last written per table: most appends change neither.
        self._listed: dict[str, tuple[str, str]] = {}
        self._create_schema()
        conn.execute("PRAGMA wal_autocheckpoint=0")  # the checkpointer's job
        self._closing = threading.Event()
        self._checkpointer = threading.Thread(
            target=self._checkpoint_loop, name="sqlite-checkpoint", daemon=True
        )
        self._checkpointer.start()

    def _checkpoint_loop(self) -> None:
        """PASSIVE checkpoints: they never wait for, nor block, the appends."""
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            while not self._closing.wait(CHECKPOINT_SECONDS):
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error:  # busy or gone: the next pass tries again
                    continue
        finally:
            conn.close()

    def _create_schema(self) -> None:
        db = self.db
        if "tables" not in db.table_names():
            db.table("tables").create(
                {"code": str, "game": str, "status": str, "epoch": int, "owner": str},
                pk="code",
            )
        if "log" not in db.table_names():
            db.table("log").create(
                {"id": int, "table_code": str, "seq": int, "kind": str, "entry": str},
                pk="id",
            )
            db.table("log").create_index(["table_code", "seq"], unique=True)
        if "at" not in db.table("log").columns_dict:
            # When each entry was appended (wall clock): how idle tables are found.
            db.table("log").add_column("at", float)
        if "players" not in db.table_names():
            db.table("players").create(
                {
                    "player_id": str,
                    "table_code": str,
                    "seat": int,
                    "name": str,
                    "username": str,
                    "token_hash": str,
                    "active": int,
                },
                pk="player_id",
            )
        if "results" not in db.table_names():
            db.table("results").create(
                {"table_code": str, "seq": int, "game": str, "outcome": str},
                pk=("table_code", "seq"),
            )

    # ----------------------------------------------------------------- leases
    def claim_open_tables(self, owner: str) -> dict[str, int]:
        """Take every open table: bump its epoch and return ``{code: epoch}``."""
        marks = ",".join("?" for _ in OPEN_STATUSES)
        conn = self.db.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(
                f"UPDATE tables SET epoch = epoch + 1, owner = ? WHERE status IN ({marks})",
                (owner, *OPEN_STATUSES),
            )
            rows = conn.execute(
                f"SELECT code, epoch FROM tables WHERE status IN ({marks})", OPEN_STATUSES
            ).fetchall()
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return {str(code): int(epoch) for code, epoch in rows}

    def create_table(self, code: str, game: str, owner: str) -> int:
        """Register a new table owned by ``owner``; its first epoch is 1."""
        self.db.table("tables").insert(
            {"code": code, "game": game, "status": "lobby", "epoch": 1, "owner": owner}
        )
        return 1

    def close_table(self, code: str, epoch: int) -> None:
        """Mark a table closed (if ``epoch`` still owns it); its log stays."""
        cursor = self.db.conn.execute(
            "UPDATE tables SET status = ? WHERE code = ? AND epoch = ?", (CLOSED, code, epoch)
        )
        if cursor.rowcount != 1:
            raise LeaseLostError(code)
        self._listed.pop(code, None)

    def last_activity(self, code: str) -> float | None:
        """The time of the table's newest entry (None for a log written before we kept it)."""
        row = self.db.conn.execute(
            "SELECT MAX(at) FROM log WHERE table_code = ?", (code,)
        ).fetchone()
        return None if row is None or row[0] is None else float(row[0])

    def table_exists(self, code: str) -> bool:
        row = self.db.conn.execute("SELECT 1 FROM tables WHERE code = ?", (code,)).fetchone()
        return row is not None

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
        """Append one accepted entry (and what it implies) in one transaction."""
        conn = self.db.conn
        text = dumps(entry).decode("utf-8")  # orjson: compact, as json.dumps was, faster
        if player is None and result is None and self._listed.get(code) == (status, game):
            # The common case (a move): one statement, atomic on its own, lease included.
            cursor = conn.execute(
                _APPEND_IF_OWNER, (code, seq, str(entry["kind"]), text, time.time(), code, epoch)
            )
            if cursor.rowcount != 1:
                raise LeaseLostError(code)
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            cursor = conn.execute(
                _APPEND_IF_OWNER, (code, seq, str(entry["kind"]), text, time.time(), code, epoch)
            )
            if cursor.rowcount != 1:
                raise LeaseLostError(code)
            if self._listed.get(code) != (status, game):
                conn.execute(
                    "UPDATE tables SET status = ?, game = ? WHERE code = ?", (status, game, code)
                )
            if player is not None:
                conn.execute(
                    "INSERT OR REPLACE INTO players (player_id, table_code, seat, name, username,"
                    " token_hash, active) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        player["player_id"],
                        code,
                        player["seat"],
                        player["name"],
                        player.get("username"),
                        player.get("token_hash"),
                        int(player.get("active", 1)),
                    ),
                )
            if result is not None:
                conn.execute(
                    "INSERT OR REPLACE INTO results (table_code, seq, game, outcome)"
                    " VALUES (?, ?, ?, ?)",
                    (code, seq, result["game"], json.dumps(result["outcome"])),
                )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        self._listed[code] = (status, game)

    def entries(self, code: str) -> Iterator[dict[str, Any]]:
        """The log of one table, oldest first."""
        rows = self.db.conn.execute(
            "SELECT entry FROM log WHERE table_code = ? ORDER BY seq", (code,)
        )
        for (text,) in rows:
            entry: dict[str, Any] = json.loads(text)
            yield entry

    def log_length(self, code: str) -> int:
        row = self.db.conn.execute(
            "SELECT COUNT(*) FROM log WHERE table_code = ?", (code,)
        ).fetchone()
        return int(row[0])

    def close(self) -> None:
        self._closing.set()
        self._checkpointer.join()
        self.db.conn.close()  # the last connection: checkpoints what is left
