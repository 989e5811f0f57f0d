"""Tilt: someone bumped or lifted the table. Reported as ``on_tilt(t, magnitude)``.

Two sensors, one callback shape:

* :class:`TiltSwitch`: a ball/mercury tilt switch between a GPIO and GND (internal pull-up).
  A closing contact is a tilt; ``magnitude`` is None (a switch has no size). Tilt switches chatter,
  so after a report further closings are ignored for ``refractory_s``.
* :class:`AccelTilt`: an MPU6050-class accelerometer on I2C, polled in a thread. It learns the
  rest vector (gravity) from the first samples and reports when the deviation from rest exceeds
  ``threshold_g``; ``magnitude`` is that deviation in g. The reader is injected (a callable
  returning ``(ax, ay, az)`` in g), so tests use a fake; :class:`Mpu6050Reader` is the real one.

``t`` is on the injected table clock (``time.monotonic`` by default). For the switch it is the
edge time from the pin's ticks, exactly as for the slap pads (see :mod:`hardware.pads`).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from typing import Any

from gpiozero import DigitalInputDevice

from .edges import EdgeReporting
from .errors import HardwareMissingError
from .pads import EdgeAge, default_edge_age

log = logging.getLogger(__name__)

Clock = Callable[[], float]
TiltCallback = Callable[[float, float | None], None]
AccelReader = Callable[[], tuple[float, float, float]]

DEFAULT_REFRACTORY_S = 0.5
DEFAULT_THRESHOLD_G = 0.35
MPU6050_ADDRESS = 0x68


class _EdgeInput(EdgeReporting, DigitalInputDevice):
    """DigitalInputDevice reporting each state change with the pin's edge ticks."""


class TiltSwitch:
    """A tilt switch on ``pin`` (to GND, internal pull-up): each tilt calls ``on_tilt(t, None)``."""

    def __init__(
        self,
        pin: int,
        on_tilt: TiltCallback,
        *,
        clock: Clock = time.monotonic,
        refractory_s: float = DEFAULT_REFRACTORY_S,
        pull_up: bool = True,
        edge_age: EdgeAge | None = None,
        pin_factory: Any = None,
    ) -> None:
        self._on_tilt = on_tilt
        self._clock = clock
        self.refractory_s = refractory_s
        self._last: float | None = None
        self._lock = threading.Lock()
        self._closed = False
        self._pin = pin
        self._device = _EdgeInput(pin, self._edge, pull_up=pull_up, pin_factory=pin_factory)
        self._edge_age = edge_age or default_edge_age(self._device.pin_factory)

    @property
    def pin(self) -> int:
        return self._pin

    @property
    def is_tilted(self) -> bool:
        return bool(self._device.is_active)

    def _edge(self, ticks: float, active: bool) -> None:
        if not active:
            return
        t = self._clock() - self._edge_age(ticks)
        with self._lock:
            if self._closed:
                return
            if self._last is not None and t - self._last < self.refractory_s:
                return
            self._last = t
        self._on_tilt(t, None)

    def close(self) -> None:
        """Release the pin; safe to call twice."""
        self._closed = True
        self._device.close()

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> TiltSwitch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Mpu6050Reader:
    """Reads acceleration in g from an MPU6050 (or MPU6500/9250) over I2C with smbus2.

    smbus2 is imported here, not at module import, so machines without it still run everything
    else. Full-scale range is the power-on default, +-2 g (16384 LSB per g).
    """

    PWR_MGMT_1 = 0x6B
    ACCEL_XOUT_H = 0x3B
    LSB_PER_G = 16384.0

    def __init__(self, bus: int = 1, address: int = MPU6050_ADDRESS) -> None:
        try:
            import smbus2  # type: ignore[import-not-found]
        except ImportError:
            raise HardwareMissingError(
                "the MPU6050 tilt sensor needs the smbus2 package: "
                'pip install \'tabletop-referee[pi]\' (or set hardware.tilt = "switch" or "none")'
            ) from None
        try:
            self._bus = smbus2.SMBus(bus)
            self._bus.write_byte_data(address, self.PWR_MGMT_1, 0)  # wake from sleep
        except (OSError, FileNotFoundError) as exc:
            raise HardwareMissingError(
                f"no MPU6050 answered on I2C bus {bus} at address 0x{address:02x} ({exc}); "
                "check the wiring (SDA GPIO2, SCL GPIO3, 3V3, GND), enable I2C with "
                "raspi-config, and check the address with `i2cdetect -y 1`"
            ) from None
        self.address = address

    def __call__(self) -> tuple[float, float, float]:
        raw = self._bus.read_i2c_block_data(self.address, self.ACCEL_XOUT_H, 6)
        return (
            _s16(raw[0], raw[1]) / self.LSB_PER_G,
            _s16(raw[2], raw[3]) / self.LSB_PER_G,
            _s16(raw[4], raw[5]) / self.LSB_PER_G,
        )

    def close(self) -> None:
        self._bus.close()


def _s16(high: int, low: int) -> int:
    value = (high << 8) | low
    return value - 0x10000 if value & 0x8000 else value


class AccelTilt:
    """Polls an accelerometer; reports ``on_tilt(t, deviation_g)`` when it leaves rest.

    ``poll_once()`` does one step (tests call it directly with ``start=False``); ``start()``
    runs it every ``poll_s`` in a daemon thread. The rest vector is the mean of the first
    ``calibration_samples`` readings unless given as ``rest``. Read errors (a loose wire) are
    logged and counted in ``errors``, never raised into the thread.
    """

    def __init__(
        self,
        reader: AccelReader,
        on_tilt: TiltCallback,
        *,
        threshold_g: float = DEFAULT_THRESHOLD_G,
        clock: Clock = time.monotonic,
        poll_s: float = 0.02,
        refractory_s: float = DEFAULT_REFRACTORY_S,
        rest: tuple[float, float, float] | None = None,
        calibration_samples: int = 10,
        start: bool = True,
    ) -> None:
        if threshold_g <= 0:
            raise ValueError(f"threshold_g must be > 0, not {threshold_g!r}")
        self._reader = reader
        self._on_tilt = on_tilt
        self.threshold_g = threshold_g
        self._clock = clock
        self.poll_s = poll_s
        self.refractory_s = refractory_s
        self.rest = rest
        self._calibration: list[tuple[float, float, float]] = []
        self._calibration_samples = max(1, calibration_samples)
        self._last: float | None = None
        self.errors = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if start:
            self.start()

    def start(self) -> None:
        if self._thread is None and not self._stop.is_set():
            self._thread = threading.Thread(target=self._run, name="accel-tilt", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.poll_s):
            self.poll_once()

    def poll_once(self) -> float | None:
        """Read once; returns the deviation from rest in g (None while calibrating or on error)."""
        try:
            ax, ay, az = self._reader()
        except OSError as exc:
            self.errors += 1
            if self.errors in (1, 10, 100) or self.errors % 1000 == 0:
                log.warning("accelerometer read failed (%d so far): %s", self.errors, exc)
            return None
        t = self._clock()
        if self.rest is None:
            self._calibration.append((ax, ay, az))
            if len(self._calibration) >= self._calibration_samples:
                n = len(self._calibration)
                sx, sy, sz = (sum(v[i] for v in self._calibration) / n for i in range(3))
                self.rest = (sx, sy, sz)
            return None
        rx, ry, rz = self.rest
        deviation = math.sqrt((ax - rx) ** 2 + (ay - ry) ** 2 + (az - rz) ** 2)
        if deviation > self.threshold_g:
            if self._last is None or t - self._last >= self.refractory_s:
                self._last = t
                self._on_tilt(t, deviation)
        return deviation

    def close(self) -> None:
        """Stop polling and close the reader if it has close(); safe to call twice."""
        if self._stop.is_set():
            return
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)
        closer = getattr(self._reader, "close", None)
        if callable(closer):
            closer()

    @property
    def closed(self) -> bool:
        return self._stop.is_set()

    def __enter__(self) -> AccelTilt:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class TiltSensor:
    """Whatever tilt sensing is fitted: a switch on ``pin``, an accelerometer ``reader``, or both.

    Both report through the same ``on_tilt(t, magnitude)``; magnitude is None for the switch.
    """

    def __init__(
        self,
        on_tilt: TiltCallback,
        *,
        pin: int | None = None,
        reader: AccelReader | None = None,
        threshold_g: float = DEFAULT_THRESHOLD_G,
        refractory_s: float = DEFAULT_REFRACTORY_S,
        clock: Clock = time.monotonic,
        pin_factory: Any = None,
        start: bool = True,
    ) -> None:
        if pin is None and reader is None:
            raise ValueError("TiltSensor needs a switch pin, an accelerometer reader, or both")
        self.switch: TiltSwitch | None = None
        self.accel: AccelTilt | None = None
        try:
            if pin is not None:
                self.switch = TiltSwitch(
                    pin, on_tilt, clock=clock, refractory_s=refractory_s, pin_factory=pin_factory
                )
            if reader is not None:
                self.accel = AccelTilt(
                    reader,
                    on_tilt,
                    threshold_g=threshold_g,
                    clock=clock,
                    refractory_s=refractory_s,
                    start=start,
                )
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Release the pin and stop polling; safe to call twice."""
        if self.switch is not None:
            self.switch.close()
        if self.accel is not None:
            self.accel.close()

    def __enter__(self) -> TiltSensor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
