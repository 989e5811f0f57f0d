"""The event feed: every table event, newest first (page) and GET /api/feed (JSON)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, render_template, request

from ..context import table
from ..errors import api_error

bp = Blueprint("feed", __name__)


@bp.get("/feed")
def page() -> str:
    return render_template("feed.html", area="feed")


@bp.get("/api/feed")
def feed() -> Any:
    try:
        since = int(request.args.get("since", 0))
        limit = int(request.args.get("limit", 200))
    except ValueError:
        return api_error("since and limit must be whole numbers, e.g. /api/feed?since=40&limit=100", 400)
    if since < 0 or not 1 <= limit <= 1000:
        return api_error("since must be 0 or more and limit between 1 and 1000", 400)
    events = table().events(since_id=since, limit=limit)
    last = events[-1]["id"] if events else since
    return jsonify({"events": events, "last_id": last})
