"""A join whose table is rebuilt at a new epoch while its account is being made.

The tables service makes a player's broker account without its lock (moves go on
meanwhile). On the NATS store, a copy whose heartbeats were late claims each of its
tables again and rebuilds it at a new epoch in that window. The join must then seat the
player on the rebuilt table, not fail with ``table_moved`` and drop the table.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memory_accounts import MemoryAccounts

from services.tables.service import TablesService
from services.tables.store import Store


class RebuildingAccounts(MemoryAccounts):
    """Accounts whose next provisioning runs ``during`` first (the window without the lock)."""

    def __init__(self) -> None:
        super().__init__()
        self.during: list[Any] = []

    def provision(self, username: str, password: str, *args: object, **kwargs: object) -> None:
        while self.during:
            self.during.pop()()
        super().provision(username, password, *args, **kwargs)


def test_a_join_lands_on_the_table_rebuilt_while_its_account_was_made(tmp_path: Path) -> None:
    store = Store(tmp_path / "gn.db")
    accounts = RebuildingAccounts()
    sent: list[tuple[str, dict[str, Any]]] = []

    def publish(topic: str, payload: bytes, retain: bool) -> None:
        if payload:
            sent.append((topic, json.loads(payload)))

    service = TablesService(store, publish, accounts, "copy")

    def request(op: str, message: dict[str, Any]) -> dict[str, Any]:
        service.handle(f"gamenight/v1/lobby/request/{op}", json.dumps(message).encode())
        return next(m for t, m in reversed(sent) if t.endswith(f"lobby/response/{op}"))

    code = request("create", {"v": 1, "id": "c1"})["data"]["table"]

    def rebuild() -> None:  # what the lease keeper does after late heartbeats
        for taken, epoch in store.claim_open_tables("copy").items():
            service.adopt(taken, epoch)

    accounts.during.append(rebuild)
    stale = service.tables[code]
    reply = request("join", {"v": 1, "id": "j1", "table": code, "name": "Ana"})

    assert reply["status"] == "ok", reply
    table = service.tables[code]  # still served, at the new epoch
    assert table is not stale and table.epoch == stale.epoch + 1
    assert [seat.name for seat in table.seats.values()] == ["Ana"]
    assert reply["data"]["username"] in accounts.made
    try:
        assert [e["kind"] for e in store.entries(code)] == ["create", "join"]
    finally:
        store.close()
