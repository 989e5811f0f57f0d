"""The product's configuration: ONE TOML file, defaults in code, every option checked on load.

Every option is documented once, in docs/configuration.md (and shown with its default in
deploy/config.example.toml). A mistake in the file (bad TOML, an unknown key, a wrong type) is a
:class:`ConfigError` naming the file, the key and the fix: never a traceback.

>>> config = load_config(None)          # no file: all defaults
>>> config.web.port, config.table.seats, config.hardware.enabled
(8080, 4, False)
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from hardware.errors import WiringError
from hardware.wiring import WiringSpec, parse_wiring

DEFAULT_STORE_PATH = "~/.local/share/referee/matches.sqlite3"
CAMERA_SOURCES = ('"picamera"', '"usb:0"', '"file:PATH"', '"folder:DIR"', '"sim"')


class ConfigError(ValueError):
    """A mistake in the configuration file; the message names the file, the key and the fix."""

    def __init__(
        self, problem: str, *, path: Path | None = None, key: str | None = None, fix: str = ""
    ) -> None:
        self.path = path
        self.key = key
        self.problem = problem
        self.fix = fix
        where = str(path) if path is not None else "configuration"
        if key:
            where += f": {key}"
        message = f"{where}: {problem}"
        if fix:
            message += f"; {fix}"
        super().__init__(message)


@dataclass(frozen=True)
class TableConfig:
    """The physical table: the playing area the camera sees, and the seats around it."""

    width_mm: float = 1100.0
    height_mm: float = 900.0
    seats: int = 4


@dataclass(frozen=True)
class CameraConfig:
    """Where frames come from, and at what size and rate."""

    source: str = "picamera"
    width: int = 1280
    height: int = 720
    fps: int = 30
    hfov_deg: float = 66.0  # the lens's horizontal field of view: Wonky's block sizes need it

    @property
    def kind(self) -> str:
        """``picamera``, ``usb``, ``file``, ``folder`` or ``sim``."""
        return self.source.split(":", 1)[0]

    @property
    def argument(self) -> str:
        """What follows the colon: the USB index, the file or folder path ('' if none)."""
        return self.source.split(":", 1)[1] if ":" in self.source else ""


@dataclass(frozen=True)
class WebConfig:
    """The dashboard's address and admin PIN."""

    host: str = "0.0.0.0"
    port: int = 8080
    admin_pin: str = ""
    public_url: str = ""

    def app_config(self) -> dict[str, Any]:
        """The settings web.create_app takes (an empty PIN or URL becomes None: off/derived)."""
        return {"admin_pin": self.admin_pin or None, "public_url": self.public_url or None}


@dataclass(frozen=True)
class MatchConfig:
    """The game a new match starts with, and its options (checked by the game at match start)."""

    game: str = "wackee-six"
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StoreConfig:
    """Where finished and running matches are kept (SQLite)."""

    path: Path = field(default_factory=lambda: Path(DEFAULT_STORE_PATH).expanduser())


@dataclass(frozen=True)
class Config:
    """The whole configuration; ``source`` is the file it came from (None: defaults only)."""

    table: TableConfig = field(default_factory=TableConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    hardware: WiringSpec = field(default_factory=WiringSpec)
    web: WebConfig = field(default_factory=WebConfig)
    match: MatchConfig = field(default_factory=MatchConfig)
    store: StoreConfig = field(default_factory=StoreConfig)
    source: Path | None = None


SECTIONS = ("table", "camera", "hardware", "web", "match", "store")


def load_config(path: Path | str | None) -> Config:
    """Read ``path`` (TOML) over the defaults; ``None`` gives the defaults alone."""
    if path is None:
        return Config()
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise ConfigError(
            "file not found",
            path=path,
            fix="copy deploy/config.example.toml there, or leave out --config to use the defaults",
        ) from None
    except IsADirectoryError:
        raise ConfigError(
            "is a folder, not a TOML file", path=path, fix="name the .toml file"
        ) from None
    except PermissionError:
        raise ConfigError(
            "cannot be read (permission denied)",
            path=path,
            fix="make it readable by the referee user (chmod 640, group referee)",
        ) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"is not UTF-8 text (byte {exc.start})", path=path, fix="save the file as UTF-8"
        ) from None
    return parse_config(text, path=path)


def parse_config(text: str, *, path: Path | None = None) -> Config:
    """Parse TOML text into a :class:`Config` (``path`` is used in messages and relative paths)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _toml_error(exc, text, path) from None
    return _build(data, path)


def _toml_error(exc: tomllib.TOMLDecodeError, text: str, path: Path | None) -> ConfigError:
    message = str(exc)
    match = re.search(r"\(at line (\d+), column (\d+)\)", message)
    line_no = getattr(exc, "lineno", None) or (int(match.group(1)) if match else None)
    problem = re.sub(r"\s*\(at line \d+, column \d+\)", "", message) or "invalid TOML"
    if line_no is None:
        return ConfigError(f"not valid TOML: {problem}", path=path, fix="check the file's syntax")
    lines = text.splitlines()
    shown = lines[line_no - 1].strip() if 0 < line_no <= len(lines) else ""
    return ConfigError(
        f"line {line_no}: not valid TOML: {problem}" + (f" in `{shown}`" if shown else ""),
        path=path,
        fix='check that line: key = value, strings in "quotes", [section] headers',
    )


def _build(data: dict[str, Any], path: Path | None) -> Config:
    for name in data:
        if name not in SECTIONS:
            raise _unknown(name, SECTIONS, path, "section")
        if not isinstance(data[name], dict):
            raise ConfigError(
                f"must be a [{name}] section, not a single value",
                path=path,
                key=name,
                fix=f"write it as a [{name}] header followed by its options",
            )
    table = _table(data.get("table", {}), path)
    return Config(
        table=table,
        camera=_camera(data.get("camera", {}), path),
        hardware=_hardware(data.get("hardware", {}), table.seats, path),
        web=_web(data.get("web", {}), path),
        match=_match(data.get("match", {}), path),
        store=_store(data.get("store", {}), path),
        source=path,
    )


def _unknown(name: str, known: tuple[str, ...], path: Path | None, what: str) -> ConfigError:
    close = difflib.get_close_matches(name.rsplit(".", 1)[-1], known, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    return ConfigError(
        f"unknown {what}",
        path=path,
        key=name,
        fix=f"{hint}known {what}s: {', '.join(known)} (see docs/configuration.md)",
    )


class _Section:
    """Typed reads from one section; each error names ``section.key`` and the expected type."""

    def __init__(self, name: str, raw: Mapping[str, Any], cls: type, path: Path | None) -> None:
        self.name = name
        self.raw = raw
        self.path = path
        self.defaults = cls()
        known = tuple(f.name for f in fields(cls))
        for key in raw:
            if key not in known:
                raise _unknown(f"{name}.{key}", known, path, "option")

    def _error(self, key: str, problem: str, fix: str) -> ConfigError:
        return ConfigError(problem, path=self.path, key=f"{self.name}.{key}", fix=fix)

    def _get(self, key: str) -> Any:
        return self.raw.get(key, getattr(self.defaults, key))

    def integer(self, key: str, low: int, high: int) -> int:
        value = self._get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._error(
                key,
                f"must be a whole number, not {value!r}",
                f"write e.g. {key} = {getattr(self.defaults, key)}",
            )
        if not low <= value <= high:
            raise self._error(key, f"{value} is out of range", f"use {low}..{high}")
        return value

    def number(self, key: str, low: float, high: float) -> float:
        value = self._get(key)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self._error(
                key,
                f"must be a number, not {value!r}",
                f"write e.g. {key} = {getattr(self.defaults, key)}",
            )
        if not low <= value <= high:
            raise self._error(key, f"{value} is out of range", f"use {low:g}..{high:g}")
        return float(value)

    def string(self, key: str) -> str:
        value = self._get(key)
        if not isinstance(value, str):
            raise self._error(
                key, f"must be a string, not {value!r}", f'put it in quotes: {key} = "{value}"'
            )
        return value


def _table(raw: Mapping[str, Any], path: Path | None) -> TableConfig:
    s = _Section("table", raw, TableConfig, path)
    return TableConfig(
        width_mm=s.number("width_mm", 100, 5000),
        height_mm=s.number("height_mm", 100, 5000),
        seats=s.integer("seats", 2, 6),
    )


def _camera(raw: Mapping[str, Any], path: Path | None) -> CameraConfig:
    s = _Section("camera", raw, CameraConfig, path)
    source = s.string("source")
    kind, _, arg = source.partition(":")
    ok = (
        (source in ("picamera", "sim"))
        or (kind == "usb" and arg.isdigit())
        or (kind in ("file", "folder") and arg.strip() != "")
    )
    if not ok:
        raise ConfigError(
            f"{source!r} is not a camera source",
            path=path,
            key="camera.source",
            fix=f"use one of {', '.join(CAMERA_SOURCES)}",
        )
    return CameraConfig(
        source=source,
        width=s.integer("width", 160, 4608),
        height=s.integer("height", 120, 3456),
        fps=s.integer("fps", 1, 120),
        hfov_deg=s.number("hfov_deg", 20.0, 170.0),
    )


def _hardware(raw: Mapping[str, Any], seats: int, path: Path | None) -> WiringSpec:
    try:
        return parse_wiring(raw, seats=seats, prefix="hardware")
    except WiringError as exc:
        message = str(exc)
        problem = message[len(exc.key) + 2 :] if message.startswith(f"{exc.key}: ") else message
        if problem.startswith("unknown option"):
            raise _unknown(
                exc.key, tuple(WiringSpec.__dataclass_fields__), path, "option"
            ) from None
        raise ConfigError(
            problem, path=path, key=exc.key, fix="see docs/configuration.md, [hardware]"
        ) from None


def _web(raw: Mapping[str, Any], path: Path | None) -> WebConfig:
    s = _Section("web", raw, WebConfig, path)
    pin = s._get("admin_pin")
    if isinstance(pin, int) and not isinstance(pin, bool):
        pin = str(pin)  # admin_pin = 2468 is what people write
    if not isinstance(pin, str):
        raise s._error("admin_pin", f"must be a string, not {pin!r}", 'write admin_pin = "2468"')
    pin = pin.strip()
    if pin and not pin.isalnum():
        raise s._error(
            "admin_pin", "must be digits or letters only", 'write e.g. admin_pin = "2468"'
        )
    host = s.string("host")
    if not host:
        raise s._error(
            "host", "is empty", 'use "0.0.0.0" for every network, "127.0.0.1" for this machine'
        )
    return WebConfig(
        host=host,
        port=s.integer("port", 1, 65535),
        admin_pin=pin,
        public_url=s.string("public_url"),
    )


def _match(raw: Mapping[str, Any], path: Path | None) -> MatchConfig:
    from referee.rules.registry import game_names

    game = raw.get("game", MatchConfig.game)
    known = tuple(game_names())
    if not isinstance(game, str) or game not in known:
        raise ConfigError(
            f"unknown game {game!r}",
            path=path,
            key="match.game",
            fix=f"use one of {', '.join(repr(g) for g in known)}",
        )
    if "options" in raw:
        raise ConfigError(
            "options go directly in [match]",
            path=path,
            key="match.options",
            fix="write e.g. target_score = 100 under [match], not an options table",
        )
    options = {k: v for k, v in raw.items() if k != "game"}
    return MatchConfig(game=game, options=options)


def _store(raw: Mapping[str, Any], path: Path | None) -> StoreConfig:
    s = _Section("store", raw, StoreConfig, path)
    value = s._get("path")
    if isinstance(value, Path):
        return StoreConfig(path=value)
    if not isinstance(value, str) or not value.strip():
        raise s._error(
            "path",
            f"must be a file path in quotes, not {value!r}",
            f'write path = "{DEFAULT_STORE_PATH}"',
        )
    store_path = Path(value).expanduser()
    if not store_path.is_absolute() and path is not None:
        store_path = path.parent / store_path  # relative to the config file, not the cwd
    return StoreConfig(path=store_path)
