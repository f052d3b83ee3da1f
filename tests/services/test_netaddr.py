"""The advertised address, chosen from faked interfaces (no route is ever probed here)."""

from __future__ import annotations

import ipaddress
import socket

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services import netaddr
from services.netaddr import AdvertisedAddress, Interface, advertised_address, choose_address

LO = Interface("lo", ("127.0.0.1",))
DOCKER = Interface("docker0", ("172.17.0.1",))
ETH = Interface("enp3s0", ("192.168.1.23",))
WIFI = Interface("wlp2s0", ("10.0.0.42",))


def choose(*interfaces: Interface, route: str | None = None, host: tuple[str, ...] = ()) -> str:
    return choose_address(route, interfaces, host).address


def test_the_default_route_interface_wins() -> None:
    chosen = choose_address("10.0.0.42", [LO, ETH, WIFI], ["127.0.1.1"])
    assert chosen == AdvertisedAddress("10.0.0.42", "route")
    assert chosen.reachable


def test_a_host_name_resolving_to_127_0_1_1_loses_to_the_ethernet_address() -> None:
    # Debian and Ubuntu write "127.0.1.1 hostname" into /etc/hosts: the old chooser's trap.
    assert choose(LO, ETH, host=("127.0.1.1",)) == "192.168.1.23"


def test_a_docker_bridge_loses_to_a_real_lan_interface_whatever_the_order() -> None:
    assert choose(LO, DOCKER, ETH) == "192.168.1.23"
    assert choose(DOCKER, LO, WIFI, ETH) == "10.0.0.42"


def test_a_docker_bridge_is_still_better_than_loopback() -> None:
    assert choose(LO, DOCKER) == "172.17.0.1"


def test_of_several_real_interfaces_the_first_up_private_one_is_chosen() -> None:
    down = Interface("enp0s31f6", ("192.168.50.2",), up=False)
    public = Interface("eno1", ("81.2.69.160",))
    assert choose(LO, down, public, WIFI, ETH) == "10.0.0.42"
    assert choose(LO, down, public) == "81.2.69.160"  # routable beats nothing


def test_a_probe_that_found_only_loopback_is_ignored() -> None:
    assert choose(LO, ETH, route="127.0.0.1") == "192.168.1.23"


def test_link_local_only_when_nothing_else_and_loopback_last() -> None:
    zeroconf = Interface("eth0", ("169.254.10.20",))
    chosen = choose_address(None, [LO, zeroconf], [])
    assert chosen.address == "169.254.10.20" and not chosen.reachable
    nothing = choose_address(None, [], [])
    assert nothing == AdvertisedAddress("127.0.0.1", "loopback")
    assert not nothing.reachable
    assert choose(LO, host=("127.0.1.1",)) == "127.0.0.1"


def test_the_host_name_is_used_when_no_interface_is_known() -> None:
    assert choose(host=("127.0.1.1", "192.168.7.9")) == "192.168.7.9"


def test_the_sources_are_injected_and_the_probe_is_called_once() -> None:
    calls: list[str] = []

    def probe() -> str | None:
        calls.append("probe")
        return None

    chosen = advertised_address(probe, lambda: [LO, DOCKER, ETH], lambda: ["127.0.1.1"])
    assert chosen == AdvertisedAddress("192.168.1.23", "interface enp3s0")
    assert calls == ["probe"]


def test_the_probe_is_off_in_this_test_suite_and_connects_only_where_told(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # tests/conftest.py switches the probe off for the whole suite (subprocesses too).
    assert netaddr.udp_route_probe() is None
    # Aimed at loopback, the kernel's route lookup answers with loopback (no packet either).
    monkeypatch.setenv(netaddr.PROBE_ENV, "127.0.0.1")
    assert netaddr.udp_route_probe() == "127.0.0.1"


def test_the_real_interfaces_are_read_and_include_loopback() -> None:
    interfaces = netaddr.system_interfaces()
    assert any("127.0.0.1" in interface.addresses for interface in interfaces)
    for interface in interfaces:
        for address in interface.addresses:
            assert isinstance(ipaddress.ip_address(address), ipaddress.IPv4Address)


def test_the_loopback_warning_names_the_option_and_the_port() -> None:
    text = netaddr.loopback_warning(8000, "https")
    assert "phones cannot reach 127.0.0.1" in text
    assert "--public-url https://<address>:8000" in text


ipv4 = st.ip_addresses(v=4).map(str)
names = st.sampled_from(["lo", "eth0", "enp3s0", "wlan0", "docker0", "br-1a2b", "virbr0"])
interfaces = st.lists(
    st.builds(Interface, names, st.lists(ipv4, max_size=3).map(tuple), st.booleans()),
    max_size=5,
)


@given(interfaces, st.one_of(st.none(), ipv4), st.lists(ipv4, max_size=3))
def test_the_choice_is_always_one_offered_or_loopback_and_never_worse_than_offered(
    offered: list[Interface], route: str | None, host: list[str]
) -> None:
    chosen = choose_address(route, offered, host)
    pool = [a for i in offered if i.up for a in i.addresses] + host + ([route] if route else [])
    assert chosen.address in pool or chosen.address == "127.0.0.1"
    reachable = [a for a in pool if AdvertisedAddress(a, "").reachable]
    multicast = [a for a in reachable if ipaddress.ip_address(a).is_multicast]
    if set(reachable) - set(multicast):
        assert chosen.reachable  # a reachable address was offered: loopback never wins


def test_no_socket_is_opened_by_the_chooser(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the chooser opened a socket")

    monkeypatch.setattr(socket, "socket", refuse)
    assert choose(LO, ETH, route=None) == "192.168.1.23"


def test_listeners_on_loopback_are_warned_about_when_phones_are_sent_elsewhere() -> None:
    listeners = {
        "the web service": "127.0.0.1 --host 0.0.0.0",
        "the broker's WebSocket": "0.0.0.0 --ws 0.0.0.0:8083",
    }
    warnings = netaddr.listen_warnings(listeners, "192.168.1.23")
    assert warnings == [
        "WARNING: phones cannot reach the web service: it listens on 127.0.0.1 only"
        " (--host 0.0.0.0 opens it to the home network)"
    ]
    assert netaddr.listen_warnings(listeners, "127.0.0.1") == []  # said once, differently
    open_to_all = {"the web service": "0.0.0.0 --host 0.0.0.0", "the WebSocket": ":: --ws x"}
    assert netaddr.listen_warnings(open_to_all, "192.168.1.23") == []
    assert netaddr.listen_warnings({"it": "localhost --ws 0.0.0.0:9"}, "tv.lan") == [
        "WARNING: phones cannot reach it: it listens on localhost only"
        " (--ws 0.0.0.0:9 opens it to the home network)"
    ]
