"""A minimal MQTT 3.1.1 client on asyncio, for thousands of player connections in one process.

paho runs a thread per connection; a load generator playing 4,000 seats cannot. This is
only what a phone does: CONNECT with a username and password, SUBSCRIBE, PUBLISH at QoS 0
or 1 (the broker's PUBACK is counted, not awaited), receive PUBLISH at QoS 0 or 1 (a PUBACK
is sent back), PINGREQ. Benchmarks and tests only; the services use ``services.mqtt``.
"""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Callable

Handler = Callable[[str, bytes], None]

CONNECT, CONNACK, PUBLISH, PUBACK = 0x10, 0x20, 0x30, 0x40
SUBSCRIBE, SUBACK, PINGREQ, PINGRESP = 0x82, 0x90, 0xC0, 0xD0
DISCONNECT = 0xE0


class MqttRefusedError(ConnectionError):
    """CONNACK with a non-zero return code (bad login, not authorised)."""


def _length(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value % 128, value // 128
        out.append(byte | 0x80 if value else byte)
        if not value:
            return bytes(out)


def _text(value: str | bytes) -> bytes:
    data = value.encode("utf-8") if isinstance(value, str) else value
    return struct.pack("!H", len(data)) + data


def _packet(kind: int, body: bytes) -> bytes:
    return bytes((kind,)) + _length(len(body)) + body


def connect_packet(
    client_id: str, username: str | None, password: str | None, keepalive: int, clean: bool
) -> bytes:
    flags = 0x02 if clean else 0
    payload = _text(client_id)
    if username is not None:
        flags |= 0x80
        payload += _text(username)
        if password is not None:
            flags |= 0x40
            payload += _text(password)
    header = _text("MQTT") + bytes((4, flags)) + struct.pack("!H", keepalive)
    return _packet(CONNECT, header + payload)


def publish_packet(topic: str, payload: bytes, qos: int, packet_id: int, retain: bool) -> bytes:
    head = PUBLISH | (qos << 1) | (1 if retain else 0)
    body = _text(topic) + (struct.pack("!H", packet_id) if qos else b"") + payload
    return _packet(head, body)


class MqttConnection(asyncio.Protocol):
    """One MQTT connection; ``handler(topic, payload)`` is called for every PUBLISH received."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.transport: asyncio.Transport | None = None
        self._buffer = bytearray()
        self._next_id = 0
        self._connack: asyncio.Future[int] | None = None
        self._subacks: dict[int, asyncio.Future[bytes]] = {}
        self.closed: asyncio.Future[None] | None = None
        self.unacked = 0  # our QoS 1 publishes the broker has not acknowledged yet

    @classmethod
    async def open(
        cls,
        host: str,
        port: int,
        handler: Handler,
        *,
        client_id: str,
        username: str | None = None,
        password: str | None = None,
        keepalive: int = 60,
        clean: bool = True,
        timeout: float = 30.0,
    ) -> MqttConnection:
        loop = asyncio.get_running_loop()
        _, connection = await asyncio.wait_for(
            loop.create_connection(lambda: cls(handler), host, port), timeout
        )
        assert connection.transport is not None
        connection._connack = loop.create_future()
        connection.transport.write(connect_packet(client_id, username, password, keepalive, clean))
        code = await asyncio.wait_for(connection._connack, timeout)
        if code != 0:
            connection.close()
            raise MqttRefusedError(f"CONNACK return code {code} for {username}")
        loop.call_later(keepalive / 2, connection._ping, keepalive)
        return connection

    # ------------------------------------------------------------------ asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.closed = asyncio.get_running_loop().create_future()
        sock = transport.get_extra_info("socket")
        if sock is not None:
            import socket

            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        if self.closed is not None and not self.closed.done():
            self.closed.set_result(None)
        if self._connack is not None and not self._connack.done():
            self._connack.set_exception(ConnectionError("closed before CONNACK"))
        for future in self._subacks.values():
            if not future.done():
                future.set_exception(ConnectionError("closed before SUBACK"))

    def data_received(self, data: bytes) -> None:
        buffer = self._buffer
        buffer += data
        start, end = 0, len(buffer)
        while end - start >= 2:
            # The remaining length: up to four bytes of seven bits.
            multiplier, length, index = 1, 0, start + 1
            while True:
                if index >= end:
                    del buffer[:start]
                    return
                byte = buffer[index]
                length += (byte & 0x7F) * multiplier
                multiplier *= 128
                index += 1
                if not byte & 0x80:
                    break
            if end - index < length:
                break
            self._packet(buffer[start], bytes(buffer[index : index + length]))
            start = index + length
        del buffer[:start]

    def _packet(self, head: int, body: bytes) -> None:
        kind = head & 0xF0
        if kind == PUBLISH:
            qos = (head >> 1) & 0x03
            (size,) = struct.unpack_from("!H", body)
            topic = body[2 : 2 + size].decode("utf-8")
            offset = 2 + size
            if qos:
                packet_id = body[offset : offset + 2]
                offset += 2
                if self.transport is not None:
                    self.transport.write(bytes((PUBACK, 2)) + packet_id)
            self.handler(topic, body[offset:])
        elif kind == PUBACK:
            self.unacked -= 1
        elif kind == CONNACK and self._connack is not None and not self._connack.done():
            self._connack.set_result(body[1])
        elif kind == SUBACK:
            (packet_id,) = struct.unpack_from("!H", body)
            future = self._subacks.pop(packet_id, None)
            if future is not None and not future.done():
                future.set_result(body[2:])

    # ------------------------------------------------------------------ operations
    def _packet_id(self) -> int:
        self._next_id = self._next_id % 65535 + 1
        return self._next_id

    async def subscribe(self, filters: list[tuple[str, int]], timeout: float = 30.0) -> bytes:
        """Subscribe and wait for the SUBACK; returns its return codes (0x80: refused)."""
        packet_id = self._packet_id()
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._subacks[packet_id] = future
        body = struct.pack("!H", packet_id) + b"".join(
            _text(topic) + bytes((qos,)) for topic, qos in filters
        )
        if self.transport is None:
            raise ConnectionError("not connected")
        self.transport.write(_packet(SUBSCRIBE, body))
        return await asyncio.wait_for(future, timeout)

    def publish(self, topic: str, payload: bytes, qos: int = 1, retain: bool = False) -> None:
        if self.transport is None:
            raise ConnectionError("not connected")
        packet_id = self._packet_id() if qos else 0
        if qos:
            self.unacked += 1
        self.transport.write(publish_packet(topic, payload, qos, packet_id, retain))

    def _ping(self, keepalive: int) -> None:
        if self.transport is None:
            return
        self.transport.write(bytes((PINGREQ, 0)))
        asyncio.get_running_loop().call_later(keepalive / 2, self._ping, keepalive)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.write(bytes((DISCONNECT, 0)))
            self.transport.close()
