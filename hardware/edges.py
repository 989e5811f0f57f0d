"""Edge times from gpiozero input devices, shared by the slap pads and the tilt switch."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class EdgeReporting:
    """Mixin for a gpiozero input device: also report each accepted state change with its edge
    ticks through ``on_edge(ticks, active)``.

    ``_fire_events(ticks, new_active)`` is gpiozero's documented hook for descendants (see
    ``EventsMixin._fire_events``); it is called with the ticks the pin reported for the edge.
    """

    _last_active: bool | None

    def __init__(self, pin: int, on_edge: Callable[[float, bool], None], **kwargs: Any) -> None:
        self._on_edge: Callable[[float, bool], None] | None = None
        super().__init__(pin, **kwargs)  # type: ignore[call-arg]
        self._on_edge = on_edge

    def _fire_events(self, ticks: Any, new_active: bool) -> None:
        old_active = self._last_active
        super()._fire_events(ticks, new_active)  # type: ignore[misc]
        on_edge = self._on_edge
        if on_edge is not None and old_active is not None and old_active != new_active:
            on_edge(float(ticks), bool(new_active))
