"""The MQTT client every service uses: a small typed wrapper over paho-mqtt 2.

* MQTT 3.1.1 (both brokers speak it) over TCP (``mqtt://``) or WebSocket (``ws://``);
  ``mqtt://user:pass@host:port`` URLs.
* ``TCP_NODELAY`` on every socket: without it a round trip costs ~90 ms, not < 1 ms.
* Subscriptions are (re)made in ``on_connect``, so they survive reconnects; handlers are
  called by topic filter from paho's network thread, never under a lock.
* A persistent session (fixed client id, clean session off) for the tables service.
* ``service="tables"`` publishes a retained ``online`` status, with ``offline`` as last will.
* ``wait_connected`` blocks until connected and every subscription is acknowledged.
* ``on_unmatched`` sees messages no subscription asked for (tests use it to catch leaks).
* ``on_connected`` runs in the network thread after each (re)connection, subscriptions sent.
* Several URLs (``mqtt://h:1,mqtt://h:2``, the nodes of a NATS cluster): each failed
  connection or lost one moves the next attempt to the next node, round the list; a
  subscription granted before and refused after a reconnection is asked for again.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import quote, unquote, urlsplit

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from protocol.messages import ProtocolError
from protocol.topics import service_status
from services.wire import decode, dumps, encode

log = logging.getLogger("gamenight.mqtt")
ROUTES_REMEMBERED = 4096
RESUBSCRIBE_AFTER = 1.0  # seconds before asking again for a subscription granted before
RESUBSCRIBE_TRIES = 60  # then it is a refusal after all (rights taken away): log it

Handler = Callable[[str, bytes], None]
"""A message handler: ``handler(topic, payload)``, called from the network thread."""

DEFAULT_PORTS = {"mqtt": 1883, "ws": 80}
DEFAULT_WS_PATH = "/mqtt"


class MqttError(Exception):
    """The broker refused us, or an operation on the connection failed."""


class ConnectRefusedError(MqttError):
    """The broker answered CONNECT with a refusal (bad credentials, not authorised)."""


@dataclass(frozen=True, slots=True)
class BrokerUrl:
    """Where a broker is and how to log in: ``mqtt://user:pass@host:port`` or ``ws://...``.

    Several URLs, comma-separated, name the nodes of one cluster
    (``mqtt://h:1884,mqtt://h:1885``): same scheme, path and login; ``host``/``port`` are
    the first, ``fallbacks`` the others, which ``MqttClient`` moves to when one dies.
    """

    scheme: str
    host: str
    port: int
    username: str | None = None
    password: str | None = None
    path: str = DEFAULT_WS_PATH
    fallbacks: tuple[tuple[str, int], ...] = ()

    @classmethod
    def parse(cls, url: str) -> BrokerUrl:
        first, *others = (cls._parse_one(part.strip()) for part in url.split(","))
        for other in others:
            if (other.scheme, other.path) != (first.scheme, first.path):
                raise ValueError("every broker URL of a list needs the same scheme and path")
            if other.username is not None and (other.username, other.password) != (
                first.username,
                first.password,
            ):
                raise ValueError("every broker URL of a list needs the same login")
        return replace(first, fallbacks=tuple((o.host, o.port) for o in others))

    @classmethod
    def _parse_one(cls, url: str) -> BrokerUrl:
        parts = urlsplit(url)
        if parts.scheme not in DEFAULT_PORTS:
            raise ValueError(f"unsupported broker URL scheme {parts.scheme!r} (mqtt or ws)")
        if not parts.hostname:
            raise ValueError(f"no host in broker URL {parts.scheme}://…")
        return cls(
            scheme=parts.scheme,
            host=parts.hostname,
            port=parts.port or DEFAULT_PORTS[parts.scheme],
            username=None if parts.username is None else unquote(parts.username),
            password=None if parts.password is None else unquote(parts.password),
            path=parts.path or DEFAULT_WS_PATH,
        )

    @property
    def endpoints(self) -> tuple[tuple[str, int], ...]:
        """Every (host, port) to try, the first one first."""
        return ((self.host, self.port), *self.fallbacks)

    def with_credentials(self, username: str, password: str) -> BrokerUrl:
        return replace(self, username=username, password=password)

    def geturl(self) -> str:
        """The URL(s) with their credentials (percent-encoded): keep it out of logs."""
        return ",".join(
            broker_url(self.scheme, host, port, self.username, self.password, self.path)
            for host, port in self.endpoints
        )

    def __str__(self) -> str:
        # Safe to log: never shows the password.
        return ",".join(
            broker_url(self.scheme, host, port, self.username, None, self.path)
            for host, port in self.endpoints
        )


def broker_url(
    scheme: str,
    host: str,
    port: int,
    username: str | None = None,
    password: str | None = None,
    path: str = DEFAULT_WS_PATH,
) -> str:
    """Build a broker URL, percent-encoding the credentials."""
    auth = ""
    if username is not None:
        auth = quote(username, safe="")
        if password is not None:
            auth += ":" + quote(password, safe="")
        auth += "@"
    netloc_host = f"[{host}]" if ":" in host else host
    suffix = path if scheme == "ws" else ""
    return f"{scheme}://{auth}{netloc_host}:{port}{suffix}"


def status_payload(service: str, online: bool, **details: Any) -> bytes:
    """The retained status message of a service (``protocol/schemas/service_status.json``);
    ``details`` are what an online service tells its senders (``intent_qos``)."""
    return encode("service_status", {"v": 1, "service": service, "online": online, **details})


def intent_qos_asked(payload: bytes) -> int | None:
    """The QoS an "online" tables status asks intents at (``intent_qos``, default 1); None
    for an offline status or one that cannot be read."""
    try:
        status = decode("service_status", payload)
    except ProtocolError:
        return None
    return int(status.get("intent_qos", 1)) if status["online"] else None


def set_tcp_nodelay(sock: Any) -> None:
    """Turn off Nagle's algorithm on a paho socket (plain, or paho's WebSocket wrapper)."""
    try:
        if isinstance(sock, socket.socket):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        elif sock is not None:
            # paho's WebSocket wrapper hides its socket; a duplicate descriptor reaches it.
            with socket.socket(fileno=os.dup(sock.fileno())) as dup:
                dup.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except OSError:
        log.debug("could not set TCP_NODELAY", exc_info=True)


@dataclass(slots=True)
class _Subscription:
    qos: int
    handlers: list[Handler]


class MqttClient:
    """One connection to the broker, reconnecting by itself; see the module docstring."""

    def __init__(
        self,
        url: str | BrokerUrl,
        *,
        client_id: str | None = None,
        persistent: bool = False,
        service: str | None = None,
        keepalive: int = 30,
        on_unmatched: Handler | None = None,
        on_connected: Callable[[], None] | None = None,
        reconnect_delay: tuple[float, float] = (0.1, 10.0),
        clear_retained: Callable[[str], bool] | None = None,
        max_inflight: int = 20,
    ) -> None:
        self.url = url if isinstance(url, BrokerUrl) else BrokerUrl.parse(url)
        if persistent and not client_id:
            raise ValueError("a persistent session needs a fixed client_id")
        self.client_id = client_id or f"gn-{uuid.uuid4().hex[:16]}"
        self.service = service
        # Told with "online" in this service's status (``status_payload``); set before start.
        self.status_details: dict[str, Any] = {}
        self._keepalive = keepalive
        self._on_unmatched = on_unmatched
        # Topics nobody may leave a retained message on: one found is cleared, not handled.
        self._clear_retained = clear_retained
        self._connected_hooks: list[Callable[[], None]] = (
            [] if on_connected is None else [on_connected]
        )
        self._paho = paho.Client(
            CallbackAPIVersion.VERSION2,
            client_id=self.client_id,
            clean_session=not persistent,
            protocol=paho.MQTTv311,
            transport="websockets" if self.url.scheme == "ws" else "tcp",
        )
        if self.url.scheme == "ws":
            self._paho.ws_set_options(path=self.url.path)
        if self.url.username is not None:
            self._paho.username_pw_set(self.url.username, self.url.password)
        # Doubling from 0.1 s: quick after a broker restart, and stop() never waits long
        # for paho's reconnect sleep. paho handles float delays; its annotation says int.
        self._paho.reconnect_delay_set(*reconnect_delay)  # type: ignore[arg-type]
        # QoS 1 messages sent before their PUBACKs (paho's default 20; 0: no limit). Past
        # it paho holds the rest back, and looks through its queue at every PUBACK.
        self._paho.max_inflight_messages_set(max_inflight)
        if service is not None:
            self._paho.will_set(service_status(service), status_payload(service, False), 1, True)
        self._paho.on_connect = self._on_connect
        self._paho.on_disconnect = self._on_disconnect
        self._paho.on_connect_fail = self._on_connect_fail
        self._endpoint = 0  # index in self.url.endpoints of the node tried last
        self._paho.on_subscribe = self._on_subscribe
        self._paho.on_message = self._on_message
        self._state = threading.Condition()
        self._subscriptions: dict[str, _Subscription] = {}
        # topic -> its handlers: matching every filter costs ~10 us a message in paho.
        self._routes: dict[str, tuple[Handler, ...]] = {}
        self._pending: dict[int, list[str]] = {}  # SUBSCRIBE message id -> filters
        self._granted: dict[str, bool] = {}
        # Filters granted once -> failed asks since (see _on_subscribe).
        self._ever_granted: dict[str, int] = {}
        self._connected = False
        self._refused: str | None = None
        self._network_thread: threading.Thread | None = None
        self._started = False

    def online_status(self) -> bytes:
        """This service's "online" status message, with its ``status_details``."""
        assert self.service is not None
        return status_payload(self.service, True, **self.status_details)

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> MqttClient:
        """Connect in the background (and keep reconnecting); returns at once."""
        if not self._started:
            self._started = True
            self._paho.connect_async(self.url.host, self.url.port, self._keepalive)
            self._paho.loop_start()
        return self

    def wait_connected(self, timeout: float = 10.0) -> None:
        """Block until connected with every subscription acknowledged.

        Raises ``ConnectRefusedError`` if the broker refused the login, ``TimeoutError``
        if nothing happened in time.
        """
        deadline = time.monotonic() + timeout
        with self._state:
            while True:
                if self._refused is not None:
                    raise ConnectRefusedError(f"{self.url}: {self._refused}")
                if self._connected and not self._pending:
                    return
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(f"{self.url}: not connected after {timeout} s")
                self._state.wait(remaining)

    def wait_subscribed(self, timeout: float = 10.0) -> dict[str, bool]:
        """Wait for every SUBACK; return, per filter, whether the broker granted it."""
        self.wait_connected(timeout)
        with self._state:
            return dict(self._granted)

    @property
    def connected(self) -> bool:
        with self._state:
            return self._connected

    def in_network_thread(self) -> bool:
        """Whether the caller runs in this client's network thread (inside a handler)."""
        return threading.current_thread() is self._network_thread

    def stop(self, timeout: float = 2.0) -> None:
        """Say ``offline`` (for a service), disconnect cleanly and end the network thread."""
        if not self._started:
            return
        self._started = False
        if self.service is not None and self.connected:
            info = self._paho.publish(
                service_status(self.service), status_payload(self.service, False), 1, True
            )
            try:
                info.wait_for_publish(timeout)
            except (RuntimeError, ValueError):
                log.debug("offline status not sent", exc_info=True)
        self._paho.disconnect()
        self._paho.loop_stop()
        # paho closes the socket pair that wakes its loop only when the client is garbage
        # collected (its __del__); a stopped client would hold two sockets until then.
        self._paho._reset_sockets(sockpair_only=True)

    def __enter__(self) -> MqttClient:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def add_connected_hook(self, hook: Callable[[], None]) -> None:
        """Also run ``hook`` in the network thread after each (re)connection."""
        self._connected_hooks.append(hook)

    # ------------------------------------------------------------------ messages
    def subscribe(self, topic_filter: str, handler: Handler, qos: int = 1) -> None:
        """Call ``handler`` for each message matching ``topic_filter``, also after reconnects."""
        with self._state:
            self._routes.clear()
            subscription = self._subscriptions.get(topic_filter)
            if subscription is None:
                self._subscriptions[topic_filter] = _Subscription(qos, [handler])
            else:
                subscription.handlers.append(handler)
                if qos <= subscription.qos:
                    return
                subscription.qos = qos
            if self._connected:
                self._send_subscribe([(topic_filter, qos)])

    def unsubscribe(self, topic_filter: str) -> None:
        with self._state:
            self._routes.clear()
            if self._subscriptions.pop(topic_filter, None) is None:
                return
            self._granted.pop(topic_filter, None)
            self._ever_granted.pop(topic_filter, None)
        self._paho.unsubscribe(topic_filter)

    def publish(self, topic: str, payload: bytes | str, qos: int = 1, retain: bool = False) -> None:
        """Publish (queued by paho while disconnected if ``qos`` > 0)."""
        data = payload.encode("utf-8") if isinstance(payload, str) else payload
        self._paho.publish(topic, data, qos, retain)

    def flush(self) -> None:
        """From inside a handler: send what is queued now.

        paho writes what a handler publishes only once the handler returns; a handler
        that publishes its most awaited message first can send it on its way at once.
        Elsewhere this does nothing (paho's own thread writes as soon as it can).
        """
        if self.in_network_thread():
            self._paho.loop_write()

    def publish_json(self, topic: str, message: Any, qos: int = 1, retain: bool = False) -> None:
        """Publish ``message`` as compact UTF-8 JSON."""
        self.publish(topic, dumps(message), qos, retain)

    def publish_and_wait(
        self, topic: str, payload: bytes, qos: int = 1, retain: bool = False, timeout: float = 5.0
    ) -> None:
        """Publish and block until paho has sent it (QoS 0) or the broker acknowledged it."""
        info = self._paho.publish(topic, payload, qos, retain)
        info.wait_for_publish(timeout)
        if not info.is_published():
            raise MqttError(f"publish to {topic} not acknowledged within {timeout} s")

    # ------------------------------------------------------------------ paho callbacks
    def _send_subscribe(self, filters: list[tuple[str, int]]) -> None:
        # Called with self._state held, so the SUBACK cannot be handled before we know its id.
        result, mid = self._paho.subscribe(filters)
        if result == paho.MQTT_ERR_SUCCESS and mid is not None:
            self._pending[mid] = [topic_filter for topic_filter, _ in filters]

    def _on_connect(
        self,
        client: paho.Client,
        userdata: Any,
        flags: Any,
        reason: ReasonCode,
        properties: Any,
    ) -> None:
        self._network_thread = threading.current_thread()
        with self._state:
            if reason.is_failure:
                self._refused = str(reason)
                self._state.notify_all()
                self._next_endpoint()  # a node that cannot log us in now: try another
                return
            set_tcp_nodelay(client.socket())
            self._connected, self._refused = True, None
            self._pending.clear()
            filters = [(f, s.qos) for f, s in self._subscriptions.items()]
            if filters:
                self._send_subscribe(filters)
            self._state.notify_all()
        if self.service is not None:
            topic = service_status(self.service)
            client.publish(topic, self.online_status(), 1, True)
        for hook in list(self._connected_hooks):
            try:
                hook()
            except Exception:  # a bad hook must not stop the network thread
                log.exception("%s: on_connected failed", self.url)

    def _on_disconnect(
        self, client: paho.Client, userdata: Any, flags: Any, reason: ReasonCode, properties: Any
    ) -> None:
        with self._state:
            self._connected = False
            self._pending.clear()
            self._state.notify_all()
        if reason.is_failure:
            log.info("%s: disconnected (%s), reconnecting", self.url, reason)
            self._next_endpoint()

    def _on_connect_fail(self, client: paho.Client, userdata: Any) -> None:
        self._next_endpoint()

    def _next_endpoint(self) -> None:
        """Try the next node of a cluster at the next reconnection (paho's own loop)."""
        endpoints = self.url.endpoints
        if len(endpoints) < 2:
            return
        self._endpoint = (self._endpoint + 1) % len(endpoints)
        host, port = endpoints[self._endpoint]
        # paho's host/port setters refuse while the lost connection is still "lost" (the
        # state its reconnect loop is in); reconnect() reads these two attributes.
        self._paho._host, self._paho._port = host, port
        log.info("%s: next try on %s:%s", self.url, host, port)

    def _on_subscribe(
        self,
        client: paho.Client,
        userdata: Any,
        mid: int,
        reasons: list[ReasonCode],
        properties: Any,
    ) -> None:
        retry: list[str] = []
        with self._state:
            filters = self._pending.pop(mid, [])
            for topic_filter, reason in zip(filters, reasons, strict=False):
                self._granted[topic_filter] = not reason.is_failure
                if not reason.is_failure:
                    self._ever_granted[topic_filter] = 0
                elif self._ever_granted.get(topic_filter, RESUBSCRIBE_TRIES) < RESUBSCRIBE_TRIES:
                    self._ever_granted[topic_filter] += 1
                    # Granted before, so not a matter of rights: a NATS node refuses while
                    # the JetStream consumer behind a QoS 1 subscription cannot be made (a
                    # leader being elected after a node's death). Ask again shortly.
                    retry.append(topic_filter)
                    log.info("%s: subscription to %s failed; again soon", self.url, topic_filter)
                else:
                    log.warning("%s: subscription to %s refused", self.url, topic_filter)
            self._state.notify_all()
        if retry:
            timer = threading.Timer(RESUBSCRIBE_AFTER, self._resubscribe, [retry])
            timer.daemon = True
            timer.start()

    def _resubscribe(self, filters: list[str]) -> None:
        with self._state:
            if not (self._started and self._connected):
                return  # a reconnection subscribes everything again anyway
            wanted = [(f, self._subscriptions[f].qos) for f in filters if f in self._subscriptions]
            if wanted:
                self._send_subscribe(wanted)

    def _handlers_for(self, topic: str) -> tuple[Handler, ...]:
        with self._state:
            handlers = self._routes.get(topic)
            if handlers is None:
                found: dict[int, Handler] = {}  # a handler under several filters runs once
                for topic_filter, subscription in self._subscriptions.items():
                    if paho.topic_matches_sub(topic_filter, topic):
                        found.update((id(h), h) for h in subscription.handlers)
                if len(self._routes) >= ROUTES_REMEMBERED:
                    self._routes.clear()
                handlers = self._routes[topic] = tuple(found.values())
            return handlers

    def _on_message(self, client: paho.Client, userdata: Any, message: paho.MQTTMessage) -> None:
        topic = message.topic
        cleared = self._clear_retained is not None and self._clear_retained(topic)
        if cleared and message.retain and message.payload:
            # Left by a client (Mosquitto cannot refuse it per topic): wipe it, so it is
            # not replayed to us at every reconnection, and ignore it.
            log.info("%s: retained message on %s cleared", self.url, topic)
            client.publish(topic, b"", 0, True)
            return
        handlers = self._handlers_for(topic)
        if not handlers:
            # Not asked for: a leftover subscription of a persistent session, or a broker bug.
            log.debug("%s: message on %s matches no subscription", self.url, topic)
            if self._on_unmatched is not None:
                handlers = (self._on_unmatched,)
        for handler in handlers:
            try:
                handler(topic, bytes(message.payload))
            except Exception:  # a bad handler must not stop the network thread
                log.exception("handler for %s failed", topic)
