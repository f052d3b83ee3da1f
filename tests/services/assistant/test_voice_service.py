"""Voice over a real broker (both): a seat's spoken words move the table; the clips reach
the assistant only, from that seat only; bad clips and silence get a code, to that seat."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from tables_clients import LobbyClient, Phone

from protocol import topics
from protocol.voice import MAX_VOICE_PAYLOAD, SAMPLE_RATE, encode_voice
from services.assistant.runner import AssistantRunner
from services.assistant.speech import spoken
from services.assistant.speech.listener import QUEUE_BOUND, VoiceListener
from services.broker.settings import BrokerEndpoint
from services.tables.runner import TablesRunner


@pytest.fixture(scope="module", autouse=True)
def speech_tools() -> None:
    if not spoken.available():
        if os.environ.get("CI"):
            pytest.fail("espeak-ng and sox are required in CI")
        pytest.skip("espeak-ng or sox missing")


@pytest.fixture
def assistant(broker: BrokerEndpoint, tables: TablesRunner) -> Iterator[AssistantRunner]:
    with AssistantRunner(broker.service_url("assistant")) as runner:
        runner.start()
        yield runner


def speak_clip(phone: Phone, pcm: bytes, seat: int | None = None) -> str:
    """Publish ``pcm`` as a voice clip from ``phone`` (to its own seat unless ``seat``)."""
    clip_id = "v-" + uuid.uuid4().hex[:10]
    topic = topics.seat_topic(phone.table, phone.seat if seat is None else seat, "voice")
    phone.client.publish(topic, encode_voice(clip_id, pcm))
    return clip_id


def replies(phone: Phone, clip_id: str, count: int = 1) -> list[dict[str, Any]]:
    """The first ``count`` replies to ``clip_id`` on the phone's reply topic."""
    phone.box.wait(
        phone.reply_topic,
        lambda _: (
            len([m for m in phone.box.messages[phone.reply_topic] if m["id"] == clip_id]) >= count
        ),
    )
    return [m for m in phone.box.messages[phone.reply_topic] if m["id"] == clip_id][:count]


def started(lobby: LobbyClient, phones: Callable[..., Phone]) -> tuple[Phone, Phone, int]:
    table = lobby.create("kings-corner")
    ana, ben = phones(table, "Ana"), phones(table, "Ben")
    assert lobby.host(table, "start")["status"] == "ok"
    public = ana.box.wait(ana.public_topic, lambda m: m["status"] == "playing")
    mover, waiting = (ana, ben) if public["state"]["current_seat"] == ana.seat else (ben, ana)
    mover.box.wait(mover.view_topic, lambda m: m["seq"] == public["seq"])
    waiting.box.wait(waiting.view_topic, lambda m: m["seq"] == public["seq"])
    return mover, waiting, int(public["seq"])


def test_spoken_draw_is_heard_then_played_for_the_speaker(
    assistant: AssistantRunner, lobby: LobbyClient, phones: Callable[..., Phone]
) -> None:
    mover, waiting, seq = started(lobby, phones)
    clip_id = speak_clip(mover, spoken.speak("draw a card", "en-gb", 150))
    heard, answer = replies(mover, clip_id, 2)
    assert heard == {
        "v": 1,
        "id": clip_id,
        "status": "ok",
        "data": {"kind": "heard", "heard": "draw a card"},
    }
    assert answer["status"] == "ok" and answer["seq"] == seq + 1  # the tables service's
    public = lobby.public(mover.table, lambda m: m["seq"] == seq + 1)
    assert public["state"]["phase"] == "play"
    # The other seat heard nothing of it.
    assert not [m for m in waiting.box.messages.get(waiting.reply_topic, []) if m["id"] == clip_id]


def test_a_question_is_answered_to_the_speaker(
    assistant: AssistantRunner, lobby: LobbyClient, phones: Callable[..., Phone]
) -> None:
    mover, waiting, _ = started(lobby, phones)
    clip_id = speak_clip(waiting, spoken.speak("whose turn is it", "en-us+m3", 170))
    heard, answer = replies(waiting, clip_id, 2)
    assert heard["data"] == {"kind": "heard", "heard": "whose turn is it"}
    assert answer["data"] == {"kind": "answer", "answer": "turn", "params": {"seat": mover.seat}}


def test_silence_is_not_heard(
    assistant: AssistantRunner, lobby: LobbyClient, phones: Callable[..., Phone]
) -> None:
    mover, _, seq = started(lobby, phones)
    clip_id = speak_clip(mover, bytes(2 * SAMPLE_RATE))
    (reply,) = replies(mover, clip_id)
    assert reply["error"] == {"code": "not_heard", "params": {}}
    assert mover.view()["seq"] == seq  # nothing changed


def test_too_long_and_too_large_clips_are_refused_with_a_code(
    assistant: AssistantRunner, lobby: LobbyClient, phones: Callable[..., Phone]
) -> None:
    mover, _, seq = started(lobby, phones)
    too_long = speak_clip(mover, bytes(2 * SAMPLE_RATE * 7))
    (reply,) = replies(mover, too_long)
    assert reply["error"] == {"code": "voice_too_long", "params": {"seconds": 7.0, "limit": 6}}
    too_large = speak_clip(mover, bytes(MAX_VOICE_PAYLOAD))
    (reply,) = replies(mover, too_large)
    assert reply["error"]["code"] == "payload_too_large"
    assert reply["error"]["params"]["limit"] == MAX_VOICE_PAYLOAD
    # A header that is not ours: refused, answered under "-" as unreadable.
    mover.client.publish(topics.seat_topic(mover.table, mover.seat, "voice"), b"\x07garbage")
    mover.box.wait(
        mover.reply_topic, lambda m: m["id"] == "-" and m["error"]["code"] == "bad_voice"
    )
    assert mover.view()["seq"] == seq


def test_only_the_assistant_hears_a_seat_and_only_that_seat_speaks_on_it(
    assistant: AssistantRunner,
    lobby: LobbyClient,
    phones: Callable[..., Phone],
) -> None:
    mover, waiting, seq = started(lobby, phones)
    voice_topic = topics.seat_topic(mover.table, mover.seat, "voice")
    # Neither the other seat nor the speaker itself may listen to the seat's voice.
    overheard: list[str] = []
    for phone in (waiting, mover):
        phone.client.subscribe(voice_topic, lambda topic, _: overheard.append(topic))
        assert phone.client.wait_subscribed(5)[voice_topic] is False
    # The other seat cannot speak for the mover: nothing is heard, nothing moves.
    forged = speak_clip(waiting, spoken.speak("draw a card"), seat=mover.seat)
    time.sleep(1.5)
    for phone in (mover, waiting):
        assert not [m for m in phone.box.messages.get(phone.reply_topic, []) if m["id"] == forged]
    assert mover.view()["seq"] == seq
    # While the mover's own words are heard (and on its own topic only).
    own = speak_clip(mover, spoken.speak("draw a card"))
    assert replies(mover, own)[0]["data"]["heard"] == "draw a card"
    assert overheard == []


def test_a_full_queue_of_clips_is_refused_not_heard_late() -> None:
    """The worker's queue is bounded: the clip past it is answered ``voice_busy`` at once."""
    sent: list[tuple[str, dict[str, Any]]] = []
    listener = VoiceListener(lambda table, seat: None, lambda t, m: sent.append((t, m)), print)
    topic = topics.seat_topic("K7Q2", 1, "voice")
    for number in range(QUEUE_BOUND + 1):  # the worker is not started: nothing is taken
        listener.on_voice(topic, encode_voice(f"c{number}", bytes(320)))
    assert sent == [
        (
            topics.seat_topic("K7Q2", 1, "reply"),
            {
                "v": 1,
                "id": f"c{QUEUE_BOUND}",
                "status": "error",
                "error": {"code": "voice_busy", "params": {}},
            },
        )
    ]
