"""Simulated players for the random-table conformance test, the benchmarks and the demo.

A simulator keeps its OWN model of the table (it does not ask the rules core what is legal), so
its recount of the scores is an independent check of the core. It may use randomness: it lives
outside referee/rules and is seeded by the caller.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol

from referee.rules.events import CardPlaced, CardTakenBack, Event
from referee.rules.match import MatchHeader


@dataclass
class SimOutcome:
    """What the simulator believes happened, counted by itself."""

    totals: dict[int, int]  # seat -> match total score
    rounds: list[dict[int, int]] = field(default_factory=list)  # per round: seat -> points
    # event index -> the ruling the simulator intended ("legal", "illegal", "late"), for the
    # events it is sure of; the conformance test checks the core agrees.
    intended: dict[int, str] = field(default_factory=dict)


class TableSimulator(Protocol):
    header: MatchHeader

    def events(self) -> Iterator[Event]:
        """Yield the table's events in log order (times non-decreasing up to camera reorder)."""
        ...

    def outcome(self) -> SimOutcome:
        """Call after events() is exhausted."""
        ...


# What the camera reports: it reaches the referee a little after it happened.
CAMERA_EVENTS = (CardPlaced, CardTakenBack)
Recorded = tuple[float, int, Event, "str | None"]  # (t, sequence, event, intended ruling)


def in_arrival_order(recorded: list[Recorded], rng: random.Random,
                     outcome: SimOutcome) -> Iterator[Event]:
    """The events as the referee receives them: camera observations in capture order, each 30 to
    120 ms late; presses and dashboard entries at once. Records the intended rulings by the
    arrival index in ``outcome``."""
    recorded = sorted(recorded, key=lambda x: (x[0], x[1]))
    arrivals: list[Recorded] = []
    cam = 0.0
    for t0, seq, ev, want in recorded:
        if isinstance(ev, CAMERA_EVENTS):
            cam = max(cam, t0 + rng.uniform(0.03, 0.12))
            arrivals.append((cam, seq, ev, want))
        else:
            arrivals.append((t0, seq, ev, want))
    arrivals.sort(key=lambda x: (x[0], x[1]))
    for i, (_a, _s, ev, want) in enumerate(arrivals):
        if want is not None:
            outcome.intended[i] = want
        yield ev


class SeriesSimulator:
    """Plumbing shared by simulators of games won outright, played as a series (first to
    ``games_to_win``): the event list, the intended rulings, the clock, the series and recount.
    Subclasses set ``n``, ``games_to_win`` and ``rng`` and play one game in ``_game``."""

    TICK = (0.3, 1.4)  # seconds between two actions at the table
    MAX_GAMES = 60
    n: int
    games_to_win: int
    rng: random.Random

    def __init__(self) -> None:
        self.out: list[Event] = []
        self.intended: dict[int, str] = {}
        self.rounds: list[dict[int, int]] = []
        self.t = 0.0

    def _emit(self, ev: Event, want: str | None = None) -> None:
        if want is not None:
            self.intended[len(self.out)] = want
        self.out.append(ev)

    def _tick(self, lo: float | None = None, hi: float | None = None) -> float:
        self.t = round(self.t + self.rng.uniform(lo if lo is not None else self.TICK[0],
                                                 hi if hi is not None else self.TICK[1]), 3)
        return self.t

    def _game(self, number: int) -> int | None:
        """Play one game; return its winner (None: nobody won it)."""
        raise NotImplementedError

    def events(self) -> Iterator[Event]:
        wins = {s: 0 for s in range(1, self.n + 1)}
        games = 0
        while max(wins.values()) < self.games_to_win and games < self.MAX_GAMES:
            games += 1
            winner = self._game(games)
            if winner is not None:
                wins[winner] += 1
                self.rounds.append({s: int(s == winner) for s in wins})
        yield from self.out

    def outcome(self) -> SimOutcome:
        totals = {s: 0 for s in range(1, self.n + 1)}
        for r in self.rounds:
            for s, p in r.items():
                totals[s] += p
        return SimOutcome(totals, list(self.rounds), dict(self.intended))
