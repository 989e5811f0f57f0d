"""Match setup: the form (game, seats, names, deck colours, options) and POST /api/setup."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, render_template, request

from ..auth import admin_required
from ..context import table
from ..errors import api_error

bp = Blueprint("setup", __name__)

DECK_COLOURS = ("blue", "orange", "green", "yellow", "purple", "red", "black", "white")


@bp.get("/setup")
@admin_required
def page() -> str:
    return render_template("setup.html", area="setup", colours=DECK_COLOURS)


@bp.get("/api/games")
def games() -> Any:
    return jsonify({"games": table().games()})


def _json_body() -> dict[str, Any] | None:
    body = request.get_json(silent=True)
    return body if isinstance(body, dict) else None


@bp.post("/api/setup")
@admin_required
def setup() -> Any:
    body = _json_body()
    if body is None:
        return api_error(
            'send JSON like {"game": "wackee-six", "seats": [{"name": "Ann", "colour": "blue"}], "options": {}}',
            400,
        )
    game, seats, options = body.get("game"), body.get("seats"), body.get("options", {})
    if not isinstance(game, str) or not game:
        return api_error("game is required: one of the names from /api/games", 400)
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        return api_error('seats must be a list like [{"name": "Ann", "colour": "blue"}]', 400)
    if not isinstance(options, dict):
        return api_error("options must be an object of option name to value", 400)
    try:
        table().setup(game, seats, options)
    except ValueError as exc:
        return api_error(str(exc), 400)
    return jsonify({"ok": True, "match": table().snapshot()})
