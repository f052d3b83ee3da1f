"""The log and the lease: two copies of the service never both write to a table."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest

from services.tables.service import TablesService
from services.tables.store import LeaseLostError, Store


def test_a_table_taken_by_another_copy_refuses_the_old_owners_appends(tmp_path: Path) -> None:
    path = tmp_path / "gn.db"
    first = Store(path)
    epoch = first.create_table("ABCD", "kings-corner", "first")
    entry = {"kind": "create", "game": "kings-corner", "options": {}}
    first.append("ABCD", epoch, 1, entry, "lobby", "kings-corner")
    move = {"kind": "act", "seat": 0, "action": {"type": "draw"}, "intent_id": "i1"}
    first.append("ABCD", epoch, 2, move, "lobby", "kings-corner")  # the one-statement path
    second = Store(path)
    assert second.claim_open_tables("second") == {"ABCD": epoch + 1}
    with pytest.raises(LeaseLostError):
        first.append("ABCD", epoch, 3, move, "lobby", "kings-corner")
    with pytest.raises(LeaseLostError):  # the transaction path refuses too
        first.append("ABCD", epoch, 3, move, "playing", "kings-corner")
    second.append("ABCD", epoch + 1, 3, move, "playing", "kings-corner")
    assert [e["kind"] for e in second.entries("ABCD")] == ["create", "act", "act"]
    assert first.log_length("ABCD") == 3


@pytest.mark.parametrize(
    "failure",
    [sqlite3.OperationalError("database or disk is full"), RuntimeError("not foreseen")],
    ids=["disk-full", "unforeseen"],
)
def test_a_failed_append_leaves_the_table_as_the_log_has_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: Exception
) -> None:
    class Accounts:
        def provision(self, *args: object, **kwargs: object) -> None:
            pass

        def revoke(self, username: str) -> None:
            pass

    sent: list[tuple[str, bytes]] = []
    store = Store(tmp_path / "gn.db")
    service = TablesService(store, lambda t, p, r: sent.append((t, p)), Accounts(), "me")
    service.handle("gamenight/v1/lobby/request/create", b'{"v":1,"id":"c1"}')
    code = next(iter(service.tables))
    before = service.tables[code].seq

    def failing(*args: object, **kwargs: object) -> None:
        raise failure

    monkeypatch.setattr(store, "append", failing)
    join = {"v": 1, "id": "j1", "table": code, "name": "Ana"}
    service.handle("gamenight/v1/lobby/request/join", json.dumps(join).encode())
    reply = json.loads([p for t, p in sent if t.endswith("/response/join")][-1])
    assert reply["error"] == {"code": "storage_failed", "params": {}}
    assert service.tables[code].seats == {}  # rebuilt from the log: the join never happened
    assert service.tables[code].seq == before


def _append_moves(store: Store, count: int) -> None:
    epoch = store.create_table("ABCD", "kings-corner", "me")
    store.append("ABCD", epoch, 1, {"kind": "create", "game": "kings-corner"}, "playing", "x")
    for seq in range(2, count + 2):
        move = {"kind": "act", "seat": 0, "action": {"type": "draw"}, "intent_id": f"i{seq}"}
        store.append("ABCD", epoch, seq, move, "playing", "x")


def test_appends_never_checkpoint_the_log_themselves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SQLite's own checkpoint ran inside the append crossing 1,000 WAL pages (20-30 ms
    # with its fsyncs, under load): with the checkpointer asleep, nothing copies the WAL.
    monkeypatch.setattr("services.tables.store.CHECKPOINT_SECONDS", 3600.0)
    store = Store(tmp_path / "gn.db")
    try:
        _append_moves(store, 1500)
        page = int(store.db.conn.execute("PRAGMA page_size").fetchone()[0])
        wal = (tmp_path / "gn.db-wal").stat().st_size
        assert wal > 1200 * page  # past SQLite's automatic threshold: not checkpointed
        assert (tmp_path / "gn.db").stat().st_size < 100 * page
    finally:
        store.close()
    reopened = Store(tmp_path / "gn.db")
    try:
        assert reopened.log_length("ABCD") == 1501  # closing checkpointed it
    finally:
        reopened.close()


def test_the_checkpointer_copies_the_log_into_the_database_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("services.tables.store.CHECKPOINT_SECONDS", 0.05)
    store = Store(tmp_path / "gn.db")
    try:
        _append_moves(store, 300)
        page = int(store.db.conn.execute("PRAGMA page_size").fetchone()[0])
        pages = int(store.db.conn.execute("PRAGMA page_count").fetchone()[0])
        assert pages > 10
        deadline = time.monotonic() + 10
        while (tmp_path / "gn.db").stat().st_size < pages * page:
            assert time.monotonic() < deadline, "the WAL was never checkpointed"
            time.sleep(0.05)
    finally:
        store.close()
