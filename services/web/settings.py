"""What the web service needs to know: where the broker is, and how the pages reach it."""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

# clients/web sits beside services/ in the source tree.
DEFAULT_CLIENT_DIR = Path(__file__).resolve().parents[2] / "clients" / "web"
LANGUAGES = ("en", "fr", "pt", "nl")
SERVICE_NAME = "web"


@dataclass(frozen=True, slots=True)
class WebSettings:
    """Settings of one web service.

    ``ws_url`` is the broker's WebSocket address as a phone must dial it; ``{host}`` in it
    is replaced by the host name the page was loaded from, so one setting serves the
    TV on ``localhost`` and the phones on the LAN address alike.
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

    def with_public_url(self, port: int) -> WebSettings:
        """Fill in the public URL from the LAN address when none was given."""
        if self.public_url:
            return self
        return replace(self, public_url=f"http://{lan_address()}:{port}")

    def join_url(self, table: str) -> str:
        """The address a phone opens to join ``table`` (what the QR code carries)."""
        return f"{self.public_url.rstrip('/')}/join/{table}"

    def ws_url_for(self, page_host: str) -> str:
        """The broker's WebSocket URL for a page loaded from ``page_host`` (host[:port])."""
        host = urlsplit(f"//{page_host}").hostname or "localhost"
        if ":" in host:  # an IPv6 literal goes back in brackets
            host = f"[{host}]"
        return self.ws_url.replace("{host}", host)


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.version == 4 and not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


def lan_address() -> str:
    """This machine's LAN IPv4 address, found without sending a packet; else 127.0.0.1."""
    candidates: list[str] = []
    with contextlib.suppress(OSError):
        candidates += socket.gethostbyname_ex(socket.gethostname())[2]
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            candidates.append(str(info[4][0]))
    except OSError:
        pass
    # Prefer private (LAN) addresses: that is where the phones are.
    usable = [address for address in candidates if _usable(address)]
    usable.sort(key=lambda address: not ipaddress.ip_address(address).is_private)
    return usable[0] if usable else "127.0.0.1"
