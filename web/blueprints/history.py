"""Match history: the list, one match with its per-round chart, and the JSON Lines log."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, jsonify, render_template

from ..context import table
from ..errors import api_error

bp = Blueprint("history", __name__)


@bp.get("/history")
def page() -> str:
    return render_template("history.html", area="history")


@bp.get("/history/<int:match_id>")
def match_page(match_id: int) -> str:
    try:
        table().match_record(match_id)
    except (KeyError, ValueError):
        abort(404, f"no match {match_id}")
    return render_template("match.html", area="history", match_id=match_id)


@bp.get("/api/history")
def matches() -> Any:
    return jsonify({"matches": table().history()})


@bp.get("/api/history/<int:match_id>")
def record(match_id: int) -> Any:
    try:
        rec = table().match_record(match_id)
    except (KeyError, ValueError):
        return api_error(f"no match with id {match_id}; see /api/history for the list", 404)
    return jsonify(rec)


@bp.get("/api/history/<int:match_id>/log")
def log(match_id: int) -> Any:
    try:
        text = table().export_log(match_id)
    except (KeyError, ValueError):
        return api_error(f"no match with id {match_id}; see /api/history for the list", 404)
    return Response(
        text,
        mimetype="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="match-{match_id}.jsonl"'},
    )
