"""A service that does nothing: whatever arrives on ``ECHO_IN`` goes straight back out.

The floor under the tables service's latency: the same client code as every service
(paho through ``services.mqtt.MqttClient``), the same QoS as a move (in at 1, the view out
at 0), the same extra hop through the broker, and no rules, no database, no JSON.

    python -m benchmarks.echo_service --broker mqtt://HOST:PORT     (started by latency.py)
"""

from __future__ import annotations

import argparse
import sys
import uuid

from protocol import topics
from services.mqtt import MqttClient
from services.runtime import serve_until_signal, service_url

ECHO_IN = f"{topics.BASE}/service/latency-probe/echo-in"
ECHO_OUT = f"{topics.BASE}/service/latency-probe/echo-out"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.echo_service")
    parser.add_argument("--broker", required=True)
    args = parser.parse_args(argv)
    client = MqttClient(service_url(args.broker, "tables"), client_id=f"echo-{uuid.uuid4().hex}")

    def echo(topic: str, payload: bytes) -> None:
        client.publish(ECHO_OUT, payload, qos=0)
        client.flush()

    client.subscribe(ECHO_IN, echo, qos=1)
    client.start().wait_connected(10.0)
    print("echo service ready", flush=True)
    return serve_until_signal(client.stop)


if __name__ == "__main__":
    sys.exit(main())
