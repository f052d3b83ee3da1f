"""The services' orjson codec gives the protocol reference's results and refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import messages
from protocol.messages import ProtocolError
from services import wire

keys = st.sampled_from(["v", "id", "op", "seq", "player", "action", "type", "card", "pile", "x"])
leaves = (
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from(["act", "sync", "play", "7H", "N", "a1", "p-1"])
)
json_values = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=6),
    max_leaves=16,
)
intents = st.fixed_dictionaries(
    {"v": st.just(1), "id": st.sampled_from(["a1", "b_2"]), "op": st.sampled_from(["act", "sync"])},
    optional={
        "seq": st.integers(-1, 5) | st.text(max_size=2),
        "player": st.sampled_from(["p-1", "bad id"]),
        "action": st.fixed_dictionaries(
            {"type": st.sampled_from(["play", "draw", "Bad"])},
            optional={"card": st.sampled_from(["7H", "10S", "toolong"]), "x": json_values},
        ),
        "extra": json_values,
    },
)


def outcome(decoder: Any, payload: bytes) -> Any:
    try:
        return ("ok", decoder("intent", payload))
    except ProtocolError as refusal:
        return ("refused", refusal.code, refusal.params)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_dumps_writes_what_the_standard_library_reads_back(value: Any) -> None:
    assert json.loads(wire.dumps(value)) == json.loads(json.dumps(value))


@settings(max_examples=300, deadline=None)
@given(intents | json_values)
def test_decode_answers_as_the_reference_does(value: Any) -> None:
    payload = json.dumps(value).encode()
    assert outcome(wire.decode, payload) == outcome(messages.decode, payload)


def test_seat_numbers_as_keys_are_written_as_strings_like_json_does() -> None:
    value = {"scores": {0: 5, 1: 7}, "pair": (1, 2), "name": "Zoë"}
    assert (
        wire.dumps(value) == json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
    )


@pytest.mark.parametrize("payload", [b"{", b"\xff\xfe", b"[" * 10_000, b'{"v": NaN}', b""])
def test_broken_payloads_are_bad_json(payload: bytes) -> None:
    with pytest.raises(ProtocolError) as refusal:
        wire.decode("intent", payload)
    assert refusal.value.code == "bad_json"


def test_an_oversized_payload_is_refused_before_parsing() -> None:
    with pytest.raises(ProtocolError) as refusal:
        wire.decode("intent", b" " * 20_000)
    assert refusal.value.params == {"size": 20_000, "limit": messages.MAX_PAYLOAD}


def test_encode_checks_the_schema_unless_told_not_to() -> None:
    reply = {"v": 1, "id": "a1", "status": "maybe"}
    with pytest.raises(ProtocolError):
        wire.encode("reply", reply)
    assert json.loads(wire.encode("reply", reply, checked=False)) == reply
