"""JSON errors for /api/ paths ({"error": msg}); HTML pages keep Flask's defaults."""

from __future__ import annotations

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException


def api_error(message: str, status: int) -> tuple[Response, int]:
    return jsonify({"error": message}), status


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):  # type: ignore[no-untyped-def]
        if request.path.startswith("/api/"):
            return api_error(exc.description or exc.name, exc.code or 500)
        return exc

    @app.errorhandler(Exception)
    def _crash(exc: Exception):  # type: ignore[no-untyped-def]
        app.logger.exception("unhandled error on %s", request.path)
        if request.path.startswith("/api/"):
            return api_error(f"internal error: {type(exc).__name__}", 500)
        return "Internal error; see the referee's log.", 500
