"""What the terminal prints for a reply: answers, questions back and refusals apart."""

from __future__ import annotations

import json
from pathlib import Path

from clients.terminal.screen import reply_text
from clients.terminal.words import Words

CATALOGUES = Path(__file__).resolve().parents[2] / "clients" / "web" / "i18n"


def test_a_question_back_is_worded_as_a_question_not_a_refusal() -> None:
    words = Words("fr")
    reply = {
        "v": 1,
        "id": "t1",
        "status": "ok",
        "data": {
            "kind": "question",
            "question": "which_pile",
            "params": {"card": "KH", "piles": ["NE", "NW"]},
        },
    }
    shown = reply_text(words, reply)
    assert shown is not None and shown.startswith("? ")
    template = json.loads((CATALOGUES / "fr.json").read_text("utf-8"))["question.which_pile"]
    assert template.split("{")[-1].split("}")[-1].strip() in shown  # the French question's end
    refusal = {
        "v": 1,
        "id": "t2",
        "status": "error",
        "error": {"code": "not_understood", "params": {"text": "x"}},
    }
    refused = reply_text(words, refusal)
    assert refused is not None and refused.startswith("! ")


def test_a_card_named_only_in_part_is_worded_in_the_players_language() -> None:
    catalogue = json.loads((CATALOGUES / "pt.json").read_text("utf-8"))
    words = Words("pt")

    def refused(card: str) -> str:
        reply = {
            "v": 1,
            "id": "t3",
            "status": "error",
            "error": {"code": "card_not_held", "params": {"card": card}},
        }
        shown = reply_text(words, reply)
        assert shown is not None
        return shown

    assert catalogue["card.wild"] in refused("wild")
    assert catalogue["rank.K"] in refused("K")
    assert catalogue["suit.H"] in refused("H")
    assert "?" not in refused("wild") and "wild" not in refused("wild")
