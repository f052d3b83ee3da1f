"""The ``voice`` message: a few seconds of a player's speech, as binary, for the assistant.

Layout (all integers little-endian)::

    offset  size  field
    0       1     version, 1
    1       1     n, the length of the id (1..64)
    2       n     id, ASCII ``A-Z a-z 0-9 _ -`` (the reply and the intent reuse it)
    2+n     2     lang, ASCII: ``en``, ``fr``, ``pt`` or ``nl``
    4+n     4     sample rate in Hz: 16000
    8+n     ...   the samples: mono, signed 16-bit PCM (an even number of bytes)

At most ``MAX_VOICE_SECONDS`` of samples. Refusals, as ``ProtocolError`` codes, answered on
the seat's ``reply`` topic:

- ``payload_too_large`` {size, limit}: more bytes than ``MAX_VOICE_PAYLOAD``
- ``voice_too_long`` {seconds, limit}: more samples than ``MAX_VOICE_SECONDS``
- ``bad_voice`` {}: no such header, another version or rate, an odd number of bytes
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass

from protocol.messages import ProtocolError

VOICE_VERSION = 1
SAMPLE_RATE = 16000
SAMPLE_BYTES = 2
MAX_VOICE_SECONDS = 6
MAX_VOICE_SAMPLES = MAX_VOICE_SECONDS * SAMPLE_RATE
# Room for a clip a little too long (7 s), so that it is told "too long" rather than "too big";
# and below the brokers' packet limit (256 KiB), so that a too-big clip still reaches the
# assistant and is answered with a code instead of closing the phone's connection.
MAX_VOICE_PAYLOAD = 232 * 1024
LANGS = ("en", "fr", "pt", "nl")
_ID = re.compile(rb"^[A-Za-z0-9_-]{1,64}$")
_RATE = struct.Struct("<I")


@dataclass(frozen=True, slots=True)
class VoiceClip:
    """One recorded utterance: its id, the speaker's language and the raw samples."""

    id: str
    lang: str
    sample_rate: int
    pcm: bytes

    @property
    def seconds(self) -> float:
        return len(self.pcm) / (SAMPLE_BYTES * self.sample_rate)


def encode_voice(clip_id: str, pcm: bytes, lang: str = "en", rate: int = SAMPLE_RATE) -> bytes:
    """The wire form of a clip (the phone builds the same bytes in ``voice.js``)."""
    raw_id = clip_id.encode("ascii")
    if not _ID.match(raw_id) or lang not in LANGS:
        raise ValueError("bad clip id or language")
    header = bytes((VOICE_VERSION, len(raw_id))) + raw_id + lang.encode("ascii")
    return header + _RATE.pack(rate) + pcm


def clip_id(payload: bytes) -> str | None:
    """The id in ``payload``'s header if it has a readable one (to answer a refusal)."""
    if len(payload) < 2 or payload[0] != VOICE_VERSION:
        return None
    raw_id = payload[2 : 2 + payload[1]]
    return raw_id.decode("ascii") if _ID.match(raw_id) else None


def decode_voice(payload: bytes) -> VoiceClip:
    """The clip in ``payload``, or a ``ProtocolError`` saying what is wrong with it."""
    if len(payload) > MAX_VOICE_PAYLOAD:
        raise ProtocolError("payload_too_large", size=len(payload), limit=MAX_VOICE_PAYLOAD)
    found_id = clip_id(payload)
    if found_id is None:
        raise ProtocolError("bad_voice")
    start = 2 + len(found_id)
    lang = payload[start : start + 2].decode("ascii", "replace")
    rate_bytes = payload[start + 2 : start + 6]
    pcm = payload[start + 6 :]
    if lang not in LANGS or len(rate_bytes) != 4 or len(pcm) % SAMPLE_BYTES:
        raise ProtocolError("bad_voice")
    (rate,) = _RATE.unpack(rate_bytes)
    if rate != SAMPLE_RATE:
        raise ProtocolError("bad_voice")
    if len(pcm) > MAX_VOICE_SAMPLES * SAMPLE_BYTES:
        seconds = round(len(pcm) / (SAMPLE_BYTES * rate), 1)
        raise ProtocolError("voice_too_long", seconds=seconds, limit=MAX_VOICE_SECONDS)
    return VoiceClip(found_id, lang, rate, pcm)
