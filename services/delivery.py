"""End-to-end delivery of intents: keep each one until it is answered, and resend it, same id.

A broker's PUBACK says only that the broker has the message. Between it and the tables
service an intent can still be lost: amqtt drops a message in flight when its receiver's
connection drops, a broker without persistence forgets what it queued for a stopped
service, and a full queue drops what comes next. So every sender of intents (the phone in
``clients/web/js/net.js``, the bots, the assistant) keeps each intent until its reply
arrives (or a view shows the table has moved past it) and publishes it again, with the
same id, after each reconnection, when the tables service comes back online, and every
``resend_after`` seconds. The tables service answers an id it has applied again, without
applying it twice, so a resend is always safe.

Since delivery is made good here, intents go at the QoS the tables service's status asks
(``intent_qos``): 1 by default, 0 on a NATS cluster, where each QoS 1 publish is a
replicated write.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from protocol import topics
from protocol.messages import ProtocolError
from services.mqtt import MqttClient, intent_qos_asked
from services.wire import decode, encode

log = logging.getLogger("gamenight.delivery")
RESEND_AFTER = 2.0  # seconds without a reply before sending again
GIVE_UP_AFTER = 120.0  # an intent nobody answers for this long is dropped (logged)


@dataclass(slots=True)
class _Pending:
    topic: str
    payload: bytes
    seq: int | None
    first_sent: float
    last_sent: float


class Deliveries:
    """Intents sent through one ``MqttClient``, each kept until its reply; thread-safe."""

    def __init__(
        self,
        client: MqttClient,
        resend_after: float = RESEND_AFTER,
        give_up_after: float = GIVE_UP_AFTER,
        follow_tables_status: bool = True,
    ) -> None:
        self._client = client
        self._resend_after = resend_after
        self._give_up_after = give_up_after
        self._lock = threading.Lock()
        self._pending: dict[tuple[str, str], _Pending] = {}  # (reply topic, id) -> intent
        self._reply_topics: set[str] = set()
        self._stopped = threading.Event()
        self.qos = 1  # what intents are published at: the tables service's ``intent_qos``
        client.add_connected_hook(self.resend_all)
        if follow_tables_status:  # services may read it; a player relies on the timer
            client.subscribe(topics.service_status("tables"), self._on_tables_status, qos=1)
        self._timer = threading.Thread(target=self._resend_loop, name="deliveries", daemon=True)
        self._timer.start()

    # ------------------------------------------------------------------ sending
    def send(self, topic: str, intent: Mapping[str, Any], ack_timeout: float | None = None) -> None:
        """Publish ``intent`` on a seat's (or the host's) intent topic; keep it until answered.

        With ``ack_timeout``, return only once the broker has acknowledged the first copy.
        """
        reply_topic = _reply_topic(topic)
        payload = encode("intent" if "/seat/" in topic else "host_intent", dict(intent))
        seq = intent.get("seq")
        now = time.monotonic()
        with self._lock:
            if reply_topic not in self._reply_topics:
                self._reply_topics.add(reply_topic)
                self._client.subscribe(reply_topic, self._on_reply, qos=1)
            self._pending[(reply_topic, str(intent["id"]))] = _Pending(
                topic, payload, seq if isinstance(seq, int) else None, now, now
            )
        if ack_timeout is None:
            self._client.publish(topic, payload, qos=self.qos)
        else:
            self._client.publish_and_wait(topic, payload, qos=self.qos, timeout=ack_timeout)

    def pending_ids(self) -> list[str]:
        with self._lock:
            return [intent_id for _, intent_id in self._pending]

    def seen_view(self, view_topic: str, seq: int) -> None:
        """A seat view numbered ``seq``: intents chosen on an older view are settled.

        The table moved past them: each was applied, or would now be refused as stale.
        """
        reply_topic = view_topic.rsplit("/", 1)[0] + "/reply"
        with self._lock:
            for key, pending in list(self._pending.items()):
                if key[0] == reply_topic and pending.seq is not None and pending.seq < seq:
                    del self._pending[key]

    def resend_all(self) -> None:
        """Send every unanswered intent again (after a reconnection, or the service's return)."""
        now = time.monotonic()
        with self._lock:
            due = list(self._pending.values())
            for pending in due:
                pending.last_sent = now
        self._publish(due)

    def stop(self) -> None:
        self._stopped.set()

    # ------------------------------------------------------------------ answers
    def _on_reply(self, topic: str, payload: bytes) -> None:
        try:
            reply = decode("reply", payload)
        except ProtocolError:
            return
        with self._lock:
            self._pending.pop((topic, str(reply["id"])), None)

    def _on_tables_status(self, topic: str, payload: bytes) -> None:
        asked = intent_qos_asked(payload)
        if asked is not None:  # online: what is unanswered goes again
            self.qos = asked
            self.resend_all()

    def _resend_loop(self) -> None:
        while not self._stopped.wait(self._resend_after / 4):
            now = time.monotonic()
            due: list[_Pending] = []
            with self._lock:
                for key, pending in list(self._pending.items()):
                    if now - pending.first_sent > self._give_up_after:
                        log.warning("intent %s on %s never answered: dropped", key[1], key[0])
                        del self._pending[key]
                    elif now - pending.last_sent >= self._resend_after:
                        pending.last_sent = now
                        due.append(pending)
            self._publish(due)

    def _publish(self, due: list[_Pending]) -> None:
        for pending in due:
            self._client.publish(pending.topic, pending.payload, qos=self.qos)


def _reply_topic(intent_topic: str) -> str:
    if not intent_topic.endswith("/intent"):
        raise ValueError(f"not an intent topic: {intent_topic}")
    return intent_topic[: -len("intent")] + "reply"
