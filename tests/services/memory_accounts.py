"""Players' broker accounts, kept in memory, for tests of the tables service without a broker."""

from __future__ import annotations


class MemoryAccounts:
    """What the service provisioned (username -> password) and revoked, in order."""

    def __init__(self) -> None:
        self.made: dict[str, str] = {}
        self.removed: list[str] = []

    def provision(self, username: str, password: str, *args: object, **kwargs: object) -> None:
        self.made[username] = password

    def revoke(self, username: str) -> None:
        self.made.pop(username, None)
        self.removed.append(username)
