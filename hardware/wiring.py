"""Build the pads, buzzer and tilt sensor from one plain config section (a dict from TOML).

:func:`parse_wiring` checks the section and names the bad key (``hardware.pads.3``) in a
:class:`~hardware.errors.WiringError`; :func:`build_hardware` opens the devices and returns a
:class:`Hardware` bundle that closes them all. The section is the ``[hardware]`` table of the
product's config file (documented in docs/configuration.md)::

    enabled = true
    pads = { 1 = 17, 2 = 27, 3 = 22, 4 = 23 }
    buzzer = "active"
    buzzer_pin = 18
    tilt = "switch"
    tilt_pin = 24

>>> spec = parse_wiring({"enabled": True, "pads": {"1": 17, "2": 27}}, seats=2)
>>> spec.pads, spec.buzzer_pin
({1: 17, 2: 27}, 18)
>>> parse_wiring({"pads": {"1": 17, "2": 17}})
Traceback (most recent call last):
...
hardware.errors.WiringError: hardware.pads.2: GPIO17 is already used by hardware.pads.1; give each device its own pin
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .buzzer import Buzzer, BuzzerLike, NullBuzzer
from .errors import HardwareMissingError, WiringError
from .pads import DEFAULT_DEBOUNCE_S, PressCallback, SlapPads
from .tilt import (
    DEFAULT_REFRACTORY_S,
    DEFAULT_THRESHOLD_G,
    MPU6050_ADDRESS,
    AccelReader,
    Mpu6050Reader,
    TiltCallback,
    TiltSensor,
)

BUZZER_KINDS = ("active", "tonal", "none")
TILT_KINDS = ("none", "switch", "mpu6050")
#: BCM numbers broken out on the 40-pin header.
HEADER_GPIOS = range(0, 28)
#: GPIO2/GPIO3 are I2C1's SDA/SCL: taken when the MPU6050 is fitted.
I2C_PINS = {2: "I2C SDA", 3: "I2C SCL"}


def _default_pads() -> dict[int, int]:
    return {1: 17, 2: 27, 3: 22, 4: 23}


@dataclass(frozen=True)
class WiringSpec:
    """The checked ``[hardware]`` section. Defaults match deploy/config.example.toml."""

    enabled: bool = False
    pin_factory: str = ""
    pads: dict[int, int] = field(default_factory=_default_pads)
    debounce_s: float = DEFAULT_DEBOUNCE_S
    buzzer: str = "active"
    buzzer_pin: int = 18
    buzzer_active_high: bool = True
    tilt: str = "none"
    tilt_pin: int = 24
    tilt_refractory_s: float = DEFAULT_REFRACTORY_S
    tilt_threshold_g: float = DEFAULT_THRESHOLD_G
    mpu6050_bus: int = 1
    mpu6050_address: int = MPU6050_ADDRESS

    def to_dict(self) -> dict[str, Any]:
        """Back to a TOML-shaped dict (pad seats as strings, as TOML keys are)."""
        out = {name: getattr(self, name) for name in self.__dataclass_fields__}
        out["pads"] = {str(seat): pin for seat, pin in sorted(self.pads.items())}
        return out


WIRING_KEYS = tuple(WiringSpec.__dataclass_fields__)


def parse_wiring(
    section: Mapping[str, Any], *, seats: int | None = None, prefix: str = "hardware"
) -> WiringSpec:
    """Check a ``[hardware]`` section and return a :class:`WiringSpec`.

    ``seats`` (the table's seat count) makes every seat 1..seats need a pad, and forbids pads
    for seats that are not there, when the hardware is enabled.
    """
    if not isinstance(section, Mapping):
        raise WiringError(prefix, f"must be a table of options, not {section!r}")
    unknown = sorted(set(section) - set(WIRING_KEYS))
    if unknown:
        raise WiringError(
            f"{prefix}.{unknown[0]}",
            f"unknown option; the options are: {', '.join(WIRING_KEYS)}",
        )
    d = WiringSpec()
    g = _Getter(section, prefix)
    spec = WiringSpec(
        enabled=g.boolean("enabled", d.enabled),
        pin_factory=g.string("pin_factory", d.pin_factory),
        pads=_parse_pads(section.get("pads", d.pads), f"{prefix}.pads"),
        debounce_s=g.number("debounce_s", d.debounce_s, low=0.0, high=1.0),
        buzzer=g.choice("buzzer", d.buzzer, BUZZER_KINDS),
        buzzer_pin=g.pin("buzzer_pin", d.buzzer_pin),
        buzzer_active_high=g.boolean("buzzer_active_high", d.buzzer_active_high),
        tilt=g.choice("tilt", d.tilt, TILT_KINDS),
        tilt_pin=g.pin("tilt_pin", d.tilt_pin),
        tilt_refractory_s=g.number("tilt_refractory_s", d.tilt_refractory_s, low=0.0, high=60.0),
        tilt_threshold_g=g.number("tilt_threshold_g", d.tilt_threshold_g, low=0.01, high=16.0),
        mpu6050_bus=g.integer("mpu6050_bus", d.mpu6050_bus, low=0, high=255),
        mpu6050_address=g.integer("mpu6050_address", d.mpu6050_address, low=0x03, high=0x77),
    )
    _check_pin_clashes(spec, prefix)
    if spec.enabled and seats is not None:
        for seat in range(1, seats + 1):
            if seat not in spec.pads:
                raise WiringError(
                    f"{prefix}.pads",
                    f"seat {seat} has no pad; the table has {seats} seats, so add {seat} = <GPIO> "
                    "(or lower table.seats)",
                )
        for seat in spec.pads:
            if seat > seats:
                raise WiringError(
                    f"{prefix}.pads.{seat}",
                    f"seat {seat} has a pad but the table has {seats} seats; remove it "
                    "(or raise table.seats)",
                )
    return spec


def _parse_pads(raw: Any, key: str) -> dict[int, int]:
    if not isinstance(raw, Mapping):
        raise WiringError(
            key, f"must be a table seat = GPIO like {{ 1 = 17, 2 = 27 }}, not {raw!r}"
        )
    pads: dict[int, int] = {}
    for seat_key, pin in raw.items():
        seat_text = str(seat_key)
        if isinstance(seat_key, bool) or not seat_text.isdigit() or int(seat_text) < 1:
            raise WiringError(f"{key}.{seat_text}", "seats are numbered 1, 2, 3 ...")
        _check_pin(pin, f"{key}.{seat_text}")
        pads[int(seat_text)] = pin
    return dict(sorted(pads.items()))


def _check_pin(pin: Any, key: str) -> int:
    if isinstance(pin, bool) or not isinstance(pin, int):
        raise WiringError(key, f"a pin is a BCM GPIO number (an integer like 17), not {pin!r}")
    if pin not in HEADER_GPIOS:
        raise WiringError(key, f"GPIO{pin} is not on the 40-pin header; use GPIO0..GPIO27")
    return pin


def _check_pin_clashes(spec: WiringSpec, prefix: str) -> None:
    used: dict[int, str] = {}
    if spec.tilt == "mpu6050":
        for pin, what in I2C_PINS.items():
            used[pin] = f'{what} (hardware.tilt = "mpu6050")'
    claims: list[tuple[str, int]] = [(f"{prefix}.pads.{s}", p) for s, p in spec.pads.items()]
    if spec.buzzer != "none":
        claims.append((f"{prefix}.buzzer_pin", spec.buzzer_pin))
    if spec.tilt == "switch":
        claims.append((f"{prefix}.tilt_pin", spec.tilt_pin))
    for key, pin in claims:
        if pin in used:
            raise WiringError(
                key, f"GPIO{pin} is already used by {used[pin]}; give each device its own pin"
            )
        used[pin] = key


class _Getter:
    """Typed reads from the section, each error naming ``prefix.key``."""

    def __init__(self, section: Mapping[str, Any], prefix: str) -> None:
        self.section = section
        self.prefix = prefix

    def _key(self, name: str) -> str:
        return f"{self.prefix}.{name}"

    def boolean(self, name: str, default: bool) -> bool:
        value = self.section.get(name, default)
        if not isinstance(value, bool):
            raise WiringError(self._key(name), f"must be true or false, not {value!r}")
        return value

    def string(self, name: str, default: str) -> str:
        value = self.section.get(name, default)
        if not isinstance(value, str):
            raise WiringError(self._key(name), f"must be a string in quotes, not {value!r}")
        return value

    def choice(self, name: str, default: str, choices: tuple[str, ...]) -> str:
        value = self.string(name, default)
        if value not in choices:
            options = ", ".join(f'"{c}"' for c in choices)
            raise WiringError(self._key(name), f"must be one of {options}, not {value!r}")
        return value

    def integer(self, name: str, default: int, *, low: int, high: int) -> int:
        value = self.section.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise WiringError(self._key(name), f"must be an integer, not {value!r}")
        if not low <= value <= high:
            raise WiringError(self._key(name), f"must be between {low} and {high}, not {value}")
        return value

    def number(self, name: str, default: float, *, low: float, high: float) -> float:
        value = self.section.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise WiringError(self._key(name), f"must be a number, not {value!r}")
        if not low <= value <= high:
            raise WiringError(self._key(name), f"must be between {low} and {high}, not {value}")
        return float(value)

    def pin(self, name: str, default: int) -> int:
        return _check_pin(self.section.get(name, default), self._key(name))


class Hardware:
    """The opened devices; closing it closes all of them (idempotent, a context manager).

    ``pads`` and ``tilt`` are None when not fitted; ``buzzer`` is always usable (a
    :class:`~hardware.buzzer.NullBuzzer` when there is none).
    """

    def __init__(
        self,
        spec: WiringSpec,
        *,
        pads: SlapPads | None = None,
        buzzer: BuzzerLike | None = None,
        tilt: TiltSensor | None = None,
    ) -> None:
        self.spec = spec
        self.pads = pads
        self.buzzer: BuzzerLike = buzzer if buzzer is not None else NullBuzzer()
        self.tilt = tilt
        self._closed = False

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for part in (self.tilt, self.pads, self.buzzer):
            if part is not None:
                part.close()

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> Hardware:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def make_pin_factory(name: str) -> Any:
    """A gpiozero pin factory by its entry-point name ("lgpio", "mock", ...); "" = default."""
    if not name:
        return None
    from importlib.metadata import entry_points

    eps = {ep.name: ep for ep in entry_points(group="gpiozero_pin_factories")}
    ep = eps.get(name) or eps.get(name.lower())
    if ep is None:
        raise WiringError(
            "hardware.pin_factory",
            f"unknown gpiozero pin factory {name!r}; choose one of {', '.join(sorted(eps))} "
            '(or "" for gpiozero\'s default)',
        )
    try:
        return ep.load()()
    except Exception as exc:  # ImportError, a missing /dev/gpiochip ...
        raise HardwareMissingError(
            f"gpiozero pin factory {name!r} cannot start here ({exc}); on a Raspberry Pi install "
            'python3-lgpio, elsewhere set hardware.enabled = false or pin_factory = "mock"'
        ) from None


def build_hardware(
    section: Mapping[str, Any] | WiringSpec,
    *,
    on_press: PressCallback,
    on_tilt: TiltCallback | None = None,
    clock: Callable[[], float] = time.monotonic,
    seats: int | None = None,
    pin_factory: Any = None,
    accel_reader: AccelReader | None = None,
) -> Hardware:
    """Open every device the section describes; on any failure close what was opened.

    ``pin_factory`` (a gpiozero Factory) wins over the section's ``pin_factory`` name; with
    neither, gpiozero picks (honouring ``GPIOZERO_PIN_FACTORY``). ``accel_reader`` replaces the
    MPU6050 reader (tests).
    """
    spec = section if isinstance(section, WiringSpec) else parse_wiring(section, seats=seats)
    if not spec.enabled:
        return Hardware(spec)
    factory = pin_factory if pin_factory is not None else make_pin_factory(spec.pin_factory)
    hw = Hardware(spec)
    try:
        hw.pads = SlapPads(
            spec.pads, on_press, clock=clock, debounce_s=spec.debounce_s, pin_factory=factory
        )
        if spec.buzzer != "none":
            hw.buzzer = Buzzer(
                spec.buzzer_pin,
                active_high=spec.buzzer_active_high,
                tonal=spec.buzzer == "tonal",
                pin_factory=factory,
            )
        if spec.tilt != "none":
            if on_tilt is None:
                raise WiringError("hardware.tilt", "a tilt sensor is configured but no on_tilt")
            reader = accel_reader
            if spec.tilt == "mpu6050" and reader is None:
                reader = Mpu6050Reader(spec.mpu6050_bus, spec.mpu6050_address)
            hw.tilt = TiltSensor(
                on_tilt,
                pin=spec.tilt_pin if spec.tilt == "switch" else None,
                reader=reader if spec.tilt == "mpu6050" else None,
                threshold_g=spec.tilt_threshold_g,
                refractory_s=spec.tilt_refractory_s,
                clock=clock,
                pin_factory=factory,
            )
    except BaseException as exc:
        hw.close()
        _reraise_gpio_error(exc)
        raise
    return hw


def _reraise_gpio_error(exc: BaseException) -> None:
    """Turn gpiozero's backend errors into ones that name the fix."""
    from gpiozero.exc import BadPinFactory, GPIOPinInUse, PinPWMUnsupported

    if isinstance(exc, BadPinFactory):
        raise HardwareMissingError(
            f"no GPIO backend is available ({exc}); on a Raspberry Pi install python3-lgpio, "
            "elsewhere set hardware.enabled = false (or GPIOZERO_PIN_FACTORY=mock)"
        ) from None
    if isinstance(exc, GPIOPinInUse):
        raise WiringError(
            "hardware", f"a pin is already in use by another program ({exc})"
        ) from None
    if isinstance(exc, PinPWMUnsupported):
        raise WiringError(
            "hardware.buzzer",
            f'buzzer = "tonal" needs a PWM-capable pin and backend ({exc}); use "active"',
        ) from None
