"""Per-app state shared by views and long-lived streams (shutdown flag, stream counts)."""

from __future__ import annotations

import threading
from typing import Any

from flask import current_app


class WebState:
    """Open-stream counts (so one app refuses more than the server has threads for) and
    recent wrong PINs per address."""

    def __init__(self) -> None:
        self.shutdown = threading.Event()
        self.lock = threading.Lock()
        self.pin_failures: dict[str, list[float]] = {}  # address -> times of wrong PINs
        self.counts: dict[str, int] = {"sse": 0, "mjpeg": 0}

    def acquire(self, kind: str, limit: int) -> bool:
        """Take a stream slot of `kind`; False when `limit` are already open."""
        with self.lock:
            if self.counts[kind] >= limit:
                return False
            self.counts[kind] += 1
            return True

    def release(self, kind: str) -> None:
        with self.lock:
            self.counts[kind] = max(0, self.counts[kind] - 1)


def table() -> Any:
    """The TableView this app was created with."""
    return current_app.extensions["table"]


def state() -> WebState:
    return current_app.extensions["web_state"]  # type: ignore[no-any-return]


def setting(name: str) -> Any:
    return current_app.config["WEB"][name]
