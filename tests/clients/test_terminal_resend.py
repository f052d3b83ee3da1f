"""The terminal hand never loses a line: one left unanswered is sent again, with the same
id, after a reconnection and on a timer, until its reply comes; the reply shows once."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from clients.terminal.link import SeatLink, join
from protocol import topics
from services.assistant.runner import AssistantRunner
from services.serve import Stack, StackSettings

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
