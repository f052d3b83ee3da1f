"""The tables store on a test's ``NatsCluster``, logged in as the tables service does."""

from __future__ import annotations

from services.cluster.nodes import NatsCluster
from services.tables.jetstream import JetStreamStore


def store_on(cluster: NatsCluster, owner: str) -> JetStreamStore:
    """A started ``JetStreamStore`` of ``owner`` (user ``tables``, its derived password)."""
    password = cluster.credentials.password("tables")
    return JetStreamStore(cluster.nats_urls, owner, user="tables", password=password).start()
