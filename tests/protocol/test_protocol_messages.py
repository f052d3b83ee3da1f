"""Every schema is valid JSON Schema, and our validator agrees with the reference one."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.messages import MESSAGE_KINDS, ProtocolError, decode, encode, schema
from protocol.schema import SchemaViolationError, validate

SAMPLES: dict[str, list[Any]] = {
    "intent": [
        {
            "v": 1,
            "id": "a1",
            "op": "act",
            "seq": 3,
            "player": "p1",
            "action": {"type": "play", "card": "7H", "pile": "N"},
        },
        {"v": 1, "id": "s-9", "op": "sync"},
    ],
    "host_intent": [{"v": 1, "id": "h1", "op": "kick", "params": {"seat": 2}}],
    "reply": [
        {"v": 1, "id": "a1", "status": "ok", "seq": 4},
        {
            "v": 1,
            "id": "a1",
            "status": "error",
            "error": {"code": "stale_seq", "params": {"seq": 3, "current": 4}},
        },
    ],
    "table_view": [
        {
            "v": 1,
            "table": "K7Q2",
            "epoch": 1,
            "seq": 0,
            "status": "lobby",
            "game": "kings-corner",
            "options": {},
            "players": [{"seat": 0, "name": "Ana", "online": True, "bot": False, "host": True}],
            "state": None,
            "locked": False,
            "paused": False,
        }
    ],
    "seat_view": [
        {
            "v": 1,
            "table": "K7Q2",
            "epoch": 1,
            "seq": 5,
            "seat": 0,
            "name": "Ana",
            "host": True,
            "state": {"hand": ["7H"]},
        }
    ],
    "events": [
        {
            "v": 1,
            "table": "K7Q2",
            "epoch": 1,
            "seq": 5,
            "events": [{"code": "played", "seat": 1, "params": {"card": "7H"}}],
        }
    ],
    "presence": [{"v": 1, "online": False}],
    "say": [{"v": 1, "id": "t1", "text": "seven of hearts on north", "lang": "en"}],
    "service_status": [{"v": 1, "service": "tables", "online": True}],
    "lobby_create": [{"v": 1, "id": "c1", "game": "five-crowns", "options": {}}],
    "lobby_join": [{"v": 1, "id": "j1", "table": "K7Q2", "name": "Zé", "lang": "pt"}],
    "lobby_claim": [
        {"v": 1, "id": "k1", "table": "K7Q2", "seat": 2, "token": "a" * 32, "lang": "nl"}
    ],
}

BAD: dict[str, list[Any]] = {
    "intent": [
        {"v": 1, "id": "a1", "op": "act"},
        {"v": 1, "id": "a1", "op": "sync", "extra": 1},
        {"v": 1, "id": "a/1", "op": "sync"},
        {"v": True, "id": "a1", "op": "sync"},
        {"v": 1, "id": "a1", "op": "act", "seq": -1, "player": "p", "action": {"type": "draw"}},
        {"v": 1, "id": "a1", "op": "act", "seq": 1.5, "player": "p", "action": {"type": "draw"}},
        [],
        "intent",
    ],
    "reply": [{"v": 1, "id": "a1", "status": "error"}],
    "say": [{"v": 1, "id": "t1", "text": ""}, {"v": 1, "id": "t1", "text": "x" * 501}],
    "lobby_claim": [
        {"v": 1, "id": "k1", "table": "K7Q2", "seat": 16, "token": "a" * 32},
        {"v": 1, "id": "k1", "table": "K7Q2", "seat": 1, "token": "short"},
        {"v": 1, "id": "k1", "table": "K7Q2", "seat": 1},
    ],
}


def reference_accepts(kind: str, value: Any) -> bool:
    return jsonschema.Draft202012Validator(schema(kind)).is_valid(value)


def ours_accepts(kind: str, value: Any) -> bool:
    try:
        validate(value, schema(kind))
    except SchemaViolationError:
        return False
    return True


@pytest.mark.parametrize("kind", MESSAGE_KINDS)
def test_schema_is_valid_json_schema(kind: str) -> None:
    jsonschema.Draft202012Validator.check_schema(schema(kind))


@pytest.mark.parametrize("kind", MESSAGE_KINDS)
def test_every_kind_has_a_sample(kind: str) -> None:
    assert SAMPLES[kind]
    for sample in SAMPLES[kind]:
        assert reference_accepts(kind, sample)
        assert decode(kind, encode(kind, sample)) == sample


@pytest.mark.parametrize(("kind", "value"), [(k, v) for k, vs in BAD.items() for v in vs])
def test_bad_messages_are_refused_by_both_validators(kind: str, value: Any) -> None:
    assert not reference_accepts(kind, value)
    with pytest.raises(ProtocolError) as refusal:
        decode(kind, json.dumps(value))
    assert refusal.value.code == "bad_message"
    assert refusal.value.params["kind"] == kind


def test_decode_refuses_oversized_and_broken_payloads() -> None:
    with pytest.raises(ProtocolError) as big:
        decode("intent", b" " * 20_000)
    assert big.value.code == "payload_too_large"
    assert big.value.params == {"size": 20_000, "limit": 16 * 1024}
    for payload in (b"{", b"\xff\xfe", b"[" * 10_000, b'{"v": NaN}'):
        with pytest.raises(ProtocolError) as broken:
            decode("intent", payload)
        assert broken.value.code == "bad_json"


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 20)
    | st.floats(allow_nan=False)
    | st.sampled_from(["act", "sync", "ok", "error", "a1", "K7Q2", "", "7H", "play"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                [
                    "v",
                    "id",
                    "op",
                    "seq",
                    "player",
                    "action",
                    "type",
                    "status",
                    "error",
                    "code",
                    "params",
                    "text",
                    "online",
                    "x",
                ]
            ),
            inner,
            max_size=6,
        )
    ),
    max_leaves=12,
)


def mutated_samples() -> st.SearchStrategy[tuple[str, Any]]:
    def mutate(kind_and_sample: tuple[str, dict[str, Any]]) -> st.SearchStrategy[tuple[str, Any]]:
        kind, sample = kind_and_sample
        return st.tuples(
            st.just(kind),
            st.fixed_dictionaries({}).flatmap(
                lambda _: st.dictionaries(st.sampled_from([*sorted(sample), "x"]), json_values).map(
                    lambda changes: {**sample, **changes}
                )
            ),
        )

    pairs = [
        (kind, sample)
        for kind, samples in SAMPLES.items()
        for sample in samples
        if isinstance(sample, dict)
    ]
    return st.sampled_from(pairs).flatmap(mutate)


@settings(max_examples=400, deadline=None)
@given(mutated_samples())
def test_our_validator_agrees_with_the_reference(kind_and_value: tuple[str, Any]) -> None:
    kind, value = kind_and_value
    assert ours_accepts(kind, value) == reference_accepts(kind, value)


ONE_OF_BY_OP = {
    "type": "object",
    "oneOf": [
        {"properties": {"op": {"const": "act"}, "n": {"type": "integer"}}, "required": ["n"]},
        {"properties": {"op": {"const": "sync"}}},
    ],
}


@pytest.mark.parametrize(
    "value",
    [
        {"op": "act", "n": 1},
        {"op": "act"},  # the option its op names fails, and so does the other
        {"op": "act", "n": "x"},
        {"op": "sync"},
        {"op": "sync", "n": 1},
        {"op": "other"},
        {"op": 3},
        {},  # no op: both options hold, which oneOf refuses
        {"n": 1},
        [],
    ],
)
def test_a_one_of_chosen_by_its_const_agrees_with_the_reference(value: Any) -> None:
    """Our validator picks the option a value's ``op`` names first; the answer is the same."""
    reference = jsonschema.Draft202012Validator(ONE_OF_BY_OP).is_valid(value)
    try:
        validate(value, ONE_OF_BY_OP)
    except SchemaViolationError:
        assert not reference
    else:
        assert reference
