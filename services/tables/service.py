"""The table authority: turns intents into log entries, and log entries into views.

``TablesService.handle(topic, payload)`` is the whole behaviour and knows nothing of
MQTT clients: it is given a ``publish`` function and an ``Accounts`` provisioner, so the
same code runs under the real broker and in plain unit tests. It is called from a
single worker thread; nothing here is shared between threads.
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from engine.registry import game_rules
from protocol import topics
from protocol.messages import MAX_PAYLOAD, ProtocolError
from protocol.topics import Grants
from services.tables import credentials
from services.tables.store import LeaseLostError, Store
from services.tables.table import SeatInfo, Table, TableError
from services.tables.views import events_message, seat_view, table_view
from services.wire import decode, encode

log = logging.getLogger("gamenight.tables")

Publish = Callable[[str, bytes, bool], None]
# Each host op becomes an entry of the same kind, carrying only these parameters: the
# rest (a seed, a seat to act for...) is never the sender's to choose.
HOST_OP_PARAMS: dict[str, tuple[str, ...]] = {
    "set_game": ("game", "options"),
    "set_options": ("options",),
    "kick": ("seat",),
    "start": (),
    "next_round": (),
    "lock": (),
    "unlock": (),
    "pause": (),
    "resume": (),
    "end_session": (),
    "rematch": (),
}
REMEMBERED_INTENTS = 512
UNKNOWN_ID = "-"


class Accounts(Protocol):
    """Creates and removes broker accounts (embedded broker or Mosquitto alike)."""

    def provision(
        self, username: str, password: str, grants: Grants, client_id: str | None = None
    ) -> None: ...

    def revoke(self, username: str) -> None: ...


class TablesService:
    """Owns tables, applies entries, publishes views and replies."""

    def __init__(
        self,
        store: Store,
        publish: Publish,
        accounts: Accounts,
        owner: str,
        check_messages: bool = False,
        flush: Callable[[], None] = lambda: None,
    ) -> None:
        self.store = store
        self.publish = publish
        self.flush = flush  # sends what was published so far, from inside a handler
        self.accounts = accounts
        self.owner = owner
        # Off in production (the hot path); the tests turn it on to hold us to the schemas.
        self.check_messages = check_messages
        self.tables: dict[str, Table] = {}
        self.answered: dict[str, OrderedDict[tuple[int, str], dict[str, Any]]] = {}

    # ------------------------------------------------------------------ start
    def restore(self) -> None:
        """Take every open table and rebuild it from its log (``publish_all`` shows them)."""
        for code, epoch in self.store.claim_open_tables(self.owner).items():
            self._rebuild(code, epoch)
        log.info("restored %d tables", len(self.tables))

    def publish_all(self) -> None:
        """Every view of every table: on each connection to the broker."""
        for table in self.tables.values():
            self.publish_views(table)

    def _rebuild(self, code: str, epoch: int) -> Table:
        table = Table(code=code, epoch=epoch)
        answered: OrderedDict[tuple[int, str], dict[str, Any]] = OrderedDict()
        for entry in self.store.entries(code):
            table.apply(entry)
            if entry["kind"] == "act" and entry.get("intent_id"):
                key = (int(entry["seat"]), str(entry["intent_id"]))
                answered[key] = self._ok(str(entry["intent_id"]), table.seq)
                _trim(answered)
        self.tables[code] = table
        self.answered[code] = answered
        return table

    # ------------------------------------------------------------------ dispatch
    def handle(self, topic: str, payload: bytes) -> None:
        """Handle one message; bad input is answered (where a sender is known) and dropped."""
        parsed = topics.parse_topic(topic)
        if parsed is None:
            return
        try:
            if parsed.area == "seat" and parsed.name == "intent":
                assert parsed.table is not None and parsed.seat is not None
                self._seat_intent(parsed.table, parsed.seat, payload)
            elif parsed.area == "seat" and parsed.name == "presence":
                assert parsed.table is not None and parsed.seat is not None
                self._presence(parsed.table, parsed.seat, payload)
            elif parsed.area == "host" and parsed.name == "intent":
                assert parsed.table is not None
                self._host_intent(parsed.table, payload)
            elif parsed.area == "lobby" and parsed.name == "request":
                assert parsed.op is not None
                self._lobby(parsed.op, payload)
        except Exception:  # the authority must outlive any one bad message
            log.exception("failed on %s", topic)

    # ------------------------------------------------------------------ seats
    def _seat_intent(self, code: str, seat: int, payload: bytes) -> None:
        reply_topic = topics.seat_topic(code, seat, "reply")
        try:
            intent = decode("intent", payload)
        except ProtocolError as error:
            self._reply(reply_topic, _error(_id_of(payload, error), error.code, error.params))
            return
        intent_id = str(intent["id"])
        table = self.tables.get(code)
        if table is None:
            self._reply(reply_topic, _error(intent_id, "unknown_table", {"table": code}))
            return
        if intent["op"] == "sync":
            self._publish_seat(table, seat)
            self._reply(reply_topic, self._ok(intent_id, table.seq))
            return
        answered = self.answered[code]
        earlier = answered.get((seat, intent_id))
        if earlier is not None:  # a redelivery: answer again, never apply twice
            self._reply(reply_topic, earlier)
            return
        info = table.seats.get(seat)
        if info is None or info.player_id != intent["player"]:
            self._reply(reply_topic, _error(intent_id, "not_your_seat", {"seat": seat}))
            return
        if intent["seq"] != table.seq:
            params = {"seq": intent["seq"], "current": table.seq}
            self._reply(reply_topic, _error(intent_id, "stale_seq", params))
            return
        entry = {"kind": "act", "seat": seat, "action": intent["action"], "intent_id": intent_id}
        if self._commit(table, entry, reply_topic, intent_id):
            reply = self._ok(intent_id, table.seq)
            answered[(seat, intent_id)] = reply
            _trim(answered)
            self._reply(reply_topic, reply)

    def _presence(self, code: str, seat: int, payload: bytes) -> None:
        table = self.tables.get(code)
        info = table.seats.get(seat) if table else None
        if table is None or info is None:
            return
        try:
            online = bool(decode("presence", payload)["online"])
        except ProtocolError:
            return
        if online != info.online:
            info.online = online
            self._publish_public(table)

    # ------------------------------------------------------------------ host
    def _host_intent(self, code: str, payload: bytes) -> None:
        reply_topic = topics.host_topic(code, "reply")
        try:
            intent = decode("host_intent", payload)
        except ProtocolError as error:
            self._reply(reply_topic, _error(_id_of(payload, error), error.code, error.params))
            return
        intent_id, op = str(intent["id"]), str(intent["op"])
        params: dict[str, Any] = intent.get("params") or {}
        table = self.tables.get(code)
        if table is None:
            self._reply(reply_topic, _error(intent_id, "unknown_table", {"table": code}))
            return
        player = intent.get("player")
        if player is not None and table.seat_of(str(player)) != table.host_seat():
            self._reply(reply_topic, _error(intent_id, "not_host", {}))
            return
        if op == "sync":
            self.publish_views(table)
            self._reply(reply_topic, self._ok(intent_id, table.seq))
            return
        try:
            entries = self._host_entries(table, op, params)
        except TableError as error:
            self._reply(reply_topic, _error(intent_id, error.code, error.params))
            return
        for entry in entries:
            if not self._commit(table, entry, reply_topic, intent_id):
                return
        self._reply(reply_topic, self._ok(intent_id, table.seq))

    def _host_entries(
        self, table: Table, op: str, params: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        if op == "add_bot":
            seat = table.free_seat()
            if seat is None:
                raise TableError("table_full", seats=table.max_seats)
            return [self._bot_entry(table, seat)]
        if op == "remove_bot":
            seat = params.get("seat")
            info = table.seats.get(seat) if isinstance(seat, int) else None
            if info is None or not info.bot:
                raise TableError("no_such_bot", seat=seat)
            return [{"kind": "kick", "seat": seat}]
        allowed = HOST_OP_PARAMS.get(op)
        if allowed is None:
            raise TableError("unknown_op", op=op)
        entry: dict[str, Any] = {name: params[name] for name in allowed if name in params}
        entry["kind"] = op
        entries: list[dict[str, Any]] = []
        if op in ("start", "rematch"):
            entry["seed"] = credentials.new_seed()
            if op == "start":
                # Computer players fill the empty seats, up to the game's minimum.
                entries.extend(self._fill_with_bots(table))
        if op == "kick":
            entry["bot_id"] = credentials.new_player_id("bot")
        entries.append(entry)
        return entries

    def _fill_with_bots(self, table: Table) -> list[dict[str, Any]]:
        filled = set(table.seats)
        minimum = game_rules(table.game).MIN_SEATS
        highest = max([*filled, minimum - 1])
        return [self._bot_entry(table, seat) for seat in range(highest + 1) if seat not in filled]

    def _bot_entry(self, table: Table, seat: int) -> dict[str, Any]:
        names = {info.name for info in table.seats.values()}
        number = 1
        while f"Bot {number}" in names:
            number += 1
        return {
            "kind": "join",
            "seat": seat,
            "name": f"Bot {number}",
            "bot": True,
            "player_id": credentials.new_player_id("bot"),
        }

    # ------------------------------------------------------------------ lobby
    def _lobby(self, op: str, payload: bytes) -> None:
        reply_topic = topics.lobby_response(op)
        kind = "lobby_create" if op == "create" else "lobby_join"
        try:
            request = decode(kind, payload)
        except ProtocolError as error:
            self._reply(reply_topic, _error(_id_of(payload, error), error.code, error.params))
            return
        request_id = str(request["id"])
        try:
            data = self._create(request) if op == "create" else self._join(request)
        except TableError as error:
            self._reply(reply_topic, _error(request_id, error.code, error.params))
            return
        self._reply(reply_topic, {"v": 1, "id": request_id, "status": "ok", "data": data})

    def _create(self, request: Mapping[str, Any]) -> dict[str, Any]:
        code = credentials.new_table_code()
        while code in self.tables or self.store.table_exists(code):
            code = credentials.new_table_code()
        table = Table(code=code)
        entry = {
            "kind": "create",
            "game": request.get("game", "kings-corner"),
            "options": request.get("options") or {},
        }
        table.apply(entry)  # raises before anything is stored if the game is unknown
        tv_username, tv_password = f"tv-{code.lower()}", credentials.new_token()
        # The account first: a table is stored only once its TV can log in.
        self._provision(tv_username, tv_password, topics.tv_grants(code))
        table.epoch = self.store.create_table(code, table.game, self.owner)
        self.store.append(code, table.epoch, table.seq, entry, table.status, table.game)
        self.tables[code] = table
        self.answered[code] = OrderedDict()
        self.publish_views(table)
        return {"table": code, "tv": {"username": tv_username, "password": tv_password}}

    def _join(self, request: Mapping[str, Any]) -> dict[str, Any]:
        code = str(request["table"])
        table = self.tables.get(code)
        if table is None:
            raise TableError("unknown_table", table=code)
        seat = table.free_seat()
        if seat is None:
            raise TableError("table_full", table=code, seats=table.max_seats)
        player_id, token = credentials.new_player_id(), credentials.new_token()
        username = f"u-{player_id}"
        host = table.host_seat() is None
        entry = {
            "kind": "join",
            "seat": seat,
            "player_id": player_id,
            "name": request["name"],
            "lang": request.get("lang", "en"),
            "host": host,
            "username": username,
            "token_hash": credentials.hash_token(token),
        }
        grants = topics.host_player_grants(code, seat) if host else topics.player_grants(code, seat)
        # The account first, so that a seat is only ever given with a login that works;
        # a join the table then refuses (locked, name taken...) takes the account back.
        self._provision(username, token, grants)
        try:
            committed = self._commit(table, entry, None, str(request["id"]))
        except TableError:
            self.accounts.revoke(username)
            raise
        if not committed:
            self.accounts.revoke(username)
            raise TableError("table_moved", table=code)
        return {
            "table": code,
            "seat": seat,
            "player_id": player_id,
            "username": username,
            "password": token,
            "host": host,
        }

    def _provision(self, username: str, password: str, grants: Grants) -> None:
        # Each account may connect only with its own client id (its username): on
        # Mosquitto that stops a valid login from taking over another client's session.
        try:
            self.accounts.provision(username, password, grants, client_id=username)
        except Exception as error:  # the broker is away or refused: say so, store nothing
            log.warning("could not create broker account %s: %s", username, error)
            raise TableError("accounts_unavailable") from None

    # ------------------------------------------------------------------ commit
    def _commit(
        self, table: Table, entry: dict[str, Any], reply_topic: str | None, intent_id: str
    ) -> bool:
        """Apply, log, then publish one entry; answer a refusal to ``reply_topic``."""
        before = table.seats.get(entry["seat"]) if entry["kind"] == "kick" else None
        try:
            events = table.apply(entry)
        except TableError as error:
            if reply_topic is not None:
                self._reply(reply_topic, _error(intent_id, error.code, error.params))
            else:
                raise
            return False
        try:
            self.store.append(
                table.code,
                table.epoch,
                table.seq,
                entry,
                table.status,
                table.game,
                player=_player_row(table, entry),
                result=_result_row(table, entry),
            )
        except LeaseLostError:
            # Another copy owns the table now: forget our copy, it is out of date.
            self.tables.pop(table.code, None)
            if reply_topic is not None:
                self._reply(reply_topic, _error(intent_id, "table_moved", {}))
            return False
        except sqlite3.Error:
            # Not stored, so not done: go back to what the log holds (a full disk, say).
            log.exception("could not store an entry of %s", table.code)
            self._rebuild(table.code, table.epoch)
            if reply_topic is None:
                raise TableError("storage_failed") from None
            self._reply(reply_topic, _error(intent_id, "storage_failed", {}))
            return False
        if before is not None and before.username:
            self.accounts.revoke(before.username)
            self.publish(
                topics.seat_topic(table.code, before.seat, "view"),
                self._encode("seat_view", seat_view(table, before.seat, kicked=True)),
                True,
            )
        # The public view first, and on its way at once: it is what the TV is waiting for.
        public = self._publish_public(table)
        self.flush()
        self.publish(
            topics.table_events(table.code),
            self._encode("events", events_message(table, events)),
            False,
        )
        for seat in table.seats:
            self._publish_seat(table, seat, public)
        return True

    # ------------------------------------------------------------------ output
    def publish_views(self, table: Table) -> None:
        public = self._publish_public(table)
        for seat in table.seats:
            self._publish_seat(table, seat, public)

    def _publish_public(self, table: Table) -> dict[str, Any]:
        view = table_view(table)
        self.publish(topics.table_view(table.code), self._encode("table_view", view), True)
        return view

    def _publish_seat(self, table: Table, seat: int, public: dict[str, Any] | None = None) -> None:
        if seat in table.seats:
            message = self._encode("seat_view", seat_view(table, seat, public=public))
            self.publish(topics.seat_topic(table.code, seat, "view"), message, True)

    def _reply(self, topic: str, reply: Mapping[str, Any]) -> None:
        self.publish(topic, self._encode("reply", reply), False)

    def _encode(self, kind: str, message: Mapping[str, Any]) -> bytes:
        return encode(kind, message, checked=self.check_messages)

    @staticmethod
    def _ok(intent_id: str, seq: int) -> dict[str, Any]:
        return {"v": 1, "id": intent_id, "status": "ok", "seq": seq}


def _error(intent_id: str, code: str, params: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "v": 1,
        "id": intent_id,
        "status": "error",
        "error": {"code": code, "params": dict(params)},
    }


def _id_of(payload: bytes, refusal: ProtocolError) -> str:
    """The id of a message refused as a whole, if one can be read; ``-`` otherwise.

    A payload refused for its size is never parsed: parsing is what it would cost us.
    """
    if refusal.code == "payload_too_large" or len(payload) > MAX_PAYLOAD:
        return UNKNOWN_ID
    try:
        value = json.loads(payload)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return UNKNOWN_ID
    candidate = value.get("id") if isinstance(value, dict) else None
    if isinstance(candidate, str) and re.fullmatch(r"[A-Za-z0-9_-]{1,64}", candidate):
        return candidate
    return UNKNOWN_ID


def _trim(answered: OrderedDict[tuple[int, str], dict[str, Any]]) -> None:
    while len(answered) > REMEMBERED_INTENTS:
        answered.popitem(last=False)


def _player_row(table: Table, entry: Mapping[str, Any]) -> dict[str, Any] | None:
    if entry["kind"] != "join" or entry.get("bot"):
        return None
    info: SeatInfo = table.seats[int(entry["seat"])]
    return {
        "player_id": info.player_id,
        "seat": info.seat,
        "name": info.name,
        "username": info.username,
        "token_hash": info.token_hash,
    }


def _result_row(table: Table, entry: Mapping[str, Any]) -> dict[str, Any] | None:
    """The finished game's scores, stored once: on the entry that finished it."""
    if entry["kind"] != "act" or table.status != "finished" or table.state is None:
        return None
    outcome = table.state.outcome()
    if outcome is None:
        return None
    return {"game": table.game, "outcome": outcome.to_dict()}
