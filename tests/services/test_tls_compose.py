"""compose.yml with ``GAMENIGHT_HTTPS=1``: broker-init makes the certificate, Mosquitto
serves wss with it, the web service serves https and hands the pages the wss address.
Run without Docker, as tests/test_compose.py runs compose.yml's own commands.
"""

from __future__ import annotations

import json
import stat
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from test_compose import WAIT, Stack
from test_tls_serve import mqtt_over_websocket, trusting
from websockets.exceptions import InvalidMessage

from services.tls import CertificateFiles, covers

pytestmark = pytest.mark.mosquitto


def https_api(url: str, body: dict[str, Any], files: CertificateFiles) -> dict[str, Any]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    deadline = time.monotonic() + WAIT
    while True:
        try:
            with urllib.request.urlopen(request, context=trusting(files), timeout=5) as answer:
                found: dict[str, Any] = json.load(answer)
        except OSError:  # still starting
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
            continue
        if found.get("error", {}).get("code") != "tables_unavailable":
            return found
        time.sleep(0.2)


def connect_as_a_page_does(
    url: str, files: CertificateFiles, login: tuple[str, str], stack: Stack
) -> int:
    """The CONNACK code over wss, trying again as MQTT.js does when a handshake fails.

    Once, in a whole-suite CI run, Mosquitto closed a wss connection before answering its
    upgrade (not seen since, alone or under load): a page reconnects, so the test does,
    and says what Mosquitto logged if it never answers.
    """
    for attempt in range(3):
        try:
            return mqtt_over_websocket(url, trusting(files), login, login[0])
        except InvalidMessage:
            if attempt == 2:
                log = (stack.folder / "mosquitto.log").read_text(errors="replace")
                raise AssertionError(f"no wss handshake; mosquitto.log:\n{log[-4000:]}") from None
            time.sleep(1.0)
    raise AssertionError("unreachable")


def test_compose_with_https_serves_pages_and_mosquitto_over_tls(
    tmp_path: Path, mosquitto_install: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    stack = Stack(tmp_path)
    public_url = f"https://tv.lan:{stack.web_port}"
    monkeypatch.setenv("GAMENIGHT_HTTPS", "1")
    monkeypatch.setenv("GAMENIGHT_PUBLIC_URL", public_url)
    try:
        stack.run("broker-init", wait=True)
        files = CertificateFiles.in_folder(tmp_path / "mosquitto" / "tls")
        assert covers(files, ["127.0.0.1"], ["tv.lan"])  # the host phones use
        assert stat.S_IMODE(files.key.stat().st_mode) == 0o640  # Mosquitto's group reads it
        stack.start_mosquitto(*mosquitto_install)
        for service in ("tables", "web"):
            stack.run(service)
        base = f"https://127.0.0.1:{stack.web_port}"
        created = https_api(f"{base}/api/tables", {"game": "kings-corner"}, files)
        assert created["ws_url"] == f"wss://127.0.0.1:{stack.wss_port}/mqtt"
        assert created["join_url"] == f"{public_url}/join/{created['table']}"
        joined = https_api(f"{base}/api/tables/{created['table']}/join", {"name": "Ana"}, files)
        login = (joined["username"], joined["password"])
        code = connect_as_a_page_does(joined["ws_url"], files, login, stack)
        assert code == 0  # the player's own login, over Mosquitto's wss listener
    finally:
        stack.stop()
