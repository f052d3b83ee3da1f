"""paho's client with fewer system calls for what its own network thread publishes.

paho wakes its loop through a socket pair with a byte for every publish, even one made
in its own thread, and writes each packet with a ``send`` of its own: 11 ``send`` calls
per intent in the tables service under ``benchmarks.load`` (one intent, five messages
out, their acknowledgements). Here a handler's publishes wake nothing and leave in one
``send``; and what a handler published is written as soon as it returns, not after
every message paho reads in the same pass.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import paho.mqtt.client as paho
from paho.mqtt.enums import MessageType, MQTTErrorCode

COALESCED_BYTES = 65536  # the most queued packets ``CoalescingPaho`` joins into one send


class CoalescingPaho(paho.Client):
    """paho's client, writing what its own network thread queued with fewer system calls.

    * A publish from the network thread (inside a handler) does not wake the loop through
      its socket pair: that thread writes whatever is queued before it waits again.
    * Packets queued together go out in one ``send`` (over TCP; a WebSocket keeps paho's
      one frame per packet).
    """

    def _packet_queue(
        self,
        command: int,
        packet: bytes | bytearray,
        mid: int,
        qos: int,
        info: paho.MQTTMessageInfo | None = None,
    ) -> MQTTErrorCode:
        if self._thread is None or threading.current_thread() is not self._thread:
            return super()._packet_queue(command, packet, mid, qos, info)
        self._out_packet.append(
            {
                "command": command,
                "mid": mid,
                "qos": qos,
                "pos": 0,
                "to_process": len(packet),
                "packet": packet,
                "info": info,
            }
        )
        return MQTTErrorCode.MQTT_ERR_SUCCESS

    def write_queued(self) -> None:
        """From inside a callback: write the messages and acks at the front of the queue.

        Not through paho's ``loop_write``: that writes whatever is queued meanwhile too,
        and a DISCONNECT (``stop()`` from another thread) runs ``on_disconnect`` under a
        lock the running callback holds (a deadlock). paho's loop writes the rest, and
        deals with a full socket or a lost connection. (``on_publish`` is not called for
        what this writes: ``MqttClient`` sets none.)
        """
        out = self._out_packet
        if len(out) > 1 and self._transport == "tcp":
            self._join_queued(out)
        while out and out[0]["command"] & 0xF0 in (MessageType.PUBLISH, MessageType.PUBACK):
            packet = out.popleft()  # only this thread takes from the front
            try:
                written = self._sock_send(packet["packet"][packet["pos"] :])
            except (OSError, AttributeError, ValueError):  # full, closed or gone: the loop's
                out.appendleft(packet)
                return
            packet["pos"] += written
            packet["to_process"] -= written
            if packet["to_process"] > 0:
                out.appendleft(packet)
                return
            info = packet["info"]
            qos0 = packet["command"] & 0xF0 == MessageType.PUBLISH and not packet["qos"]
            if qos0 and info is not None:
                info._set_as_published()
            with self._msgtime_mutex:
                self._last_msg_out = time.monotonic()

    def _packet_write(self) -> MQTTErrorCode:
        out = self._out_packet
        if len(out) > 1 and self._transport == "tcp":
            self._join_queued(out)
        return super()._packet_write()

    @staticmethod
    def _join_queued(out: Any) -> None:
        """Join the first queued packets (PUBLISH and PUBACK only) into one QoS 0 PUBLISH.

        paho writes the joined packet as it writes any (partly, if the socket is full);
        once all of it is written it marks the QoS 0 publishes in it published, through
        ``_JoinedInfo``, as it marks one written alone. Other threads only append to
        ``out`` meanwhile: it is read by index, never iterated.
        """
        count, size = 0, 0
        while count < len(out) and size < COALESCED_BYTES:
            packet = out[count]
            if packet["command"] & 0xF0 not in (MessageType.PUBLISH, MessageType.PUBACK):
                break
            count += 1
            size += packet["to_process"]
        if count < 2:
            return
        joined = [out.popleft() for _ in range(count)]
        data = b"".join(bytes(p["packet"][p["pos"] :]) for p in joined)
        publish = MessageType.PUBLISH
        infos = [p["info"] for p in joined if p["command"] & 0xF0 == publish and not p["qos"]]
        out.appendleft(
            {
                "command": MessageType.PUBLISH,
                "mid": 0,
                "qos": 0,
                "pos": 0,
                "to_process": len(data),
                "packet": data,
                "info": _JoinedInfo(infos),
            }
        )


class _JoinedInfo:
    """Stands for the QoS 0 publishes of a joined packet towards paho, which marks them."""

    def __init__(self, infos: list[paho.MQTTMessageInfo | None]) -> None:
        self._infos = [info for info in infos if info is not None]

    @property
    def rc(self) -> MQTTErrorCode:
        return self._infos[0].rc if self._infos else MQTTErrorCode.MQTT_ERR_SUCCESS

    @rc.setter
    def rc(self, value: MQTTErrorCode) -> None:  # the connection lost before it went
        for info in self._infos:
            info.rc = value

    def _set_as_published(self) -> None:
        for info in self._infos:
            info._set_as_published()
