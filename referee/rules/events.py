"""The table events: everything a sensor or a person reports, on one monotonic clock.

Every event is a small frozen value with its time ``t`` in seconds. The table log stores each
one as a JSON object with a ``kind``; :func:`event_from_dict` reads it back and checks it, so a
malformed line gives one clear message instead of a traceback.

>>> e = event_from_dict({"t": 1.5, "kind": "card", "seat": 2, "card": "R1", "to": "pile:1",
...                      "from": "row:2:3"})
>>> e.to.area, e.source.index
('pile', 3)
>>> event_from_dict(e.to_dict()) == e
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .errors import EventError
from .places import Place


@dataclass(frozen=True, slots=True)
class Event:
    t: float
    kind: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": self.t, "kind": self.kind}
        for name, (key, _conv, _req) in _FIELDS[type(self)].items():
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, Place):
                value = str(value)
            elif isinstance(value, tuple):
                value = list(value)
            out[key] = value
        return out


@dataclass(frozen=True, slots=True)
class Deal(Event):
    """The deal as laid out on the table at a round's start.

    ``layout`` maps a place to the face-up cards seen there (``row:1:1`` -> ("R5",),
    ``pile:1`` -> ("C3", "C3"), ``up:2`` -> ("9",)); ``counts`` maps a place to a number of cards
    that are face down or in hand (``reserve:1`` -> 6, ``hand:3`` -> 7, ``stack:2`` -> 7).
    """

    layout: dict[str, tuple[str, ...]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    dealer: int | None = None
    kind: ClassVar[str] = "deal"


@dataclass(frozen=True, slots=True)
class RoundStart(Event):
    """The "go": play starts (said on the dashboard or by a pad)."""

    seat: int | None = None
    kind: ClassVar[str] = "round_start"


@dataclass(frozen=True, slots=True)
class RoundStop(Event):
    """The round is stopped from the dashboard (e.g. no playable card left)."""

    reason: str = ""
    kind: ClassVar[str] = "round_stop"


@dataclass(frozen=True, slots=True)
class CardPlaced(Event):
    """A card came to rest at ``to``; ``source`` is where it left (None: unseen)."""

    seat: int | None = None
    card: str = ""
    to: Place = Place("unseen")
    source: Place | None = None
    kind: ClassVar[str] = "card"


@dataclass(frozen=True, slots=True)
class CardRevealed(Event):
    """A card face appeared in a seat zone: a waste top, a row refill, a new UP card."""

    seat: int | None = None
    card: str = ""
    at: Place = Place("unseen")
    kind: ClassVar[str] = "reveal"


@dataclass(frozen=True, slots=True)
class CardTakenBack(Event):
    """A card was lifted off ``at`` (a take-back, or a capped pile cleared)."""

    seat: int | None = None
    card: str = ""
    at: Place = Place("unseen")
    kind: ClassVar[str] = "take_back"


@dataclass(frozen=True, slots=True)
class PadPress(Event):
    """A seat's slap pad was pressed; ``t`` is the edge time."""

    seat: int = 0
    kind: ClassVar[str] = "press"


@dataclass(frozen=True, slots=True)
class Tilt(Event):
    """The tilt sensor under the tower tipped or shook."""

    magnitude: float | None = None
    kind: ClassVar[str] = "tilt"


@dataclass(frozen=True, slots=True)
class BlockAdded(Event):
    """A block came to rest on top of the tower (seen from above)."""

    seat: int | None = None
    colour: str = ""
    size: str = ""
    kind: ClassVar[str] = "block"


@dataclass(frozen=True, slots=True)
class TowerFell(Event):
    """The camera saw the tower lose blocks; ``blocks_left`` still standing."""

    blocks_left: int = 0
    kind: ClassVar[str] = "tower_fell"


@dataclass(frozen=True, slots=True)
class TurnEnd(Event):
    """A seat ends its turn (its pad or the dashboard)."""

    seat: int = 0
    kind: ClassVar[str] = "turn_end"


@dataclass(frozen=True, slots=True)
class ManualEntry(Event):
    """Something only the players know, entered on the dashboard.

    ``action`` is one of the game's manual actions (e.g. ``hand_count``, ``confirm``,
    ``tie_round``, ``give_card``) or a correction handled by the match (``void``, ``amend``).
    """

    action: str = ""
    seat: int | None = None
    value: Any = None
    kind: ClassVar[str] = "manual"


@dataclass(frozen=True, slots=True)
class Clock(Event):
    """The table's clock passed ``t``: verdicts whose deadline is due now fire."""

    kind: ClassVar[str] = "clock"


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        Deal,
        RoundStart,
        RoundStop,
        CardPlaced,
        CardRevealed,
        CardTakenBack,
        PadPress,
        Tilt,
        BlockAdded,
        TowerFell,
        TurnEnd,
        ManualEntry,
        Clock,
    )
}


# --- reading and checking -------------------------------------------------------------------


def _seat(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise EventError(f"a seat must be a whole number 1 or more, not {value!r}")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise EventError(f"expected non-empty text, not {value!r}")
    return value


def _any_text(value: Any) -> str:
    if not isinstance(value, str):
        raise EventError(f"expected text, not {value!r}")
    return value


def _place(value: Any) -> Place:
    return Place.parse(value)


def _count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise EventError(f"expected a whole number 0 or more, not {value!r}")
    return value


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise EventError(f"expected a number, not {value!r}")
    return float(value)


def _json(value: Any) -> Any:
    return value


def _layout(value: Any) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict):
        raise EventError("'layout' must map places to lists of cards")
    out: dict[str, tuple[str, ...]] = {}
    for key, cards in value.items():
        Place.parse(key)
        if not isinstance(cards, list | tuple) or not all(isinstance(c, str) and c for c in cards):
            raise EventError(f"layout place {key!r} must list card codes")
        out[key] = tuple(cards)
    return out


def _counts(value: Any) -> dict[str, int]:
    if not isinstance(value, dict):
        raise EventError("'counts' must map places to numbers of cards")
    out: dict[str, int] = {}
    for key, n in value.items():
        Place.parse(key)
        out[key] = _count(n)
    return out


# Per event type: attribute -> (JSON key, converter, required)
_FIELDS: dict[type[Event], dict[str, tuple[str, Any, bool]]] = {
    Deal: {
        "layout": ("layout", _layout, False),
        "counts": ("counts", _counts, False),
        "dealer": ("dealer", _seat, False),
    },
    RoundStart: {"seat": ("seat", _seat, False)},
    RoundStop: {"reason": ("reason", _any_text, False)},
    CardPlaced: {
        "seat": ("seat", _seat, False),
        "card": ("card", _text, True),
        "to": ("to", _place, True),
        "source": ("from", _place, False),
    },
    CardRevealed: {
        "seat": ("seat", _seat, False),
        "card": ("card", _text, True),
        "at": ("at", _place, True),
    },
    CardTakenBack: {
        "seat": ("seat", _seat, False),
        "card": ("card", _text, True),
        "at": ("at", _place, True),
    },
    PadPress: {"seat": ("seat", _seat, True)},
    Tilt: {"magnitude": ("magnitude", _number, False)},
    BlockAdded: {
        "seat": ("seat", _seat, False),
        "colour": ("colour", _text, True),
        "size": ("size", _text, True),
    },
    TowerFell: {"blocks_left": ("blocks_left", _count, False)},
    TurnEnd: {"seat": ("seat", _seat, True)},
    ManualEntry: {
        "action": ("action", _text, True),
        "seat": ("seat", _seat, False),
        "value": ("value", _json, False),
    },
    Clock: {},
}
_KEYS: dict[type[Event], dict[str, tuple[str, Any, bool]]] = {
    cls: {key: (attr, conv, req) for attr, (key, conv, req) in spec.items()}
    for cls, spec in _FIELDS.items()
}

_SPECS: dict[type[Event], tuple[tuple[str, str, Any, bool], ...]] = {
    cls: tuple((key, attr, conv, req) for attr, (key, conv, req) in spec.items())
    for cls, spec in _FIELDS.items()
}


def event_from_dict(data: Any) -> Event:
    """Build and check an event from its JSON form; raise EventError saying what is wrong."""
    if not isinstance(data, dict):
        raise EventError("an event must be a JSON object")
    kind = data.get("kind")
    cls = EVENT_TYPES.get(kind)  # type: ignore[arg-type]
    if cls is None:
        known = ", ".join(EVENT_TYPES)
        raise EventError(f"unknown event kind {kind!r}; known kinds: {known}")
    t = data.get("t")
    if isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t) or t < 0:
        raise EventError(f"'{kind}' event: 't' must be a time in seconds, 0 or more, not {t!r}")
    kwargs: dict[str, Any] = {}
    seen = 2
    for key, attr, conv, req in _SPECS[cls]:
        value = data.get(key)
        if value is None:
            if req:
                raise EventError(f"'{kind}' event is missing the field {key!r}")
            seen += key in data
            continue
        seen += 1
        try:
            kwargs[attr] = conv(value)
        except EventError as err:
            raise EventError(f"'{kind}' event, field {key!r}: {err}") from None
    if seen != len(data):
        keys = _KEYS[cls]
        unknown = next(k for k in data if k not in keys and k not in ("t", "kind"))
        allowed = ", ".join(["t", "kind", *keys])
        raise EventError(f"'{kind}' event has unknown field {unknown!r}; fields: {allowed}")
    return cls(t=float(t), **kwargs)
