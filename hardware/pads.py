"""Slap pads: one push switch per seat, each press reported as ``(seat, t)`` on the table clock.

Why the edge time and not the callback time: two players slap within a few milliseconds of each
other, and the callback thread may run late. Each press carries the time of its *edge*:

* gpiozero hands every pin change to the device with the pin's ``ticks``. With the lgpio backend
  (Raspberry Pi OS Bookworm, Pi 5) these are the kernel's timestamp of the edge, in nanoseconds /
  1e9, taken when the interrupt fired. Depending on the lgpio and kernel versions that stamp is on
  ``CLOCK_REALTIME`` or ``CLOCK_MONOTONIC``; :func:`lgpio_edge_age` works out which by plausibility
  and returns how long ago the edge happened.
* With any other backend (mock, rpigpio, native) the ticks come from the factory's own clock
  (``Factory.ticks``), read when the change was noticed, so the age is ``ticks_diff(now, ticks)``.

The press time is then ``clock() - age``: the injected table clock (``time.monotonic`` by
default) minus how long ago the edge was. A fake clock in tests gives exact times.

Debounce is done in software on those edge times, so it is testable with a fake clock and never
shifts a timestamp (lgpio's own debounce reports an edge only once stable, ``bounce_time`` late):

* a press within ``debounce_s`` of the previous *accepted press* of the same pad is contact bounce;
* a press within ``debounce_s`` of the previous *release edge* of the same pad is release bounce.

A second real press 100 ms later (with a release in between at least ``debounce_s`` before it)
is always reported. Callbacks run on gpiozero's event thread; keep them short (put on a queue).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from gpiozero import Button

from .edges import EdgeReporting
from .errors import WiringError

Clock = Callable[[], float]
PressCallback = Callable[[int, float], None]
EdgeAge = Callable[[float], float]

#: Ages beyond this are not believed (a stale or wrongly-clocked stamp); the press is stamped now.
MAX_EDGE_AGE_S = 1.0
DEFAULT_DEBOUNCE_S = 0.03


def lgpio_edge_age(
    ticks: float,
    *,
    realtime: Clock = time.time,
    monotonic: Clock = time.monotonic,
    max_age: float = MAX_EDGE_AGE_S,
) -> float:
    """Seconds since an lgpio edge stamped ``ticks`` (seconds), whichever clock lgpio used.

    lgpio's alert timestamps are the kernel's; older lgpio/kernels stamp on ``CLOCK_REALTIME``,
    newer ones on ``CLOCK_MONOTONIC``. The two are ~1.7e9 s apart, so only one gives a plausible
    age in ``[0, max_age]``. When neither does, 0.0 (stamp at callback time).

    >>> lgpio_edge_age(99.99, realtime=lambda: 1.7e9, monotonic=lambda: 100.0)
    0.010000000000005116
    >>> lgpio_edge_age(5.0, realtime=lambda: 1.7e9, monotonic=lambda: 100.0)
    0.0
    """
    for now in (monotonic(), realtime()):
        age = now - ticks
        if -0.001 <= age <= max_age:
            return max(age, 0.0)
    return 0.0


def default_edge_age(pin_factory: Any) -> EdgeAge:
    """How to turn a pin's edge ``ticks`` into an age, for the given gpiozero pin factory."""
    if type(pin_factory).__name__ == "LGPIOFactory":
        return lgpio_edge_age

    def factory_age(ticks: float) -> float:
        try:
            age = float(pin_factory.ticks_diff(pin_factory.ticks(), ticks))
        except (TypeError, ValueError, OverflowError):
            return 0.0
        return age if 0.0 <= age <= MAX_EDGE_AGE_S else 0.0

    return factory_age


class _PadButton(EdgeReporting, Button):
    """A gpiozero Button that also reports each accepted state change with its edge ticks."""


class PadDebouncer:
    """Per-pad software debounce on edge times (pure; fed by :class:`SlapPads` or by tests)."""

    def __init__(self, debounce_s: float = DEFAULT_DEBOUNCE_S) -> None:
        if debounce_s < 0:
            raise ValueError(f"debounce_s must be >= 0, not {debounce_s!r}")
        self.debounce_s = debounce_s
        self._last_press: float | None = None
        self._last_release: float | None = None

    def edge(self, t: float, pressed: bool) -> bool:
        """Record an edge at time ``t``; True when it is a real press to report."""
        if not pressed:
            self._last_release = t
            return False
        if self._last_press is not None and t - self._last_press < self.debounce_s:
            return False
        if self._last_release is not None and t - self._last_release < self.debounce_s:
            return False
        self._last_press = t
        return True


class SlapPads:
    """One debounced pad per seat; each press calls ``on_press(seat, t)`` with the edge time.

    >>> from gpiozero.pins.mock import MockFactory
    >>> factory = MockFactory()
    >>> presses = []
    >>> with SlapPads({1: 17, 2: 27}, lambda s, t: presses.append(s), pin_factory=factory) as pads:
    ...     factory.pin(27).drive_low()
    >>> presses
    [2]

    ``pins`` maps seat number -> BCM GPIO number. Pads switch the pin to GND against the internal
    pull-up (``pull_up=True``), so a press is a falling edge. ``bounce_time`` is passed to
    gpiozero (None by default: see the module docstring); ``edge_age`` overrides how pin ticks
    become an age (tests, unusual backends).
    """

    def __init__(
        self,
        pins: Mapping[int, int],
        on_press: PressCallback,
        *,
        clock: Clock = time.monotonic,
        debounce_s: float = DEFAULT_DEBOUNCE_S,
        bounce_time: float | None = None,
        pull_up: bool = True,
        edge_age: EdgeAge | None = None,
        pin_factory: Any = None,
    ) -> None:
        _check_pins(pins)
        self._on_press = on_press
        self._clock = clock
        self._lock = threading.Lock()
        self._closed = False
        self._buttons: dict[int, _PadButton] = {}
        self._debouncers: dict[int, PadDebouncer] = {}
        self.debounce_s = debounce_s
        self._pins = dict(sorted(pins.items()))
        try:
            for seat, pin in sorted(pins.items()):
                self._debouncers[seat] = PadDebouncer(debounce_s)
                self._buttons[seat] = _PadButton(
                    pin,
                    self._edge_handler(seat),
                    pull_up=pull_up,
                    bounce_time=bounce_time,
                    # Holds are unused; a short hold_time keeps close() from waiting up to the
                    # default 1 s for gpiozero's hold thread when a pad is held down.
                    hold_time=0.05,
                    pin_factory=pin_factory,
                )
        except BaseException:
            self.close()
            raise
        factory = next(iter(self._buttons.values())).pin_factory if self._buttons else pin_factory
        self._edge_age: EdgeAge = edge_age or default_edge_age(factory)
        # lgpio's own debounce reports an edge bounce_time after it happened.
        is_lgpio = type(factory).__name__ == "LGPIOFactory"
        self._lgpio_lag = (bounce_time or 0.0) if is_lgpio and edge_age is None else 0.0

    @property
    def seats(self) -> list[int]:
        return sorted(self._buttons)

    @property
    def pins(self) -> dict[int, int]:
        """Seat -> BCM GPIO number."""
        return dict(self._pins)

    def is_pressed(self, seat: int) -> bool:
        """Whether the seat's pad is held down right now."""
        return bool(self._buttons[seat].is_pressed)

    def _edge_handler(self, seat: int) -> Callable[[float, bool], None]:
        def handle(ticks: float, pressed: bool) -> None:
            self._edge(seat, ticks, pressed)

        return handle

    def _edge(self, seat: int, ticks: float, pressed: bool) -> None:
        age = self._edge_age(ticks) + self._lgpio_lag
        t = self._clock() - age
        with self._lock:
            if self._closed:
                return
            report = self._debouncers[seat].edge(t, pressed)
        if report:
            self._on_press(seat, t)

    def close(self) -> None:
        """Release the pins; safe to call twice."""
        with self._lock:
            self._closed = True
            buttons = list(self._buttons.values())
        for button in buttons:
            button.close()

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> SlapPads:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"pins={self.pins}"
        return f"<SlapPads {state}>"


def _check_pins(pins: Mapping[int, int]) -> None:
    """Catch the wiring mistakes gpiozero would report obscurely (or not at all)."""
    seen: dict[int, int] = {}
    for seat, pin in pins.items():
        key = f"pads.{seat}"
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 1:
            raise WiringError(key, f"seat numbers are integers from 1, not {seat!r}")
        if isinstance(pin, bool) or not isinstance(pin, int):
            raise WiringError(key, f"the pin must be a BCM GPIO number like 17, not {pin!r}")
        if pin in seen:
            raise WiringError(key, f"GPIO{pin} is already the pad of seat {seen[pin]}")
        seen[pin] = seat
