"""Fixtures for the services: the real tables service on a real broker and SQLite file."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tables_clients import WAIT, LobbyClient, Phone

from services.broker.settings import BrokerEndpoint
from services.tables.runner import TablesRunner


@pytest.fixture
def data_file(tmp_path: Path) -> Path:
    return tmp_path / "gamenight.db"


def _tables(broker: BrokerEndpoint, data_file: Path, retain_views: bool) -> Iterator[TablesRunner]:
    owner = f"gamenight-tables-{uuid.uuid4().hex[:8]}"
    # check_messages: every message the service publishes is checked against its schema.
    with TablesRunner(
        broker.service_url("tables"),
        data_file,
        owner=owner,
        check_messages=True,
        retain_views=retain_views,
    ) as runner:
        runner.start(WAIT)
        yield runner


@pytest.fixture
def tables(broker: BrokerEndpoint, data_file: Path) -> Iterator[TablesRunner]:
    yield from _tables(broker, data_file, retain_views=True)


@pytest.fixture
def unretained_tables(broker: BrokerEndpoint, data_file: Path) -> Iterator[TablesRunner]:
    """The tables service as on the NATS tier: views are not retained."""
    yield from _tables(broker, data_file, retain_views=False)


@pytest.fixture
def lobby(broker: BrokerEndpoint) -> Iterator[LobbyClient]:
    client = LobbyClient(broker)
    yield client
    client.client.stop()


@pytest.fixture
def phones(broker: BrokerEndpoint, lobby: LobbyClient) -> Iterator[Callable[..., Phone]]:
    made: list[Phone] = []

    def join(table: str, name: str) -> Phone:
        reply = lobby.request("join", table=table, name=name, lang="en")
        assert reply["status"] == "ok", reply
        phone = Phone(broker, reply["data"])
        made.append(phone)
        return phone

    yield join
    for phone in made:
        phone.stop()
