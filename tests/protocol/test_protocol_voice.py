"""The binary ``voice`` message: it round-trips, and anything else is refused with a code."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol import topics
from protocol.messages import ProtocolError
from protocol.voice import (
    MAX_VOICE_PAYLOAD,
    MAX_VOICE_SAMPLES,
    SAMPLE_RATE,
    clip_id,
    decode_voice,
    encode_voice,
)

ids = st.from_regex(r"[A-Za-z0-9_-]{1,64}", fullmatch=True)
langs = st.sampled_from(("en", "fr", "pt", "nl"))
pcm = st.binary(max_size=4000).map(lambda data: data[: len(data) // 2 * 2])


@given(ids, langs, pcm)
def test_clips_round_trip(clip: str, lang: str, samples: bytes) -> None:
    payload = encode_voice(clip, samples, lang)
    decoded = decode_voice(payload)
    assert (decoded.id, decoded.lang, decoded.sample_rate, decoded.pcm) == (
        clip,
        lang,
        SAMPLE_RATE,
        samples,
    )
    assert clip_id(payload) == clip


def code_of(payload: bytes) -> tuple[str, dict[str, object]]:
    with pytest.raises(ProtocolError) as refused:
        decode_voice(payload)
    return refused.value.code, dict(refused.value.params)


def test_six_seconds_are_taken_and_more_is_too_long() -> None:
    assert decode_voice(encode_voice("a", bytes(2 * MAX_VOICE_SAMPLES))).seconds == 6.0
    too_long = encode_voice("a", bytes(2 * MAX_VOICE_SAMPLES + 2 * SAMPLE_RATE))
    assert code_of(too_long) == ("voice_too_long", {"seconds": 7.0, "limit": 6})
    size = MAX_VOICE_PAYLOAD + 1
    assert code_of(b"\x01" * size) == ("payload_too_large", {"size": size, "limit": size - 1})


@pytest.mark.parametrize(
    "payload",
    [
        b"",
        b"\x02\x01a" + b"en" + (16000).to_bytes(4, "little"),  # another version
        b"\x01\x00" + b"en" + (16000).to_bytes(4, "little"),  # no id
        b"\x01\x02a!" + b"en" + (16000).to_bytes(4, "little"),  # not an id
        b"\x01\x01a" + b"de" + (16000).to_bytes(4, "little"),  # another language
        b"\x01\x01a" + b"en" + (8000).to_bytes(4, "little"),  # another rate
        b"\x01\x01a" + b"en" + (16000).to_bytes(4, "little") + b"\x00",  # half a sample
        b"\x01\x01a" + b"en" + b"\x80>",  # a cut header
    ],
)
def test_what_is_not_a_clip_is_refused(payload: bytes) -> None:
    assert code_of(payload) == ("bad_voice", {})


def test_only_the_seat_itself_writes_its_voice_and_nobody_reads_it() -> None:
    voice = topics.seat_topic("K7Q2", 1, "voice")
    assert voice in topics.player_grants("K7Q2", 1).write
    assert voice not in topics.player_grants("K7Q2", 1).read
    assert voice not in topics.player_grants("K7Q2", 2).write
    assert voice not in topics.host_player_grants("K7Q2", 2).write
    assert voice not in topics.tv_grants("K7Q2").read + topics.tv_grants("K7Q2").write


def test_a_too_big_clip_still_fits_the_brokers_packet_limit() -> None:
    """Else the broker closes the phone's connection and the phone never hears why."""
    from services.broker.limits import MAX_PACKET_BYTES

    topic_and_header = 200  # the seat's voice topic, the packet's fixed header, the clip's own
    assert MAX_VOICE_PAYLOAD + 1 + topic_and_header < MAX_PACKET_BYTES
    seven_seconds = 7 * SAMPLE_RATE * 2 + topic_and_header
    assert seven_seconds < MAX_VOICE_PAYLOAD  # "too long" is told as such, not as "too big"
