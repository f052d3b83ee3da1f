"""Table codes, player ids and tokens: random, and stored only as hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets

# No 0/O or 1/I: a code is read off a TV across the room and typed on a phone.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5  # 32^5 = 33.5 million codes; wrong guesses are rate-limited (web guard)
TOKEN_BYTES = 24  # 192 bits


def new_table_code(length: int = CODE_LENGTH) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def new_player_id(prefix: str = "p") -> str:
    return f"{prefix}{secrets.token_hex(8)}"


def new_token() -> str:
    """A bearer token of 192 random bits, URL-safe."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    # Tokens carry 192 random bits, so a fast hash is enough: there is nothing to brute-force.
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, token_hash: str) -> bool:
    return hmac.compare_digest(hash_token(token), token_hash)


def new_seed() -> int:
    return secrets.randbits(63)
