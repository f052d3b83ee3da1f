"""What the JetStream store's NATS loop makes of a stream that does not answer.

While a killed node's streams elect a new leader, a JetStream publish finds no responder,
which nats-py raises as ``NoStreamResponseError`` (not an ``APIError``). It must come out
as ``NatsUnavailableError`` (a ``StoreUnavailableError``): the tables service then goes
back to its log and the sender resends. Escaping as anything else, it once left a table
applied in memory but not in its log, and that table refused every move after
(found by ``test_faults_under_load``). A subject no stream listens on gives the same
answer on a real node, every time.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from services.broker.credentials import ServiceCredentials
from services.cluster.nodes import NatsCluster
from services.tables.natsloop import NatsLoop, NatsUnavailableError
from services.tables.store import StoreUnavailableError


def test_a_publish_no_stream_answers_is_nats_unavailable(tmp_path: Path) -> None:
    credentials = ServiceCredentials.generate()
    with NatsCluster(tmp_path / "cluster", 1, credentials=credentials) as cluster:
        loop = NatsLoop(cluster.nats_urls, "tables", credentials.password("tables"), 2.0)
        loop.start()
        try:
            with pytest.raises(NatsUnavailableError) as raised:
                loop.run(loop.js.publish("gn.log.NOSTREAM", b"{}"))
            assert isinstance(raised.value, StoreUnavailableError)
        finally:
            loop.stop()
