"""Where the tables service keeps its tables, and how its copies share them.

The one place that chooses: ``open_store`` (SQLite file or NATS JetStream, from
``--store``), ``open_accounts`` (players' broker accounts: through the broker's own
accounts API, or ``NatsAccounts`` on the NATS tier), and ``SharedCopy`` (the lease
keeper and the sharing rules that several copies on one NATS cluster need).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from services.broker.accounts import BrokerAccounts
from services.broker.credentials import ServiceCredentials
from services.mqtt import BrokerUrl
from services.tables.jetstream import JetStreamStore
from services.tables.keeper import LeaseKeeper
from services.tables.service import Accounts, TablesService
from services.tables.sharing import Sharing
from services.tables.store import Store
from services.tables.stores import TableStore, store_kind

log = logging.getLogger("gamenight.tables")

AccountsKind = Literal["broker", "nats"]


def open_store(spec: str | Path | None, owner: str, url: BrokerUrl) -> TableStore:
    """The store ``spec`` names (see ``store_kind``), started.

    On NATS the service logs in with the same service account as on the broker.
    """
    kind, where = store_kind(spec)
    if kind == "sqlite":
        return Store(where)
    store = JetStreamStore(where.split(","), owner, user=url.username, password=url.password)
    return store.start()


def default_accounts(store: TableStore) -> AccountsKind:
    """Players' accounts live where the store is: the NATS tier, or the one broker."""
    return "nats" if isinstance(store, JetStreamStore) else "broker"


def open_accounts(
    kind: AccountsKind,
    url: BrokerUrl,
    store: TableStore,
    timeout: float,
    secret_file: Path | None = None,
) -> tuple[Accounts, Callable[[], None]]:
    """The accounts provisioner and how to close it."""
    if kind == "broker":
        accounts = BrokerAccounts.connect(url, timeout)
        return accounts, accounts.close
    if not isinstance(store, JetStreamStore):
        raise ValueError("NATS accounts need the NATS store (--store nats://...)")
    from services.cluster.accounts import NatsAccounts  # type: ignore[import-not-found,import-untyped,unused-ignore]

    nats_accounts = NatsAccounts(store.nats.urls, ServiceCredentials.load(secret_file))
    nats_accounts.start()
    return nats_accounts, nats_accounts.stop


class SharedCopy:
    """One copy among several on a NATS cluster: leases kept, tables taken over, gates."""

    def __init__(
        self, store: JetStreamStore, service: TablesService, on_takeover: Callable[[], None]
    ) -> None:
        self.keeper = LeaseKeeper(store, service, on_takeover)
        self.sharing = Sharing(store, service, self.keeper)

    def before_restore(self) -> None:
        """A first heartbeat: our leases must be valid before the restored tables write."""
        self.sharing.start()
        if not self.keeper.heartbeat():
            raise RuntimeError("NATS did not take our first lease heartbeat")

    def start(self) -> None:
        self.keeper.start()

    def stop(self) -> None:
        self.keeper.stop()
