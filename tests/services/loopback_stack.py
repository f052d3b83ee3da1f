"""Settings for a whole ``gamenight serve`` stack on loopback, every port chosen by the OS."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from services.serve import StackSettings


def loopback_settings(folder: Path, **changes: Any) -> StackSettings:
    """A stack with its data in ``folder``, listening on 127.0.0.1 only, without bots."""
    values: dict[str, Any] = {
        "data": folder / "gn.db",
        "mqtt_listen": "127.0.0.1:0",
        "ws_listen": "127.0.0.1:0",
        "web_host": "127.0.0.1",
        "web_port": 0,
        "bots": False,
    }
    values.update(changes)
    return StackSettings(**values)
