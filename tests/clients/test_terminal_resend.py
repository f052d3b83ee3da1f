"""The terminal hand never loses a line or a host command: one left unanswered is sent
again, with the same id, after a reconnection and on a timer, until its reply comes; the
reply shows once, and a host command is applied once."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from clients.terminal.link import SeatLink, join
from protocol import topics
from services.assistant.runner import AssistantRunner
from services.serve import Stack, StackSettings
from services.tables.runner import TablesRunner

WAIT = 20.0


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    settings = StackSettings(
        data=tmp_path / "gn.db",
        mqtt_listen="127.0.0.1:0",
        ws_listen="127.0.0.1:0",
        web_host="127.0.0.1",
        web_port=0,
        bots=False,
    )
    with Stack(settings).start() as running:
        yield running


def create_table(web_url: str) -> str:
    request = urllib.request.Request(
        f"{web_url}/api/tables",
        data=json.dumps({"game": "kings-corner"}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return str(json.load(response)["table"])


def wait_until(check: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"never: {what}")
        time.sleep(0.05)


def test_an_unanswered_line_is_sent_again_same_id_and_answered_once(
    stack: Stack, mqtt_recorder: Callable[..., Any]
) -> None:
    assert stack.web is not None and stack.assistant is not None
    table = create_table(stack.web.url.rstrip("/"))
    seat = join(stack.web.url.rstrip("/"), table, "Ana", "en")
    say_topic = topics.seat_topic(table, seat.seat, "say")
    # What the seat says, read with the assistant's own login (a second client of it).
    heard = mqtt_recorder(stack.assistant.url.geturl(), [say_topic])
    replies: list[dict[str, Any]] = []
    lock = threading.Lock()

    def on_message(kind: str, message: dict[str, Any]) -> None:
        if kind == "reply":
            with lock:
                replies.append(message)

    link = SeatLink(seat, on_message)
    link.start()
    assistant: AssistantRunner | None = None
    try:
        assert link.connected.wait(WAIT)
        stack.assistant.stop()  # nobody answers: the line stays unanswered

        line_id = link.say("whose turn is it?", "en")
        wait_until(lambda: len(heard.payloads(say_topic)) >= 1, "the line reached the broker")
        assert link.unanswered() == [line_id]
        sent_before = len(heard.payloads(say_topic))

        link.connected.clear()
        link.client.reconnect()  # the connection drops and comes back
        assert link.connected.wait(WAIT)
        wait_until(
            lambda: len(heard.payloads(say_topic)) > sent_before, "a copy after the reconnection"
        )
        copies = [json.loads(payload) for payload in heard.payloads(say_topic)]
        assert {copy["id"] for copy in copies} == {line_id}  # never a new id
        assert {copy["text"] for copy in copies} == {"whose turn is it?"}
        assert link.unanswered() == [line_id]

        # The assistant is back: the next copy is answered, and the line settles.
        assistant = AssistantRunner(stack.assistant.url).start()
        wait_until(lambda: any(r.get("id") == line_id for r in replies), "the reply")
        wait_until(lambda: link.unanswered() == [], "the line settled")
        settled_copies = len(heard.payloads(say_topic))
        time.sleep(2.5)  # longer than RESEND_AFTER: nothing more is sent, nothing shown twice
        assert len(heard.payloads(say_topic)) == settled_copies
        with lock:
            assert [r for r in replies if r.get("id") == line_id][1:] == []
    finally:
        link.stop()
        if assistant is not None:
            assistant.stop()


def test_an_unanswered_host_command_is_sent_again_same_id_and_applied_once(
    stack: Stack, mqtt_recorder: Callable[..., Any]
) -> None:
    assert stack.web is not None and stack.tables is not None
    web = stack.web.url.rstrip("/")
    table = create_table(web)
    seat = join(web, table, "Ana", "en")
    join(web, table, "Ben", "en")  # two players: the table can start
    assert seat.host
    intent_topic = topics.host_topic(table, "intent")
    reply_topic = topics.host_topic(table, "reply")
    # What the host sends and what the tables service answers, read with its own login.
    heard = mqtt_recorder(stack.tables.url.geturl(), [intent_topic, reply_topic])
    replies: list[dict[str, Any]] = []
    views: list[dict[str, Any]] = []
    lock = threading.Lock()

    def on_message(kind: str, message: dict[str, Any]) -> None:
        with lock:
            if kind == "reply":
                replies.append(message)
            elif kind == "table_view":
                views.append(message)

    link = SeatLink(seat, on_message)
    link.start()
    tables: TablesRunner | None = None
    try:
        assert link.connected.wait(WAIT)
        stack.tables.stop()  # nobody answers: the command stays unanswered

        command_id = link.host("start")
        wait_until(lambda: len(heard.payloads(intent_topic)) >= 1, "the command reached the broker")
        assert link.unanswered() == [command_id]
        sent_before = len(heard.payloads(intent_topic))
        link.connected.clear()
        link.client.reconnect()  # the connection drops and comes back
        assert link.connected.wait(WAIT)
        wait_until(
            lambda: len(heard.payloads(intent_topic)) > sent_before,
            "a copy after the reconnection",
        )
        wait_until(lambda: len(heard.payloads(intent_topic)) >= 3, "a copy on the timer")
        copies = [json.loads(payload) for payload in heard.payloads(intent_topic)]
        assert {(copy["id"], copy["op"]) for copy in copies} == {(command_id, "start")}

        # The tables service is back: the copies waiting for it start the table once.
        tables = TablesRunner(stack.tables.url, stack.settings.data).start()
        wait_until(lambda: link.unanswered() == [], "the command settled")
        with lock:
            mine = [r for r in replies if r.get("id") == command_id]
        assert [r["status"] for r in mine] == ["ok"]  # shown once
        wait_until(lambda: any(v.get("status") == "playing" for v in views), "the table started")
        time.sleep(2.5)  # longer than RESEND_AFTER: nothing more is sent
        answers = [json.loads(p) for p in heard.payloads(reply_topic)]
        answers = [a for a in answers if a.get("id") == command_id]
        assert answers and {a["status"] for a in answers} == {"ok"}  # copies: answered again
        assert len({a["seq"] for a in answers}) == 1  # and never applied twice
    finally:
        link.stop()
        if tables is not None:
            tables.stop()


@pytest.mark.parametrize("intent_qos", [0, 1])
def test_intents_go_at_the_qos_the_tables_service_asks_and_lines_at_qos_1(
    stack: Stack, intent_qos: int
) -> None:
    """The join response's ``intent_qos`` (0 on a NATS cluster) is what the sync and host
    commands go at; typed lines go to the assistant, which listens at QoS 1."""
    assert stack.web is not None
    web = stack.web.url.rstrip("/")
    table = create_table(web)
    joined = join(web, table, "Ana", "en")
    assert joined.intent_qos == 1  # what the tables service on SQLite asks
    seat = replace(joined, intent_qos=intent_qos)  # as a NATS cluster's would
    link = SeatLink(seat, lambda kind, message: None)
    # The QoS each topic was first published at, read at paho's door (the embedded broker
    # hands a QoS 0 message to a QoS 1 subscriber at QoS 1, so a listener cannot tell).
    sent: dict[str, int] = {}
    publish = link.client.publish

    def spy(topic: str, payload: Any = None, qos: int = 0, retain: bool = False) -> Any:
        sent.setdefault(topic, qos)
        return publish(topic, payload, qos=qos, retain=retain)

    link.client.publish = spy  # type: ignore[method-assign]
    try:
        link.start()
        assert link.connected.wait(WAIT)
        link.host("start")
        link.say("whose turn is it?", "en")
        wait_until(lambda: len(sent) == 4, "the four messages")
        assert sent == {
            topics.seat_topic(table, seat.seat, "presence"): 1,
            topics.seat_topic(table, seat.seat, "intent"): intent_qos,
            topics.host_topic(table, "intent"): intent_qos,
            topics.seat_topic(table, seat.seat, "say"): 1,
        }
    finally:
        link.stop()
