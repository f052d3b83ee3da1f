"""Our amqtt plugins: who may connect, and what each account may publish, receive, subscribe.

Both are backed by one ``AccountStore`` (passed in the plugin configuration as
``accounts``). They replace amqtt's own file-auth and ACL plugins, whose ``public/+``
grant lets a client subscribe to ``public/#``.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from amqtt.contexts import Action
from amqtt.plugins.base import BaseAuthPlugin, BaseTopicPlugin
from amqtt.session import Session

from services.broker.dynsec import AccountStore, PasswordHash

VERIFIED_REMEMBERED = 4096


def _store(config: Any) -> AccountStore:
    accounts = getattr(config, "accounts", None)
    if not isinstance(accounts, AccountStore):
        raise TypeError("the plugin needs an AccountStore as its 'accounts' option")
    return accounts


# amqtt ships no type information, so its base classes are Any to mypy.
class AccountAuthPlugin(BaseAuthPlugin):  # type: ignore[misc]
    """Accepts a CONNECT only with a known username and its password; never anonymous."""

    @dataclass
    class Config:
        accounts: Any = None

    def __init__(self, context: Any) -> None:
        super().__init__(context)
        self.accounts = _store(self.config)
        # username -> (the stored hash checked, SHA-256 of the password it accepted): a
        # client reconnecting in a loop costs one PBKDF2, not one per connection. A new
        # password is a new hash object, so a changed account is checked afresh.
        self._verified: OrderedDict[str, tuple[PasswordHash, bytes]] = OrderedDict()

    async def _verify(self, username: str, stored: PasswordHash, password: str) -> bool:
        digest = hashlib.sha256(password.encode("utf-8")).digest()
        known = self._verified.get(username)
        if known is not None and known[0] is stored:
            return hmac.compare_digest(known[1], digest)
        # PBKDF2 is slow on purpose: keep it off the event loop.
        if not await asyncio.to_thread(stored.verify, password):
            return False
        self._verified[username] = (stored, digest)
        while len(self._verified) > VERIFIED_REMEMBERED:
            self._verified.popitem(last=False)
        return True

    async def authenticate(self, *, session: Session) -> bool:
        username, password = session.username, session.password
        if not username or password is None:
            return False
        if isinstance(password, bytes | bytearray):
            password = bytes(password).decode("utf-8", "replace")
        if self.accounts.is_service(username):
            accepted = self.accounts.check_service(username, password)
        else:
            stored = self.accounts.password_hash(username)
            accepted = (
                stored is not None
                and self.accounts.client_id_allowed(username, session.client_id)
                and await self._verify(username, stored, password)
            )
        if accepted and session.will_flag:
            # A last will is a publish made later on the client's behalf: check it now,
            # as Mosquitto does, so a player cannot leave a forged view behind.
            accepted = self.accounts.may_publish(username, session.will_topic or "")
        return bool(accepted)


class AccountTopicPlugin(BaseTopicPlugin):  # type: ignore[misc]
    """Publish, receive and subscribe decisions from the account's ACL entries."""

    @dataclass
    class Config:
        accounts: Any = None

    def __init__(self, context: Any) -> None:
        super().__init__(context)
        self.accounts = _store(self.config)

    async def topic_filtering(
        self,
        *,
        session: Session | None = None,
        topic: str | None = None,
        action: Action | None = None,
    ) -> bool:
        if session is None or topic is None:
            return False
        username = session.username
        if action == Action.PUBLISH:
            return self.accounts.may_publish(username, topic)
        if action == Action.RECEIVE:
            return self.accounts.may_receive(username, topic)
        if action == Action.SUBSCRIBE:
            return self.accounts.may_subscribe(username, topic)
        return False
