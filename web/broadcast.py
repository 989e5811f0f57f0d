"""A non-blocking fan-out of table messages to many subscribers (one per SSE client).

Used by FakeTable and free for the table service to reuse: `publish` never waits on a
subscriber; each subscriber has its own bounded queue and, when it falls behind, loses its
*oldest* messages, which are counted in `Subscription.dropped` so the reader can re-sync.
"""

from __future__ import annotations

import itertools
import threading
from collections import deque
from typing import Any


class BroadcastSubscription:
    """One subscriber's bounded queue; implements web.protocol.Subscription."""

    def __init__(self, hub: Broadcaster, maxlen: int) -> None:
        self._hub = hub
        self._queue: deque[dict[str, Any]] = deque()
        self._maxlen = maxlen
        self._cond = threading.Condition(threading.Lock())
        self._closed = False
        self.dropped = 0

    def put(self, message: dict[str, Any]) -> None:
        """Queue one message, dropping the oldest when full; never blocks for long."""
        with self._cond:
            if self._closed:
                return
            if len(self._queue) >= self._maxlen:
                self._queue.popleft()
                self.dropped += 1
            self._queue.append(message)
            self._cond.notify()

    def get(self, timeout: float) -> dict[str, Any] | None:
        """The next message, or None after `timeout` seconds or once closed."""
        with self._cond:
            if not self._queue and not self._closed:
                self._cond.wait(timeout)
            if self._queue and not self._closed:
                return self._queue.popleft()
            return None

    def close(self) -> None:
        """Stop receiving; idempotent, wakes a waiting get()."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._queue.clear()
            self._cond.notify_all()
        self._hub._remove(self)

    @property
    def closed(self) -> bool:
        return self._closed


class Broadcaster:
    """Numbers messages and hands each to every live subscription."""

    def __init__(self, queue_size: int = 256) -> None:
        self.queue_size = queue_size
        self._subs: list[BroadcastSubscription] = []
        self._lock = threading.Lock()
        self._ids = itertools.count(1)

    def subscribe(self) -> BroadcastSubscription:
        sub = BroadcastSubscription(self, self.queue_size)
        with self._lock:
            self._subs.append(sub)
        return sub

    def publish(self, type_: str, data: dict[str, Any]) -> dict[str, Any]:
        """Send {"id", "type", "data"} to every subscriber; returns the message."""
        with self._lock:
            message = {"id": next(self._ids), "type": type_, "data": data}
            subs = list(self._subs)
        for sub in subs:
            sub.put(message)
        return message

    @property
    def subscriber_count(self) -> int:
        with self._lock:
            return len(self._subs)

    def close_all(self) -> None:
        """Close every subscription (shutdown)."""
        with self._lock:
            subs = list(self._subs)
        for sub in subs:
            sub.close()

    def _remove(self, sub: BroadcastSubscription) -> None:
        with self._lock:
            if sub in self._subs:
                self._subs.remove(sub)
