"""Voice play: from the end of a spoken move to the TV's view, and the recogniser itself.

1. Through the real stack: the embedded broker and the tables service (each in its own
   process), the assistant in this one. A Kings in the Corner table of two seats; at each
   turn the seat's move is said by espeak-ng (voices and speeds in turn, synthesised before
   the clock starts) and published as a ``voice`` clip; the clock runs from that publish
   (the end of speech, as the phone sends it) to the public view carrying the move (what
   the TV shows). Misses (nothing heard, or a view that never came) are counted, not timed.
   The phone itself waits 0.7 s of quiet before it sends: that pause is not in the figure.
2. The recogniser alone: its resident memory (RSS growth when it is loaded and its first
   grammars are built), and accuracy and decoding time on a spoken set over real positions
   of both games.

    python -m benchmarks.voice [--moves 60] [--spoken 80]
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import psutil

from benchmarks.broker_rtt import embedded
from benchmarks.latency import Driver, percentile, service_process, tables_command
from engine import registry
from protocol import topics
from protocol.voice import encode_voice
from services.assistant.runner import AssistantRunner
from services.assistant.speech import spoken
from services.assistant.speech.grammar import action_sentences, sentences
from services.assistant.speech.recognizer import Recognizer
from services.bots.players import hint_action
from services.broker.credentials import ServiceCredentials

MOVE_TIMEOUT = 5.0


class Heard:
    """The assistant's "heard" replies, by clip id."""

    def __init__(self) -> None:
        self.lock = threading.Condition()
        self.texts: dict[str, str | None] = {}

    def on_reply(self, topic: str, payload: bytes) -> None:
        reply = json.loads(payload)
        with self.lock:
            if reply.get("data", {}).get("heard"):
                self.texts[reply["id"]] = reply["data"]["heard"]
            elif reply.get("error", {}).get("code") == "not_heard":
                self.texts[reply["id"]] = None
            self.lock.notify_all()


def through_the_stack(driver: Driver, moves: int) -> tuple[list[float], int, int]:
    """(latencies, moves heard right, moves said)."""
    heard = Heard()
    driver.client.subscribe(f"{topics.BASE}/table/+/seat/+/reply", heard.on_reply)
    time.sleep(0.3)
    table = driver.open_table()
    right = 0
    for index in range(moves):
        with driver.lock:
            driver.lock.wait_for(lambda: table in driver.public, MOVE_TIMEOUT)
            public = driver.public[table]
            seat = public["state"]["current_seat"]
        if public["status"] != "playing" or seat is None:
            driver.host(table, "next_round" if public["status"] == "round_over" else "rematch")
            time.sleep(0.3)
            continue
        with driver.lock:
            driver.lock.wait_for(
                lambda s=seat, q=public["seq"]: _seat_seq(driver, table, s) == q, MOVE_TIMEOUT
            )
            view = json.loads(driver.seats[(table, seat)])
        text = action_sentences(hint_action(view["state"]["game"], view["state"]))[0]
        voice = spoken.VOICES[index % len(spoken.VOICES)]
        pcm = spoken.speak(text, voice, spoken.SPEEDS[index % len(spoken.SPEEDS)], pad=0.2)
        clip_id = "b" + uuid.uuid4().hex[:10]
        with driver.lock:
            driver.sent[(table, public["seq"] + 1)] = time.perf_counter()
        driver.client.publish(
            topics.seat_topic(table, seat, "voice"), encode_voice(clip_id, pcm), qos=1
        )
        with heard.lock:
            heard.lock.wait_for(lambda c=clip_id: c in heard.texts, MOVE_TIMEOUT)
            right += heard.texts.get(clip_id) == text
        with driver.lock:
            arrived = driver.lock.wait_for(
                lambda q=public["seq"] + 1: driver.public[table]["seq"] >= q, MOVE_TIMEOUT
            )
            if not arrived:
                driver.sent.pop((table, public["seq"] + 1), None)
    return list(driver.latencies), right, moves


def _seat_seq(driver: Driver, table: str, seat: int) -> int:
    payload = driver.seats.get((table, seat))
    return -1 if payload is None else int(json.loads(payload)["seq"])


def positions(count: int, seed: int) -> list[dict[str, Any]]:
    """Seat views at ``count`` positions of random games of both games."""
    rng = random.Random(seed)
    found: list[dict[str, Any]] = []
    while len(found) < count:
        rules = registry.game_rules(("kings-corner", "five-crowns")[len(found) % 2])
        state = rules.new_game(rng.choice((2, 3, 4)), rng.randrange(1 << 30))
        for _ in range(rng.randrange(0, 40)):
            seat = state.current_seat
            if state.outcome() is not None or seat is None or not state.legal_actions(seat):
                break
            state, _ = state.apply(seat, rng.choice(state.legal_actions(seat)))
        if state.current_seat is not None and state.outcome() is None:
            found.append(state.view_for(state.current_seat))
    return found


def recogniser_alone(count: int) -> None:
    process = psutil.Process()
    before = process.memory_info().rss
    recognizer = Recognizer()
    loaded = (process.memory_info().rss - before) / 2**20
    views = positions(count, seed=8)
    pairs = [(view, random.Random(i).choice(sentences(view))) for i, view in enumerate(views)]
    said = spoken.spoken_set([text for _, text in pairs])
    decode_times, cpu_times, right, wrong = [], [], 0, 0
    for clip, (view, _) in zip(said, pairs, strict=True):
        started, cpu = time.perf_counter(), time.process_time()
        heard = recognizer.recognize(clip.pcm, sentences(view))
        decode_times.append(time.perf_counter() - started)
        cpu_times.append(time.process_time() - cpu)
        right += heard == clip.text
        wrong += heard is not None and heard != clip.text
    grown = (process.memory_info().rss - before) / 2**20
    print(
        f"recogniser: RSS +{loaded:.1f} MiB once loaded, +{grown:.1f} MiB after "
        f"{len(set(map(str, views)))} grammars (and the spoken set's samples, held here)"
    )
    print(
        f"recogniser: {right}/{len(said)} exact ({100 * right / len(said):.1f} %), "
        f"{wrong} heard as another sentence, the rest 'not heard'; "
        f"{len({(c.voice, c.speed) for c in said})} voice/speed pairs"
    )
    print(
        f"recogniser: decoding p50 {1000 * percentile(decode_times, 0.5):.0f} ms, "
        f"p99 {1000 * percentile(decode_times, 0.99):.0f} ms wall; CPU time p50 "
        f"{1000 * percentile(cpu_times, 0.5):.0f} ms, p99 {1000 * percentile(cpu_times, 0.99):.0f}"
        f" ms (what it costs on an idle core); clips average "
        f"{sum(len(c.pcm) for c in said) / len(said) / 32000:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--spoken", type=int, default=80)
    args = parser.parse_args()
    if not spoken.available():
        raise SystemExit("espeak-ng and sox are needed (apt-get install espeak-ng sox)")
    credentials = ServiceCredentials.generate()
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        with (
            embedded(credentials, data / "broker") as endpoint,
            service_process(tables_command(endpoint, data / "gamenight.db")),
        ):
            assistant = AssistantRunner(endpoint.service_url("assistant")).start()
            driver = Driver(endpoint)
            try:
                driver.wait_for_service()
                latencies, right, said = through_the_stack(driver, args.moves)
            finally:
                driver.stop()
                assistant.stop()
    if latencies:
        print(
            f"end of speech -> TV view: p50 {1000 * percentile(latencies, 0.5):.0f} ms, "
            f"p99 {1000 * percentile(latencies, 0.99):.0f} ms over {len(latencies)} moves "
            f"({right}/{said} heard exactly)"
        )
    recogniser_alone(args.spoken)
    load = ", ".join(f"{value:.1f}" for value in psutil.getloadavg())
    print(f"(2 shared cores, load average {load}: wall-clock figures are noisy)")


if __name__ == "__main__":
    main()
