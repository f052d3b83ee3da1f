"""The certificate of ``serve --https``: made once, kept, made again only when it must be."""

from __future__ import annotations

import datetime
import socket
import stat
from pathlib import Path

import pytest
from cryptography import x509

from services import tls
from services.tls import CertificateFiles, covers, ensure_certificate, subject_names


def load(files: CertificateFiles) -> x509.Certificate:
    return x509.load_pem_x509_certificate(files.cert.read_bytes())


def test_it_names_the_advertised_address_the_host_name_and_loopback(tmp_path: Path) -> None:
    files = ensure_certificate(tmp_path, ["192.168.1.23"], ["gamenight-pc"])
    ips, names = subject_names(load(files))
    assert ips == {"192.168.1.23", "127.0.0.1"}
    assert names == {"gamenight-pc", "localhost"}
    assert files.cert.parent == tmp_path and files.key.parent == tmp_path


def test_by_default_it_names_this_machines_host_name(tmp_path: Path) -> None:
    files = ensure_certificate(tmp_path, ["10.0.0.42"])
    assert socket.gethostname().lower() in subject_names(load(files))[1]


def test_the_key_is_kept_from_other_users(tmp_path: Path) -> None:
    files = ensure_certificate(tmp_path, ["10.0.0.42"], [])
    assert stat.S_IMODE(files.key.stat().st_mode) == 0o640  # owner and group (Mosquitto's)
    assert stat.S_IMODE(files.cert.stat().st_mode) == 0o644


def test_it_is_made_once_and_kept_while_it_covers_the_address(tmp_path: Path) -> None:
    first = ensure_certificate(tmp_path, ["10.0.0.42"], ["pc"])
    made = first.cert.read_bytes(), first.key.read_bytes()
    again = ensure_certificate(tmp_path, ["10.0.0.42"], ["pc"])
    assert (again.cert.read_bytes(), again.key.read_bytes()) == made  # phones accept it once
    ensure_certificate(tmp_path, [], ["pc"])  # a subset is covered too
    assert first.cert.read_bytes() == made[0]


def test_a_new_advertised_address_makes_a_new_certificate(tmp_path: Path) -> None:
    first = ensure_certificate(tmp_path, ["10.0.0.42"], ["pc"])
    old = first.cert.read_bytes()
    moved = ensure_certificate(tmp_path, ["192.168.1.23"], ["pc"])
    assert moved.cert.read_bytes() != old
    assert "192.168.1.23" in subject_names(load(moved))[0]
    ensure_certificate(tmp_path, ["192.168.1.23"], ["other-name"])
    assert "other-name" in subject_names(load(moved))[1]


def test_a_damaged_or_half_written_pair_is_made_again(tmp_path: Path) -> None:
    files = ensure_certificate(tmp_path, ["10.0.0.42"], ["pc"])
    files.key.write_text("not a key")
    assert not covers(files, ["10.0.0.42"], ["pc"])
    ensure_certificate(tmp_path, ["10.0.0.42"], ["pc"])
    assert covers(files, ["10.0.0.42"], ["pc"])
    files.cert.unlink()
    assert ensure_certificate(tmp_path, ["10.0.0.42"], ["pc"]).cert.exists()


def test_one_about_to_expire_is_made_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = ensure_certificate(tmp_path, ["10.0.0.42"], ["pc"])
    expires = load(files).not_valid_after_utc
    assert expires - datetime.datetime.now(datetime.UTC) > datetime.timedelta(days=800)
    monkeypatch.setattr(tls, "RENEW_DAYS", tls.VALID_DAYS + 1)
    assert not covers(files, ["10.0.0.42"], ["pc"])


def test_a_server_context_loads_it(tmp_path: Path) -> None:
    files = ensure_certificate(tmp_path, ["10.0.0.42"], ["pc"])
    context = files.server_context()
    assert context.minimum_version >= tls.ssl.TLSVersion.TLSv1_2


def test_the_command_line_makes_it_for_mixed_hosts(tmp_path: Path) -> None:
    assert tls.main(["--dir", str(tmp_path), "--host", "192.168.1.9", "--host", "tv.lan"]) == 0
    ips, names = subject_names(load(CertificateFiles.in_folder(tmp_path)))
    assert "192.168.1.9" in ips and "tv.lan" in names
