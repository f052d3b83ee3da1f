"""A one-line text form of a position, so that a rule test fits on one line.

    fc round=3 dealer=1 turn=2 phase=discard taken=7H | hands: 3H 4H 5H JK 7D / ... |
    discard: 9C 7D | stock: 4T ... | history: 12 30 / 0 8

- The header holds ``key=value`` words: ``round`` ``dealer`` ``turn`` ``phase`` ``out``
  (the seat that went out) ``taken`` ``reshuffles`` ``turns`` (finished this round;
  written when not 0) ``seed`` and any rule option
  (``packs=2 start_round=6 discard_taken=yes tiebreak=extra_round reshuffle=keep_top``).
  ``-`` stands for none.
- ``hands:`` seat by seat, separated by ``/``; ``-`` is an empty hand.
- ``discard:`` bottom to top; ``stock:`` top first. ``...`` in one of them stands for
  every card not written elsewhere, in pack order (no stock section: ``stock: ...``).
- ``history:`` each finished round's penalties; left out, zeros for earlier rounds and,
  once a round is over, its hands' own penalties.
- ``last:`` ``round=R out=S`` and the hands the last round ended with.

Defaults: ``round`` = the first round, ``dealer`` = the last seat, ``turn`` = left of the
dealer, ``phase=draw``. This module only turns text into the ``to_dict`` form and back.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.cards import parse_cards
from engine.errors import RuleError
from engine.five_crowns.deck import full_deck, sorted_hand
from engine.five_crowns.melds import min_penalty
from engine.five_crowns.model import TIEBREAK_ROUND, Phase, cards_dealt
from engine.five_crowns.variants import LAST_ROUND, OPTIONS

_NONE = "-"
_MORE = "..."
_PLAIN = re.compile(r"[A-Za-z0-9_]+")
_PLAY_PHASES = (str(Phase.DRAW), str(Phase.DISCARD))


def _bad(reason: str, **params: Any) -> RuleError:
    return RuleError("bad_position", reason=reason, **params)


# ---------------------------------------------------------------- writing


def _word(value: Any) -> str:
    if value is None:
        return _NONE
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str) and (
        not _PLAIN.fullmatch(value) or value in ("yes", "no") or value.isdigit()
    ):
        # JSON keeps any text readable back; spaces and bars would split the line.
        return json.dumps(value).replace(" ", "\\u0020").replace("|", "\\u007c")
    return str(value)


def _hands(hands: list[list[str]]) -> str:
    return " / ".join(" ".join(hand) or _NONE for hand in hands)


def format_position(data: Mapping[str, Any]) -> str:
    """The one-line form of a ``to_dict`` state."""
    header = ["fc"]
    for key, field in (
        ("round", "round"),
        ("dealer", "dealer"),
        ("turn", "turn"),
        ("phase", "phase"),
        ("out", "went_out"),
        ("taken", "taken"),
        ("reshuffles", "reshuffles"),
        ("seed", "seed"),
    ):
        header.append(f"{key}={_word(data[field])}")
    if data.get("round_turns"):
        header.append(f"turns={data['round_turns']}")
    for spec in OPTIONS:
        if data["options"][spec.name] != spec.default:
            header.append(f"{spec.name}={_word(data['options'][spec.name])}")
    sections = [
        " ".join(header),
        "hands: " + _hands(data["hands"]),
        "discard: " + (" ".join(data["discard"]) or _NONE),
        "stock: " + (" ".join(data["stock"]) or _NONE),
    ]
    if data["history"]:
        sections.append("history: " + " / ".join(" ".join(map(str, r)) for r in data["history"]))
    last = data["last_round"]
    if last is not None and data["phase"] in _PLAY_PHASES:
        sections.append(
            f"last: round={last['round']} out={_word(last['went_out'])} " + _hands(last["hands"])
        )
    return " | ".join(sections)


# ---------------------------------------------------------------- reading


def _value(text: str) -> Any:
    if text == _NONE:
        return None
    if text.startswith('"'):
        try:
            return json.loads(text)
        except ValueError as error:
            raise _bad("quoted", text=text) from error
    if text in ("yes", "no"):
        return text == "yes"
    if text.lstrip("-").isdigit():
        return int(text)
    return text


def _pairs(words: list[str]) -> tuple[dict[str, Any], list[str]]:
    """Split ``key=value`` words from the rest."""
    pairs: dict[str, Any] = {}
    rest = []
    for word in words:
        key, sep, value = word.partition("=")
        if sep:
            pairs[key] = _value(value)
        else:
            rest.append(word)
    return pairs, rest


def _cards(text: str) -> list[str]:
    return [str(card) for card in parse_cards(text)]


def _read_hands(text: str) -> list[list[str]]:
    """Hands separated by ``/``, each put in hand order (a person need not sort them)."""
    return [[str(card) for card in sorted_hand(parse_cards(part))] for part in text.split("/")]


def _piles(sections: dict[str, str], hands: list[list[str]], packs: int) -> list[list[str]]:
    """The discard pile and the stock as written; ``...`` in one of them (by default at
    the end of the stock) stands for every card written nowhere else, in pack order."""
    piles = [sections.get("discard", _NONE).split(), sections.get("stock", _MORE).split()]
    filled = [_MORE in words for words in piles]
    if sum(filled) > 1 or any(words.count(_MORE) > 1 for words in piles):
        raise _bad("fill")
    listed = [[_cards(word)[0] for word in words if word not in (_MORE, _NONE)] for words in piles]
    if not any(filled):
        return listed
    deck = [str(card) for card in full_deck(packs)]
    written = [card for hand in hands for card in hand] + listed[0] + listed[1]
    missing = Counter(deck) - Counter(written)
    rest = [card for card in dict.fromkeys(deck) for _ in range(missing[card])]
    index = filled.index(True)
    words = [word for word in piles[index] if word != _NONE]
    at = words.index(_MORE)
    listed[index] = listed[index][:at] + rest + listed[index][at:]
    return listed


def _sections(text: str) -> tuple[dict[str, Any], dict[str, str]]:
    parts = [part.strip() for part in text.split("|")]
    header_words = parts[0].split()
    if header_words[:1] == ["fc"]:
        header_words = header_words[1:]
    header, stray = _pairs(header_words)
    if stray:
        raise _bad("header", words=stray)
    sections: dict[str, str] = {}
    for part in parts[1:]:
        name, colon, body = part.partition(":")
        if not colon or name.strip() not in ("hands", "discard", "stock", "history", "last"):
            raise _bad("section", section=part[:20])
        sections[name.strip()] = body.strip()
    if "hands" not in sections:
        raise _bad("no_hands")
    return header, sections


def _history(start: int, round_number: int, phase: str, hands: list[list[str]]) -> list[list[int]]:
    """Zeros for the rounds before; a finished round's own row scores its hands."""
    played = LAST_ROUND - start + 1 if round_number == TIEBREAK_ROUND else round_number - start
    rows = [[0] * len(hands) for _ in range(played)]
    if phase not in _PLAY_PHASES:
        wild_rank = cards_dealt(round_number)
        rows.append([min_penalty(parse_cards(" ".join(hand)), wild_rank) for hand in hands])
    return rows


def parse_position(text: str) -> dict[str, Any]:
    """Read the one-line form into the ``to_dict`` form (``bad_position`` if unreadable)."""
    try:
        header, sections = _sections(text)
        hands = _read_hands(sections["hands"])
        seats = len(hands)
        options = {spec.name: header.pop(spec.name, spec.default) for spec in OPTIONS}
        round_number = header.pop("round", options["start_round"])
        dealer = header.pop("dealer", seats - 1)
        phase = header.pop("phase", str(Phase.DRAW))
        turn = header.pop("turn", (dealer + 1) % seats if phase in _PLAY_PHASES else None)
        went_out = header.pop("out", None)
        taken = header.pop("taken", None)
        reshuffles = header.pop("reshuffles", 0)
        round_turns = header.pop("turns", 0)
        seed = header.pop("seed", 0)
        if header:
            raise _bad("unknown_key", keys=sorted(header))
        discard, stock = _piles(sections, hands, options["packs"])
        if "history" in sections:
            history = [[int(p) for p in row.split()] for row in sections["history"].split("/")]
        else:
            history = _history(options["start_round"], round_number, phase, hands)
        last = None
        if "last" in sections:
            last_header, last_words = _pairs(sections["last"].split())
            last = {
                "round": last_header.get("round"),
                "went_out": last_header.get("out"),
                "hands": _read_hands(" ".join(last_words)),
            }
        elif phase not in _PLAY_PHASES:
            last = {"round": round_number, "went_out": went_out, "hands": hands}
    except (ValueError, TypeError) as error:
        if isinstance(error, RuleError):
            raise
        raise _bad("syntax", detail=str(error)) from error
    return {
        "game": "five-crowns",
        "options": options,
        "seed": seed,
        "round": round_number,
        "dealer": dealer,
        "phase": phase,
        "turn": turn,
        "taken": taken,
        "went_out": went_out,
        "reshuffles": reshuffles,
        "round_turns": round_turns,
        "hands": hands,
        "stock": stock,
        "discard": discard,
        "history": history,
        "last_round": last,
    }
