"""An offline seat handed to a new phone with a one-time seat link; a removed player
takes its seat back once the game is over."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from tables_clients import WAIT, LobbyClient, Phone

from protocol import topics
from services.broker.settings import BrokerEndpoint
from services.mqtt import ConnectRefusedError, MqttClient
from services.tables.handoff import SeatLinks
from services.tables.runner import TablesRunner
from services.tables.table import SeatInfo, Table, TableError


def login_refused(broker: BrokerEndpoint, username: str, password: str) -> bool:
    client = MqttClient(broker.url(username, password), client_id=username)
    try:
        client.start()
        try:
            client.wait_connected(WAIT)
        except ConnectRefusedError:
            return True
        return False
    finally:
        client.stop()


def set_online(phone: Phone, online: bool) -> None:
    message = json.dumps({"v": 1, "online": online}).encode()
    phone.client.publish(topics.seat_topic(phone.table, phone.seat, "presence"), message)


def game_under_way(lobby: LobbyClient, phones: Callable[..., Phone]) -> tuple[str, Phone, Phone]:
    table = lobby.create("kings-corner")
    ana, ben = phones(table, "Ana"), phones(table, "Ben")
    set_online(ana, True)
    set_online(ben, True)
    assert lobby.host(table, "start")["status"] == "ok"
    lobby.public(table, lambda view: view["status"] == "playing" and view["players"][1]["online"])
    return table, ana, ben


def test_the_host_hands_an_offline_seat_to_a_new_phone(
    tables: TablesRunner,
    lobby: LobbyClient,
    phones: Callable[..., Phone],
    broker: BrokerEndpoint,
) -> None:
    table, _ana, ben = game_under_way(lobby, phones)
    cards = ben.box.wait(ben.view_topic, lambda view: view["state"] is not None)["state"]["hand"]
    # Ben is online: his seat stays his.
    refused = lobby.host(table, "seat_link", seat=1)
    assert refused["error"] == {"code": "seat_online", "params": {"seat": 1, "name": "Ben"}}

    set_online(ben, False)  # his battery dies (the last will says the same)
    ben.client.stop()
    lobby.public(table, lambda view: not view["players"][1]["online"])
    link = lobby.host(table, "seat_link", seat=1)
    assert link["status"] == "ok", link
    token = link["data"]["token"]
    assert link["data"]["seat"] == 1 and link["data"]["minutes"] == 10

    wrong = lobby.request("claim", table=table, seat=1, token="x" * 32)
    assert wrong["error"]["code"] == "seat_link_invalid"
    other_seat = lobby.request("claim", table=table, seat=0, token=token)
    assert other_seat["error"]["code"] == "seat_link_invalid"

    claimed = lobby.request("claim", table=table, seat=1, token=token, lang="nl")
    assert claimed["status"] == "ok", claimed
    data = claimed["data"]
    assert (data["seat"], data["host"]) == (1, False)
    assert data["player_id"] != ben.player_id
    new_phone = Phone(broker, data)
    try:
        view = new_phone.box.wait(new_phone.view_topic, lambda view: view["state"] is not None)
        assert view["state"]["hand"] == cards and view["player"] == data["player_id"]
        # The link was for one use only; the lost phone's login opens nothing now.
        again = lobby.request("claim", table=table, seat=1, token=token)
        assert again["error"]["code"] == "seat_link_invalid"
        assert login_refused(broker, ben.username, ben.password)
        # The new phone speaks for the seat; the old player id does not any more.
        stale = new_phone.act({"type": "end_turn"}, player=ben.player_id)
        assert stale["error"]["code"] == "not_your_seat"
        sync = new_phone.send({"v": 1, "id": "s1", "op": "sync"})
        assert sync["status"] == "ok"
    finally:
        new_phone.stop()

    # After a restart the seat is still the new phone's (the log holds the hand-over).
    assert tables.service is not None and tables.store is not None
    rebuilt = tables.service._rebuild(table, tables.service.tables[table].epoch)
    assert rebuilt.seats[1].player_id == data["player_id"]


def test_no_seat_link_for_a_bot_or_an_empty_seat_and_only_from_the_host(
    tables: TablesRunner,
    lobby: LobbyClient,
    phones: Callable[..., Phone],
) -> None:
    table = lobby.create("kings-corner")
    ana = phones(table, "Ana")
    assert lobby.host(table, "start")["status"] == "ok"  # seat 1 becomes a bot
    lobby.public(table, lambda view: view["status"] == "playing")
    assert lobby.host(table, "seat_link", seat=1)["error"]["code"] == "not_a_player_seat"
    assert lobby.host(table, "seat_link", seat=5)["error"]["code"] == "no_such_seat"
    # A player who is not the host is refused (the broker refuses its publishing anyway).
    message = {"v": 1, "id": "h1", "op": "seat_link", "params": {"seat": 0}, "player": "p-nobody"}
    lobby.client.publish(topics.host_topic(table, "intent"), json.dumps(message).encode())
    reply = lobby.box.wait(topics.host_topic(table, "reply"), lambda m: m["id"] == "h1")
    assert reply["error"]["code"] == "not_host"
    assert ana.view()["player"] == ana.player_id


def test_seat_links_are_single_use_expire_and_only_the_newest_works() -> None:
    now = [100.0]
    links = SeatLinks(seconds=60, clock=lambda: now[0])
    table = Table(code="ABC")
    table.seats[0] = SeatInfo(seat=0, player_id="p1", name="Ana")
    table.seats[1] = SeatInfo(seat=1, player_id="b1", name="Bot 1", bot=True)
    first = links.issue(table, 0)
    second = links.issue(table, 0)
    with pytest.raises(TableError) as old:
        links.redeem(table, 0, first)  # replaced by the newer one
    assert old.value.code == "seat_link_invalid"
    table.seats[0].online = True
    with pytest.raises(TableError) as online:
        links.redeem(table, 0, second)
    assert online.value.code == "seat_online"
    table.seats[0].online = False
    links.redeem(table, 0, second)  # still usable: the refusal used nothing up
    with pytest.raises(TableError) as used:
        links.redeem(table, 0, second)
    assert used.value.code == "seat_link_invalid"
    late = links.issue(table, 0)
    now[0] += 60
    with pytest.raises(TableError) as expired:
        links.redeem(table, 0, late)
    assert expired.value.code == "seat_link_expired"
    with pytest.raises(TableError) as bot:
        links.issue(table, 1)
    assert bot.value.code == "not_a_player_seat"


def test_a_removed_player_is_told_and_takes_the_seat_back_when_the_game_is_over(
    tables: TablesRunner,
    lobby: LobbyClient,
    phones: Callable[..., Phone],
) -> None:
    table, _ana, ben = game_under_way(lobby, phones)
    assert lobby.host(table, "kick", seat=1)["status"] == "ok"
    # Ben's phone is told it was removed (before its login goes).
    told = ben.box.wait(ben.view_topic, lambda view: bool(view.get("kicked")))
    assert told["state"] is None and "player" not in told
    lobby.public(table, lambda view: view["players"][1]["bot"])  # a computer plays on

    assert lobby.host(table, "end_session")["status"] == "ok"
    lobby.public(table, lambda view: view["status"] == "finished")
    back = lobby.request("join", table=table, name="ben")  # before: refused at game over
    assert back["status"] == "ok", back
    assert back["data"]["seat"] == 1
    public = lobby.public(table, lambda view: not view["players"][1]["bot"])
    assert public["players"][1]["name"] == "ben" and len(public["players"]) == 2
    assert not public["players"][1].get("stand_in")
    # Someone else may not take that seat by using another name.
    other = lobby.request("join", table=table, name="Cleo")
    assert other["status"] == "ok" and other["data"]["seat"] == 2
