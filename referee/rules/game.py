"""The base of every game: seats, options, timed deadlines, verdict helpers and scoring.

A game module subclasses :class:`Game`, declares its facts (name, seats, options), and overrides
the ``on_*`` hooks for the events it cares about. Hooks return a list of verdicts; an event a game
does not handle is answered "ignored". Time comes only from the events, never from a clock.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any, ClassVar

from .events import (
    BlockAdded,
    CardPlaced,
    CardRevealed,
    CardTakenBack,
    Deal,
    Event,
    ManualEntry,
    PadPress,
    RoundStart,
    RoundStop,
    Tilt,
    TowerFell,
    TurnEnd,
)
from .options import COMMON_OPTIONS, Option, resolve_options
from .verdicts import IGNORED, ILLEGAL, INFO, LATE, LEGAL, PENALTY, TAKE_BACK, Verdict


@dataclass(frozen=True)
class Seat:
    number: int
    name: str
    colour: str

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.number, "name": self.name, "colour": self.colour}


class Game:
    """One round-based match of one game. Subclasses override the hooks below."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 6
    turn_based: ClassVar[bool] = False
    game_options: ClassVar[dict[str, Option]] = {}
    # Manual dashboard actions this game understands: action -> what it means.
    manual_actions: ClassVar[dict[str, str]] = {}

    def __init__(self, seats: tuple[Seat, ...], options: dict[str, Any] | None = None) -> None:
        self.seats = seats
        self.seat_numbers = tuple(s.number for s in seats)
        self._names = {s.number: s.name for s in seats}
        self.opts = resolve_options(self.all_options(), options)
        self.grace = float(self.opts["grace_s"])
        self.round = 0
        self.round_scores: list[dict[int, int]] = []
        self.over = False
        self.winner: int | None = None
        self.event_index: int | None = None  # set by the match before each hook
        # Cards ruled illegal or late that the table owes the referee a take-back of:
        # (place, card) -> how many. Their take_back events are then legal "took back".
        self.owed_take_backs: dict[tuple[str, str], int] = {}
        self._deadlines: list[tuple[float, int, str]] = []
        self._payloads: dict[str, tuple[float, int, Any]] = {}
        self._dseq = 0

    @classmethod
    def all_options(cls) -> dict[str, Option]:
        return {**COMMON_OPTIONS, **cls.game_options}

    @classmethod
    def describe(cls) -> dict[str, Any]:
        return {
            "name": cls.name,
            "title": cls.title,
            "seats": [cls.min_seats, cls.max_seats],
            "turn_based": cls.turn_based,
            "options": {
                k: {"default": o.default, "help": o.help} for k, o in cls.all_options().items()
            },
            "manual_actions": dict(cls.manual_actions),
        }

    # --- dispatch --------------------------------------------------------------------------

    def apply(self, event: Event, index: int | None) -> list[Verdict]:
        self.event_index = index
        hook = _HOOKS.get(type(event))
        if hook is None:
            return []
        return getattr(self, hook)(event)

    # Hooks: the default answers "ignored" so every event gets a verdict.
    def on_deal(self, e: Deal) -> list[Verdict]:
        return [self.ignored(e, None, "a deal has no meaning here")]

    def on_round_start(self, e: RoundStart) -> list[Verdict]:
        return [self.ignored(e, e.seat, "a round start has no meaning here")]

    def on_round_stop(self, e: RoundStop) -> list[Verdict]:
        return [self.ignored(e, None, "a round stop has no meaning here")]

    def on_card(self, e: CardPlaced) -> list[Verdict]:
        return [self.ignored(e, e.seat, f"a {e.card} at {e.to} has no meaning in {self.title}")]

    def on_reveal(self, e: CardRevealed) -> list[Verdict]:
        return [self.ignored(e, e.seat, f"a {e.card} shown at {e.at} has no meaning here")]

    def on_take_back(self, e: CardTakenBack) -> list[Verdict]:
        return [self.ignored(e, e.seat, f"taking back a {e.card} has no meaning here")]

    def on_press(self, e: PadPress) -> list[Verdict]:
        return [self.ignored(e, e.seat, f"a pad press has no meaning in {self.title}")]

    def on_tilt(self, e: Tilt) -> list[Verdict]:
        return [self.ignored(e, None, f"a tilt has no meaning in {self.title}")]

    def on_block(self, e: BlockAdded) -> list[Verdict]:
        return [self.ignored(e, e.seat, f"a block has no meaning in {self.title}")]

    def on_tower_fell(self, e: TowerFell) -> list[Verdict]:
        return [self.ignored(e, None, f"a tower has no meaning in {self.title}")]

    def on_turn_end(self, e: TurnEnd) -> list[Verdict]:
        return [self.ignored(e, e.seat, f"turns have no meaning in {self.title}")]

    def on_manual(self, e: ManualEntry) -> list[Verdict]:
        known = ", ".join(self.manual_actions) or "none"
        return [self.ignored(e, e.seat, f"unknown dashboard entry {e.action!r}; known: {known}")]

    def on_deadline(self, key: str, payload: Any, t: float) -> list[Verdict]:
        return []

    def force_legal(self, e: Event) -> list[Verdict] | None:
        """Apply ``e`` as if legal (an admin overruled an 'illegal'); None: not supported."""
        return None

    # --- what the dashboard shows ----------------------------------------------------------

    def turn(self) -> int | None:
        return None

    def status(self) -> dict[str, Any]:
        """Game-specific state for the dashboard (piles, counts per seat...)."""
        return {}

    def standings(self) -> dict[str, Any]:
        totals = {s: 0 for s in self.seat_numbers}
        for scores in self.round_scores:
            for seat, pts in scores.items():
                totals[seat] += pts
        return {
            "rounds": [dict(r) for r in self.round_scores],
            "totals": totals,
            "winner": self.winner,
            "over": self.over,
        }

    # --- deadlines (verdicts that come from time passing) ----------------------------------

    def schedule(self, key: str, t: float, payload: Any = None) -> None:
        """Call on_deadline(key, payload, t) once the clock passes t (replaces an older one)."""
        self._dseq += 1
        self._payloads[key] = (t, self._dseq, payload)
        heapq.heappush(self._deadlines, (t, self._dseq, key))

    def cancel(self, key: str) -> None:
        self._payloads.pop(key, None)

    def pending(self, key: str) -> bool:
        return key in self._payloads

    def next_deadline(self) -> float | None:
        while self._deadlines:
            t, seq, key = self._deadlines[0]
            live = self._payloads.get(key)
            if live is not None and live[1] == seq:
                return t
            heapq.heappop(self._deadlines)
        return None

    def fire_due(self, upto: float) -> list[Verdict]:
        out: list[Verdict] = []
        self.event_index = None
        while True:
            t = self.next_deadline()
            if t is None or t > upto:
                return out
            _t, _seq, key = heapq.heappop(self._deadlines)
            _dt, _dseq, payload = self._payloads.pop(key)
            out.extend(self.on_deadline(key, payload, t))

    def cancel_all(self) -> None:
        self._deadlines.clear()
        self._payloads.clear()

    # --- verdict helpers -------------------------------------------------------------------

    def who(self, seat: int | None) -> str:
        if seat is None:
            return "Table"
        return self._names.get(seat) or f"Seat {seat}"

    def _verdict(
        self,
        t: float,
        ruling: str,
        seat: int | None,
        text: str,
        reason: str | None = None,
        consequence: str | None = None,
        card: str | None = None,
        place: str | None = None,
        points: int = 0,
    ) -> Verdict:
        return Verdict(
            t,
            ruling,
            seat,
            f"{self.who(seat)}: {text}",
            reason,
            consequence,
            self.event_index,
            card,
            place,
            points,
        )

    def legal(self, e: Event, seat: int | None, text: str, **kw: Any) -> Verdict:
        return self._verdict(e.t, LEGAL, seat, text, **kw)

    def illegal(
        self, e: Event, seat: int | None, reason: str, text: str, consequence: str | None = TAKE_BACK,
        **kw: Any,
    ) -> Verdict:
        return self._verdict(e.t, ILLEGAL, seat, text, reason, consequence, **kw)

    def late(self, e: Event, seat: int | None, text: str, **kw: Any) -> Verdict:
        return self._verdict(e.t, LATE, seat, text, "late", TAKE_BACK, **kw)

    def ignored(self, e: Event, seat: int | None, text: str, **kw: Any) -> Verdict:
        return self._verdict(e.t, IGNORED, seat, text, **kw)

    def info(self, t: float, seat: int | None, text: str, **kw: Any) -> Verdict:
        return self._verdict(t, INFO, seat, text, **kw)

    def penalty(self, e: Event, seat: int, reason: str, text: str, points: int) -> Verdict:
        """An illegal press or call: the buzz, and the points penalty the options set (often 0)."""
        if points:
            return self._verdict(
                e.t, ILLEGAL, seat, f"{text} ({points:+d} points)", reason, PENALTY,
                points=points,
            )
        return self._verdict(e.t, ILLEGAL, seat, text, reason, None)

    # --- take-backs the referee asked for ----------------------------------------------------

    def owe_take_back(self, place: str, card: str) -> None:
        key = (place, card)
        self.owed_take_backs[key] = self.owed_take_backs.get(key, 0) + 1

    def settle_take_back(self, place: str, card: str) -> bool:
        """True (and one fewer owed) if this card at this place was to be taken back."""
        key = (place, card)
        n = self.owed_take_backs.get(key)
        if not n:
            return False
        if n == 1:
            del self.owed_take_backs[key]
        else:
            self.owed_take_backs[key] = n - 1
        return True

    # --- rounds ----------------------------------------------------------------------------

    def end_round(self, scores: dict[int, int]) -> None:
        """Record one round's scores (every seat present)."""
        self.round_scores.append({s: int(scores.get(s, 0)) for s in self.seat_numbers})


_HOOKS: dict[type[Event], str] = {
    Deal: "on_deal",
    RoundStart: "on_round_start",
    RoundStop: "on_round_stop",
    CardPlaced: "on_card",
    CardRevealed: "on_reveal",
    CardTakenBack: "on_take_back",
    PadPress: "on_press",
    Tilt: "on_tilt",
    BlockAdded: "on_block",
    TowerFell: "on_tower_fell",
    TurnEnd: "on_turn_end",
    ManualEntry: "on_manual",
}
