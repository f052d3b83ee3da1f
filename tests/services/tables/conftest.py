"""NATS JetStream on loopback for the replicated store's tests (``NatsCluster``).

The nodes log every client in (the service accounts of ``service_credentials``): the
stores here log in as the ``tables`` service, as the tables service does.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from services.broker.credentials import ServiceCredentials
from services.cluster.nodes import NatsCluster


@pytest.fixture
def nats_node(tmp_path: Path, service_credentials: ServiceCredentials) -> Iterator[NatsCluster]:
    """One JetStream node of its own (a fresh stream and buckets for each test)."""
    with NatsCluster(tmp_path / "nats", 1, credentials=service_credentials) as cluster:
        yield cluster


@pytest.fixture(scope="module")
def nats_cluster(
    tmp_path_factory: pytest.TempPathFactory, service_credentials: ServiceCredentials
) -> Iterator[NatsCluster]:
    """Three JetStream nodes with routes between them: streams and buckets are R3."""
    workdir = tmp_path_factory.mktemp("nats-cluster")
    with NatsCluster(workdir, 3, credentials=service_credentials) as cluster:
        yield cluster
