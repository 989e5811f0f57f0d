"""Shared fixtures: a tiny game for testing the framework and the table service alone."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest
from gpiozero import Device
from gpiozero.pins import mock as gpiozero_mock
from gpiozero.pins.mock import MockFactory

from referee.rules import CardPlaced, PadPress, RoundStop, Seat, TurnEnd
from referee.rules.game import Game
from referee.rules.options import Option
from referee.rules.verdicts import Verdict

MAX_WORKERS = 4  # a worker holds up to 1.5 GB (the vision tests' rendered games)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """For "-n auto": a worker per core this process may use, at most MAX_WORKERS, so that a
    many-core machine with little memory per core does not run out of it."""
    return max(1, min(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                      else (os.cpu_count() or 1), MAX_WORKERS))


class Echo(Game):
    """Press opens a deadline that a card by the same seat cancels; 'BAD' cards are illegal;
    a press is a legal call once the seat played 3 cards, which ends the round."""

    name = "echo"
    title = "Echo"
    game_options: ClassVar[dict[str, Option]] = {"window_s": Option(1.0, "deadline")}

    def __init__(self, seats: tuple[Seat, ...], options: dict[str, Any] | None = None) -> None:
        super().__init__(seats, options)
        self.played: dict[int, int] = {s: 0 for s in self.seat_numbers}

    def on_press(self, e: PadPress) -> list[Verdict]:
        if self.played.get(e.seat, 0) >= 3:
            self.end_round(dict(self.played))
            return [self.legal(e, e.seat, "call accepted")]
        self.schedule(f"press{e.seat}", e.t + self.opts["window_s"], e.seat)
        return [self.penalty(e, e.seat, "false-call", "false call", 0)]

    def on_card(self, e: CardPlaced) -> list[Verdict]:
        self.cancel(f"press{e.seat}")
        if e.card == "BAD":
            return [self.illegal(e, e.seat, "bad", f"take back the {e.card}")]
        if e.seat in self.played:
            self.played[e.seat] += 1
        return [self.legal(e, e.seat, f"played {e.card}")]

    def on_turn_end(self, e: TurnEnd) -> list[Verdict]:
        return [self.legal(e, e.seat, "turn over")]

    def on_round_stop(self, e: RoundStop) -> list[Verdict]:
        return [self.info(e.t, None, "stopped")]

    def force_legal(self, e: Any) -> list[Verdict] | None:
        return [self.legal(e, e.seat, "allowed by the referee")]

    def on_deadline(self, key: str, payload: Any, t: float) -> list[Verdict]:
        return [self._verdict(t, "illegal", payload, "no card followed the press", "timeout")]


@pytest.fixture
def echo_game(monkeypatch: pytest.MonkeyPatch) -> type[Game]:
    """Makes the game name 'echo' findable by the match and the table service."""
    import referee.rules.match as match_module
    import referee.table as table_module

    real = match_module.find_game

    def find(name: str) -> type[Game]:
        return Echo if name == "echo" else real(name)

    monkeypatch.setattr(match_module, "find_game", find)
    monkeypatch.setattr(table_module, "find_game", find)
    return Echo


class FakeClock:
    """Seconds that move only when the test says so."""

    def __init__(self, start: float = 50.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """One fake clock for the code under test *and* the mock pins' edge ticks."""
    fake = FakeClock()
    monkeypatch.setattr(gpiozero_mock, "monotonic", fake)
    return fake


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    """gpiozero's mock pins as the default pin factory for one test (with the `clock` fixture
    too, the pins' edge ticks come from the fake clock)."""
    saved = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved
