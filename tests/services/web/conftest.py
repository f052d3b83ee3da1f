"""Fixtures of the web service's unit tests: ``app`` and ``client`` (Flask's test client).

The app's lobby is ``web_doubles.RecordingLobby``, standing where the MQTT link to the
tables service stands.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from web_doubles import RecordingLobby

from services.web import create_app


@pytest.fixture
def lobby() -> RecordingLobby:
    return RecordingLobby()


@pytest.fixture
def app(lobby: RecordingLobby) -> Iterator[Flask]:
    yield create_app(
        {
            "TESTING": True,
            "LOBBY": lobby,
            "PUBLIC_URL": "http://192.168.1.20:8000",
            "WS_URL": "ws://{host}:8083/mqtt",
        }
    )


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
