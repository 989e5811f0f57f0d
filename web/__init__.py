"""The dashboard: a Flask app factory handed a running table (see web.protocol.TableView).

    app = create_app(table, {"admin_pin": "2468"})
    web.server.serve(app, "0.0.0.0", 8080)

web/ imports nothing of referee/, vision/ or hardware/; every option is listed in DEFAULTS and
documented in docs/web.md.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import Flask

from .context import WebState
from .errors import register_error_handlers

DEFAULTS: dict[str, Any] = {
    "admin_pin": None,  # str; None disables admin actions (setup, commands) entirely
    "public_url": None,  # e.g. "http://referee.local:8080/"; else derived from the LAN IP
    "secret_key": None,  # signs the admin session cookie; random per process when None
    "sse_keepalive": 15.0,  # seconds between ": keep-alive" comments on an idle SSE stream
    "sse_poll": 0.5,  # seconds an SSE thread waits before checking disconnect/shutdown
    "max_streams": 240,  # concurrent SSE clients; more get 503 (keep below server threads)
    "mjpeg_fps": 8.0,  # most frames per second sent on /live.mjpg
    "max_mjpeg": 8,  # concurrent MJPEG viewers; more get 503
    "pin_max_attempts": 5,  # wrong PINs from one address before a lockout
    "pin_lockout_s": 30.0,  # lockout length, seconds
}


def create_app(table: Any, config: dict[str, Any] | None = None) -> Flask:
    """Build the dashboard app around `table` (a web.protocol.TableView)."""
    unknown = set(config or {}) - set(DEFAULTS) - {"TESTING"}
    if unknown:
        raise ValueError(
            f"unknown web config key(s) {', '.join(sorted(unknown))}; known: {', '.join(DEFAULTS)}"
        )
    settings = {**DEFAULTS, **(config or {})}
    pin = settings["admin_pin"]
    if pin is not None and (not isinstance(pin, str) or not pin.strip()):
        raise ValueError("web config admin_pin must be a non-empty string of digits or letters")

    app = Flask(__name__)
    app.config.update(
        WEB=settings,
        TESTING=bool((config or {}).get("TESTING", False)),
        SECRET_KEY=settings["secret_key"] or secrets.token_hex(32),
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        JSON_SORT_KEYS=False,
    )
    app.extensions["table"] = table
    app.extensions["web_state"] = WebState()

    from .blueprints import admin, feed, history, join, live, match, scoreboard, setup

    for module in (scoreboard, match, live, feed, setup, history, admin, join):
        app.register_blueprint(module.bp)
    register_error_handlers(app)
    return app


__all__ = ["create_app", "DEFAULTS"]
