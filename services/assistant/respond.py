"""One said line, the seat's view and the table's names in; the message to send out.

The runner's whole decision, kept apart from MQTT so the corpus tests and the benchmark
run exactly what the service runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from protocol.messages import act_intent
from services.assistant.outcomes import QUESTION_CODES
from services.assistant.understand import Act, Answer, understand

Outgoing = tuple[Literal["intent", "reply"], dict[str, Any]]


def respond(
    said: Mapping[str, Any], view: Mapping[str, Any] | None, names: Mapping[int, str]
) -> Outgoing:
    """("intent", message) to send as the seat, or ("reply", message) to the seat alone.

    An answer is ``status: ok`` with ``data.kind == "answer"``; a question back ("which
    pile?") is ``status: ok`` with ``data.kind == "question"`` (the line was understood,
    only not which move); a refusal is ``status: error`` with a code, as the tables
    service's are.
    """
    state = view.get("state") if view else None
    lang = said.get("lang")
    understood = understand(
        str(said["text"]), state, names, lang if isinstance(lang, str) else None
    )
    if isinstance(understood, Act):
        if view is None or "player" not in view:
            return "reply", error_reply(str(said["id"]), "no_game_yet", {})
        return "intent", act_intent(said["id"], view["seq"], view["player"], understood.action)
    if isinstance(understood, Answer):
        data = {"kind": "answer", "answer": understood.code, "params": understood.params}
        return "reply", {"v": 1, "id": said["id"], "status": "ok", "data": data}
    if understood.code in QUESTION_CODES:
        data = {"kind": "question", "question": understood.code, "params": understood.params}
        return "reply", {"v": 1, "id": said["id"], "status": "ok", "data": data}
    return "reply", error_reply(str(said["id"]), understood.code, understood.params)


def error_reply(reply_id: str, code: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """A coded refusal to the seat."""
    return {
        "v": 1,
        "id": reply_id,
        "status": "error",
        "error": {"code": code, "params": dict(params)},
    }
