"""Encode and decode the JSON messages of ``protocol/schemas``, refusing anything off-schema.

Every refusal is a ``ProtocolError`` with a stable code and parameters, so the tables
service can answer the sender in its own language:

- ``payload_too_large`` {size, limit}
- ``bad_json`` {}
- ``bad_message`` {kind, path, keyword}
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from typing import Any

from engine.errors import RuleError
from protocol import PROTOCOL_VERSION
from protocol.schema import Check, SchemaViolationError, compile_schema

MAX_PAYLOAD = 16 * 1024
MESSAGE_KINDS = (
    "intent",
    "host_intent",
    "reply",
    "table_view",
    "seat_view",
    "events",
    "presence",
    "say",
    "service_status",
    "lobby_create",
    "lobby_join",
    "lobby_claim",
)


class ProtocolError(RuleError):
    """A message that is not one of ours: a code and its parameters."""


@cache
def schema(kind: str) -> Mapping[str, Any]:
    """The JSON Schema of a message kind."""
    if kind not in MESSAGE_KINDS:
        raise KeyError(kind)
    text = resources.files("protocol").joinpath("schemas", f"{kind}.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@cache
def _checker(kind: str) -> Check:
    return compile_schema(schema(kind))


def check(kind: str, message: Any) -> dict[str, Any]:
    """Return ``message`` if it fits the schema of ``kind``; raise ``ProtocolError`` if not."""
    try:
        _checker(kind)(message, "")
    except SchemaViolationError as violation:
        raise ProtocolError(
            "bad_message", kind=kind, path=violation.path, keyword=violation.keyword
        ) from None
    result: dict[str, Any] = message
    return result


def act_intent(intent_id: str, seq: int, player: str, action: Mapping[str, Any]) -> dict[str, Any]:
    """A seat's ``intent`` to take ``action``, chosen on the view numbered ``seq``."""
    return {
        "v": PROTOCOL_VERSION,
        "id": intent_id,
        "op": "act",
        "seq": seq,
        "player": player,
        "action": dict(action),
    }


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def json_loads(payload: bytes | str) -> Any:
    """The standard library's parser, refusing NaN and Infinity as JSON does."""
    return json.loads(payload, parse_constant=_refuse_constant)


def json_dumps(message: Any) -> bytes:
    """Compact UTF-8 JSON."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def decode(
    kind: str,
    payload: bytes | str,
    limit: int = MAX_PAYLOAD,
    loads: Callable[[bytes | str], Any] = json_loads,
) -> dict[str, Any]:
    """Parse and check one message received on the wire.

    ``loads`` may be a faster parser (the services pass orjson's); it must signal bad JSON
    with a ``ValueError``, as both do.
    """
    if len(payload) > limit:
        raise ProtocolError("payload_too_large", size=len(payload), limit=limit)
    try:
        message = loads(payload)
    except (ValueError, UnicodeDecodeError, RecursionError):
        # RecursionError: deeply nested arrays fit in the size limit but not in the parser.
        raise ProtocolError("bad_json") from None
    return check(kind, message)


def encode(
    kind: str,
    message: Mapping[str, Any],
    *,
    checked: bool = True,
    dumps: Callable[[Any], bytes] = json_dumps,
) -> bytes:
    """Serialise a message compactly, checking it against its schema first.

    ``checked=False`` is for the authority's hot path, whose messages are built by typed
    code; the test suite checks every message it publishes against the schemas.
    """
    if checked:
        check(kind, dict(message))
    return dumps(message)
