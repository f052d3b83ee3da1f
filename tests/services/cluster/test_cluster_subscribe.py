"""A subscription a NATS node refuses the first time is asked for again, a few times.

Found by ``test_cluster_stack.py`` (while a 2 s ``js_api_timeout`` was tried; the 5 s
default only makes it rarer): a node that had just lost a peer could not make the
JetStream consumer behind the web service's first QoS 1 subscription in time and refused
it; the web service, never granted it, never asked again and heard no lobby answer. A
real refusal (no rights) stays refused after those few asks; with one broker (no
cluster) a refusal is never asked again.
"""

from __future__ import annotations

import logging
import time

import pytest

from protocol.topics import player_grants, seat_topic
from services.cluster.accounts import NatsAccounts
from services.cluster.nodes import NatsCluster
from services.mqtt import FIRST_SUBSCRIBE_TRIES, RESUBSCRIBE_AFTER, BrokerUrl, MqttClient


def asks_after_a_refusal(
    urls: list[str], login: tuple[str, str], caplog: pytest.LogCaptureFixture
) -> int:
    """How many times a refused subscription was asked for again (refused each time)."""
    caplog.set_level(logging.INFO, logger="gamenight.mqtt")
    forbidden = seat_topic("STRNG", 1, "view")  # another table's seat: never granted
    with MqttClient(BrokerUrl.parse(",".join(urls)).with_credentials(*login)) as client:
        client.subscribe(forbidden, lambda topic, payload: None, qos=0)
        assert client.wait_subscribed(10) == {forbidden: False}
        # The last word is "refused" (logged once no more asks are left); then a moment
        # more, in which no ask may follow.
        deadline = time.monotonic() + (FIRST_SUBSCRIBE_TRIES + 1) * RESUBSCRIBE_AFTER + 20
        while not any(r.getMessage().endswith("refused") for r in caplog.records):
            assert time.monotonic() < deadline, "the refusal was never final"
            time.sleep(0.1)
        time.sleep(RESUBSCRIBE_AFTER * 2)
        assert client.wait_subscribed(10) == {forbidden: False}
    return sum(r.getMessage().endswith("again soon") for r in caplog.records)


@pytest.mark.parametrize("nodes", [3, 1], ids=["cluster", "one-node"])
def test_a_first_refusal_is_asked_again_only_on_a_cluster(
    nats_cluster: NatsCluster,
    nats_accounts: NatsAccounts,
    caplog: pytest.LogCaptureFixture,
    nodes: int,
) -> None:
    login = ("u-subs-0", "token-subs-0")
    nats_accounts.provision(*login, player_grants("SUBS", 0))
    asks = asks_after_a_refusal(nats_cluster.mqtt_urls[:nodes], login, caplog)
    assert asks == (FIRST_SUBSCRIBE_TRIES if nodes > 1 else 0)
