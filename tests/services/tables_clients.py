"""Scripted phones and a lobby client that speak only the protocol (tables service tests)."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

from protocol import topics
from protocol.messages import act_intent, encode
from services.broker.settings import BrokerEndpoint
from services.mqtt import MqttClient

RESEND_SECONDS = 1.0  # a phone waits 2 s (RESEND_AFTER in net.js); tests are in a hurry
WAIT = 10.0


class Mailbox:
    """Messages by topic, with waiting."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.messages: dict[str, list[dict[str, Any]]] = {}

    def put(self, topic: str, payload: bytes) -> None:
        with self.changed:
            self.messages.setdefault(topic, []).append(json.loads(payload))
            self.changed.notify_all()

    def wait(
        self, topic: str, match: Callable[[dict[str, Any]], bool], timeout: float = WAIT
    ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for message in reversed(self.messages.get(topic, [])):
                    if match(message):
                        return message
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"nothing matching on {topic} within {timeout} s")
                self.changed.wait(remaining)

    def latest(self, topic: str) -> dict[str, Any] | None:
        with self.changed:
            found = self.messages.get(topic)
            return found[-1] if found else None


class LobbyClient:
    """Speaks the lobby protocol as the web service does."""

    def __init__(self, broker: BrokerEndpoint) -> None:
        self.box = Mailbox()
        self.client = MqttClient(broker.service_url("web"))
        for op in topics.LOBBY_OPS:
            self.client.subscribe(topics.lobby_response(op), self.box.put)
        self.client.subscribe(f"{topics.BASE}/table/+/host/reply", self.box.put)
        self.client.subscribe(f"{topics.BASE}/table/+/view", self.box.put)
        self.client.subscribe(topics.service_status("tables"), self.box.put)
        self.client.start().wait_connected(WAIT)

    def request(self, op: str, timeout: float = WAIT, **body: Any) -> dict[str, Any]:
        reply = self._request_once(op, timeout, **body)
        if reply.get("error", {}).get("code") == "table_moved":
            # As the web service does (``MqttLobby.request``): the table changed hands
            # mid-request (copies of the tables service), its new owner answers again.
            reply = self._request_once(op, timeout, **body)
        return reply

    def _request_once(self, op: str, timeout: float, **body: Any) -> dict[str, Any]:
        request_id = uuid.uuid4().hex[:12]
        kind = f"lobby_{op}"
        message = {"v": 1, "id": request_id, **body}
        self.client.publish(topics.lobby_request(op), encode(kind, message))
        return self.box.wait(
            topics.lobby_response(op), lambda m: m["id"] == request_id, timeout=timeout
        )

    def wait_for_service(self, timeout: float = 20.0) -> None:
        """Until a tables service answers (it may still be starting)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.request("join", timeout=0.5, table="NONE", name="probe")
                return
            except AssertionError:
                if time.monotonic() > deadline:
                    raise

    def create(self, game: str = "kings-corner", **options: Any) -> str:
        reply = self.request("create", game=game, options=options)
        assert reply["status"] == "ok", reply
        return str(reply["data"]["table"])

    def public(self, table: str, match: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The newest public view of ``table`` that matches (what the TV sees)."""
        return self.box.wait(topics.table_view(table), match)

    def host(self, table: str, op: str, **params: Any) -> dict[str, Any]:
        request_id = uuid.uuid4().hex[:12]
        message = {"v": 1, "id": request_id, "op": op, "params": params}
        self.client.publish(topics.host_topic(table, "intent"), encode("host_intent", message))
        return self.box.wait(topics.host_topic(table, "reply"), lambda m: m["id"] == request_id)


class Phone:
    """A scripted phone: its own credentials, its own seat, nothing else."""

    def __init__(self, broker: BrokerEndpoint, join: dict[str, Any]) -> None:
        self.table: str = join["table"]
        self.seat: int = join["seat"]
        self.player_id: str = join["player_id"]
        self.username: str = join["username"]
        self.password: str = join["password"]
        self.box = Mailbox()
        self.view_topic = topics.seat_topic(self.table, self.seat, "view")
        self.reply_topic = topics.seat_topic(self.table, self.seat, "reply")
        self.intent_topic = topics.seat_topic(self.table, self.seat, "intent")
        self.public_topic = topics.table_view(self.table)
        # The broker binds every player account to its username as client id.
        self.client = MqttClient(broker.url(self.username, self.password), client_id=self.username)
        for topic in (
            self.view_topic,
            self.reply_topic,
            self.public_topic,
            topics.table_events(self.table),
        ):
            self.client.subscribe(topic, self.box.put)
        self.client.start().wait_connected(WAIT)

    def view(self, newer_than: int = -1) -> dict[str, Any]:
        return self.box.wait(self.view_topic, lambda m: m["seq"] > newer_than)

    def public(self, newer_than: int = -1) -> dict[str, Any]:
        return self.box.wait(self.public_topic, lambda m: m["seq"] > newer_than)

    def send(self, message: dict[str, Any], topic: str | None = None) -> dict[str, Any]:
        """Publish ``message`` and wait for its reply.

        An intent (the default topic) is sent again, same id, while unanswered, as a
        phone does (``Link.deliver``): the tables service drops a seat's messages past
        its rate budget unread, and a scripted phone easily goes faster than that.
        """
        payload = json.dumps(message).encode()
        deadline = time.monotonic() + WAIT
        while True:
            self.client.publish(topic or self.intent_topic, payload)
            wait = RESEND_SECONDS if topic is None else WAIT
            try:
                return self.box.wait(self.reply_topic, lambda m: m["id"] == message["id"], wait)
            except AssertionError:
                if topic is not None or time.monotonic() > deadline:
                    raise

    def act(
        self,
        action: dict[str, Any],
        seq: int | None = None,
        intent_id: str | None = None,
        player: str | None = None,
    ) -> dict[str, Any]:
        current = self.view()["seq"] if seq is None else seq
        intent_id = intent_id or uuid.uuid4().hex[:12]
        return self.send(act_intent(intent_id, current, player or self.player_id, action))

    def stop(self) -> None:
        self.client.stop()
