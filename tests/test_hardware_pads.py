"""Slap pads under gpiozero's MockFactory with a fake clock: edge times, debounce, seats."""

from __future__ import annotations

import pytest
from conftest import FakeClock
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPin

from hardware import PadDebouncer, SlapPads, WiringError, lgpio_edge_age


def press(factory: MockFactory, pin: int, clock: FakeClock, hold_s: float = 0.05) -> None:
    factory.pin(pin).drive_low()
    clock.advance(hold_s)
    factory.pin(pin).drive_high()


def test_press_reports_seat_and_edge_time(factory: MockFactory, clock: FakeClock) -> None:
    got: list[tuple[int, float]] = []
    with SlapPads({1: 17, 2: 27}, lambda s, t: got.append((s, t)), clock=clock) as pads:
        edge = clock.advance(1.0)
        factory.pin(27).drive_low()
        assert got == [(2, edge)]
        assert pads.is_pressed(2) and not pads.is_pressed(1)


def test_time_is_the_edge_not_the_late_callback(clock: FakeClock) -> None:
    """A callback that runs 7 ms after the edge still reports the edge's time."""

    class LatePin(MockPin):
        def _call_when_changed(self) -> None:
            clock.advance(0.007)
            super()._call_when_changed()

    factory = MockFactory(pin_class=LatePin)
    got: list[tuple[int, float]] = []
    with SlapPads({1: 17}, lambda s, t: got.append((s, t)), clock=clock, pin_factory=factory):
        clock.now = 2000.0
        factory.pin(17).drive_low()
    assert clock.now == pytest.approx(2000.007)
    assert got == [(1, pytest.approx(2000.0))]


def test_pin_factory_keyword_is_used(clock: FakeClock) -> None:
    own = MockFactory()
    got: list[int] = []
    with SlapPads({3: 22}, lambda s, t: got.append(s), clock=clock, pin_factory=own):
        own.pin(22).drive_low()
    assert got == [3]


def test_contact_bounce_is_one_press(factory: MockFactory, clock: FakeClock) -> None:
    got: list[tuple[int, float]] = []
    with SlapPads({1: 17}, lambda s, t: got.append((s, t)), clock=clock, debounce_s=0.03):
        pin = factory.pin(17)
        start = clock.now
        for _ in range(4):  # 4 ms of chatter on the press
            pin.drive_low()
            clock.advance(0.0005)
            pin.drive_high()
            clock.advance(0.0005)
        pin.drive_low()
        clock.advance(0.06)
        for _ in range(3):  # chatter on the release
            pin.drive_high()
            clock.advance(0.0005)
            pin.drive_low()
            clock.advance(0.0005)
        pin.drive_high()
    assert got == [(1, start)]


def test_second_real_press_100ms_later_counts(factory: MockFactory, clock: FakeClock) -> None:
    got: list[float] = []
    with SlapPads({1: 17}, lambda s, t: got.append(t), clock=clock, debounce_s=0.03):
        first = clock.now
        press(factory, 17, clock, hold_s=0.04)
        clock.now = first + 0.1
        press(factory, 17, clock, hold_s=0.04)
    assert got == [pytest.approx(first), pytest.approx(first + 0.1)]


def test_two_pads_both_report_in_edge_order(factory: MockFactory, clock: FakeClock) -> None:
    got: list[tuple[int, float]] = []
    with SlapPads({1: 17, 2: 27}, lambda s, t: got.append((s, t)), clock=clock):
        factory.pin(27).drive_low()
        clock.advance(0.004)
        factory.pin(17).drive_low()
    assert [seat for seat, _ in got] == [2, 1]
    assert got[1][1] - got[0][1] == pytest.approx(0.004)


def test_debounce_is_per_pad(factory: MockFactory, clock: FakeClock) -> None:
    got: list[int] = []
    with SlapPads({1: 17, 2: 27}, lambda s, t: got.append(s), clock=clock, debounce_s=0.05):
        factory.pin(17).drive_low()
        clock.advance(0.001)
        factory.pin(27).drive_low()
    assert got == [1, 2]


def test_debouncer_rules_on_a_fake_timeline() -> None:
    d = PadDebouncer(0.03)
    assert d.edge(0.000, True)  # press
    assert not d.edge(0.001, False)  # bounce release
    assert not d.edge(0.002, True)  # bounce press: within 30 ms of the press
    assert not d.edge(0.060, False)  # real release
    assert not d.edge(0.061, True)  # release bounce: within 30 ms of a release
    assert not d.edge(0.062, False)
    assert d.edge(0.100, True)  # a real second press
    with pytest.raises(ValueError, match="debounce_s"):
        PadDebouncer(-1)


def test_close_is_idempotent_and_frees_pins(factory: MockFactory, clock: FakeClock) -> None:
    got: list[int] = []
    pads = SlapPads({1: 17}, lambda s, t: got.append(s), clock=clock)
    pads.close()
    pads.close()
    assert pads.closed
    factory.pin(17).drive_low()
    assert got == []
    with SlapPads({1: 17}, lambda s, t: got.append(s), clock=clock):  # pin is free again
        factory.pin(17).drive_high()
        factory.pin(17).drive_low()
    assert got == [1]


@pytest.mark.parametrize(
    ("pins", "message"),
    [
        ({1: 17, 2: 17}, "pads.2: GPIO17 is already the pad of seat 1"),
        ({1: "17"}, "pads.1: the pin must be a BCM GPIO number"),
        ({0: 17}, "pads.0: seat numbers are integers from 1"),
    ],
)
def test_bad_pins_name_the_key(factory: MockFactory, pins: dict, message: str) -> None:
    with pytest.raises(WiringError, match=message):
        SlapPads(pins, lambda s, t: None)


def test_env_var_mock_factory_works(monkeypatch: pytest.MonkeyPatch) -> None:
    """GPIOZERO_PIN_FACTORY=mock with no pin_factory given: gpiozero builds a MockFactory."""
    saved = Device.pin_factory
    Device.pin_factory = None
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    got: list[int] = []
    try:
        with SlapPads({4: 23}, lambda s, t: got.append(s)):
            assert isinstance(Device.pin_factory, MockFactory)
            Device.pin_factory.pin(23).drive_low()
    finally:
        if Device.pin_factory is not None:
            Device.pin_factory.reset()
        Device.pin_factory = saved
    assert got == [4]


def test_lgpio_edge_age_picks_the_plausible_clock() -> None:
    # monotonic-stamped edge 5 ms ago
    assert lgpio_edge_age(99.995, realtime=lambda: 1.7e9, monotonic=lambda: 100.0) == (
        pytest.approx(0.005)
    )
    # realtime-stamped edge 2 ms ago
    assert lgpio_edge_age(1.7e9 - 0.002, realtime=lambda: 1.7e9, monotonic=lambda: 100.0) == (
        pytest.approx(0.002, abs=1e-6)
    )
    # nonsense stamp: treated as "now"
    assert lgpio_edge_age(-5.0, realtime=lambda: 1.7e9, monotonic=lambda: 100.0) == 0.0
