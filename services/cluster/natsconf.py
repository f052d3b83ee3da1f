"""The configuration of one ``nats-server`` node of the Game Night cluster, as text.

Every node of the cluster gets the same accounts and the same auth callout; only its name,
its ports and its store directory differ. The text is meant to be read by a person::

    python -m services.cluster.natsconf --node 0 --peers nats-0:6222,nats-1:6222,nats-2:6222
        --secret-file S --out nats.conf      # --run: then exec nats-server with it

Accounts (static users are all "auth users", so they skip the callout):

``GAMENIGHT``  JetStream on. ``tables`` may do anything in it (its table log, its leases,
               the player accounts bucket); ``web``, ``bots`` and ``assistant`` only the
               game's subjects (MQTT ``gamenight/v1/#``); ``callout`` answers
               ``$SYS.REQ.USER.AUTH``. Players and TVs land here through the callout, each
               with the permissions of its ``Grants``.
``SYS``        the system account: user ``system`` lists and disconnects connections
               (revoking a player closes its sessions on every node).
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from protocol.topics import BASE
from services.broker.credentials import SERVICE_NAMES, ServiceCredentials

APP_ACCOUNT = "GAMENIGHT"
SYSTEM_ACCOUNT = "SYS"
CALLOUT_USER = "callout"
SYSTEM_USER = "system"
CLUSTER_NAME = "gamenight"
AUTH_REQUESTS = "$SYS.REQ.USER.AUTH"
CLUSTER_USERS = (*SERVICE_NAMES, CALLOUT_USER, SYSTEM_USER)
# The services that speak only MQTT: the game's subjects, nothing of JetStream's API.
MQTT_ONLY_SERVICES = tuple(name for name in SERVICE_NAMES if name != "tables")


def cluster_credentials(credentials: ServiceCredentials) -> ServiceCredentials:
    """The same secret, also deriving the passwords of the cluster's own users."""
    return ServiceCredentials(credentials.secret, CLUSTER_USERS)


def mqtt_filter_to_subjects(topic_filter: str) -> list[str]:
    """The NATS subjects an MQTT topic filter covers (``/`` -> ``.``, ``+`` -> ``*``).

    An MQTT ``a/#`` also matches ``a`` itself, so it becomes ``a`` and ``a.>``, as the
    server maps subscriptions.
    """
    levels = topic_filter.split("/")
    if any("." in level or " " in level for level in levels):
        raise ValueError(f"a topic NATS cannot carry: {topic_filter!r}")
    mapped = ["*" if level == "+" else level for level in levels]
    if mapped[-1] == "#":
        parent = mapped[:-1]
        return [".".join(parent), ".".join([*parent, ">"])] if parent else [">"]
    return [".".join(mapped)]


@dataclass(frozen=True, slots=True)
class NodePorts:
    """The listening ports of one node."""

    client: int
    cluster: int
    mqtt: int
    websocket: int
    monitor: int


@dataclass(frozen=True, slots=True)
class NodeSpec:
    """One node: its index, name, host, ports and JetStream store."""

    index: int
    host: str
    ports: NodePorts
    store_dir: Path

    @property
    def name(self) -> str:
        return f"gn-{self.index}"

    @property
    def route_url(self) -> str:
        return f"nats://{self.host}:{self.ports.cluster}"


def _q(text: str) -> str:
    return json.dumps(text)


def _user(
    name: str, password: str, subjects: Sequence[str] | None, permissions: str | None = None
) -> str:
    entry = f"{{user: {_q(name)}, password: {_q(password)}"
    if subjects is not None:
        allowed = ", ".join(_q(s) for s in subjects)
        permissions = f"{{publish: [{allowed}], subscribe: [{allowed}]}}"
    if permissions is not None:
        entry += f", permissions: {permissions}"
    return entry + "}"


def render_node_config(
    node: NodeSpec,
    peers: Sequence[NodeSpec],
    credentials: ServiceCredentials,
    issuer: str,
    route_hosts: Sequence[str] | None = None,
) -> str:
    """The configuration file of ``node`` in a cluster of ``peers`` (``node`` included).

    ``issuer`` is the public account nkey whose signature the callout answers carry.
    ``route_hosts`` names the peers' hosts for the routes when they differ from the host
    each listens on (compose: listen on 0.0.0.0, reach ``nats-1``).
    """
    users = cluster_credentials(credentials)
    game_subjects = mqtt_filter_to_subjects(f"{BASE}/#")
    # The tables service may do anything in the account but overhear the logins (whose
    # requests carry the players' passwords).
    tables_denied = f"{{subscribe: {{deny: [{_q(AUTH_REQUESTS)}]}}}}"
    app_users = [_user("tables", users.password("tables"), None, tables_denied)]
    app_users += [_user(n, users.password(n), game_subjects) for n in MQTT_ONLY_SERVICES]
    app_users.append(_user(CALLOUT_USER, users.password(CALLOUT_USER), None))
    hosts = route_hosts or [peer.host for peer in peers]
    pairs = zip(hosts, peers, strict=True)
    routes = [f"nats://{host}:{peer.ports.cluster}" for host, peer in pairs]
    auth_users = ", ".join(_q(name) for name in CLUSTER_USERS)
    app_users_text = "\n".join(f"      {entry}" for entry in app_users)
    system_user = _user(SYSTEM_USER, users.password(SYSTEM_USER), None)
    # A cluster of one has no routes; JetStream then runs standalone.
    cluster_block = (
        f"""
cluster {{
  name: {_q(CLUSTER_NAME)}
  listen: {_q(f"{node.host}:{node.ports.cluster}")}
  routes: [{", ".join(_q(r) for r in routes)}]
}}
"""
        if len(peers) > 1
        else ""
    )
    return f"""# Game Night NATS node {node.name}: generated by services/cluster/natsconf.py
server_name: {_q(node.name)}
listen: {_q(f"{node.host}:{node.ports.client}")}
http: {_q(f"{node.host}:{node.ports.monitor}")}

jetstream {{
  store_dir: {_q(str(node.store_dir))}
}}
{cluster_block}
# Phones, the TV and the services speak MQTT 3.1.1, over TCP or WebSocket (path /mqtt).
mqtt {{
  host: {_q(node.host)}
  port: {node.ports.mqtt}
}}
websocket {{
  host: {_q(node.host)}
  port: {node.ports.websocket}
  no_tls: true
}}

accounts {{
  {APP_ACCOUNT} {{
    jetstream: enabled
    users: [
{app_users_text}
    ]
  }}
  {SYSTEM_ACCOUNT} {{
    users: [{system_user}]
  }}
}}
system_account: {SYSTEM_ACCOUNT}

# Everyone else (players, TVs) is asked about on $SYS.REQ.USER.AUTH (services/cluster/callout.py).
authorization {{
  timeout: 5
  auth_callout {{
    issuer: {_q(issuer)}
    account: {APP_ACCOUNT}
    auth_users: [{auth_users}]
  }}
}}
"""


def main(argv: Sequence[str] | None = None) -> int:
    """Write one node's configuration (compose.cluster.yml's nodes); ``--run`` then
    replaces this process by ``nats-server`` with it."""
    parser = argparse.ArgumentParser(
        prog="python -m services.cluster.natsconf", description=main.__doc__
    )
    parser.add_argument("--node", type=int, required=True, help="this node's index")
    parser.add_argument(
        "--peers",
        required=True,
        help="every node's HOST:CLUSTER_PORT in index order, e.g. nats-0:6222,nats-1:6222",
    )
    parser.add_argument("--listen-host", default="0.0.0.0")
    parser.add_argument(
        "--ports",
        default="4222,6222,1883,8080,8222",
        help="this node's client,cluster,mqtt,websocket,monitor ports (default: %(default)s)",
    )
    parser.add_argument("--store-dir", type=Path, default=Path("/data/jetstream"))
    parser.add_argument(
        "--secret-file",
        type=Path,
        default=None,
        help="the service secret (default: $GAMENIGHT_SERVICE_SECRET_FILE or _SECRET)",
    )
    parser.add_argument("--out", type=Path, default=None, help="default: STORE_DIR/../nats.conf")
    parser.add_argument("--run", action="store_true", help="then exec nats-server with it")
    args = parser.parse_args(argv)
    from services.cluster.callout import issuer_for

    client, cluster, mqtt, websocket, monitor = (int(p) for p in args.ports.split(","))
    peers = []
    for index, peer in enumerate(args.peers.split(",")):
        host, _, port = peer.rpartition(":")
        ports = NodePorts(client, int(port), mqtt, websocket, monitor)
        peers.append(NodeSpec(index, host, ports, args.store_dir))
    own = peers[args.node]
    node = NodeSpec(
        own.index,
        args.listen_host,
        NodePorts(client, cluster, mqtt, websocket, monitor),
        own.store_dir,
    )
    credentials = ServiceCredentials.load(args.secret_file)
    issuer = issuer_for(credentials).public_key.decode()
    text = render_node_config(
        node, peers, credentials, issuer, route_hosts=[peer.host for peer in peers]
    )
    out = args.out or args.store_dir.parent / "nats.conf"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, "utf-8")
    out.chmod(0o600)  # it holds the service passwords
    if args.run:
        from services.cluster.nodes import nats_server_binary

        binary = str(nats_server_binary())
        os.execv(binary, [binary, "-c", str(out)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
