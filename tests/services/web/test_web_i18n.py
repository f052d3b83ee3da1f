"""The four catalogues of clients/web/i18n say everything the screens may have to say.

Every error and event code of both engines, of the tables service and of the protocol is
collected from their sources (and, as a second net, from random games actually played),
and each catalogue must word it; the catalogues must agree on keys and placeholders.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import random
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine.errors import RuleError
from engine.playout import random_playout
from engine.registry import GAME_MODULES, game_rules
from services.web.settings import DEFAULT_CLIENT_DIR, LANGUAGES

ROOT = Path(__file__).resolve().parents[3]
CATALOGUES = DEFAULT_CLIENT_DIR / "i18n"
CODE = re.compile(r"^[a-z][a-z0-9_]*$")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# Callables whose first argument (or ``code=``) is a code a screen must translate; the
# tables service's ``_error(intent_id, code, params)`` takes it second.
EVENT_MAKERS = {"Event", "event"}
OTHER_ERRORS = {"TableError", "ProtocolError", "LobbyError", "_error", "Refusal"}
ANSWER_MAKERS = {"Answer"}
SECOND_ARGUMENT = {"_error"}


@cache
def catalogue(lang: str) -> dict[str, str]:
    loaded: dict[str, str] = json.loads((CATALOGUES / f"{lang}.json").read_text("utf-8"))
    return loaded


def _engine_packages() -> list[str]:
    return sorted(GAME_MODULES.values())


def _rule_error_names() -> set[str]:
    names = {"RuleError"}
    for package in ("engine.errors", *_engine_packages()):
        module = importlib.import_module(package)
        for name, value in vars(module).items():
            if inspect.isclass(value) and issubclass(value, RuleError):
                names.add(name)
    return names


def _call_name(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def _strings(node: ast.AST) -> Iterator[str]:
    """The strings an expression may evaluate to: a literal, or either branch of an if."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.IfExp):
        yield from _strings(node.body)
        yield from _strings(node.orelse)
    elif isinstance(node, ast.BoolOp):
        for value in node.values:
            yield from _strings(value)


def _codes_in(path: Path, makers: set[str]) -> set[str]:
    """Codes passed to ``makers`` in one file: literal, or a local name assigned literals."""
    tree = ast.parse(path.read_text("utf-8"))
    codes: set[str] = set()
    for function in [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))]:
        assigned: dict[str, set[str]] = {}
        for node in ast.walk(function):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        assigned.setdefault(target.id, set()).update(_strings(node.value))
        for node in ast.walk(function):
            if not isinstance(node, ast.Call) or _call_name(node) not in makers:
                continue
            position = 1 if _call_name(node) in SECOND_ARGUMENT else 0
            argument = node.args[position] if len(node.args) > position else None
            for keyword in node.keywords:
                if keyword.arg == "code":
                    argument = keyword.value
            if isinstance(argument, ast.Name):
                codes.update(assigned.get(argument.id, ()))
            elif argument is not None:
                codes.update(_strings(argument))
    return {code for code in codes if CODE.match(code)}


def _sources(*folders: str) -> list[Path]:
    return sorted(path for folder in folders for path in (ROOT / folder).rglob("*.py"))


@cache
def source_codes() -> tuple[frozenset[str], frozenset[str]]:
    """(error codes, event codes) raised or made anywhere a screen may hear of them."""
    error_makers = _rule_error_names() | OTHER_ERRORS
    errors: set[str] = set()
    events: set[str] = set()
    folders = ("engine", "protocol", "services/tables", "services/web", "services/assistant")
    for path in _sources(*folders):
        errors |= _codes_in(path, error_makers)
        events |= _codes_in(path, EVENT_MAKERS)
    return frozenset(errors), frozenset(events)


@cache
def answer_codes() -> frozenset[str]:
    """The codes of the assistant's answers to questions."""
    return frozenset(
        code for path in _sources("services/assistant") for code in _codes_in(path, ANSWER_MAKERS)
    )


def test_the_collector_finds_codes_of_both_games() -> None:
    errors, events = source_codes()
    # A few codes named by rules.md, so a broken collector cannot pass by finding nothing.
    assert {"not_one_lower", "same_colour", "stale_seq", "name_taken"} <= errors
    assert {"played", "moved", "round_ended", "player_joined"} <= events
    for package in _engine_packages():
        folder = ROOT / package.replace(".", "/")
        found = set()
        for path in folder.rglob("*.py"):
            found |= _codes_in(path, _rule_error_names() | EVENT_MAKERS)
        assert len(found) >= 5, f"no codes found in {package}"


def test_the_collector_follows_codes_chosen_in_a_variable(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def f(x):\n"
        "    code = 'alpha' if x else 'beta'\n"
        "    raise IllegalActionError(code, card=x)\n"
        "def g():\n"
        "    return Event('gamma', 1) or event(code='delta')\n"
        "def h():\n"
        "    raise ValueError('not a code at all')\n"
    )
    assert _codes_in(sample, {"IllegalActionError", "Event", "event", "ValueError"}) == {
        "alpha",
        "beta",
        "gamma",
        "delta",
    }


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_error_event_and_answer_code_is_translated(lang: str) -> None:
    errors, events = source_codes()
    assert {"not_understood", "which_pile"} <= errors  # the assistant's, found too
    assert {"turn", "hand", "help"} <= answer_codes()
    words = catalogue(lang)
    missing = sorted(
        [f"error.{code}" for code in errors if f"error.{code}" not in words]
        + [f"event.{code}" for code in events if f"event.{code}" not in words]
        + [f"answer.{code}" for code in answer_codes() if f"answer.{code}" not in words]
    )
    assert not missing, f"{lang}.json lacks {missing}"


def _played_codes(game: str, seeds: range) -> tuple[set[str], set[str]]:
    """Event codes of whole random games, and refusal codes of random wrong actions."""
    rules = game_rules(game)
    events: set[str] = set()
    errors: set[str] = set()
    chooser = random.Random(7)
    for seed in seeds:
        seats = rules.MIN_SEATS + seed % (min(rules.MAX_SEATS, 5) - rules.MIN_SEATS + 1)
        wires: list[dict[str, Any]] = []
        for step in random_playout(rules, seats, seed, None, random.Random(seed)):
            events.update(event.code for event in step.events)
            if step.seat is None:
                continue
            wires.extend(action.to_wire() for action in step.state.legal_actions(step.seat))
            current = step.state.current_seat
            if current is None or not wires:
                continue
            # Offer an action seen earlier in the game: often it is wrong now.
            for seat in {current, (current + 1) % seats}:
                try:
                    step.state.apply(seat, rules.parse_action(chooser.choice(wires)))
                except RuleError as refusal:
                    errors.add(refusal.code)
    return events, errors


@pytest.mark.parametrize("game", sorted(GAME_MODULES))
def test_codes_met_in_real_games_are_translated(game: str) -> None:
    events, errors = _played_codes(game, range(4))
    assert len(events) >= 4 and errors, "the games played said too little to check anything"
    for lang in LANGUAGES:
        words = catalogue(lang)
        assert not [c for c in events if f"event.{c}" not in words], (lang, events)
        assert not [c for c in errors if f"error.{c}" not in words], (lang, errors)


@pytest.mark.parametrize("game", sorted(GAME_MODULES))
def test_every_rule_option_and_word_choice_is_named(game: str) -> None:
    for lang in LANGUAGES:
        words = catalogue(lang)
        assert f"game.{game}" in words
        for spec in game_rules(game).OPTIONS:
            assert f"option.{spec.name}" in words, (lang, spec.name)
            for choice in spec.choices:
                if isinstance(choice, str):
                    assert f"option.{spec.name}.{choice}" in words, (lang, spec.name, choice)


def test_catalogues_agree_on_keys_and_placeholders() -> None:
    english = catalogue("en")
    for lang in LANGUAGES:
        words = catalogue(lang)
        assert set(words) == set(english), (lang, set(words) ^ set(english))
        for key, text in words.items():
            assert text.strip(), (lang, key)
            assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(english[key])), (
                lang,
                key,
            )


def _keys_used_by_pages() -> set[str]:
    keys: set[str] = set()
    for path in DEFAULT_CLIENT_DIR.glob("*.html"):
        keys |= set(re.findall(r'data-i18n[a-z-]*="([^"]+)"', path.read_text("utf-8")))
    for path in (DEFAULT_CLIENT_DIR / "js").rglob("*.js"):
        keys |= set(
            re.findall(r'"((?:ui|phase|status|card|result)\.[a-z_]+)"', path.read_text("utf-8"))
        )
    return keys


def test_every_key_the_pages_use_exists() -> None:
    used = _keys_used_by_pages()
    assert len(used) > 40
    missing = sorted(key for key in used if key not in catalogue("en"))
    assert not missing, missing


def test_cards_suits_piles_and_ranks_are_all_named() -> None:
    for lang in LANGUAGES:
        words = catalogue(lang)
        for suit in "HDCST":
            assert f"suit.{suit}" in words
        for rank in ["A", *map(str, range(2, 11)), "J", "Q", "K"]:
            assert f"rank.{rank}" in words
        for pile in ("N", "E", "S", "W", "NE", "SE", "SW", "NW", "stock", "discard"):
            assert f"pile.{pile}" in words
        for other in LANGUAGES:
            assert f"lang.{other}" in words
