"""What the web service needs to know: where the broker is, and how the pages reach it."""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from services.netaddr import advertised_address

# clients/web sits beside services/ in the source tree.
DEFAULT_CLIENT_DIR = Path(__file__).resolve().parents[2] / "clients" / "web"
LANGUAGES = ("en", "fr", "pt", "nl")
SERVICE_NAME = "web"


@dataclass(frozen=True, slots=True)
class WebSettings:
    """Settings of one web service.

    ``ws_url`` is the broker's WebSocket address as a phone must dial it; ``{host}`` in it
    is replaced by the host name the page was loaded from, so one setting serves the
    TV on ``localhost`` and the phones on the LAN address alike. Several, comma-separated,
    name the nodes of a NATS cluster: the pages move to the next when one dies.
    """

    broker_url: str = "mqtt://127.0.0.1:1883"
    ws_url: str = "ws://{host}:8083/mqtt"
    public_url: str = ""
    username: str = SERVICE_NAME
    password: str = ""
    client_dir: Path = DEFAULT_CLIENT_DIR
    request_timeout: float = 5.0
    # Host names the pages may be loaded from besides LAN ones (see services/web/guard.py).
    allowed_hosts: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    def with_public_url(self, port: int, scheme: str = "http") -> WebSettings:
        """Fill in the public URL from the LAN address when none was given."""
        if self.public_url:
            return self
        return replace(self, public_url=f"{scheme}://{lan_address()}:{port}")

    def join_url(self, table: str) -> str:
        """The address a phone opens to join ``table`` (what the QR code carries)."""
        return f"{self.public_url.rstrip('/')}/join/{table}"

    def ws_url_for(self, page_host: str) -> str:
        """The broker's (first) WebSocket URL for a page loaded from ``page_host``."""
        return self.ws_urls_for(page_host)[0]

    def ws_urls_for(self, page_host: str) -> list[str]:
        """Every broker WebSocket URL (one per cluster node) for a page on ``page_host``."""
        host = urlsplit(f"//{page_host}").hostname or "localhost"
        if ":" in host:  # an IPv6 literal goes back in brackets
            host = f"[{host}]"
        return [
            url.strip().replace("{host}", host) for url in self.ws_url.split(",") if url.strip()
        ]


def lan_address() -> str:
    """The address phones can reach this machine at (see ``services.netaddr``)."""
    return advertised_address().address


def loopback_notice(public_url: str) -> dict[str, Any] | None:
    """The TV's warning (code and parameters) when the QR code points at this machine only."""
    parts = urlsplit(public_url)
    host = parts.hostname or ""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        return None
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return {
        "code": "loopback_only",
        "params": {"address": host, "scheme": parts.scheme, "port": port},
    }
