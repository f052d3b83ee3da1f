"""A broker that restarts and forgets its retained messages gets every view again."""

from __future__ import annotations

import json
import threading
import time
import uuid
from pathlib import Path

from tables_clients import WAIT, LobbyClient

from protocol import topics
from services.broker.credentials import ServiceCredentials
from services.broker.embedded import start_embedded_broker
from services.mqtt import MqttClient
from services.tables.runner import TablesRunner

FORGOTTEN = f"{topics.BASE}/service/test/forgotten"


def retained_on(client_url: str, topic: str, wait: float = 1.0) -> list[bytes]:
    """What a fresh subscriber to ``topic`` receives within ``wait`` seconds."""
    got: list[bytes] = []
    arrived = threading.Event()

    def keep(_topic: str, payload: bytes) -> None:
        got.append(payload)
        arrived.set()

    client = MqttClient(client_url)
    client.subscribe(topic, keep)
    client.start().wait_connected(WAIT)
    arrived.wait(wait)
    client.stop()
    return got


def test_views_are_published_again_after_the_broker_restarts(
    service_credentials: ServiceCredentials, tmp_path: Path
) -> None:
    first = start_embedded_broker(service_credentials, tcp="127.0.0.1:0", data_dir=tmp_path)
    port = first.tcp_port
    owner = f"tables-{uuid.uuid4().hex[:6]}"
    runner = TablesRunner(first.endpoint.service_url("tables"), tmp_path / "gn.db", owner=owner)
    runner.start(WAIT)
    second = None
    try:
        lobby = LobbyClient(first.endpoint)
        table = lobby.create("kings-corner")
        lobby.client.stop()
        with MqttClient(first.endpoint.service_url("web")).start() as publisher:
            publisher.wait_connected(WAIT)
            publisher.publish_and_wait(FORGOTTEN, b"old", retain=True)
        first.stop()
        # The broker comes back on the same port, with its accounts but no retained message.
        second = start_embedded_broker(
            service_credentials, tcp=f"127.0.0.1:{port}", data_dir=tmp_path
        )
        web = second.endpoint.service_url("web")
        assert retained_on(web, FORGOTTEN) == []  # so what comes back was sent again
        deadline = time.monotonic() + WAIT
        views: list[bytes] = []
        while not views and time.monotonic() < deadline:
            views = retained_on(web, topics.table_view(table), wait=0.5)
        assert views, "the table's view was not published again"
        assert json.loads(views[0])["table"] == table
    finally:
        runner.stop()
        if second is not None:
            second.stop()
        else:
            first.stop()
