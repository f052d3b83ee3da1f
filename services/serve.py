"""``gamenight serve``: the broker and every service in one process, stopped together.

Each service keeps its own MQTT connection and talks to the others only through the
broker, exactly as when it runs alone (``python -m services.tables`` ...); one process
simply saves the memory of four Python interpreters on a small game-night machine.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self
from urllib.parse import urlsplit

from services.assistant.runner import AssistantRunner
from services.bots.runner import BotsRunner
from services.broker.credentials import ServiceCredentials, ensure_secret_file
from services.broker.embedded import EmbeddedBroker, start_embedded_broker
from services.mqtt import BrokerUrl
from services.netaddr import AdvertisedAddress, advertised_address
from services.tables.runner import TablesRunner
from services.tls import CertificateFiles, ensure_certificate_for_hosts
from services.web.server import WebServer, start_web
from services.web.settings import WebSettings

log = logging.getLogger("gamenight")
SECRET_FILE = "service.secret"
TLS_FOLDER = "tls"  # beside the data: the certificate of --https
DEFAULT_WS_PORT = 8083
# Python hands the GIL between threads every 5 ms by default; here the broker's I/O
# thread shares it with work that computes for seconds (the assistant's likeness index
# at start, a hard bot's search), and each message it relays waited that long again.
# While the index builds, a round trip through the broker: p99 17 ms at 5 ms, 8 ms at
# 1 ms (``python -m benchmarks.broker_busy``).
SWITCH_INTERVAL_SECONDS = 0.001


@dataclass
class StackSettings:
    """Where everything listens and keeps its data."""

    data: Path
    broker: str | None = None  # an external broker (mqtt://host:port); None: embedded
    mqtt_listen: str = "127.0.0.1:1883"
    ws_listen: str = "0.0.0.0:8083"
    # As the pages dial it; {host}: the page's host. None: the embedded broker's own port.
    ws_url: str | None = None
    web_host: str = "0.0.0.0"
    web_port: int = 8000
    public_url: str = ""
    bots: bool = True
    bot_think_seconds: float = 0.8
    secret_file: Path | None = None
    https: bool = False  # pages over https, the embedded broker's WebSocket over wss

    @property
    def data_dir(self) -> Path:
        return self.data.parent


@dataclass
class Stack:
    """A running game night: broker (if embedded), tables, bots, assistant, web."""

    settings: StackSettings
    credentials: ServiceCredentials | None = None
    broker: EmbeddedBroker | None = None
    tables: TablesRunner | None = None
    bots: BotsRunner | None = None
    assistant: AssistantRunner | None = None
    web: WebServer | None = None
    advertised: AdvertisedAddress | None = None  # None when --public-url was given
    certificate: CertificateFiles | None = None
    _stops: list[Callable[[], None]] = field(default_factory=list)

    def start(self) -> Self:
        settings = self.settings
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL_SECONDS))
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        secret = settings.secret_file or settings.data_dir / SECRET_FILE
        self.credentials = ensure_secret_file(secret)
        public_url = self._public_url()
        if settings.https:
            self.certificate = self._certificate(public_url)
        try:
            base = self._start_broker()
            self.tables = TablesRunner(self._login(base, "tables"), settings.data).start()
            self._stops.append(self.tables.stop)
            if settings.bots:
                self.bots = BotsRunner(self._login(base, "bots"), settings.bot_think_seconds)
                self._stops.append(self.bots.start().stop)
            self.assistant = AssistantRunner(self._login(base, "assistant")).start()
            self._stops.append(self.assistant.stop)
            web_login = self._login(base, "web")
            self.web = start_web(
                WebSettings(),
                host=settings.web_host,
                port=settings.web_port,
                certificate=self.certificate,
                broker_url=web_login.geturl(),
                ws_url=settings.ws_url or self._ws_url(),
                public_url=public_url,
                username="web",
                password=web_login.password or "",
            )
            self._stops.append(self.web.stop)
        except BaseException:
            self.stop()
            raise
        return self

    def _public_url(self) -> str:
        """The address in the QR code: as given, else the advertised address."""
        settings = self.settings
        if settings.public_url:
            return settings.public_url
        self.advertised = advertised_address()
        if not settings.web_port:  # any free port: the web service fills it in
            return ""
        scheme = "https" if settings.https else "http"
        return f"{scheme}://{self.advertised.address}:{settings.web_port}"

    def _certificate(self, public_url: str) -> CertificateFiles:
        """The certificate kept with the data, made again if it does not name this address."""
        hosts = [urlsplit(public_url).hostname or "" if public_url else ""]
        hosts.append(self.advertised.address if self.advertised else "")
        folder = self.settings.data_dir / TLS_FOLDER
        return ensure_certificate_for_hosts(folder, [host for host in hosts if host])

    def _start_broker(self) -> BrokerUrl:
        assert self.credentials is not None
        if self.settings.broker is not None:
            return BrokerUrl.parse(self.settings.broker)
        self.broker = start_embedded_broker(
            self.credentials,
            tcp=self.settings.mqtt_listen,
            ws=self.settings.ws_listen,
            data_dir=self.settings.data_dir,
            ws_certificate=(
                None if self.certificate is None else (self.certificate.cert, self.certificate.key)
            ),
        )
        self._stops.append(self.broker.stop)
        return BrokerUrl.parse(self.broker.endpoint.url())

    def _ws_url(self) -> str:
        """Where the pages find the embedded broker's WebSocket (its bound port, even for 0)."""
        port = self.broker.ws_port if self.broker is not None else None
        scheme = "wss" if self.settings.https else "ws"
        return f"{scheme}://{{host}}:{port or DEFAULT_WS_PORT}/mqtt"

    def _login(self, base: BrokerUrl, service: str) -> BrokerUrl:
        assert self.credentials is not None
        return base.with_credentials(service, self.credentials.password(service))

    def stop(self) -> None:
        """Stop everything, newest first (the broker last)."""
        while self._stops:
            stop = self._stops.pop()
            try:
                stop()
            except Exception:  # keep stopping the rest
                log.exception("while stopping")

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
