"""The embedded MQTT broker: amqtt 0.12.1 with our access plugins and its leaks closed.

What this subclass changes in amqtt, and why:

* Retained messages. amqtt pushes, to every client that connects, the retained messages
  matching *any* client's subscriptions, with no read check: a private hand published
  retained reached whoever connected next. Here a retained message reaches a client only
  for a subscription that client holds, and only if it may read that topic. Messages
  queued for an offline persistent session are read-checked the same way.
* Authentication first. amqtt drops or takes over the session named by a CONNECT's client
  id before checking the password, so anyone could wipe the tables service's persistent
  session. Here nothing is touched before the credentials pass, and another account's
  live or persistent session is neither taken over nor resumed: the CONNECT is refused.
* Delivery while clients come and go. amqtt walks its subscription table across awaits;
  a subscription made meanwhile aborted the delivery of that message to the rest.
* Ending connections. amqtt stops a connection by cancelling its reader, which Python 3.11
  can swallow: shutdown hung and a deleted account could stay connected. Here the socket
  is cut first.
* Limits (``limits.BrokerLimits``, as Mosquitto's configuration sets them): a packet
  larger than the limit closes its connection before its body is read; a socket that
  sends no CONNECT within a few seconds is closed; connections per address are capped;
  an offline session queues a bounded number of bytes and messages; a player's
  connection publishes at a bounded rate (beyond it, acknowledged and dropped). Players cannot
  leave retained messages, except their presence (their last will says offline).
* The dynsec control topic. amqtt closes any connection that publishes to a ``$`` topic;
  here service accounts may send Mosquitto's dynamic-security commands to
  ``$CONTROL/dynamic-security/v1`` and get the answer on ``.../response``, as on Mosquitto.
* WebSocket over TLS (``serve --https``). amqtt asks every client for a certificate; here
  none is asked, and a browser opening the port itself (to accept our certificate) gets a
  page saying it is accepted instead of an error and a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import http
import logging
import ssl
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from amqtt.adapters import (
    ReaderAdapter,
    StreamReaderAdapter,
    StreamWriterAdapter,
    WebSocketsReader,
    WebSocketsWriter,
    WriterAdapter,
)
from amqtt.broker import Broker
from amqtt.contexts import Action
from amqtt.errors import AMQTTError, MQTTError
from amqtt.mqtt.protocol.broker_handler import BrokerProtocolHandler
from amqtt.session import Session
from amqtt.utils import gen_client_id
from websockets import Subprotocol
from websockets.asyncio.server import ServerConnection, serve
from websockets.http11 import Request, Response

from services.broker.credentials import ServiceCredentials
from services.broker.dynsec import CONTROL_RESPONSE_TOPIC, CONTROL_TOPIC, AccountStore
from services.broker.limits import BrokerLimits, raise_open_file_limit
from services.broker.plugin import AccountAuthPlugin, AccountTopicPlugin
from services.broker.settings import Address, BrokerEndpoint, BrokerSettings
from services.broker.topicfilter import topic_matches

log = logging.getLogger("gamenight.broker")

_AUTHENTICATED = "gamenight.authenticated"
TCP_LISTENER = "default"  # amqtt requires a listener named "default"
WS_LISTENER = "ws"


def _listener(
    kind: str, address: Address | None, certificate: tuple[Path, Path] | None = None
) -> dict[str, Any]:
    listener: dict[str, Any] = {"type": kind, "bind": None if address is None else str(address)}
    if certificate is not None:  # WebSocket over TLS (wss:), for pages served over https
        listener.update(ssl=True, certfile=str(certificate[0]), keyfile=str(certificate[1]))
    return listener


def _plugin_path(plugin: type) -> str:
    return f"{plugin.__module__}.{plugin.__qualname__}"


class _Subscriptions(dict[str, list[tuple[Session, int]]]):
    """amqtt's subscription table, walked only through snapshots.

    amqtt walks this table while awaiting (each read check yields to the event loop), so a
    client subscribing or leaving meanwhile raised "dictionary changed size during
    iteration": the message being delivered was lost for every remaining subscriber.
    """

    def items(self) -> list[tuple[str, list[tuple[Session, int]]]]:  # type: ignore[override]
        return [(topic_filter, list(subscribers)) for topic_filter, subscribers in super().items()]

    def __iter__(self) -> Iterator[str]:
        return iter(list(super().keys()))


# amqtt ships no type information, so Broker is Any to mypy.
class GameNightBroker(Broker):  # type: ignore[misc]
    """amqtt's broker with our plugins, the retained-message guard and dynsec control."""

    def __init__(
        self,
        accounts: AccountStore,
        tcp: Address | None,
        ws: Address | None,
        ws_certificate: tuple[Path, Path] | None = None,
        limits: BrokerLimits | None = None,
    ) -> None:
        if tcp is None and ws is None:
            raise ValueError("the broker needs a TCP or a WebSocket listener")
        self.accounts = accounts
        self.limits = limits or BrokerLimits()
        # Every open connection, by peer address, with the way to cut it at once.
        self._connections: dict[tuple[str, int], Callable[[], None]] = {}
        self._per_host: Counter[str] = Counter()
        # player username -> (tokens, when, messages dropped since the last one let through)
        self._publish_tokens: dict[str, tuple[float, float, int]] = {}
        self._shut_out: dict[str, float] = {}  # username -> until when its CONNECT is refused
        self._save_lock = asyncio.Lock()
        self._save_wanted = self._saved = 0  # accounts-file changes asked for, and written
        # Bytes queued per offline session (amqtt counts only messages).
        self._queued_bytes: Counter[str] = Counter()
        plugin_config = {"accounts": accounts}
        super().__init__(
            {
                "listeners": {
                    TCP_LISTENER: _listener("tcp", tcp),
                    WS_LISTENER: _listener("ws", ws, ws_certificate),
                },
                "plugins": {
                    _plugin_path(AccountAuthPlugin): plugin_config,
                    _plugin_path(AccountTopicPlugin): plugin_config,
                },
            }
        )
        self._subscriptions = _Subscriptions()

    @staticmethod
    def _create_ssl_context(listener: dict[str, Any]) -> ssl.SSLContext:
        # amqtt asks phones for a client certificate (CERT_OPTIONAL): a phone holding one
        # would then pop up a certificate chooser. Ours asks for none.
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        context.load_cert_chain(listener["certfile"], listener["keyfile"])
        return context

    async def _create_server_instance(
        self,
        listener_name: str,
        listener_type: Any,
        address: str | None,
        port: int,
        ssl_context: ssl.SSLContext | None,
    ) -> Any:
        if listener_type != "ws" or ssl_context is None:
            return await super()._create_server_instance(
                listener_name, listener_type, address, port, ssl_context
            )
        # Over wss, a phone may open https://<address>:<port>/ itself to accept our
        # certificate (the TV says how): it gets a page saying so, not an error.
        return await serve(
            functools.partial(self.ws_connected, listener_name=listener_name),
            address,
            port,
            ssl=ssl_context,
            subprotocols=[Subprotocol("mqtt")],
            process_request=_certificate_page,
        )

    def bound_port(self, listener: str) -> int | None:
        """The port a listener actually got (useful after asking for port 0)."""
        server = self._servers.get(listener)
        if server is None or server.instance is None:
            return None
        sockets = list(server.instance.sockets)
        return int(sockets[0].getsockname()[1]) if sockets else None

    # ------------------------------------------------------------------ connect
    # amqtt ends a connection by cancelling its reader task; on Python 3.11 a cancel that
    # races an arriving packet is swallowed by asyncio.wait_for and the reader reads on: a
    # shutdown then waited forever (one run in two with a busy client), and a kicked client
    # could stay connected. Cutting the socket first makes every reader end by itself.
    async def stream_connected(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, listener_name: str
    ) -> None:
        peer = _peer(writer.get_extra_info("peername"))
        if not self._admit(peer, writer.transport.abort):
            return
        try:
            limited = _LimitedReader(
                StreamReaderAdapter(reader), self.limits.max_packet_bytes, writer.transport.abort
            )
            await self._client_connected(listener_name, limited, StreamWriterAdapter(writer))
        finally:
            self._leave(peer)
            writer.close()  # amqtt leaves it open when a client leaves before CONNECT

    async def ws_connected(self, websocket: ServerConnection, listener_name: str) -> None:
        peer = _peer(websocket.remote_address)
        if not self._admit(peer, websocket.transport.abort):
            return
        try:
            limited = _LimitedReader(
                WebSocketsReader(websocket),
                self.limits.max_packet_bytes,
                websocket.transport.abort,
            )
            await self._client_connected(listener_name, limited, WebSocketsWriter(websocket))
        finally:
            self._leave(peer)

    def _admit(self, peer: tuple[str, int], abort: Callable[[], None]) -> bool:
        host = peer[0]
        if self.limits.capped(host) and (
            self._per_host[host] >= self.limits.max_connections_per_address
        ):
            log.warning("too many connections from %s: refused", host)
            abort()
            return False
        self._per_host[host] += 1
        self._connections[peer] = abort
        return True

    def _leave(self, peer: tuple[str, int]) -> None:
        if self._connections.pop(peer, None) is not None:
            self._per_host[peer[0]] -= 1
            if self._per_host[peer[0]] <= 0:
                del self._per_host[peer[0]]

    def _cut(self, session: Session) -> None:
        """Close a session's connection now, whatever its reader is doing."""
        abort = self._connections.get((session.remote_address, session.remote_port))
        if abort is not None:
            abort()

    async def shutdown(self) -> None:
        for server in self._servers.values():
            if server.instance is not None:
                server.instance.close()  # no new connections
        for _ in range(3):
            await asyncio.sleep(0)  # connections accepted just now register themselves
        for abort in list(self._connections.values()):
            abort()
        await super().shutdown()

    async def _initialize_client_session(
        self, reader: ReaderAdapter, writer: WriterAdapter, remote_address: str, remote_port: int
    ) -> tuple[BrokerProtocolHandler, Session]:
        try:
            # A socket that sends no CONNECT in time is closed: idle sockets cannot pile up.
            handler, incoming = await asyncio.wait_for(
                BrokerProtocolHandler.init_from_connect(reader, writer, self.plugins_manager),
                self.limits.connect_timeout,
            )
        except (MQTTError, TimeoutError) as problem:
            with contextlib.suppress(Exception):
                await writer.close()
            if isinstance(problem, TimeoutError):
                raise AMQTTError(f"no CONNECT from {remote_address} in time") from None
            raise
        accepted = await super()._authenticate(incoming, None)
        if accepted and self._shut_out.get(incoming.username or "", 0.0) > time.monotonic():
            accepted = False  # disconnected for a flood, a moment ago
        client_id = incoming.client_id or ""
        existing = self._sessions.get(client_id) if client_id else None
        if accepted and existing is not None and existing[0].username != incoming.username:
            # Another account's live or persistent session: refuse, never take it over.
            previous = existing[0]
            accepted = not (previous.transitions.is_connected() or not previous.clean_session)
        if not accepted:
            handler.attach(incoming, reader, writer)
            await handler.mqtt_connack_authorize(False)
            await writer.close()
            raise AMQTTError(f"connection refused for {incoming.username!r} from {remote_address}")
        if existing is not None and (
            incoming.clean_session or existing[0].username != incoming.username
        ):
            # A clean start (or a dead clean session of another account): end the old
            # connection and drop its session, never hand it over.
            self._cut(existing[0])
            await self._cleanup_session(client_id)
            existing = None
        if existing is None:
            session = incoming
            if not session.client_id:
                session.client_id = gen_client_id()
            session.parent = 0
        else:
            session = existing[0]
            for name in ("will_flag", "will_message", "will_topic", "will_qos", "will_retain"):
                setattr(session, name, getattr(incoming, name))
            session.keep_alive = incoming.keep_alive
            session.password = incoming.password
            session.parent = 1
        session.attributes[_AUTHENTICATED] = True
        return handler, session

    async def _authenticate(self, session: Session, listener: Any) -> bool:
        # The credentials were checked in _initialize_client_session, before any session
        # was touched; amqtt asks again later, and gets that verdict.
        return bool(session.attributes.get(_AUTHENTICATED, False))

    # ------------------------------------------------------------------ retained messages
    async def _may_receive(self, session: Session, topic: str) -> bool:
        return bool(await self._topic_filtering(session, topic, Action.RECEIVE))

    def _subscription_qos(self, session: Session, topic_filter: str) -> int | None:
        for subscriber, qos in self._subscriptions.get(topic_filter, ()):
            if subscriber.client_id == session.client_id:
                return int(qos)
        return None

    async def _publish_retained_messages_for_subscription(
        self, subscription: tuple[str, int], session: Session
    ) -> None:
        # amqtt calls this on SUBSCRIBE and, on every CONNECT, for every filter anyone has
        # subscribed to. Deliver only for a filter this session holds, and only readable topics.
        topic_filter = subscription[0]
        granted = self._subscription_qos(session, topic_filter)
        handler = self._get_handler(session)
        if granted is None or handler is None:
            return
        sends = []
        for topic, retained in list(self._retained_messages.items()):
            if topic_matches(topic_filter, topic) and await self._may_receive(session, topic):
                qos = min(granted, retained.qos if retained.qos is not None else granted)
                sends.append(handler.mqtt_publish(topic, retained.data, qos, retain=True))
        await _run_in_order(sends)

    async def _publish_session_retained_messages(self, session: Session) -> None:
        # Messages queued while a persistent session was offline: the session may since
        # belong to a login whose rights changed, so check each one again.
        handler = self._get_handler(session)
        if handler is None:
            return
        sends = []
        self._queued_bytes.pop(session.client_id or "", None)
        while not session.retained_messages.empty():
            queued = session.retained_messages.get_nowait()
            if await self._may_receive(session, queued.topic):
                sends.append(handler.mqtt_publish(queued.topic, queued.data, queued.qos, False))
        await _run_in_order(sends)

    # ------------------------------------------------------------------ queues, retain
    async def _retain_broadcast_message(
        self, broadcast: dict[str, Any], qos: int, target_session: Session
    ) -> None:
        # amqtt queues without bound for an offline session: bound it in messages and bytes.
        size = len(broadcast.get("data") or b"")
        key = target_session.client_id or ""
        queue = target_session.retained_messages
        if queue.empty():
            self._queued_bytes.pop(key, None)  # drained since: start counting afresh
        if (
            queue.qsize() >= self.limits.max_queued_messages
            or self._queued_bytes[key] + size > self.limits.max_queued_bytes
        ):
            log.warning("queue of %s is full: message on %s dropped", key, broadcast["topic"])
            return
        self._queued_bytes[key] += size
        await super()._retain_broadcast_message(broadcast, qos, target_session)

    async def retain_message(
        self,
        source_session: Session | None,
        topic_name: str | None,
        data: bytes | bytearray | None,
        qos: int | None = None,
    ) -> None:
        # Only services retain, and players their presence: a retained intent or line
        # would be replayed to the services at every reconnect.
        username = None if source_session is None else source_session.username
        if (
            source_session is not None
            and not self.accounts.is_service(username)
            and not (topic_name or "").endswith("/presence")
        ):
            log.info("retained message from %r on %s not kept", username, topic_name)
            return
        await super().retain_message(source_session, topic_name, data, qos)

    # ------------------------------------------------------------------ dynsec control
    async def _handle_message_delivery(
        self,
        client_session: Session,
        handler: BrokerProtocolHandler,
        wait_deliver: asyncio.Future[Any],
    ) -> bool:
        message = wait_deliver.result()
        if message is not None and not self._within_rate(client_session):
            return True  # acknowledged, not delivered: a player's flood stops here
        if message is not None and message.topic == CONTROL_TOPIC:
            await self._handle_control(client_session, handler, bytes(message.data or b""))
            return True
        return bool(await super()._handle_message_delivery(client_session, handler, wait_deliver))

    async def _handle_control(
        self, session: Session, handler: BrokerProtocolHandler, payload: bytes
    ) -> None:
        if not self.accounts.may_publish(session.username, CONTROL_TOPIC):
            log.warning("control command from %r refused", session.username)
            return
        # Hashing passwords and writing the accounts file are slow (tens of ms): both run
        # in a thread, so other clients' messages flow meanwhile; commands themselves run
        # here, on the loop that reads the accounts. Writes are serialised and coalesced.
        hashes = await asyncio.to_thread(AccountStore.prehash, payload)
        result = self.accounts.execute(payload, hashes, save=False)
        await self._save_accounts()
        # As on Mosquitto, the answer goes to the sender only.
        if self.accounts.may_receive(session.username, CONTROL_RESPONSE_TOPIC):
            await handler.mqtt_publish(CONTROL_RESPONSE_TOPIC, result.response, 0, retain=False)
        self.disconnect_accounts(result.disconnect)

    def _within_rate(self, session: Session) -> bool:
        """A token bucket per player account (services are not limited).

        Per account, not per connection, so reconnecting refills nothing; an account far
        over its rate is disconnected: reading its packets is what costs the broker.
        """
        username = session.username or ""
        if self.accounts.is_service(username):
            return True
        limits, now = self.limits, time.monotonic()
        tokens, then, dropped = self._publish_tokens.get(
            username, (float(limits.publish_burst), now, 0)
        )
        tokens = min(float(limits.publish_burst), tokens + (now - then) * limits.publish_rate)
        if tokens >= 1:
            self._publish_tokens[username] = (tokens - 1, now, 0)
            return True
        self._publish_tokens[username] = (tokens, now, dropped + 1)
        if dropped + 1 >= limits.publish_burst:
            log.warning("%r publishes far over its rate: disconnected", username)
            # Kept out a while: a client reconnects at once and resends what it queued.
            self._shut_out[username] = now + limits.flood_shut_out
            self._cut(session)
        return False

    async def _save_accounts(self) -> None:
        """Write the accounts file; a write already waiting covers every change before it."""
        self._save_wanted += 1
        wanted = self._save_wanted
        async with self._save_lock:
            if self._saved >= wanted:
                return  # a write that started after our change already covered it
            upto = self._save_wanted
            text = self.accounts.saved_text()
            if text is not None:
                await asyncio.to_thread(self.accounts.write, text)
            self._saved = upto

    def disconnect_accounts(self, usernames: Iterable[str]) -> None:
        """Close every connection logged in as one of ``usernames`` (deleted accounts)."""
        names = set(usernames)
        for session, _ in list(self._sessions.values()):
            if session.username in names and session.transitions.is_connected():
                self._cut(session)  # amqtt then ends the session as after any lost connection


CERTIFICATE_ACCEPTED = (
    "Game Night: this computer's certificate is accepted. Go back to the game.\n"
    "Soirée jeux : le certificat de cet ordinateur est accepté. Retourne au jeu.\n"
    "Noite de jogos: o certificado deste computador foi aceite. Volte ao jogo.\n"
    "Spelavond: het certificaat van deze computer is geaccepteerd. Ga terug naar het spel.\n"
)


def _certificate_page(connection: ServerConnection, request: Request) -> Response | None:
    if request.headers.get("Upgrade", "").lower() == "websocket":
        return None  # an MQTT client: carry on with the WebSocket handshake
    return connection.respond(http.HTTPStatus.OK, CERTIFICATE_ACCEPTED)


def _peer(address: Any) -> tuple[str, int]:
    # (host, port) as amqtt records it in Session.remote_address/remote_port.
    return (str(address[0]), int(address[1])) if address else ("", 0)


class _LimitedReader(ReaderAdapter):  # type: ignore[misc]
    """A reader that cuts the connection instead of reading a body over ``limit`` bytes.

    amqtt reads a packet's body in one ``read(n)`` of its announced length (a string's at
    most 64 KiB), so a larger read is a packet over the limit: nothing is buffered.
    """

    def __init__(self, inner: ReaderAdapter, limit: int, abort: Callable[[], None]) -> None:
        self._inner = inner
        self._limit = limit
        self._abort = abort

    async def read(self, n: int = -1) -> bytes:
        if n > self._limit:
            log.warning("a %d-byte packet is over the limit: connection closed", n)
            self._abort()
            return b""
        data: bytes = await self._inner.read(n)
        return data

    def feed_eof(self) -> None:
        self._inner.feed_eof()


async def _run_in_order(sends: list[Any]) -> None:
    # Start the sends in order (so they are written in order), then wait for all of them.
    tasks = [asyncio.ensure_future(send) for send in sends]
    if tasks:
        await asyncio.gather(*tasks, return_exceptions=True)


async def run_embedded_broker(
    settings: BrokerSettings,
    stop: asyncio.Event,
    on_ready: Callable[[GameNightBroker], None] | None = None,
    broker_class: type[GameNightBroker] = GameNightBroker,
) -> None:
    """Serve until ``stop`` is set; ``on_ready`` gets the started broker."""
    raise_open_file_limit()
    broker = broker_class(
        settings.accounts(), settings.tcp, settings.ws, settings.ws_certificate, settings.limits
    )
    await broker.start()
    try:
        if on_ready is not None:
            on_ready(broker)
        await stop.wait()
    finally:
        await broker.shutdown()


class EmbeddedBroker:
    """An embedded broker running in a thread of its own; ``stop()`` ends it."""

    def __init__(
        self,
        settings: BrokerSettings,
        timeout: float = 10.0,
        broker_class: type[GameNightBroker] = GameNightBroker,
    ) -> None:
        self.settings = settings
        self._broker_class = broker_class
        self.tcp_port: int | None = None
        self.ws_port: int | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="gamenight-broker", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise TimeoutError("the embedded broker did not start in time")
        if self._error is not None:
            raise RuntimeError("the embedded broker failed to start") from self._error

    @property
    def host(self) -> str:
        address = self.settings.tcp or self.settings.ws
        assert address is not None  # GameNightBroker refuses to start without a listener
        return address.host

    def _run(self) -> None:
        async def main() -> None:
            self._loop = asyncio.get_running_loop()
            self._stop = asyncio.Event()
            await run_embedded_broker(self.settings, self._stop, self._started, self._broker_class)

        try:
            asyncio.run(main())
        except BaseException as error:  # reported to the starting thread, or logged
            if self._ready.is_set():
                log.exception("the embedded broker stopped on an error")
            self._error = error
        finally:
            self._ready.set()

    def _started(self, broker: GameNightBroker) -> None:
        self.tcp_port = broker.bound_port(TCP_LISTENER)
        self.ws_port = broker.bound_port(WS_LISTENER)
        self._ready.set()

    @property
    def endpoint(self) -> BrokerEndpoint:
        """Its address and ports, for clients."""
        return BrokerEndpoint(
            "embedded", self.host, self.tcp_port, self.ws_port, self.settings.credentials
        )

    def stop(self, timeout: float = 10.0) -> None:
        """Close every connection and the listeners; wait for the thread to end."""
        if self._loop is not None and self._stop is not None and self._thread.is_alive():
            with contextlib.suppress(RuntimeError):  # the loop may have closed already
                self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(timeout)
        if self._thread.is_alive():
            raise TimeoutError("the embedded broker did not stop in time")

    def __enter__(self) -> EmbeddedBroker:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


def start_embedded_broker(
    credentials: ServiceCredentials,
    *,
    tcp: Address | str | None = "127.0.0.1:1883",
    ws: Address | str | None = None,
    data_dir: Path | None = None,
    timeout: float = 10.0,
    ws_certificate: tuple[Path, Path] | None = None,
    limits: BrokerLimits | None = None,
) -> EmbeddedBroker:
    """Start an embedded broker in a background thread; returns once it listens."""
    settings = BrokerSettings(
        credentials=credentials,
        tcp=Address.parse(tcp) if isinstance(tcp, str) else tcp,
        ws=Address.parse(ws) if isinstance(ws, str) else ws,
        data_dir=data_dir,
        ws_certificate=ws_certificate,
        limits=limits or BrokerLimits(),
    )
    return EmbeddedBroker(settings, timeout)
