"""The hardware organ's exceptions: one root, each also a builtin so callers can catch broadly.

Mistakes a user can make (a bad pin table, an unknown buzzer pattern) are ``ValueError``s;
missing hardware or drivers (no smbus2, no GPIO chip) are ``RuntimeError``s. Every message names
the thing and the fix.
"""

from __future__ import annotations


class HardwareError(Exception):
    """Root of every error raised by :mod:`hardware`."""


class WiringError(HardwareError, ValueError):
    """The wiring section is wrong: a pin used twice, a seat without a pin, a non-integer pin."""

    def __init__(self, key: str, message: str) -> None:
        self.key = key
        super().__init__(f"{key}: {message}")


class UnknownPatternError(HardwareError, ValueError):
    """``Buzzer.play`` was asked for a pattern it does not know."""


class HardwareMissingError(HardwareError, RuntimeError):
    """A driver or device the configuration asks for is not there (smbus2, an I2C sensor)."""
