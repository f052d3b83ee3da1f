"""MQTT topic names, built and parsed in one place.

Layout (``BASE`` = ``gamenight/v1``)::

    BASE/service/<name>/status              retained online/offline; also the last will
    BASE/table/<t>/view                     retained public view (the TV)
    BASE/table/<t>/events                   public, redacted event stream
    BASE/table/<t>/host/intent              host controls (TV or first phone) -> tables
    BASE/table/<t>/host/reply               tables -> host
    BASE/table/<t>/seat/<s>/view            retained private view of seat s
    BASE/table/<t>/seat/<s>/intent          player -> tables
    BASE/table/<t>/seat/<s>/reply           tables -> player
    BASE/table/<t>/seat/<s>/say             typed or spoken text -> assistant
    BASE/table/<t>/seat/<s>/voice           recorded speech (binary, see ``voice.py``) -> assistant
    BASE/table/<t>/seat/<s>/presence        retained online/offline; the phone's last will
    BASE/lobby/request/<op>                 services -> tables (create, join)
    BASE/lobby/response/<op>                tables -> services, echoing the request id

Table codes and seat numbers never contain ``/``, ``+``, ``#`` or ``.`` (a NATS broker
maps ``.``), which ``is_table_code`` checks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

BASE = "gamenight/v1"
SEAT_TOPICS = ("view", "intent", "reply", "say", "presence", "voice")
TABLE_TOPICS = ("view", "events")
HOST_TOPICS = ("intent", "reply")
LOBBY_OPS = ("create", "join")

_TABLE_CODE = re.compile(r"^[A-Z0-9]{3,12}$")
_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
MAX_SEATS = 16


def is_table_code(text: str) -> bool:
    return bool(_TABLE_CODE.match(text))


def _check_table(table: str) -> str:
    if not is_table_code(table):
        raise ValueError(f"not a table code: {table!r}")
    return table


def _check_seat(seat: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < MAX_SEATS:
        raise ValueError(f"not a seat: {seat!r}")
    return seat


def service_status(name: str) -> str:
    if not _NAME.match(name):
        raise ValueError(f"not a service name: {name!r}")
    return f"{BASE}/service/{name}/status"


def table_topic(table: str, name: str) -> str:
    if name not in TABLE_TOPICS:
        raise ValueError(name)
    return f"{BASE}/table/{_check_table(table)}/{name}"


def table_view(table: str) -> str:
    return table_topic(table, "view")


def table_events(table: str) -> str:
    return table_topic(table, "events")


def host_topic(table: str, name: str) -> str:
    if name not in HOST_TOPICS:
        raise ValueError(name)
    return f"{BASE}/table/{_check_table(table)}/host/{name}"


def seat_topic(table: str, seat: int, name: str) -> str:
    if name not in SEAT_TOPICS:
        raise ValueError(name)
    return f"{BASE}/table/{_check_table(table)}/seat/{_check_seat(seat)}/{name}"


def lobby_request(op: str) -> str:
    if op not in LOBBY_OPS:
        raise ValueError(op)
    return f"{BASE}/lobby/request/{op}"


def lobby_response(op: str) -> str:
    if op not in LOBBY_OPS:
        raise ValueError(op)
    return f"{BASE}/lobby/response/{op}"


# Subscriptions of the tables service: narrow, never ``#``.
ALL_SEAT_INTENTS = f"{BASE}/table/+/seat/+/intent"
ALL_SEAT_PRESENCE = f"{BASE}/table/+/seat/+/presence"
ALL_HOST_INTENTS = f"{BASE}/table/+/host/intent"
ALL_SEAT_SAYS = f"{BASE}/table/+/seat/+/say"
ALL_SEAT_VOICES = f"{BASE}/table/+/seat/+/voice"
ALL_LOBBY_REQUESTS = f"{BASE}/lobby/request/+"


@dataclass(frozen=True, slots=True)
class Topic:
    """A parsed topic: ``area`` is service, table, host, seat or lobby."""

    area: str
    name: str
    table: str | None = None
    seat: int | None = None
    service: str | None = None
    op: str | None = None


def parse_topic(topic: str) -> Topic | None:
    """The meaning of ``topic``, or None if it is not one of ours."""
    parts = topic.split("/")
    if parts[:2] != BASE.split("/"):
        return None
    rest = parts[2:]
    match rest:
        case ["service", name, "status"] if _NAME.match(name):
            return Topic("service", "status", service=name)
        case ["table", table, name] if is_table_code(table) and name in TABLE_TOPICS:
            return Topic("table", name, table=table)
        case ["table", table, "host", name] if is_table_code(table) and name in HOST_TOPICS:
            return Topic("host", name, table=table)
        case ["table", table, "seat", seat, name] if (
            is_table_code(table)
            and seat.isdigit()
            and seat == str(int(seat))
            and int(seat) < MAX_SEATS
            and name in SEAT_TOPICS
        ):
            return Topic("seat", name, table=table, seat=int(seat))
        case ["lobby", "request" | "response" as name, op] if op in LOBBY_OPS:
            return Topic("lobby", name, op=op)
    return None


@dataclass(frozen=True, slots=True)
class Grants:
    """What one account may read (topic filters) and publish (exact topics)."""

    read: tuple[str, ...]
    write: tuple[str, ...]


def player_grants(table: str, seat: int) -> Grants:
    """A player reads its table's public topics and its own seat; writes only its seat."""
    return Grants(
        read=(
            table_view(table),
            table_events(table),
            seat_topic(table, seat, "view"),
            seat_topic(table, seat, "reply"),
        ),
        write=(
            seat_topic(table, seat, "intent"),
            seat_topic(table, seat, "say"),
            seat_topic(table, seat, "voice"),
            seat_topic(table, seat, "presence"),
        ),
    )


def host_player_grants(table: str, seat: int) -> Grants:
    """The first phone to join is also a host: the player's grants plus the host topics."""
    grants = player_grants(table, seat)
    return Grants(
        read=(*grants.read, host_topic(table, "reply")),
        write=(*grants.write, host_topic(table, "intent")),
    )


def tv_grants(table: str) -> Grants:
    """The TV reads the public topics and drives the host controls."""
    return Grants(
        read=(table_view(table), table_events(table), host_topic(table, "reply")),
        write=(host_topic(table, "intent"),),
    )


def service_grants() -> Grants:
    """Services may read and write anything under the base topic."""
    return Grants(read=(f"{BASE}/#",), write=(f"{BASE}/#",))
