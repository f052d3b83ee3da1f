"""The log and the lease: two copies of the service never both write to a table."""

from __future__ import annotations

from pathlib import Path

import pytest

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
