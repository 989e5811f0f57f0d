"""Match options: each game declares its options with defaults; a match may override them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import OptionError


@dataclass(frozen=True)
class Option:
    default: Any
    help: str
    minimum: float | None = None
    maximum: float | None = None

    def check(self, name: str, value: Any) -> Any:
        kind = type(self.default)
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if type(value) is not kind:
            raise OptionError(
                f"option {name!r} must be {kind.__name__} like {self.default!r}, not {value!r}"
            )
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"option {name!r} must be at least {self.minimum}, not {value!r}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"option {name!r} must be at most {self.maximum}, not {value!r}")
        return value


# Options every game has (rulings.md: "Time").
COMMON_OPTIONS: dict[str, Option] = {
    "grace_s": Option(0.15, "grace window for the camera's blind time between frames, seconds", 0, 2),
    "settle_s": Option(
        0.3, "how far behind the live clock timed verdicts fire, so late camera frames count", 0, 5
    ),
}


def resolve_options(declared: dict[str, Option], given: dict[str, Any] | None) -> dict[str, Any]:
    """Defaults overlaid with the given options; unknown names are an error listing the known."""
    out = {name: opt.default for name, opt in declared.items()}
    for name, value in (given or {}).items():
        opt = declared.get(name)
        if opt is None:
            known = ", ".join(sorted(declared))
            raise OptionError(f"unknown option {name!r}; this game's options: {known}")
        out[name] = opt.check(name, value)
    return out
