"""MQTT topic names and topic filters: validity, matching, and which filter covers which.

The access checks of the embedded broker rest on ``filter_covers``: a subscription is
allowed only if every topic it can match is readable, so a grant for ``public/+`` never
lets a client subscribe to ``public/#``.
"""

from __future__ import annotations

MAX_TOPIC_BYTES = 65535


def _levels(text: str) -> list[str]:
    return text.split("/")


def is_valid_topic(topic: str) -> bool:
    """A topic a client may publish to: no wildcards, not empty, no NUL."""
    return (
        bool(topic)
        and "+" not in topic
        and "#" not in topic
        and "\0" not in topic
        and len(topic.encode("utf-8")) <= MAX_TOPIC_BYTES
    )


def is_valid_filter(topic_filter: str) -> bool:
    """A filter a client may subscribe to: ``+`` fills a whole level, ``#`` only the last."""
    if not topic_filter or "\0" in topic_filter:
        return False
    if len(topic_filter.encode("utf-8")) > MAX_TOPIC_BYTES:
        return False
    levels = _levels(topic_filter)
    for index, level in enumerate(levels):
        if "#" in level and (level != "#" or index != len(levels) - 1):
            return False
        if "+" in level and level != "+":
            return False
    return True


def _dollar_hidden(filter_level: str, topic_level: str) -> bool:
    # [MQTT-4.7.2-1]: a filter starting with a wildcard never matches a topic starting with $.
    return filter_level in ("+", "#") and topic_level.startswith("$")


def _parent_exists(prefix: list[str]) -> bool:
    # The parent matched by "#" after ``prefix`` is a topic unless it is the empty string.
    return len(prefix) > 1 or (len(prefix) == 1 and prefix[0] != "")


def topic_matches(topic_filter: str, topic: str) -> bool:
    """Whether ``topic`` (no wildcards) is matched by ``topic_filter``."""
    if not is_valid_filter(topic_filter) or not is_valid_topic(topic):
        return False
    pattern, levels = _levels(topic_filter), _levels(topic)
    if _dollar_hidden(pattern[0], levels[0]):
        return False
    for index, level in enumerate(pattern):
        if level == "#":
            return True  # also matches the parent level: "a/#" matches "a"
        if index >= len(levels):
            return False
        if level != "+" and level != levels[index]:
            return False
    return len(pattern) == len(levels)


def filter_covers(grant: str, subscription: str) -> bool:
    """Whether every topic matched by ``subscription`` is also matched by ``grant``.

    This is the subscribe check: exact, never widening (``a/+`` does not cover ``a/#``,
    ``a/b`` does not cover ``a/+``), and aware that a leading wildcard hides ``$`` topics.
    """
    if not is_valid_filter(grant) or not is_valid_filter(subscription):
        return False
    wide, narrow = _levels(grant), _levels(subscription)
    if wide[0] in ("+", "#") and narrow[0] not in ("+", "#") and narrow[0].startswith("$"):
        return False
    for index, level in enumerate(wide):
        if level == "#":
            return True
        if index >= len(narrow):
            return False  # the subscription matches shorter topics than the grant accepts
        other = narrow[index]
        if other == "#":
            # "#" also matches its parent ("a/#" matches "a"), which "+/#" does not; so only
            # "+/#" covers, and only when that parent is no topic at all ("" is invalid).
            return wide[index:] == ["+", "#"] and not _parent_exists(narrow[:index])
        if level != "+" and level != other:
            return False  # a literal grant level covers only the same literal
    return len(wide) == len(narrow)


def filters_intersect(first: str, second: str) -> bool:
    """Whether some topic is matched by both filters (used for deny rules)."""
    if not is_valid_filter(first) or not is_valid_filter(second):
        return False
    left, right = _levels(first), _levels(second)
    if _dollar_hidden(left[0], right[0]) or _dollar_hidden(right[0], left[0]):
        return False
    for index in range(max(len(left), len(right))):
        a = left[index] if index < len(left) else None
        b = right[index] if index < len(right) else None
        if a == "#" or b == "#":
            if a is None or b is None:
                # The only common topic is the parent of "#": it must be a topic at all.
                merged = [x if x != "+" else y for x, y in zip(left, right, strict=False)]
                return _parent_exists(merged[:index])
            return True  # the prefixes agree and "#" takes any rest
        if a is None or b is None:
            return False
        if a != "+" and b != "+" and a != b:
            return False
    return True


def has_wildcard(topic_filter: str) -> bool:
    return "+" in topic_filter or "#" in topic_filter
