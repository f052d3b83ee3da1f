"""What the tables service needs of a store, and how ``--store`` chooses one.

Two stores keep the same promises: the SQLite ``Store`` (one machine, the default) and
``JetStreamStore`` (a replicated log on a NATS cluster, for several copies of the
service). Both fence every append with the table's epoch: a copy that lost a table gets
``LeaseLostError`` and never writes to it again.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit


class TableStore(Protocol):
    """The table log, each table's owner and epoch, and the rows derived from the log."""

    def claim_open_tables(self, owner: str) -> dict[str, int]:
        """Take the open tables this copy may take at start; ``{code: new epoch}``."""
        ...

    def create_table(self, code: str, game: str, owner: str) -> int:
        """Register a new table owned by ``owner``; return its first epoch."""
        ...

    def close_table(self, code: str, epoch: int) -> None:
        """Mark a table closed, if ``epoch`` still owns it (``LeaseLostError`` if not)."""
        ...

    def last_activity(self, code: str) -> float | None:
        """Wall-clock time of the table's newest entry (None if unknown)."""
        ...

    def table_exists(self, code: str) -> bool: ...

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
        """Append one accepted entry, only while ``epoch`` owns the table."""
        ...

    def entries(self, code: str) -> Iterator[dict[str, Any]]:
        """The log of one table, oldest first."""
        ...

    def log_length(self, code: str) -> int: ...

    def close(self) -> None: ...


def store_kind(spec: str | Path | None) -> tuple[str, str]:
    """``("sqlite", path)`` or ``("nats", "nats://a,nats://b")`` from a ``--store`` value.

    ``None`` is the default file; ``sqlite:PATH`` or a bare path is a SQLite file;
    ``nats://HOST:PORT[,nats://HOST:PORT...]`` is a NATS cluster's JetStream.
    """
    if spec is None:
        return "sqlite", "gamenight.db"
    text = str(spec)
    if text.startswith("nats://") or text.startswith("tls://"):
        for url in text.split(","):
            parts = urlsplit(url)
            if parts.scheme not in ("nats", "tls") or not parts.hostname:
                raise ValueError(f"not a NATS address: {url!r}")
        return "nats", text
    if text.startswith("sqlite:"):
        return "sqlite", text.removeprefix("sqlite:")
    return "sqlite", text
