"""Debian's Chromium as the browser tests start it (as root, headless, no network of its own)."""

from __future__ import annotations

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# A name that is not loopback, so pages meet what a phone on the home network meets.
LAN_HOST = "gamenight.test"
LAN_RULES = f"--host-resolver-rules=MAP {LAN_HOST} 127.0.0.1"
