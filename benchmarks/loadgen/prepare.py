"""Tables opened before the broker starts: the tables service's own lobby code, in process.

Why: Mosquitto's dynamic-security plugin rewrites its whole JSON file (about 1.9 KB an
account) after every account change, in its single thread. Adding accounts one by one
costs more the more there are (measured here: ~70 ms each at 500 accounts, ~350 ms at
2,000, on a shared machine), so 2,000 tables (6,000 accounts: two players and a TV each)
would take hours through the live lobby. So for ``--lobby prepared`` the lobby requests
(``create``, ``join``) go to a ``TablesService`` in this process, on the very SQLite file
the tables service will then open; the accounts it asks for are written into Mosquitto's
dynsec file at once, exactly as ``BrokerAccounts.provision`` would have made them. Then
the tables service starts as its own process and restores every table from its log (its
restart path), and the players log in with their own accounts and play over the network.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import orjson

from protocol import topics
from protocol.topics import Grants
from services.broker.dynsec import acls_for_grants
from services.broker.mosquitto import dynsec_password
from services.tables.runner import CLIENT_ID
from services.tables.service import TablesService
from services.tables.store import Store


class RecordedAccounts:
    """The ``Accounts`` of a tables service that keeps the accounts asked for (for dynsec)."""

    def __init__(self) -> None:
        self.accounts: dict[str, tuple[str, Grants, str | None]] = {}

    def provision(
        self, username: str, password: str, grants: Grants, client_id: str | None = None
    ) -> None:
        self.accounts[username] = (password, grants, client_id)

    def revoke(self, username: str) -> None:
        self.accounts.pop(username, None)

    def dynsec_entries(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """(clients, roles) as the dynsec file holds them (``services.broker.accounts``)."""
        clients, roles = [], []
        for username, (password, grants, client_id) in self.accounts.items():
            role = f"acct-{username}"
            roles.append(
                {"rolename": role, "acls": [entry.to_json() for entry in acls_for_grants(grants)]}
            )
            client: dict[str, Any] = {
                "username": username,
                **dynsec_password(password),
                "roles": [{"rolename": role, "priority": -1}],
            }
            if client_id is not None:
                client["clientid"] = client_id
            clients.append(client)
        return clients, roles


def prepare_tables(
    database: Path, count: int, seats: int, game: str = "kings-corner"
) -> tuple[list[dict[str, Any]], RecordedAccounts]:
    """Open ``count`` tables of ``seats`` joined players in ``database``; their logins too."""
    replies: dict[str, dict[str, Any]] = {}

    def publish(topic: str, payload: bytes, retain: bool) -> None:
        if "/lobby/response/" in topic:
            reply = orjson.loads(payload)
            replies[str(reply["id"])] = reply

    def ask(op: str, message: dict[str, Any]) -> dict[str, Any]:
        request_id = uuid.uuid4().hex[:16]
        payload = orjson.dumps({"v": 1, "id": request_id, **message})
        service.handle(topics.lobby_request(op), payload)
        reply = replies.pop(request_id)
        if reply["status"] != "ok":
            raise RuntimeError(f"lobby {op} refused: {reply['error']}")
        return dict(reply["data"])

    accounts = RecordedAccounts()
    store = Store(database)
    service = TablesService(store, publish, accounts, CLIENT_ID)
    tables = []
    try:
        for _ in range(count):
            created = ask("create", {"game": game})
            code = str(created["table"])
            joined = [ask("join", {"table": code, "name": f"P{n}"}) for n in range(seats)]
            tables.append({"table": code, "tv": created["tv"], "seats": joined})
    finally:
        store.close()
    return tables, accounts


def add_to_dynsec_file(path: Path, accounts: RecordedAccounts) -> None:
    """Add the recorded accounts to a dynsec file (written before Mosquitto starts)."""
    document = json.loads(path.read_text("utf-8"))
    clients, roles = accounts.dynsec_entries()
    document["clients"] = [*document.get("clients", []), *clients]
    document["roles"] = [*document.get("roles", []), *roles]
    path.write_text(json.dumps(document), "utf-8")
