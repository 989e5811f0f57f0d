"""The live match as data: GET /api/match (snapshot) and GET /api/events (SSE stream)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from ..context import setting, state, table
from ..errors import api_error
from ..streams import sse_stream

bp = Blueprint("match", __name__)


@bp.get("/api/match")
def snapshot() -> Response:
    response = jsonify(table().snapshot())
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/api/events")
def events() -> Any:
    web = state()
    if not web.acquire("sse", int(setting("max_streams"))):
        response, status = api_error("too many live viewers; try again shortly", 503)
        response.headers["Retry-After"] = "5"
        return response, status
    try:
        subscription = table().subscribe()
    except Exception:
        web.release("sse")
        raise
    disconnected = request.environ.get("waitress.client_disconnected") or (lambda: False)
    body = sse_stream(table(), web, subscription, disconnected,
                      float(setting("sse_keepalive")), float(setting("sse_poll")))
    response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache, no-store"
    response.headers["X-Accel-Buffering"] = "no"

    released: list[bool] = []

    def cleanup() -> None:
        if not released:
            released.append(True)
            subscription.close()
            web.release("sse")

    response.call_on_close(cleanup)
    return response
