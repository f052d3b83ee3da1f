"""Static assets of clients/web (JS modules, CSS, catalogues, the vendored MQTT client).

Served gzipped when the browser accepts it, with a content hash as ETag so a reload
costs a 304. Nothing is fetched from a CDN: the game works with no internet.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import threading
from dataclasses import dataclass
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, request

bp = Blueprint("assets", __name__)

_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".md": "text/plain; charset=utf-8",
}
# Pages are HTML files served at their own routes, not as assets.
_SERVED = ("js", "css", "i18n", "vendor", "img")


@dataclass(frozen=True, slots=True)
class Asset:
    """One file's bytes, gzipped bytes and ETag, read once while its mtime holds."""

    mtime_ns: int
    body: bytes
    gzipped: bytes
    etag: str
    mimetype: str


class AssetCache:
    """Reads files under one folder once, and again only when they change."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self._assets: dict[Path, Asset] = {}
        self._lock = threading.Lock()

    def get(self, relative: str) -> Asset | None:
        path = (self.root / relative).resolve()
        if not path.is_relative_to(self.root) or not path.is_file():
            return None
        mtime_ns = path.stat().st_mtime_ns
        with self._lock:
            cached = self._assets.get(path)
        if cached is not None and cached.mtime_ns == mtime_ns:
            return cached
        body = path.read_bytes()
        mimetype = _TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0]
        asset = Asset(
            mtime_ns=mtime_ns,
            body=body,
            gzipped=gzip.compress(body, compresslevel=9, mtime=0),
            etag=hashlib.blake2b(body, digest_size=12).hexdigest(),
            mimetype=mimetype or "application/octet-stream",
        )
        with self._lock:
            self._assets[path] = asset
        return asset


def cache() -> AssetCache:
    value: AssetCache = current_app.extensions["gamenight.assets"]
    return value


def send_asset(relative: str) -> Response:
    """The asset at ``relative`` under clients/web, honouring gzip and If-None-Match."""
    asset = cache().get(relative)
    if asset is None:
        abort(404)
    response = Response(content_type=asset.mimetype)  # mimetype= would add a second charset
    response.set_etag(asset.etag)
    # Revalidate every time: a game night must never run yesterday's scripts.
    response.headers["Cache-Control"] = "no-cache"
    response.vary.add("Accept-Encoding")
    if request.if_none_match.contains(asset.etag):
        response.status_code = 304
        return response
    if request.accept_encodings["gzip"]:
        response.set_data(asset.gzipped)
        response.headers["Content-Encoding"] = "gzip"
    else:
        response.set_data(asset.body)
    return response


@bp.get("/static/<area>/<path:relative>")
def static_file(area: str, relative: str) -> Response:
    if area not in _SERVED:
        abort(404)
    return send_asset(f"{area}/{relative}")


@bp.get("/favicon.ico")
def favicon() -> Response:
    return send_asset("img/favicon.svg")
