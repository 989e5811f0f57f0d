"""The scoreboard: the page a phone held across the table shows (big scores, turn, verdicts)."""

from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("scoreboard", __name__)


@bp.get("/")
def page() -> str:
    return render_template("scoreboard.html", area="score")
