"""Serve the dashboard with waitress (a production WSGI server), sized for SSE.

Every SSE or MJPEG client holds one waitress worker thread for as long as it watches, so the
pool must be larger than the app's stream limits (max_streams + max_mjpeg) plus headroom for
ordinary page and API requests. waitress 3 writes each chunk the app yields straight to the
socket (its deprecated `send_bytes` defaults to 1 byte), so SSE events are not held back.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from typing import Any

from flask import Flask
from waitress import wasyncore
from waitress.server import create_server

log = logging.getLogger(__name__)

HEADROOM = 16  # threads kept free for pages and API calls while every stream slot is taken


def _raise_fd_limit(wanted: int) -> None:
    """Each connection is a file descriptor; lift the soft limit toward the hard one."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Linux
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):  # pragma: no cover
            log.warning("could not raise the open-files limit to %d", target)


@dataclass
class ServerHandle:
    """A running server; `stop()` ends streams, closes connections and joins the threads."""

    app: Flask
    server: Any
    host: str
    port: int
    _thread: threading.Thread
    _stopping: threading.Event = field(default_factory=threading.Event)

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}"

    def wait(self) -> None:
        """Block until stop() is called (from another thread or a signal handler)."""
        while self._thread.is_alive():
            self._thread.join(0.5)

    def stop(self, timeout: float = 5.0) -> None:
        web_state = self.app.extensions.get("web_state")
        if web_state is not None:
            web_state.shutdown.set()
        self._stopping.set()
        self._thread.join(timeout)


def serve(
    app: Flask,
    host: str = "0.0.0.0",
    port: int = 8080,
    threads: int | None = None,
    connection_limit: int = 1000,
    **adjustments: Any,
) -> ServerHandle:
    """Start waitress in a background thread and return its handle (port 0 picks a free port).

    threads defaults to the app's stream limits plus HEADROOM (264 with the defaults).
    """
    web = app.config.get("WEB", {})
    streams = int(web.get("max_streams", 0)) + int(web.get("max_mjpeg", 0))
    if threads is None:
        threads = streams + HEADROOM
    if threads < streams + 4:
        raise ValueError(
            f"serve(threads={threads}) is too few for max_streams + max_mjpeg = {streams}; "
            f"use at least {streams + HEADROOM} or lower max_streams in the web config"
        )
    _raise_fd_limit(connection_limit + 64)
    settings: dict[str, Any] = {
        "threads": threads,
        "connection_limit": connection_limit,
        "asyncore_use_poll": True,  # select() cannot watch more than 1024 descriptors
        "outbuf_high_watermark": 1 << 20,  # a stalled client blocks its own thread at 1 MiB
        "channel_timeout": 120,
        "ident": "referee",
    }
    settings.update(adjustments)
    server = create_server(app, host=host, port=port, **settings)
    stopping = threading.Event()

    def run() -> None:
        try:
            while not stopping.is_set():
                wasyncore.loop(timeout=0.2, map=server._map, use_poll=True, count=1)
        finally:
            wasyncore.close_all(server._map)
            server.task_dispatcher.shutdown(timeout=3)

    thread = threading.Thread(target=run, name=f"waitress:{server.effective_port}", daemon=True)
    handle = ServerHandle(app, server, host, int(server.effective_port), thread, stopping)
    thread.start()
    return handle
