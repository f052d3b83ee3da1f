"""The bots service: plays every seat the tables service marks as a bot, and the seats of
players away mid-game (a stand-in bot, until the phone is back).

It learns which seats to play from the public table views, then follows each such seat's
own view (and nothing else of that table) and answers with intents like a phone would.
Each seat gets a player of its level (``services.bots.players``), which observes every
view of that seat, in order.
"""

from __future__ import annotations

import logging
import threading
import uuid
from dataclasses import dataclass
from typing import Any, Self

from protocol import topics
from protocol.messages import ProtocolError, act_intent, encode
from services.bots.players import DEFAULT_LEVEL, Player, make_player
from services.delivery import Deliveries
from services.mqtt import BrokerUrl, MqttClient
from services.wire import decode

log = logging.getLogger("gamenight.bots")
ALL_TABLE_VIEWS = f"{topics.BASE}/table/+/view"


@dataclass
class _TableInfo:
    paused: bool = False
    playing: bool = False
    game: str = ""


@dataclass
class _Seat:
    """A seat this service plays: at which level, and the player that follows it."""

    level: str
    stand_in: bool
    player: Player | None = None
    game: str = ""


class BotsRunner:
    """Follows bot seats and plays them after a short, human-looking pause."""

    def __init__(self, broker: str | BrokerUrl, think_seconds: float = 0.8) -> None:
        self.url = broker if isinstance(broker, BrokerUrl) else BrokerUrl.parse(broker)
        self.think_seconds = think_seconds
        self.client = MqttClient(self.url, service="bots")
        self.deliveries = Deliveries(self.client)  # each move kept until answered
        self._lock = threading.Lock()
        self._tables: dict[str, _TableInfo] = {}
        self._followed: dict[tuple[str, int], _Seat] = {}
        self._acted: dict[tuple[str, int], tuple[int, int]] = {}
        self._timers: set[threading.Timer] = set()
        self._stopped = False

    def start(self, timeout: float = 10.0) -> Self:
        self.client.subscribe(ALL_TABLE_VIEWS, self._on_table_view, qos=1)
        self.client.add_connected_hook(self._sync_all)
        self.client.start()
        self.client.wait_connected(timeout)
        return self

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            timers = list(self._timers)
        for timer in timers:
            timer.cancel()
        self.deliveries.stop()
        self.client.stop()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _on_table_view(self, topic: str, payload: bytes) -> None:
        try:
            view = decode("table_view", payload, limit=1 << 20)
        except ProtocolError:
            return
        code = str(view["table"])
        info = self._tables.setdefault(code, _TableInfo())
        info.paused, info.playing = bool(view["paused"]), view["status"] == "playing"
        info.game = str(view["game"])
        away = view.get("away") or {}
        for player in view["players"]:
            key = (code, int(player["seat"]))
            stand_in = bool(player.get("stand_in"))
            ours = bool(player["bot"]) or stand_in
            level = str(player.get("level") or away.get("level") or DEFAULT_LEVEL)
            followed = self._followed.get(key)
            if ours and followed is None:
                self._followed[key] = _Seat(level, stand_in)
                self.client.subscribe(
                    topics.seat_topic(code, key[1], "view"), self._on_seat_view, qos=1
                )
                self._sync(key)
            elif ours and followed is not None:
                if (followed.level, followed.stand_in) != (level, stand_in):
                    self._followed[key] = _Seat(level, stand_in)  # a new player, at its level
            elif not ours and followed is not None:
                del self._followed[key]
                self.client.unsubscribe(topics.seat_topic(code, key[1], "view"))

    def _sync(self, key: tuple[str, int]) -> None:
        """Ask for the seat's view now: views are not retained on every broker (NATS)."""
        intent = {"v": 1, "id": uuid.uuid4().hex[:16], "op": "sync"}
        self.client.publish(topics.seat_topic(key[0], key[1], "intent"), encode("intent", intent))

    def _sync_all(self) -> None:
        """On each (re)connection: a fresh view of every seat we play."""
        for key in list(self._followed):
            self._sync(key)

    def _on_seat_view(self, topic: str, payload: bytes) -> None:
        try:
            view = decode("seat_view", payload, limit=1 << 20)
        except ProtocolError:
            return
        code, seat = str(view["table"]), int(view["seat"])
        state: dict[str, Any] | None = view["state"]
        info = self._tables.get(code)
        followed = self._followed.get((code, seat))
        if state is None or info is None or followed is None:
            return
        signer = (view.get("stand_in") or {}).get("player") if followed.stand_in else None
        if followed.stand_in and signer is None:
            return  # the player is back (or this view is older than the stand-in)
        player = self._player(followed, str(state.get("game", info.game)), code, seat)
        player.observe(state)
        if info.paused or state.get("current_seat") != seat or "player" not in view:
            return
        if not state.get("legal_actions"):
            return
        stamp = (int(view["epoch"]), int(view["seq"]))
        self.deliveries.seen_view(topic, stamp[1])
        if self._acted.get((code, seat), (-1, -1)) >= stamp:
            return  # already answered this view (or a newer one)
        action = player.choose(state)
        self._acted[(code, seat)] = stamp
        intent = act_intent(uuid.uuid4().hex[:16], stamp[1], signer or view["player"], action)
        self._later(topics.seat_topic(code, seat, "intent"), intent)

    @staticmethod
    def _player(followed: _Seat, game: str, code: str, seat: int) -> Player:
        if followed.player is None or followed.game != game:
            followed.player = make_player(game, followed.level, f"{code}:{seat}:{uuid.uuid4()}")
            followed.game = game
        return followed.player

    def _later(self, topic: str, intent: dict[str, Any]) -> None:
        if self.think_seconds <= 0:
            self.deliveries.send(topic, intent)
            return

        def send() -> None:
            with self._lock:
                self._timers.discard(timer)
                if self._stopped:
                    return
            self.deliveries.send(topic, intent)

        timer = threading.Timer(self.think_seconds, send)
        timer.daemon = True
        with self._lock:
            if self._stopped:
                return
            self._timers.add(timer)
        timer.start()
