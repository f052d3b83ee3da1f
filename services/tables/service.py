"""The table authority: turns intents into log entries, and log entries into views.

``TablesService.handle(topic, payload)`` is the whole behaviour and knows nothing of
MQTT clients: it is given a ``publish`` function and an ``Accounts`` provisioner, so the
same code runs under the real broker and in plain unit tests.

Threads: seat and host intents are handled in the broker client's network thread; lobby
requests in a worker of their own (the runner's), because making a broker account means
waiting for the broker. Both hold ``lock`` while they read or change tables; a join
checks its request under the lock, makes the account without it (moves go on meanwhile),
then commits under the lock again.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any, Protocol

from engine.registry import game_rules
from protocol import topics
from protocol.messages import MAX_PAYLOAD, ProtocolError
from protocol.topics import Grants
from services.bots.names import bot_name
from services.tables import credentials
from services.tables.budgets import SeatBudgets
from services.tables.handoff import SeatLinks
from services.tables.idle import idle_limit
from services.tables.store import (
    APPEND_ERRORS,
    LeaseLostError,
    StoreUnavailableError,
)
from services.tables.stores import TableStore
from services.tables.table import BOT_LEVELS, DEFAULT_BOT_LEVEL, SeatInfo, Table, TableError
from services.tables.views import PublicView, events_message, seat_view, table_view
from services.wire import decode, dumps, encode

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
    "set_bot_level": ("seat", "level"),
    "set_away": ("level", "wait"),
}
REMEMBERED_INTENTS = 512
KICK_NOTICE_SECONDS = 0.3  # how long a removed phone's login outlives its notice
UNKNOWN_ID = "-"
TABS_REMEMBERED = 8  # per seat: which tab (browser page) showed itself last
# Every move names the same few topics of its table (and parsing or building one checks
# its table code): each is worked out once. Bounded: codes come from the senders.
TOPICS_REMEMBERED = 16384
_parse_topic = lru_cache(maxsize=TOPICS_REMEMBERED)(topics.parse_topic)
_seat_topic = lru_cache(maxsize=TOPICS_REMEMBERED)(topics.seat_topic)
_table_view_topic = lru_cache(maxsize=TOPICS_REMEMBERED)(topics.table_view)
_table_events_topic = lru_cache(maxsize=TOPICS_REMEMBERED)(topics.table_events)


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
        store: TableStore,
        publish: Publish,
        accounts: Accounts,
        owner: str,
        check_messages: bool = False,
        flush: Callable[[], None] = lambda: None,
        clock: Callable[[], float] = time.monotonic,
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
        self.clock = clock
        # (table, seat) -> when that player's phone went offline (clock seconds)
        self.offline_since: dict[tuple[str, int], float] = {}
        self.lock = threading.RLock()
        self._reserved: set[str] = set()  # table codes being created
        self.last_change: dict[str, float] = {}  # table -> wall-clock time of its last entry
        # (table, seat) -> the tabs that said they were online, oldest first.
        self.tabs: dict[tuple[str, int], list[str]] = {}
        self.budgets = SeatBudgets()
        self.seat_links = SeatLinks(clock=clock)

    # ------------------------------------------------------------------ start
    def restore(self) -> None:
        """Take every open table and rebuild it from its log (``publish_all`` shows them)."""
        for code, epoch in self.store.claim_open_tables(self.owner).items():
            self._rebuild(code, epoch)
            self.last_change[code] = self.store.last_activity(code) or time.time()
        log.info("restored %d tables", len(self.tables))

    def publish_all(self) -> None:
        """Every view of every table: on each connection to the broker."""
        with self.lock:
            for table in self.tables.values():
                self.publish_views(table)

    def close_idle(self, now: float | None = None) -> list[str]:
        """Close the tables nobody uses (see ``idle_limit``); their log is kept.

        A closed table is not restored at start; its retained views are cleared and its
        broker accounts removed.
        """
        now = time.time() if now is None else now
        closed: list[Table] = []
        with self.lock:
            for code, table in list(self.tables.items()):
                limit = idle_limit(table)
                if now - self.last_change.get(code, now) <= limit:
                    continue
                try:
                    self.store.close_table(code, table.epoch)
                except APPEND_ERRORS:
                    log.warning("could not close table %s", code)
                    continue
                closed.append(self._forget(code))
                for topic in [
                    topics.table_view(code),
                    *(topics.seat_topic(code, seat, "view") for seat in table.seats),
                ]:
                    self.publish(topic, b"", True)  # an empty retained message clears it
        for table in closed:  # the broker's answers are awaited without the lock
            self._revoke(f"tv-{table.code.lower()}")
            for info in table.seats.values():
                if info.username:
                    self._revoke(info.username)
        if closed:
            log.info("closed %d idle tables", len(closed))
        return [table.code for table in closed]

    def adopt(self, code: str, epoch: int, show: bool = True) -> None:
        """Take over ``code`` at ``epoch`` (another copy had it): rebuild it (and show it)."""
        with self.lock:
            table = self._rebuild(code, epoch)
            self.last_change[code] = self.store.last_activity(code) or time.time()
            if show:
                self.publish_views(table)

    def drop(self, code: str) -> None:
        """Forget ``code``: another copy owns it now."""
        with self.lock:
            if code in self.tables:
                self._forget(code)

    def _forget(self, code: str) -> Table:
        table = self.tables.pop(code)
        self.answered.pop(code, None)
        self.last_change.pop(code, None)
        for key in [key for key in self.tabs if key[0] == code]:
            del self.tabs[key]
        for key in [key for key in self.offline_since if key[0] == code]:
            del self.offline_since[key]
        return table

    def _rebuild(self, code: str, epoch: int) -> Table:
        table = Table(code=code, epoch=epoch)
        answered: OrderedDict[tuple[int, str], dict[str, Any]] = OrderedDict()
        for entry in self.store.entries(code):
            table.apply(entry)
            if entry["kind"] == "act" and entry.get("intent_id"):
                key = (int(entry["seat"]), str(entry["intent_id"]))
                answered[key] = self._ok(str(entry["intent_id"]), table.seq)
                _trim(answered)
            elif entry.get(HOST_INTENT):
                host_id = str(entry[HOST_INTENT])
                answered[(HOST_SENDER, host_id)] = self._ok(host_id, table.seq)
                _trim(answered)
        self.tables[code] = table
        self.answered[code] = answered
        return table

    # ------------------------------------------------------------------ dispatch
    def handle(self, topic: str, payload: bytes) -> None:
        """Handle one message; bad input is answered (where a sender is known) and dropped."""
        parsed = _parse_topic(topic)
        if parsed is None:
            return
        if parsed.area == "lobby" and parsed.name == "request":
            assert parsed.op is not None
            try:
                self._lobby(parsed.op, payload)  # takes the lock itself, in phases
            except Exception:  # the authority must outlive any one bad message
                log.exception("failed on %s", topic)
            return
        seat_area = parsed.area == "seat"
        if seat_area and not self.budgets.intake_allowed(parsed.table or "", parsed.seat):
            return  # one seat's flood, dropped before any parsing: other seats go first
        with self.lock:
            self._handle_table(topic, parsed, payload)

    def _handle_table(self, topic: str, parsed: topics.Topic, payload: bytes) -> None:
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
        except Exception:  # the authority must outlive any one bad message
            log.exception("failed on %s", topic)

    # ------------------------------------------------------------------ seats
    def _seat_intent(self, code: str, seat: int, payload: bytes) -> None:
        reply_topic = _seat_topic(code, seat, "reply")
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
            if not self.budgets.sync_allowed(code, seat):
                # A flood of syncs: each would cost a view, and the view has not changed.
                params = {"retry_after": 1}
                self._reply(reply_topic, _error(intent_id, "rate_limited", params))
                return
            self._publish_seat(table, seat)
            self._reply(reply_topic, self._ok(intent_id, table.seq))
            return
        if intent["op"] == "hint":
            self._reply(reply_topic, self._hint(table, seat, intent_id))
            return
        answered = self.answered[code]
        earlier = answered.get((seat, intent_id))
        if earlier is not None:  # a redelivery: answer again, never apply twice
            self._reply(reply_topic, earlier)
            return
        info = table.seats.get(seat)
        # The seat's player, or the bot standing in while the player is away (once the
        # player is back, that bot's late intents are refused: nothing is played twice).
        signers = (info.player_id, info.stand_in) if info is not None else ()
        if info is None or intent["player"] not in signers:
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

    def restore_presence(self, topic: str, payload: bytes) -> None:
        """Presence said while another copy had the table: shown with its next views."""
        parsed = topics.parse_topic(topic)
        if parsed is not None and parsed.table is not None and parsed.seat is not None:
            with self.lock:
                self._presence(parsed.table, parsed.seat, payload, show=False)

    def _presence(self, code: str, seat: int, payload: bytes, show: bool = True) -> None:
        table = self.tables.get(code)
        info = table.seats.get(seat) if table else None
        if table is None or info is None:
            return
        try:
            presence = decode("presence", payload)
        except ProtocolError:
            return
        online = bool(presence["online"])
        tab = presence.get("tab")
        if online and isinstance(tab, str) and self._older_tab(code, seat, tab):
            return  # the seat is open in a newer tab, which keeps it
        if online:
            self.offline_since.pop((code, seat), None)
        elif info.online or (code, seat) not in self.offline_since:
            self.offline_since[(code, seat)] = self.clock()
        if online != info.online or (online and info.stand_in is not None):
            info.online = online
            if online and info.stand_in is not None:
                info.stand_in = None  # the phone takes its seat back at once
                if show:
                    self.publish_views(table)
            elif show:
                self._publish_public(table)

    # ------------------------------------------------------------------ away players
    def tick(self) -> None:
        """Hand the seats of players away too long to stand-in bots (called every second)."""
        now = self.clock()
        for code, table in self.tables.items():
            playing = table.status in ("playing", "round_over")
            changed = False
            for info in table.seats.values():
                if info.bot or info.online:
                    continue
                if not playing:
                    changed |= info.stand_in is not None
                    info.stand_in = None
                    continue
                since = self.offline_since.setdefault((code, info.seat), now)
                if info.stand_in is None and now - since >= table.away_wait:
                    info.stand_in = credentials.new_player_id("bot")
                    changed = True
            if changed:
                self.publish_views(table)

    def _hint(self, table: Table, seat: int, intent_id: str) -> dict[str, Any]:
        """The ``normal`` bot's choice for this seat, from the seat's own view."""
        from services.bots.players import hint_action  # only a hint needs the bots

        view = seat_view(table, seat)
        state = view["state"]
        action = hint_action(table.game, state) if state is not None else None
        reply = self._ok(intent_id, table.seq)
        reply["data"] = {"action": action}
        return reply

    def _older_tab(self, code: str, seat: int, tab: str) -> bool:
        """Whether ``tab`` is older than the seat's newest tab; tell the older one to step back.

        The same seat open twice (two tabs, two phones) shares one broker client id, so
        each connection takes the other's over, forever. The newest tab the service has
        heard of keeps the seat; an older one is told ``opened_elsewhere`` (its own tab id
        as the reply id) and stops reconnecting.
        """
        seen = self.tabs.setdefault((code, seat), [])
        reply_topic = topics.seat_topic(code, seat, "reply")
        if tab in seen and tab != seen[-1]:
            self._reply(reply_topic, _error(tab, "opened_elsewhere", {"seat": seat}))
            return True
        if tab not in seen:
            if seen:
                self._reply(reply_topic, _error(seen[-1], "opened_elsewhere", {"seat": seat}))
            seen.append(tab)
            del seen[:-TABS_REMEMBERED]
        return False

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
        if op == "seat_link":
            self._seat_link(table, intent_id, params, reply_topic)
            return
        answered = self.answered.setdefault(code, OrderedDict())
        earlier = answered.get((HOST_SENDER, intent_id))
        if earlier is not None:  # a host command sent again: answered again, not applied twice
            self._reply(reply_topic, earlier)
            return
        try:
            entries = self._host_entries(table, op, params)
        except TableError as error:
            self._reply(reply_topic, _error(intent_id, error.code, error.params))
            return
        # The command's id goes into the log with its last entry, so that a copy taking the
        # table over (or a rebuild) still answers a resent command rather than applying it.
        entries[-1] = {**entries[-1], HOST_INTENT: intent_id}
        for entry in entries:
            if not self._commit(table, entry, reply_topic, intent_id):
                return
        reply = self._ok(intent_id, table.seq)
        answered[(HOST_SENDER, intent_id)] = reply
        _trim(answered)
        self._reply(reply_topic, reply)

    def _seat_link(
        self, table: Table, intent_id: str, params: Mapping[str, Any], reply_topic: str
    ) -> None:
        """A one-time link to an offline seat, for the host's eyes only (its reply)."""
        seat = params.get("seat")
        try:
            token = self.seat_links.issue(table, seat)
        except TableError as error:
            self._reply(reply_topic, _error(intent_id, error.code, error.params))
            return
        data = {"seat": seat, "token": token, "minutes": int(self.seat_links.seconds // 60)}
        self._reply(reply_topic, {**self._ok(intent_id, table.seq), "data": data})

    def _host_entries(
        self, table: Table, op: str, params: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        if op == "add_bot":
            seat = table.free_seat()
            if seat is None:
                raise TableError("table_full", seats=table.max_seats)
            level = params.get("level", DEFAULT_BOT_LEVEL)
            if level not in BOT_LEVELS:
                raise TableError("unknown_level", level=level)
            return [self._bot_entry(table, seat, str(level))]
        if op == "remove_bot":
            seat = params.get("seat")
            info = table.seats.get(seat) if isinstance(seat, int) else None
            if info is None or not info.bot:
                raise TableError("no_such_bot", seat=seat)
            if table.status != "lobby":
                # Mid-game a bot holds cards the game needs: it leaves between games.
                raise TableError("bot_in_game", seat=seat, status=table.status)
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
            entry["bot_name"] = self._bot_name(table)
        entries.append(entry)
        return entries

    def _fill_with_bots(self, table: Table) -> list[dict[str, Any]]:
        filled = set(table.seats)
        minimum = game_rules(table.game).MIN_SEATS
        highest = max([*filled, minimum - 1])
        return [self._bot_entry(table, seat) for seat in range(highest + 1) if seat not in filled]

    def _bot_entry(self, table: Table, seat: int, level: str = DEFAULT_BOT_LEVEL) -> dict[str, Any]:
        return {
            "kind": "join",
            "seat": seat,
            "name": self._bot_name(table),
            "bot": True,
            "level": level,
            "player_id": credentials.new_player_id("bot"),
        }

    @staticmethod
    def _bot_name(table: Table) -> str:
        """A friendly name in the table's language (the host's)."""
        seat = table.host_seat()
        lang = table.seats[seat].lang if seat is not None else "en"
        return bot_name(lang, (info.name for info in table.seats.values()))

    # ------------------------------------------------------------------ lobby
    def _lobby(self, op: str, payload: bytes) -> None:
        reply_topic = topics.lobby_response(op)
        kind = f"lobby_{op}"
        try:
            request = decode(kind, payload)
        except ProtocolError as error:
            self._reply(reply_topic, _error(_id_of(payload, error), error.code, error.params))
            return
        request_id = str(request["id"])
        handler = {"create": self._create, "join": self._join, "claim": self._claim}[op]
        try:
            data = handler(request)
        except TableError as error:
            self._reply(reply_topic, _error(request_id, error.code, error.params))
            return
        self._reply(reply_topic, {"v": 1, "id": request_id, "status": "ok", "data": data})

    def _create(self, request: Mapping[str, Any]) -> dict[str, Any]:
        table = Table(code="")
        entry = {
            "kind": "create",
            "game": request.get("game", "kings-corner"),
            "options": request.get("options") or {},
        }
        table.apply(entry)  # raises before anything is made if the game is unknown
        with self.lock:
            code = self._new_code()
        table.code = code
        tv_username, tv_password = f"tv-{code.lower()}", credentials.new_token()
        # The account first (without the lock): a table is stored only once its TV can log in.
        try:
            self._provision(tv_username, tv_password, topics.tv_grants(code))
        except TableError:
            with self.lock:
                self._reserved.discard(code)
            raise
        with self.lock:
            self._reserved.discard(code)
            table.epoch = self.store.create_table(code, table.game, self.owner)
            self.store.append(code, table.epoch, table.seq, entry, table.status, table.game)
            self.tables[code] = table
            self.answered[code] = OrderedDict()
            self.last_change[code] = time.time()
            self.publish_views(table)
        return {"table": code, "tv": {"username": tv_username, "password": tv_password}}

    def _new_code(self) -> str:
        code = credentials.new_table_code()
        while code in self.tables or code in self._reserved or self.store.table_exists(code):
            code = credentials.new_table_code()
        self._reserved.add(code)  # held while its TV account is made
        return code

    def _join(self, request: Mapping[str, Any]) -> dict[str, Any]:
        code = str(request["table"])
        player_id, token = credentials.new_player_id(), credentials.new_token()
        username = f"u-{player_id}"
        with self.lock:
            table = self.tables.get(code)
            if table is None:
                raise TableError("unknown_table", table=code)
            seat = table.seat_for_join(str(request["name"]))
            if seat is None:
                raise TableError("table_full", table=code, seats=table.max_seats)
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
            # Refused here (a name taken, a locked table...) before any account is made.
            _dry_run(table, entry)
        grants = topics.host_player_grants(code, seat) if host else topics.player_grants(code, seat)
        # The account first (without the lock, so moves go on), so that a seat is only
        # ever given with a login that works; a join refused meanwhile takes it back.
        self._provision(username, token, grants)
        self._commit_lobby(code, entry, str(request["id"]), username)
        return {
            "table": code,
            "seat": seat,
            "player_id": player_id,
            "username": username,
            "password": token,
            "host": host,
        }

    def _claim(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """A new phone takes an offline seat with the host's one-time seat link."""
        code, seat = str(request["table"]), int(request["seat"])
        player_id, token = credentials.new_player_id(), credentials.new_token()
        username = f"u-{player_id}"
        with self.lock:
            table = self.tables.get(code)
            if table is None:
                raise TableError("unknown_table", table=code)
            self.seat_links.redeem(table, seat, str(request["token"]))
            old = table.seats[seat]
            host, old_username = old.host, old.username
            entry = {
                "kind": "reseat",
                "seat": seat,
                "player_id": player_id,
                "username": username,
                "token_hash": credentials.hash_token(token),
                "lang": request.get("lang", old.lang),
            }
        grants = topics.host_player_grants(code, seat) if host else topics.player_grants(code, seat)
        self._provision(username, token, grants)
        self._commit_lobby(code, entry, str(request["id"]), username)
        if old_username:
            self._revoke(old_username)  # the lost phone's login opens nothing now
        return {
            "table": code,
            "seat": seat,
            "player_id": player_id,
            "username": username,
            "password": token,
            "host": host,
        }

    def _commit_lobby(
        self, code: str, entry: dict[str, Any], request_id: str, username: str
    ) -> None:
        """Commit a join or reseat checked before ``username``'s account was made.

        The table is looked up again: while the lock was free it may have been rebuilt
        at a new epoch (our lease keeper claimed it again after late heartbeats), and
        the entry goes to that table, checked again, not to the stale one.
        """
        try:
            with self.lock:
                table = self.tables.get(code)
                if table is None:
                    raise TableError("table_moved", table=code)
                committed = self._commit(table, entry, None, request_id)
        except TableError:  # refused meanwhile (the seat taken, say), or not stored
            self._revoke(username)
            raise
        if not committed:
            self._revoke(username)
            raise TableError("table_moved", table=code)

    def _revoke(self, username: str) -> None:
        try:
            self.accounts.revoke(username)
        except Exception as error:  # the broker is away: the account has no seat anyway
            log.warning("could not remove broker account %s: %s", username, error)

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
        except LeaseLostError as error:
            # Another copy owns the table now: forget our copy, it is out of date. On NATS
            # (moved on) the sender's resend reaches the new owner: no answer from us.
            if self.tables.get(table.code) is table:  # not a newer copy rebuilt meanwhile
                self._forget(table.code)
            if reply_topic is not None and not isinstance(error, StoreUnavailableError):
                self._reply(reply_topic, _error(intent_id, "table_moved", {}))
            return False
        except Exception as error:
            # Not stored (a full disk), or not known to be (NATS did not answer), or any
            # failure we did not foresee: go back to what the log holds, never keep an
            # entry applied that the log may not have. If the log cannot be read either,
            # forget the table (its lease keeper takes it up again).
            log.exception("could not store an entry of %s", table.code)
            try:
                self._rebuild(table.code, table.epoch)
            except Exception:
                self._forget(table.code)
            if isinstance(error, StoreUnavailableError) and reply_topic is not None:
                return False  # no answer: the sender resends, and is answered from the log
            if reply_topic is None:
                raise TableError("storage_failed") from None
            self._reply(reply_topic, _error(intent_id, "storage_failed", {}))
            return False
        self.last_change[table.code] = time.time()
        if before is not None and before.username:
            # The phone is told first that the host removed it; then its login goes,
            # which closes its connection. Closing it at once can beat the notice to the
            # phone (it comes through another connection of ours): a moment is left for
            # it to arrive. Nothing else is published meanwhile, so the seat's next view
            # (the stand-in's hand) never reaches the removed phone.
            self.publish(
                topics.seat_topic(table.code, before.seat, "view"),
                self._encode("seat_view", seat_view(table, before.seat, kicked=True)),
                True,
            )
            self.flush()
            time.sleep(KICK_NOTICE_SECONDS)
            self.accounts.revoke(before.username)
        # The public view first, and on its way at once: it is what the TV is waiting for.
        public = self._publish_public(table)
        self.flush()
        self.publish(
            _table_events_topic(table.code),
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

    def _publish_public(self, table: Table) -> PublicView:
        view = table_view(table)
        if self.check_messages:
            encode("table_view", view)  # the schema check; the bytes are made below
        public = PublicView(view)
        self.publish(_table_view_topic(table.code), public.encoded(), True)
        return public

    def _publish_seat(self, table: Table, seat: int, public: PublicView | None = None) -> None:
        if seat not in table.seats:
            return
        if public is None:  # one seat alone (a sync): its state is built on its own
            message = self._encode("seat_view", seat_view(table, seat))
        else:
            if self.check_messages:
                encode("seat_view", seat_view(table, seat, public=public.view))
            message = dumps(seat_view(table, seat, public=public.view, merge=public.merge))
        self.publish(_seat_topic(table.code, seat, "view"), message, True)

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


def _dry_run(table: Table, entry: Mapping[str, Any]) -> None:
    """Raise the ``TableError`` that applying ``entry`` would raise; change nothing.

    A join changes only the seats (and the count): the copy has seats of its own and
    shares the rest (game states are never changed in place).
    """
    dataclasses.replace(table, seats=dict(table.seats)).apply(entry)


HOST_SENDER = -1  # host commands' ids are remembered apart from every seat's
HOST_INTENT = "host_intent"  # the key of a host command's id in its last log entry


def _trim(answered: OrderedDict[tuple[int, str], dict[str, Any]]) -> None:
    while len(answered) > REMEMBERED_INTENTS:
        answered.popitem(last=False)


def _player_row(table: Table, entry: Mapping[str, Any]) -> dict[str, Any] | None:
    if entry["kind"] not in ("join", "reseat") or entry.get("bot"):
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
