import threading, time
from typing import Any, Callable
from services.broker.settings import BrokerEndpoint
from services.mqtt import MqttClient

def test_subscribing_meanwhile_loses_no_message(embedded_broker: BrokerEndpoint, mqtt_client: Callable[..., MqttClient], table_code: str) -> None:
    topic = f"gamenight/v1/table/{table_code}/events"
    count = 300
    got: list[bytes] = []
    done = threading.Event()
    def on_event(t: str, p: bytes) -> None:
        got.append(p)
        if len(got) == count: done.set()
    mqtt_client(embedded_broker.service_url("tables"), {topic: on_event})
    for f in ["gamenight/v1/#", f"gamenight/v1/table/{table_code}/+", "gamenight/v1/table/+/events", f"gamenight/v1/table/{table_code}/#", "gamenight/v1/+/+/events"]:
        mqtt_client(embedded_broker.service_url("assistant"), {f: lambda t, p: None})
    churner = mqtt_client(embedded_broker.service_url("bots"))
    publisher = mqtt_client(embedded_broker.service_url("web"))
    stop = threading.Event()
    def churn() -> None:
        n = 0
        while not stop.is_set():
            churner.subscribe(f"gamenight/v1/table/{table_code}/seat/{n % 16}/x{n}", lambda t, p: None, qos=0)
            n += 1
            time.sleep(0.0005)
    thread = threading.Thread(target=churn); thread.start()
    try:
        for i in range(count):
            publisher.publish(topic, str(i).encode(), qos=0)
        assert done.wait(10), f"{len(got)} of {count}"
    finally:
        stop.set(); thread.join()
