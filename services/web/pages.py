"""What the TV and phone page routes share: the HTML file and its security headers."""

from __future__ import annotations

from flask import Response

from services.web.assets import send_asset

# Scripts and styles only from this server; the broker is reached over ws:/wss:. MQTT.js
# runs its keep-alive timer in a worker it makes from a blob (background tabs throttle
# ordinary timers), hence worker-src blob:.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; worker-src 'self' blob:; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'"
)


def send_page(name: str) -> Response:
    """One of the HTML pages of clients/web, never cached without revalidation."""
    response = send_asset(name)
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response
