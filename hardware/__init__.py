"""Hardware organ: slap pads, buzzer and tilt sensor on gpiozero, reporting edge-timed events.

Imports nothing of referee/, vision/ or web/. Every device takes ``pin_factory=`` (gpiozero's
backend) and a ``clock`` (seconds, ``time.monotonic`` by default), so everything runs under
gpiozero's ``MockFactory`` with a fake clock. Build all of it from the ``[hardware]`` config
section with :func:`build_hardware`.
"""

from .buzzer import DEFAULT_PATTERNS, Buzzer, BuzzerLike, NullBuzzer, RecordingBuzzer
from .errors import HardwareError, HardwareMissingError, UnknownPatternError, WiringError
from .pads import PadDebouncer, SlapPads, lgpio_edge_age
from .tilt import AccelTilt, Mpu6050Reader, TiltSensor, TiltSwitch
from .wiring import Hardware, WiringSpec, build_hardware, make_pin_factory, parse_wiring

__all__ = [
    "DEFAULT_PATTERNS",
    "AccelTilt",
    "Buzzer",
    "BuzzerLike",
    "Hardware",
    "HardwareError",
    "HardwareMissingError",
    "Mpu6050Reader",
    "NullBuzzer",
    "PadDebouncer",
    "RecordingBuzzer",
    "SlapPads",
    "TiltSensor",
    "TiltSwitch",
    "UnknownPatternError",
    "WiringError",
    "WiringSpec",
    "build_hardware",
    "lgpio_edge_age",
    "make_pin_factory",
    "parse_wiring",
]
