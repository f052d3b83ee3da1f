"""The assistant over a real broker: a seat's words move the table, or are answered,
to that seat alone; nobody can speak for another seat."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from tables_clients import LobbyClient, Phone

from protocol import topics
from services.assistant.runner import AssistantRunner
from services.broker.settings import BrokerEndpoint
from services.tables.runner import TablesRunner


@pytest.fixture
def assistant(broker: BrokerEndpoint, tables: TablesRunner) -> Iterator[AssistantRunner]:
    with AssistantRunner(broker.service_url("assistant")) as runner:
        runner.start()
        yield runner


def say(phone: Phone, text: str, lang: str = "en") -> dict[str, Any]:
    """What the seat's reply topic answers to ``text`` said from ``phone``."""
    message = {"v": 1, "id": uuid.uuid4().hex[:10], "text": text, "lang": lang}
    return phone.send(message, topic=topics.seat_topic(phone.table, phone.seat, "say"))


def started(
    lobby: LobbyClient, phones: Callable[..., Phone]
) -> tuple[Phone, Phone, dict[str, Any]]:
    table = lobby.create("kings-corner")
    ana, ben = phones(table, "Ana"), phones(table, "Ben")
    assert lobby.host(table, "start")["status"] == "ok"
    public = ana.box.wait(ana.public_topic, lambda m: m["status"] == "playing")
    mover, waiting = (ana, ben) if public["state"]["current_seat"] == ana.seat else (ben, ana)
    return mover, waiting, public


def test_words_move_the_table_for_the_seat_that_said_them(
    assistant: AssistantRunner, lobby: LobbyClient, phones: Callable[..., Phone]
) -> None:
    mover, waiting, public = started(lobby, phones)
    mover.box.wait(mover.view_topic, lambda m: m["seq"] == public["seq"])
    reply = say(mover, "je pioche", lang="fr")  # the tables service answers the intent
    assert reply["status"] == "ok" and reply["seq"] == public["seq"] + 1
    view = mover.box.wait(mover.view_topic, lambda m: m["seq"] == public["seq"] + 1)
    assert view["state"]["phase"] == "play"
    # Out of turn, the table refuses: to the speaker, in a code its screen words.
    refused = say(waiting, "draw")
    assert refused["error"]["code"] == "not_your_turn"
    assert not [
        m for m in mover.box.messages.get(mover.reply_topic, []) if m["id"] == refused["id"]
    ]


def test_questions_and_nonsense_are_answered_to_the_speaker_alone(
    assistant: AssistantRunner, lobby: LobbyClient, phones: Callable[..., Phone]
) -> None:
    mover, waiting, public = started(lobby, phones)
    waiting.box.wait(waiting.view_topic, lambda m: m["seq"] == public["seq"])
    answer = say(waiting, "wie is aan de beurt?", lang="nl")
    assert answer["data"] == {"kind": "answer", "answer": "turn", "params": {"seat": mover.seat}}
    # The mover is spoken to; names come from the public table view.
    assert say(mover, "is it my turn?")["data"]["answer"] == "turn_you"
    other = "Ben" if waiting.seat == 1 else "Ana"
    counted = say(mover, f"how many cards has {other} got?")
    assert counted["data"]["answer"] == "cards_of"
    assert counted["data"]["params"]["seat"] == waiting.seat
    hand = say(waiting, "my cards")
    own = waiting.view(newer_than=public["seq"] - 1)
    assert hand["data"]["params"]["cards"] == own["state"]["hand"]
    assert say(waiting, "lovely weather")["error"]["code"] == "not_understood"
    # The other seat heard none of it: replies are per seat.
    ids = {answer["id"], hand["id"]}
    assert not [m for m in mover.box.messages.get(mover.reply_topic, []) if m["id"] in ids]


def test_nobody_speaks_for_another_seat(
    assistant: AssistantRunner, lobby: LobbyClient, phones: Callable[..., Phone]
) -> None:
    mover, waiting, public = started(lobby, phones)
    # The waiting player's login may not publish on the mover's say topic: the broker
    # drops it, so the table does not move and the mover gets no reply for it.
    other_say = topics.seat_topic(mover.table, mover.seat, "say")
    message = {"v": 1, "id": "impostor", "text": "draw", "lang": "en"}
    waiting.client.publish(other_say, json.dumps(message).encode())
    # Same connection, so after it: once this is answered, the assistant has had the
    # impostor's line (were it let through) and sent on its intent before this answer.
    say(waiting, "whose turn")
    assert mover.send({"v": 1, "id": "check", "op": "sync"})["seq"] == public["seq"]
    replies = mover.box.messages.get(mover.reply_topic, [])
    assert not [m for m in replies if m["id"] == "impostor"]


def test_a_malformed_line_is_refused_with_a_code(
    assistant: AssistantRunner, lobby: LobbyClient, phones: Callable[..., Phone]
) -> None:
    mover, _, _ = started(lobby, phones)
    say_topic = topics.seat_topic(mover.table, mover.seat, "say")
    mover.client.publish(say_topic, b'{"v": 1, "id": "x1", "text": ""}')
    refused = mover.box.wait(mover.reply_topic, lambda m: m["id"] == "-")
    assert refused["error"]["code"] == "bad_message"
