"""The web service's routes through Flask's test client: pages, assets, the join API."""

from __future__ import annotations

import gzip
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from web_doubles import RecordingLobby

from services.web.lobby import LobbyError, LobbyUnavailableError
from services.web.settings import DEFAULT_CLIENT_DIR, WebSettings, lan_address

CLIENT_DIR = DEFAULT_CLIENT_DIR


class _Links(HTMLParser):
    """Every script src and stylesheet/icon href of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        for name in ("src", "href"):
            value = found.get(name)
            if value and tag in ("script", "link"):
                self.urls.append(value)


def page_links(html: str) -> list[str]:
    parser = _Links()
    parser.feed(html)
    return parser.urls


@pytest.mark.parametrize(
    ("path", "marker"),
    [("/", "tv.js"), ("/tv", "tv.js"), ("/join", "phone.js"), ("/join/K7Q2", "phone.js")],
)
def test_pages_are_served_with_their_script_and_a_strict_policy(
    client: FlaskClient, path: str, marker: str
) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    assert f"/static/js/{marker}" in response.get_data(as_text=True)
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "connect-src 'self' ws: wss:" in policy


def test_a_lower_case_code_typed_by_hand_is_put_right(client: FlaskClient) -> None:
    response = client.get("/join/k7q2")
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/join/K7Q2")


@pytest.mark.parametrize("page", ["tv.html", "phone.html"])
def test_pages_load_everything_from_this_server(client: FlaskClient, page: str) -> None:
    html = (CLIENT_DIR / page).read_text("utf-8")
    urls = page_links(html)
    assert "/static/vendor/mqtt.min.js" in urls
    for url in urls:
        assert url.startswith("/static/"), f"{page} loads {url} from elsewhere"
        assert client.get(url).status_code == 200, url


def _imports(source: str) -> list[str]:
    return re.findall(r"""^\s*(?:import|export)\s[^;]*?from\s+["'](\.[^"']+)["']""", source, re.M)


def test_every_module_a_page_imports_is_served(client: FlaskClient) -> None:
    pending = ["js/tv.js", "js/phone.js"]
    seen: set[str] = set()
    while pending:
        module = pending.pop()
        if module in seen:
            continue
        seen.add(module)
        response = client.get(f"/static/{module}")
        assert response.status_code == 200, module
        assert response.mimetype == "text/javascript"
        folder = Path(module).parent
        for relative in _imports(response.get_data(as_text=True)):
            pending.append((folder / relative).as_posix().replace("/./", "/"))
    # Normalise "js/../x" paths the browser would resolve.
    assert {"js/net.js", "js/i18n.js", "js/cards.js"} <= {str(Path(p)) for p in seen}


def test_assets_are_gzipped_when_accepted_and_revalidated_by_etag(client: FlaskClient) -> None:
    plain = client.get("/static/vendor/mqtt.min.js")
    assert plain.headers.get("Content-Encoding") is None
    assert plain.data == (CLIENT_DIR / "vendor" / "mqtt.min.js").read_bytes()

    zipped = client.get("/static/vendor/mqtt.min.js", headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.data) == plain.data
    assert len(zipped.data) < len(plain.data) / 2

    etag = plain.headers["ETag"]
    again = client.get("/static/vendor/mqtt.min.js", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.data == b""


@pytest.mark.parametrize(
    "path",
    [
        "/static/js/../../../services/web/app.py",
        "/static/js/%2e%2e/%2e%2e/pyproject.toml",
        "/static/secret/x.js",
        "/static/js/missing.js",
        "/static/tv.html",
    ],
)
def test_nothing_outside_the_asset_folders_is_served(client: FlaskClient, path: str) -> None:
    assert client.get(path).status_code == 404


def test_config_gives_the_broker_address_as_the_page_dialled_it(client: FlaskClient) -> None:
    local = client.get("/api/config", headers={"Host": "localhost:8000"}).get_json()
    lan = client.get("/api/config", headers={"Host": "192.168.1.20:8000"}).get_json()
    assert local["ws_url"] == "ws://localhost:8083/mqtt"
    assert lan["ws_url"] == "ws://192.168.1.20:8083/mqtt"
    assert lan["languages"] == ["en", "fr", "pt", "nl"]


def test_create_returns_the_tv_credentials_and_the_join_address(
    client: FlaskClient, lobby: RecordingLobby
) -> None:
    lobby.answers.append({"table": "K7Q2", "tv": {"username": "tv-k7q2", "password": "s3cret"}})
    response = client.post("/api/tables", json={"game": "five-crowns"})
    assert response.status_code == 200
    body = response.get_json()
    assert body["table"] == "K7Q2"
    assert (body["username"], body["password"]) == ("tv-k7q2", "s3cret")
    assert body["join_url"] == "http://192.168.1.20:8000/join/K7Q2"
    assert lobby.requests == [("create", {"game": "five-crowns"})]


def test_join_sends_the_cleaned_name_and_language(
    client: FlaskClient, lobby: RecordingLobby
) -> None:
    lobby.answers.append(
        {
            "table": "K7Q2",
            "seat": 1,
            "player_id": "p1",
            "username": "u-p1",
            "password": "tok",
            "host": False,
        }
    )
    response = client.post("/api/tables/k7q2/join", json={"name": "  Ana \t Lu ", "lang": "pt"})
    assert response.status_code == 200
    body = response.get_json()
    assert (body["seat"], body["player_id"], body["host"]) == (1, "p1", False)
    assert body["ws_url"].startswith("ws://")
    assert lobby.requests == [("join", {"table": "K7Q2", "name": "Ana Lu", "lang": "pt"})]


@pytest.mark.parametrize(
    ("name", "sent"),
    [
        ("", False),
        ("   ", False),
        ("x" * 25, False),
        ("Bob\x07", False),
        (42, False),
        ("x" * 24, True),
        ("Zoë", True),
    ],
)
def test_names_are_checked_before_asking_the_tables_service(
    client: FlaskClient, lobby: RecordingLobby, name: object, sent: bool
) -> None:
    lobby.answers.append(
        {
            "table": "K7Q2",
            "seat": 0,
            "player_id": "p",
            "username": "u",
            "password": "t",
            "host": True,
        }
    )
    response = client.post("/api/tables/K7Q2/join", json={"name": name})
    assert ("error" not in response.get_json()) is sent
    assert bool(lobby.requests) is sent
    if not sent:
        assert response.get_json()["error"]["code"] == "bad_name"


def test_a_language_we_do_not_speak_is_left_out(client: FlaskClient, lobby: RecordingLobby) -> None:
    lobby.answers.append(
        {
            "table": "K7Q2",
            "seat": 0,
            "player_id": "p",
            "username": "u",
            "password": "t",
            "host": True,
        }
    )
    client.post("/api/tables/K7Q2/join", json={"name": "Ana", "lang": "de"})
    assert "lang" not in lobby.requests[0][1]


@pytest.mark.parametrize(
    ("refusal", "status"),
    [
        (LobbyError("unknown_table", table="K7Q2"), 200),
        (LobbyError("name_taken", name="Ana"), 200),
        (LobbyError("table_locked", table="K7Q2"), 200),
        (LobbyError("table_full", table="K7Q2", seats=6), 200),
        (LobbyError("game_in_progress", table="K7Q2"), 200),
        (LobbyUnavailableError(), 503),
    ],
)
def test_refusals_are_answers_with_their_code_and_parameters(
    client: FlaskClient, lobby: RecordingLobby, refusal: LobbyError, status: int
) -> None:
    lobby.answers.append(refusal)
    response = client.post("/api/tables/K7Q2/join", json={"name": "Ana"})
    assert response.status_code == status
    assert response.get_json()["error"] == {"code": refusal.code, "params": refusal.params}


@pytest.mark.parametrize("code", ["AB", "ABC/D", "A.BC", "ABCDEFGHIJKLM"])
def test_a_code_that_cannot_be_a_table_is_refused_here(
    client: FlaskClient, lobby: RecordingLobby, code: str
) -> None:
    response = client.post(f"/api/tables/{code}/join", json={"name": "Ana"})
    # "ABC/D" is not even a route: that is the plain 404 of an unknown address.
    assert response.get_json()["error"]["code"] in ("unknown_table", "not_found")
    assert lobby.requests == []


def test_join_without_a_json_body_is_a_bad_request(client: FlaskClient) -> None:
    response = client.post("/api/tables/K7Q2/join", data="name=Ana")
    assert response.status_code == 415  # not JSON: what a foreign page could send
    assert response.get_json()["error"]["code"] == "unsupported_media_type"
    response = client.post("/api/tables/K7Q2/join", data="[1]", content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "bad_request"


def test_unknown_routes_answer_in_json(client: FlaskClient) -> None:
    response = client.get("/api/nothing")
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "not_found"


def test_ws_url_for_keeps_ipv6_hosts_in_brackets() -> None:
    settings = WebSettings(ws_url="ws://{host}:8083/mqtt")
    assert settings.ws_url_for("[::1]:8000") == "ws://[::1]:8083/mqtt"
    assert settings.ws_url_for("gamenight.local") == "ws://gamenight.local:8083/mqtt"


def test_the_public_url_defaults_to_a_lan_address() -> None:
    address = lan_address()
    assert re.fullmatch(r"\d+\.\d+\.\d+\.\d+", address)
    filled = WebSettings().with_public_url(8123)
    assert filled.public_url == f"http://{address}:8123"
    given = WebSettings(public_url="http://tv.local:9000").with_public_url(8123)
    assert given.join_url("K7Q2") == "http://tv.local:9000/join/K7Q2"
