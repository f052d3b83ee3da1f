"""Who may log in to the NATS cluster, and with which permissions: our auth callout.

Why a callout and not generated users with a config reload: the accounts change at every
join (a player and TV account per seat and table), from whichever copy of the tables
service handles it, on whichever machine. A reload would have to rewrite and signal the
configuration of every node, from every copy, and a node that was down would come back
with an old list. With the callout the nodes keep no player list at all: each login is a
request on ``$SYS.REQ.USER.AUTH`` that one of several copies of this responder answers
(a queue group, so any copy may die) from the ``gamenight_accounts`` JetStream key-value
bucket, which is replicated on the cluster's nodes like the table log.

The answer is a user JWT signed by the issuer nkey the nodes trust, holding exactly the
account's ``Grants`` as NATS subjects (``services.cluster.natsconf.mqtt_filter_to_subjects``).
The MQTT internals a restricted client needs (the ``$MQTT.sub.<id>`` delivery subject of
its QoS 1 subscriptions) are allowed by the server itself.

Run: ``python -m services.cluster.callout --nats URL[,URL...] --secret-file S
--issuer-file SEED``; ``--ready-file F`` is written once it answers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import signal
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nats
import nkeys
from nats.aio.client import Client as Nats
from nats.aio.msg import Msg
from nats.js.api import KeyValueConfig
from nats.js.client import JetStreamContext
from nats.js.errors import BucketNotFoundError, NotFoundError
from nats.js.kv import KeyValue

from protocol.topics import Grants
from services.broker.credentials import ServiceCredentials
from services.broker.dynsec import PasswordHash
from services.cluster import natsjwt
from services.cluster.natsconf import (
    APP_ACCOUNT,
    AUTH_REQUESTS,
    CALLOUT_USER,
    cluster_credentials,
    mqtt_filter_to_subjects,
)

log = logging.getLogger("gamenight.cluster.callout")

QUEUE_GROUP = "gamenight-callout"
ACCOUNTS_BUCKET = "gamenight_accounts"
ACCOUNTS_STREAM = f"KV_{ACCOUNTS_BUCKET}"
KV_OPERATION = "KV-Operation"
# Player and TV passwords are random tokens of 128+ bits (services/tables/credentials.py):
# stretching adds nothing against guessing them and would cost every login milliseconds.
HASH_ITERATIONS = 1
REFUSED = "not authorized"
# Seconds a lookup may take: the nodes wait 5 (natsconf's authorization timeout).
LOOKUP_BUDGET = 3.5


@dataclass(frozen=True, slots=True)
class AccountRecord:
    """One player or TV account as kept in the bucket (the password only as a hash)."""

    password: PasswordHash
    grants: Grants
    client_id: str | None = None

    @classmethod
    def make(cls, password: str, grants: Grants, client_id: str | None = None) -> AccountRecord:
        return cls(PasswordHash.make(password, HASH_ITERATIONS), grants, client_id)

    def to_bytes(self) -> bytes:
        data = {
            "v": 1,
            "password": self.password.to_json(),
            "read": list(self.grants.read),
            "write": list(self.grants.write),
            "client_id": self.client_id,
        }
        return json.dumps(data, separators=(",", ":")).encode("utf-8")

    @classmethod
    def from_bytes(cls, data: bytes) -> AccountRecord:
        fields = json.loads(data)
        grants = Grants(read=tuple(fields["read"]), write=tuple(fields["write"]))
        return cls(PasswordHash.from_json(fields["password"]), grants, fields.get("client_id"))

    def permissions(self) -> tuple[list[str], list[str]]:
        """(publish, subscribe) NATS subjects of exactly this account's grants."""
        publish = [s for topic in self.grants.write for s in mqtt_filter_to_subjects(topic)]
        subscribe = [s for topic in self.grants.read for s in mqtt_filter_to_subjects(topic)]
        return publish, subscribe


def load_issuer(path: Path) -> nkeys.KeyPair:
    """The issuer's key pair from its seed file."""
    return nkeys.from_seed(path.read_bytes().strip())


def ensure_issuer_file(path: Path) -> nkeys.KeyPair:
    """Read the issuer seed at ``path``, creating it (mode 0600) if missing."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(natsjwt.new_account_seed() + b"\n")
    return load_issuer(path)


@dataclass(frozen=True, slots=True)
class AuthRequest:
    """What a server asks about one connection (its JWT checked)."""

    user_nkey: str
    server_id: str
    username: str
    password: str
    client_id: str | None

    @classmethod
    def decode(cls, token: str) -> AuthRequest:
        nats_claims = natsjwt.decode(token).get("nats", {})
        options = nats_claims.get("connect_opts", {})
        client_id = nats_claims.get("client_info", {}).get("mqtt_id")
        return cls(
            user_nkey=str(nats_claims.get("user_nkey", "")),
            server_id=str(nats_claims.get("server_id", {}).get("id", "")),
            username=str(options.get("user", "")),
            password=str(options.get("pass", "")),
            client_id=None if client_id is None else str(client_id),
        )

    def accepted_by(self, record: AccountRecord | None) -> bool:
        if record is None or not record.password.verify(self.password):
            return False
        # An account bound to one MQTT client id may use no other, as on Mosquitto.
        return record.client_id is None or self.client_id == record.client_id


def answer(request: AuthRequest, record: AccountRecord | None, issuer: nkeys.KeyPair) -> str:
    """The signed response to one authorization request, given the account it names."""
    if record is None or not request.accepted_by(record):
        refusal = natsjwt.authorization_response(
            request.user_nkey, request.server_id, error=REFUSED
        )
        return natsjwt.encode(refusal, issuer)
    publish, subscribe = record.permissions()
    user = natsjwt.user_claims(request.user_nkey, request.username, APP_ACCOUNT, publish, subscribe)
    claims = natsjwt.authorization_response(
        request.user_nkey, request.server_id, user_jwt=natsjwt.encode(user, issuer)
    )
    return natsjwt.encode(claims, issuer)


async def accounts_bucket(js: Any, replicas: int) -> KeyValue:
    """The accounts bucket, created (replicated on ``replicas`` nodes) if it is missing."""
    try:
        kv: KeyValue = await js.key_value(ACCOUNTS_BUCKET)
        return kv
    except BucketNotFoundError:
        # Direct gets: any replica answers a login's lookup, also while the stream's
        # leader is lost with its node and not yet re-elected (seconds in nats-server).
        config = KeyValueConfig(bucket=ACCOUNTS_BUCKET, history=1, replicas=replicas, direct=True)
        created: KeyValue = await js.create_key_value(config)
        return created


def replicas_for(nats_urls: Sequence[str]) -> int:
    return min(3, len(nats_urls))


async def connect(nats_urls: Sequence[str], user: str, password: str, name: str) -> Nats:
    """A nats-py connection that keeps reconnecting to any of ``nats_urls`` forever."""
    return await nats.connect(
        servers=list(nats_urls),
        user=user,
        password=password,
        name=name,
        max_reconnect_attempts=-1,
        reconnect_time_wait=0.2,
        connect_timeout=2,
        allow_reconnect=True,
    )


class CalloutResponder:
    """One copy of the responder: a member of the queue group on ``$SYS.REQ.USER.AUTH``."""

    def __init__(
        self, nats_urls: Sequence[str], credentials: ServiceCredentials, issuer: nkeys.KeyPair
    ) -> None:
        self.nats_urls = list(nats_urls)
        self.credentials = cluster_credentials(credentials)
        self.issuer = issuer
        self._nc: Nats | None = None
        self._js: JetStreamContext = None  # type: ignore[assignment]  # set by start()

    async def start(self) -> None:
        password = self.credentials.password(CALLOUT_USER)
        self._nc = await connect(self.nats_urls, CALLOUT_USER, password, "gamenight-callout")
        self._js = self._nc.jetstream()
        await accounts_bucket(self._js, replicas_for(self.nats_urls))
        await self._nc.subscribe(AUTH_REQUESTS, queue=QUEUE_GROUP, cb=self._on_request)
        await self._nc.flush()

    async def stop(self) -> None:
        if self._nc is not None:
            await self._nc.drain()
            self._nc = None

    async def _on_request(self, msg: Msg) -> None:
        try:
            request = AuthRequest.decode(msg.data.decode("utf-8", "replace"))
            record = await self._lookup(request)
            response = answer(request, record, self.issuer)
        except natsjwt.JwtError:
            log.warning("authorization request with a bad JWT ignored")
            return
        except Exception:  # the server then refuses the login after its timeout
            log.exception("authorization request failed")
            return
        await msg.respond(response.encode("ascii"))

    async def _lookup(self, request: AuthRequest) -> AccountRecord | None:
        """The account, from any replica; from the leader if a replica's copy says no.

        A replica may not have the latest write yet (an account just made or changed), so
        only the leader can say no for sure. Right after a node dies, either read may find
        no responder for a moment: keep trying, within the server's patience.
        """
        if not _valid_key(request.username):
            return None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + LOOKUP_BUDGET
        record: AccountRecord | None = None
        direct = True
        while (remaining := deadline - loop.time()) > 0:
            try:
                record = await asyncio.wait_for(self._read(request.username, direct), remaining)
            except (TimeoutError, nats.errors.Error):
                log.info("lookup of %s (direct=%s) failed; retrying", request.username, direct)
                await asyncio.sleep(0.05)
                direct = not direct
                continue
            if direct and not request.accepted_by(record):
                direct = False
                continue
            return record
        return record

    async def _read(self, username: str, direct: bool) -> AccountRecord | None:
        assert self._nc is not None
        subject = f"$KV.{ACCOUNTS_BUCKET}.{username}"
        try:
            msg = await self._js.get_last_msg(ACCOUNTS_STREAM, subject, direct=direct)
        except NotFoundError:
            return None
        operation = (msg.headers or {}).get(KV_OPERATION)
        if operation is not None or not msg.data:
            return None  # a delete or purge marker: revoked
        return AccountRecord.from_bytes(msg.data)


def _valid_key(username: str) -> bool:
    return bool(username) and username.isascii() and all(c.isalnum() or c in "-_" for c in username)


async def _serve(args: argparse.Namespace) -> None:
    credentials = ServiceCredentials.load(args.secret_file)
    responder = CalloutResponder(args.nats.split(","), credentials, load_issuer(args.issuer_file))
    await responder.start()
    if args.ready_file is not None:
        args.ready_file.write_text(str(os.getpid()), "utf-8")
    log.info("answering %s", AUTH_REQUESTS)
    stopped = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopped.set)
    await stopped.wait()
    await responder.stop()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Game Night's NATS auth callout responder")
    parser.add_argument("--nats", required=True, help="nats://host:port, comma-separated")
    parser.add_argument("--secret-file", type=Path, required=True)
    parser.add_argument("--issuer-file", type=Path, required=True)
    parser.add_argument("--ready-file", type=Path)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    asyncio.run(_serve(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
