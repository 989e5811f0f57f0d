"""The live table view: the annotated camera picture (MJPEG and single JPEG) and verdicts."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, render_template, request

from ..context import setting, state, table
from ..errors import api_error
from ..streams import BOUNDARY, mjpeg_stream

bp = Blueprint("live", __name__)


@bp.get("/table")
def page() -> str:
    return render_template("table.html", area="table")


@bp.get("/api/frame.jpg")
def frame() -> Any:
    jpeg = table().frame_jpeg()
    if jpeg is None:
        return api_error("no table picture yet: the camera has not delivered a frame", 503)
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/live.mjpg")
def mjpeg() -> Any:
    web = state()
    if not web.acquire("mjpeg", int(setting("max_mjpeg"))):
        return Response("too many picture viewers; try again shortly", 503,
                        mimetype="text/plain", headers={"Retry-After": "10"})
    disconnected = request.environ.get("waitress.client_disconnected") or (lambda: False)
    body = mjpeg_stream(table(), web, disconnected, float(setting("mjpeg_fps")))
    response = Response(body, mimetype=f"multipart/x-mixed-replace; boundary={BOUNDARY}")
    response.headers["Cache-Control"] = "no-cache, no-store"
    response.headers["X-Accel-Buffering"] = "no"
    response.call_on_close(lambda: web.release("mjpeg"))
    return response
