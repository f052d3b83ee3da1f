"""compose.cluster.yml, run without Docker: its own commands, each its own process.

As tests/test_compose.py does for compose.yml: the nodes' commands (which write their
configuration and exec the PyPI nats-server), the callout responders, two tables copies,
the bots, the assistant and the web service, with container names and ports moved to
this machine's loopback. A player joins through the web service, plays over a node's
WebSocket listener and a bot takes its turns; then the player's node is killed.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
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
from services.broker.credentials import ServiceCredentials
from services.cluster.nodes import free_ports
from tests.test_compose import Seat

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "compose.cluster.yml").read_text("utf-8"))
NODES = ("nats-0", "nats-1", "nats-2")
WAIT = 60.0
# Inside a container every node listens on the same ports: client, cluster, mqtt, ws, monitor.
CONTAINER_PORTS = (4222, 6222, 1883, 8080, 8222)


def test_every_service_runs_one_of_our_modules_on_every_node() -> None:
    import importlib.util

    services = COMPOSE["services"]
    assert set(services) == {
        *NODES,
        "callout-0",
        "callout-1",
        "tables-0",
        "tables-1",
        "bots",
        "assistant",
        "web",
    }
    owners = set()
    for name, service in services.items():
        command = shlex.split(service["command"])
        assert command[:2] == ["python", "-m"]
        assert importlib.util.find_spec(command[2]) is not None, command[2]
        assert service["environment"]["GAMENIGHT_SERVICE_SECRET_FILE"] == "/run/secrets/gamenight"
        text = service["command"]
        if name.startswith(("tables", "bots", "assistant", "web")):
            assert all(f"mqtt://{node}:1883" in text for node in NODES), name
        if name.startswith(("tables", "callout")):
            assert all(f"nats://{node}:4222" in text for node in NODES), name
        if name.startswith("tables"):
            owners.add(command[command.index("--owner") + 1])
    assert owners == {"tables-0", "tables-1"}  # two copies, never the same owner
    published = [services[node]["ports"][0].split(":")[0] for node in NODES]
    assert f"--ws-url {','.join(f'ws://{{host}}:{p}/mqtt' for p in published)}" in " ".join(
        shlex.split(services["web"]["command"])
    )


# What the tables copies write to on every move and heartbeat (services/tables/).
TABLES_STREAMS = {"GN_LOG", "KV_gn_leases", "KV_gn_copies", "KV_gn_tables"}


class ClusterCompose:
    """compose.cluster.yml's processes on this machine."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.ports = [free_ports("127.0.0.1", 5) for _ in NODES]
        (self.web_port,) = free_ports("127.0.0.1", 1)
        self.secret = folder / "service.secret"
        self.credentials = ServiceCredentials.generate()
        self.secret.write_text(self.credentials.secret + "\n")
        self.processes: dict[str, subprocess.Popen[bytes]] = {}

    def localize(self, service: str, text: str) -> str:
        """Container names, paths and ports as they are on this machine."""
        if service in NODES:
            ports = self.ports[NODES.index(service)]
            own = ",".join(str(port) for port in CONTAINER_PORTS)
            text = text.replace(f"--ports {own}", f"--ports {','.join(map(str, ports))}")
            text = text.replace("--listen-host 0.0.0.0", "--listen-host 127.0.0.1")
            text = text.replace("/data/", f"{self.folder / service}/")
        for i, node in enumerate(NODES):
            client, cluster, mqtt, websocket, _ = self.ports[i]
            text = text.replace(f"{node}:4222", f"127.0.0.1:{client}")
            text = text.replace(f"{node}:6222", f"127.0.0.1:{cluster}")
            text = text.replace(f"{node}:1883", f"127.0.0.1:{mqtt}")
            published = COMPOSE["services"][node]["ports"][0].split(":")[0]
            text = text.replace(f"{{host}}:{published}/", f"{{host}}:{websocket}/")
        text = text.replace("--port 8000", f"--port {self.web_port}")
        return text.replace("--host 0.0.0.0", "--host 127.0.0.1")

    def streams_led_by(self, node_name: str, asking: int) -> set[str]:
        """The JetStream streams node ``node_name`` leads, as node ``asking``'s monitor says."""
        monitor = self.ports[asking][4]
        query = "accounts=true&streams=true&config=false"
        with urllib.request.urlopen(f"http://127.0.0.1:{monitor}/jsz?{query}", timeout=10) as got:
            jsz = json.loads(got.read())
        return {
            str(stream["name"])
            for account in jsz.get("account_details", [])
            for stream in account.get("stream_detail", [])
            if stream.get("cluster", {}).get("leader") == node_name
        }

    def command(self, service: str) -> list[str]:
        words = shlex.split(self.localize(service, COMPOSE["services"][service]["command"]))
        return [sys.executable, *words[1:]]

    def run(self, service: str) -> None:
        env = {**os.environ, "GAMENIGHT_SERVICE_SECRET_FILE": str(self.secret)}
        with (self.folder / f"{service}.log").open("wb") as log:
            self.processes[service] = subprocess.Popen(
                self.command(service), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
            )

    def wait_healthy(self) -> None:
        deadline = time.monotonic() + WAIT
        for ports in self.ports:
            while True:
                try:
                    url = f"http://127.0.0.1:{ports[4]}/healthz"
                    with urllib.request.urlopen(url, timeout=2) as response:
                        if response.status == 200:
                            break
                except OSError:
                    pass
                assert time.monotonic() < deadline, f"no cluster formed:\n{self.tails('nats')}"
                time.sleep(0.2)

    def tails(self, prefix: str, lines: int = 15) -> str:
        """The last lines of the logs of the services named ``prefix``…: why it failed."""
        return "\n".join(
            f"{log.name}: " + "\n".join(log.read_text("utf-8", "replace").splitlines()[-lines:])
            for log in sorted(self.folder.glob(f"{prefix}*.log"))
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
                assert time.monotonic() < deadline
                time.sleep(0.2)
                continue
            if answer.get("error", {}).get("code") != "tables_unavailable":
                return answer
            assert time.monotonic() < deadline, answer
            time.sleep(0.2)  # the tables service is still starting

    def kill(self, service: str) -> None:
        self.processes[service].kill()
        self.processes[service].wait()

    def stop(self) -> None:
        for process in reversed(self.processes.values()):
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()


@pytest.fixture
def cluster_compose(tmp_path: Path) -> Iterator[ClusterCompose]:
    stack = ClusterCompose(tmp_path)
    try:
        for node in NODES:
            stack.run(node)
        stack.wait_healthy()
        for service in ("callout-0", "callout-1", "tables-0", "tables-1", "bots", "assistant"):
            stack.run(service)
        stack.run("web")
        yield stack
    finally:
        stack.stop()


def _play_until_the_bot_moved(ana: Seat, bot_moves_wanted: int) -> None:
    """Ana plays her turns (as the bot strategy would) until the bot moved that often."""
    bot_moves, seen, deadline = 0, -1, time.monotonic() + 90
    while bot_moves < bot_moves_wanted:
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
            # Sent again, same id, until answered, as every client must (protocol/README.md):
            # a copy whose store is electing a leader drops an intent unanswered.
            topic, payload = topics.seat_topic(ana.table, ana.seat, "intent"), json.dumps(intent)
            answered_by = time.monotonic() + WAIT
            while True:
                ana.client.publish(topic, payload)
                with ana.changed:
                    if ana.changed.wait_for(lambda i=intent: i["id"] in ana.replies, 2.0):
                        break
                assert time.monotonic() < answered_by, "the intent was never answered"
            assert ana.replies[intent["id"]]["status"] == "ok", ana.replies[intent["id"]]
        else:
            bot_moves += 1  # the bot's turn: only the bots service moves the table on


# Once in several runs on a loaded two-core machine the killed node led the leases' stream
# and play did not resume within 90 s (stop 18's clean-clone run): one more try, as the
# browser tests get, while the cause is open (issue 13's note).
@pytest.mark.flaky(reruns=1, reruns_delay=2)
def test_a_player_and_a_bot_play_through_the_cluster_compose_stack(
    cluster_compose: ClusterCompose,
) -> None:
    created = cluster_compose.api("/api/tables", {"game": "kings-corner"})
    ws_ports = [ports[3] for ports in cluster_compose.ports]
    assert created["ws_urls"] == [f"ws://127.0.0.1:{port}/mqtt" for port in ws_ports]
    joined = cluster_compose.api(f"/api/tables/{created['table']}/join", {"name": "Ana"})
    # The phone is given every node; it dials the first, as the page does.
    joined["ws_url"] = ",".join(joined["ws_urls"])
    ana = Seat(joined)
    try:
        assert ana.host("start")["status"] == "ok"  # the empty seat goes to a bot
        _play_until_the_bot_moved(ana, 2)
        led = cluster_compose.streams_led_by("gn-0", asking=1) & TABLES_STREAMS
        print(f"nats-0 led {sorted(led)}")  # the leader-node case when not empty
        cluster_compose.kill("nats-0")  # Ana's node
        _play_until_the_bot_moved(ana, 2)
    finally:
        ana.client.stop()
