"""Topic names round-trip through the parser, and grants stay inside their table and seat."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol import topics

codes = st.from_regex(r"[A-Z0-9]{3,12}", fullmatch=True)
seats = st.integers(0, topics.MAX_SEATS - 1)


@given(codes, seats, st.sampled_from(topics.SEAT_TOPICS))
def test_seat_topics_round_trip(table: str, seat: int, name: str) -> None:
    parsed = topics.parse_topic(topics.seat_topic(table, seat, name))
    assert parsed == topics.Topic("seat", name, table=table, seat=seat)


@given(codes, st.sampled_from(topics.TABLE_TOPICS))
def test_table_topics_round_trip(table: str, name: str) -> None:
    assert topics.parse_topic(topics.table_topic(table, name)) == topics.Topic(
        "table", name, table=table
    )


@pytest.mark.parametrize(
    "topic",
    [
        "gamenight/v1/table/k7q2/view",
        "gamenight/v1/table/K7Q2/seat/01/view",
        "gamenight/v1/table/K7Q2/seat/16/view",
        "gamenight/v1/table/K7Q2/seat/-1/view",
        "gamenight/v1/table/K7Q2/seat/1/hand",
        "gamenight/v2/table/K7Q2/view",
        "gamenight/v1/table/K7Q2/view/extra",
        "gamenight/v1/lobby/request/drop",
        "",
    ],
)
def test_foreign_topics_are_not_ours(topic: str) -> None:
    assert topics.parse_topic(topic) is None


@pytest.mark.parametrize("bad", ["k7q2", "A.B", "K7/Q", "+", "#", "AB"])
def test_topic_builders_refuse_bad_table_codes(bad: str) -> None:
    with pytest.raises(ValueError):
        topics.table_view(bad)


@given(codes, seats)
def test_player_grants_stay_in_their_seat(table: str, seat: int) -> None:
    grants = topics.player_grants(table, seat)
    for topic in grants.read + grants.write:
        parsed = topics.parse_topic(topic)
        assert parsed is not None and parsed.table == table
        assert parsed.seat in (None, seat)
        assert "+" not in topic and "#" not in topic
    assert all(topics.parse_topic(t).area == "seat" for t in grants.write)  # type: ignore[union-attr]
    assert topics.seat_topic(table, seat, "view") in grants.read
    assert topics.seat_topic(table, seat, "intent") not in grants.read


def test_tv_reads_only_public_topics() -> None:
    grants = topics.tv_grants("K7Q2")
    assert all(topics.parse_topic(t).area in ("table", "host") for t in grants.read)  # type: ignore[union-attr]
    assert grants.write == (topics.host_topic("K7Q2", "intent"),)
