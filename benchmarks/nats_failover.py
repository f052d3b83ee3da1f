"""How long a client of the NATS cluster is away when its node is killed (kill -9).

Each trial starts a fresh 3-node ``NatsCluster``, provisions a player, connects it (every
node's URL, the killed node first), kills that node and times until the player is
connected and subscribed on another one. The leaders of JetStream are left where the
cluster put them, so some trials kill a node that led what the login needs (a Raft
election of 4 to 9 s follows) and some do not. Also prints the callout login time.

    python -m benchmarks.nats_failover [--trials 6] [--qos 0]     (from the project root)

The machine is shared: figures are noisy.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from protocol.topics import player_grants, seat_topic
from services.cluster.accounts import NatsAccounts
from services.cluster.nodes import NatsCluster
from services.mqtt import ConnectRefusedError, MqttClient, broker_url


def trial(workdir: Path, victim: int, qos: int) -> tuple[float, float, bool]:
    """(login seconds, seconds away after the kill, whether the victim led $MQTT_sess)."""
    with NatsCluster(workdir, 3) as cluster:
        with NatsAccounts(cluster.nats_urls, cluster.credentials) as accounts:
            accounts.provision("u-bench", "tok", player_grants("BENCH", 0), client_id="u-bench")
        led = cluster.jetstream_leaders().get("$MQTT_sess") == cluster.specs[victim].name
        order = [victim] + [i for i in range(3) if i != victim]
        urls = ",".join(
            broker_url("mqtt", s.host, s.ports.mqtt, "u-bench", "tok")
            for s in (cluster.specs[i] for i in order)
        )
        client = MqttClient(urls, client_id="u-bench", reconnect_delay=(0.1, 1.0))
        client.subscribe(seat_topic("BENCH", 0, "view"), lambda topic, payload: None, qos=qos)
        started = time.monotonic()
        client.start().wait_connected(30)
        login = time.monotonic() - started
        try:
            killed = time.monotonic()
            cluster.kill(victim)
            while client.connected:
                time.sleep(0.002)
            while True:
                try:
                    client.wait_connected(60)
                    break
                except ConnectRefusedError:
                    time.sleep(0.05)  # refused while the cluster heals: paho tries again
            return login, time.monotonic() - killed, led
        finally:
            client.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=6)
    parser.add_argument("--qos", type=int, default=0, choices=(0, 1))
    args = parser.parse_args()
    away: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        for n in range(args.trials):
            login, seconds, led = trial(Path(folder) / f"t{n}", n % 3, args.qos)
            away.append(seconds)
            print(
                f"trial {n}: login {login * 1000:.0f} ms, away {seconds:.2f} s"
                f" (killed node led $MQTT_sess: {led})"
            )
    print(
        f"qos {args.qos}: away median {statistics.median(away):.2f} s, max {max(away):.2f} s,"
        f" under 5 s: {sum(s < 5 for s in away)}/{len(away)}"
    )


if __name__ == "__main__":
    main()
