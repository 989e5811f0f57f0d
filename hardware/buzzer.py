"""The buzzer: short, distinct patterns the players learn by ear, played without blocking.

Patterns are data: a tuple of ``(on_s, off_s)`` steps. ``play(name)`` only hands the pattern to a
player thread and returns (microseconds), so the table loop never waits on a beep; a new pattern
interrupts the one playing. Three implementations share the :class:`BuzzerLike` interface:

* :class:`Buzzer` drives a real active buzzer (gpiozero ``Buzzer``) or a passive one through
  PWM (gpiozero ``TonalBuzzer``, a tone per pattern);
* :class:`NullBuzzer` for machines without hardware (checks names, plays nothing);
* :class:`RecordingBuzzer` for tests and demos: records ``(name, t)``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Protocol

from .errors import UnknownPatternError

Step = tuple[float, float]
Pattern = tuple[Step, ...]

#: name -> (on_s, off_s) steps. Short and high = fine; long and double = foul.
DEFAULT_PATTERNS: Mapping[str, Pattern] = MappingProxyType(
    {
        # one short chirp: the play stands
        "legal": ((0.08, 0.0),),
        # two long buzzes: a foul
        "illegal": ((0.45, 0.12), (0.45, 0.0)),
        # two quick chirps: the referee heard a call ("Wackee!", a slap claim)
        "call_accepted": ((0.05, 0.06), (0.05, 0.0)),
        # the 1-2-3 count: three ticks half a second apart, the last one longer
        "count": ((0.06, 0.44), (0.06, 0.44), (0.25, 0.0)),
        # three rising beeps and a long one: round over
        "round_over": ((0.12, 0.08), (0.12, 0.08), (0.12, 0.08), (0.6, 0.0)),
    }
)

#: Tones for a passive buzzer (gpiozero TonalBuzzer's default range is A3..A5).
DEFAULT_TONES: Mapping[str, str] = MappingProxyType(
    {
        "legal": "E5",
        "illegal": "A3",
        "call_accepted": "A5",
        "count": "A4",
        "round_over": "C5",
    }
)


class BuzzerLike(Protocol):
    """What the table service needs from a buzzer."""

    @property
    def patterns(self) -> Mapping[str, Pattern]: ...

    def play(self, name: str) -> None: ...

    def stop(self) -> None: ...

    def close(self) -> None: ...


def check_patterns(patterns: Mapping[str, Any]) -> dict[str, Pattern]:
    """Validate pattern data (non-empty steps of two non-negative seconds) into tuples."""
    out: dict[str, Pattern] = {}
    for name, steps in patterns.items():
        try:
            pattern = tuple((float(on), float(off)) for on, off in steps)
        except (TypeError, ValueError) as exc:
            raise ValueError(
                f"buzzer pattern {name!r} must be a list of (on_s, off_s) pairs, not {steps!r}"
            ) from exc
        if not pattern or any(on < 0 or off < 0 for on, off in pattern):
            raise ValueError(
                f"buzzer pattern {name!r} needs at least one step and no negative durations"
            )
        out[name] = pattern
    return out


class _PatternBase:
    """Pattern table and name checking shared by every buzzer."""

    def __init__(self, patterns: Mapping[str, Any] | None = None) -> None:
        self._patterns = MappingProxyType(
            check_patterns(DEFAULT_PATTERNS if patterns is None else patterns)
        )

    @property
    def patterns(self) -> Mapping[str, Pattern]:
        return self._patterns

    def _lookup(self, name: str) -> Pattern:
        try:
            return self._patterns[name]
        except (KeyError, TypeError):
            known = ", ".join(sorted(self._patterns))
            raise UnknownPatternError(
                f"unknown buzzer pattern {name!r}; known patterns: {known}"
            ) from None

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()  # type: ignore[attr-defined]


class PatternPlayer:
    """Plays patterns on an on/off output in a daemon thread; a new pattern interrupts the old.

    ``on(name)`` / ``off()`` drive the output. ``play`` takes a lock, swaps the pattern and
    notifies the thread: it never sleeps.
    """

    def __init__(self, on: Callable[[str], None], off: Callable[[], None], name: str) -> None:
        self._on = on
        self._off = off
        self._cond = threading.Condition()
        self._pending: tuple[str, Pattern] | None = None
        self._generation = 0
        self._busy = False
        self._playing = False
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def play(self, name: str, pattern: Pattern) -> None:
        with self._cond:
            if self._closed:
                return
            self._pending = (name, pattern)
            self._generation += 1
            self._busy = True
            self._cond.notify_all()

    def stop(self) -> None:
        with self._cond:
            self._pending = None
            self._generation += 1
            if not self._playing:
                self._busy = False
            self._cond.notify_all()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until nothing is playing (tests, shutdown); False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._busy, timeout)

    def close(self) -> None:
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._pending = None
            self._generation += 1
            self._cond.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._pending is not None or self._closed)
                if self._closed:
                    self._busy = False
                    self._cond.notify_all()
                    return
                assert self._pending is not None
                name, pattern = self._pending
                self._pending = None
                generation = self._generation
                self._playing = True
            self._play_one(name, pattern, generation)
            with self._cond:
                self._playing = False
                if self._pending is None:
                    self._busy = False
                    self._cond.notify_all()

    def _interrupted(self, generation: int, seconds: float) -> bool:
        """Wait ``seconds`` unless a newer play/stop/close arrives; True when interrupted."""
        with self._cond:
            return self._cond.wait_for(lambda: self._generation != generation, seconds)

    def _play_one(self, name: str, pattern: Pattern, generation: int) -> None:
        try:
            for on_s, off_s in pattern:
                self._on(name)
                interrupted = self._interrupted(generation, on_s)
                self._off()
                if interrupted or self._interrupted(generation, off_s):
                    return
        finally:
            self._off()


class Buzzer(_PatternBase):
    """A buzzer on a GPIO pin playing named patterns in the background.

    ``tonal=False`` (default): an active buzzer (it beeps when powered), driven through gpiozero
    ``Buzzer`` directly or via an NPN transistor; ``active_high=False`` for a low-side driver
    that beeps when the pin is low. ``tonal=True``: a passive piezo on a PWM-capable pin through
    gpiozero ``TonalBuzzer``, with one tone per pattern from ``tones``.
    """

    def __init__(
        self,
        pin: int,
        *,
        active_high: bool = True,
        tonal: bool = False,
        patterns: Mapping[str, Any] | None = None,
        tones: Mapping[str, str] | None = None,
        pin_factory: Any = None,
    ) -> None:
        super().__init__(patterns)
        self._tones = dict(DEFAULT_TONES if tones is None else tones)
        self._device: Any
        if tonal:
            from gpiozero import TonalBuzzer

            self._device = TonalBuzzer(pin, pin_factory=pin_factory)
        else:
            from gpiozero import Buzzer as GpioBuzzer

            self._device = GpioBuzzer(pin, active_high=active_high, pin_factory=pin_factory)
        self._tonal = tonal
        self._closed = False
        self._player = PatternPlayer(self._output_on, self._output_off, name=f"buzzer-GPIO{pin}")

    @property
    def device(self) -> Any:
        """The underlying gpiozero device (for tests reading its pin)."""
        return self._device

    def _output_on(self, name: str) -> None:
        if self._tonal:
            self._device.play(self._tones.get(name, "A4"))
        else:
            self._device.on()

    def _output_off(self) -> None:
        if self._closed:
            return
        if self._tonal:
            self._device.stop()
        else:
            self._device.off()

    def play(self, name: str) -> None:
        """Start pattern ``name`` now, interrupting any other; returns at once."""
        self._player.play(name, self._lookup(name))

    def stop(self) -> None:
        """Silence the buzzer now."""
        self._player.stop()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until the current pattern has finished (tests, shutdown)."""
        return self._player.wait_idle(timeout)

    def close(self) -> None:
        """Stop and release the pin; safe to call twice."""
        if self._closed:
            return
        self._player.close()
        self._output_off()
        self._closed = True
        self._device.close()

    @property
    def closed(self) -> bool:
        return self._closed


class NullBuzzer(_PatternBase):
    """No buzzer fitted: checks pattern names (so mistakes still show) and stays silent."""

    def play(self, name: str) -> None:
        self._lookup(name)

    def stop(self) -> None:
        pass

    def wait_idle(self, timeout: float | None = None) -> bool:
        return True

    def close(self) -> None:
        pass


class RecordingBuzzer(_PatternBase):
    """Records ``(name, t)`` for every play, on the injected clock (tests, demos, the dashboard)."""

    def __init__(
        self,
        patterns: Mapping[str, Any] | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(patterns)
        self._clock = clock
        self._lock = threading.Lock()
        self.played: list[tuple[str, float]] = []
        self.closed = False

    def play(self, name: str) -> None:
        self._lookup(name)
        t = self._clock()
        with self._lock:
            self.played.append((name, t))

    @property
    def names(self) -> list[str]:
        """The pattern names played so far, in order."""
        with self._lock:
            return [name for name, _t in self.played]

    def stop(self) -> None:
        pass

    def wait_idle(self, timeout: float | None = None) -> bool:
        return True

    def close(self) -> None:
        self.closed = True
