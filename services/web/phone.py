"""The phone page: join with a name, then the private hand."""

from __future__ import annotations

from flask import Blueprint, redirect, url_for
from werkzeug.wrappers import Response

from protocol.topics import is_table_code
from services.web.pages import send_page

bp = Blueprint("phone", __name__)


@bp.get("/join")
def join_page() -> Response:
    """Where a player types the short code shown on the TV."""
    return send_page("phone.html")


@bp.get("/join/<table>")
def phone_page(table: str) -> Response:
    """What the QR code opens; a lower-case code typed by hand is put right."""
    if table != table.upper() and is_table_code(table.upper()):
        return redirect(url_for("phone.phone_page", table=table.upper()))
    return send_page("phone.html")
