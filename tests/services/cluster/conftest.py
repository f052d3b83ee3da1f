"""Fixtures for the NATS tier: a real three-node cluster, its accounts, one endpoint per node.

``nats_cluster``    a session-wide ``NatsCluster`` (3 nodes, callout responders), which
                    tests must not kill nodes of: a test that kills makes its own
                    (``fresh_cluster``).
``nats_endpoints``  one ``BrokerEndpoint`` per node (MQTT TCP and WebSocket ports), so the
                    broker tests' helpers work unchanged; tests put clients on different
                    nodes on purpose: a message has to cross the routes.
``nats_accounts``   ``NatsAccounts`` logged in to the cluster.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from services.broker.credentials import ServiceCredentials
from services.broker.settings import BrokerEndpoint
from services.cluster.accounts import NatsAccounts
from services.cluster.nodes import NatsCluster


def endpoints_of(cluster: NatsCluster) -> list[BrokerEndpoint]:
    return [
        BrokerEndpoint("nats", s.host, s.ports.mqtt, s.ports.websocket, cluster.credentials)
        for s in cluster.specs
    ]


@pytest.fixture(scope="session")
def nats_cluster(
    service_credentials: ServiceCredentials, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[NatsCluster]:
    cluster = NatsCluster(tmp_path_factory.mktemp("nats"), 3, credentials=service_credentials)
    with cluster:
        yield cluster


@pytest.fixture(scope="session")
def nats_endpoints(nats_cluster: NatsCluster) -> list[BrokerEndpoint]:
    return endpoints_of(nats_cluster)


@pytest.fixture(scope="session")
def nats_accounts(nats_cluster: NatsCluster) -> Iterator[NatsAccounts]:
    with NatsAccounts(nats_cluster.nats_urls, nats_cluster.credentials) as accounts:
        yield accounts


@pytest.fixture
def fresh_cluster(tmp_path: Path) -> Iterator[Callable[..., NatsCluster]]:
    """Factory of clusters of this test alone (it may kill their nodes)."""
    made: list[NatsCluster] = []

    def make(nodes: int = 3) -> NatsCluster:
        cluster = NatsCluster(tmp_path / f"cluster-{len(made)}", nodes)
        made.append(cluster)
        return cluster.start()

    yield make
    for cluster in made:
        cluster.stop()
