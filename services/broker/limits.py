"""What one client may cost a broker: packet size, queue, connections; the same on both brokers.

The figures fit the protocol: a player's message is at most 16 KiB (``protocol.messages``),
the largest view a few KiB, so a 256 KiB packet is generous for every honest client and
bounds what a malicious one makes the broker hold. Mosquitto gets them in its
configuration (``max_packet_size``, ``max_queued_messages``, ``max_queued_bytes``); the
embedded broker checks them itself.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import resource
from dataclasses import dataclass

log = logging.getLogger("gamenight.broker")

MAX_PACKET_BYTES = 256 * 1024
# Per client, while it is offline (the tables service's persistent session, mostly): a
# flood beyond this is dropped by the broker; clients resend their intents (same id)
# once the service is back, so a dropped move is delayed, never lost.
MAX_QUEUED_MESSAGES = 5000
MAX_QUEUED_BYTES = 8 * 1024 * 1024
CONNECT_TIMEOUT = 5.0  # seconds from accepting a socket to its CONNECT
# Per player connection (services are not limited): a phone sends a few a minute.
PUBLISH_BURST = 200
PUBLISH_RATE = 100.0  # messages a second
FLOOD_SHUT_OUT = 10.0  # seconds an account disconnected for flooding cannot reconnect
MAX_CONNECTIONS_PER_ADDRESS = 32  # a family's phones share no address; a NAT'd guest network may


@dataclass(frozen=True, slots=True)
class BrokerLimits:
    """The limits of one embedded broker (defaults above; tests lower them)."""

    max_packet_bytes: int = MAX_PACKET_BYTES
    max_queued_messages: int = MAX_QUEUED_MESSAGES
    max_queued_bytes: int = MAX_QUEUED_BYTES
    connect_timeout: float = CONNECT_TIMEOUT
    max_connections_per_address: int = MAX_CONNECTIONS_PER_ADDRESS
    publish_burst: int = PUBLISH_BURST
    publish_rate: float = PUBLISH_RATE
    flood_shut_out: float = FLOOD_SHUT_OUT
    # The services connect from this machine, many at once: loopback is not capped.
    cap_loopback: bool = False

    def capped(self, host: str) -> bool:
        """Whether connections from ``host`` count against the per-address cap."""
        if self.cap_loopback:
            return True
        try:
            return not ipaddress.ip_address(host.split("%")[0]).is_loopback
        except ValueError:
            return True


def raise_open_file_limit() -> int:
    """Raise this process's open-file limit to its hard limit; return the new soft limit.

    Debian's usual soft limit is 1,024: a thousand idle sockets would lock everyone out.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft >= hard:
        return soft
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        return target
    log.warning("could not raise the open-file limit above %d", soft)
    return soft
