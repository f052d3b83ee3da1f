"""The views a move publishes: serialised once and spliced, byte for byte the plain ones.

The tables service serialises a table's public state once per change and splices each
seat's own part into it (``services.tables.views.PublicView``). Every view it
publishes must be the bytes the plain view (built and serialised whole) would be.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from memory_accounts import MemoryAccounts

from protocol import topics
from protocol.messages import act_intent
from services.bots.players import hint_action
from services.tables.service import TablesService
from services.tables.store import Store
from services.tables.views import PublicView, seat_view, table_view
from services.wire import dumps

NAMES = ("Ana", "Ben", "Chloé", "Dario", "Eve", "Fanny", "Gus")


class CheckedViews:
    """A service whose every published view is compared with the plain one, at once."""

    def __init__(self, path: Path) -> None:
        self.views_checked = 0
        self.replies: list[dict[str, Any]] = []
        self.service = TablesService(Store(path), self.publish, MemoryAccounts(), owner="test")

    def publish(self, topic: str, payload: bytes, retain: bool) -> None:
        parsed = topics.parse_topic(topic)
        assert parsed is not None
        if parsed.name == "view" and payload:
            assert parsed.table is not None
            table = self.service.tables[parsed.table]
            if parsed.area == "seat":
                assert parsed.seat is not None
                expected = dumps(seat_view(table, parsed.seat))
            else:
                expected = dumps(table_view(table))
            assert payload == expected
            self.views_checked += 1
        elif parsed.name in ("reply", "response"):
            self.replies.append(json.loads(payload))

    def send(self, topic: str, message: dict[str, Any]) -> dict[str, Any]:
        self.replies.clear()
        self.service.handle(topic, json.dumps(message).encode())
        return self.replies[-1]


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    game=st.sampled_from(["kings-corner", "five-crowns"]),
    seats=st.integers(min_value=2, max_value=4),
    moves=st.integers(min_value=1, max_value=60),
)
def test_every_published_view_is_the_plain_one(
    tmp_path: Path, game: str, seats: int, moves: int
) -> None:
    checked = CheckedViews(tmp_path / f"{game}-{seats}-{moves}.db")
    try:
        created = checked.send(topics.lobby_request("create"), {"v": 1, "id": "c", "game": game})
        code = created["data"]["table"]
        for number in range(seats):
            request = {"v": 1, "id": f"j{number}", "table": code, "name": NAMES[number]}
            assert checked.send(topics.lobby_request("join"), request)["status"] == "ok"
        start = {"v": 1, "id": "s", "op": "start"}
        assert checked.send(topics.host_topic(code, "intent"), start)["status"] == "ok"
        table = checked.service.tables[code]
        for move in range(moves):
            if table.status != "playing" or table.state is None:
                op = "next_round" if table.status == "round_over" else "rematch"
                host = {"v": 1, "id": f"h{move}", "op": op}
                checked.send(topics.host_topic(code, "intent"), host)
                continue
            seat = table.state.current_seat
            assert seat is not None
            view = seat_view(table, seat)
            action = hint_action(view["state"]["game"], view["state"])
            intent = act_intent(f"m{move}", table.seq, view["player"], action)
            reply = checked.send(topics.seat_topic(code, seat, "intent"), intent)
            assert reply["status"] == "ok", reply
    finally:
        checked.service.store.close()
    # The lobby's views, the deal's, and one per seat and the TV's for every move.
    assert checked.views_checked > moves * (seats + 1)


def test_a_key_of_both_parts_is_the_seats() -> None:
    """Where the seat's part names a key of the public state, it wins, as in a dict merge."""
    public = PublicView({"v": 1, "state": {"round": 1, "seat": None}})
    merged = public.merge(public.view["state"], {"seat": 2, "hand": ["QH"]})
    assert merged == {"round": 1, "seat": 2, "hand": ["QH"]}
    spliced = public.merge(public.view["state"], {"hand": ["QH"]})
    assert dumps({"state": spliced}) == dumps({"state": {"round": 1, "seat": None, "hand": ["QH"]}})
    assert public.encoded() == dumps(public.view)
