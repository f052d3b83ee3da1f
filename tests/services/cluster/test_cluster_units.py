"""The pieces of the NATS tier that need no server: broker URL lists, the topic -> subject
mapping, the JWTs and the callout's answers."""

from __future__ import annotations

import base64
import json

import nkeys
import paho.mqtt.client as paho
import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol.topics import player_grants, seat_topic, table_view, tv_grants
from services.broker.credentials import ServiceCredentials
from services.cluster import natsjwt
from services.cluster.callout import AccountRecord, AuthRequest, answer
from services.cluster.natsconf import (
    NodePorts,
    NodeSpec,
    mqtt_filter_to_subjects,
    render_node_config,
)
from services.mqtt import BrokerUrl


def test_a_list_of_broker_urls_is_one_cluster() -> None:
    url = BrokerUrl.parse("mqtt://u:p%40ss@127.0.0.1:1884, mqtt://127.0.0.1:1885")
    assert url.endpoints == (("127.0.0.1", 1884), ("127.0.0.1", 1885))
    assert (url.username, url.password) == ("u", "p@ss")
    assert url.geturl() == "mqtt://u:p%40ss@127.0.0.1:1884,mqtt://u:p%40ss@127.0.0.1:1885"
    assert "p%40ss" not in str(url)
    again = BrokerUrl.parse(url.with_credentials("web", "x").geturl())
    assert again.endpoints == url.endpoints and again.username == "web"
    assert BrokerUrl.parse("ws://h:1/mqtt").endpoints == (("h", 1),)


@pytest.mark.parametrize(
    "text",
    ["mqtt://h:1,ws://h:2/mqtt", "mqtt://a:b@h:1,mqtt://c:d@h:2", "mqtt://h:1,http://h:2"],
)
def test_a_list_must_share_scheme_and_login(text: str) -> None:
    with pytest.raises(ValueError):
        BrokerUrl.parse(text)


def _nats_matches(subject_filter: str, subject: str) -> bool:
    """NATS's own rule: ``*`` one token, ``>`` one or more at the end."""
    pattern, tokens = subject_filter.split("."), subject.split(".")
    for i, token in enumerate(pattern):
        if token == ">":
            return len(tokens) > i
        if i >= len(tokens) or token not in ("*", tokens[i]):
            return False
    return len(pattern) == len(tokens)


LEVEL = st.sampled_from(["gamenight", "v1", "table", "ABC", "seat", "0", "1", "view"])
TOPIC = st.lists(LEVEL, min_size=1, max_size=6).map("/".join)
FILTER = st.tuples(st.lists(st.one_of(LEVEL, st.just("+")), max_size=5), st.booleans()).map(
    lambda parts: "/".join([*parts[0], "#"] if parts[1] else parts[0]) or "#"
)


@given(FILTER, TOPIC)
def test_a_filter_maps_to_subjects_matching_the_same_topics(topic_filter: str, topic: str) -> None:
    subject = topic.replace("/", ".")
    as_nats = any(_nats_matches(s, subject) for s in mqtt_filter_to_subjects(topic_filter))
    assert as_nats == paho.topic_matches_sub(topic_filter, topic)


def test_a_topic_with_a_dot_cannot_be_granted() -> None:
    with pytest.raises(ValueError):
        mqtt_filter_to_subjects("gamenight/v1/a.b")


def test_a_jwt_is_checked_against_its_issuer() -> None:
    signer = nkeys.from_seed(natsjwt.new_account_seed())
    token = natsjwt.encode({"sub": "x", "nats": {"type": "user"}}, signer)
    claims = natsjwt.decode(token)
    assert claims["iss"] == signer.public_key.decode() and claims["sub"] == "x"
    head, payload, signature = token.split(".")
    forged = json.loads(base64.urlsafe_b64decode(payload + "=="))
    forged["sub"] = "y"
    forged_payload = base64.urlsafe_b64encode(json.dumps(forged).encode()).decode().rstrip("=")
    with pytest.raises(natsjwt.JwtError):
        natsjwt.decode(f"{head}.{forged_payload}.{signature}")
    other = nkeys.from_seed(natsjwt.new_account_seed())
    forged["iss"] = other.public_key.decode()
    forged_payload = base64.urlsafe_b64encode(json.dumps(forged).encode()).decode().rstrip("=")
    with pytest.raises(natsjwt.JwtError):
        natsjwt.decode(f"{head}.{forged_payload}.{signature}")
    with pytest.raises(natsjwt.JwtError):
        natsjwt.decode("not.a.jwt")


SERVER = nkeys.from_seed(bytes(nkeys.encode_seed(b"s" * 32, nkeys.PREFIX_BYTE_SERVER)))
ISSUER = nkeys.from_seed(natsjwt.new_account_seed())


def _request(user: str, password: str, client_id: str | None = "c1") -> AuthRequest:
    claims = {
        "sub": ISSUER.public_key.decode(),
        "aud": "nats-authorization-request",
        "nats": {
            "server_id": {"id": SERVER.public_key.decode(), "name": "gn-0"},
            "user_nkey": "UABC",
            "client_info": {"type": "mqtt", "mqtt_id": client_id},
            "connect_opts": {"user": user, "pass": password},
            "type": "authorization_request",
            "version": 2,
        },
    }
    return AuthRequest.decode(natsjwt.encode(claims, SERVER))


def _answered(request: AuthRequest, record: AccountRecord | None) -> dict[str, object]:
    response = natsjwt.decode(answer(request, record, ISSUER))
    assert response["aud"] == SERVER.public_key.decode()
    assert response["sub"] == "UABC"
    assert response["iss"] == ISSUER.public_key.decode()
    nats: dict[str, object] = response["nats"]
    return nats


def test_the_callout_grants_exactly_the_accounts_grants() -> None:
    record = AccountRecord.make("tok", player_grants("ABC", 1))
    nats = _answered(_request("u-abc-1", "tok"), record)
    assert "error" not in nats
    user = natsjwt.decode(str(nats["jwt"]))
    assert user["aud"] == "GAMENIGHT" and user["name"] == "u-abc-1" and user["sub"] == "UABC"
    assert user["nats"]["pub"]["allow"] == [
        "gamenight.v1.table.ABC.seat.1.intent",
        "gamenight.v1.table.ABC.seat.1.say",
        "gamenight.v1.table.ABC.seat.1.voice",
        "gamenight.v1.table.ABC.seat.1.presence",
    ]
    assert user["nats"]["sub"]["allow"] == [
        table_view("ABC").replace("/", "."),
        "gamenight.v1.table.ABC.events",
        seat_topic("ABC", 1, "view").replace("/", "."),
        "gamenight.v1.table.ABC.seat.1.reply",
    ]


@pytest.mark.parametrize(
    ("password", "client_id", "bound"),
    [("wrong", "c1", None), ("", "c1", None), ("tok", "other", "c1"), ("tok", None, "c1")],
)
def test_the_callout_refuses_a_bad_login(
    password: str, client_id: str | None, bound: str | None
) -> None:
    record = AccountRecord.make("tok", tv_grants("ABC"), client_id=bound)
    nats = _answered(_request("tv-abc", password, client_id), record)
    assert nats["error"] == "not authorized" and "jwt" not in nats


def test_the_callout_refuses_an_unknown_account() -> None:
    assert _answered(_request("nobody", "x"), None)["error"] == "not authorized"


def test_an_account_record_keeps_a_hash_not_the_password() -> None:
    record = AccountRecord.make("secret-token", player_grants("ABC", 0), client_id="u")
    data = record.to_bytes()
    assert b"secret-token" not in data
    again = AccountRecord.from_bytes(data)
    assert again.password.verify("secret-token") and not again.password.verify("other")
    assert again.grants == record.grants and again.client_id == "u"


def test_a_node_configuration_names_its_peers_and_the_callout(tmp_path: object) -> None:
    credentials = ServiceCredentials.generate()
    specs = [
        NodeSpec(i, "127.0.0.1", NodePorts(4000 + i, 5000 + i, 6000 + i, 7000 + i, 8000 + i), None)  # type: ignore[arg-type]
        for i in range(3)
    ]
    text = render_node_config(specs[1], specs, credentials, ISSUER.public_key.decode())
    assert 'server_name: "gn-1"' in text
    assert '"nats://127.0.0.1:5000", "nats://127.0.0.1:5001", "nats://127.0.0.1:5002"' in text
    assert "port: 6001" in text and "port: 7001" in text
    assert f'issuer: "{ISSUER.public_key.decode()}"' in text
    assert credentials.password("web") in text
    # The MQTT-only services are fenced to the game's subjects; the tables service may not
    # overhear logins.
    web_line = next(line for line in text.splitlines() if '"web"' in line and "password" in line)
    assert '"gamenight.v1.>"' in web_line
    tables_line = next(line for line in text.splitlines() if 'user: "tables"' in line)
    assert "$SYS.REQ.USER.AUTH" in tables_line
