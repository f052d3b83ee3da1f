"""The Flask application factory of the web service."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify
from werkzeug.exceptions import HTTPException

from services.web import api, assets, media, phone, tv
from services.web.assets import AssetCache
from services.web.guard import MAX_BODY
from services.web.lobby import Lobby
from services.web.settings import WebSettings

_SETTING_NAMES = {field.name for field in fields(WebSettings)}


def settings_from(config: Mapping[str, Any]) -> WebSettings:
    """Settings from a Flask-style mapping: ``SETTINGS`` whole, or fields in upper case."""
    base = config.get("SETTINGS")
    settings = base if isinstance(base, WebSettings) else WebSettings()
    changes: dict[str, Any] = {}
    for key, value in config.items():
        name = key.lower()
        if name in _SETTING_NAMES and name != "extra":
            changes[name] = Path(value) if name == "client_dir" else value
    return replace(settings, **changes)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """A web service app.

    ``config`` holds Flask settings plus ours (``BROKER_URL``, ``WS_URL``, ``PUBLIC_URL``,
    ``USERNAME``, ``PASSWORD``, ``CLIENT_DIR``, ``REQUEST_TIMEOUT``, or ``SETTINGS``) and
    optionally ``LOBBY``, the object that carries lobby requests; without it the app
    connects to the broker as the service account on its first request.
    """
    config = dict(config or {})
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY  # a bigger body is refused (413) unread
    app.config.update({k: v for k, v in config.items() if k not in ("LOBBY", "SETTINGS")})
    settings = settings_from(config)
    app.extensions["gamenight.settings"] = settings
    app.extensions["gamenight.assets"] = AssetCache(settings.client_dir)
    lobby: Lobby | None = config.get("LOBBY")
    if lobby is None:
        from services.web.broker_link import LazyMqttLobby

        lobby = LazyMqttLobby(settings)
    app.extensions["gamenight.lobby"] = lobby
    for blueprint in (tv.bp, phone.bp, api.bp, media.bp, assets.bp):
        app.register_blueprint(blueprint)

    @app.after_request
    def no_sniffing(response: Response) -> Response:
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response

    @app.errorhandler(HTTPException)
    def http_error(problem: HTTPException) -> tuple[Response, int]:
        code = (problem.name or "error").lower().replace(" ", "_")
        return jsonify(error={"code": code, "params": {}}), problem.code or 500

    return app
