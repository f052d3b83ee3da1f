"""After a game, a new game, new options or a rematch give every screen a clean view."""

from __future__ import annotations

from collections.abc import Callable

from tables_clients import LobbyClient, Phone

from protocol import topics
from services.tables.runner import TablesRunner
from services.tables.table import Table


def finished_kings_game(lobby: LobbyClient, phones: Callable[..., Phone]) -> tuple[str, Phone]:
    table = lobby.create("kings-corner")
    ana, _ben = phones(table, "Ana"), phones(table, "Ben")
    assert lobby.host(table, "start")["status"] == "ok"
    assert lobby.host(table, "end_session")["status"] == "ok"
    done = lobby.public(table, lambda view: view["status"] == "finished")
    assert done["state"]["game"] == "kings-corner"
    return table, ana


def test_choosing_another_game_after_a_game_clears_the_old_board(
    tables: TablesRunner, lobby: LobbyClient, phones: Callable[..., Phone]
) -> None:
    table, ana = finished_kings_game(lobby, phones)
    assert lobby.host(table, "set_game", game="five-crowns")["status"] == "ok"
    view = lobby.public(table, lambda view: view["game"] == "five-crowns")
    # Before: status "finished" with the Kings game's state on a Five Crowns board.
    assert (view["status"], view["state"]) == ("lobby", None)
    seat = ana.box.wait(ana.view_topic, lambda message: message["seq"] == view["seq"])
    assert seat["state"] is None

    assert lobby.host(table, "rematch")["status"] == "ok"
    dealt = lobby.public(table, lambda view: view["status"] == "playing")
    assert dealt["game"] == "five-crowns" and dealt["game_no"] == 2
    assert dealt["state"]["round"] == 1 and dealt["state"]["wild_rank"] == 3
    events = ana.box.wait(
        topics.table_events(table), lambda message: message["seq"] == dealt["seq"]
    )
    assert events["events"][0]["code"] == "game_started"
    assert events["events"][0]["params"]["game"] == "five-crowns"
    hand = ana.view(newer_than=dealt["seq"] - 1)
    assert hand["game_no"] == 2 and len(hand["state"]["hand"]) == 3


def test_new_options_after_a_game_go_back_to_the_lobby(
    tables: TablesRunner, lobby: LobbyClient, phones: Callable[..., Phone]
) -> None:
    table, _ana = finished_kings_game(lobby, phones)
    assert lobby.host(table, "set_options", options={"deal": 6})["status"] == "ok"
    view = lobby.public(table, lambda view: view["options"]["deal"] == 6)
    assert (view["status"], view["state"], view["game_no"]) == ("lobby", None, 1)
    assert lobby.host(table, "start")["status"] == "ok"
    dealt = lobby.public(table, lambda view: view["status"] == "playing")
    assert dealt["game_no"] == 2 and dealt["state"]["hand_counts"] == [6, 6]


def test_options_mid_game_are_refused_and_change_nothing(
    tables: TablesRunner, lobby: LobbyClient, phones: Callable[..., Phone]
) -> None:
    table = lobby.create("kings-corner")
    phones(table, "Ana"), phones(table, "Ben")
    assert lobby.host(table, "start")["status"] == "ok"
    before = lobby.public(table, lambda view: view["status"] == "playing")
    reply = lobby.host(table, "set_game", game="five-crowns")
    assert reply["error"]["code"] == "options_locked"
    after = lobby.public(table, lambda view: True)
    assert (after["seq"], after["game"], after["status"]) == (
        before["seq"],
        "kings-corner",
        "playing",
    )


def test_the_alternate_scoring_plays_to_250_unless_the_host_set_a_target() -> None:
    table = Table(code="ABC")
    table.apply({"kind": "create", "game": "kings-corner", "options": {}})
    assert table.options["target"] == 25
    table.apply({"kind": "set_options", "options": {"session": True, "scoring": "alternate"}})
    assert table.options["target"] == 250  # before: 25, so one Ace in hand ended it
    table.apply({"kind": "set_options", "options": {"scoring": "face_value"}})
    assert table.options["target"] == 25
    table.apply({"kind": "set_options", "options": {"target": 50}})
    table.apply({"kind": "set_options", "options": {"scoring": "alternate"}})
    assert table.options["target"] == 50  # the host's own target stays
    chosen = Table(code="ABC")
    chosen.apply({"kind": "create", "game": "kings-corner", "options": {"scoring": "alternate"}})
    assert chosen.options["target"] == 250


def test_the_best_solo_score_of_the_table_is_kept_over_rematches() -> None:
    table = Table(code="SOLO")
    options = {"start_round": 11, "solo_turns": 1}  # one round of one turn: a quick game
    table.apply({"kind": "create", "game": "five-crowns", "options": options})
    table.apply({"kind": "join", "seat": 0, "player_id": "p1", "name": "Zoé"})
    totals = []
    for seed in range(1, 5):
        table.apply({"kind": "start" if seed == 1 else "rematch", "seed": seed})
        assert table.state is not None
        for _ in range(2):  # draw, then the first legal discard
            action = table.state.legal_actions(0)[0].to_wire()
            table.apply({"kind": "act", "seat": 0, "action": action})
        assert table.status == "finished"
        outcome = table.state.outcome()
        assert outcome is not None
        totals.append(outcome.scores[0])
        assert table.solo_best == min(totals)
    assert len(set(totals)) > 1  # the seeds dealt different hands: the best is a real min
