"""The join API: create a table for a TV, seat a phone, draw the join QR code.

Errors are ``{"error": {"code", "params"}}`` so each page renders them in its language.
A refusal a player causes (a name taken, a locked table, a code mistyped) is an answer,
not a failure: it comes with status 200, so browsers do not log it as a network error.
HTTP errors are kept for requests no page sends (400) and a missing tables service (503).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from protocol.topics import is_table_code
from services.web.lobby import Lobby, LobbyError, LobbyUnavailableError
from services.web.qr import qr_svg
from services.web.settings import LANGUAGES, WebSettings

bp = Blueprint("api", __name__, url_prefix="/api")

# The refusals that are HTTP errors; every other one is an answer (200).
_STATUS = {"bad_request": 400, "tables_unavailable": 503}
MAX_NAME = 24


def settings() -> WebSettings:
    value: WebSettings = current_app.extensions["gamenight.settings"]
    return value


def lobby() -> Lobby:
    value: Lobby = current_app.extensions["gamenight.lobby"]
    return value


def error(code: str, status: int | None = None, **params: Any) -> tuple[Response, int]:
    return jsonify(error={"code": code, "params": params}), status or _STATUS.get(code, 200)


def _connection() -> dict[str, str]:
    """What every page needs to dial the broker and build links."""
    return {"ws_url": settings().ws_url_for(request.host), "public_url": settings().public_url}


def clean_name(raw: Any) -> str | None:
    """A player's name, trimmed, without control characters; None if unusable."""
    if not isinstance(raw, str):
        return None
    name = " ".join(raw.split())
    if any(unicodedata.category(char).startswith("C") for char in name):
        return None
    return name if 1 <= len(name) <= MAX_NAME else None


@bp.get("/config")
def config() -> Response:
    return jsonify(**_connection(), languages=list(LANGUAGES), max_name=MAX_NAME)


@bp.post("/tables")
def create_table() -> Response | tuple[Response, int]:
    body = request.get_json(silent=True) or {}
    if not isinstance(body, dict):
        return error("bad_request", field="body")
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
        return error("unknown_table", table=table)
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return error("bad_request", field="body")
    name = clean_name(body.get("name"))
    if name is None:
        return error("bad_name", max=MAX_NAME)
    message: dict[str, Any] = {"table": table, "name": name}
    if body.get("lang") in LANGUAGES:
        message["lang"] = body["lang"]
    try:
        data = lobby().request("join", message)
    except LobbyUnavailableError:
        return error("tables_unavailable")
    except LobbyError as refusal:
        return error(refusal.code, **refusal.params)
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


@bp.get("/tables/<table>/qr.svg")
def join_qr(table: str) -> Response | tuple[Response, int]:
    table = table.upper()
    if not is_table_code(table):
        return error("unknown_table", table=table)
    response = Response(qr_svg(settings().join_url(table)), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response
