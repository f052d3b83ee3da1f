"""The web service refuses foreign hosts, cross-site posts, floods and look-alike names."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from web_doubles import RecordingLobby

from services.web.lobby import LobbyError

TABLE = {"table": "K7Q2A", "tv": {"username": "tv-k7q2a", "password": "pw"}}
SEAT = {
    "table": "K7Q2A",
    "seat": 0,
    "player_id": "p1",
    "username": "u-p1",
    "password": "pw",
    "host": True,
}


def test_a_form_or_text_post_cannot_create_a_table(
    client: FlaskClient, lobby: RecordingLobby
) -> None:
    for body, kind in (("game=x", "application/x-www-form-urlencoded"), ("{}", "text/plain")):
        response = client.post("/api/tables", data=body, content_type=kind)
        assert response.status_code == 415
        assert response.get_json()["error"]["code"] == "unsupported_media_type"
    assert lobby.requests == []


@pytest.mark.parametrize("host", ["evil.example", "attacker.com:8000"])
def test_a_foreign_host_is_refused(client: FlaskClient, lobby: RecordingLobby, host: str) -> None:
    assert client.get("/api/config", headers={"Host": host}).status_code == 403
    response = client.post("/api/tables/K7Q2A/join", json={"name": "Ana"}, headers={"Host": host})
    assert response.get_json()["error"]["code"] == "bad_host"
    assert lobby.requests == []


@pytest.mark.parametrize("host", ["192.168.1.20:8000", "gamenight.local", "den:8000", "localhost"])
def test_lan_hosts_are_served(client: FlaskClient, host: str) -> None:
    assert client.get("/api/config", headers={"Host": host}).status_code == 200


def test_a_cross_site_post_is_refused(client: FlaskClient, lobby: RecordingLobby) -> None:
    headers = {"Host": "192.168.1.20:8000", "Origin": "http://evil.example"}
    response = client.post("/api/tables", json={}, headers=headers)
    assert (response.status_code, response.get_json()["error"]["code"]) == (403, "bad_origin")
    lobby.answers.append(TABLE)
    same = {"Host": "192.168.1.20:8000", "Origin": "http://192.168.1.20:8000"}
    assert client.post("/api/tables", json={}, headers=same).status_code == 200


def test_a_huge_body_is_refused_unread(client: FlaskClient, lobby: RecordingLobby) -> None:
    body = '{"name": "' + "a" * 20_000_000 + '"}'
    response = client.post("/api/tables/K7Q2A/join", data=body, content_type="application/json")
    assert response.status_code == 413
    assert lobby.requests == []


def test_headers_say_nosniff_and_one_charset(client: FlaskClient) -> None:
    for path in ("/static/js/net.js", "/api/config", "/api/tables/K7Q2A/qr.svg"):
        response = client.get(path)
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Content-Type"].count("charset") <= 1, path


def test_joins_and_wrong_codes_are_rate_limited_per_address(
    client: FlaskClient, lobby: RecordingLobby
) -> None:
    for number in range(5):
        lobby.answers.append(LobbyError("unknown_table", table="ZZZZZ"))
        response = client.post("/api/tables/ZZZZZ/join", json={"name": f"Ana {number}"})
        assert response.get_json()["error"]["code"] == "unknown_table"
    response = client.post("/api/tables/ZZZZZ/join", json={"name": "Ana"})
    assert response.status_code == 429
    assert response.get_json()["error"]["code"] == "rate_limited"
    assert int(response.headers["Retry-After"]) > 0
    assert len(lobby.requests) == 5  # the sixth never reached the tables service
    other = {"REMOTE_ADDR": "192.168.1.33"}
    lobby.answers.append(SEAT)
    assert (
        client.post("/api/tables/K7Q2A/join", json={"name": "Ben"}, environ_base=other).status_code
        == 200
    )


def test_table_creation_is_rate_limited_per_address(
    client: FlaskClient, lobby: RecordingLobby
) -> None:
    lobby.answers.extend([TABLE] * 5)
    assert all(client.post("/api/tables", json={}).status_code == 200 for _ in range(5))
    assert client.post("/api/tables", json={}).status_code == 429


@pytest.mark.parametrize(
    ("name", "code"),
    [("Аna", "name_mixed_scripts"), ("Bot 1", "name_reserved"), ("bot", "name_reserved")],
)
def test_look_alike_names_are_refused(
    client: FlaskClient, lobby: RecordingLobby, name: str, code: str
) -> None:
    response = client.post("/api/tables/K7Q2A/join", json={"name": name})
    assert response.get_json()["error"]["code"] == code
    assert lobby.requests == []


@pytest.mark.parametrize("name", ["👨‍👩‍👧‍👦", "Ана", "Zoë", "🇵🇹 Rui", "Anna Botha"])
def test_family_names_and_emoji_are_taken(
    client: FlaskClient, lobby: RecordingLobby, name: str
) -> None:
    lobby.answers.append(SEAT)
    response = client.post("/api/tables/K7Q2A/join", json={"name": name})
    assert response.status_code == 200, response.get_json()
    assert lobby.requests[-1][1]["name"] == name


def test_full_width_letters_are_folded(client: FlaskClient, lobby: RecordingLobby) -> None:
    lobby.answers.append(SEAT)
    client.post("/api/tables/K7Q2A/join", json={"name": "Ａｎａ"})
    assert lobby.requests[-1][1]["name"] == "Ana"
