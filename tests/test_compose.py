"""compose.yml, run without Docker: its own commands around Debian's Mosquitto.

This machine has no container engine, so the stack is run the way compose.yml describes
it: the checked-in mosquitto.conf (container paths and ports moved to this machine's),
the broker-init command, then the tables, bots and web commands as written, each its own
process and each logging in with the shared secret file. A player then joins through the
web service, plays over Mosquitto's WebSocket listener, and a bot takes its turns.
"""

from __future__ import annotations

import importlib.util
import json
import os
import secrets
import shlex
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from protocol import topics
from protocol.messages import act_intent
from services.bots.players import hint_action
from services.broker.mosquitto import CONTAINER_PLUGIN, free_tcp_port
from services.mqtt import BrokerUrl, MqttClient

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "compose.yml").read_text("utf-8"))
CHECKED_IN_CONF = ROOT / "deploy" / "mosquitto" / "mosquitto.conf"
WAIT = 30.0


def test_every_service_runs_one_of_our_modules_with_the_shared_secret() -> None:
    services = COMPOSE["services"]
    assert set(services) == {"broker-init", "mosquitto", "tables", "bots", "assistant", "web"}
    for name in ("broker-init", "tables", "bots", "assistant", "web"):
        command = shlex.split(services[name]["command"])
        assert command[:2] == ["python", "-m"]
        assert importlib.util.find_spec(command[2]) is not None, command[2]
        secret = services[name]["environment"]["GAMENIGHT_SERVICE_SECRET_FILE"]
        assert secret == "/run/secrets/gamenight"
    assert "set_tcp_nodelay true" in CHECKED_IN_CONF.read_text("utf-8")


class Stack:
    """compose.yml's processes on this machine; ``run(service)`` starts one of them."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.mqtt_port, self.ws_port, self.web_port = (free_tcp_port() for _ in range(3))
        self.wss_port = free_tcp_port()
        self.secret = folder / "service.secret"
        self.secret.write_text(secrets.token_urlsafe(32) + "\n")
        self.paths = {"/mosquitto/data": folder / "mosquitto", "/data": folder / "data"}
        for path in self.paths.values():
            path.mkdir()
        self.plugin = CONTAINER_PLUGIN
        self.processes: list[subprocess.Popen[bytes]] = []

    def localize(self, text: str) -> str:
        """Container paths, host names and ports as they are on this machine."""
        for inside, outside in self.paths.items():
            text = text.replace(f"{inside}/", f"{outside}/")
        replacements = {
            "mosquitto:1883": f"127.0.0.1:{self.mqtt_port}",
            "listener 1883 0.0.0.0": f"listener {self.mqtt_port} 127.0.0.1",
            "listener 9001 0.0.0.0": f"listener {self.ws_port} 127.0.0.1",
            "listener 9002 0.0.0.0": f"listener {self.wss_port} 127.0.0.1",
            ":9001/": f":{self.ws_port}/",
            ":9002/": f":{self.wss_port}/",
            "--port 8000": f"--port {self.web_port}",
            "--host 0.0.0.0": "--host 127.0.0.1",
            str(CONTAINER_PLUGIN): str(self.plugin),
        }
        for old, new in replacements.items():
            text = text.replace(old, new)
        return text

    def command(self, service: str) -> list[str]:
        words = shlex.split(self.localize(COMPOSE["services"][service]["command"]))
        return [sys.executable, *words[1:]] if words[0] == "python" else words

    def run(self, service: str, wait: bool = False) -> None:
        env = {**os.environ, "GAMENIGHT_SERVICE_SECRET_FILE": str(self.secret)}
        with (self.folder / f"{service}.log").open("wb") as log:  # the child keeps its own
            process = subprocess.Popen(
                self.command(service), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
            )
        if wait:
            assert process.wait(WAIT) == 0, (self.folder / f"{service}.log").read_text()
        else:
            self.processes.append(process)

    def start_mosquitto(self, binary: Path, plugin: Path) -> None:
        self.plugin = plugin
        config = self.localize(CHECKED_IN_CONF.read_text("utf-8"))
        if os.geteuid() == 0:  # else Mosquitto becomes "mosquitto", who cannot read tmp
            config += "user root\n"
        (self.folder / "mosquitto.conf").write_text(config)
        with (self.folder / "mosquitto.log").open("wb") as log:
            self.processes.append(
                subprocess.Popen(
                    [str(binary), "-c", str(self.folder / "mosquitto.conf")],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )

    def api(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.web_port}{path}",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        deadline = time.monotonic() + WAIT
        while True:
            try:
                with urllib.request.urlopen(request, timeout=5) as response:
                    answer: dict[str, Any] = json.load(response)
            except OSError:  # the web service is still starting
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
                continue
            if answer.get("error", {}).get("code") != "tables_unavailable":
                return answer
            time.sleep(0.2)  # the tables service is still starting

    def stop(self) -> None:
        for process in reversed(self.processes):
            process.terminate()
        for process in self.processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()


@pytest.fixture
def compose_stack(tmp_path: Path, mosquitto_install: tuple[Path, Path]) -> Iterator[Stack]:
    stack = Stack(tmp_path)
    try:
        stack.run("broker-init", wait=True)
        stack.start_mosquitto(*mosquitto_install)
        for service in ("tables", "bots", "assistant", "web"):
            stack.run(service)
        yield stack
    finally:
        stack.stop()


class Seat:
    """A phone: the player's own login over the WebSocket listener, as a page makes it."""

    def __init__(self, joined: dict[str, Any]) -> None:
        self.joined = joined
        self.table, self.seat = str(joined["table"]), int(joined["seat"])
        self.changed = threading.Condition()
        self.public: dict[str, Any] = {}
        self.own: dict[str, Any] = {}
        self.replies: dict[str, dict[str, Any]] = {}
        url = BrokerUrl.parse(joined["ws_url"].replace("{host}", "127.0.0.1"))
        login = url.with_credentials(joined["username"], joined["password"])
        # Each player account may only connect with its own client id, as the pages do.
        self.client = MqttClient(login, client_id=joined["username"])
        self.client.subscribe(topics.table_view(self.table), self._keep("public"))
        self.client.subscribe(topics.seat_topic(self.table, self.seat, "view"), self._keep("own"))
        self.client.subscribe(topics.host_topic(self.table, "reply"), self._reply)
        self.client.subscribe(topics.seat_topic(self.table, self.seat, "reply"), self._reply)
        self.client.start().wait_connected(WAIT)

    def _keep(self, name: str) -> Any:
        def keep(topic: str, payload: bytes) -> None:
            with self.changed:
                setattr(self, name, json.loads(payload))
                self.changed.notify_all()

        return keep

    def _reply(self, topic: str, payload: bytes) -> None:
        with self.changed:
            reply = json.loads(payload)
            self.replies[reply["id"]] = reply
            self.changed.notify_all()

    def host(self, op: str) -> dict[str, Any]:
        intent = {"v": 1, "id": uuid.uuid4().hex[:8], "op": op, "player": self.joined["player_id"]}
        self.client.publish(topics.host_topic(self.table, "intent"), json.dumps(intent))
        with self.changed:
            assert self.changed.wait_for(lambda: intent["id"] in self.replies, WAIT)
            return self.replies[intent["id"]]


def test_a_player_and_a_bot_play_through_the_compose_stack(compose_stack: Stack) -> None:
    created = compose_stack.api("/api/tables", {"game": "kings-corner"})
    assert created["ws_url"] == f"ws://127.0.0.1:{compose_stack.ws_port}/mqtt"
    joined = compose_stack.api(f"/api/tables/{created['table']}/join", {"name": "Ana"})
    ana = Seat(joined)
    try:
        assert ana.host("start")["status"] == "ok"  # the empty seat goes to a bot
        bot_moves, seen, deadline = 0, -1, time.monotonic() + 60
        while bot_moves < 2:
            with ana.changed:
                assert ana.changed.wait_for(
                    lambda s=seen: (
                        ana.public.get("seq", -1) > s
                        and ana.public.get("status") == "playing"
                        and ana.own.get("seq") == ana.public.get("seq")
                    ),
                    max(0.0, deadline - time.monotonic()),
                ), "the table stopped moving"
                public, own = ana.public, ana.own
            seen = public["seq"]
            if public["state"]["current_seat"] == ana.seat:
                action = hint_action(own["state"]["game"], own["state"])
                intent = act_intent(uuid.uuid4().hex[:8], own["seq"], own["player"], action)
                ana.client.publish(
                    topics.seat_topic(ana.table, ana.seat, "intent"), json.dumps(intent)
                )
                with ana.changed:
                    assert ana.changed.wait_for(lambda i=intent: i["id"] in ana.replies, WAIT)
                    assert ana.replies[intent["id"]]["status"] == "ok", ana.replies[intent["id"]]
            else:
                bot_moves += 1  # the bot's turn: only the bots service can move the table on
    finally:
        ana.client.stop()
