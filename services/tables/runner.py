"""Runs the tables service against a broker: one MQTT session, handled in paho's thread.

Seat and host intents are handled in paho's network thread, inside ``on_message``. paho
acknowledges a QoS 1 message only after that callback returns, so an intent is
acknowledged after its entry is committed. Brokers can still lose a message in flight to
us, so senders resend each intent, same id, until answered (``services.delivery``):
answered again, never applied twice. Lobby requests (joins, new tables) wait for the
broker to make an account: they are handled in a worker thread of their own, over a
second connection, so that a flood of joins never stalls the moves of other tables
(a lost lobby request times out at the web service, which says so). The same worker
closes idle tables once a minute.

Views are retained and published at QoS 0: each one replaces the last, so a view lost to
a dropped connection is made good by the next, and every view of every table is published
again on each (re)connection. That spares the broker and us an acknowledgement for each
view (one a seat, plus the public one, every move). Replies and events stay at QoS 1:
they are not replaced.

Where views are not retained (NATS), a view lost on its way (QoS 0: a node restarting
drops some) would leave a screen behind until the table next changes, which at a quiet
table may be minutes. So each view is sent once more after ``SETTLE_SECONDS`` without a
newer one on its topic: a screen is never behind for longer than about two seconds.

On NATS, QoS 1 costs a replicated write: the broker stores every QoS 1 publish in a
replicated stream first, and a QoS 1 subscription is a JetStream consumer, acknowledged
per message, that each such publish goes through. So there replies are sent, and intents
and presence listened to, at QoS 0 (``move_qos``; 300 tables: the
broker's CPU per move 3.7 -> 2.5 ms, p99 23-32 -> 13 ms, DEVELOPERS.md). What that can
lose, its sender sends again: an unanswered intent (``services.delivery``, ``net.js``),
answered again and never applied twice, and presence, retained, on each subscription.
The service's "online" status tells the senders ``intent_qos`` (its ``move_qos``), so on
NATS they send intents at QoS 0 too: the broker's store of each, its largest cost left.
"""

from __future__ import annotations

import gc
import logging
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Self

from protocol import topics
from services.broker.limits import raise_open_file_limit
from services.heap import HeapKeeper
from services.mqtt import BrokerUrl, MqttClient
from services.tables.copies import (
    AccountsKind,
    SharedCopy,
    default_accounts,
    open_accounts,
    open_store,
)
from services.tables.jetstream import JetStreamStore
from services.tables.service import Accounts, TablesService
from services.tables.sharing import LOBBY_FALLBACK_SECONDS
from services.tables.stores import TableStore

log = logging.getLogger("gamenight.tables")

CLIENT_ID = "gamenight-tables"
TICK_SECONDS = 1.0  # how often away players are checked (stand-in bots, see the service)
SETTLE_SECONDS = 1.0  # an unretained view unchanged this long is sent once more
SUBSCRIPTIONS = (
    topics.ALL_SEAT_INTENTS,
    topics.ALL_HOST_INTENTS,
    topics.ALL_SEAT_PRESENCE,
    topics.ALL_LOBBY_REQUESTS,
)
SWEEP_EVERY = 60.0  # seconds between looks for idle tables
LOBBY_QUEUE = 256  # lobby requests waiting for the worker; more are dropped (they time out)
_STOP = ("", b"")


def _player_intent(topic: str) -> bool:
    """Intents are never retained: one left by a player is cleared (Mosquitto keeps it)."""
    return topic.endswith("/intent")


class TablesRunner:
    """The tables service wired to a broker; ``start()`` returns once it serves."""

    def __init__(
        self,
        broker: str | BrokerUrl,
        data: str | Path,
        owner: str = CLIENT_ID,
        check_messages: bool = False,
        clock: Callable[[], float] = time.monotonic,
        store: str | None = None,
        accounts: AccountsKind | None = None,
        secret_file: Path | None = None,
        retain_views: bool | None = None,
    ) -> None:
        self.clock = clock  # the service's clock (away players' waits); tests pass their own
        self.url = broker if isinstance(broker, BrokerUrl) else BrokerUrl.parse(broker)
        self.data = Path(data)
        self.owner = owner
        self.check_messages = check_messages
        self.store_spec = store  # None: the SQLite file ``data``
        self.accounts_kind = accounts  # None: where the store is (see ``default_accounts``)
        self.secret_file = secret_file
        # None: retained, except on NATS (there a retained message is a replicated
        # JetStream write each; clients ask for a fresh view on every connection anyway).
        self.retain_views = retain_views
        # Replies, intents and presence at QoS 1, except on NATS (see the module docstring).
        self.move_qos = 1
        self.store: TableStore | None = None
        self.accounts: Accounts | None = None
        self._close_accounts: Callable[[], None] = lambda: None
        self.shared: SharedCopy | None = None  # several copies on a NATS cluster
        self._deferred: list[tuple[float, tuple[str, bytes]]] = []  # lobby: (due, request)
        self.client: MqttClient | None = None
        self.service: TablesService | None = None
        self._lobby_queue: queue.Queue[tuple[str, bytes]] = queue.Queue(LOBBY_QUEUE)
        self._worker: threading.Thread | None = None
        # The service is single-threaded: messages and the clock's ticks take turns.
        self._serving: threading.Lock | threading.RLock = threading.Lock()
        self._ticking = threading.Event()
        self._ticker: threading.Thread | None = None
        # Unretained views to send once more: topic -> (when last sent, payload), oldest first.
        self._unsettled: dict[str, tuple[float, bytes]] = {}
        self._unsettled_lock = threading.Lock()  # views are published from several threads

    def start(self, timeout: float = 10.0) -> Self:
        raise_open_file_limit()
        self.store = open_store(self.store_spec or self.data, self.owner, self.url)
        on_nats = isinstance(self.store, JetStreamStore)
        if self.retain_views is None:
            self.retain_views = not on_nats
        self.move_qos = 0 if on_nats else 1
        kind = self.accounts_kind or default_accounts(self.store)
        self.accounts, self._close_accounts = open_accounts(
            kind, self.url, self.store, timeout, self.secret_file
        )
        # A persistent session: intents sent while we were down wait in the broker (at QoS 1;
        # on NATS their senders' resends bring them).
        self.client = MqttClient(
            self.url,
            client_id=self.owner,
            persistent=True,
            service="tables",
            on_connected=self._republish,
            clear_retained=_player_intent,
            # Two QoS 1 messages a move (reply, events): under load more than paho's
            # default 20 await their PUBACKs, and it would hold the next replies back.
            max_inflight=0,
        )
        # Senders publish intents at the QoS told here (``services.delivery``, the pages).
        self.client.status_details = {"intent_qos": self.move_qos}
        self.service = TablesService(
            self.store,
            self._publish,
            self.accounts,
            self.owner,
            self.check_messages,
            flush=self.client.flush,
            clock=self.clock,
        )
        # One lock for messages, the clock's ticks and the lobby worker's phases.
        self._serving = self.service.lock
        if isinstance(self.store, JetStreamStore):
            self.shared = SharedCopy(self.store, self.service, self._say_online)
            self.shared.before_restore()
        # Rebuild before connecting: intents queued in the broker arrive as soon as we
        # connect, and must find their tables. Their views go out once connected.
        self.service.restore()
        # What was rebuilt lives as long as the service: keep it out of the collector's
        # way, so that collections (a source of latency spikes) only walk new objects.
        gc.collect()
        gc.freeze()
        self._worker = threading.Thread(target=self._lobby_worker, name="lobby", daemon=True)
        self._worker.start()
        for topic_filter in SUBSCRIPTIONS:
            lobby = topic_filter == topics.ALL_LOBBY_REQUESTS
            handler = self._queue_lobby if lobby else self._handle
            self.client.subscribe(topic_filter, handler, qos=1 if lobby else self.move_qos)
        self.client.start()
        self.client.wait_connected(timeout)
        self._ticker = threading.Thread(target=self._tick_loop, name="tables-tick", daemon=True)
        self._ticker.start()
        if self.shared is not None:
            self.shared.start()
        log.info("tables service ready on %s", self.url)
        return self

    def _tick_loop(self) -> None:
        heap = HeapKeeper()
        while not self._ticking.wait(TICK_SECONDS):
            assert self.service is not None
            heap.tick()  # long-lived objects out of the collector's full passes
            if self.shared is not None and not self.shared.keeper.leases.valid():
                continue  # as in ``_republish``: no views of tables that may be gone
            with self._serving:
                try:
                    self.service.tick()
                    self._send_settled_views()
                except Exception:  # the clock must outlive any one bad table
                    log.exception("tick failed")

    def _send_settled_views(self) -> None:
        """Each unretained view unchanged for ``SETTLE_SECONDS``, once more (under the lock)."""
        assert self.client is not None and self.service is not None
        due, settled = time.monotonic() - SETTLE_SECONDS, []
        with self._unsettled_lock:
            while self._unsettled:
                topic, (sent, payload) = next(iter(self._unsettled.items()))
                if sent > due:
                    break
                del self._unsettled[topic]
                settled.append((topic, payload))
        for topic, payload in settled:
            parsed = topics.parse_topic(topic)
            if parsed is not None and parsed.table in self.service.tables:  # still ours
                self.client.publish(topic, payload, qos=0, retain=False)

    def _publish(self, topic: str, payload: bytes, retain: bool) -> None:
        """Views (``retain``) at QoS 0, retained unless ``retain_views`` is off; replies at
        ``move_qos``; the rest QoS 1."""
        assert self.client is not None
        if retain and not self.retain_views:
            if payload:  # an empty payload only clears a retained view: nothing to clear
                self.client.publish(topic, payload, qos=0, retain=False)
                with self._unsettled_lock:
                    self._unsettled.pop(topic, None)  # newest last
                    self._unsettled[topic] = (time.monotonic(), payload)
            return
        reply = topic.endswith("/reply")
        qos = 0 if retain else (self.move_qos if reply else 1)
        self.client.publish(topic, payload, qos=qos, retain=retain)

    def _republish(self) -> None:
        assert self.service is not None
        if self.shared is not None and not self.shared.keeper.leases.valid():
            return  # late heartbeats: the keeper first checks which tables are still ours
        with self._serving:
            self.service.publish_all()  # in paho's network thread, like every handler

    def _say_online(self) -> None:
        """Tables taken over: "online" again (a dead copy's will said offline); senders resend."""
        assert self.client is not None
        self.client.publish(topics.service_status("tables"), self.client.online_status(), 1, True)

    def _handle(self, topic: str, payload: bytes) -> None:
        assert self.service is not None
        held: str | None = None  # the table this copy served when the message came
        if self.shared is not None:
            parsed = topics.parse_topic(topic)
            sharing = self.shared.sharing
            if parsed is not None and parsed.table in self.service.tables:
                held = parsed.table
            if parsed is None or not sharing.table_message(parsed.table or ""):
                if parsed is not None and parsed.name == "presence":
                    sharing.remember_presence(topic, payload)
                return  # another copy's table: its owner answers
        with self._serving:
            if held is not None and held not in self.service.tables:
                # Given up while this message waited for the lock (a takeover): the new
                # owner answers its resend. Answering here would say "unknown table".
                assert self.shared is not None
                if topic.endswith("/presence"):
                    self.shared.sharing.remember_presence(topic, payload)
                return
            self.service.handle(topic, payload)  # paho's network thread (the tick: its own)

    def _queue_lobby(self, topic: str, payload: bytes) -> None:
        try:
            self._lobby_queue.put_nowait((topic, payload))
        except queue.Full:
            log.warning("lobby requests are piling up: one dropped")

    def _lobby_worker(self) -> None:
        assert self.service is not None
        next_sweep = time.monotonic() + SWEEP_EVERY
        while True:
            wait = SWEEP_EVERY
            if self._deferred:
                wait = max(0.0, min(wait, self._deferred[0][0] - time.monotonic()))
            try:
                item: tuple[str, bytes] | None = self._lobby_queue.get(timeout=wait)
            except queue.Empty:
                item = None
            if item == _STOP:
                return
            if item is not None:
                self._lobby(item)
            while self._deferred and self._deferred[0][0] <= time.monotonic():
                self._lobby(self._deferred.pop(0)[1], deferred=True)
            if time.monotonic() >= next_sweep:
                next_sweep = time.monotonic() + SWEEP_EVERY
                try:
                    self.service.close_idle()
                except Exception:  # the sweep must not end the worker
                    log.exception("closing idle tables failed")

    def _lobby(self, item: tuple[str, bytes], deferred: bool = False) -> None:
        """Handle one lobby request, if it is this copy's (see ``services.tables.sharing``)."""
        assert self.service is not None
        if self.shared is None:
            self.service.handle(*item)
            return
        topic, payload = item
        op = topic.rsplit("/", 1)[-1]
        sharing = self.shared.sharing
        try:
            choice = "now" if deferred else sharing.lobby_choice(op, payload)
            if choice == "later":
                self._deferred.append((time.monotonic() + LOBBY_FALLBACK_SECONDS, item))
                return
            if choice == "skip" or not sharing.first(op, payload):
                return
        except Exception:  # NATS away: the request times out at the web service
            log.exception("could not share out a lobby request")
            return
        self.service.handle(topic, payload)

    def stop(self) -> None:
        if self.shared is not None:
            self.shared.stop()
        if self._worker is not None:
            self._lobby_queue.put(_STOP)
            self._worker.join(5)
            self._worker = None
        self._ticking.set()
        if self._ticker is not None:
            self._ticker.join(timeout=5)
        if self.client is not None:
            self.client.stop()
        self._close_accounts()
        if self.store is not None:
            self.store.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
