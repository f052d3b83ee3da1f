"""The join API: create a table for a TV, seat a phone, draw the join QR code.

Errors are ``{"error": {"code", "params"}}`` so each page renders them in its language.
A refusal a player causes (a name taken, a locked table, a code mistyped) is an answer,
not a failure: it comes with status 200, so browsers do not log it as a network error.
HTTP errors are kept for requests no page sends (400) and a missing tables service (503).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Response, current_app, jsonify, request

from protocol.topics import is_table_code
from services.web.guard import Limits, host_name, is_local_name, same_origin
from services.web.lobby import Lobby, LobbyError, LobbyUnavailableError
from services.web.qr import qr_svg
from services.web.settings import LANGUAGES, WebSettings

bp = Blueprint("api", __name__, url_prefix="/api")

# The refusals that are HTTP errors; every other one is an answer (200).
_STATUS = {
    "bad_request": 400,
    "bad_host": 403,
    "bad_origin": 403,
    "unsupported_media_type": 415,
    "rate_limited": 429,
    "tables_unavailable": 503,
}
MAX_NAME = 24
# Characters of a name that are neither letters nor marks but belong in it: the joiner
# and selectors of emoji sequences (a family, a flag, a skin tone).
_EMOJI_JOINERS = {"\u200d", "\ufe0e", "\ufe0f"}
_RESERVED_NAME = re.compile(r"^bot\W*\d*$", re.IGNORECASE)  # what computer players are called


def settings() -> WebSettings:
    value: WebSettings = current_app.extensions["gamenight.settings"]
    return value


def lobby() -> Lobby:
    value: Lobby = current_app.extensions["gamenight.lobby"]
    return value


def error(code: str, status: int | None = None, **params: Any) -> tuple[Response, int]:
    return jsonify(error={"code": code, "params": params}), status or _STATUS.get(code, 200)


def limits() -> Limits:
    found: Limits | None = current_app.extensions.get("gamenight.limits")
    if found is None:
        found = current_app.extensions["gamenight.limits"] = Limits.default()
    return found


def _client_address() -> str:
    return request.remote_addr or "-"


@bp.before_request
def guard() -> tuple[Response, int] | None:
    """Refuse a foreign ``Host``, a cross-site ``Origin`` and a POST that is not JSON."""
    allowed = (host_name(urlsplit(settings().public_url).netloc), *settings().allowed_hosts)
    if not is_local_name(host_name(request.host), allowed):
        return error("bad_host")
    if request.method == "POST":
        origin = request.headers.get("Origin")
        if origin is not None and not same_origin(origin, request.host):
            return error("bad_origin")
        if not request.is_json:
            return error("unsupported_media_type")
    return None


def _limited(retry_after: int) -> tuple[Response, int]:
    response, status = error("rate_limited", retry_after=retry_after)
    response.headers["Retry-After"] = str(retry_after)
    return response, status


def _connection() -> dict[str, Any]:
    """What every page needs to dial the broker (every node's address), send intents at
    the QoS the tables service asks, and build links."""
    urls = settings().ws_urls_for(request.host)
    intent_qos = getattr(lobby(), "intent_qos", 1)
    return {
        "ws_url": urls[0],
        "ws_urls": urls,
        "intent_qos": intent_qos,
        "public_url": settings().public_url,
    }


def clean_name(raw: Any) -> str | None:
    """A player's name, NFKC-normalised and trimmed, without control characters; or None."""
    if not isinstance(raw, str):
        return None
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if any(
        unicodedata.category(char).startswith("C")
        and char not in _EMOJI_JOINERS
        and not 0xE0020 <= ord(char) <= 0xE007F  # the tag characters of flag emoji
        for char in name
    ):
        return None
    return name if 1 <= len(name) <= MAX_NAME else None


def name_refusal(name: str) -> str | None:
    """Why a clean name cannot be taken (a look-alike), or None.

    Letters of two scripts in one word ("Аna", its first letter Cyrillic) is how a name
    imitates another; "Bot 2" is what the computer players are called.
    """
    if _RESERVED_NAME.match(name):
        return "name_reserved"
    for word in name.split(" "):
        scripts = {_script(char) for char in word if char.isalpha()}
        if len(scripts) > 1:
            return "name_mixed_scripts"
    return None


def _script(char: str) -> str:
    # The first word of a letter's Unicode name is its script (LATIN, CYRILLIC, GREEK...).
    return unicodedata.name(char, "UNKNOWN").split(" ")[0]


@bp.get("/config")
def config() -> Response:
    return jsonify(**_connection(), languages=list(LANGUAGES), max_name=MAX_NAME)


@bp.post("/tables")
def create_table() -> Response | tuple[Response, int]:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return error("bad_request", field="body")
    wait = limits().creates.take(_client_address())
    if wait:
        return _limited(wait)
    message: dict[str, Any] = {}
    if isinstance(body.get("game"), str):
        message["game"] = body["game"]
    if isinstance(body.get("options"), dict):
        message["options"] = body["options"]
    try:
        data = lobby().request("create", message)
    except LobbyUnavailableError:
        return error("tables_unavailable")
    except LobbyError as refusal:
        return error(refusal.code, **refusal.params)
    table = str(data["table"])
    tv = data["tv"]
    return jsonify(
        table=table,
        username=tv["username"],
        password=tv["password"],
        join_url=settings().join_url(table),
        **_connection(),
    )


@bp.get("/tables/<table>")
def table_info(table: str) -> Response | tuple[Response, int]:
    """What the join page shows before a name is typed: the game, its rules, locked or not."""
    table = table.upper()
    if not is_table_code(table):
        return error("unknown_table", table=table)
    peek = getattr(lobby(), "peek", None)
    if peek is None:
        return error("unavailable")
    try:
        summary = peek(table)
    except LobbyUnavailableError:
        return error("tables_unavailable")
    if summary is None:
        return error("unknown_table", table=table)
    return jsonify(**summary)


@bp.post("/tables/<table>/join")
def join_table(table: str) -> Response | tuple[Response, int]:
    table = table.upper()
    if not is_table_code(table):
        limits().probes.take(_client_address())
        return error("unknown_table", table=table)
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return error("bad_request", field="body")
    name = clean_name(body.get("name"))
    if name is None:
        return error("bad_name", max=MAX_NAME)
    refusal_code = name_refusal(name)
    if refusal_code is not None:
        return error(refusal_code, name=name)
    address = _client_address()
    # A refused join (a wrong code above all) costs a probe: a sweep of table codes is
    # slowed to a few a minute, whatever the tables answer for real and unknown codes.
    wait = limits().probes.retry_after(address) or limits().joins.take(address)
    if wait:
        return _limited(wait)
    message: dict[str, Any] = {"table": table, "name": name}
    _add_language(message, body)
    try:
        data = lobby().request("join", message)
    except LobbyUnavailableError:
        return error("tables_unavailable")
    except LobbyError as refusal:
        limits().probes.take(address)
        return error(refusal.code, **refusal.params)
    return _seated(table, data)


@bp.post("/tables/<table>/claim")
def claim_seat(table: str) -> Response | tuple[Response, int]:
    """A new phone takes an offline seat with the one-time link the host was given."""
    table = table.upper()
    if not is_table_code(table):
        return error("unknown_table", table=table)
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return error("bad_request", field="body")
    seat, token = body.get("seat"), body.get("token")
    if isinstance(seat, bool) or not isinstance(seat, int) or not isinstance(token, str):
        return error("seat_link_invalid", seat=seat)
    message: dict[str, Any] = {"table": table, "seat": seat, "token": token}
    _add_language(message, body)
    try:
        data = lobby().request("claim", message)
    except LobbyUnavailableError:
        return error("tables_unavailable")
    except LobbyError as refusal:
        if refusal.code == "bad_request":  # off-schema: a link cut short or made up
            return error("seat_link_invalid", seat=seat)
        return error(refusal.code, **refusal.params)
    return _seated(table, data)


def _add_language(message: dict[str, Any], body: dict[str, Any]) -> None:
    """Pass on the phone's language, when it is one we speak, for the seat's messages."""
    if body.get("lang") in LANGUAGES:
        message["lang"] = body["lang"]


def _seated(table: str, data: dict[str, Any]) -> Response:
    """A phone's seat and broker login, after a join or a claim."""
    return jsonify(
        table=data["table"],
        seat=data["seat"],
        player_id=data["player_id"],
        username=data["username"],
        password=data["password"],
        host=bool(data["host"]),
        join_url=settings().join_url(table),
        **_connection(),
    )


@bp.post("/tables/<table>/seat-link")
def seat_link(table: str) -> Response | tuple[Response, int]:
    """The address and QR code of a seat link (POSTed: the token stays out of URLs)."""
    table = table.upper()
    body = request.get_json(silent=True)
    if not is_table_code(table) or not isinstance(body, dict):
        return error("bad_request", field="body")
    seat, token = body.get("seat"), body.get("token")
    if isinstance(seat, bool) or not isinstance(seat, int) or not isinstance(token, str):
        return error("bad_request", field="seat")
    if not token or not all(char.isalnum() or char in "-_" for char in token):
        return error("bad_request", field="token")
    url = f"{settings().join_url(table)}#seat={seat}&token={token}"
    response = jsonify(url=url, svg=qr_svg(url))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/tables/<table>/qr.svg")
def join_qr(table: str) -> Response | tuple[Response, int]:
    table = table.upper()
    if not is_table_code(table):
        return error("unknown_table", table=table)
    response = Response(qr_svg(settings().join_url(table)), content_type="image/svg+xml")
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response
