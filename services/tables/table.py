"""One table: its seats, lobby settings and game, changed only by log entries.

Every change is an *entry* (a small JSON-ready dict with a ``kind``). ``Table.apply``
validates an entry and either raises ``TableError`` with nothing changed, or applies it
whole. The service appends each accepted entry to the database log, and rebuilding a
table after a restart is replaying the same entries through the same ``apply``: replay
is exact because engines are pure functions of ``(options, seed, actions)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine.errors import RuleError
from engine.game import Event, GameState
from engine.options import resolve_options
from engine.registry import GAME_MODULES, game_rules

DEFAULT_GAME = "kings-corner"
BOT_LEVELS = ("easy", "normal", "hard")  # services.bots.players.LEVELS (no import: engine only)
DEFAULT_BOT_LEVEL = "normal"
AWAY_WAIT = 60  # seconds offline mid-game before a stand-in bot plays the seat
AWAY_WAIT_LIMITS = (10, 3600)


class TableError(RuleError):
    """A refused entry: a stable code and its parameters."""


@dataclass
class SeatInfo:
    """Who sits at one seat. ``online`` is presence, which is not logged."""

    seat: int
    player_id: str
    name: str
    lang: str = "en"
    bot: bool = False
    host: bool = False
    username: str | None = None
    token_hash: str | None = None
    online: bool = False
    level: str = DEFAULT_BOT_LEVEL  # a bot's playing strength
    # While its player is away mid-game: the id a stand-in bot signs with (not logged:
    # like presence, it is decided again after a restart).
    stand_in: str | None = None

    def public(self) -> dict[str, Any]:
        shown: dict[str, Any] = {
            "seat": self.seat,
            "name": self.name,
            "online": self.online or self.bot,
            "bot": self.bot,
            "host": self.host,
            "lang": self.lang,
        }
        if self.bot:
            shown["level"] = self.level
        if self.stand_in is not None:
            shown["stand_in"] = True
        return shown


@dataclass
class Table:
    """The authority's model of one table."""

    code: str
    game: str = DEFAULT_GAME
    options: dict[str, Any] = field(default_factory=dict)
    seats: dict[int, SeatInfo] = field(default_factory=dict)
    status: str = "lobby"
    locked: bool = False
    paused: bool = False
    state: GameState | None = None
    seq: int = 0
    epoch: int = 0
    away_level: str = DEFAULT_BOT_LEVEL  # the stand-in bots' level (the host chooses)
    away_wait: int = AWAY_WAIT

    # ----------------------------------------------------------------- queries
    @property
    def max_seats(self) -> int:
        return game_rules(self.game).MAX_SEATS

    def seat_of(self, player_id: str) -> int | None:
        for info in self.seats.values():
            if info.player_id == player_id:
                return info.seat
        return None

    def free_seat(self) -> int | None:
        for seat in range(self.max_seats):
            if seat not in self.seats:
                return seat
        return None

    def host_seat(self) -> int | None:
        hosts = [info.seat for info in self.seats.values() if info.host]
        return hosts[0] if hosts else None

    def option_specs(self) -> list[dict[str, Any]]:
        return _option_specs(self.game)

    # ----------------------------------------------------------------- changes
    def apply(self, entry: Mapping[str, Any]) -> list[Event]:
        """Validate and apply one entry; raise ``TableError`` and change nothing if refused."""
        kind = entry.get("kind")
        handler = _HANDLERS.get(str(kind))
        if handler is None:
            raise TableError("unknown_entry", kind=kind)
        events = handler(self, entry)
        self.seq += 1
        return events

    def _create(self, entry: Mapping[str, Any]) -> list[Event]:
        self._set_game(entry)
        return [Event("table_created", None, {"table": self.code, "game": self.game})]

    def _set_game(self, entry: Mapping[str, Any]) -> list[Event]:
        self._require_settings_open()
        game = entry.get("game", DEFAULT_GAME)
        if game not in GAME_MODULES:
            raise TableError("unknown_game", game=game)
        options = self._checked_options(str(game), entry.get("options") or {})
        if len(self.seats) > game_rules(str(game)).MAX_SEATS:
            raise TableError("too_many_players", game=game, players=len(self.seats))
        self.game, self.options = str(game), options
        return [Event("game_chosen", None, {"game": self.game})]

    def _set_options(self, entry: Mapping[str, Any]) -> list[Event]:
        self._require_settings_open()
        given = entry.get("options")
        if not isinstance(given, dict):
            raise TableError("bad_options")
        self.options = self._checked_options(self.game, {**self.options, **given})
        return [Event("options_changed", None, {"options": self.options})]

    def _checked_options(self, game: str, options: Any) -> dict[str, Any]:
        if not isinstance(options, dict):
            raise TableError("bad_options")
        try:
            return resolve_options(game_rules(game).OPTIONS, options)
        except RuleError as error:
            raise TableError(error.code, **error.params) from None

    def _join(self, entry: Mapping[str, Any]) -> list[Event]:
        seat = int(entry["seat"])
        if self.locked:
            raise TableError("table_locked", table=self.code)
        # A latecomer takes a seat beyond the game under way: the phone watches (its seat
        # view has no state) and plays from the next game on.
        if self.state is not None and self.status != "lobby" and seat < self.state.seats:
            raise TableError("game_in_progress", table=self.code)
        if seat in self.seats or seat >= self.max_seats:
            raise TableError("table_full", table=self.code, seats=self.max_seats)
        name = str(entry["name"]).strip()
        if any(info.name.casefold() == name.casefold() for info in self.seats.values()):
            raise TableError("name_taken", name=name)
        self.seats[seat] = SeatInfo(
            seat=seat,
            player_id=str(entry["player_id"]),
            name=name,
            lang=str(entry.get("lang", "en")),
            bot=bool(entry.get("bot", False)),
            host=bool(entry.get("host", False)),
            username=entry.get("username"),
            token_hash=entry.get("token_hash"),
            level=str(entry.get("level", DEFAULT_BOT_LEVEL)),
        )
        code = "bot_joined" if entry.get("bot") else "player_joined"
        return [Event(code, seat, {"name": name})]

    def _kick(self, entry: Mapping[str, Any]) -> list[Event]:
        seat = entry.get("seat")
        info = self.seats.get(seat) if isinstance(seat, int) else None
        if info is None:
            raise TableError("no_such_seat", seat=seat)
        if self.status == "lobby" or self.state is None or info.seat >= self.state.seats:
            del self.seats[info.seat]  # not in the game under way: nobody takes over
        else:
            # Mid-game the seat keeps its cards and a computer player takes it over,
            # under a bot's name of its own (older logs have none: the player's).
            self.seats[info.seat] = SeatInfo(
                seat=info.seat,
                player_id=str(entry["bot_id"]),
                name=str(entry.get("bot_name", info.name)),
                bot=True,
                level=self.away_level,
            )
        return [Event("player_kicked", info.seat, {"name": info.name})]

    def _set_bot_level(self, entry: Mapping[str, Any]) -> list[Event]:
        seat, level = entry.get("seat"), entry.get("level")
        info = self.seats.get(seat) if isinstance(seat, int) else None
        if info is None or not info.bot:
            raise TableError("no_such_bot", seat=seat)
        if level not in BOT_LEVELS:
            raise TableError("unknown_level", level=level)
        info.level = str(level)
        return [Event("bot_level_changed", info.seat, {"name": info.name, "level": level})]

    def _set_away(self, entry: Mapping[str, Any]) -> list[Event]:
        level = entry.get("level", self.away_level)
        wait = entry.get("wait", self.away_wait)
        if level not in BOT_LEVELS:
            raise TableError("unknown_level", level=level)
        low, high = AWAY_WAIT_LIMITS
        if isinstance(wait, bool) or not isinstance(wait, int) or not low <= wait <= high:
            raise TableError("bad_wait", wait=wait, minimum=low, maximum=high)
        self.away_level, self.away_wait = str(level), wait
        return [Event("away_rules_changed", None, {"level": level, "wait": wait})]

    def _flag(self, entry: Mapping[str, Any]) -> list[Event]:
        op = str(entry["kind"])
        if op in ("lock", "unlock"):
            self.locked = op == "lock"
        else:
            if op == "pause" and self.status != "playing":
                raise TableError("not_playing", status=self.status)
            self.paused = op == "pause"
        return [Event(_FLAG_EVENTS[op], None, {})]

    def _start(self, entry: Mapping[str, Any]) -> list[Event]:
        """Deal a new game; from the lobby, or as a rematch once a game is finished."""
        if self.status in ("playing", "round_over"):
            raise TableError("already_started")
        rules = game_rules(self.game)
        players = len(self.seats)
        if sorted(self.seats) != list(range(players)):
            raise TableError("seats_not_filled", seats=sorted(self.seats))
        if not rules.MIN_SEATS <= players <= rules.MAX_SEATS:
            raise TableError(
                "wrong_player_count",
                players=players,
                minimum=rules.MIN_SEATS,
                maximum=rules.MAX_SEATS,
            )
        try:
            self.state = rules.new_game(players, int(entry["seed"]), self.options)
        except RuleError as error:
            raise TableError(error.code, **error.params) from None
        self.status, self.paused = "playing", False
        started = Event("game_started", None, {"game": self.game, "players": players})
        return [started, *self.state.opening_events()]

    def _next_round(self, entry: Mapping[str, Any]) -> list[Event]:
        if self.state is None or self.status != "round_over":
            raise TableError("round_not_over", status=self.status)
        if not self.state.can_start_next_round():
            raise TableError("game_over")
        self.state, events = self.state.start_next_round()
        self.status = "playing"
        return list(events)

    def _end_session(self, entry: Mapping[str, Any]) -> list[Event]:
        if self.status not in ("playing", "round_over"):
            raise TableError("not_playing", status=self.status)
        self.status, self.paused = "finished", False
        return [Event("session_ended", None, {})]

    def _act(self, entry: Mapping[str, Any]) -> list[Event]:
        seat = int(entry["seat"])
        if self.state is None or self.status not in ("playing",):
            raise TableError("not_playing", status=self.status)
        if self.paused:
            raise TableError("table_paused")
        rules = game_rules(self.game)
        try:
            action = rules.parse_action(entry["action"])
            self.state, events = self.state.apply(seat, action)
        except RuleError as error:
            raise TableError(error.code, **error.params) from None
        self._after_play()
        return list(events)

    def _after_play(self) -> None:
        assert self.state is not None
        if self.state.current_seat is None:
            self.status = "round_over" if self.state.can_start_next_round() else "finished"

    def _require_settings_open(self) -> None:
        # Game and options change only between games: a running game keeps its rules.
        if self.status not in ("lobby", "finished"):
            raise TableError("options_locked", status=self.status)


@cache
def _option_specs(game: str) -> list[dict[str, Any]]:
    return [spec.to_dict() for spec in game_rules(game).OPTIONS]


_FLAG_EVENTS = {
    "lock": "table_locked",
    "unlock": "table_unlocked",
    "pause": "table_paused",
    "resume": "table_resumed",
}

_HANDLERS = {
    "create": Table._create,
    "set_game": Table._set_game,
    "set_options": Table._set_options,
    "join": Table._join,
    "kick": Table._kick,
    "lock": Table._flag,
    "unlock": Table._flag,
    "pause": Table._flag,
    "resume": Table._flag,
    "start": Table._start,
    "next_round": Table._next_round,
    "end_session": Table._end_session,
    "rematch": Table._start,
    "act": Table._act,
    "set_bot_level": Table._set_bot_level,
    "set_away": Table._set_away,
}
