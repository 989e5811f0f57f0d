"""Fan-out of table messages to dashboard clients; a slow client never blocks the table loop."""

from __future__ import annotations

import queue
import threading
from typing import Any


class Subscription:
    """One client's bounded queue. When it is full the oldest message is dropped and counted."""

    def __init__(self, hub: Broadcaster, maxsize: int) -> None:
        self._hub = hub
        self._queue: queue.Queue[dict[str, Any]] = queue.Queue(maxsize)
        self.dropped = 0

    def put(self, message: dict[str, Any]) -> None:
        while True:
            try:
                self._queue.put_nowait(message)
                return
            except queue.Full:
                try:
                    self._queue.get_nowait()
                    self.dropped += 1
                except queue.Empty:
                    pass

    def get(self, timeout: float) -> dict[str, Any] | None:
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        self._hub.unsubscribe(self)


class Broadcaster:
    def __init__(self, maxsize: int = 2000) -> None:
        self._subs: list[Subscription] = []
        self._lock = threading.Lock()
        self._maxsize = maxsize
        self._next_id = 0

    def subscribe(self) -> Subscription:
        sub = Subscription(self, self._maxsize)
        with self._lock:
            self._subs = [*self._subs, sub]
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            self._subs = [s for s in self._subs if s is not sub]

    def publish(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            self._next_id += 1
            message = {"id": self._next_id, "type": kind, "data": data}
            subs = self._subs
        for sub in subs:
            sub.put(message)
        return message

    @property
    def clients(self) -> int:
        return len(self._subs)
