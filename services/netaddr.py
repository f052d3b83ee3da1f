"""The address phones on the home network can reach this machine at.

In order of preference:

1. the IPv4 address of the interface that carries the default route: a UDP socket
   "connected" to a public address makes the kernel pick it, and sends no packet;
2. else the first private address of an interface that is up, real interfaces before
   virtual ones (a Docker or VM bridge is reachable only from this machine's containers);
3. else any other routable address an interface or the host name has;
4. link-local, then loopback, only when nothing else exists: then phones cannot join,
   and ``AdvertisedAddress.reachable`` is False so the caller warns loudly.

Every source is a parameter, so tests fake interfaces and never probe a real route.
``$GAMENIGHT_ROUTE_PROBE`` names the address the probe connects to (``off``: no probe);
the test suite sets ``off``, so a test started in a subprocess does not probe either.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import socket
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

# A documentation address (TEST-NET-1): a route lookup only, nothing is ever sent to it.
DEFAULT_PROBE_TARGET = "192.0.2.1"
PROBE_ENV = "GAMENIGHT_ROUTE_PROBE"
LOOPBACK = "127.0.0.1"
# Interface names of bridges and tunnels made by container and VM tools.
VIRTUAL_PREFIXES = (
    "docker",
    "br-",
    "veth",
    "virbr",
    "vboxnet",
    "vmnet",
    "lxcbr",
    "lxdbr",
    "podman",
    "cni",
    "flannel",
    "cali",
    "tun",
    "tap",
    "wg",
    "zt",
    "tailscale",
)


@dataclass(frozen=True, slots=True)
class Interface:
    """A network interface as the chooser sees it: its name, IPv4 addresses, state."""

    name: str
    addresses: tuple[str, ...]
    up: bool = True

    @property
    def virtual(self) -> bool:
        return self.name.startswith(VIRTUAL_PREFIXES)


@dataclass(frozen=True, slots=True)
class AdvertisedAddress:
    """The chosen address and where it came from (``route``, ``interface NAME``, ...)."""

    address: str
    source: str

    @property
    def reachable(self) -> bool:
        """False for loopback and link-local: phones cannot reach those."""
        ip = ipaddress.ip_address(self.address)
        return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


RouteProbe = Callable[[], str | None]


def _ipv4(address: str) -> ipaddress.IPv4Address | None:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    return ip if isinstance(ip, ipaddress.IPv4Address) else None


def _routable(address: str) -> bool:
    ip = _ipv4(address)
    return ip is not None and not (
        ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast
    )


def udp_route_probe(target: str | None = None) -> str | None:
    """This machine's address on the default route (connect() on UDP sends no packet)."""
    target = target or os.environ.get(PROBE_ENV) or DEFAULT_PROBE_TARGET
    if target == "off":
        return None
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect((target, 9))
            return str(probe.getsockname()[0])
    except OSError:  # no default route (an offline machine)
        return None


def _operstate_up(name: str) -> bool:
    # "unknown" is what loopback and many tunnels and Wi-Fi drivers report while working.
    try:
        state = (Path("/sys/class/net") / name / "operstate").read_text("ascii").strip()
    except OSError:
        return True  # not Linux, or no sysfs: trust that an address means it is in use
    return state != "down"


def system_interfaces() -> list[Interface]:
    """This machine's interfaces with their IPv4 addresses (through ``ifaddr``)."""
    import ifaddr

    interfaces = []
    for adapter in ifaddr.get_adapters():
        addresses = tuple(str(ip.ip) for ip in adapter.ips if isinstance(ip.ip, str))
        if addresses:
            interfaces.append(Interface(adapter.name, addresses, _operstate_up(adapter.name)))
    return interfaces


def host_name_addresses() -> list[str]:
    """What the host name resolves to (on Debian and Ubuntu, often 127.0.1.1)."""
    with contextlib.suppress(OSError):
        return list(socket.gethostbyname_ex(socket.gethostname())[2])
    return []


def choose_address(
    route_address: str | None, interfaces: Sequence[Interface], host_addresses: Iterable[str]
) -> AdvertisedAddress:
    """The best of what the probe, the interfaces and the host name offer (see module doc)."""
    if route_address is not None and _routable(route_address):
        return AdvertisedAddress(route_address, "route")
    up = [interface for interface in interfaces if interface.up]
    ordered = [i for i in up if not i.virtual] + [i for i in up if i.virtual]
    candidates = [(a, f"interface {i.name}") for i in ordered for a in i.addresses]
    candidates += [(a, "host name") for a in host_addresses]
    for address, source in candidates:
        ip = _ipv4(address)
        if ip is not None and ip.is_private and _routable(address):
            return AdvertisedAddress(address, source)
    for address, source in candidates:
        if _routable(address):
            return AdvertisedAddress(address, source)
    for address, source in candidates:
        ip = _ipv4(address)
        if ip is not None and ip.is_link_local:
            return AdvertisedAddress(address, source)
    return AdvertisedAddress(LOOPBACK, "loopback")


def advertised_address(
    route_probe: RouteProbe = udp_route_probe,
    interfaces: Callable[[], Sequence[Interface]] = system_interfaces,
    host_addresses: Callable[[], Iterable[str]] = host_name_addresses,
) -> AdvertisedAddress:
    """The address to put in the QR code, from this machine's real network settings."""
    return choose_address(route_probe(), interfaces(), host_addresses())


def loopback_warning(port: int, scheme: str = "http") -> str:
    """The terminal's warning when the best address is loopback (the TV shows it too)."""
    return (
        f"WARNING: phones cannot reach {LOOPBACK}: start with "
        f"--public-url {scheme}://<address>:{port} (this computer's address on the home network)"
    )


def _is_loopback_host(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def listen_warnings(listeners: dict[str, str], public_host: str) -> list[str]:
    """Warnings for listeners bound to loopback while the QR code sends phones elsewhere.

    ``listeners`` maps what listens ("the web service") to its host and the option that
    opens it (``"127.0.0.1 --host 0.0.0.0"``).
    """
    if _is_loopback_host(public_host):
        return []  # the loopback warning says it all
    warnings = []
    for what, spec in listeners.items():
        host, _, option = spec.partition(" ")
        if _is_loopback_host(host):
            warnings.append(
                f"WARNING: phones cannot reach {what}: it listens on {host} only"
                f" ({option} opens it to the home network)"
            )
    return warnings
