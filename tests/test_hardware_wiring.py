"""Building the hardware from a [hardware] section: defaults, errors naming the key, close()."""

from __future__ import annotations

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware import (
    Hardware,
    HardwareMissingError,
    NullBuzzer,
    WiringError,
    build_hardware,
    make_pin_factory,
    parse_wiring,
)
from hardware.buzzer import Buzzer

ENABLED = {"enabled": True, "pads": {"1": 17, "2": 27, "3": 22, "4": 23}}


def test_defaults_parse() -> None:
    spec = parse_wiring({})
    assert not spec.enabled
    assert spec.pads == {1: 17, 2: 27, 3: 22, 4: 23}
    assert (spec.buzzer, spec.buzzer_pin, spec.tilt, spec.tilt_pin) == ("active", 18, "none", 24)
    assert parse_wiring(spec.to_dict()) == spec


@pytest.mark.parametrize(
    ("section", "seats", "key", "words"),
    [
        (
            {"pads": {"1": 17, "2": 17}},
            None,
            "hardware.pads.2",
            "GPIO17 is already used by hardware.pads.1",
        ),
        (
            {"pads": {"1": 18}},
            None,
            "hardware.buzzer_pin",
            "GPIO18 is already used by hardware.pads.1",
        ),
        ({"pads": {"1": "17"}}, None, "hardware.pads.1", "BCM GPIO number"),
        ({"pads": {"1": 17.0}}, None, "hardware.pads.1", "BCM GPIO number"),
        ({"pads": {"one": 17}}, None, "hardware.pads.one", "numbered 1, 2, 3"),
        ({"pads": {"1": 40}}, None, "hardware.pads.1", "not on the 40-pin header"),
        ({"enabled": True, "pads": {"1": 17, "3": 22}}, 3, "hardware.pads", "seat 2 has no pad"),
        (
            {"enabled": True, "pads": {"1": 17, "2": 27, "3": 22}},
            2,
            "hardware.pads.3",
            "table has 2",
        ),
        ({"pads": {"1": 2}, "tilt": "mpu6050"}, None, "hardware.pads.1", "I2C SDA"),
        ({"tilt": "switch", "tilt_pin": 17}, None, "hardware.tilt_pin", "hardware.pads.1"),
        ({"buzzer": "loud"}, None, "hardware.buzzer", '"active", "tonal", "none"'),
        ({"enabled": "yes"}, None, "hardware.enabled", "true or false"),
        ({"debounce_s": 5}, None, "hardware.debounce_s", "between 0.0 and 1.0"),
        ({"buzer_pin": 18}, None, "hardware.buzer_pin", "unknown option"),
        ({"pads": [17, 27]}, None, "hardware.pads", "seat = GPIO"),
    ],
)
def test_wiring_errors_name_the_key(section: dict, seats: int | None, key: str, words: str) -> None:
    with pytest.raises(WiringError) as info:
        parse_wiring(section, seats=seats)
    assert info.value.key == key
    assert str(info.value).startswith(f"{key}: ")
    assert words in str(info.value)
    assert isinstance(info.value, ValueError)


def test_disabled_builds_no_devices() -> None:
    with build_hardware({}, on_press=lambda s, t: None) as hw:
        assert hw.pads is None and hw.tilt is None
        assert isinstance(hw.buzzer, NullBuzzer)


def test_build_everything_under_mock(factory: MockFactory) -> None:
    presses: list[int] = []
    tilts: list[float | None] = []
    section = {**ENABLED, "tilt": "switch"}
    with build_hardware(
        section,
        on_press=lambda s, t: presses.append(s),
        on_tilt=lambda t, m: tilts.append(m),
        seats=4,
    ) as hw:
        assert isinstance(hw, Hardware)
        assert hw.pads is not None and hw.pads.pins == {1: 17, 2: 27, 3: 22, 4: 23}
        assert isinstance(hw.buzzer, Buzzer)
        factory.pin(22).drive_low()
        factory.pin(24).drive_low()
        hw.buzzer.play("legal")
    assert presses == [3]
    assert tilts == [None]
    assert hw.closed and hw.pads.closed and hw.buzzer.closed  # type: ignore[union-attr]
    hw.close()  # idempotent


def test_pin_factory_by_name_and_injected() -> None:
    assert make_pin_factory("") is None
    assert isinstance(make_pin_factory("mock"), MockFactory)
    with pytest.raises(WiringError, match="hardware.pin_factory: unknown gpiozero pin factory"):
        make_pin_factory("gpiozilla")
    own = MockFactory(pin_class=MockPWMPin)
    got: list[int] = []
    with build_hardware(
        {**ENABLED, "buzzer": "tonal", "pin_factory": "nonsense-ignored-when-injected"},
        on_press=lambda s, t: got.append(s),
        pin_factory=own,
    ) as hw:
        own.pin(17).drive_low()
        assert hw.buzzer is not None
    assert got == [1]


def test_mpu6050_uses_injected_reader(factory: MockFactory) -> None:
    import threading

    tilted = threading.Event()
    tilts: list[float | None] = []
    reads = iter([(0.0, 0.0, 1.0)] * 10 + [(0.0, 0.9, 1.0)])

    def on_tilt(t: float, magnitude: float | None) -> None:
        tilts.append(magnitude)
        tilted.set()

    with build_hardware(
        {**ENABLED, "tilt": "mpu6050", "tilt_threshold_g": 0.5},
        on_press=lambda s, t: None,
        on_tilt=on_tilt,
        accel_reader=lambda: next(reads, (0.0, 0.0, 1.0)),
    ) as hw:
        assert hw.tilt is not None and hw.tilt.accel is not None and hw.tilt.switch is None
        assert tilted.wait(timeout=5)
    assert tilts == [pytest.approx(0.9)]
    assert hw.tilt.accel.closed


def test_failure_midway_closes_what_was_opened(factory: MockFactory) -> None:
    with pytest.raises(WiringError, match="no on_tilt"):
        build_hardware({**ENABLED, "tilt": "switch"}, on_press=lambda s, t: None)
    # the pads opened before the failure were released: the pins can be claimed again
    with build_hardware(ENABLED, on_press=lambda s, t: None) as hw:
        assert hw.pads is not None


def test_missing_backend_is_a_runtime_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from gpiozero.exc import BadPinFactory

    saved = Device.pin_factory
    Device.pin_factory = None
    monkeypatch.setattr(
        Device,
        "_default_pin_factory",
        staticmethod(lambda: (_ for _ in ()).throw(BadPinFactory("none"))),
    )
    try:
        with pytest.raises(HardwareMissingError, match="hardware.enabled = false"):
            build_hardware(ENABLED, on_press=lambda s, t: None)
    finally:
        Device.pin_factory = saved
