"""Hostile payloads on the intent topics: coded replies, no crash, no change to the table."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tables_clients import WAIT, LobbyClient, Mailbox, Phone

from protocol import topics
from services.broker.settings import BrokerEndpoint
from services.mqtt import MqttClient
from services.tables.runner import TablesRunner

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 10**12)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(["act", "sync", "play", "7H", "N", "draw"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                ["v", "id", "op", "seq", "player", "action", "type", "card", "pile", "from", "to"]
            )
            | st.text(max_size=4),
            inner,
            max_size=6,
        )
    ),
    max_leaves=20,
)
intent_like = st.fixed_dictionaries(
    {
        "v": st.sampled_from([1, 1, 2, "1"]),
        "id": st.from_regex(r"[a-z0-9]{1,8}", fullmatch=True),
        "op": st.sampled_from(["act", "sync", "play"]),
        "seq": st.integers(-1, 50),
        "player": st.text(max_size=10),
        "action": st.dictionaries(
            st.sampled_from(["type", "card", "pile", "from", "to", "x"]),
            st.sampled_from(
                ["play", "move", "draw", "end_turn", "7H", "KS", "N", "NE", "ZZ", "", "10H"]
            ),
            max_size=4,
        ),
    }
)
payloads = st.one_of(
    st.binary(max_size=64),
    json_values.map(lambda value: json.dumps(value).encode()),
    intent_like.map(lambda value: json.dumps(value).encode()),
    st.just(b"{" * 5000),
    st.just(b"x" * 20_000),
)


def test_hostile_payloads_never_change_the_table(
    tables: TablesRunner,
    broker: BrokerEndpoint,
    lobby: LobbyClient,
    phones: Callable[..., Phone],
) -> None:
    table = lobby.create("kings-corner")
    first, _ = phones(table, "Ana"), phones(table, "Ben")
    assert lobby.host(table, "start")["status"] == "ok"
    start = first.box.wait(first.public_topic, lambda m: m["status"] == "playing")
    assert tables.store is not None
    log_length = tables.store.log_length(table)
    # A service account may publish on any seat topic: the broker lets everything through.
    box = Mailbox()
    reply_topic = topics.seat_topic(table, 0, "reply")
    attacker = MqttClient(broker.service_url("web"))
    attacker.subscribe(reply_topic, box.put)
    attacker.start().wait_connected(WAIT)
    sent: list[Any] = []

    @settings(
        max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    @given(payloads)
    def attack(payload: bytes) -> None:
        before = len(box.messages.get(reply_topic, []))
        attacker.publish(topics.seat_topic(table, 0, "intent"), payload)
        # Every bad payload gets a coded error reply (id "-" when none can be read).
        reply = box.wait(reply_topic, lambda _: len(box.messages[reply_topic]) > before)
        sent.append(payload)
        if reply["status"] == "ok":  # only a well-formed sync can succeed
            assert json.loads(payload)["op"] == "sync"
        else:
            assert reply["error"]["code"]

    try:
        attack()
    finally:
        attacker.stop()
    assert sent
    assert tables.store.log_length(table) == log_length
    # The service is alive and the table is where it was: a sync answers with the same seq.
    assert first.send({"v": 1, "id": "after", "op": "sync"})["seq"] == start["seq"]
