"""Mosquitto 2.0 for Game Night: its configuration, its dynsec file, and a process runner.

The dynamic-security plugin holds every account. Its JSON file is written here, offline,
with the service accounts (derived from the service secret, see ``credentials``) and
defaults that deny publish, receive and subscribe unless an ACL entry allows it. Players
are added later through ``BrokerAccounts`` while Mosquitto runs.

    python -m services.broker.mosquitto config --out mosquitto.conf --dynsec-file FILE ...
    python -m services.broker.mosquitto dynsec --file FILE [--service-secret-file SECRET]

``deploy/mosquitto/mosquitto.conf`` (what compose.yml mounts) is ``container_config()``:
``config --out deploy/mosquitto/mosquitto.conf --persistence-dir /mosquitto/data``.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import hashlib
import json
import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from services.broker.credentials import ServiceCredentials, ServiceSecretError
from services.broker.dynsec import SERVICE_ROLE, service_acls
from services.broker.limits import (
    MAX_PACKET_BYTES,
    MAX_QUEUED_BYTES,
    MAX_QUEUED_MESSAGES,
    raise_open_file_limit,
)
from services.broker.settings import Address, BrokerEndpoint
from services.tls import CERT_NAME, KEY_NAME, ensure_certificate_for_hosts

DEFAULT_BINARY = Path("/usr/sbin/mosquitto")
DEFAULT_PLUGIN = Path("/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so")
# In the eclipse-mosquitto image (what compose.yml runs).
CONTAINER_PLUGIN = Path("/usr/lib/mosquitto_dynamic_security.so")
CONTAINER_DYNSEC_FILE = Path("/mosquitto/data/dynamic-security.json")
DYNSEC_ITERATIONS = 101  # Mosquitto's own default; service passwords are 256-bit HMACs
ALL_INTERFACES_MQTT = Address("0.0.0.0", 1883)
ALL_INTERFACES_WS = Address("0.0.0.0", 9001)
ALL_INTERFACES_WSS = Address("0.0.0.0", 9002)
# The certificate compose.yml's broker-init makes, beside the dynsec file (services.tls).
CONTAINER_TLS_DIR = Path("/mosquitto/data/tls")
DEFAULT_ACL_ACCESS = {
    "publishClientSend": False,
    "publishClientReceive": False,  # Mosquitto's default is allow; a player reads only grants
    "subscribe": False,
    "unsubscribe": True,
}


@dataclass(frozen=True, slots=True)
class MosquittoConfig:
    """What goes into ``mosquitto.conf``."""

    dynsec_file: Path
    tcp: Address | None = ALL_INTERFACES_MQTT
    ws: Address | None = ALL_INTERFACES_WS
    # WebSocket over TLS (wss:) for pages served over https, with (cert, key) PEM files.
    wss: Address | None = None
    certificate: tuple[Path, Path] | None = None
    plugin: Path = DEFAULT_PLUGIN
    persistence_dir: Path | None = None
    user: str | None = None  # None: Mosquitto's default (drops root to user "mosquitto")
    log_types: tuple[str, ...] = field(default=("error", "warning", "notice"))

    def render(self) -> str:
        lines = [
            "# Written by services.broker.mosquitto: regenerate instead of editing.",
            "per_listener_settings false",
            "allow_anonymous false",
            "set_tcp_nodelay true",
            # The limits of services/broker/limits.py: a larger packet closes its
            # connection; an offline client's queue is bounded in messages and bytes.
            f"max_packet_size {MAX_PACKET_BYTES}",
            f"max_queued_messages {MAX_QUEUED_MESSAGES}",
            f"max_queued_bytes {MAX_QUEUED_BYTES}",
        ]
        if self.user is not None:
            lines.append(f"user {self.user}")
        if self.persistence_dir is None:
            lines.append("persistence false")
        else:
            lines += ["persistence true", f"persistence_location {self.persistence_dir}/"]
        lines.append("log_dest stderr")
        lines += [f"log_type {kind}" for kind in self.log_types]
        if self.tcp is not None:
            lines += ["", f"listener {self.tcp.port} {self.tcp.host}", "protocol mqtt"]
        if self.ws is not None:
            lines += _websocket_listener(self.ws)
        if self.wss is not None:
            if self.certificate is None:
                raise ValueError("a wss listener needs a certificate")
            lines += _websocket_listener(self.wss)
            # Mosquitto reads these as user "mosquitto": services.tls makes the key 0640.
            lines += [f"certfile {self.certificate[0]}", f"keyfile {self.certificate[1]}"]
        lines += [
            "",
            f"plugin {self.plugin}",
            f"plugin_opt_config_file {self.dynsec_file}",
        ]
        return "\n".join(lines) + "\n"


def _websocket_listener(address: Address) -> list[str]:
    # Mosquitto 2.0.11 binds a WebSocket listener to every interface, whatever its
    # address (and "bind_interface lo" does not change that), unless the socket
    # domain is named too: then it binds the address given.
    domain = "ipv6" if ":" in address.host else "ipv4"
    return [
        "",
        f"listener {address.port} {address.host}",
        f"socket_domain {domain}",
        "protocol websockets",
    ]


def container_config() -> MosquittoConfig:
    """The configuration compose.yml mounts (``deploy/mosquitto/mosquitto.conf``)."""
    return MosquittoConfig(
        dynsec_file=CONTAINER_DYNSEC_FILE,
        plugin=CONTAINER_PLUGIN,
        persistence_dir=Path("/mosquitto/data"),
        wss=ALL_INTERFACES_WSS,
        certificate=(CONTAINER_TLS_DIR / "cert.pem", CONTAINER_TLS_DIR / "key.pem"),
    )


def dynsec_password(password: str, iterations: int = DYNSEC_ITERATIONS) -> dict[str, Any]:
    """A password entry as the dynsec plugin stores it: PBKDF2-SHA512, base64 fields."""
    salt = base64.b64encode(secrets.token_bytes(12))
    key = hashlib.pbkdf2_hmac(
        "sha512", password.encode("utf-8"), base64.b64decode(salt), iterations
    )
    return {
        "password": base64.b64encode(key).decode("ascii"),
        "salt": salt.decode("ascii"),
        "iterations": iterations,
    }


def dynsec_document(
    credentials: ServiceCredentials, existing: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The dynsec file with our defaults and service accounts; other accounts are kept."""
    document = dict(existing or {})
    names = set(credentials.names)
    clients = [c for c in document.get("clients", []) if c.get("username") not in names]
    for name in credentials.names:
        clients.append(
            {
                "username": name,
                "textName": f"Game Night service {name}",
                **dynsec_password(credentials.password(name)),
                "roles": [{"rolename": SERVICE_ROLE}],
            }
        )
    roles = [r for r in document.get("roles", []) if r.get("rolename") != SERVICE_ROLE]
    roles.append({"rolename": SERVICE_ROLE, "acls": [e.to_json() for e in service_acls()]})
    document.update(
        clients=clients,
        roles=roles,
        groups=document.get("groups", []),
        defaultACLAccess=dict(DEFAULT_ACL_ACCESS),
    )
    return document


def write_dynsec_file(path: Path, credentials: ServiceCredentials) -> None:
    """Create the dynsec file, or refresh its service accounts and defaults (idempotent).

    Mosquitto rewrites this file as accounts change, so it (and its folder) must be
    writable by the user Mosquitto runs as.
    """
    existing = json.loads(path.read_text("utf-8")) if path.exists() else None
    text = json.dumps(dynsec_document(credentials, existing), indent=1) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
    temporary.replace(path)


def free_tcp_port(host: str = "127.0.0.1") -> int:
    """A port nobody listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def _wait_listening(host: str, port: int, process: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"mosquitto exited with status {process.returncode}")
        with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.2):
            return
        time.sleep(0.02)
    raise TimeoutError(f"mosquitto is not listening on {host}:{port} after {timeout} s")


class MosquittoProcess:
    """A Mosquitto broker run as a subprocess on loopback ports (tests, benchmarks)."""

    def __init__(
        self,
        workdir: Path,
        credentials: ServiceCredentials,
        *,
        tcp_port: int = 0,
        ws_port: int = 0,
        binary: Path = DEFAULT_BINARY,
        plugin: Path = DEFAULT_PLUGIN,
        timeout: float = 10.0,
        ws_certificate: tuple[Path, Path] | None = None,
    ) -> None:
        """With ``ws_certificate`` the WebSocket listener speaks wss: only."""
        self.host = "127.0.0.1"
        self.credentials = credentials
        self.tcp_port = tcp_port or free_tcp_port(self.host)
        self.ws_port = ws_port or free_tcp_port(self.host)
        workdir.mkdir(parents=True, exist_ok=True)
        dynsec_file = workdir / "dynamic-security.json"
        write_dynsec_file(dynsec_file, credentials)
        config = MosquittoConfig(
            dynsec_file=dynsec_file,
            tcp=Address(self.host, self.tcp_port),
            ws=None if ws_certificate else Address(self.host, self.ws_port),
            wss=Address(self.host, self.ws_port) if ws_certificate else None,
            certificate=ws_certificate,
            plugin=plugin,
            # Started as root, Mosquitto would switch to user "mosquitto", which cannot
            # reach a private temporary folder: a test broker keeps the caller's user.
            user="root" if os.geteuid() == 0 else None,
        )
        self.config_file = workdir / "mosquitto.conf"
        self.config_file.write_text(config.render(), "utf-8")
        self.log_file = workdir / "mosquitto.log"
        raise_open_file_limit()  # Mosquitto inherits it: idle sockets cannot lock players out
        with self.log_file.open("ab") as log:
            self._process = subprocess.Popen(
                [str(binary), "-c", str(self.config_file)],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        try:
            _wait_listening(self.host, self.tcp_port, self._process, timeout)
            _wait_listening(self.host, self.ws_port, self._process, timeout)
        except BaseException:
            self.stop()
            raise

    @property
    def endpoint(self) -> BrokerEndpoint:
        """Its address and ports, for clients."""
        return BrokerEndpoint("mosquitto", self.host, self.tcp_port, self.ws_port, self.credentials)

    @property
    def pid(self) -> int:
        return self._process.pid

    def stop(self, timeout: float = 5.0) -> None:
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(timeout)

    def __enter__(self) -> MosquittoProcess:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m services.broker.mosquitto", description=__doc__.split("\n\n")[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    conf = commands.add_parser("config", help="write mosquitto.conf")
    conf.add_argument("--out", type=Path, required=True)
    conf.add_argument("--dynsec-file", type=Path, default=CONTAINER_DYNSEC_FILE)
    conf.add_argument("--plugin", type=Path, default=CONTAINER_PLUGIN)
    conf.add_argument("--tcp", type=Address.parse, default=ALL_INTERFACES_MQTT)
    conf.add_argument("--ws", type=Address.parse, default=ALL_INTERFACES_WS)
    conf.add_argument(
        "--wss",
        type=lambda text: None if text == "none" else Address.parse(text),
        default=ALL_INTERFACES_WSS,
        help="the wss: listener (none: no TLS)",
    )
    conf.add_argument("--tls-dir", type=Path, default=CONTAINER_TLS_DIR, help="cert.pem, key.pem")
    conf.add_argument("--persistence-dir", type=Path, default=None)
    conf.add_argument("--user", default=None, help="run as this user (default: mosquitto)")
    dynsec = commands.add_parser("dynsec", help="create or refresh the dynsec file")
    dynsec.add_argument("--file", type=Path, required=True)
    dynsec.add_argument("--service-secret-file", type=Path, default=None)
    dynsec.add_argument(
        "--tls-dir", type=Path, default=None, help="also make the wss: certificate here"
    )
    dynsec.add_argument(
        "--tls-host",
        action="append",
        default=[],
        help="a host name or IP address phones use (the certificate names it)",
    )
    args = parser.parse_args(argv)
    if args.command == "config":
        config = MosquittoConfig(
            dynsec_file=args.dynsec_file,
            tcp=args.tcp,
            ws=args.ws,
            wss=args.wss,
            certificate=(args.tls_dir / CERT_NAME, args.tls_dir / KEY_NAME),
            plugin=args.plugin,
            persistence_dir=args.persistence_dir,
            user=args.user,
        )
        args.out.write_text(config.render(), "utf-8")
        return 0
    try:
        credentials = ServiceCredentials.load(args.service_secret_file)
    except (ServiceSecretError, OSError, ValueError) as problem:
        print(f"mosquitto dynsec: {problem}", file=sys.stderr)
        return 2
    write_dynsec_file(args.file, credentials)
    if args.tls_dir is not None:
        # compose.yml passes the phones' address as GAMENIGHT_PUBLIC_URL.
        public_host = urlsplit(os.environ.get("GAMENIGHT_PUBLIC_URL", "")).hostname
        hosts = [*args.tls_host, public_host or ""]
        ensure_certificate_for_hosts(args.tls_dir, [host for host in hosts if host])
    return 0


if __name__ == "__main__":
    sys.exit(main())
