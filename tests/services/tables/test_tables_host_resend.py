"""A host command sent again after its table moved to another copy is answered, not redone.

The phone (or terminal hand) keeps a host command until it is answered and sends it again,
same id. If the copy that applied it died before answering, the copy taking the table over
knows the id from the log: a resent ``add_bot`` must not seat a second bot.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memory_accounts import MemoryAccounts

from services.tables.service import TablesService
from services.tables.store import Store


class Copy:
    """One copy of the tables service on the shared SQLite file, and what it sent."""

    def __init__(self, path: Path, owner: str) -> None:
        self.store = Store(path)
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.service = TablesService(self.store, self._publish, MemoryAccounts(), owner)

    def _publish(self, topic: str, payload: bytes, retain: bool) -> None:
        if payload:
            self.sent.append((topic, json.loads(payload)))

    def request(self, topic: str, message: dict[str, Any]) -> None:
        self.service.handle(f"gamenight/v1/{topic}", json.dumps(message).encode())

    def host_replies(self, code: str) -> list[dict[str, Any]]:
        return [m for t, m in self.sent if t.endswith(f"table/{code}/host/reply")]


def test_a_host_command_resent_to_the_copy_that_took_the_table_over_is_applied_once(
    tmp_path: Path,
) -> None:
    first = Copy(tmp_path / "gn.db", "first")
    first.request("lobby/request/create", {"v": 1, "id": "c1"})
    code = next(iter(first.service.tables))
    first.request("lobby/request/join", {"v": 1, "id": "j1", "table": code, "name": "Ana"})
    add_bot = {"v": 1, "id": "h1", "op": "add_bot", "params": {}}
    first.request(f"table/{code}/host/intent", add_bot)
    assert first.host_replies(code)[-1]["status"] == "ok"
    seats = len(first.service.tables[code].seats)
    assert seats == 2  # Ana and the bot

    # The first copy dies before its answer reaches the phone; another takes the table.
    second = Copy(tmp_path / "gn.db", "second")
    for taken, epoch in second.store.claim_open_tables("second").items():
        second.service.adopt(taken, epoch)
    second.request(f"table/{code}/host/intent", add_bot)  # the phone's resend, same id

    reply = second.host_replies(code)[-1]
    assert (reply["id"], reply["status"]) == ("h1", "ok")
    assert len(second.service.tables[code].seats) == seats, "the bot was seated twice"
    another = {"v": 1, "id": "h2", "op": "add_bot", "params": {}}
    second.request(f"table/{code}/host/intent", another)  # a new command still works
    assert len(second.service.tables[code].seats) == seats + 1
