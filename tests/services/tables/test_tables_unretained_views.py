"""Views not retained (the NATS tier): each one is sent once more when it has settled, so a
view lost on its way (QoS 0) leaves no screen behind for long."""

from __future__ import annotations

import time

from tables_clients import LobbyClient, Phone

from services.broker.settings import BrokerEndpoint
from services.tables.runner import SETTLE_SECONDS, TICK_SECONDS, TablesRunner

WAIT = 10.0


def stamps(phone: Phone, topic: str) -> list[tuple[int, int]]:
    with phone.box.changed:
        return [(m["epoch"], m["seq"]) for m in phone.box.messages.get(topic, [])]


def test_a_settled_view_is_sent_once_more_and_only_once(
    unretained_tables: TablesRunner, broker: BrokerEndpoint, lobby: LobbyClient
) -> None:
    lobby.wait_for_service()
    table = lobby.create("kings-corner")
    joined = lobby.request("join", table=table, name="Ana", lang="en")
    assert joined["status"] == "ok", joined
    phone = Phone(broker, joined["data"])
    try:
        assert lobby.host(table, "start")["status"] == "ok"
        started = phone.box.wait(phone.view_topic, lambda m: m["state"] is not None)
        stamp = (started["epoch"], started["seq"])
        # Within a tick after settling, the same view again; then nothing more.
        deadline = time.monotonic() + SETTLE_SECONDS + 2 * TICK_SECONDS + WAIT / 2
        while stamps(phone, phone.view_topic).count(stamp) < 2:
            assert time.monotonic() < deadline, stamps(phone, phone.view_topic)
            time.sleep(0.05)
        time.sleep(SETTLE_SECONDS + 2 * TICK_SECONDS)
        seen = stamps(phone, phone.view_topic)
        assert seen.count(stamp) == 2, seen
        assert seen[-1] == stamp and seen == sorted(seen), seen
        assert stamps(phone, phone.public_topic).count(stamp) == 2
    finally:
        phone.stop()
