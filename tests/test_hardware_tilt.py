"""Tilt switch under MockFactory and a fake MPU6050 reader crossing the threshold."""

from __future__ import annotations

import sys

import pytest
from conftest import FakeClock
from gpiozero.pins.mock import MockFactory

from hardware import AccelTilt, HardwareMissingError, Mpu6050Reader, TiltSensor, TiltSwitch


class FakeAccel:
    """Returns queued (ax, ay, az) readings in g, then ``rest`` forever."""

    def __init__(self, rest: tuple[float, float, float], *queued: tuple[float, float, float]):
        self.rest = rest
        self.queue = list(queued)
        self.closed = False

    def __call__(self) -> tuple[float, float, float]:
        return self.queue.pop(0) if self.queue else self.rest

    def close(self) -> None:
        self.closed = True


def test_tilt_switch_reports_edge_time_and_no_magnitude(
    factory: MockFactory, clock: FakeClock
) -> None:
    got: list[tuple[float, float | None]] = []
    with TiltSwitch(24, lambda t, m: got.append((t, m)), clock=clock) as tilt:
        assert tilt.pin == 24 and not tilt.is_tilted
        clock.advance(2.0)
        factory.pin(24).drive_low()
        assert tilt.is_tilted
    assert got == [(52.0, None)]


def test_tilt_switch_chatter_is_one_tilt(factory: MockFactory, clock: FakeClock) -> None:
    got: list[float] = []
    with TiltSwitch(24, lambda t, m: got.append(t), clock=clock, refractory_s=0.5):
        pin = factory.pin(24)
        for _ in range(5):
            pin.drive_low()
            clock.advance(0.01)
            pin.drive_high()
            clock.advance(0.01)
        clock.advance(1.0)
        pin.drive_low()
    assert got == [pytest.approx(50.0), pytest.approx(51.1)]


def test_accel_fires_when_deviation_crosses_threshold() -> None:
    now = [10.0]
    got: list[tuple[float, float | None]] = []
    reader = FakeAccel((0.0, 0.0, 1.0))
    accel = AccelTilt(
        reader,
        lambda t, m: got.append((t, m)),
        threshold_g=0.3,
        clock=lambda: now[0],
        calibration_samples=3,
        start=False,
    )
    for _ in range(3):
        assert accel.poll_once() is None  # learning rest
    assert accel.rest == (0.0, 0.0, 1.0)
    reader.queue = [(0.1, 0.0, 1.0)]
    assert accel.poll_once() == pytest.approx(0.1)  # below threshold: quiet
    assert got == []
    reader.queue = [(0.0, 0.4, 1.0)]
    now[0] = 11.0
    assert accel.poll_once() == pytest.approx(0.4)
    assert got == [(11.0, pytest.approx(0.4))]
    reader.rest = (0.5, 0.0, 1.0)  # the table stays lifted
    now[0] = 11.2  # within refractory: no second report
    accel.poll_once()
    now[0] = 12.0
    accel.poll_once()
    assert [t for t, _ in got] == [11.0, 12.0]
    accel.close()
    accel.close()
    assert reader.closed and accel.closed


def test_accel_read_errors_are_counted_not_raised() -> None:
    def broken() -> tuple[float, float, float]:
        raise OSError(121, "Remote I/O error")

    accel = AccelTilt(broken, lambda t, m: None, rest=(0, 0, 1), start=False)
    assert accel.poll_once() is None
    assert accel.errors == 1


def test_accel_thread_polls_until_closed() -> None:
    import threading

    fired = threading.Event()
    reader = FakeAccel((1.0, 0.0, 1.0))
    with AccelTilt(
        reader, lambda t, m: fired.set(), rest=(0.0, 0.0, 1.0), poll_s=0.001, threshold_g=0.3
    ) as accel:
        assert fired.wait(timeout=5)
    assert accel.closed


def test_tilt_sensor_composes_switch_and_accel(factory: MockFactory, clock: FakeClock) -> None:
    got: list[float | None] = []
    reader = FakeAccel((0.0, 0.0, 1.0))
    with TiltSensor(
        lambda t, m: got.append(m), pin=24, reader=reader, clock=clock, start=False
    ) as s:
        assert s.switch is not None and s.accel is not None
        factory.pin(24).drive_low()
    assert got == [None]
    with pytest.raises(ValueError, match="needs a switch pin"):
        TiltSensor(lambda t, m: None)


def test_mpu6050_without_smbus2_is_a_clear_runtime_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "smbus2", None)  # import smbus2 -> ImportError
    with pytest.raises(HardwareMissingError, match=r"smbus2.*pip install 'tabletop-referee\[pi\]'"):
        Mpu6050Reader()
    assert issubclass(HardwareMissingError, RuntimeError)


def test_mpu6050_reader_scales_raw_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    class FakeBus:
        def __init__(self, bus: int) -> None:
            self.writes: list[tuple[int, int, int]] = []

        def write_byte_data(self, addr: int, reg: int, value: int) -> None:
            self.writes.append((addr, reg, value))

        def read_i2c_block_data(self, addr: int, reg: int, n: int) -> list[int]:
            assert (addr, reg, n) == (0x68, 0x3B, 6)
            return [0x40, 0x00, 0xC0, 0x00, 0x20, 0x00]  # +1 g, -1 g, +0.5 g

        def close(self) -> None:
            pass

    fake_module = type(sys)("smbus2")
    fake_module.SMBus = FakeBus  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "smbus2", fake_module)
    reader = Mpu6050Reader()
    assert reader() == (1.0, -1.0, 0.5)
    assert reader._bus.writes == [(0x68, 0x6B, 0)]  # woken from sleep
    reader.close()
