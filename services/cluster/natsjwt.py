"""The few NATS JWTs the auth callout reads and writes, signed with ed25519 nkeys.

A NATS JWT is ``base64url(header).base64url(claims).base64url(signature)`` with the header
``{"typ": "JWT", "alg": "ed25519-nkey"}``; the signer's public nkey is the ``iss`` claim,
and the signature covers the first two parts. We write three kinds:

* the *user* claims (``nats.type = "user"``): who the client is, its account (``aud``)
  and its publish/subscribe permissions;
* the *authorization response* wrapping it (``nats.type = "authorization_response"``),
  addressed to the server that asked (``aud`` = its id) about one connection (``sub`` =
  the user nkey the server made for it), or carrying an ``error`` to refuse it;

and read the server's *authorization request*, which we verify against its issuer.
"""

from __future__ import annotations

import base64
import binascii
import json
import secrets
import time
from typing import Any

import nkeys
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

HEADER = {"typ": "JWT", "alg": "ed25519-nkey"}
NO_LIMIT = -1


class JwtError(ValueError):
    """Not a well-formed, correctly signed NATS JWT."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_account_seed() -> bytes:
    """A fresh account nkey seed (``SA...``): the callout's signing identity."""
    return bytes(nkeys.encode_seed(secrets.token_bytes(32), nkeys.PREFIX_BYTE_ACCOUNT))


def public_key(encoded: bytes) -> Ed25519PublicKey:
    """The ed25519 key inside a public nkey (``N...``, ``A...``, ``U...``), checksum checked."""
    raw = base64.b32decode(encoded + b"=" * (-len(encoded) % 8))
    if len(raw) != 35 or not nkeys.valid_public_prefix_byte(raw[0]):
        raise JwtError("not a public nkey")
    if nkeys.crc16(bytearray(raw[:-2])) != int.from_bytes(raw[-2:], "little"):
        raise JwtError("public nkey checksum mismatch")
    return Ed25519PublicKey.from_public_bytes(raw[1:33])


def encode(claims: dict[str, Any], signer: nkeys.KeyPair) -> str:
    """Sign ``claims`` (``iss``, ``iat`` and ``jti`` are filled in)."""
    body = dict(claims)
    body["iss"] = signer.public_key.decode("ascii")
    body.setdefault("iat", int(time.time()))
    # The server does not check the id; a random one keeps every token distinct.
    body["jti"] = base64.b32encode(secrets.token_bytes(20)).decode("ascii").rstrip("=")
    head = _b64(json.dumps(HEADER, separators=(",", ":")).encode())
    payload = _b64(json.dumps(body, separators=(",", ":")).encode())
    signature = signer.sign(f"{head}.{payload}".encode("ascii"))
    return f"{head}.{payload}.{_b64(signature)}"


def decode(token: str) -> dict[str, Any]:
    """The claims of ``token`` once its signature is checked against its ``iss``."""
    try:
        head, payload, signature = token.strip().split(".")
        header = json.loads(_unb64(head))
        claims = json.loads(_unb64(payload))
        issuer = claims["iss"].encode("ascii")
        if header.get("alg") not in ("ed25519-nkey", "ed25519"):
            raise JwtError(f"unexpected algorithm {header.get('alg')!r}")
        public_key(issuer).verify(_unb64(signature), f"{head}.{payload}".encode("ascii"))
    except JwtError:
        raise
    except (ValueError, KeyError, TypeError, AttributeError, binascii.Error) as error:
        raise JwtError(f"malformed JWT: {error}") from error
    except InvalidSignature as error:
        raise JwtError("bad JWT signature") from error
    if not isinstance(claims, dict):
        raise JwtError("JWT claims are not an object")
    return claims


def user_claims(
    user_nkey: str, name: str, account: str, publish: list[str], subscribe: list[str]
) -> dict[str, Any]:
    """A user in ``account`` that may publish and subscribe only to the subjects given."""
    return {
        "sub": user_nkey,
        "name": name,
        "aud": account,
        "nats": {
            "pub": {"allow": publish},
            "sub": {"allow": subscribe},
            "subs": NO_LIMIT,
            "data": NO_LIMIT,
            "payload": NO_LIMIT,
            "type": "user",
            "version": 2,
        },
    }


def authorization_response(
    user_nkey: str, server_id: str, user_jwt: str | None = None, error: str | None = None
) -> dict[str, Any]:
    """The answer to one request: the user's JWT, or an error that refuses the login."""
    nats: dict[str, Any] = {"type": "authorization_response", "version": 2}
    if user_jwt is not None:
        nats["jwt"] = user_jwt
    if error is not None:
        nats["error"] = error
    return {"sub": user_nkey, "aud": server_id, "nats": nats}
