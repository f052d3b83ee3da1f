"""Handing an offline seat to a new phone: one-time seat links.

A player whose phone died mid-game has lost its seat's login. Only the host (the TV or
the host's phone, whose logins may send host intents) can ask for a *seat link* for a
seat that is offline; the link carries a random 192-bit token that opens that one seat,
once, for a few minutes. Whoever holds it gets a new login for the seat, and the old
login stops working. Nobody gets a seat without either the host's login (to ask for a
link) or the seat's own (to reconnect).

Links live in memory only: after a restart of the tables service the host asks again.
Only a hash of each token is kept.
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Callable
from dataclasses import dataclass

from services.tables import credentials
from services.tables.table import Table, TableError

LINK_SECONDS = 600.0


@dataclass(frozen=True, slots=True)
class _Link:
    token_hash: str
    expires: float


class SeatLinks:
    """The seat links handed out and not used yet: one per seat, the newest."""

    def __init__(
        self, seconds: float = LINK_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.seconds = seconds
        self._clock = clock
        self._links: dict[tuple[str, int], _Link] = {}

    def issue(self, table: Table, seat: object) -> str:
        """A new token for ``seat`` (the one handed out before stops working)."""
        check_handoff(table, seat)
        assert isinstance(seat, int)
        token = credentials.new_token()
        expires = self._clock() + self.seconds
        self._links[(table.code, seat)] = _Link(credentials.hash_token(token), expires)
        return token

    def redeem(self, table: Table, seat: int, token: str) -> None:
        """Use up the token of ``seat``; ``TableError`` (nothing used up) if it does not open it."""
        link = self._links.get((table.code, seat))
        if link is None or not hmac.compare_digest(link.token_hash, credentials.hash_token(token)):
            raise TableError("seat_link_invalid", seat=seat)
        if self._clock() >= link.expires:
            del self._links[(table.code, seat)]
            raise TableError("seat_link_expired", seat=seat)
        check_handoff(table, seat)
        del self._links[(table.code, seat)]

    def forget(self, code: str, seat: int) -> None:
        """The seat changed hands another way (its phone came back, it was removed)."""
        self._links.pop((code, seat), None)


def check_handoff(table: Table, seat: object) -> None:
    """Raise ``TableError`` unless ``seat`` is a player's seat whose phone is offline."""
    info = table.seats.get(seat) if isinstance(seat, int) else None
    if info is None:
        raise TableError("no_such_seat", seat=seat)
    if info.bot:
        raise TableError("not_a_player_seat", seat=info.seat)
    if info.online:
        raise TableError("seat_online", seat=info.seat, name=info.name)
