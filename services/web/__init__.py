"""The web service: the TV page, the phone page, QR join, and broker credentials for both.

It talks to the tables service only over MQTT (``lobby/request/<op>``), as the service
account ``web``; the pages talk to the broker themselves over WebSockets.

- ``create_app(config)``: the Flask application factory.
- ``run_web(broker_url, ws_url, public_url, ...)``: serve (what ``gamenight serve`` calls).
- ``start_web(...)``: serve in a background thread (tests, benchmarks).
"""

from services.web.app import create_app
from services.web.server import WebServer, run_web, start_web

__all__ = ["WebServer", "create_app", "run_web", "start_web"]
