"""The web API of seat links: the claim is relayed as it came; the link's QR is POSTed."""

from __future__ import annotations

from flask.testing import FlaskClient
from web_doubles import RecordingLobby

from services.web.lobby import LobbyError

TOKEN = "A" * 32


def test_a_claim_is_relayed_and_answered_with_the_seat_s_new_login(
    client: FlaskClient, lobby: RecordingLobby
) -> None:
    lobby.answers.append(
        {
            "table": "K7Q2",
            "seat": 1,
            "player_id": "pnew",
            "username": "u-pnew",
            "password": "secret",
            "host": False,
        }
    )
    answer = client.post("/api/tables/k7q2/claim", json={"seat": 1, "token": TOKEN, "lang": "nl"})
    assert answer.status_code == 200
    assert answer.get_json()["username"] == "u-pnew"
    assert lobby.requests == [("claim", {"table": "K7Q2", "seat": 1, "token": TOKEN, "lang": "nl"})]


def test_a_refused_or_malformed_claim_is_a_coded_answer(
    client: FlaskClient, lobby: RecordingLobby
) -> None:
    lobby.answers.append(LobbyError("seat_online", seat=1, name="Ben"))
    refused = client.post("/api/tables/K7Q2/claim", json={"seat": 1, "token": TOKEN})
    assert refused.get_json() == {
        "error": {"code": "seat_online", "params": {"seat": 1, "name": "Ben"}}
    }
    for body in ({"seat": "1", "token": TOKEN}, {"seat": True, "token": TOKEN}, {"seat": 1}):
        answer = client.post("/api/tables/K7Q2/claim", json=body)
        assert answer.get_json()["error"]["code"] == "seat_link_invalid"
    assert len(lobby.requests) == 1  # nothing malformed reached the tables service


def test_the_seat_link_qr_code_is_made_from_a_post_body(client: FlaskClient) -> None:
    answer = client.post("/api/tables/K7Q2/seat-link", json={"seat": 2, "token": TOKEN})
    data = answer.get_json()
    assert data["url"] == f"http://192.168.1.20:8000/join/K7Q2#seat=2&token={TOKEN}"
    assert "<svg" in data["svg"][:200]
    assert answer.headers["Cache-Control"] == "no-store"
    bad = client.post("/api/tables/K7Q2/seat-link", json={"seat": 2, "token": "a b"})
    assert bad.status_code == 400
