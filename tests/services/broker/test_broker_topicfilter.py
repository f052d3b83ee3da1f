"""Topic filters: matching, and the covering rule behind every subscribe check."""

from __future__ import annotations

import functools
import itertools

import paho.mqtt.client as paho
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.broker.topicfilter import (
    filter_covers,
    filters_intersect,
    is_valid_filter,
    is_valid_topic,
    topic_matches,
)

# Levels small enough to enumerate every topic a filter can match: "x" and "$x" stand
# for any level that no filter names.
FILTER_LEVELS = ["a", "b", "$s", "", "+", "#"]
TOPIC_LEVELS = ["a", "b", "$s", "", "x", "$x"]


def all_topics(depth: int) -> list[str]:
    topics = []
    for length in range(1, depth + 1):
        for levels in itertools.product(TOPIC_LEVELS, repeat=length):
            topic = "/".join(levels)
            if is_valid_topic(topic):
                topics.append(topic)
    return topics


TOPICS = all_topics(4)

filters = (
    st.lists(st.sampled_from(FILTER_LEVELS), min_size=1, max_size=3)
    .map("/".join)
    .filter(is_valid_filter)
)


@functools.cache
def matched(topic_filter: str) -> frozenset[str]:
    return frozenset(topic for topic in TOPICS if topic_matches(topic_filter, topic))


@pytest.mark.parametrize(
    ("grant", "subscription", "covered"),
    [
        ("public/+", "public/#", False),  # the trap of amqtt's own ACL plugin
        ("public/#", "public/+", True),
        ("public/+", "public/x", True),
        ("public/x", "public/+", False),
        ("public/#", "public", True),  # "#" includes its parent level
        ("public/+", "public", False),
        ("a/b", "a/b", True),
        ("#", "$SYS/x", False),  # a leading wildcard never reaches $ topics
        ("+/x", "$SYS/x", False),
        ("$SYS/#", "$SYS/x", True),
        ("gamenight/v1/#", "gamenight/v1/table/+/seat/+/intent", True),
        ("gamenight/v1/#", "#", False),
        ("gamenight/v1/table/T1/seat/0/view", "gamenight/v1/table/T1/seat/+/view", False),
        ("+/#", "#", True),  # "#" at the root has no parent topic to miss
        ("a/+/#", "a/#", False),  # ...but "a/#" also matches "a"
    ],
)
def test_filter_covers_examples(grant: str, subscription: str, covered: bool) -> None:
    assert filter_covers(grant, subscription) is covered


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        ("a/#", True),
        ("#", True),
        ("a/#/b", False),
        ("a#", False),
        ("a/+x", False),
        ("+", True),
        ("", False),
        ("a//b", True),
        ("a\0b", False),
    ],
)
def test_valid_filters(text: str, valid: bool) -> None:
    assert is_valid_filter(text) is valid


def test_topics_never_hold_wildcards() -> None:
    assert is_valid_topic("a/b")
    assert not is_valid_topic("a/+")
    assert not is_valid_topic("a/#")
    assert not is_valid_topic("")
    assert not topic_matches("#", "a/+")


@settings(max_examples=300, deadline=None)
@given(filters, st.sampled_from(TOPICS))
def test_matching_agrees_with_paho(topic_filter: str, topic: str) -> None:
    assert topic_matches(topic_filter, topic) == paho.topic_matches_sub(topic_filter, topic)


@settings(max_examples=400, deadline=None)
@given(filters, filters)
def test_covers_means_every_matched_topic_is_granted(grant: str, subscription: str) -> None:
    # Exact against enumeration: sound (never widens a grant) and complete.
    assert filter_covers(grant, subscription) == (matched(subscription) <= matched(grant))


@settings(max_examples=400, deadline=None)
@given(filters, filters)
def test_intersect_means_a_common_topic_exists(first: str, second: str) -> None:
    assert filters_intersect(first, second) == bool(matched(first) & matched(second))
    assert filters_intersect(first, second) == filters_intersect(second, first)


@given(filters)
def test_every_filter_covers_itself(topic_filter: str) -> None:
    assert filter_covers(topic_filter, topic_filter)
