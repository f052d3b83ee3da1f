"""NATS JetStream on loopback for the replicated store's tests (see ``nats_servers``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from nats_servers import NatsServers


@pytest.fixture
def nats_node(tmp_path: Path) -> Iterator[NatsServers]:
    """One JetStream node of its own (a fresh stream and buckets for each test)."""
    servers = NatsServers(tmp_path / "nats", nodes=1).start()
    yield servers
    servers.stop()


@pytest.fixture(scope="module")
def nats_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NatsServers]:
    """Three JetStream nodes with routes between them: streams and buckets are R3."""
    servers = NatsServers(tmp_path_factory.mktemp("nats-cluster"), nodes=3).start()
    yield servers
    servers.stop()
