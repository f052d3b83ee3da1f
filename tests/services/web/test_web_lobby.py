"""The web service's lobby link over a real broker: with the real tables service, without
one, and among answers meant for someone else."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from protocol.topics import lobby_request, lobby_response, table_view
from services.broker.settings import BrokerEndpoint
from services.mqtt import MqttClient
from services.tables.runner import TablesRunner
from services.web import create_app
from services.web.broker_link import LazyMqttLobby
from services.web.lobby import LobbyError, LobbyUnavailableError, MqttLobby
from services.web.settings import WebSettings

pytestmark = pytest.mark.broker


@pytest.fixture(scope="module")
def tables(
    embedded_broker: BrokerEndpoint, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    data = tmp_path_factory.mktemp("web-lobby") / "gamenight.db"
    owner = f"tables-web-{secrets.token_hex(4)}"
    with TablesRunner(embedded_broker.service_url("tables"), data, owner=owner).start():
        yield


def web_settings(endpoint: BrokerEndpoint, **changes: Any) -> WebSettings:
    settings = WebSettings(
        broker_url=endpoint.url(),
        username="web",
        password=endpoint.credentials.password("web"),
        ws_url=f"ws://{{host}}:{endpoint.ws_port}/mqtt",
        public_url="http://192.168.1.20:8000",
    )
    return replace(settings, **changes)


def test_tables_are_created_and_seats_taken_through_the_broker(
    embedded_broker: BrokerEndpoint, tables: None
) -> None:
    lobby = LazyMqttLobby(web_settings(embedded_broker))
    try:
        created = lobby.request("create", {"game": "five-crowns"})
        table = created["table"]
        assert created["tv"]["username"] and created["tv"]["password"]
        first = lobby.request("join", {"table": table, "name": "Ana", "lang": "fr"})
        second = lobby.request("join", {"table": table, "name": "Bob"})
        assert (first["seat"], first["host"]) == (0, True)
        assert (second["seat"], second["host"]) == (1, False)
        with pytest.raises(LobbyError) as taken:
            lobby.request("join", {"table": table, "name": "ana"})
        assert taken.value.code == "name_taken"
        with pytest.raises(LobbyError) as unknown:
            lobby.request("join", {"table": "ZZZZ9", "name": "Cy"})
        assert unknown.value.code == "unknown_table"
    finally:
        lobby.close()


def test_the_tv_credentials_from_the_api_open_the_tables_view(
    embedded_broker: BrokerEndpoint,
    tables: None,
    mqtt_client: Callable[..., MqttClient],
) -> None:
    app = create_app({"SETTINGS": web_settings(embedded_broker)})
    try:
        body = app.test_client().post("/api/tables", json={}).get_json()
        views: list[dict[str, Any]] = []
        tv_url = embedded_broker.url(body["username"], body["password"])
        mqtt_client(
            tv_url,
            subscribe={table_view(body["table"]): lambda t, p: views.append(json.loads(p))},
            client_id=body["username"],  # the broker binds each account to its client id
        )
        assert _wait(lambda: bool(views))
        assert views[0]["table"] == body["table"]
        assert views[0]["status"] == "lobby"
        assert body["join_url"] == f"http://192.168.1.20:8000/join/{body['table']}"
    finally:
        app.extensions["gamenight.lobby"].close()


def _wait(condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


class NobodyListens:
    """The web service's connection, with requests sent where no tables service listens."""

    def __init__(self, client: MqttClient) -> None:
        self.client = client

    def subscribe(self, topic: str, handler: Any) -> None:
        self.client.subscribe(topic, handler)

    def publish(self, topic: str, payload: bytes, qos: int = 1, retain: bool = False) -> None:
        unserved = topic.replace("/lobby/request/", "/lobby-unserved/request/")
        self.client.publish(unserved, payload, qos, retain)


def test_without_a_tables_service_a_request_is_unavailable(
    embedded_broker: BrokerEndpoint, mqtt_client: Callable[..., MqttClient]
) -> None:
    client = mqtt_client(embedded_broker.service_url("web"), wait=False)
    lobby = MqttLobby(NobodyListens(client), timeout=0.3)
    client.wait_connected(5)
    with pytest.raises(LobbyUnavailableError):
        lobby.request("create", {})


def test_with_wrong_service_credentials_the_web_service_says_unavailable(
    embedded_broker: BrokerEndpoint,
) -> None:
    lobby = LazyMqttLobby(web_settings(embedded_broker, password="wrong", request_timeout=2.0))
    with pytest.raises(LobbyUnavailableError):
        lobby.request("create", {})
    lobby.close()


def scripted_join(
    broker: BrokerEndpoint,
    mqtt_client: Callable[..., MqttClient],
    answer: Callable[[str, bytes], None],
) -> tuple[MqttClient, MqttLobby]:
    """A web service's lobby whose join requests ``answer`` handles (in place of the
    tables service), and the connection ``answer`` publishes its replies with."""
    unserved = lobby_request("join").replace("/lobby/", "/lobby-unserved/")
    responder = mqtt_client(broker.service_url("bots"), subscribe={unserved: answer})
    client = mqtt_client(broker.service_url("web"), wait=False)
    lobby = MqttLobby(NobodyListens(client), timeout=5.0)
    client.wait_connected(5)
    return responder, lobby


def test_answers_meant_for_other_requests_are_ignored(
    embedded_broker: BrokerEndpoint, mqtt_client: Callable[..., MqttClient]
) -> None:
    """A second web service's answers share the topic: only our id's answer counts."""
    responder: MqttClient

    def answer(topic: str, payload: bytes) -> None:
        request = json.loads(payload)
        if request.get("name") != "Probe":
            return
        for reply in (
            {
                "v": 1,
                "id": "web-someone-else",
                "status": "error",
                "error": {"code": "name_taken", "params": {}},
            },
            {
                "v": 1,
                "id": request["id"],
                "status": "ok",
                "data": {
                    "table": request["table"],
                    "seat": 3,
                    "player_id": "p9",
                    "username": "u-p9",
                    "password": "x",
                    "host": False,
                },
            },
        ):
            responder.publish(lobby_response("join"), json.dumps(reply).encode(), qos=1)

    responder, lobby = scripted_join(embedded_broker, mqtt_client, answer)
    data = lobby.request("join", {"table": "PROBE9", "name": "Probe"})
    assert (data["seat"], data["player_id"]) == (3, "p9")


def test_a_request_the_protocol_refuses_never_leaves() -> None:
    sent: list[str] = []

    class Recording:
        def subscribe(self, topic: str, handler: Any) -> None:
            pass

        def publish(self, topic: str, payload: bytes, qos: int = 1, retain: bool = False) -> None:
            sent.append(topic)

    lobby = MqttLobby(Recording(), timeout=0.1)
    with pytest.raises(LobbyError) as refused:
        lobby.request("join", {"table": "bad code", "name": "Ana"})
    assert refused.value.code == "bad_request"
    assert sent == []


def test_a_join_refused_because_the_table_moved_is_asked_again_once(
    embedded_broker: BrokerEndpoint, mqtt_client: Callable[..., MqttClient]
) -> None:
    """``table_moved``: the table changed hands mid-request; its new owner answers the retry."""
    asked: list[str] = []
    responder: MqttClient

    def answer(topic: str, payload: bytes) -> None:
        request = json.loads(payload)
        asked.append(request["id"])
        if len(asked) == 1 or request["name"] == "Moved":
            reply: dict[str, Any] = {
                "v": 1,
                "id": request["id"],
                "status": "error",
                "error": {"code": "table_moved", "params": {"table": request["table"]}},
            }
        else:
            data = {"table": request["table"], "seat": 1, "player_id": "p2"}
            reply = {"v": 1, "id": request["id"], "status": "ok", "data": data}
        responder.publish(lobby_response("join"), json.dumps(reply).encode(), qos=1)

    responder, lobby = scripted_join(embedded_broker, mqtt_client, answer)
    assert lobby.request("join", {"table": "MOVED9", "name": "Ana"})["seat"] == 1
    assert len(asked) == 2 and asked[0] != asked[1]  # a new request, a new id
    with pytest.raises(LobbyError) as refused:  # asked again once, not forever
        lobby.request("join", {"table": "MOVED9", "name": "Moved"})
    assert refused.value.code == "table_moved" and len(asked) == 4
