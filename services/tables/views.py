"""The messages the tables service publishes: public view, seat views, events."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engine.game import Event
from services.tables.table import Table


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
    the same already serialised: ``services.tables.service.PublicView``).
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
