"""Joining a table as a phone does: the web service's join API, then the broker over
WebSockets with the seat's own login. Only protocol messages cross it.

Every typed line, and every host command ("/start"), is kept until a reply with its id
arrives, and sent again, with the same id, after each reconnection and every
``RESEND_AFTER`` seconds (protocol/README.md, "Never losing a move"; ``services/delivery.py``
does the same for bots): the assistant turns a line into an intent under that id, and the
tables service never applies an id twice. A reply is shown once, however many copies come
back; of the host replies (the TV's come there too) only this seat's own.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from protocol import topics
from protocol.messages import ProtocolError, decode, encode


class JoinRefusedError(Exception):
    """The table said no (a coded reason, as the join page shows it)."""

    def __init__(self, code: str, params: dict[str, Any]) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True, slots=True)
class Seat:
    """What the join API hands a player: the seat and its broker login."""

    table: str
    seat: int
    player_id: str
    username: str
    password: str
    host: bool
    ws_url: str
    intent_qos: int = 1  # the QoS the tables service asks intents at (0 on a NATS cluster)


def join(server: str, table: str, name: str, lang: str, timeout: float = 10.0) -> Seat:
    """Take a seat at ``table`` through the web service at ``server``."""
    url = f"{server.rstrip('/')}/api/tables/{table.upper()}/join"
    body = json.dumps({"name": name, "lang": lang}).encode()
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            data = json.load(response)
    except urllib.error.HTTPError as problem:
        data = json.loads(problem.read() or b"{}")
    if "error" in data:
        raise JoinRefusedError(str(data["error"]["code"]), dict(data["error"].get("params") or {}))
    return Seat(
        table=str(data["table"]),
        seat=int(data["seat"]),
        player_id=str(data["player_id"]),
        username=str(data["username"]),
        password=str(data["password"]),
        host=bool(data["host"]),
        ws_url=str(data["ws_url"]),
        intent_qos=int(data.get("intent_qos", 1)),
    )


Handler = Callable[[str, dict[str, Any]], None]
RESEND_AFTER = 2.0  # seconds without a reply before a line is sent again
GIVE_UP_AFTER = 120.0  # a line nobody answers for this long is dropped
_SEEN_REPLIES = 256  # ids of replies already shown, so a resend's second answer is not


@dataclass(slots=True)
class _Pending:
    topic: str
    payload: bytes
    qos: int
    first_sent: float
    last_sent: float


class SeatLink:
    """One seat's connection: its view, the public view and events in; its words out."""

    def __init__(self, seat: Seat, on_message: Handler) -> None:
        self.seat = seat
        self.on_message = on_message
        self.connected = threading.Event()
        address = urlsplit(seat.ws_url)
        secure = address.scheme == "wss"
        self._host = address.hostname or "127.0.0.1"
        self._port = address.port or (443 if secure else 80)
        self.client = mqtt.Client(
            callback_api_version=CallbackAPIVersion.VERSION2,
            client_id=seat.username,  # as the phone: a new connection replaces an old one
            transport="websockets",
        )
        self.client.ws_set_options(path=address.path or "/mqtt")
        if secure:
            self.client.tls_set()
        self.client.username_pw_set(seat.username, seat.password)
        presence = self.topic("presence")
        offline = encode("presence", {"v": 1, "online": False})
        self.client.will_set(presence, offline, qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self._lock = threading.Lock()
        self._pending: dict[str, _Pending] = {}  # line id -> what to send again
        self._answered: dict[str, None] = {}  # ids replied to, oldest first
        self._stopped = threading.Event()
        self._timer = threading.Thread(target=self._resend_loop, name="resend", daemon=True)
        # Which schema each topic's messages follow.
        self._kinds = {
            topics.table_view(seat.table): "table_view",
            topics.table_events(seat.table): "events",
            self.topic("view"): "seat_view",
            self.topic("reply"): "reply",
        }
        if seat.host:
            self._kinds[topics.host_topic(seat.table, "reply")] = "host_reply"

    def topic(self, name: str) -> str:
        return topics.seat_topic(self.seat.table, self.seat.seat, name)

    def start(self) -> None:
        self.client.connect_async(self._host, self._port)
        self.client.loop_start()
        self._timer.start()

    def stop(self) -> None:
        self._stopped.set()
        self.client.disconnect()
        self.client.loop_stop()

    def say(self, text: str, lang: str) -> str:
        """Send a typed line to the assistant; its id, which the reply echoes.

        The line is kept, and sent again under the same id, until its reply arrives.
        """
        line_id = "t" + secrets.token_hex(6)
        message = {"v": 1, "id": line_id, "text": text[:500], "lang": lang}
        # QoS 1: the assistant listens at QoS 1 (a person's lines are few).
        self._send(line_id, self.topic("say"), encode("say", message), qos=1)
        return line_id

    def _send(self, message_id: str, topic: str, payload: bytes, qos: int) -> None:
        """Publish, and keep it to send again until a reply with ``message_id`` comes."""
        now = time.monotonic()
        with self._lock:
            self._pending[message_id] = _Pending(topic, payload, qos, now, now)
        self.client.publish(topic, payload, qos=qos)

    def unanswered(self) -> list[str]:
        """The ids of lines sent and not answered yet."""
        with self._lock:
            return list(self._pending)

    def _resend(self, every: bool) -> None:
        """Send again what is due (``every``: all of it, as after a reconnection)."""
        now = time.monotonic()
        with self._lock:
            for line_id, pending in list(self._pending.items()):
                if now - pending.first_sent > GIVE_UP_AFTER:
                    del self._pending[line_id]
                elif every or now - pending.last_sent >= RESEND_AFTER:
                    pending.last_sent = now
                    self.client.publish(pending.topic, pending.payload, qos=pending.qos)

    def _resend_loop(self) -> None:
        while not self._stopped.wait(RESEND_AFTER / 4):
            if self.client.is_connected():
                self._resend(every=False)

    def _settle(self, reply_id: str) -> bool:
        """Forget the line ``reply_id`` answers; False when its reply was already shown."""
        with self._lock:
            if reply_id in self._answered:
                return False
            if self._pending.pop(reply_id, None) is None:
                return True  # not a line of ours (a sync, a "-" for an unreadable one)
            self._answered[reply_id] = None
            while len(self._answered) > _SEEN_REPLIES:
                del self._answered[next(iter(self._answered))]
            return True

    def host(self, op: str) -> str:
        """A host control (``start``, ``next_round``…), for the seat that hosts; its id.

        Kept, and sent again under the same id, until its reply arrives, as a typed line.
        """
        command_id = "h" + secrets.token_hex(6)
        message = {"v": 1, "id": command_id, "op": op}
        topic = topics.host_topic(self.seat.table, "intent")
        self._send(command_id, topic, encode("host_intent", message), qos=self.seat.intent_qos)
        return command_id

    def _ours(self, reply_id: str) -> bool:
        with self._lock:
            return reply_id in self._pending or reply_id in self._answered

    def _on_connect(self, client: mqtt.Client, *_: Any) -> None:
        for topic in self._kinds:
            client.subscribe(topic, qos=1)
        online = encode("presence", {"v": 1, "online": True})
        client.publish(self.topic("presence"), online, qos=1, retain=True)
        sync = {"v": 1, "id": "sync" + secrets.token_hex(4), "op": "sync"}
        client.publish(self.topic("intent"), encode("intent", sync), qos=self.seat.intent_qos)
        self._resend(every=True)  # what was said before the connection dropped, same ids
        self.connected.set()

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        kind = self._kinds.get(message.topic)
        if kind is None:
            return
        try:
            schema = "reply" if kind == "host_reply" else kind
            decoded = decode(schema, bytes(message.payload), limit=1 << 20)
        except ProtocolError:
            return  # a screen ignores what it cannot read
        if kind == "host_reply":
            if not self._ours(str(decoded.get("id"))):
                return  # the TV's, or another host tab's
            kind = "reply"
        if kind == "reply" and not self._settle(str(decoded.get("id"))):
            return  # a second answer to a line sent again
        self.on_message(kind, decoded)
