"""Long-lived responses: the SSE message stream and the MJPEG picture stream.

Each open stream holds one server thread, so both count against a limit (context.WebState),
poll for client disconnect and app shutdown, and always close their subscription.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

from .context import WebState

BATCH = 64  # messages drained into one write when a client fell behind


def sse_format(message: dict[str, Any] | None, snapshot: dict[str, Any] | None = None) -> bytes:
    """One SSE block: `id:` (message id), `event:` (its type) and one `data:` JSON line."""
    if message is None:
        assert snapshot is not None
        body = json.dumps(snapshot, separators=(",", ":"), default=str)
        return f"event: state\ndata: {body}\n\n".encode()
    body = json.dumps(message["data"], separators=(",", ":"), default=str)
    return f"id: {message['id']}\nevent: {message['type']}\ndata: {body}\n\n".encode()


def sse_stream(
    table: Any,
    web: WebState,
    subscription: Any,
    disconnected: Callable[[], bool],
    keepalive: float,
    poll: float,
) -> Iterator[bytes]:
    """Yield the current snapshot, then every published message as it arrives.

    A fresh snapshot follows whenever the table reports dropped messages for this client, so
    a phone that fell behind re-syncs instead of showing stale scores.
    """
    yield b"retry: 2000\n" + sse_format(None, table.snapshot())
    last_write = time.monotonic()
    dropped_seen = 0
    while not web.shutdown.is_set() and not disconnected():
        message = subscription.get(timeout=min(poll, keepalive))
        now = time.monotonic()
        if message is None:
            if now - last_write >= keepalive:
                yield b": keep-alive\n\n"
                last_write = now
            continue
        chunks = [sse_format(message)]
        while len(chunks) < BATCH:
            more = subscription.get(timeout=0)
            if more is None:
                break
            chunks.append(sse_format(more))
        dropped = int(getattr(subscription, "dropped", 0) or 0)
        if dropped != dropped_seen:
            dropped_seen = dropped
            chunks.append(sse_format(None, table.snapshot()))
        yield b"".join(chunks)
        last_write = now


BOUNDARY = "frame"


def mjpeg_stream(
    table: Any, web: WebState, disconnected: Callable[[], bool], fps: float
) -> Iterator[bytes]:
    """multipart/x-mixed-replace parts, one per new picture, at most `fps` a second.

    The same picture is re-sent every few seconds so a dead client is noticed and its thread
    freed even when the table picture does not change.
    """
    period = 1.0 / max(0.5, fps)
    last: bytes | None = None
    last_sent = 0.0
    while not web.shutdown.is_set() and not disconnected():
        frame = table.frame_jpeg()
        now = time.monotonic()
        if frame is not None and (frame is not last or now - last_sent > 3.0):
            last, last_sent = frame, now
            head = (
                f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
                f"Content-Length: {len(frame)}\r\n\r\n"
            ).encode()
            yield head + frame + b"\r\n"
        web.shutdown.wait(period)
