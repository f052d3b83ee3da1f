"""The replicated table log and leases on real nats-server processes (loopback)."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from memory_accounts import MemoryAccounts
from nats_stores import store_on

from services.cluster.nodes import NatsCluster
from services.tables import credentials
from services.tables.jetstream import JetStreamStore
from services.tables.leases import Lease
from services.tables.service import TablesService
from services.tables.store import LeaseLostError, StoreUnavailableError
from services.tables.views import table_view

T = TypeVar("T")
KC = "kings-corner"
CREATE = {"kind": "create", "game": KC, "options": {}}


def move(intent_id: str) -> dict[str, Any]:
    return {"kind": "act", "seat": 0, "action": {"type": "draw"}, "intent_id": intent_id}


def started(servers: NatsCluster, owner: str) -> JetStreamStore:
    store = store_on(servers, owner)
    assert store.leases.heartbeat(0)
    return store


@pytest.fixture
def stores(nats_node: NatsCluster) -> Iterator[list[JetStreamStore]]:
    made = [started(nats_node, "first"), started(nats_node, "second")]
    yield made
    for store in made:
        store.close()


def new_table(store: JetStreamStore) -> tuple[str, int]:
    code = credentials.new_table_code()
    epoch = store.create_table(code, KC, store.owner)
    store.append(code, epoch, 1, CREATE, "lobby", KC)
    return code, epoch


def test_a_stale_owners_append_is_refused_once_another_copy_took_the_table(
    stores: list[JetStreamStore],
) -> None:
    first, second = stores
    code, epoch = new_table(first)
    first.append(code, epoch, 2, move("i1"), "lobby", KC)
    seen = second.leases.snapshot()[code]
    assert seen == Lease("first", epoch, seen.revision)
    assert second.claim(code, seen) == epoch + 1
    assert [e["kind"] for e in second.entries(code)] == ["create", "act"]  # and sealed
    # ``first`` still believes it owns the table (its lease map is not told): the log's
    # expected-sequence fence refuses it anyway.
    assert first.leases.holds(code, epoch)
    with pytest.raises(LeaseLostError):
        first.append(code, epoch, 3, move("late"), "lobby", KC)
    second.append(code, epoch + 1, 3, move("i2"), "playing", KC)
    assert [e.get("intent_id") for e in first.entries(code)] == [None, "i1", "i2"]
    assert first.log_epochs(code) == [epoch, epoch, epoch + 1]


def test_a_claim_on_a_lease_seen_before_it_changed_fails(stores: list[JetStreamStore]) -> None:
    first, second = stores
    code, epoch = new_table(first)
    seen = second.leases.snapshot()[code]
    assert first.claim(code, seen) == epoch + 1  # first renews its claim: epoch 2
    assert second.claim(code, seen) is None  # second's view is out of date: refused
    assert second.leases.get(code) == Lease("first", epoch + 1, first.leases.held[code].revision)


def test_a_closed_table_is_not_claimed(stores: list[JetStreamStore]) -> None:
    first, second = stores
    code, epoch = new_table(first)
    first.close_table(code, epoch)
    lease = second.leases.snapshot()[code]
    assert lease.owner == ""
    assert second.claim(code, lease) is None
    assert second.table_exists(code)


def play(service: TablesService, code: str, moves: int) -> None:
    """``moves`` legal actions, each by the seat whose turn it is."""
    table = service.tables[code]
    for _ in range(moves):
        assert table.state is not None
        seat = table.state.view_for(None)["current_seat"]
        info = table.seats[seat]
        legal = table.state.view_for(seat)["legal_actions"]
        intent = {
            "v": 1,
            "id": uuid.uuid4().hex[:12],
            "op": "act",
            "seq": table.seq,
            "player": info.player_id,
            "action": legal[0],
        }
        topic = f"gamenight/v1/table/{code}/seat/{seat}/intent"
        service.handle(topic, json.dumps(intent).encode())


def eventually(attempt: Callable[[], T], timeout: float = 20.0) -> T:
    """``attempt()``'s result once NATS answers it (the cluster may be electing a leader)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return attempt()
        except StoreUnavailableError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_a_table_is_rebuilt_whole_from_the_cluster_by_another_copy(
    nats_cluster: NatsCluster,
) -> None:
    first, second = started(nats_cluster, "first"), started(nats_cluster, "second")
    try:
        assert first.replicas == 3
        sent: list[tuple[str, bytes]] = []
        service = TablesService(
            first, lambda t, p, r: sent.append((t, p)), MemoryAccounts(), "first"
        )
        service.handle("gamenight/v1/lobby/request/create", b'{"v":1,"id":"c1"}')
        code = next(iter(service.tables))
        for name in ("Ana", "Ben"):
            join = {"v": 1, "id": f"j-{name}", "table": code, "name": name}
            service.handle("gamenight/v1/lobby/request/join", json.dumps(join).encode())
        host = {"v": 1, "id": "h1", "op": "start", "params": {}}
        service.handle(f"gamenight/v1/table/{code}/host/intent", json.dumps(host).encode())
        play(service, code, 6)
        before = table_view(service.tables[code])
        assert before["seq"] >= 9
        nats_cluster.kill(0)  # one node of three gone: the log is still there, and writable
        other = TablesService(second, lambda t, p, r: None, MemoryAccounts(), "second")
        # The nodes left elect new leaders for what node 0 led: a few seconds.
        epoch = eventually(lambda: second.claim(code, second.leases.snapshot()[code]))
        assert epoch == before["epoch"] + 1
        eventually(lambda: other.adopt(code, epoch))  # the log's stream may elect later
        after = table_view(other.tables[code])
        assert {**after, "epoch": before["epoch"]} == before
        # What the copy's lease keeper does every 0.5 s (until NATS takes one).
        deadline = time.monotonic() + 20
        while not second.leases.heartbeat(1):
            assert time.monotonic() < deadline, "no heartbeat taken"
        assert second.leases.valid()
        play(other, code, 1)
        assert other.tables[code].seq == before["seq"] + 1
        assert second.log_length(code) == before["seq"] + 1
    finally:
        nats_cluster.restart(0)
        first.close()
        second.close()


@pytest.fixture(scope="module")
def contenders(nats_cluster: NatsCluster) -> Iterator[list[JetStreamStore]]:
    made = [started(nats_cluster, f"c{i}") for i in range(3)]
    yield made
    for store in made:
        store.close()


# Each step: contender ``who`` either looks at the lease again, or claims from what it saw.
steps = st.lists(st.tuples(st.integers(0, 2), st.booleans()), min_size=1, max_size=12)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=steps)
def test_lease_epochs_only_grow_whatever_the_interleaving_of_claims(
    contenders: list[JetStreamStore], steps: list[tuple[int, bool]]
) -> None:
    code = credentials.new_table_code(8)
    contenders[0].create_table(code, KC, "c0")
    seen = [contenders[i].leases.get(code) for i in range(3)]
    epochs = [1]
    for who, look_first in steps:
        store = contenders[who]
        if look_first:
            seen[who] = store.leases.get(code)
        lease = seen[who]
        assert lease is not None
        won = store.claim(code, lease)
        current = store.leases.get(code)
        assert current is not None
        if won is not None:
            assert won == epochs[-1] + 1 == current.epoch  # one more, never a jump or a repeat
            assert lease.revision != current.revision
            epochs.append(won)
        else:
            assert current.epoch == epochs[-1]  # a lost race changes nothing
        seen[who] = current if won is not None else seen[who]
    assert epochs == sorted(set(epochs))


def test_a_takeover_of_many_tables_takes_only_those_still_as_seen_and_open(
    stores: list[JetStreamStore],
) -> None:
    first, second = stores
    made = dict(new_table(first) for _ in range(6))
    codes = list(made)
    for i, code in enumerate(codes):
        first.append(code, made[code], 2, move(f"m{i}"), "lobby", KC)
    seen = second.leases.snapshot()
    first.close_table(codes[0], made[codes[0]])  # closed since: not taken
    first.claim(codes[1], seen[codes[1]])  # renewed since (epoch 2): ``seen`` is stale
    taken = second.take_over({code: seen[code] for code in codes})
    assert taken == dict.fromkeys(codes[2:], 2)
    for code in codes[2:]:
        assert [e["kind"] for e in second.entries(code)] == ["create", "act"]
        with pytest.raises(LeaseLostError):  # sealed: the old owner can write no more
            first.append(code, made[code], 3, move("late"), "lobby", KC)
    first.append(codes[1], 2, 3, move("kept"), "lobby", KC)  # still first's, at epoch 2
