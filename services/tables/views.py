"""The messages the tables service publishes: public view, seat views, events."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import orjson

from engine.game import Event
from services.tables.table import Table
from services.wire import dumps


def table_view(table: Table) -> dict[str, Any]:
    """What the TV shows: never a hidden card (the engine's ``view_for(None)``)."""
    return {
        "v": 1,
        "table": table.code,
        "epoch": table.epoch,
        "seq": table.seq,
        "status": table.status,
        "game": table.game,
        "game_no": table.game_no,
        "solo_best": table.solo_best,
        "options": table.options,
        "option_specs": table.option_specs(),
        "players": [table.seats[seat].public() for seat in sorted(table.seats)],
        "state": table.state.view_for(None) if table.state is not None else None,
        "locked": table.locked,
        "paused": table.paused,
        "away": {"level": table.away_level, "wait": table.away_wait},
    }


def merged_state(shared: dict[str, Any], private: dict[str, Any]) -> dict[str, Any]:
    """A seat's state: the public one and the seat's own part (which wins a shared key)."""
    return {**shared, **private}


def seat_view(
    table: Table,
    seat: int,
    kicked: bool = False,
    public: dict[str, Any] | None = None,
    merge: Callable[[dict[str, Any], dict[str, Any]], Any] = merged_state,
) -> dict[str, Any]:
    """What one phone shows: its own hand and legal actions, nobody else's cards.

    ``public``: this table's public view, when already built (a move builds it once).
    ``merge``: makes the state from the public and private parts (``merged_state``, or
    the same already serialised: ``PublicView``).
    """
    info = table.seats.get(seat)
    state = None
    if table.state is not None and not kicked and seat < table.state.seats:
        shared = public["state"] if public is not None else table.state.view_for(None)
        state = merge(shared, table.state.private_view(seat))
    view: dict[str, Any] = {
        "v": 1,
        "table": table.code,
        "epoch": table.epoch,
        "seq": table.seq,
        "seat": seat,
        "game_no": table.game_no,
        "name": info.name if info is not None else "",
        "host": bool(info and info.host),
        "state": state,
    }
    if info is not None and not kicked:
        # The seat's own player id: the phone (or bot) signs its intents with it.
        view["player"] = info.player_id
    if info is not None and info.stand_in is not None and not kicked:
        # For the bot playing while the player is away: it signs with its own id.
        view["stand_in"] = {"player": info.stand_in, "level": table.away_level}
    if kicked:
        view["kicked"] = True
    return view


def events_message(table: Table, events: Iterable[Event]) -> dict[str, Any]:
    """The public, redacted form of the events of one entry."""
    return {
        "v": 1,
        "table": table.code,
        "epoch": table.epoch,
        "seq": table.seq,
        "events": [event.for_seat(None) for event in events],
    }


class PublicView:
    """A table's public view, its state serialised once for the TV and every seat.

    A seat's view holds the public state plus the seat's own part (``merged_state``); its
    bytes are the public state's with the seat's part spliced in: the same bytes as the
    merged state serialised whole (``tests/services/tables/test_view_bytes.py``), for
    one serialisation of the public state a move instead of one per seat and the TV.
    """

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        state = view["state"]
        self.state = state if isinstance(state, dict) and state else None
        self.state_bytes = dumps(self.state) if self.state is not None else b""

    def encoded(self) -> bytes:
        if self.state is None:
            return dumps(self.view)
        return dumps({**self.view, "state": orjson.Fragment(self.state_bytes)})

    def merge(self, shared: dict[str, Any], private: dict[str, Any]) -> Any:
        """The seat's state, as ``merged_state`` makes it (or its bytes, once serialised)."""
        if shared is not self.state or not private or not shared.keys().isdisjoint(private):
            return merged_state(shared, private)  # a key of both: the seat's part wins
        return orjson.Fragment(self.state_bytes[:-1] + b"," + dumps(private)[1:])
