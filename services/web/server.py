"""Running the web service: a threaded WSGI server around ``create_app``.

``run_web`` is what ``gamenight serve`` and ``python -m services.web`` call; tests and
benchmarks use ``start_web`` to get a server in a background thread and stop it after.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import replace
from typing import Any

from werkzeug.serving import BaseWSGIServer, make_server

from services.tls import CertificateFiles
from services.web.app import create_app
from services.web.settings import WebSettings

log = logging.getLogger("gamenight.web")


class WebServer:
    """One running web service; ``url`` is where this machine reaches it.

    With ``certificate`` it serves https only (phones get a secure context).
    """

    def __init__(
        self,
        settings: WebSettings,
        host: str,
        port: int,
        certificate: CertificateFiles | None = None,
    ) -> None:
        # One line per asset request drowns what matters in the terminal of `gamenight serve`.
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
        # Bind first, so port 0 (any free port) is known before the public URL is made.
        self._server: BaseWSGIServer = make_server(host, port, app=_placeholder, threaded=True)
        if certificate is not None:
            _serve_tls(self._server, certificate)
        self.port = self._server.server_port
        scheme = "https" if certificate is not None else "http"
        self.settings = settings.with_public_url(self.port, scheme)
        self.app = create_app({"SETTINGS": self.settings})
        self._server.app = self.app
        local = "127.0.0.1" if host in ("0.0.0.0", "") else host
        self.url = f"{scheme}://{local}:{self.port}"
        self._thread: threading.Thread | None = None

    def serve_forever(self) -> None:
        log.info("web service on %s (players join at %s)", self.url, self.settings.public_url)
        self._server.serve_forever()

    def start(self) -> WebServer:
        """Serve in a daemon thread and return at once."""
        self._thread = threading.Thread(target=self.serve_forever, name="web", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        lobby = self.app.extensions["gamenight.lobby"]
        close = getattr(lobby, "close", None)
        if callable(close):
            close()


def _serve_tls(server: BaseWSGIServer, certificate: CertificateFiles) -> None:
    # Werkzeug's own ssl_context does each TLS handshake in its accept loop, so one phone
    # that connects and stays silent (or a page still asking its user about our
    # certificate) would stall every other. Deferred, the handshake runs in the request's
    # own thread.
    context = certificate.server_context()
    server.socket = context.wrap_socket(
        server.socket, server_side=True, do_handshake_on_connect=False
    )
    server.ssl_context = context  # requests then say https (url_scheme, is_secure)


def _placeholder(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
    return [b"starting"]


def start_web(
    settings: WebSettings | None = None,
    host: str = "127.0.0.1",
    port: int = 0,
    certificate: CertificateFiles | None = None,
    **changes: Any,
) -> WebServer:
    """A web service serving in the background (``port=0``: any free port)."""
    chosen = replace(settings or WebSettings(), **changes)
    return WebServer(chosen, host, port, certificate).start()


def run_web(
    broker_url: str,
    ws_url: str,
    public_url: str = "",
    host: str = "0.0.0.0",
    port: int = 8000,
    username: str = "web",
    password: str = "",
    background: bool = False,
    certificate: CertificateFiles | None = None,
) -> WebServer:
    """Run the web service; blocks unless ``background`` (then returns the running server)."""
    settings = WebSettings(
        broker_url=broker_url,
        ws_url=ws_url,
        public_url=public_url,
        username=username,
        password=password,
    )
    server = WebServer(settings, host, port, certificate)
    if background:
        return server.start()
    try:
        server.serve_forever()
    finally:
        server.stop()
    return server
