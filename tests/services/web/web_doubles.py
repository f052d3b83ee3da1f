"""Test doubles of the web service's unit tests."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from services.web.lobby import LobbyError


class RecordingLobby:
    """Answers lobby requests from ``answers`` (data dicts or ``LobbyError``s), in order."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.answers: list[dict[str, Any] | LobbyError] = []

    def request(self, op: str, message: Mapping[str, Any]) -> dict[str, Any]:
        self.requests.append((op, dict(message)))
        answer = self.answers.pop(0)
        if isinstance(answer, LobbyError):
            raise answer
        return answer
