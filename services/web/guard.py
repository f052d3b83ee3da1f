"""What the web service refuses before any work: foreign hosts, cross-site posts, floods.

* ``Host``: only names a LAN can give this machine (IP literals, single-label names,
  ``.local``/``.lan``/``.home.arpa``/``.internal``/``.test``/``.localhost``), the public URL's
  host and ``WebSettings.allowed_hosts``. A DNS-rebinding page (``evil.example`` made to
  resolve to us) is refused, so it cannot join a table and read the credentials.
* ``POST``: JSON only (415 otherwise: a form or text/plain post is what a foreign page
  can send without asking), and an ``Origin``, when the browser sends one, that is ours.
* Rate limits per client address (token buckets): joins, table creation, and typed table
  codes that turn out wrong (probes), each answered ``rate_limited {retry_after}`` (429).
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from urllib.parse import urlsplit

LOCAL_SUFFIXES = (".local", ".lan", ".home.arpa", ".internal", ".test", ".localhost", ".home")
MAX_BODY = 16 * 1024  # bytes: a join or a new table is a few hundred
ADDRESSES_REMEMBERED = 4096


def host_name(host_header: str) -> str:
    """The host name of a ``Host`` (or ``Origin`` netloc), lower case, without port."""
    return (urlsplit(f"//{host_header}").hostname or "").lower().rstrip(".")


def is_local_name(name: str, allowed: tuple[str, ...] = ()) -> bool:
    """Whether ``name`` is one a LAN (not the internet) gives this machine, or allowed."""
    if not name:
        return False
    if name in allowed:
        return True
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    return "." not in name or name == "localhost" or name.endswith(LOCAL_SUFFIXES)


def same_origin(origin: str, host_header: str) -> bool:
    """Whether an ``Origin`` header names the host (and port) the request was sent to."""
    parts = urlsplit(origin)
    return bool(parts.netloc) and parts.netloc.lower() == host_header.lower()


@dataclass(frozen=True, slots=True)
class Rate:
    """``burst`` requests at once, then one every ``every`` seconds."""

    burst: int
    every: float


JOIN_RATE = Rate(burst=10, every=6.0)  # ten at once, then ten a minute
CREATE_RATE = Rate(burst=5, every=30.0)  # a TV reloaded a few times
PROBE_RATE = Rate(burst=5, every=20.0)  # wrong table codes: a typo or two, not a sweep


class RateLimiter:
    """Token buckets per client address; the oldest addresses are forgotten first."""

    def __init__(self, rate: Rate) -> None:
        self.rate = rate
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, when
        self._lock = threading.Lock()

    def _tokens(self, address: str, now: float) -> float:
        tokens, then = self._buckets.get(address, (float(self.rate.burst), now))
        return min(float(self.rate.burst), tokens + (now - then) / self.rate.every)

    def retry_after(self, address: str) -> int:
        """0 if a request from ``address`` may go ahead now; else seconds to wait."""
        now = time.monotonic()
        with self._lock:
            tokens = self._tokens(address, now)
        return 0 if tokens >= 1 else math.ceil((1 - tokens) * self.rate.every)

    def take(self, address: str) -> int:
        """Spend one request of ``address``; return 0, or the seconds to wait (nothing spent)."""
        now = time.monotonic()
        with self._lock:
            tokens = self._tokens(address, now)
            if tokens < 1:
                return math.ceil((1 - tokens) * self.rate.every)
            self._buckets[address] = (tokens - 1, now)
            self._buckets.move_to_end(address)
            while len(self._buckets) > ADDRESSES_REMEMBERED:
                self._buckets.popitem(last=False)
        return 0


@dataclass(frozen=True, slots=True)
class Limits:
    """The rate limiters of one web service."""

    joins: RateLimiter
    creates: RateLimiter
    probes: RateLimiter

    @classmethod
    def default(cls) -> Limits:
        return cls(RateLimiter(JOIN_RATE), RateLimiter(CREATE_RATE), RateLimiter(PROBE_RATE))
