"""``gamenight serve --https``: pages over https, both brokers' WebSockets over wss, and
what the TV is told; the certificate is checked for real (the client trusts only it).
"""

from __future__ import annotations

import json
import secrets
import shutil
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psutil
import pytest
from loopback_stack import loopback_settings
from websockets.exceptions import InvalidHandshake, InvalidMessage
from websockets.sync.client import connect

from services import serve
from services.broker.credentials import ServiceCredentials
from services.broker.embedded import start_embedded_broker
from services.broker.mosquitto import MosquittoProcess, free_tcp_port
from services.cli import build_parser
from services.netaddr import AdvertisedAddress
from services.serve import Stack
from services.tls import CertificateFiles, covers, ensure_certificate
from services.web import create_app, start_web
from services.web import settings as web_settings

ROOT = Path(__file__).resolve().parents[2]


def trusting(files: CertificateFiles) -> ssl.SSLContext:
    """A client context that trusts our certificate only, and checks its names."""
    context = ssl.create_default_context(cafile=str(files.cert))
    context.check_hostname = True
    return context


def mqtt_connect_packet(client_id: str, username: str, password: str) -> bytes:
    def text(value: str) -> bytes:
        data = value.encode()
        return len(data).to_bytes(2, "big") + data

    # MQTT 3.1.1 CONNECT: clean session, username and password, keep-alive 30 s.
    body = text("MQTT") + bytes([4, 0xC2]) + (30).to_bytes(2, "big")
    body += text(client_id) + text(username) + text(password)
    assert len(body) < 128  # one byte of remaining length
    return bytes([0x10, len(body)]) + body


def mqtt_over_websocket(
    url: str, context: ssl.SSLContext | None, login: tuple[str, str], client_id: str = ""
) -> int:
    """CONNECT over the WebSocket at ``url``; the CONNACK's return code (0: accepted).

    A handshake the server drops unanswered is tried again, twice, as a page's MQTT client
    reconnects: in whole-suite CI runs the stack's first seconds (the assistant's likeness
    index is built in a thread of the same process) once left a handshake unanswered for
    10 s, and once closed one unanswered. This test is about what is spoken, not how fast.
    """
    client_id = client_id or f"probe-{secrets.token_hex(4)}"
    for attempt in range(3):
        try:
            with connect(url, ssl=context, subprotocols=["mqtt"], open_timeout=30) as websocket:
                websocket.send(mqtt_connect_packet(client_id, *login))
                answer = websocket.recv(timeout=30)
            break
        except InvalidMessage:
            if attempt == 2:
                raise
            time.sleep(1.0)
    assert isinstance(answer, bytes) and answer[0] == 0x20, answer
    return answer[3]


def test_serve_https_serves_pages_and_the_embedded_broker_over_tls(tmp_path: Path) -> None:
    settings = loopback_settings(tmp_path, https=True)
    with Stack(settings).start() as stack:
        assert stack.web is not None and stack.broker is not None
        certificate = stack.certificate
        assert certificate is not None and certificate.cert.parent == tmp_path / "tls"
        public = urlsplit(stack.web.settings.public_url)
        assert public.scheme == "https" and public.port == stack.web.port
        assert covers(certificate, [public.hostname or ""], [])  # names the advertised address
        assert stack.web.url.startswith("https://127.0.0.1:")
        context = trusting(certificate)
        with urllib.request.urlopen(stack.web.url + "/", context=context, timeout=10) as page:
            assert b"mqtt.min.js" in page.read()
        with urllib.request.urlopen(stack.web.url + "/api/config", context=context) as answer:
            ws_url = answer.read().decode()
        port = stack.broker.ws_port
        assert f'"ws_url":"wss://127.0.0.1:{port}/mqtt"' in ws_url
        assert stack.credentials is not None
        login = ("web", stack.credentials.password("web"))
        assert mqtt_over_websocket(f"wss://127.0.0.1:{port}/mqtt", context, login) == 0
        assert mqtt_over_websocket(f"wss://127.0.0.1:{port}/mqtt", context, ("web", "x")) != 0
        with pytest.raises((InvalidHandshake, OSError)):  # plain ws is not spoken there
            mqtt_over_websocket(f"ws://127.0.0.1:{port}/mqtt", None, login)


def test_the_certificate_is_kept_across_restarts(tmp_path: Path) -> None:
    settings = loopback_settings(tmp_path, https=True, public_url="https://tv.lan:8443")
    with Stack(settings).start() as stack:
        assert stack.certificate is not None
        first = stack.certificate.cert.read_bytes()
        assert covers(stack.certificate, [], ["tv.lan"])
    with Stack(settings).start() as stack:
        assert stack.certificate is not None and stack.certificate.cert.read_bytes() == first


@pytest.mark.mosquitto
def test_mosquitto_speaks_wss_with_our_certificate(
    tmp_path: Path, mosquitto_install: tuple[Path, Path]
) -> None:
    binary, plugin = mosquitto_install
    files = ensure_certificate(tmp_path / "tls", ["127.0.0.1"], [])
    credentials = ServiceCredentials.generate()
    with MosquittoProcess(
        tmp_path / "mosquitto",
        credentials,
        binary=binary,
        plugin=plugin,
        ws_certificate=(files.cert, files.key),
    ) as broker:
        url = f"wss://127.0.0.1:{broker.ws_port}/mqtt"
        login = ("web", credentials.password("web"))
        assert mqtt_over_websocket(url, trusting(files), login) == 0
        assert "certfile" in broker.config_file.read_text()
        # Mosquitto 2.0.11 binds a WebSocket listener everywhere unless told the socket
        # domain: the wss listener too must stay on loopback (read from the kernel's table).
        bound = {
            connection.laddr.ip
            for connection in psutil.net_connections(kind="inet")
            if connection.status == psutil.CONN_LISTEN and connection.laddr.port == broker.ws_port
        }
        assert bound == {"127.0.0.1"}


def test_a_silent_connection_does_not_stall_the_https_server(tmp_path: Path) -> None:
    # Werkzeug's own TLS does each handshake in its accept loop: one phone that connects and
    # says nothing (or one still asking its user about the certificate) stopped every other.
    files = ensure_certificate(tmp_path, ["127.0.0.1"], [])
    web = start_web(
        certificate=files, broker_url="mqtt://127.0.0.1:9", public_url="https://x.lan:1"
    )
    try:
        with socket.create_connection(("127.0.0.1", web.port)) as silent:
            silent.settimeout(10)
            with urllib.request.urlopen(
                web.url + "/api/network", context=trusting(files), timeout=10
            ) as answer:
                assert answer.status == 200
    finally:
        web.stop()


def network(public_url: str, ws_url: str = "wss://{host}:8083/mqtt") -> dict[str, Any]:
    app = create_app({"PUBLIC_URL": public_url, "WS_URL": ws_url})
    answer: dict[str, Any] = app.test_client().get("/api/network").get_json()
    return answer


def test_the_tv_is_told_when_phones_cannot_reach_the_qr_address() -> None:
    assert network("http://127.0.0.1:8000")["notices"] == [
        {
            "code": "loopback_only",
            "params": {"address": "127.0.0.1", "scheme": "http", "port": 8000},
        }
    ]
    assert network("http://localhost:8000")["notices"][0]["code"] == "loopback_only"
    assert network("http://192.168.1.20:8000")["notices"] == []
    assert network("http://gamenight.local:8000")["notices"] == []


def test_the_tv_is_told_how_phones_accept_the_certificate() -> None:
    notices = network("https://192.168.1.20:8000")["notices"]
    assert notices == [
        {
            "code": "accept_certificate",
            "params": {
                "url": "https://192.168.1.20:8000",
                "broker_url": "https://192.168.1.20:8083/",
            },
        }
    ]
    both = network("https://127.0.0.1:8000")["notices"]
    assert [notice["code"] for notice in both] == ["loopback_only", "accept_certificate"]


def test_the_keep_awake_video_is_served_in_byte_ranges() -> None:
    client = create_app({}).test_client()

    def get(path: str, **headers: str) -> tuple[int, str, bytes, dict[str, str]]:
        with client.get(path, headers=headers) as answer:
            return answer.status_code, answer.mimetype, answer.data, dict(answer.headers)

    status, mimetype, whole, _ = get("/static/media/keep-awake.mp4")
    assert status == 200 and mimetype == "video/mp4"
    assert b"ftyp" in whole[:16]  # an MP4 file
    status, _, first, headers = get("/static/media/keep-awake.mp4", Range="bytes=0-1")
    assert status == 206 and first == whole[:2]  # what Safari asks first
    assert headers["Content-Range"] == f"bytes 0-1/{len(whole)}"
    _, mimetype, webm, _ = get("/static/media/keep-awake.webm")
    assert mimetype == "video/webm" and webm[:4] == b"\x1a\x45\xdf\xa3"  # EBML
    assert get("/static/media/../phone.html")[0] == 404


def test_serve_help_shows_the_default_ports_and_the_data_path(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for shown in (
        "(default: 8000)",
        "default: 0.0.0.0:8083",
        "(default: 127.0.0.1:1883)",
        "(default: ~/.local/share/gamenight/gamenight.db)",
        "--https",
        "--http",
        "--public-url",
    ):
        assert shown in text, shown
    command = [sys.executable, "-m", "services.cli", "serve", "--help"]
    printed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    assert "~/.local/share/gamenight/gamenight.db" in " ".join(printed.stdout.split())


def test_https_and_http_are_exclusive_and_http_is_the_default() -> None:
    parser = build_parser()
    assert parser.parse_args(["serve"]).https is False
    assert parser.parse_args(["serve", "--https"]).https is True
    assert parser.parse_args(["serve", "--http"]).https is False
    with pytest.raises(SystemExit):
        parser.parse_args(["serve", "--https", "--http"])


def test_a_certificate_for_the_embedded_broker_alone(tmp_path: Path) -> None:
    files = ensure_certificate(tmp_path, ["127.0.0.1"], [])
    credentials = ServiceCredentials.generate()
    broker = start_embedded_broker(
        credentials, tcp=None, ws="127.0.0.1:0", ws_certificate=(files.cert, files.key)
    )
    try:
        url = f"wss://127.0.0.1:{broker.ws_port}/mqtt"
        assert mqtt_over_websocket(url, trusting(files), ("web", credentials.password("web"))) == 0
    finally:
        broker.stop()


def test_when_only_loopback_is_found_the_qr_and_the_tv_say_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    nothing = AdvertisedAddress("127.0.0.1", "loopback")  # no interface but lo
    monkeypatch.setattr(serve, "advertised_address", lambda: nothing)
    monkeypatch.setattr(web_settings, "advertised_address", lambda: nothing)
    settings = loopback_settings(tmp_path)
    with Stack(settings).start() as stack:
        assert stack.web is not None
        assert stack.web.settings.public_url == f"http://127.0.0.1:{stack.web.port}"
        with urllib.request.urlopen(stack.web.url + "/api/network", timeout=10) as answer:
            notices = json.load(answer)["notices"]
    assert notices[0]["code"] == "loopback_only"
    assert notices[0]["params"] == {
        "address": "127.0.0.1",
        "scheme": "http",
        "port": stack.web.port,
    }


def test_the_terminal_warns_loudly_when_phones_cannot_reach_the_qr_address(
    tmp_path: Path,
) -> None:
    web, mqtt, ws = free_tcp_port(), free_tcp_port(), free_tcp_port()
    command = [
        sys.executable,
        *("-m", "services.cli", "serve", "--data", str(tmp_path / "gn.db")),
        *("--host", "127.0.0.1", "--port", str(web), "--no-bots"),
        *("--mqtt", f"127.0.0.1:{mqtt}", "--ws", f"127.0.0.1:{ws}"),
        *("--public-url", f"http://127.0.0.1:{web}"),
    ]
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    try:
        assert process.stderr is not None
        seen = []
        for line in process.stderr:
            seen.append(line)
            if "phones cannot reach" in line:
                break
        warning = "".join(seen)
        assert "phones cannot reach 127.0.0.1" in warning, warning
        assert f"--public-url http://<address>:{web}" in warning
    finally:
        process.terminate()  # how it stops is test_serve's concern
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stderr is not None:
            process.stderr.close()


def test_the_embedded_broker_asks_phones_for_no_client_certificate(tmp_path: Path) -> None:
    # amqtt's own TLS asks for one (CERT_OPTIONAL): a phone holding a client certificate
    # would then show a certificate chooser before the game could connect.
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is not installed")
    files = ensure_certificate(tmp_path, ["127.0.0.1"], [])
    broker = start_embedded_broker(
        ServiceCredentials.generate(),
        tcp=None,
        ws="127.0.0.1:0",
        ws_certificate=(files.cert, files.key),
    )
    try:
        command = [openssl, "s_client", "-connect", f"127.0.0.1:{broker.ws_port}"]
        shown = subprocess.run(command, input="", capture_output=True, text=True, timeout=20)
    finally:
        broker.stop()
    assert "Game Night" in shown.stdout  # the handshake went through, with our certificate
    assert "Requested Signature Algorithms" not in shown.stdout  # no CertificateRequest


def test_a_phone_opening_the_wss_port_itself_is_told_the_certificate_is_accepted(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # The TV tells phones whose browser asks again for the broker's port to open it once.
    files = ensure_certificate(tmp_path, ["127.0.0.1"], [])
    credentials = ServiceCredentials.generate()
    broker = start_embedded_broker(
        credentials, tcp=None, ws="127.0.0.1:0", ws_certificate=(files.cert, files.key)
    )
    try:
        url = f"https://127.0.0.1:{broker.ws_port}/"
        with urllib.request.urlopen(url, context=trusting(files), timeout=10) as page:
            text = page.read().decode()
        assert page.status == 200
        assert "certificate is accepted" in text and "certificat de cet ordinateur" in text
        # The same port still speaks MQTT over wss.
        login = ("web", credentials.password("web"))
        assert (
            mqtt_over_websocket(f"wss://127.0.0.1:{broker.ws_port}/mqtt", trusting(files), login)
            == 0
        )
    finally:
        broker.stop()
    assert not [record for record in caplog.records if record.levelname == "ERROR"]
