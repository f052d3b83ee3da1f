"""Mosquitto's generated configuration and dynsec file."""

from __future__ import annotations

import base64
import hashlib
import json
import socket
from pathlib import Path

import pytest

from services.broker.credentials import (
    SECRET_ENV,
    SECRET_FILE_ENV,
    SERVICE_NAMES,
    ServiceCredentials,
)
from services.broker.dynsec import SERVICE_ROLE
from services.broker.mosquitto import (
    MosquittoConfig,
    container_config,
    dynsec_document,
    main,
    write_dynsec_file,
)
from services.broker.settings import Address, BrokerEndpoint

ROOT = Path(__file__).resolve().parents[3]
CREDENTIALS = ServiceCredentials("another-test-secret-long-enough")


def test_the_config_has_what_game_night_relies_on() -> None:
    text = MosquittoConfig(
        dynsec_file=Path("/data/dynsec.json"),
        tcp=Address("127.0.0.1", 1883),
        ws=Address("127.0.0.1", 9001),
        user="root",
    ).render()
    lines = text.splitlines()
    for line in (
        "per_listener_settings false",
        "allow_anonymous false",
        "set_tcp_nodelay true",
        "user root",
        "listener 1883 127.0.0.1",
        "listener 9001 127.0.0.1",
        "socket_domain ipv4",
        "protocol websockets",
        "plugin_opt_config_file /data/dynsec.json",
    ):
        assert line in lines
    assert lines.index("listener 9001 127.0.0.1") < lines.index("protocol websockets")


def test_the_deployed_config_is_the_generated_one() -> None:
    deployed = (ROOT / "deploy" / "mosquitto" / "mosquitto.conf").read_text("utf-8")
    assert deployed == container_config().render(), (
        "regenerate: python -m services.broker.mosquitto config "
        "--out deploy/mosquitto/mosquitto.conf --persistence-dir /mosquitto/data"
    )


def test_service_passwords_are_stored_as_mosquitto_hashes_them() -> None:
    document = dynsec_document(CREDENTIALS)
    clients = {client["username"]: client for client in document["clients"]}
    assert sorted(clients) == sorted(SERVICE_NAMES)
    for name, client in clients.items():
        key = hashlib.pbkdf2_hmac(
            "sha512",
            CREDENTIALS.password(name).encode(),
            base64.b64decode(client["salt"]),
            client["iterations"],
        )
        assert base64.b64decode(client["password"]) == key
        assert client["roles"] == [{"rolename": SERVICE_ROLE}]
    assert document["defaultACLAccess"] == {
        "publishClientSend": False,
        "publishClientReceive": False,
        "subscribe": False,
        "unsubscribe": True,
    }


def test_refreshing_the_file_keeps_players_and_renews_services(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(SECRET_ENV, raising=False)
    monkeypatch.delenv(SECRET_FILE_ENV, raising=False)
    path = tmp_path / "dynsec.json"
    write_dynsec_file(path, CREDENTIALS)
    document = json.loads(path.read_text())
    document["clients"].append({"username": "u-player", "password": "x", "salt": "y"})
    document["roles"].append({"rolename": "acct-u-player", "acls": []})
    path.write_text(json.dumps(document))
    renewed = ServiceCredentials("a-brand-new-secret-after-rotation")
    assert main(["dynsec", "--file", str(path)]) == 2  # no secret anywhere: refused
    secret_file = tmp_path / "secret"
    secret_file.write_text(renewed.secret)
    assert main(["dynsec", "--file", str(path), "--service-secret-file", str(secret_file)]) == 0
    after = json.loads(path.read_text())
    usernames = [client["username"] for client in after["clients"]]
    assert usernames.count("tables") == 1
    assert "u-player" in usernames
    assert [r["rolename"] for r in after["roles"]].count(SERVICE_ROLE) == 1
    assert "acct-u-player" in [r["rolename"] for r in after["roles"]]


def test_the_config_command_writes_the_file(tmp_path: Path) -> None:
    out = tmp_path / "mosquitto.conf"
    assert main(["config", "--out", str(out), "--tcp", "127.0.0.1:1999", "--user", "root"]) == 0
    assert "listener 1999 127.0.0.1" in out.read_text().splitlines()


def _outside_address() -> str | None:
    """This machine's address on its default route, if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent for UDP connect
        except OSError:
            return None
        address: str = probe.getsockname()[0]
    return None if address.startswith("127.") else address


@pytest.mark.mosquitto
def test_test_brokers_listen_on_loopback_only(mosquitto_broker: BrokerEndpoint) -> None:
    address = _outside_address()
    if address is None:
        pytest.skip("no non-loopback address on this machine")
    for port in (mosquitto_broker.tcp_port, mosquitto_broker.ws_port):
        assert port is not None
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            pass
        with pytest.raises(OSError):
            socket.create_connection((address, port), timeout=1).close()
