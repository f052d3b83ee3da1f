"""The embedded broker's account store: dynsec commands, access decisions, its file."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import pytest

from protocol.topics import player_grants, seat_topic, table_events, table_view, tv_grants
from services.broker.accounts import provision_commands, revoke_commands
from services.broker.credentials import ServiceCredentials
from services.broker.dynsec import (
    CONTROL_RESPONSE_TOPIC,
    CONTROL_TOPIC,
    RECEIVE,
    SEND,
    SUBSCRIBE_PATTERN,
    AccountStore,
    AclEntry,
    PasswordHash,
)

CREDENTIALS = ServiceCredentials("a-test-secret-of-enough-length")


def run(store: AccountStore, *commands: dict[str, Any]) -> list[dict[str, Any]]:
    result = store.execute(json.dumps({"commands": list(commands)}).encode())
    responses: list[dict[str, Any]] = json.loads(result.response)["responses"]
    return responses


def test_a_provisioned_player_gets_exactly_its_grants() -> None:
    store = AccountStore(CREDENTIALS)
    responses = run(store, *provision_commands("u-1", "tok", player_grants("ABC", 0)))
    assert [r["command"] for r in responses] == [
        "deleteClient",
        "deleteRole",
        "createRole",
        "createClient",
    ]
    assert [r.get("error") for r in responses] == ["Client not found", "Role not found", None, None]
    assert store.authenticate("u-1", "tok")
    assert not store.authenticate("u-1", "tok2")
    assert store.may_subscribe("u-1", seat_topic("ABC", 0, "view"))
    assert store.may_receive("u-1", seat_topic("ABC", 0, "view"))
    assert not store.may_subscribe("u-1", seat_topic("ABC", 1, "view"))
    assert not store.may_receive("u-1", seat_topic("ABC", 1, "view"))
    assert not store.may_subscribe("u-1", "gamenight/v1/table/ABC/seat/+/view")
    assert store.may_publish("u-1", seat_topic("ABC", 0, "intent"))
    assert not store.may_publish("u-1", seat_topic("ABC", 1, "intent"))
    assert not store.may_publish("u-1", seat_topic("ABC", 0, "view"))  # read, not write
    assert not store.may_publish("u-1", CONTROL_TOPIC)


def test_a_pattern_grant_never_widens_to_a_broader_subscription() -> None:
    store = AccountStore(CREDENTIALS)
    acls = [{"acltype": SUBSCRIBE_PATTERN, "topic": "public/+", "allow": True}]
    run(
        store,
        {"command": "createRole", "rolename": "r", "acls": acls},
        {"command": "createClient", "username": "u", "password": "p", "roles": [{"rolename": "r"}]},
    )
    assert store.may_subscribe("u", "public/x")
    assert store.may_subscribe("u", "public/+")
    assert not store.may_subscribe("u", "public/#")
    assert not store.may_subscribe("u", "#")


def test_higher_priority_deny_wins_and_default_is_deny() -> None:
    store = AccountStore(CREDENTIALS)
    acls = [
        {"acltype": RECEIVE, "topic": "a/#", "allow": True, "priority": 0},
        {"acltype": RECEIVE, "topic": "a/secret", "allow": False, "priority": 5},
        {"acltype": SUBSCRIBE_PATTERN, "topic": "a/#", "allow": True, "priority": 0},
        {"acltype": SUBSCRIBE_PATTERN, "topic": "a/secret", "allow": False, "priority": 5},
    ]
    run(
        store,
        {"command": "createRole", "rolename": "r", "acls": acls},
        {"command": "createClient", "username": "u", "password": "p", "roles": [{"rolename": "r"}]},
    )
    assert store.may_receive("u", "a/open")
    assert not store.may_receive("u", "a/secret")
    assert store.may_subscribe("u", "a/open")
    assert not store.may_subscribe("u", "a/+")  # it would reach a/secret
    assert not store.may_receive("u", "b")  # no entry: default deny
    assert not store.may_publish("u", "a/open")


def test_services_need_no_stored_account_and_cannot_be_replaced() -> None:
    store = AccountStore(CREDENTIALS)
    assert store.authenticate("tables", CREDENTIALS.password("tables"))
    assert not store.authenticate("tables", CREDENTIALS.password("web"))
    assert store.may_subscribe("tables", "gamenight/v1/table/+/seat/+/intent")
    assert store.may_publish("web", CONTROL_TOPIC)
    assert store.may_receive("web", CONTROL_RESPONSE_TOPIC)
    assert not store.may_subscribe("tables", "#")
    responses = run(
        store,
        {"command": "createClient", "username": "tables", "password": "x"},
        {"command": "deleteClient", "username": "tables"},
    )
    assert [r.get("error") for r in responses] == ["Client already exists", "Client not found"]
    assert store.authenticate("tables", CREDENTIALS.password("tables"))


def test_commands_answer_like_mosquitto() -> None:
    store = AccountStore(CREDENTIALS)
    responses = run(
        store,
        {"command": "createRole", "rolename": "r", "correlationData": "c1"},
        {"command": "createRole", "rolename": "r"},
        {
            "command": "createClient",
            "username": "u",
            "password": "p",
            "roles": [{"rolename": "missing"}],
        },
        {"command": "frobnicate", "correlationData": "c2"},
        {"command": "addRoleACL", "rolename": "r", "acltype": SEND, "topic": "x", "allow": True},
        {"command": "addRoleACL", "rolename": "r", "acltype": "bogus", "topic": "x"},
        {"command": "createClient", "username": "u", "password": "p"},
        {"command": "addClientRole", "username": "u", "rolename": "r"},
        {"command": "removeRoleACL", "rolename": "r", "acltype": SEND, "topic": "nope"},
    )
    assert responses == [
        {"command": "createRole", "correlationData": "c1"},
        {"command": "createRole", "error": "Role already exists"},
        {"command": "createClient", "error": "Role not found"},
        {"command": "frobnicate", "error": "Unknown command", "correlationData": "c2"},
        {"command": "addRoleACL"},
        {"command": "addRoleACL", "error": "Invalid/missing acltype"},
        {"command": "createClient"},
        {"command": "addClientRole"},
        {"command": "removeRoleACL", "error": "ACL not found"},
    ]
    assert store.may_publish("u", "x")


def test_garbage_gets_an_error_response() -> None:
    store = AccountStore(CREDENTIALS)
    for payload in (b"not json", b"[]", b'{"commands": 3}'):
        response = json.loads(store.execute(payload).response)
        assert response["responses"][0]["error"] == "Payload not valid JSON"


def test_deleting_or_changing_a_password_disconnects_the_account() -> None:
    store = AccountStore(CREDENTIALS)
    run(store, *provision_commands("u-1", "tok", tv_grants("ABC")))
    result = store.execute(
        json.dumps(
            {"commands": [{"command": "setClientPassword", "username": "u-1", "password": "new"}]}
        ).encode()
    )
    assert result.disconnect == {"u-1"}
    assert store.authenticate("u-1", "new")
    result = store.execute(json.dumps({"commands": revoke_commands("u-1")}).encode())
    assert result.disconnect == {"u-1"}
    assert not store.authenticate("u-1", "new")
    assert not store.may_receive("u-1", table_view("ABC"))


def test_a_client_id_binding_is_kept() -> None:
    store = AccountStore(CREDENTIALS)
    run(store, *provision_commands("u-1", "tok", tv_grants("ABC"), client_id="phone-1"))
    assert store.client_id_allowed("u-1", "phone-1")
    assert not store.client_id_allowed("u-1", "gamenight-tables")
    assert store.client_id_allowed("u-2", "anything")  # unknown: the password check decides


def test_accounts_survive_a_restart_without_plaintext(tmp_path: Path) -> None:
    path = tmp_path / "accounts.json"
    store = AccountStore(CREDENTIALS, path)
    token = "token-that-must-never-be-stored"
    run(store, *provision_commands("u-1", token, player_grants("ABC", 2), client_id="c-1"))
    text = path.read_text()
    assert token not in text
    assert "pbkdf2-sha256" in text
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    reloaded = AccountStore(CREDENTIALS, path)
    assert reloaded.usernames() == ["u-1"]
    assert reloaded.authenticate("u-1", token)
    assert reloaded.may_receive("u-1", table_events("ABC"))
    assert not reloaded.may_receive("u-1", seat_topic("ABC", 1, "view"))
    assert not reloaded.client_id_allowed("u-1", "c-2")


def test_password_hashes_are_salted() -> None:
    first, second = PasswordHash.make("same", 1000), PasswordHash.make("same", 1000)
    assert first.key != second.key
    assert first.verify("same")
    assert not first.verify("Same")
    assert PasswordHash.from_json(first.to_json()) == first


def test_acl_entries_are_validated() -> None:
    with pytest.raises(Exception, match="topic"):
        AclEntry.from_json({"acltype": SEND, "topic": "a/#/b"})
    entry = AclEntry.from_json({"acltype": SEND, "topic": "a/b"})
    assert entry.allow is False  # like Mosquitto: an entry without "allow" denies
