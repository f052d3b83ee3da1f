"""Shared fixtures: real MQTT brokers on free loopback ports, and clients for them.

Brokers (started once per test session, each with TCP and WebSocket listeners):

``service_credentials``  ``ServiceCredentials`` with a fresh random secret: the service
                         accounts ``tables``, ``web``, ``bots``, ``assistant`` of both brokers.
``embedded_broker``      ``BrokerEndpoint`` of the embedded amqtt broker (accounts on disk
                         in a temporary folder).
``mosquitto_broker``     ``BrokerEndpoint`` of Debian's ``/usr/sbin/mosquitto`` (or
                         ``$GAMENIGHT_MOSQUITTO``) with the dynamic-security plugin. Skipped
                         if Mosquitto is not installed, except when ``$CI`` is set: then
                         the test fails.
``broker``               parametrised over both: a test using it runs once per broker
                         (ids ``embedded`` and ``mosquitto``; the latter is marked ``mosquitto``).

A ``BrokerEndpoint`` gives ``url(username, password, ws=False)`` and
``service_url("tables", ws=False)``; ``endpoint.credentials.password("tables")`` too.

Per test:

``broker_accounts``      ``BrokerAccounts`` logged in as service ``web`` on ``broker``:
                         ``provision(username, password, grants)``, ``revoke(username)``.
``mqtt_client``          factory: ``mqtt_client(url, subscribe={filter: handler}, wait=True,
                         **MqttClient options)`` -> a started ``MqttClient`` (connected and
                         subscribed if ``wait``), stopped after the test.
``mqtt_recorder``        factory: ``mqtt_recorder(url, filters, wait=True)`` -> a
                         ``Recorder`` that keeps every message it gets, even those no
                         subscription asked for; ``wait_for(topic, payload=None)``,
                         ``topics()``, ``payloads(topic)``, ``granted``.
``table_code``           a fresh table code, so tests sharing a broker never meet.

Proving that a message did *not* arrive: publish a marker after it on a topic the client
may read and wait for the marker (``Recorder.wait_for``), rather than sleeping.
"""

from __future__ import annotations

import os
import secrets
import shutil
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from services.broker.accounts import BrokerAccounts
from services.broker.credentials import ServiceCredentials
from services.broker.embedded import start_embedded_broker
from services.broker.mosquitto import DEFAULT_BINARY, DEFAULT_PLUGIN, MosquittoProcess
from services.broker.settings import BrokerEndpoint
from services.mqtt import Handler, MqttClient

# The address chooser must never probe a real route from a test, nor from the services a
# test starts as subprocesses (services/netaddr.py).
os.environ["GAMENIGHT_ROUTE_PROBE"] = "off"

WAIT = 5.0  # seconds: generous for a loaded machine, short when something is wrong


@pytest.fixture(scope="session")
def service_credentials() -> ServiceCredentials:
    return ServiceCredentials.generate()


@pytest.fixture(scope="session")
def embedded_broker(
    service_credentials: ServiceCredentials, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[BrokerEndpoint]:
    broker = start_embedded_broker(
        service_credentials,
        tcp="127.0.0.1:0",
        ws="127.0.0.1:0",
        data_dir=tmp_path_factory.mktemp("embedded-broker"),
    )
    try:
        yield broker.endpoint
    finally:
        broker.stop()


def _mosquitto() -> tuple[Path, Path]:
    """The broker binary and its dynsec plugin ($GAMENIGHT_MOSQUITTO overrides the binary)."""
    return Path(os.environ.get("GAMENIGHT_MOSQUITTO", DEFAULT_BINARY)), DEFAULT_PLUGIN


def _mosquitto_missing() -> str | None:
    binary, plugin = _mosquitto()
    for path in (binary, plugin):
        if not path.exists():
            return f"{path} is not installed"
    if shutil.which(str(binary)) is None:
        return f"{binary} is not executable"
    return None


@pytest.fixture(scope="session")
def mosquitto_install() -> tuple[Path, Path]:
    """Debian's Mosquitto binary and dynsec plugin: required in CI, else skipped if missing."""
    missing = _mosquitto_missing()
    if missing is not None:
        if os.environ.get("CI"):
            pytest.fail(f"Mosquitto is required in CI: {missing}")
        pytest.skip(missing)
    return _mosquitto()


@pytest.fixture(scope="session")
def mosquitto_broker(
    service_credentials: ServiceCredentials,
    tmp_path_factory: pytest.TempPathFactory,
    mosquitto_install: tuple[Path, Path],
) -> Iterator[BrokerEndpoint]:
    binary, plugin = mosquitto_install
    with MosquittoProcess(
        tmp_path_factory.mktemp("mosquitto"), service_credentials, binary=binary, plugin=plugin
    ) as process:
        yield process.endpoint


@pytest.fixture(
    params=["embedded", pytest.param("mosquitto", marks=pytest.mark.mosquitto)],
)
def broker(request: pytest.FixtureRequest) -> BrokerEndpoint:
    endpoint: BrokerEndpoint = request.getfixturevalue(f"{request.param}_broker")
    return endpoint


@pytest.fixture
def broker_accounts(broker: BrokerEndpoint) -> Iterator[BrokerAccounts]:
    with BrokerAccounts.connect(broker.service_url("web"), timeout=WAIT) as accounts:
        yield accounts


@pytest.fixture
def table_code() -> str:
    return "T" + "".join(secrets.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(7))


@pytest.fixture
def mqtt_client() -> Iterator[Callable[..., MqttClient]]:
    made: list[MqttClient] = []

    def make(
        url: str, subscribe: Mapping[str, Handler] | None = None, wait: bool = True, **options: Any
    ) -> MqttClient:
        client = MqttClient(url, **options)
        for topic_filter, handler in (subscribe or {}).items():
            client.subscribe(topic_filter, handler)
        made.append(client.start())
        if wait:
            client.wait_connected(WAIT)
        return client

    yield make
    for client in made:
        client.stop()


class Recorder:
    """A client that keeps every message it receives, asked for or not."""

    def __init__(self, url: str, filters: Iterable[str], **options: Any) -> None:
        self.messages: list[tuple[str, bytes]] = []
        self._changed = threading.Condition()
        self.client = MqttClient(url, on_unmatched=self._record, **options)
        for topic_filter in filters:
            self.client.subscribe(topic_filter, self._record)
        self.granted: dict[str, bool] = {}

    def _record(self, topic: str, payload: bytes) -> None:
        with self._changed:
            self.messages.append((topic, payload))
            self._changed.notify_all()

    def start(self, wait: bool = True) -> Recorder:
        self.client.start()
        if wait:
            self.granted = self.client.wait_subscribed(WAIT)
        return self

    def wait_for(self, topic: str, payload: bytes | None = None, timeout: float = WAIT) -> bytes:
        """The first message on ``topic`` (with ``payload`` if given); fails on timeout."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for got_topic, got_payload in self.messages:
                    if got_topic == topic and payload in (None, got_payload):
                        return got_payload
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    pytest.fail(f"no message on {topic} ({payload!r}) within {timeout} s")
                self._changed.wait(remaining)

    def topics(self) -> set[str]:
        with self._changed:
            return {topic for topic, _ in self.messages}

    def payloads(self, topic: str) -> list[bytes]:
        with self._changed:
            return [payload for got, payload in self.messages if got == topic]


@pytest.fixture
def mqtt_recorder() -> Iterator[Callable[..., Recorder]]:
    made: list[Recorder] = []

    def make(url: str, filters: Iterable[str] = (), wait: bool = True, **options: Any) -> Recorder:
        recorder = Recorder(url, filters, **options)
        made.append(recorder)
        return recorder.start(wait)

    yield make
    for recorder in made:
        recorder.client.stop()
