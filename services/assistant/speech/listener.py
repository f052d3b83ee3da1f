"""The assistant's ears: a seat's ``voice`` clips in, "heard" and then a typed line out.

Clips are decoded on one worker thread (the recogniser is one warm decoder), never on the
MQTT network thread, so views keep arriving while someone speaks. The queue is bounded:
a clip that finds it full is refused (``voice_busy``) rather than heard late.

For each clip, on the seat's ``reply`` topic, under the clip's id:

- a refusal from ``protocol.voice`` (``payload_too_large``, ``voice_too_long``,
  ``bad_voice``), or ``not_heard`` when nothing the seat could say was recognised;
- else ``{"status": "ok", "data": {"kind": "heard", "heard": text}}``, and then the text
  goes on as a typed line would (the tables service or the assistant answers it, same id).
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Mapping
from typing import Any

from protocol import topics
from protocol.messages import ProtocolError
from protocol.voice import clip_id, decode_voice
from services.assistant.speech.grammar import sentences
from services.assistant.speech.recognizer import Recognizer

log = logging.getLogger("gamenight.assistant.voice")
QUEUE_BOUND = 8

ViewOf = Callable[[str, int], Mapping[str, Any] | None]
Reply = Callable[[str, dict[str, Any]], None]
HandleLine = Callable[[str, int, dict[str, Any]], None]


class VoiceListener:
    """Hears the clips of every seat and hands what was said to ``handle_line``."""

    def __init__(self, view_of: ViewOf, reply: Reply, handle_line: HandleLine) -> None:
        self._view_of = view_of
        self._reply = reply
        self._handle_line = handle_line
        self._clips: queue.Queue[tuple[str, int, bytes] | None] = queue.Queue(QUEUE_BOUND)
        self._ready = threading.Event()
        self._worker = threading.Thread(target=self._run, name="assistant-voice", daemon=True)
        self.recognizer: Recognizer | None = None

    def start(self, timeout: float = 10.0) -> None:
        """Load the recogniser (on the worker) and wait until it is warm."""
        self._worker.start()
        self._ready.wait(timeout)

    def stop(self) -> None:
        if self._worker.is_alive():
            self._clips.put(None)
            self._worker.join(5.0)

    def on_voice(self, topic: str, payload: bytes) -> None:
        """The MQTT handler of ``ALL_SEAT_VOICES``: queue the clip, or refuse it."""
        parsed = topics.parse_topic(topic)
        if parsed is None or parsed.table is None or parsed.seat is None:
            return
        try:
            self._clips.put_nowait((parsed.table, parsed.seat, payload))
        except queue.Full:
            reply = _error(clip_id(payload) or "-", "voice_busy", {})
            self._reply(topics.seat_topic(parsed.table, parsed.seat, "reply"), reply)

    def _run(self) -> None:
        self.recognizer = Recognizer()
        self._ready.set()
        while (item := self._clips.get()) is not None:
            try:
                self.hear(*item)
            except Exception:  # one bad clip must not stop the ears
                log.exception("voice clip failed")

    def hear(self, table: str, seat: int, payload: bytes) -> str | None:
        """Recognise one clip of ``seat`` and pass it on; the text heard, if any."""
        reply_topic = topics.seat_topic(table, seat, "reply")
        try:
            clip = decode_voice(payload)
        except ProtocolError as error:
            self._reply(reply_topic, _error(clip_id(payload) or "-", error.code, error.params))
            return None
        view = self._view_of(table, seat)
        state = view.get("state") if view else None
        assert self.recognizer is not None
        heard = self.recognizer.recognize(clip.pcm, sentences(state))
        if heard is None:
            self._reply(reply_topic, _error(clip.id, "not_heard", {}))
            return None
        self._reply(
            reply_topic,
            {"v": 1, "id": clip.id, "status": "ok", "data": {"kind": "heard", "heard": heard}},
        )
        self._handle_line(table, seat, {"v": 1, "id": clip.id, "text": heard, "lang": "en"})
        return heard


def _error(reply_id: str, code: str, params: Mapping[str, Any]) -> dict[str, Any]:
    error = {"code": code, "params": dict(params)}
    return {"v": 1, "id": reply_id, "status": "error", "error": error}
