"""Views not retained (the NATS tier): an assistant started after a table went quiet asks
for the seat's view, and the line is read against it."""

from __future__ import annotations

import time
import uuid
from typing import Any

from tables_clients import LobbyClient, Phone

from protocol import topics
from services.assistant.runner import AssistantRunner
from services.broker.settings import BrokerEndpoint
from services.tables.runner import SETTLE_SECONDS, TICK_SECONDS, TablesRunner


def say(phone: Phone, text: str) -> dict[str, Any]:
    message = {"v": 1, "id": uuid.uuid4().hex[:10], "text": text, "lang": "en"}
    return phone.send(message, topic=topics.seat_topic(phone.table, phone.seat, "say"))


def test_a_line_of_a_seat_not_yet_seen_waits_for_its_view(
    unretained_tables: TablesRunner, broker: BrokerEndpoint, lobby: LobbyClient
) -> None:
    lobby.wait_for_service()
    table = lobby.create("kings-corner", first_dealer="random")
    phones = []
    for name in ("Ana", "Ben"):
        joined = lobby.request("join", table=table, name=name, lang="en")
        assert joined["status"] == "ok", joined
        phones.append(Phone(broker, joined["data"]))
    try:
        assert lobby.host(table, "start")["status"] == "ok"
        public = phones[0].box.wait(phones[0].public_topic, lambda m: m["status"] == "playing")
        mover = phones[public["state"]["current_seat"]]
        time.sleep(SETTLE_SECONDS + 2 * TICK_SECONDS)  # every view sent, and once more
        with AssistantRunner(broker.service_url("assistant")) as assistant:
            assistant.start()
            reply = say(mover, "I draw a card")
            assert reply["status"] == "ok", reply
            assert reply["seq"] == public["seq"] + 1
    finally:
        for phone in phones:
            phone.stop()
