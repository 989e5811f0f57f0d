"""Simulated Slap Wacky table: players place shape cards at once, block, unblock and slap.

The simulator keeps its own table (groups of 4 position stacks, hands, deck) and decides each
move's ruling itself; it never asks the rules core. Blocks race slaps on the events' times with
the match's grace window: a block counts only at or before the slap minus grace. Camera events
reach the log a little after their capture time, in capture order; presses arrive at once.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterator
from typing import Any

from referee.rules.events import (
    CardPlaced,
    CardTakenBack,
    Clock,
    Deal,
    Event,
    ManualEntry,
    PadPress,
    RoundStart,
)
from referee.rules.match import MatchHeader
from referee.rules.options import resolve_options
from referee.rules.places import Place
from referee.rules.registry import find_game

from .base import SimOutcome, in_arrival_order

POINTS = {"W": 1, "F": 2}


def _value(code: str) -> int:
    if code == "BLOCK":
        return -2
    if code == "WILD":
        return 0
    return POINTS[code[-1]]


def _deck() -> list[str]:
    """72 shape cards (per pattern and position 2 wacky and 1 face), 6 WILD, 6 BLOCK."""
    cards = [f"P{p}-{q}{k}" for p in range(1, 7) for q in range(1, 5) for k in ("W", "W", "F")]
    return cards + ["WILD"] * 6 + ["BLOCK"] * 6


class _Group:
    def __init__(self, number: int, pattern: int) -> None:
        self.number = number
        self.pattern = pattern
        self.stacks: list[list[str]] = [[], [], [], []]
        self.owner: int | None = None
        self.press_t: float | None = None  # the owner's planned press
        self.done = False

    def top(self, q: int) -> str | None:
        s = self.stacks[q - 1]
        return s[-1] if s else None

    def visible(self, code: str) -> int:
        return sum(1 for s in self.stacks if s and s[-1] == code)

    def complete(self) -> bool:
        return all(s and s[-1] != "BLOCK" for s in self.stacks)


class Simulator:
    """Seeded Slap Wacky players. kw: ``mistakes`` (chance of an illegal move per action)."""

    def __init__(self, header: MatchHeader, seed: int, mistakes: float = 0.3) -> None:
        self.header = header
        self.rng = random.Random(seed)
        self.opts = resolve_options(find_game(header.game).all_options(), header.options)
        self.seats = [s.number for s in header.seats]
        self.mistakes = mistakes
        self.grace = float(self.opts["grace_s"])
        self._events: list[tuple[float, int, Event, str | None]] = []
        self._seq = 0
        self._outcome = SimOutcome(totals={s: 0 for s in self.seats})
        self.wins = {s: 0 for s in self.seats}
        # seat -> when a pattern it completed was last blocked: a press soon after would race it
        self.blocked_at: dict[int, float] = {}
        # seat -> its last press: no card of its own may complete a pattern within grace after
        self.last_press: dict[int, float] = {}

    def _emit(self, ev: Event, intended: str | None) -> None:
        self._seq += 1
        self._events.append((ev.t, self._seq, ev, intended))

    def events(self) -> Iterator[Event]:
        t = 2.0
        rounds = int(self.opts["rounds"])
        need = rounds // 2 + 1
        while True:
            t = self._round(t, len(self._outcome.rounds))
            best = max(self.wins.values())
            leaders = [s for s, w in self.wins.items() if w == best]
            if best >= need or (len(self._outcome.rounds) >= rounds and len(leaders) == 1):
                break
            if len(self._outcome.rounds) > 3 * rounds:
                break
        self._emit(Clock(t), None)
        yield from in_arrival_order(self._events, self.rng, self._outcome)

    def outcome(self) -> SimOutcome:
        return self._outcome

    # --- one round -------------------------------------------------------------------------

    def _t(self, x: float) -> float:
        return round(x, 3)

    def _round(self, t: float, r: int) -> float:
        rng = self.rng
        deck = _deck()
        rng.shuffle(deck)
        hands: dict[int, list[str]] = {s: [] for s in self.seats}
        for _ in range(5):
            for s in self.seats:
                hands[s].append(deck.pop())
                self._emit(CardPlaced(self._t(t), s, "?", Place("hand", s), Place("draw")), None)
                t += 0.1
        counts: dict[str, int] = {f"hand:{s}": 5 for s in self.seats}
        counts["draw"] = len(deck)
        self._emit(Deal(self._t(t), counts=counts, dealer=self.seats[r % len(self.seats)]), None)
        t += 2.0
        self._emit(RoundStart(self._t(t)), None)
        won = {s: 0 for s in self.seats}
        groups: dict[int, _Group] = {}  # active groups
        next_group = 1
        # heap of (time, order, kind, seat, data)
        todo: list[tuple[float, int, str, int, Any]] = []
        order = 0
        for s in self.seats:
            order += 1
            heapq.heappush(todo, (self._t(t + rng.uniform(0.3, 1.0)), order, "act", s, None))
        owes: dict[int, _Group] = {}  # seat -> complete group it will slap
        idle = 0
        now = t
        while todo:
            now, _o, kind, s, data = heapq.heappop(todo)
            if kind == "press":
                g: _Group = data
                owes.pop(s, None)
                self.last_press[s] = now
                if not (g.complete() and g.owner == s and g.press_t == now):
                    # Blocked before the slap (or a stale plan): a wrong slap.
                    bt = getattr(g, "block_t", -1.0)
                    sure = not g.complete() and 0 <= bt and bt + 0.13 < now
                    self._emit(PadPress(now, s), "illegal" if sure else None)
                else:
                    pts = sum(_value(c) for st in g.stacks for c in st)
                    won[s] += pts
                    g.done = True
                    del groups[g.number]
                    self._emit(PadPress(now, s), "legal")
                    tc = now + rng.uniform(0.6, 1.0)
                    for q in range(1, 5):
                        for c in reversed(g.stacks[q - 1]):
                            self._emit(CardTakenBack(self._t(tc), s, c,
                                                     Place("pattern", g.number, q)), "legal")
                            tc += 0.12
                continue
            if kind == "wait":
                continue
            hand = hands[s]
            order += 1
            moves = self._moves(s, hand, groups, owes, now)
            if rng.random() < self.mistakes and hand:
                if self._mistake(s, hand, groups, now, owes):
                    heapq.heappush(todo, (self._t(now + rng.uniform(1.0, 1.6)), order, "act", s,
                                          None))
                    continue
            if not moves:
                if deck and idle > len(self.seats):
                    hand.append(deck.pop())  # no one can play: everyone draws one more
                    self._emit(CardPlaced(now, s, "?", Place("hand", s), Place("draw")), "legal")
                    idle = 0
                idle += 1
                if not deck and idle > 3 * len(self.seats) and not owes:
                    break
                heapq.heappush(todo, (self._t(now + rng.uniform(0.5, 1.2)), order, "act", s, None))
                continue
            idle = 0
            code, g, q = self._choose(moves)
            hand.remove(code)
            if g is None:
                g = _Group(next_group, int(code[1]))
                next_group += 1
                groups[g.number] = g
            place = Place("pattern", g.number, q)
            late = False
            if code == "BLOCK" and g.press_t is not None:
                late = now > g.press_t - self.grace
            if late:
                assert g.press_t is not None
                want = "late" if now > g.press_t else None
                self._emit(CardPlaced(now, s, code, place), want)
                back = self._t(g.press_t + rng.uniform(0.5, 0.8))
                self._emit(CardTakenBack(back, s, code, place), "legal")
                hand.append(code)  # it comes back to the hand
            else:
                g.stacks[q - 1].append(code)
                self._emit(CardPlaced(now, s, code, place), "legal")
                if code == "BLOCK":
                    if g.owner is not None and g.press_t is not None:
                        g.block_t = now  # type: ignore[attr-defined]
                        owner = g.owner
                        self.blocked_at[owner] = now
                        if now < g.press_t - 0.3 and rng.random() < 0.7:
                            # The owner sees the block in time and does not slap.
                            owes.pop(owner, None)
                            self._cancel_press(todo, g)
                    g.owner = None
                    g.press_t = None
                elif g.complete() and g.owner is None:
                    g.owner = s
                    tp = self._t(now + rng.uniform(0.25, 0.6))
                    g.press_t = tp
                    g.block_t = -1.0  # type: ignore[attr-defined]
                    owes[s] = g
                    order += 1
                    heapq.heappush(todo, (tp, order, "press", s, g))
            if deck and len(hand) < 5:
                hand.append(deck.pop())
                self._emit(CardPlaced(self._t(now + 0.3), s, "?", Place("hand", s),
                                      Place("draw")), "legal")
            heapq.heappush(todo, (self._t(now + rng.uniform(0.5, 1.5)), order, "act", s, None))
        t = now + 2.0
        self._emit(ManualEntry(self._t(t), "confirm", None, True), None)
        self._outcome.rounds.append(dict(won))
        for s, p in won.items():
            self._outcome.totals[s] += p
        best = max(won.values())
        leaders = [s for s, p in won.items() if p == best]
        if len(leaders) == 1:
            self.wins[leaders[0]] += 1
        return t + 3.0

    def _cancel_press(self, todo: list[tuple[float, int, str, int, Any]], g: _Group) -> None:
        for i, item in enumerate(todo):
            if item[2] == "press" and item[4] is g:
                todo[i] = (item[0], item[1], "wait", item[3], None)

    def _moves(self, s: int, hand: list[str], groups: dict[int, _Group],
               owes: dict[int, _Group], now: float) -> list[tuple[int, str, _Group | None, int]]:
        """Legal moves as (priority, code, group or None for a new group, position)."""
        out: list[tuple[int, str, _Group | None, int]] = []
        in_play = {g.pattern for g in groups.values()}
        for code in sorted(set(hand)):
            if code == "BLOCK":
                for g in groups.values():
                    if g.visible("BLOCK"):
                        continue
                    qs = [q for q in range(1, 5) if g.top(q) not in (None, "BLOCK")]
                    if qs:
                        pri = 3 if g.owner not in (None, s) else 0
                        out.append((pri, code, g, self.rng.choice(qs)))
                continue
            if s in owes or now - self.last_press.get(s, -9.0) < 0.3:
                continue  # slap first, then complete another pattern
            if code == "WILD":
                for g in groups.values():
                    if g.visible("WILD") or g.owner is not None:
                        continue
                    for q in range(1, 5):
                        if g.top(q) in (None, "BLOCK"):
                            out.append((2 if self._completes(g, q) else 1, code, g, q))
                continue
            p, q = int(code[1]), int(code[3])
            if p not in in_play:
                out.append((1, code, None, q))
                continue
            for g in groups.values():
                if g.pattern == p and g.owner is None and g.top(q) in (None, "BLOCK"):
                    out.append((2 if self._completes(g, q) else 1, code, g, q))
        return out

    def _completes(self, g: _Group, q: int) -> bool:
        return all(g.top(x) not in (None, "BLOCK") for x in range(1, 5) if x != q)

    def _choose(self, moves: list[tuple[int, str, _Group | None, int]]) -> tuple[str, Any, int]:
        rng = self.rng
        top = max(m[0] for m in moves)
        if top == 3 and rng.random() < 0.6:
            pick = rng.choice([m for m in moves if m[0] == 3])
        else:
            pool = [m for m in moves if m[0] in (1, 2)] or [m for m in moves if m[0] == 0]
            if not pool or rng.random() < 0.03:
                pool = moves
            best = max(m[0] for m in pool)
            pick = rng.choice([m for m in pool if m[0] == best] if rng.random() < 0.7 else pool)
        return pick[1], pick[2], pick[3]

    def _mistake(self, s: int, hand: list[str], groups: dict[int, _Group], now: float,
                 owes: dict[int, _Group]) -> bool:
        """An illegal card (taken back after the buzz) or a wrong slap. False: none made."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.15 and s not in owes and now - self.blocked_at.get(s, -9.0) > 1.0:
            self._emit(PadPress(now, s), "illegal")
            self.last_press[s] = now
            return True
        code = rng.choice(hand)
        gs = [g for g in groups.values() if g.owner is None]
        place: Place | None = None
        if code == "BLOCK":
            empty = [(g, q) for g in gs for q in range(1, 5) if g.top(q) is None]
            if empty:
                g, q = rng.choice(empty)
                place = Place("pattern", g.number, q)
            else:
                place = Place("pattern", 90 + len(gs), 1)
        elif code == "WILD":
            taken = [(g, q) for g in gs for q in range(1, 5)
                     if g.top(q) not in (None, "BLOCK")]
            if taken:
                g, q = rng.choice(taken)
                place = Place("pattern", g.number, q)
        else:
            p, q = int(code[1]), int(code[3])
            same = [g for g in gs if g.pattern == p]
            if same:
                wrong = [x for x in range(1, 5) if x != q]
                place = Place("pattern", same[0].number, rng.choice(wrong))
            elif gs:
                place = Place("pattern", rng.choice(gs).number, q)
        if place is None:
            return False
        self._emit(CardPlaced(now, s, code, place), "illegal")
        self._emit(CardTakenBack(self._t(now + rng.uniform(0.5, 0.9)), s, code, place), "legal")
        return True
