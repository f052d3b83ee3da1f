"""The self-signed certificate of ``gamenight serve --https``, made once, kept with the data.

A phone trusts it after a one-time "accept" step (the TV explains it). Its subject names
are the advertised address, the host name, ``localhost`` and ``127.0.0.1``; it is made
again only when the advertised address (or host name) is not among them, or when it is
about to expire, so a phone accepts it once per address.

The key file is readable by its owner and group only: in compose.yml, Mosquitto (user
1883) makes it, and the web service reads it through group 1883.

    python -m services.tls --dir DIR [--host IP-OR-NAME ...]
"""

from __future__ import annotations

import argparse
import datetime
import ipaddress
import os
import socket
import ssl
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CERT_NAME = "cert.pem"
KEY_NAME = "key.pem"
VALID_DAYS = 825
RENEW_DAYS = 30  # made again this long before it expires
ALWAYS_NAMES = ("localhost",)
ALWAYS_ADDRESSES = ("127.0.0.1",)


@dataclass(frozen=True, slots=True)
class CertificateFiles:
    """Where the certificate and its key are (PEM)."""

    cert: Path
    key: Path

    @classmethod
    def in_folder(cls, folder: Path) -> CertificateFiles:
        return cls(folder / CERT_NAME, folder / KEY_NAME)

    def server_context(self) -> ssl.SSLContext:
        """A TLS server context with this certificate (TLS 1.2 at least)."""
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        context.load_cert_chain(self.cert, self.key)
        return context


def _wanted(addresses: Iterable[str], names: Iterable[str]) -> tuple[set[str], set[str]]:
    ips = {str(ipaddress.ip_address(a)) for a in (*addresses, *ALWAYS_ADDRESSES)}
    hosts = {n.lower() for n in (*names, *ALWAYS_NAMES) if n}
    return ips, hosts


def subject_names(cert: x509.Certificate) -> tuple[set[str], set[str]]:
    """The IP addresses and DNS names a certificate is for."""
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return set(), set()
    ips = {str(ip) for ip in san.get_values_for_type(x509.IPAddress)}
    hosts = {name.lower() for name in san.get_values_for_type(x509.DNSName)}
    return ips, hosts


def covers(files: CertificateFiles, addresses: Iterable[str], names: Iterable[str]) -> bool:
    """True if the files hold a readable, lasting certificate for all these names."""
    try:
        cert = x509.load_pem_x509_certificate(files.cert.read_bytes())
        serialization.load_pem_private_key(files.key.read_bytes(), password=None)
    except (OSError, ValueError):
        return False
    renew_at = cert.not_valid_after_utc - datetime.timedelta(days=RENEW_DAYS)
    if datetime.datetime.now(datetime.UTC) >= renew_at:
        return False
    want_ips, want_hosts = _wanted(addresses, names)
    have_ips, have_hosts = subject_names(cert)
    return want_ips <= have_ips and want_hosts <= have_hosts


def make_certificate(
    files: CertificateFiles, addresses: Iterable[str], names: Iterable[str]
) -> None:
    """Write a new self-signed certificate (ECDSA P-256) and its key."""
    ips, hosts = _wanted(addresses, names)
    key = ec.generate_private_key(ec.SECP256R1())
    common = sorted(hosts - set(ALWAYS_NAMES)) or ["localhost"]
    subject = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Game Night"),
            x509.NameAttribute(NameOID.COMMON_NAME, f"Game Night on {common[0]}"[:64]),
        ]
    )
    now = datetime.datetime.now(datetime.UTC)
    alternative: list[x509.GeneralName] = [x509.DNSName(h) for h in sorted(hosts)]
    alternative += [x509.IPAddress(ipaddress.ip_address(ip)) for ip in sorted(ips)]
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))  # phones with a slow clock
        .not_valid_after(now + datetime.timedelta(days=VALID_DAYS))
        .add_extension(x509.SubjectAlternativeName(alternative), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256())
    )
    files.cert.parent.mkdir(parents=True, exist_ok=True)
    _write(
        files.key,
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ),
        0o640,
    )
    _write(files.cert, cert.public_bytes(serialization.Encoding.PEM), 0o644)


def _write(path: Path, data: bytes, mode: int) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    temporary.chmod(mode)  # the umask may have taken bits away
    temporary.replace(path)


def ensure_certificate(
    folder: Path, addresses: Iterable[str], names: Iterable[str] | None = None
) -> CertificateFiles:
    """The certificate in ``folder``, made (again) if it does not cover these names."""
    addresses = list(addresses)
    names = [socket.gethostname()] if names is None else list(names)
    files = CertificateFiles.in_folder(folder)
    if not covers(files, addresses, names):
        make_certificate(files, addresses, names)
    return files


def ensure_certificate_for_hosts(folder: Path, hosts: Iterable[str]) -> CertificateFiles:
    """``ensure_certificate`` for a mixed list of IP addresses and host names."""
    addresses, names = [], [socket.gethostname()]
    for host in hosts:
        try:
            addresses.append(str(ipaddress.ip_address(host)))
        except ValueError:
            names.append(host)
    return ensure_certificate(folder, addresses, names)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m services.tls", description=__doc__)
    parser.add_argument("--dir", type=Path, required=True, help="where cert.pem and key.pem go")
    parser.add_argument(
        "--host", action="append", default=[], help="an IP address or host name phones use"
    )
    args = parser.parse_args(argv)
    try:
        files = ensure_certificate_for_hosts(args.dir, [h for h in args.host if h])
    except (OSError, ValueError) as problem:
        print(f"services.tls: {problem}", file=sys.stderr)
        return 2
    print(files.cert)
    return 0


if __name__ == "__main__":
    sys.exit(main())
