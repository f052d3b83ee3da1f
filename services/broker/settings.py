"""Where a broker listens, where it keeps its accounts, and how to reach it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from services.broker.credentials import ServiceCredentials
from services.broker.dynsec import ACCOUNTS_FILE, AccountStore
from services.broker.limits import BrokerLimits
from services.mqtt import broker_url


@dataclass(frozen=True, slots=True)
class Address:
    """A listening address; port 0 lets the OS pick a free port."""

    host: str
    port: int

    @classmethod
    def parse(cls, text: str) -> Address:
        host, sep, port = text.rpartition(":")
        if not sep or not host or not port.isdigit() or int(port) > 65535:
            raise ValueError(f"expected HOST:PORT, got {text!r}")
        return cls(host, int(port))

    def __str__(self) -> str:
        return f"{self.host}:{self.port}"


@dataclass(frozen=True, slots=True)
class BrokerSettings:
    """What an embedded broker needs to start."""

    credentials: ServiceCredentials
    tcp: Address | None = Address("127.0.0.1", 1883)
    ws: Address | None = None
    data_dir: Path | None = None  # None: accounts live in memory only
    ws_certificate: tuple[Path, Path] | None = None  # (cert, key) PEM files: wss: instead
    limits: BrokerLimits = field(default_factory=BrokerLimits)

    def accounts(self) -> AccountStore:
        path = None if self.data_dir is None else self.data_dir / ACCOUNTS_FILE
        return AccountStore(self.credentials, path)


@dataclass(frozen=True, slots=True)
class BrokerEndpoint:
    """How to reach a running broker (embedded or Mosquitto) and log in as a service."""

    kind: str  # "embedded" or "mosquitto"
    host: str
    tcp_port: int | None
    ws_port: int | None
    credentials: ServiceCredentials

    def url(
        self, username: str | None = None, password: str | None = None, ws: bool = False
    ) -> str:
        """``mqtt://`` (or ``ws://``) URL, with credentials if given."""
        port = self.ws_port if ws else self.tcp_port
        if port is None:
            raise ValueError(f"this broker has no {'WebSocket' if ws else 'TCP'} listener")
        return broker_url("ws" if ws else "mqtt", self.host, port, username, password)

    def service_url(self, name: str, ws: bool = False) -> str:
        """The URL a service logs in with (its name and derived password)."""
        return self.url(name, self.credentials.password(name), ws)
