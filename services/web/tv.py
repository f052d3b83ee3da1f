"""The TV page: the shared board, the lobby with the join QR code, the host controls."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Response, current_app, jsonify

from services.web.pages import send_page
from services.web.settings import WebSettings, loopback_notice

bp = Blueprint("tv", __name__)


@bp.get("/")
@bp.get("/tv")
def tv_page() -> Response:
    return send_page("tv.html")


@bp.get("/api/network")
def network() -> Response:
    """What the TV tells the players about reaching this machine (codes and parameters).

    ``loopback_only``: the QR code points at this machine itself, so no phone can join;
    ``accept_certificate``: pages are served over https with our own certificate, which
    each phone accepts once.
    """
    settings: WebSettings = current_app.extensions["gamenight.settings"]
    notices: list[dict[str, Any]] = []
    loopback = loopback_notice(settings.public_url)
    if loopback is not None:
        notices.append(loopback)
    if settings.public_url.startswith("https:"):
        # The broker's wss port is another origin: some browsers ask about it once more.
        broker = urlsplit(settings.ws_url_for(urlsplit(settings.public_url).netloc))
        params = {"url": settings.public_url, "broker_url": f"https://{broker.netloc}/"}
        notices.append({"code": "accept_certificate", "params": params})
    return jsonify(public_url=settings.public_url, notices=notices)
