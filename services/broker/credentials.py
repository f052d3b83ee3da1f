"""Service accounts: one secret given at start, one derived password per service.

Every service (tables, web, bots, assistant) logs in to the broker with its own name as
username and ``HMAC-SHA256(secret, name)`` as password. The broker and each service get
the same secret (a file, or the ``GAMENIGHT_SERVICE_SECRET`` variable), so no password
list has to be kept in step, and a secret file never ends up on a command line.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

SERVICE_NAMES = ("tables", "web", "bots", "assistant")
SECRET_ENV = "GAMENIGHT_SERVICE_SECRET"
SECRET_FILE_ENV = "GAMENIGHT_SERVICE_SECRET_FILE"
_LABEL = b"gamenight/broker/service/"
MIN_SECRET_CHARS = 16


class ServiceSecretError(RuntimeError):
    """No service secret was given."""


@dataclass(frozen=True, slots=True)
class ServiceCredentials:
    """The service accounts the broker accepts, and the password of each."""

    secret: str = field(repr=False)
    names: tuple[str, ...] = SERVICE_NAMES

    def __post_init__(self) -> None:
        if len(self.secret) < MIN_SECRET_CHARS:
            raise ValueError(f"a service secret needs at least {MIN_SECRET_CHARS} characters")

    def password(self, name: str) -> str:
        """The password of service ``name``."""
        if name not in self.names:
            raise KeyError(f"not a service account: {name!r}")
        digest = hmac.new(self.secret.encode("utf-8"), _LABEL + name.encode(), hashlib.sha256)
        return base64.urlsafe_b64encode(digest.digest()).decode("ascii").rstrip("=")

    def is_service(self, username: str) -> bool:
        return username in self.names

    def check(self, username: str, password: str) -> bool:
        """Whether ``username``/``password`` is one of the service accounts."""
        if username not in self.names:
            return False
        return hmac.compare_digest(self.password(username).encode(), password.encode())

    @classmethod
    def generate(cls, names: tuple[str, ...] = SERVICE_NAMES) -> ServiceCredentials:
        return cls(secrets.token_urlsafe(32), names)

    @classmethod
    def load(
        cls,
        secret_file: Path | None = None,
        env: Mapping[str, str] | None = None,
        names: tuple[str, ...] = SERVICE_NAMES,
    ) -> ServiceCredentials:
        """From ``secret_file``, else ``$GAMENIGHT_SERVICE_SECRET_FILE``, else the variable."""
        env = os.environ if env is None else env
        path = secret_file or (Path(env[SECRET_FILE_ENV]) if env.get(SECRET_FILE_ENV) else None)
        if path is not None:
            return cls(path.read_text("utf-8").strip(), names)
        if env.get(SECRET_ENV):
            return cls(env[SECRET_ENV].strip(), names)
        raise ServiceSecretError(f"no service secret: give a secret file or set {SECRET_ENV}")


def ensure_secret_file(path: Path) -> ServiceCredentials:
    """Read the secret at ``path``, creating it (mode 0600) with a fresh one if missing."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(secrets.token_urlsafe(32) + "\n")
    return ServiceCredentials.load(path)
