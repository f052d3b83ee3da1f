"""Who may connect, on both brokers: services, players added and removed at runtime."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from protocol.topics import ALL_SEAT_INTENTS, player_grants, seat_topic, tv_grants
from services.broker.accounts import AccountError, BrokerAccounts
from services.broker.credentials import SERVICE_NAMES, ServiceCredentials
from services.broker.dynsec import ACCOUNTS_FILE
from services.broker.embedded import start_embedded_broker
from services.broker.settings import BrokerEndpoint
from services.mqtt import ConnectRefusedError, MqttClient

SHORT = 3.0


def refused(url: str, **options: Any) -> bool:
    client = MqttClient(url, **options).start()
    try:
        client.wait_connected(SHORT)
    except ConnectRefusedError:
        return True
    finally:
        client.stop()
    return False


def anonymous_refused(host: str, port: int) -> bool:
    """A CONNECT without any username (MqttClient always sends one if the URL has it)."""
    answer: list[bool] = []
    done = threading.Event()
    client = paho.Client(
        CallbackAPIVersion.VERSION2, protocol=paho.MQTTv311, reconnect_on_failure=False
    )

    def on_connect(*args: Any) -> None:
        answer.append(args[3].is_failure)
        done.set()

    client.on_connect = on_connect
    client.connect(host, port)
    client.loop_start()
    try:
        assert done.wait(SHORT), "no CONNACK"
    finally:
        client.disconnect()
        client.loop_stop()
        client._reset_sockets()  # paho would close its wake-up pair only in __del__
    return answer[0]


@pytest.mark.parametrize("ws", [False, True], ids=["tcp", "ws"])
def test_strangers_are_refused(broker: BrokerEndpoint, ws: bool) -> None:
    port = broker.ws_port if ws else broker.tcp_port
    assert port is not None
    if not ws:
        assert anonymous_refused(broker.host, port)
    assert refused(broker.url("nobody", "guess", ws=ws))
    assert refused(broker.url("tables", "wrong", ws=ws))
    assert refused(broker.url("web", broker.credentials.password("tables"), ws=ws))
    assert refused(broker.url("tables", "", ws=ws))


def test_every_service_account_logs_in(broker: BrokerEndpoint) -> None:
    for name in SERVICE_NAMES:
        client = MqttClient(broker.service_url(name)).start()
        try:
            client.wait_connected(SHORT)
        finally:
            client.stop()


def test_a_player_added_at_runtime_connects_at_once_and_a_revoked_one_cannot(
    broker: BrokerEndpoint, broker_accounts: BrokerAccounts, table_code: str
) -> None:
    username = f"u-{table_code.lower()}"
    broker_accounts.provision(username, "first-token", player_grants(table_code, 3))
    player = MqttClient(broker.url(username, "first-token", ws=True)).start()
    try:
        player.wait_connected(SHORT)  # no restart, no delay
        broker_accounts.revoke(username)
        disconnected = threading.Event()

        def watch() -> None:
            while player.connected:
                threading.Event().wait(0.01)
            disconnected.set()

        threading.Thread(target=watch, daemon=True).start()
        assert disconnected.wait(SHORT), "a revoked account stays connected"
    finally:
        player.stop()
    assert refused(broker.url(username, "first-token"))
    broker_accounts.revoke(username)  # revoking twice is fine


def test_provisioning_again_replaces_the_password(
    broker: BrokerEndpoint, broker_accounts: BrokerAccounts, table_code: str
) -> None:
    username = f"tv-{table_code.lower()}"
    broker_accounts.provision(username, "old-token", tv_grants(table_code))
    broker_accounts.provision(username, "new-token", tv_grants(table_code))
    assert refused(broker.url(username, "old-token"))
    assert not refused(broker.url(username, "new-token"))


def test_an_account_bound_to_a_client_id_cannot_use_another(
    broker: BrokerEndpoint, broker_accounts: BrokerAccounts, table_code: str
) -> None:
    username = f"u-{table_code.lower()}"
    broker_accounts.provision(username, "tok", player_grants(table_code, 0), client_id=username)
    assert not refused(broker.url(username, "tok"), client_id=username)
    assert refused(broker.url(username, "tok"), client_id="gamenight-tables")


def test_a_stranger_cannot_disturb_the_tables_session(
    broker: BrokerEndpoint,
    broker_accounts: BrokerAccounts,
    mqtt_client: Callable[..., MqttClient],
    table_code: str,
) -> None:
    client_id = f"tables-{table_code.lower()}"
    intents: list[bytes] = []
    got = threading.Event()

    def on_intent(topic: str, payload: bytes) -> None:
        intents.append(payload)
        got.set()

    tables = mqtt_client(
        broker.service_url("tables"),
        {ALL_SEAT_INTENTS: on_intent},
        client_id=client_id,
        persistent=True,
    )
    assert refused(broker.url("tables", "wrong"), client_id=client_id)
    assert refused(broker.url("nobody", "x"), client_id=client_id, persistent=True)
    username = f"u-{table_code.lower()}"
    broker_accounts.provision(username, "tok", player_grants(table_code, 0), client_id=username)
    assert refused(broker.url(username, "tok"), client_id=client_id)
    assert tables.connected
    player = mqtt_client(broker.url(username, "tok"), client_id=username)
    player.publish(seat_topic(table_code, 0, "intent"), b'{"still":"served"}')
    assert got.wait(SHORT)
    assert intents == [b'{"still":"served"}']


def test_embedded_broker_refuses_another_accounts_session(
    embedded_broker: BrokerEndpoint, mqtt_client: Callable[..., MqttClient], table_code: str
) -> None:
    # Mosquitto would let a valid login take the session over; ours refuses it.
    client_id = f"tables-{table_code.lower()}"
    mqtt_client(embedded_broker.service_url("tables"), client_id=client_id, persistent=True)
    with BrokerAccounts.connect(embedded_broker.service_url("web")) as accounts:
        accounts.provision(f"u-{table_code.lower()}", "tok", player_grants(table_code, 0))
    assert refused(embedded_broker.url(f"u-{table_code.lower()}", "tok"), client_id=client_id)


def test_account_commands_fail_loudly(broker_accounts: BrokerAccounts) -> None:
    with pytest.raises(ValueError, match="service account"):
        broker_accounts.provision("tables", "x", player_grants("ABC", 0))
    with pytest.raises(ValueError, match="service account"):
        broker_accounts.revoke("web")
    with pytest.raises(ValueError, match="not a valid account name"):
        broker_accounts.provision("a/b", "x", player_grants("ABC", 0))
    responses = broker_accounts.execute([{"command": "deleteRole", "rolename": "no-such-role"}])
    assert responses[0]["error"] == "Role not found"


def test_accounts_refuse_to_wait_inside_their_own_handler(
    broker: BrokerEndpoint, mqtt_client: Callable[..., MqttClient]
) -> None:
    # A handler blocking the network thread would never see the answer: fail at once.
    errors: list[BaseException] = []
    done = threading.Event()
    client = MqttClient(broker.service_url("web"))
    accounts = BrokerAccounts(client, timeout=SHORT)

    def handler(topic: str, payload: bytes) -> None:
        try:
            accounts.revoke("u-someone")
        except RuntimeError as error:
            errors.append(error)
        done.set()

    topic = "gamenight/v1/service/web/status"
    client.subscribe(topic, handler)
    client.start()
    try:
        client.wait_connected(SHORT)
        client.publish(topic, json.dumps({"v": 1, "service": "web", "online": True}))
        assert done.wait(SHORT)
    finally:
        client.stop()
    assert errors and "BrokerAccounts.connect" in str(errors[0])


def test_a_silent_broker_makes_provisioning_fail(
    service_credentials: ServiceCredentials,
) -> None:
    client = MqttClient("mqtt://web:x@127.0.0.1:9/")  # nobody listens on the discard port
    accounts = BrokerAccounts(client.start(), timeout=0.3)
    try:
        with pytest.raises(AccountError, match="no answer"):
            accounts.revoke("u-someone")
    finally:
        client.stop()


def test_embedded_accounts_survive_a_restart(
    service_credentials: ServiceCredentials, tmp_path: Path, table_code: str
) -> None:
    token = "a-token-that-must-not-be-stored"
    first = start_embedded_broker(service_credentials, tcp="127.0.0.1:0", data_dir=tmp_path)
    with first, BrokerAccounts.connect(first.endpoint.service_url("web")) as accounts:
        accounts.provision("u-kept", token, player_grants(table_code, 1))
    stored = (tmp_path / ACCOUNTS_FILE).read_text()
    assert "u-kept" in stored
    assert token not in stored
    with start_embedded_broker(service_credentials, tcp="127.0.0.1:0", data_dir=tmp_path) as b:
        assert not refused(b.endpoint.url("u-kept", token))
        assert refused(b.endpoint.url("u-kept", "another"))


def test_both_brokers_answer_account_commands_alike(
    broker_accounts: BrokerAccounts, table_code: str
) -> None:
    role, username = f"role-{table_code.lower()}", f"u-{table_code.lower()}"
    acl = {"acltype": "publishClientSend", "topic": seat_topic(table_code, 0, "intent")}
    responses = broker_accounts.execute(
        [
            {"command": "createRole", "rolename": role, "acls": [{**acl, "allow": True}]},
            {"command": "createRole", "rolename": role},
            {
                "command": "createClient",
                "username": username,
                "password": "p",
                "roles": [{"rolename": "no-such-role"}],
            },
            {"command": "createClient", "username": username, "password": "p"},
            {"command": "addClientRole", "username": username, "rolename": role},
            {"command": "createClient", "username": username, "password": "p"},
            {"command": "deleteClient", "username": username},
            {"command": "deleteClient", "username": username},
            {"command": "deleteRole", "rolename": role},
            {"command": "noSuchCommand"},
        ]
    )
    assert [(r["command"], r.get("error")) for r in responses] == [
        ("createRole", None),
        ("createRole", "Role already exists"),
        ("createClient", "Role not found"),
        ("createClient", None),
        ("addClientRole", None),
        ("createClient", "Client already exists"),
        ("deleteClient", None),
        ("deleteClient", "Client not found"),
        ("deleteRole", None),
        ("noSuchCommand", "Unknown command"),
    ]
