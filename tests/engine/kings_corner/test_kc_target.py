"""The session target follows the scoring (rules.md: alternate plays to 250) unless set."""

from __future__ import annotations

import pytest

from engine.errors import OptionError
from engine.kings_corner import OPTIONS, new_game
from engine.options import resolve_options


@pytest.mark.parametrize(
    ("given", "target"),
    [
        ({}, 25),
        ({"scoring": "kings_ten"}, 25),
        ({"scoring": "face_value"}, 25),
        ({"scoring": "alternate"}, 250),
        ({"scoring": "alternate", "target": 25}, 25),
        ({"scoring": "alternate", "target": 1000}, 1000),
        ({"scoring": "kings_ten", "target": 250}, 250),
    ],
)
def test_target_follows_the_scoring_unless_the_host_set_one(
    given: dict[str, object], target: int
) -> None:
    assert resolve_options(OPTIONS, given)["target"] == target
    state = new_game(2, 7, {"session": True, **given})
    assert state.setup.target == target


def test_a_bad_target_is_still_refused_with_the_alternate_scoring() -> None:
    with pytest.raises(OptionError) as refused:
        resolve_options(OPTIONS, {"scoring": "alternate", "target": 0})
    assert refused.value.code == "bad_option"
