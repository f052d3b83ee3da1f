"""Phones on a NATS cluster: the node a phone is on dies (kill -9), the phone is on another
node within 5 s and plays on, as a phone on the home network (``gamenight.test``) would.

The pages get every node's WebSocket address (``--ws-url`` with a list); MQTT.js's
``servers`` moves them to the next one. The node killed leads no JetStream stream or
consumer (``move_leaders``): a leader's death costs a Raft election of 4 to 9 s first, see
tests/services/cluster/test_cluster_failover.py.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_play import is_my_turn, join, kings_step, shown_seq, table_code

from services.cluster.nodes import NatsCluster
from services.mqtt import broker_url
from services.tables.runner import TablesRunner
from services.web import WebServer, start_web
from services.web.guard import Limits, Rate, RateLimiter

pytestmark = pytest.mark.browser
RECONNECT_LIMIT = 5.0


def _service(cluster: NatsCluster, name: str, order: list[int]) -> str:
    password = cluster.credentials.password(name)
    specs = [cluster.specs[i] for i in order]
    return ",".join(broker_url("mqtt", s.host, s.ports.mqtt, name, password) for s in specs)


@pytest.fixture
def cluster_stack(tmp_path: Path) -> Iterator[tuple[NatsCluster, WebServer]]:
    cluster = NatsCluster(tmp_path / "nats", 3).start()
    tables: TablesRunner | None = None
    web: WebServer | None = None
    try:
        # The services start on the last nodes, the pages on the first: the node killed
        # is the phones' alone.
        order = [2, 1, 0]
        tables = TablesRunner(
            _service(cluster, "tables", order),
            tmp_path / "unused.db",
            owner=f"tables-cluster-{secrets.token_hex(4)}",
            store=",".join(cluster.nats_urls[i] for i in order),
            secret_file=cluster.secret_file,
        ).start()
        ws_urls = ",".join(f"ws://{{host}}:{s.ports.websocket}/mqtt" for s in cluster.specs)
        web = start_web(broker_url=_service(cluster, "web", order), ws_url=ws_urls)
        roomy = Rate(burst=10_000, every=0.001)
        web.app.extensions["gamenight.limits"] = Limits(
            RateLimiter(roomy), RateLimiter(roomy), RateLimiter(roomy)
        )
        yield cluster, web
    finally:
        if web is not None:
            web.stop()
        if tables is not None:
            tables.stop()
        cluster.stop()


def _players_on(cluster: NatsCluster, i: int) -> set[str]:
    return {user for user in cluster.connected_users(i) if user.startswith(("u-", "tv-"))}


def _online(page: Any) -> bool:
    return bool(page.eval_on_selector("#connection", "e => e.classList.contains('online')"))


def test_phones_move_to_another_node_when_theirs_dies_and_play_on(
    cluster_stack: tuple[NatsCluster, WebServer], open_lan_page: Callable[..., Any]
) -> None:
    cluster, web = cluster_stack
    tv = open_lan_page("tv", web.url + "/", label="tv")
    code = table_code(tv)
    phones = []
    for name in ("Ana", "Bob"):
        phone = open_lan_page("phone", f"{web.url}/join/{code}", label=name)
        join(phone, name)
        phones.append(phone)
    tv.click("#lobby-controls [data-op=start]")
    for phone in phones:
        phone.wait_for_selector("#play:not([hidden]) #hand .card")
    config = phones[0].evaluate("fetch('/api/config').then(r => r.json())")
    assert len(config["ws_urls"]) == 3 and "gamenight.test" in config["ws_urls"][1]
    on_first = _players_on(cluster, 0)
    assert len(on_first) >= 3, on_first  # the TV and both phones dialled the first node

    cluster.move_leaders(2)
    killed_at = time.monotonic()
    cluster.kill(0)
    deadline = killed_at + RECONNECT_LIMIT
    while time.monotonic() < deadline and not (
        on_first <= _players_on(cluster, 1) | _players_on(cluster, 2)
    ):
        time.sleep(0.05)
    took = time.monotonic() - killed_at
    print(f"every page on another node {took:.2f} s after the kill")
    assert on_first <= _players_on(cluster, 1) | _players_on(cluster, 2), "not back in 5 s"
    assert took < RECONNECT_LIMIT
    for phone in phones:
        phone.wait_for_function(
            "() => document.querySelector('#connection').classList.contains('online')"
        )

    mover = next(phone for phone in phones if is_my_turn(phone))
    before = shown_seq(mover)
    log_before = tv.eval_on_selector_all("#log li", "items => items.length")
    kings_step(mover)
    assert shown_seq(mover) > before  # accepted: the table moved on
    tv.wait_for_function("n => document.querySelectorAll('#log li').length > n", arg=log_before)
