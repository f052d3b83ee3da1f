"""Video the pages play: served with byte ranges, which Safari requires for any video.

The assets route gzips and serves whole files only; a phone's media player asks for
ranges (``Range: bytes=0-1`` first, on iOS) and would refuse to play without a 206.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, send_from_directory

from services.web.settings import WebSettings

bp = Blueprint("media", __name__)
MAX_AGE = 3600


@bp.get("/static/media/<path:name>")
def media_file(name: str) -> Response:
    settings: WebSettings = current_app.extensions["gamenight.settings"]
    response = send_from_directory(
        settings.client_dir / "media", name, conditional=True, max_age=MAX_AGE
    )
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response
