"""A match: one game, its seats and options, and the ordered log of events that it judged.

The match is the replayable unit: feeding the same events in the same order always gives the
same verdicts and scores. Time-based verdicts fire on :class:`Clock` events, and also when an
event arrives more than ``settle_s`` after a deadline, so a log replays exactly as it was lived.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import EventError, OptionError, RefereeError
from .events import Clock, Event, ManualEntry, RoundStop, event_from_dict
from .game import Game, Seat
from .registry import find_game
from .verdicts import IGNORED, INFO, Verdict

LOG_FORMAT = "referee-table-log"
LOG_VERSION = 1

# Corrections the match itself handles by re-judging the whole log.
CORRECTIONS = {
    "void": "the event at index value.event never happened (a misread); re-judge",
    "amend": "replace the event at index value.event by value.with; re-judge",
    "overrule": "judge the event at value.event as value.ruling ('legal' or 'illegal'); re-judge",
}


@dataclass(frozen=True)
class MatchHeader:
    game: str
    seats: tuple[Seat, ...]
    options: dict[str, Any] = field(default_factory=dict)
    version: int = LOG_VERSION

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": LOG_FORMAT,
            "version": self.version,
            "game": self.game,
            "seats": [s.to_dict() for s in self.seats],
            "options": dict(self.options),
        }

    @classmethod
    def from_dict(cls, data: Any) -> MatchHeader:
        if not isinstance(data, dict):
            raise RefereeError("the header must be a JSON object")
        if data.get("format") != LOG_FORMAT:
            raise RefereeError(f"not a table log: the header's 'format' must be {LOG_FORMAT!r}")
        version = data.get("version")
        if version != LOG_VERSION:
            raise RefereeError(
                f"table log version {version!r} is not supported; this referee reads version "
                f"{LOG_VERSION}"
            )
        game = data.get("game")
        if not isinstance(game, str):
            raise RefereeError("the header needs 'game', the game's name")
        raw_seats = data.get("seats")
        if not isinstance(raw_seats, list) or not raw_seats:
            raise RefereeError("the header needs 'seats': a list of {seat, name, colour}")
        seats = []
        for i, s in enumerate(raw_seats, start=1):
            if not isinstance(s, dict):
                raise RefereeError(f"seat {i} in the header must be an object")
            number = s.get("seat", i)
            if number != i:
                raise RefereeError(f"seats must be numbered 1..N in order; entry {i} says {number}")
            name = s.get("name") or f"Seat {i}"
            colour = s.get("colour") or ""
            if not isinstance(name, str) or not isinstance(colour, str):
                raise RefereeError(f"seat {i}: 'name' and 'colour' must be text")
            seats.append(Seat(i, name, colour))
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise RefereeError("the header's 'options' must be an object")
        unknown = set(data) - {"format", "version", "game", "seats", "options", "started"}
        if unknown:
            raise RefereeError(f"unknown header field(s): {', '.join(sorted(unknown))}")
        return cls(game, tuple(seats), dict(options), version)


def new_game(header: MatchHeader) -> Game:
    cls = find_game(header.game)
    n = len(header.seats)
    if not cls.min_seats <= n <= cls.max_seats:
        raise OptionError(
            f"{cls.title} is for {cls.min_seats} to {cls.max_seats} seats, not {n}"
        )
    return cls(header.seats, header.options)


class Match:
    """Judges events in order. ``apply`` returns the verdicts that the event caused."""

    def __init__(self, header: MatchHeader) -> None:
        self.header = header
        self.game = new_game(header)
        self.settle = float(self.game.opts["settle_s"])
        self.events: list[Event] = []
        self.verdicts: list[Verdict] = []
        # Corrections so far: event index -> replacement (None: voided; "legal"/"illegal")
        self._amended: dict[int, Event | None] = {}
        self._overruled: dict[int, str] = {}

    @property
    def last_t(self) -> float:
        return self.events[-1].t if self.events else 0.0

    def apply(self, event: Event) -> list[Verdict]:
        index = len(self.events)
        self.events.append(event)
        if isinstance(event, ManualEntry) and event.action in CORRECTIONS:
            out = self._correct(event, index)
        else:
            out = self._judge(self.game, event, index, self._overruled.get(index))
        self.verdicts.extend(out)
        return out

    def clock_event(self, now: float) -> Clock | None:
        """For the live loop: a Clock to apply (and log) if a deadline is due at ``now``."""
        due = self.game.next_deadline()
        if due is not None and due <= now - self.settle:
            return Clock(now - self.settle)
        return None

    def _judge(self, game: Game, event: Event, index: int, overrule: str | None) -> list[Verdict]:
        if isinstance(event, Clock):
            return game.fire_due(event.t)
        out: list[Verdict] = []
        horizon = event.t if isinstance(event, RoundStop) else event.t - self.settle
        if game._deadlines:
            out = game.fire_due(horizon)
        if overrule == "illegal":
            game.event_index = index
            out.append(game.illegal(event, getattr(event, "seat", None), "overruled",
                                    "ruled illegal by the referee (take it back)"))
            return out
        if overrule == "legal":
            game.event_index = index
            forced = game.force_legal(event)
            if forced is not None:
                return out + forced
        mine = game.apply(event, index)
        if not mine:
            game.event_index = index
            mine = [game.ignored(event, getattr(event, "seat", None), "nothing to judge")]
        out.extend(mine)
        return out

    # --- corrections -----------------------------------------------------------------------

    def _correct(self, entry: ManualEntry, index: int) -> list[Verdict]:
        value = entry.value if isinstance(entry.value, dict) else {}
        target = value.get("event")
        g = self.game
        g.event_index = index
        if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < index:
            return [g.ignored(entry, entry.seat, f"correction needs value.event, an earlier "
                                                 f"event's index (0..{index - 1})")]
        original = self.events[target]
        if isinstance(original, ManualEntry) and original.action in CORRECTIONS:
            return [g.ignored(entry, entry.seat, "a correction cannot correct a correction")]
        if entry.action == "void":
            self._amended[target] = None
            what = f"event {target} ({original.kind}) struck out"
        elif entry.action == "amend":
            replacement_dict = value.get("with")
            if not isinstance(replacement_dict, dict):
                return [g.ignored(entry, entry.seat, "amend needs value.with, the corrected "
                                                     "event as an object")]
            try:
                replacement = event_from_dict({**replacement_dict, "t": original.t})
            except EventError as err:
                return [g.ignored(entry, entry.seat, f"amend: {err}")]
            self._amended[target] = replacement
            what = f"event {target} amended to {replacement.kind}"
        else:
            ruling = value.get("ruling")
            if ruling not in ("legal", "illegal"):
                return [g.ignored(entry, entry.seat, "overrule needs value.ruling: legal or illegal")]
            self._overruled[target] = ruling
            what = f"event {target} ({original.kind}) ruled {ruling}"
        self._rejudge(index)
        self.game.event_index = index
        note = self.game.info(entry.t, entry.seat, f"correction: {what}; the match was re-judged")
        return [note]

    def _rejudge(self, upto: int) -> None:
        """Judge events[0:upto] again from a fresh game, with the corrections applied."""
        game = new_game(self.header)
        verdicts: list[Verdict] = []
        for i, ev in enumerate(self.events[:upto]):
            if isinstance(ev, ManualEntry) and ev.action in CORRECTIONS:
                continue
            if i in self._amended:
                repl = self._amended[i]
                if repl is None:
                    continue
                ev = repl
            verdicts.extend(self._judge(game, ev, i, self._overruled.get(i)))
        self.game = game
        self.verdicts = verdicts

    # --- summaries -------------------------------------------------------------------------

    def standings(self) -> dict[str, Any]:
        return self.game.standings()

    def summary(self) -> dict[str, Any]:
        return {
            "game": self.header.game,
            "round": self.game.round,
            "turn": self.game.turn(),
            "standings": self.standings(),
            "status": self.game.status(),
        }


def ruling_counts(verdicts: list[Verdict]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for v in verdicts:
        counts[v.ruling] = counts.get(v.ruling, 0) + 1
    return counts


__all__ = ["Match", "MatchHeader", "LOG_FORMAT", "LOG_VERSION", "CORRECTIONS", "IGNORED", "INFO"]
