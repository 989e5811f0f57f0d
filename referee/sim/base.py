"""Simulated players for the random-table conformance test, the benchmarks and the demo.

A simulator keeps its OWN model of the table (it does not ask the rules core what is legal), so
its recount of the scores is an independent check of the core. It may use randomness: it lives
outside referee/rules and is seeded by the caller.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol

from referee.rules.events import Event
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
