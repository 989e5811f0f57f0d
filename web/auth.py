"""The admin PIN: constant-time compare, a session cookie after login, X-Admin-Pin for the API,
and a short lockout per address after repeated wrong PINs."""

from __future__ import annotations

import functools
import hashlib
import hmac
import time
from collections.abc import Callable
from typing import Any

from flask import current_app, redirect, request, session, url_for

from .context import setting, state
from .errors import api_error


def _fingerprint(pin: str) -> str:
    """Stored in the session so changing the PIN logs everyone out."""
    return hashlib.sha256(("admin:" + pin + current_app.config["SECRET_KEY"]).encode()).hexdigest()[:16]


def pin_matches(given: str | None) -> bool:
    pin = setting("admin_pin")
    if pin is None or given is None:
        return False
    return hmac.compare_digest(given.strip().encode("utf-8"), pin.encode("utf-8"))


def locked_out(addr: str) -> bool:
    now = time.monotonic()
    web = state()
    with web.lock:
        recent = [t for t in web.pin_failures.get(addr, []) if now - t < setting("pin_lockout_s")]
        web.pin_failures[addr] = recent
        return len(recent) >= setting("pin_max_attempts")


def note_failure(addr: str) -> None:
    web = state()
    with web.lock:
        web.pin_failures.setdefault(addr, []).append(time.monotonic())


def login(given: str | None) -> str | None:
    """Log this browser in; returns an error message, or None on success."""
    addr = request.remote_addr or "?"
    if setting("admin_pin") is None:
        return "admin is disabled: no admin_pin is set in the referee's config"
    if locked_out(addr):
        return "too many wrong PINs; wait half a minute and try again"
    if not pin_matches(given):
        note_failure(addr)
        return "wrong PIN"
    session.clear()
    session["admin"] = _fingerprint(setting("admin_pin"))
    return None


def is_admin() -> bool:
    pin = setting("admin_pin")
    if pin is None:
        return False
    header = request.headers.get("X-Admin-Pin")
    if header is not None:
        addr = request.remote_addr or "?"
        if locked_out(addr):
            return False
        if pin_matches(header):
            return True
        note_failure(addr)
        return False
    return hmac.compare_digest(str(session.get("admin", "")), _fingerprint(pin))


def admin_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """API: 401/403 JSON without the PIN; pages: redirect to the PIN form."""

    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if is_admin():
            return view(*args, **kwargs)
        if request.path.startswith("/api/"):
            if setting("admin_pin") is None:
                return api_error("admin is disabled: set admin_pin in the referee's config", 403)
            return api_error("admin PIN required: log in at /admin or send header X-Admin-Pin", 401)
        return redirect(url_for("admin.page", next=request.path))

    return wrapped
