"""What the join page learns before a name is typed (issue 9, item 15): the web service
reads the tables' public views and answers ``GET /api/tables/<code>`` with the game, its
rules, who is in and whether the table is locked; never a credential."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from services.broker.settings import BrokerEndpoint
from services.tables.runner import TablesRunner
from services.web import create_app
from services.web.broker_link import LazyMqttLobby
from services.web.lobby import MqttLobby
from services.web.settings import WebSettings
from services.wire import encode

pytestmark = pytest.mark.broker


@pytest.fixture(scope="module")
def tables(
    embedded_broker: BrokerEndpoint, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    data = tmp_path_factory.mktemp("web-info") / "gamenight.db"
    owner = f"tables-info-{secrets.token_hex(4)}"
    with TablesRunner(embedded_broker.service_url("tables"), data, owner=owner).start():
        yield


def web_settings(endpoint: BrokerEndpoint) -> WebSettings:
    return replace(
        WebSettings(),
        broker_url=endpoint.url(),
        username="web",
        password=endpoint.credentials.password("web"),
        ws_url=f"ws://{{host}}:{endpoint.ws_port}/mqtt",
        public_url="http://192.168.1.20:8000",
    )


def test_the_join_page_learns_the_game_and_the_lock_before_a_name(
    embedded_broker: BrokerEndpoint, tables: None
) -> None:
    lobby = LazyMqttLobby(web_settings(embedded_broker))
    client = create_app({"TESTING": True, "LOBBY": lobby}).test_client()
    try:
        table = lobby.request("create", {"game": "five-crowns"})["table"]
        lobby.request("join", {"table": table, "name": "Ana"})
        deadline = time.monotonic() + 5.0
        info = client.get(f"/api/tables/{table}").get_json()
        while info.get("players") != ["Ana"] and time.monotonic() < deadline:
            time.sleep(0.05)  # the view after the join may reach us after its answer
            info = client.get(f"/api/tables/{table}").get_json()
        assert info["table"] == table and info["game"] == "five-crowns"
        assert info["status"] == "lobby" and info["locked"] is False
        assert info["players"] == ["Ana"]
        assert info["options"]["packs"] == 1
        assert "password" not in json.dumps(info) and "username" not in json.dumps(info)
        assert client.get("/api/tables/NOPE42").get_json()["error"]["code"] == "unknown_table"
        assert client.get("/api/tables/no!").get_json()["error"]["code"] == "unknown_table"
    finally:
        lobby.close()
    # A web service started afterwards learns it from the retained view.
    fresh = LazyMqttLobby(web_settings(embedded_broker))
    try:
        summary = fresh.peek(table, wait=3.0)
        assert summary is not None and summary["players"] == ["Ana"]
    finally:
        fresh.close()


class FakeTransport:
    """Holds the handlers; the test plays the broker."""

    def __init__(self) -> None:
        self.handlers: dict[str, Callable[[str, bytes], None]] = {}

    def subscribe(self, topic: str, handler: Callable[[str, bytes], None]) -> None:
        self.handlers[topic] = handler

    def publish(self, topic: str, payload: bytes, qos: int = 1, retain: bool = False) -> None:
        pass


def view(seq: int, **changes: Any) -> bytes:
    message = {
        "v": 1,
        "table": "K7Q2",
        "epoch": 1,
        "seq": seq,
        "status": "lobby",
        "game": "kings-corner",
        "options": {},
        "option_specs": [],
        "players": [],
        "state": None,
        "locked": False,
        "paused": False,
        **changes,
    }
    return encode("table_view", message)


def test_an_older_view_never_replaces_a_newer_one() -> None:
    transport = FakeTransport()
    lobby = MqttLobby(transport)
    deliver = transport.handlers["gamenight/v1/table/+/view"]
    deliver("gamenight/v1/table/K7Q2/view", view(5, locked=True))
    deliver("gamenight/v1/table/K7Q2/view", view(3, locked=False))  # late, stale
    deliver("gamenight/v1/table/K7Q2/view", b"not json")
    summary = lobby.peek("K7Q2", wait=0)
    assert summary is not None and summary["locked"] is True
    assert lobby.peek("ZZZZ", wait=0) is None


def test_pages_are_told_the_intent_qos_the_tables_service_asks() -> None:
    """On a NATS cluster the tables service asks for intents at QoS 0 (its status says
    so); the pages learn it from ``/api/config`` through the lobby link."""
    transport = FakeTransport()
    lobby = MqttLobby(transport)
    deliver = transport.handlers["gamenight/v1/service/tables/status"]
    assert lobby.intent_qos == 1  # nothing heard yet: what every broker takes
    status = {"v": 1, "service": "tables", "online": True}
    deliver(
        "gamenight/v1/service/tables/status", encode("service_status", {**status, "intent_qos": 0})
    )
    assert lobby.intent_qos == 0
    offline = {**status, "online": False}  # the last will: says nothing of the QoS
    deliver("gamenight/v1/service/tables/status", encode("service_status", offline))
    assert lobby.intent_qos == 0
    deliver("gamenight/v1/service/tables/status", b'{"v": 1, "online": "garbage"}')
    assert lobby.intent_qos == 0
    deliver("gamenight/v1/service/tables/status", encode("service_status", status))
    assert lobby.intent_qos == 1  # a service on one machine: QoS 1
