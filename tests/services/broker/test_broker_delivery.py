"""Delivery on the embedded broker while clients come and go."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from amqtt.contexts import Action
from amqtt.session import Session

from services.broker.credentials import ServiceCredentials
from services.broker.embedded import EmbeddedBroker, GameNightBroker
from services.broker.settings import Address, BrokerEndpoint, BrokerSettings


class JoinDuringDeliveryBroker(GameNightBroker):
    """A client subscribes during every read check, as a phone joining right then would.

    The read check is where amqtt's delivery loop yields to other clients; this makes the
    rare interleaving (seen in a long game test) happen on every message.
    """

    async def _topic_filtering(self, session: Session, topic: str, action: Action) -> bool:
        if action == Action.RECEIVE:
            self._subscriptions[f"gamenight/v1/joined/{len(self._subscriptions)}"] = []
        return bool(await super()._topic_filtering(session, topic, action))


@pytest.fixture
def busy_broker(service_credentials: ServiceCredentials) -> Iterator[BrokerEndpoint]:
    settings = BrokerSettings(service_credentials, tcp=Address("127.0.0.1", 0), ws=None)
    with EmbeddedBroker(settings, broker_class=JoinDuringDeliveryBroker) as running:
        yield running.endpoint


def test_a_subscription_made_during_delivery_loses_no_message(
    busy_broker: BrokerEndpoint, mqtt_recorder: Callable[..., Any], table_code: str
) -> None:
    topic = f"gamenight/v1/table/{table_code}/events"
    filters = [topic, f"gamenight/v1/table/{table_code}/+", "gamenight/v1/table/+/events"]
    recorders = [mqtt_recorder(busy_broker.service_url("tables"), [f]) for f in filters]
    publisher = mqtt_recorder(busy_broker.service_url("web")).client
    for number in range(3):
        publisher.publish(topic, f"event {number}".encode())
    for recorder in recorders:
        recorder.wait_for(topic, b"event 2")
        assert recorder.payloads(topic) == [b"event 0", b"event 1", b"event 2"]
