"""What the terminal shows: the table, the hand, whose turn, and the newest lines said."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from clients.terminal.words import Words

# The cross of Kings in the Corner, row by row.
CROSS = (("NW", "N", "NE"), ("W", None, "E"), ("SW", "S", "SE"))


def render(
    words: Words,
    seat: int,
    table: Mapping[str, Any] | None,
    mine: Mapping[str, Any] | None,
    log: Sequence[str],
) -> str:
    """The whole screen above the typing line, as plain text."""
    lines: list[str] = []
    if table is not None:
        words.names = {int(p["seat"]): str(p["name"]) for p in table.get("players") or []}
        game = words.param("game", table.get("game"))
        lines.append(f"{words.t('ui.title')} · {table.get('table')} · {game}")
        lines.append(words.t(f"status.{table.get('status')}"))
    state: Mapping[str, Any] = (mine or {}).get("state") or (table or {}).get("state") or {}
    if state:
        lines += ["", *_board(words, state), "", _turn(words, seat, state)]
        hand: Sequence[str] = state.get("hand") or []
        lines.append(f"{words.t('ui.your_hand')}{words.colon()}{words.cards(hand) or '-'}")
    elif table is not None and table.get("status") == "lobby":
        lines.append(words.t("ui.waiting_start"))
    if log:
        lines += ["", *log[-6:]]
    return "\n".join(lines)


def _board(words: Words, state: Mapping[str, Any]) -> list[str]:
    stock = words.t("ui.stock_count", {"count": state.get("stock_count", 0)})
    if state.get("game") == "five-crowns":
        top = state.get("discard_top")
        discard = words.t("ui.discard_top", {"card": top}) if top else words.t("ui.discard_empty")
        round_line = words.t("ui.round_n", {"round": state.get("round")})
        wild = words.t("ui.wild_is", {"rank": _rank_key(state.get("wild_rank"))})
        return [f"{round_line} · {wild}", f"{discard} · {stock}"]
    piles: Mapping[str, Sequence[str]] = state.get("piles") or {}
    rows = []
    for row in CROSS:
        cells = []
        for pile in row:
            if pile is None:
                cells.append(f"[{state.get('stock_count', 0)}]")
                continue
            cards = piles.get(pile) or []
            shown = words.card(cards[-1]) if cards else "--"
            if len(cards) > 1:
                shown = f"{words.card(cards[0])}…{shown}"
            cells.append(f"{pile}: {shown}")
        rows.append("".join(cell.ljust(18) for cell in cells).rstrip())
    return [*rows, stock]


def _rank_key(rank: Any) -> str:
    faces = {11: "J", 12: "Q", 13: "K"}
    return faces.get(rank, str(rank)) if isinstance(rank, int) else str(rank)


def _turn(words: Words, seat: int, state: Mapping[str, Any]) -> str:
    current = state.get("current_seat")
    phase_key = f"phase.{state.get('phase')}"
    phase = words.t(phase_key) if words.has(phase_key) else str(state.get("phase"))
    if current is None:
        return words.t("phase.round_over")
    if current == seat:
        return words.t("ui.your_turn", {"phase": phase})
    return words.t("ui.turn_of", {"name": words.name_of(int(current))})


def reply_text(words: Words, reply: Mapping[str, Any]) -> str | None:
    """An answer, a question back or a refusal to this seat, worded; None for a plain "ok".

    Refusals are marked "!", questions back ("which one?") "?", answers ">".
    """
    if reply.get("status") == "error":
        error = reply.get("error") or {}
        return "! " + words.describe("error", str(error.get("code")), error.get("params") or {})
    data = reply.get("data") or {}
    if data.get("kind") == "question":
        params = data.get("params") or {}
        return "? " + words.describe("question", str(data.get("question")), params)
    if data.get("kind") == "answer" or "answer" in data:
        return "> " + words.describe("answer", str(data.get("answer")), data.get("params") or {})
    return None


def event_text(words: Words, event: Mapping[str, Any], game: str | None) -> str:
    """One public event as a sentence: "Ana plays 7♥ on north"."""
    params = dict(event.get("params") or {})
    params["player"] = words.name_of(event.get("seat"))
    code = str(event.get("code"))
    source = params.get("source")
    for key in (f"event.{code}.{source}", f"event.{code}.crowns" if game == "five-crowns" else ""):
        if key and words.has(key):
            return words.t(key, params)
    return words.describe("event", code, params)
