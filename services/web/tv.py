"""The TV page: the shared board, the lobby with the join QR code, the host controls."""

from __future__ import annotations

from flask import Blueprint, Response

from services.web.pages import send_page

bp = Blueprint("tv", __name__)


@bp.get("/")
@bp.get("/tv")
def tv_page() -> Response:
    return send_page("tv.html")
