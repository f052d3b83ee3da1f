"""A copy whose lease heartbeats lapsed checks every table it holds again; NATS failing
that check must not make it give the tables up.

Found by the leader-node fault test (``test_cluster_faults.py``): the node leading every
JetStream stream died, both copies' heartbeats lapsed during the election, their check
(``LeaseKeeper._settle_all``: claim again at a new epoch, read the log) timed out, and
each copy dropped its tables while their leases still named it. No copy takes a live
copy's table, so no move was answered again, and nothing was logged.
"""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path
from typing import Any

from memory_accounts import MemoryAccounts

from services.broker.credentials import ServiceCredentials
from services.cluster.nodes import NatsCluster
from services.tables.jetstream import JetStreamStore
from services.tables.keeper import LeaseKeeper
from services.tables.leases import LEASE_SECONDS
from services.tables.service import TablesService

BACK_WITHIN = 30.0  # seconds after the node is back (a restart, JetStream recovering)


def request(service: TablesService, topic: str, message: dict[str, Any]) -> None:
    service.handle(f"gamenight/v1/{topic}", json.dumps(message).encode())


def a_move(service: TablesService, code: str) -> tuple[int, dict[str, Any]]:
    """The seat whose turn it is, and its first legal move as an intent."""
    table = service.tables[code]
    assert table.state is not None
    seat = table.state.view_for(None)["current_seat"]
    action = table.state.view_for(seat)["legal_actions"][0]
    player = table.seats[seat].player_id
    intent = {"v": 1, "id": uuid.uuid4().hex[:12], "op": "act", "seq": table.seq}
    return seat, {**intent, "player": player, "action": action}


def test_a_table_whose_check_failed_while_nats_was_away_is_served_again(
    tmp_path: Path, service_credentials: ServiceCredentials
) -> None:
    sent: list[tuple[str, dict[str, Any]]] = []

    def publish(topic: str, payload: bytes, retain: bool) -> None:
        if payload:
            sent.append((topic, json.loads(payload)))

    with NatsCluster(tmp_path / "nats", 1, credentials=service_credentials) as cluster:
        password = cluster.credentials.password("tables")
        store = JetStreamStore(cluster.nats_urls, "first", user="tables", password=password)
        store.start()
        try:
            service = TablesService(store, publish, MemoryAccounts(), "first")
            keeper = LeaseKeeper(store, service)
            assert keeper.heartbeat()
            request(service, "lobby/request/create", {"v": 1, "id": "c1"})
            code = next(iter(service.tables))
            for name in ("Ana", "Ben"):
                join = {"v": 1, "id": f"j-{name}", "table": code, "name": name}
                request(service, "lobby/request/join", join)
            request(service, f"table/{code}/host/intent", {"v": 1, "id": "h1", "op": "start"})
            epoch = service.tables[code].epoch

            time.sleep(LEASE_SECONDS)  # the heartbeats lapse (NATS away, a pause...)
            assert not store.leases.valid()
            cluster.kill(0)
            assert not keeper.heartbeat()  # the check of every held table: NATS is away
            assert code in store.leases.held, "a table given up while its lease is ours"
            cluster.restart(0)

            deadline = time.monotonic() + BACK_WITHIN
            while code not in service.tables or not store.leases.valid():
                assert time.monotonic() < deadline, "the table is served by nobody"
                try:
                    keeper.round()  # what the keeper's thread does every 0.5 s
                except Exception:  # NATS still recovering: the thread logs it and goes on
                    time.sleep(0.5)
            assert service.tables[code].epoch > epoch  # claimed again: the log sealed anew
            seat, intent = a_move(service, code)
            request(service, f"table/{code}/seat/{seat}/intent", intent)
            replies = [m for t, m in sent if t.endswith(f"/seat/{seat}/reply")]
            assert replies[-1]["id"] == intent["id"]
            assert replies[-1]["status"] == "ok"
        finally:
            store.close()


def test_a_lease_taken_under_our_name_behind_our_back_is_ours_still(
    tmp_path: Path, service_credentials: ServiceCredentials
) -> None:
    """A claim NATS made but whose reply it lost: the lease names us at a new revision."""
    with NatsCluster(tmp_path / "nats", 1, credentials=service_credentials) as cluster:
        password = cluster.credentials.password("tables")
        stores = [
            JetStreamStore(cluster.nats_urls, "first", user="tables", password=password).start()
            for _ in range(2)  # the second: the claim whose answer the first never heard
        ]
        try:
            first, lost_reply = stores
            service = TablesService(first, lambda t, p, r: None, MemoryAccounts(), "first")
            keeper = LeaseKeeper(first, service)
            assert keeper.heartbeat()
            request(service, "lobby/request/create", {"v": 1, "id": "c1"})
            code = next(iter(service.tables))
            seen = first.leases.held[code]
            assert lost_reply.claim(code, seen) == seen.epoch + 1
            assert first.claim(code, seen) == seen.epoch + 2  # not "someone else's now"

            lost_reply.claim(code, first.leases.held[code])  # again, and nobody retries:
            service.drop(code)
            first.leases.held.pop(code)
            keeper.round()  # the keeper's look at every lease takes it back
            assert code in service.tables
            assert first.leases.held[code].epoch == seen.epoch + 4
        finally:
            for store in stores:
                store.close()
