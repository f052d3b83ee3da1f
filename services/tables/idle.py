"""When a table nobody uses is closed (its log is kept; it is not restored at start)."""

from __future__ import annotations

from services.tables.table import Table

IDLE_FINISHED_OR_EMPTY = 24 * 3600.0  # seconds: a finished game, or no human seated
IDLE_UNJOINED_LOBBY = 3600.0  # a lobby nobody joined
IDLE_ABANDONED = 7 * 24 * 3600.0  # any other table: a game left for a week


def idle_limit(table: Table) -> float:
    """How long ``table`` may go without a change before it is closed, in seconds."""
    humans = [info for info in table.seats.values() if not info.bot]
    if table.status == "lobby" and not humans:
        return IDLE_UNJOINED_LOBBY
    if table.status == "finished" or not humans:
        return IDLE_FINISHED_OR_EMPTY
    return IDLE_ABANDONED
