"""Admin: PIN login (session cookie) and POST /api/command (start, pause, correct, ...)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, redirect, render_template, request, session, url_for

from ..auth import admin_required, is_admin, login
from ..context import setting, table
from ..errors import api_error

bp = Blueprint("admin", __name__)

# The arguments each command takes (web.protocol.COMMANDS); anything else is a 400.
COMMAND_ARGS: dict[str, tuple[str, ...]] = {
    "start": (), "go": (), "pause": (), "resume": (), "stop": (),
    "correct": ("verdict_id", "ruling", "note"),
    "manual": ("seat", "what", "value"),
    "add": ("event",),
}


def _safe_next(target: str | None) -> str:
    """Only same-site paths, so the login form cannot be used as an open redirect."""
    if target and target.startswith("/") and not target.startswith("//"):
        return target
    return url_for("admin.page")


@bp.get("/admin")
def page() -> str:
    return render_template(
        "admin.html", area="admin", admin=is_admin(), enabled=setting("admin_pin") is not None,
        next=request.args.get("next", ""), error=None,
    )


@bp.post("/admin/login")
def do_login() -> Any:
    error = login(request.form.get("pin"))
    if error is None:
        return redirect(_safe_next(request.form.get("next")))
    return render_template(
        "admin.html", area="admin", admin=False, enabled=setting("admin_pin") is not None,
        next=request.form.get("next", ""), error=error,
    ), 401


@bp.post("/admin/logout")
def do_logout() -> Any:
    session.clear()
    return redirect(url_for("scoreboard.page"))


@bp.post("/api/command")
@admin_required
def command() -> Any:
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or not isinstance(body.get("action"), str):
        return api_error('send JSON like {"action": "pause"} or {"action": "correct", '
                         '"verdict_id": 7, "ruling": "legal", "note": "..."}', 400)
    action = body["action"]
    if action not in COMMAND_ARGS:
        return api_error(f"unknown action {action!r}; use one of: {', '.join(COMMAND_ARGS)}", 400)
    args = {k: v for k, v in body.items() if k != "action"}
    extra = sorted(set(args) - set(COMMAND_ARGS[action]))
    if extra:
        allowed = ", ".join(COMMAND_ARGS[action]) or "no arguments"
        return api_error(f"{action} does not take {', '.join(extra)}; it takes {allowed}", 400)
    try:
        result = table().command(action, **args)
    except ValueError as exc:
        return api_error(str(exc), 400)
    return jsonify({"ok": True, "result": result})
