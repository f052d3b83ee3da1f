"""The tables service's own work per move, in process: no broker, a real SQLite file.

200 Kings in the Corner tables of two seats; moves chosen by the bots' normal level, played
round robin through ``TablesService.handle`` exactly as the MQTT runner calls it, with a
``publish`` that only keeps the messages. Prints the time to the first flush (the public
view on its way) and to the end of the move (every seat view built), and the move's CPU
time (the thread's: on a shared machine it holds up better than the wall clock). Then the
length of one full collection of the heap the moves left: as the runner's ``HeapKeeper``
finds it between its freezes, just after one, and with nothing frozen (its hourly pass).

    python -m benchmarks.tables_handler [--moves 4000] [--tables 200]
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.latency import percentile
from protocol import topics
from protocol.messages import act_intent
from protocol.topics import Grants
from services.bots.players import hint_action
from services.tables.service import TablesService
from services.tables.store import Store
from services.tables.views import seat_view


class NoAccounts:
    """Broker accounts are not part of a move."""

    def provision(
        self, username: str, password: str, grants: Grants, client_id: str | None = None
    ) -> None:
        return None

    def revoke(self, username: str) -> None:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=4000)
    parser.add_argument("--tables", type=int, default=200)
    args = parser.parse_args()
    published: list[tuple[str, bytes]] = []
    flushed: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        service = TablesService(
            Store(Path(folder) / "bench.db"),
            lambda topic, payload, retain: published.append((topic, payload)),
            NoAccounts(),
            owner="bench",
            flush=lambda: flushed.append(time.perf_counter()),
        )

        def send(topic: str, message: dict[str, Any]) -> list[tuple[str, bytes]]:
            published.clear()
            service.handle(topic, json.dumps(message).encode())
            return list(published)

        codes = []
        for number in range(args.tables):
            created = send(topics.lobby_request("create"), {"v": 1, "id": f"c{number}"})
            code = json.loads(created[-1][1])["data"]["table"]
            for name in ("Ana", "Ben"):
                send(
                    topics.lobby_request("join"),
                    {"v": 1, "id": f"j{number}{name}", "table": code, "name": name},
                )
            send(topics.host_topic(code, "intent"), {"v": 1, "id": f"s{number}", "op": "start"})
            codes.append(code)
        gc.collect()
        gc.freeze()  # as the runner does after restoring its tables
        to_flush: list[float] = []
        whole: list[float] = []
        cpu: list[float] = []
        for move in range(args.moves):
            table = service.tables[codes[move % len(codes)]]
            if table.status != "playing" or table.state is None:
                op = "next_round" if table.status == "round_over" else "rematch"
                send(topics.host_topic(table.code, "intent"), {"v": 1, "id": f"h{move}", "op": op})
                continue
            seat = table.state.current_seat
            assert seat is not None
            view = seat_view(table, seat)
            action = hint_action(view["state"]["game"], view["state"])
            intent = act_intent(f"m{move}", table.seq, view["player"], action)
            payload = json.dumps(intent).encode()
            topic = topics.seat_topic(table.code, seat, "intent")
            flushed.clear()
            cpu_started = time.thread_time()
            started = time.perf_counter()
            service.handle(topic, payload)
            ended = time.perf_counter()
            cpu.append(time.thread_time() - cpu_started)
            whole.append(ended - started)
            to_flush.append((flushed[0] if flushed else ended) - started)
    for name, values in (("to the public view's flush", to_flush), ("whole move", whole)):
        print(
            f"{name:<28} n={len(values)}  median {statistics.median(values) * 1000:.3f}"
            f"  p99 {percentile(values, 0.99) * 1000:.3f} ms"
        )
    print(f"{'CPU per move':<28} n={len(cpu)}  mean {statistics.fmean(cpu) * 1000:.3f} ms")
    report_collections(service)


def report_collections(service: TablesService) -> None:
    """The pause of one full collection, with the tables frozen or not."""

    def pause() -> float:
        times = []
        for _ in range(3):
            started = time.perf_counter()
            gc.collect()
            times.append(time.perf_counter() - started)
        return statistics.median(times) * 1000

    tracked = len(gc.get_objects())
    before = pause()  # everything since the freeze at the start is walked
    gc.freeze()
    after = pause()
    gc.unfreeze()
    unfrozen = pause()
    print(
        f"{'full collection':<28} {len(service.tables)} tables, {tracked} not frozen:"
        f" {before:.2f} ms; just after a freeze {after:.2f} ms; nothing frozen {unfrozen:.2f} ms"
    )


if __name__ == "__main__":
    main()
