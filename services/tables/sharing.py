"""Which copy of the tables service handles which message, when several run side by side.

Every copy receives every message. A seat or host intent is handled by the table's
owner only (the others ignore it; its sender resends until answered, so an intent sent
during a takeover is answered by the new owner). A lobby request is handled by exactly
one copy: the candidate is chosen without talking (the table's owner for a join; for a
new table, rendezvous hashing on the request id over the live copies, which spreads new
tables evenly), and the copy that handles it first wins ``create`` on the request's key
in ``gn_requests`` (a compare-and-set), so two copies never both answer. If the chosen
copy is dead (not yet known to be), another one takes the request after
``LOBBY_FALLBACK_SECONDS``.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Literal

from nats.js.errors import KeyWrongLastSequenceError
from nats.js.kv import KeyValue

from services.tables.jetstream import JetStreamStore
from services.tables.keeper import LeaseKeeper, rendezvous
from services.tables.service import TablesService

REQUESTS_BUCKET = "gn_requests"
REQUEST_MEMORY_SECONDS = 600.0  # a request id is never handled twice within this
LOBBY_FALLBACK_SECONDS = 1.0
_SAFE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
Choice = Literal["now", "later", "skip"]


class Sharing:
    """The decisions of one copy: whose message is this?"""

    def __init__(self, store: JetStreamStore, service: TablesService, keeper: LeaseKeeper) -> None:
        self.store = store
        self.service = service
        self.keeper = keeper
        self.owner = store.owner
        self._requests: KeyValue | None = None

    def start(self) -> Sharing:
        self._requests = self.store.nats.run(
            self.store.nats.js.create_key_value(
                bucket=REQUESTS_BUCKET,
                history=1,
                ttl=REQUEST_MEMORY_SECONDS,
                replicas=self.store.replicas,
            )
        )
        return self

    def table_message(self, code: str) -> bool:
        """Whether this copy handles a seat or host message of table ``code``."""
        if code in self.service.tables:
            return True
        if self.store.table_exists(code):
            return False  # another copy's table (or one being taken over, or closed)
        # Nobody has it: one copy (the same for every copy) answers "unknown table".
        return rendezvous(code, self.keeper.live) == self.owner

    def lobby_choice(self, op: str, payload: bytes) -> Choice:
        """``now``: ours; ``later``: ours only if nobody took it meanwhile; ``skip``."""
        request_id, table = _id_and_table(payload)
        if op == "create" or table is None:
            chosen = rendezvous(request_id, self.keeper.live)
            return "now" if chosen == self.owner else "later"
        return "now" if self.table_message(table) else "skip"

    def first(self, op: str, payload: bytes) -> bool:
        """Claim the request for this copy; False if another copy has it already."""
        assert self._requests is not None
        request_id, _ = _id_and_table(payload)
        if not _SAFE_ID.fullmatch(request_id):
            request_id = hashlib.sha256(payload).hexdigest()[:32]
        try:
            self.store.nats.run(self._requests.create(f"{op}_{request_id}", self.owner.encode()))
        except KeyWrongLastSequenceError:
            return False
        return True


def _id_and_table(payload: bytes) -> tuple[str, str | None]:
    """The request's id and table, as far as they can be read (the service checks them)."""
    try:
        value = json.loads(payload)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return "-", None
    if not isinstance(value, dict):
        return "-", None
    request_id, table = value.get("id"), value.get("table")
    return (
        request_id if isinstance(request_id, str) else "-",
        table if isinstance(table, str) else None,
    )
