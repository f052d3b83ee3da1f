"""Phones, a lobby and busy tables on the NATS cluster, for the faults-under-load tests.

Everything is a real MQTT client (``services.mqtt.MqttClient``) given every node's URL,
so it moves to another node when its own dies. Each phone keeps, per topic, every view it
received in arrival order, as ``(epoch, seq)``: what its screen was shown.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

from protocol import topics
from protocol.messages import act_intent, encode
from services.cluster.nodes import NatsCluster
from services.mqtt import MqttClient, broker_url, intent_qos_asked

WAIT = 20.0
RESEND_AFTER = 0.5  # seconds without an answer before the same intent is sent again


def rotated_urls(cluster: NatsCluster, first: int, username: str, password: str) -> str:
    """Every node's MQTT URL with this login, node ``first`` first."""
    specs = cluster.specs[first:] + cluster.specs[:first]
    return ",".join(broker_url("mqtt", s.host, s.ports.mqtt, username, password) for s in specs)


class Mailbox:
    """Every message by topic, in arrival order, with waiting."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.messages: dict[str, list[dict[str, Any]]] = {}

    def put(self, topic: str, payload: bytes) -> None:
        if not payload:
            return  # a retained message cleared
        with self.changed:
            self.messages.setdefault(topic, []).append(json.loads(payload))
            self.changed.notify_all()

    def wait(
        self, topic: str, match: Callable[[dict[str, Any]], bool], timeout: float = WAIT
    ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                found: dict[str, Any]
                for found in reversed(self.messages.get(topic, [])):
                    if match(found):
                        return found
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"nothing matching on {topic} within {timeout} s")
                self.changed.wait(remaining)

    def latest(self, topic: str) -> dict[str, Any] | None:
        with self.changed:
            found = self.messages.get(topic)
            return found[-1] if found else None

    def stamps(self, topic: str) -> list[tuple[int, int]]:
        with self.changed:
            return [(m["epoch"], m["seq"]) for m in self.messages.get(topic, [])]


class Lobby:
    """The lobby as the web service asks it (service account ``web``); like the web
    service, it learns from the tables service's status the QoS phones send intents at."""

    def __init__(self, cluster: NatsCluster) -> None:
        self.box = Mailbox()
        self.intent_qos = 1
        self.status_heard = threading.Event()
        self.client = MqttClient(cluster.service_broker("web"))
        for op in topics.LOBBY_OPS:
            self.client.subscribe(topics.lobby_response(op), self.box.put)
        self.client.subscribe(f"{topics.BASE}/table/+/view", self.box.put, qos=0)
        self.client.subscribe(topics.service_status("tables"), self._on_tables_status)
        self.client.start().wait_connected(WAIT)

    def _on_tables_status(self, topic: str, payload: bytes) -> None:
        asked = intent_qos_asked(payload)
        if asked is not None:
            self.intent_qos = asked
            self.status_heard.set()

    def request(self, op: str, timeout: float = WAIT, **body: Any) -> dict[str, Any]:
        request_id = uuid.uuid4().hex[:12]
        message = {"v": 1, "id": request_id, **body}
        self.client.publish(topics.lobby_request(op), encode(f"lobby_{op}", message))
        return self.box.wait(topics.lobby_response(op), lambda m: m["id"] == request_id, timeout)

    def wait_for_service(self, timeout: float = 30.0) -> None:
        """Until the tables service answers, and its "online" status has been heard."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.request("join", timeout=0.5, table="NONE", name="probe")
                break
            except AssertionError:
                if time.monotonic() > deadline:
                    raise
        assert self.status_heard.wait(max(0.0, deadline - time.monotonic()))

    def stop(self) -> None:
        self.client.stop()


class Phone:
    """One player's phone: its own login, its own seat; first connected to node ``node``;
    intents sent at ``intent_qos``, as the web service tells the phone page."""

    def __init__(
        self, cluster: NatsCluster, joined: dict[str, Any], node: int, intent_qos: int
    ) -> None:
        self.intent_qos = intent_qos
        self.table, self.seat = str(joined["table"]), int(joined["seat"])
        self.player_id, self.username = str(joined["player_id"]), str(joined["username"])
        self.host, self.node = bool(joined["host"]), node
        self.public_topic = topics.table_view(self.table)
        self.view_topic = topics.seat_topic(self.table, self.seat, "view")
        self.reply_topic = topics.seat_topic(self.table, self.seat, "reply")
        self.intent_topic = topics.seat_topic(self.table, self.seat, "intent")
        self.box = Mailbox()
        self.connections: list[float] = []  # monotonic time of each (re)connection
        url = rotated_urls(cluster, node, self.username, str(joined["password"]))
        self.client = MqttClient(
            url,
            client_id=self.username,
            on_connected=self._on_connected,
            reconnect_delay=(0.05, 0.5),
        )
        # QoS 0, as the phone page subscribes (clients/web/js/net.js): what a dead node
        # loses is made good by the next view, or by the answer to a resent intent.
        for topic in (self.public_topic, self.view_topic, self.reply_topic):
            self.client.subscribe(topic, self.box.put, qos=0)
        if self.host:
            self.client.subscribe(topics.host_topic(self.table, "reply"), self.box.put, qos=0)
        self.client.start().wait_connected(WAIT)
        presence = topics.seat_topic(self.table, self.seat, "presence")
        self.client.publish(presence, b'{"v":1,"online":true}', qos=1, retain=True)

    def _on_connected(self) -> None:
        """As the phone page does on every (re)connection: ask for a fresh view (a node
        may hold no retained one, or an old one)."""
        self.connections.append(time.monotonic())
        sync = {"v": 1, "id": uuid.uuid4().hex[:12], "op": "sync"}
        self.send_intent(json.dumps(sync))

    def send_intent(self, payload: str, topic: str | None = None) -> None:
        """Publish an intent (this seat's, or the host's on ``topic``) at ``intent_qos``."""
        self.client.publish(topic or self.intent_topic, payload, qos=self.intent_qos)

    def host_op(self, op: str, seq: int | None = None) -> dict[str, Any] | None:
        """Send a host op until answered; None once a view past ``seq`` shows it done."""
        request_id = uuid.uuid4().hex[:12]
        message = {"v": 1, "id": request_id, "op": op, "player": self.player_id}
        reply_topic = topics.host_topic(self.table, "reply")
        while True:
            self.send_intent(json.dumps(message), topics.host_topic(self.table, "intent"))
            try:
                return self.box.wait(reply_topic, lambda m: m["id"] == request_id, RESEND_AFTER)
            except AssertionError:
                if seq is not None and self.seq_now() > seq:
                    return None
                # unanswered (a copy or a node died?): the same op again

    def seq_now(self) -> int:
        latest = self.box.latest(self.view_topic)
        return -1 if latest is None else int(latest["seq"])

    def stop(self) -> None:
        self.client.stop()


class Table:
    """One table played as fast as its answers come, by its phones' own views.

    The seat to move sends one intent and sends it again (same id) until it is answered:
    what ``services.delivery`` does for a real phone. ``acknowledged`` keeps every intent
    answered ``ok`` with the ``seq`` it was given: the log must hold each one there, once.
    """

    def __init__(self, code: str, phones: list[Phone], pace: float) -> None:
        self.code = code
        self.phones = {phone.seat: phone for phone in phones}
        self.host = next(phone for phone in phones if phone.host)
        self.pace = pace
        self.acknowledged: list[tuple[str, int]] = []
        self.acknowledged_at: list[float] = []  # monotonic time of each, in the same order
        self.refused: dict[str, int] = {}
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._play, name=f"play-{code}", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(WAIT)

    def _play(self) -> None:
        while not self.stopping.is_set():
            public = self.host.box.latest(self.host.public_topic)
            if public is None:
                time.sleep(0.02)
                continue
            if public["status"] in ("round_over", "finished"):
                op = "next_round" if public["status"] == "round_over" else "rematch"
                self.host.host_op(op, int(public["seq"]))
                continue
            if public["status"] != "playing":
                time.sleep(0.02)
                continue
            mover = self.phones[public["state"]["current_seat"]]
            view = mover.box.latest(mover.view_topic)
            if view is None or view["seq"] != public["seq"] or not view["state"]["legal_actions"]:
                time.sleep(0.01)
                continue
            self._act(mover, view)
            time.sleep(self.pace)

    def _act(self, mover: Phone, view: dict[str, Any]) -> None:
        intent_id = uuid.uuid4().hex[:12]
        action = view["state"]["legal_actions"][0]
        payload = json.dumps(act_intent(intent_id, view["seq"], mover.player_id, action))
        while not self.stopping.is_set():
            mover.send_intent(payload)
            try:
                reply = mover.box.wait(
                    mover.reply_topic, lambda m: m["id"] == intent_id, RESEND_AFTER
                )
            except AssertionError:
                if mover.seq_now() > view["seq"]:
                    return  # a view shows it applied, its answer lost: not counted as acked
                continue
            if reply["status"] == "ok":
                self.acknowledged.append((intent_id, int(reply["seq"])))
                self.acknowledged_at.append(time.monotonic())
            else:
                code = str(reply["error"]["code"])
                self.refused[code] = self.refused.get(code, 0) + 1
            return

    def views(self) -> dict[str, list[tuple[int, int]]]:
        """Every view each phone's screen got, per topic, as ``(epoch, seq)`` in order."""
        return {
            f"{phone.username} {topic}": phone.box.stamps(topic)
            for phone in self.phones.values()
            for topic in (phone.public_topic, phone.view_topic)
        }
