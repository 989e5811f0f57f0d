"""Simulated Wackee Six table: every seat plays at once, as people do.

Each seat is a solo player or a partnership (a row hand and a stock hand acting in parallel). The
stock hand turns three cards at a time and plays the waste's top card; the row hand plays its six
face-up cards, refills gaps from the reserve, lays WILDs with their follow-up, and calls "Wackee
Six!" on its pad when row and reserve are empty. Now and then someone errs: a wrong colour, a dig
under the waste's top, a 2 on an empty spot, a lone WILD, a card on someone's WILD, a waste card
put in the row, two seats racing for one pile, a false call, a card after the call.

The simulator keeps its own model of the table and its own score count (it never asks the rules
core): the conformance test compares the two. Times are physical: camera observations are stamped
with frame times (10 fps) and reach the log 0.15 s after capture, pad presses at once, so the log
is in arrival order as the live table writes it.
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Iterator
from typing import Any

from referee.rules.events import (
    CardPlaced,
    CardRevealed,
    CardTakenBack,
    Clock,
    Deal,
    Event,
    PadPress,
    RoundStart,
    RoundStop,
)
from referee.rules.match import MatchHeader
from referee.rules.places import Place

from .base import SimOutcome

CAMERA_LAG = 0.15  # capture to log, seconds
PAD_LAG = 0.002
STALL_S = 60.0  # no card played for this long: the dashboard stops the round
MAX_ROUND_S = 900.0
WILD_N = 0

_COLOURS = "RBGY"


def _deck_codes(kind: str) -> tuple[list[str], dict[str, tuple[str, int]]]:
    """The 54 codes of one deck and what each is (its own table, not the rules core's)."""
    table: dict[str, tuple[str, int]] = {}
    if kind == "standard":
        suit_of = {"R": "H", "Y": "D", "G": "C", "B": "S"}
        rank_of = {1: "A", 11: "J", 12: "Q", 13: "K"}
        for c in _COLOURS:
            for n in range(1, 14):
                table[f"{rank_of.get(n, str(n))}{suit_of[c]}"] = (c, n)
        wild = "JK"
    else:
        for c in _COLOURS:
            for n in range(1, 14):
                table[f"{c}{n}"] = (c, n)
        wild = "WILD"
    table[wild] = ("", WILD_N)
    return [*table, wild], table


class _Card:
    """A card that left a seat for the centre (or a row slot), and how to put it back."""

    __slots__ = ("code", "seat", "t", "value", "wild", "main", "shown", "kind", "slot", "pile")

    def __init__(
        self,
        code: str,
        seat: int,
        t: float,
        value: int,
        main: bool,
        shown: bool,
        kind: str,
        slot: int,
    ) -> None:
        self.code = code
        self.seat = seat
        self.t = t
        self.value = value
        self.wild = False
        self.main = main
        self.shown = shown
        self.kind = kind  # "row", "waste" (back on top), "dig" (back under the top)
        self.slot = slot  # row slot, or waste position for a dig
        self.pile = 0


class _Pile:
    __slots__ = ("colour", "cards", "blocked", "key")

    def __init__(self, colour: str) -> None:
        self.colour = colour
        self.cards: list[_Card] = []
        self.blocked = 0  # cards lying on it that must be taken back first
        self.key: tuple[str, int] | None = None


class _Seat:
    __slots__ = (
        "n",
        "row",
        "reserve",
        "stock",
        "waste",
        "shown",
        "played",
        "owed_main",
        "penalty",
        "busy_until",
        "reserved",
        "reserved_src",
        "wild_pile",
        "calling",
        "quiet_until",
        "last_main_arrival",
    )

    def __init__(self, n: int) -> None:
        self.n = n
        self.row: dict[int, str] = {}
        self.reserve: list[str] = []
        self.stock: list[str] = []  # face down, [-1] is the top
        self.waste: list[str] = []  # face up, [-1] is the visible top
        self.shown: dict[str, int] = {}  # mirrors "was the visible top of the waste"
        self.played = 0
        self.owed_main = 0
        self.penalty = 0
        self.busy_until = 0.0
        self.reserved: str | None = None  # the follow-up kept for a WILD
        self.reserved_src = ""
        self.wild_pile = 0
        self.calling = False
        self.quiet_until = 0.0  # no main card plays before this (after a false call)
        self.last_main_arrival = 0.0

    def main_left(self) -> int:
        return len(self.row) + len(self.reserve) + self.owed_main


class Simulator:
    """A seeded Wackee Six table. kw: rounds (stop after N), mistakes (scale of error rates),
    deck ("wackee" or "standard"), fps (camera frame rate), max_rounds."""

    def __init__(
        self,
        header: MatchHeader,
        seed: int,
        rounds: int | None = None,
        mistakes: float = 1.0,
        deck: str = "wackee",
        fps: float = 10.0,
        max_rounds: int = 80,
        **_kw: Any,
    ) -> None:
        self.header = header
        self.rng = random.Random(seed)
        self.n = len(header.seats)
        opts = header.options
        self.grace = float(opts.get("grace_s", 0.15))
        self.window = float(opts.get("wild_window_s", 3.0))
        self.target = int(opts.get("target_score", 300))
        self.false_call_points = int(opts.get("false_call_penalty", 0))
        self.rounds_wanted = rounds
        self.max_rounds = max_rounds
        self.m = float(mistakes)
        self.fps = float(fps)
        self.codes, self.table = _deck_codes(deck)
        self.wild_code = self.codes[-1]
        self.scores: list[dict[int, int]] = []
        self.intended: dict[int, str] = {}
        self._log: list[Event] = []
        self._buf: list[tuple[float, int, Event, str | None]] = []
        self._seq = 0
        self._places: dict[str, Place] = {}
        # Per seat: "solo" or partnership, and how quick each hand is.
        self.hands: dict[int, list[tuple[str, float]]] = {}
        for s in range(1, self.n + 1):
            if self.rng.random() < 0.35:
                self.hands[s] = [
                    ("row", self.rng.uniform(0.8, 1.2)),
                    ("stock", self.rng.uniform(0.75, 1.15)),
                ]
            else:
                self.hands[s] = [("both", self.rng.uniform(0.7, 1.0))]

    # --- output --------------------------------------------------------------------------

    def events(self) -> Iterator[Event]:
        self._run()
        yield from self._log

    def outcome(self) -> SimOutcome:
        totals = {s: 0 for s in range(1, self.n + 1)}
        for r in self.scores:
            for s, p in r.items():
                totals[s] += p
        return SimOutcome(totals, [dict(r) for r in self.scores], dict(self.intended))

    def _place(self, text: str) -> Place:
        p = self._places.get(text)
        if p is None:
            p = self._places[text] = Place.parse(text)
        return p

    def _frame(self, t: float) -> float:
        """The first camera frame time at or after t."""
        return round(math.ceil(t * self.fps - 1e-6) / self.fps, 3)

    def _emit(self, ev: Event, lag: float, intended: str | None = None) -> None:
        self._seq += 1
        self._buf.append((round(ev.t + lag, 4), self._seq, ev, intended))

    def _flush(self) -> None:
        self._buf.sort(key=lambda r: (r[0], r[1]))
        for _arr, _seq, ev, intended in self._buf:
            if intended is not None:
                self.intended[len(self._log)] = intended
            self._log.append(ev)
        self._buf = []

    # --- the match -----------------------------------------------------------------------

    def _run(self) -> None:
        if self._log:
            return
        t = 1.0
        for rnd in range(1, self.max_rounds + 1):
            t = self._round(rnd, t)
            self._flush()
            totals = {s: 0 for s in range(1, self.n + 1)}
            for r in self.scores:
                for s, p in r.items():
                    totals[s] += p
            if self.rounds_wanted is not None:
                if rnd >= self.rounds_wanted:
                    return
                continue
            best = max(totals.values())
            if best >= self.target and list(totals.values()).count(best) == 1:
                return

    def _round(self, rnd: int, t0: float) -> float:
        rng = self.rng
        self.seats = {s: _Seat(s) for s in range(1, self.n + 1)}
        self.piles: dict[int, _Pile] = {}
        self.need: dict[tuple[str, int], set[int]] = {}
        self.next_pile = 1
        self.heap: list[tuple[float, int, str, Any]] = []
        self.over_t: float | None = None  # when play stopped (call or stop)
        self.end_t = math.inf
        self.caller = 0
        self.scored = False
        self.last_progress = 0.0
        self.t_go = 0.0
        self.last_false_call = -10.0
        layout: dict[str, tuple[str, ...]] = {}
        counts: dict[str, int] = {}
        for s, seat in self.seats.items():
            deck = list(self.codes)
            rng.shuffle(deck)
            for i in range(1, 7):
                seat.row[i] = deck.pop()
                layout[f"row:{s}:{i}"] = (seat.row[i],)
            seat.reserve = [deck.pop() for _ in range(6)]
            seat.stock = deck
            counts[f"reserve:{s}"] = 6
            counts[f"stock:{s}"] = len(deck)
        starter = (rnd - 1) % self.n + 1
        t_deal = round(t0, 3)
        self._emit(Deal(t_deal, layout, counts, starter), 0.0)
        t_go = round(t_deal + rng.uniform(2.0, 4.0), 3)
        self._emit(RoundStart(t_go, starter), 0.0)
        self.last_progress = t_go
        self.t_go = t_go
        for s in self.seats:
            for role, speed in self.hands[s]:
                self._push(
                    self._frame(t_go + rng.uniform(0.3, 0.9) * speed), "act", (s, role, speed)
                )
        last = t_go
        while self.heap:
            t, _seq, kind, data = heapq.heappop(self.heap)
            last = max(last, t)
            getattr(self, "_do_" + kind)(t, data)
        return last + rng.uniform(6.0, 10.0)

    def _push(self, t: float, kind: str, data: Any) -> None:
        self._seq += 1
        heapq.heappush(self.heap, (t, self._seq, kind, data))

    # --- pile bookkeeping ----------------------------------------------------------------

    def _reindex(self, idx: int) -> None:
        p = self.piles.get(idx)
        old = p.key if p is not None else None
        if old is not None:
            holders = self.need.get(old)
            if holders is not None:
                holders.discard(idx)
        if p is None or not p.cards:
            return
        top = p.cards[-1]
        key = (p.colour, top.value + 1) if top.value < 13 else None
        p.key = key
        if key is not None:
            self.need.setdefault(key, set()).add(idx)

    def _fit(self, seat: int, c: str, n: int, t: float) -> int | None:
        """A pile this seat may legally put (c, n) on now, without a race; 0 = a new pile."""
        if n == 1:
            return 0
        holders = self.need.get((c, n))
        if not holders:
            return None
        g = self.grace + 1e-6
        for idx in sorted(holders):
            p = self.piles[idx]
            top = p.cards[-1]
            if p.blocked or (top.wild and top.seat != seat):
                continue
            if top.seat != seat and t - top.t <= g:
                continue
            return idx
        return None

    def _wrong_colour_pile(self, c: str, n: int, seat: int, t: float) -> int | None:
        g = self.grace + 1e-6
        for other in _COLOURS:
            if other == c:
                continue
            for idx in sorted(self.need.get((other, n), ())):
                p = self.piles[idx]
                top = p.cards[-1]
                if not p.blocked and not top.wild and t - top.t > g:
                    return idx
        return None

    # --- moves ---------------------------------------------------------------------------

    def _take(self, s: _Seat, code: str, kind: str, slot: int) -> _Card:
        """Lift a card off its source (row slot or waste), mirroring what the camera sees."""
        c, n = self.table[code]
        if kind == "row":
            del s.row[slot]
            return _Card(code, s.n, 0.0, n, True, False, "row", slot)
        if kind == "dig":
            s.waste.pop(slot)
            return _Card(code, s.n, 0.0, n, False, False, "dig", slot)
        s.waste.pop()
        shown = s.shown.get(code, 0)
        if shown > 0:
            s.shown[code] = shown - 1
        return _Card(code, s.n, 0.0, n, False, shown > 0, "waste", 0)

    def _src_place(self, s: _Seat, card: _Card) -> Place:
        if card.kind == "row":
            return self._place(f"row:{s.n}:{card.slot}")
        return self._place(f"waste:{s.n}")

    def _land(
        self,
        s: _Seat,
        card: _Card,
        idx: int,
        t: float,
        verdict: str,
        reveal_next: bool = True,
        call: bool = True,
    ) -> None:
        """The card lands on pile idx (0: a new pile) at frame t; verdict is what it deserves."""
        if idx == 0:
            idx = self.next_pile
            self.next_pile += 1
        card.t = t
        card.pile = idx
        self._emit(
            CardPlaced(t, s.n, card.code, self._place(f"pile:{idx}"), self._src_place(s, card)),
            CAMERA_LAG,
            verdict,
        )
        if card.main:
            s.last_main_arrival = t + CAMERA_LAG
        if verdict == "legal":
            p = self.piles.get(idx)
            if p is None:
                p = self.piles[idx] = _Pile(self.table[card.code][0])
            top = p.cards[-1] if p.cards else None
            if card.value == WILD_N:
                card.value = top.value + 1 if top is not None else 1
                card.wild = True
            p.cards.append(card)
            self._reindex(idx)
            s.played += 1
            self.last_progress = t
            if card.kind == "waste" and reveal_next and s.waste:
                self._reveal_waste(s, t)
            if call:
                self._maybe_call(s, t)
            return
        # illegal or late: it waits on the pile to be taken back
        self._owe(s, card)
        p = self.piles.get(idx)
        if p is not None:
            p.blocked += 1
        delay = self.rng.uniform(0.7, 1.4) if verdict != "late" else self.rng.uniform(0.9, 1.6)
        s.busy_until = max(s.busy_until, t + delay + 0.2)
        self._push(self._frame(t + delay), "take_back", (s.n, card, f"pile:{idx}"))

    def _owe(self, s: _Seat, card: _Card) -> None:
        if card.main:
            s.owed_main += 1

    def _reveal_waste(self, s: _Seat, t: float) -> None:
        top = s.waste[-1]
        s.shown[top] = s.shown.get(top, 0) + 1
        self._emit(CardRevealed(t, s.n, top, self._place(f"waste:{s.n}")), CAMERA_LAG)

    def _unland(self, s: _Seat, card: _Card) -> None:
        """A legal card loses its place (a same-frame tie, a lone WILD): it is owed back."""
        p = self.piles[card.pile]
        p.cards.remove(card)
        s.played -= 1
        self._reindex(card.pile)
        if not p.cards:
            del self.piles[card.pile]
        self._owe(s, card)

    def _maybe_call(self, s: _Seat, t: float) -> None:
        if s.main_left() == 0 and not s.wild_pile and not s.calling and self.over_t is None:
            s.calling = True
            self._push(round(t + self.rng.uniform(0.2, 0.6), 3), "press", (s.n, True))

    def _do_act(self, t: float, data: tuple[int, str, float]) -> None:
        if self.over_t is not None:
            return
        seat_n, role, speed = data
        s = self.seats[seat_n]
        rng = self.rng
        if t - self.last_progress > STALL_S or t > self.t_go + MAX_ROUND_S:
            self.over_t = t
            self._push(round(t + 1.0, 3), "stop", None)
            return
        acted = False
        if t >= s.busy_until and not s.calling:
            if role != "stock":
                acted = self._row_move(s, t)
            if not acted and role != "row":
                acted = self._stock_move(s, t)
        delay = (rng.uniform(0.45, 1.1) if acted else rng.uniform(0.3, 0.7)) * speed
        self._push(self._frame(t + delay), "act", data)

    def _row_move(self, s: _Seat, t: float) -> bool:
        rng = self.rng
        m = self.m
        quiet = t < s.quiet_until
        if not quiet:
            for slot in sorted(s.row):
                code = s.row[slot]
                if code == s.reserved:
                    continue
                c, n = self.table[code]
                if n == WILD_N:
                    continue
                idx = self._fit(s.n, c, n, t)
                if idx is None:
                    continue
                if idx and rng.random() < 0.01 * m:
                    wrong = self._wrong_colour_pile(c, n, s.n, t)
                    if wrong is not None:
                        self._land(s, self._take(s, code, "row", slot), wrong, t, "illegal")
                        return True
                self._play(s, self._take(s, code, "row", slot), idx, t)
                return True
            for slot in sorted(s.row):
                if s.row[slot] == self.wild_code and s.reserved is None:
                    if self._wild(s, "row", slot, t):
                        return True
            if rng.random() < 0.004 * m:
                for slot in sorted(s.row):
                    code = s.row[slot]
                    if code == s.reserved:
                        continue
                    if self.table[code][1] == 2 or (code == self.wild_code and rng.random() < 0.5):
                        self._land(s, self._take(s, code, "row", slot), 0, t, "illegal")
                        return True
        gaps = [i for i in range(1, 7) if i not in s.row]
        if gaps and s.reserve:
            slot = gaps[0]
            code = s.reserve.pop()
            s.row[slot] = code
            self._emit(
                CardRevealed(t, s.n, code, self._place(f"row:{s.n}:{slot}")), CAMERA_LAG, "legal"
            )
            return True
        left = s.main_left()
        if (
            0 < left <= 2
            and not quiet
            and not s.wild_pile
            and t - self.last_false_call > 20
            and rng.random() < 0.01 * m
        ):
            self.last_false_call = t
            s.quiet_until = t + self.grace + 0.5
            self._push(round(t + rng.uniform(0.05, 0.3), 3), "press", (s.n, False))
            return True
        return False

    def _stock_move(self, s: _Seat, t: float) -> bool:
        rng = self.rng
        m = self.m
        if s.reserved_src == "waste":
            return False
        if s.waste:
            code = s.waste[-1]
            c, n = self.table[code]
            if n == WILD_N:
                if s.reserved is None and self._wild(s, "waste", 0, t):
                    return True
            else:
                idx = self._fit(s.n, c, n, t)
                if idx is not None:
                    if idx and rng.random() < 0.01 * m:
                        wrong = self._wrong_colour_pile(c, n, s.n, t)
                        if wrong is not None:
                            self._land(s, self._take(s, code, "waste", 0), wrong, t, "illegal")
                            return True
                    self._play(s, self._take(s, code, "waste", 0), idx, t)
                    return True
                gaps = [i for i in range(1, 7) if i not in s.row]
                if gaps and rng.random() < 0.003 * m:
                    # A waste card put into a row gap: only the reserve refills the row.
                    card = self._take(s, code, "waste", 0)
                    where = f"row:{s.n}:{gaps[0]}"
                    self._emit(
                        CardPlaced(t, s.n, code, self._place(where), self._place(f"waste:{s.n}")),
                        CAMERA_LAG,
                        "illegal",
                    )
                    delay = rng.uniform(0.7, 1.3)
                    s.busy_until = t + delay + 0.2
                    self._push(self._frame(t + delay), "take_back", (s.n, card, where))
                    return True
            if len(s.waste) >= 2 and rng.random() < 0.012 * m:
                pos = len(s.waste) - 2
                code = s.waste[pos]
                c, n = self.table[code]
                if s.shown.get(code, 0) == 0 and n != WILD_N:
                    idx = self._fit(s.n, c, n, t)
                    if idx is not None:
                        self._land(s, self._take(s, code, "dig", pos), idx, t, "illegal")
                        return True
        if not s.stock:
            if not s.waste:
                return False
            # End of the deck: top card to the bottom, flip the waste over, go again.
            waste = [s.waste[-1], *s.waste[:-1]]
            s.stock = waste[::-1]
            s.waste = []
        k = min(3, len(s.stock))
        for _ in range(k):
            s.waste.append(s.stock.pop())
        self._reveal_waste(s, t)
        return True

    def _play(self, s: _Seat, card: _Card, idx: int, t: float) -> None:
        """A legal play, sometimes raced by another seat holding the same card (a tie)."""
        rng = self.rng
        if idx and rng.random() < 0.2 * self.m:
            rival = self._rival(s.n, card.code, t)
            t2 = t if rng.random() < 0.35 else self._frame(t + 1.0 / self.fps)
            if rival is not None and t2 - t <= self.grace:
                other, kind, slot, code = rival
                self._land(s, card, idx, t, "legal", call=False)
                theirs = self._take(other, code, kind, slot)
                if t2 == t:  # the same frame: the camera cannot tell, both go back
                    self._unland(s, card)
                    self.piles[idx].blocked += 1
                    delay = rng.uniform(0.7, 1.3)
                    s.busy_until = max(s.busy_until, t + delay + 0.2)
                    self._push(self._frame(t + delay), "take_back", (s.n, card, f"pile:{idx}"))
                self._land(other, theirs, idx, t2, "illegal")
                self._maybe_call(s, t)
                return
        self._land(s, card, idx, t, "legal")

    def _rival(self, seat: int, code: str, t: float) -> tuple[_Seat, str, int, str] | None:
        want = self.table[code]
        for other in self.seats.values():
            if other.n == seat or t < other.busy_until or other.calling:
                continue
            for slot, held in other.row.items():
                if held != other.reserved and self.table[held] == want:
                    return other, "row", slot, held
            if other.waste and other.reserved_src != "waste":
                top = other.waste[-1]
                if self.table[top] == want and other.shown.get(top, 0) > 0:
                    return other, "waste", 0, top
        return None

    def _wild(self, s: _Seat, kind: str, slot: int, t: float) -> bool:
        """Lay a WILD where this seat holds the number after it; follow up within the window."""
        rng = self.rng
        g = self.grace + 1e-6
        row_by = {self.table[code]: i for i, code in s.row.items() if i != slot}
        top_code = s.waste[-1] if s.waste and kind == "row" else None
        for idx in sorted(self.piles):
            p = self.piles[idx]
            top = p.cards[-1]
            if p.blocked or top.wild or top.value > 11:
                continue
            if top.seat != s.n and t - top.t <= g:
                continue
            want = (p.colour, top.value + 2)
            src = ""
            fslot = 0
            if want in row_by:
                src, fslot = "row", row_by[want]
            elif (
                top_code is not None
                and self.table[top_code] == want
                and s.shown.get(top_code, 0) > 0
            ):
                src = "waste"
            if not src:
                continue
            card = self._take(s, self.wild_code, kind, slot)
            lone = rng.random() < 0.08 * self.m
            s.wild_pile = idx  # no call before the WILD is covered
            self._land(s, card, idx, t, "legal")
            if lone:
                p.blocked += 1
                self._push(round(card.t + self.window, 3), "expire", (s.n, card))
                return True
            follow = s.row[fslot] if src == "row" else s.waste[-1]
            s.reserved, s.reserved_src = follow, src
            self._push(self._frame(t + rng.uniform(0.4, 1.1)), "follow", (s.n, idx, src, fslot))
            if rng.random() < 0.25 * self.m:
                self._push(self._frame(t + 0.2), "poach", (s.n, idx))
            return True
        return False

    # --- tasks ---------------------------------------------------------------------------

    def _do_follow(self, t: float, data: tuple[int, int, str, int]) -> None:
        seat_n, idx, src, fslot = data
        s = self.seats[seat_n]
        code = s.reserved
        s.reserved, s.reserved_src = None, ""
        if code is None or (self.over_t is not None and t > self.end_t - 0.02):
            return  # play stopped before the follow-up: the WILD is alone at the end
        s.wild_pile = 0
        card = self._take(s, code, "row" if src == "row" else "waste", fslot)
        self._land(s, card, idx, t, "legal")
        self._maybe_call(s, t)

    def _do_poach(self, t: float, data: tuple[int, int]) -> None:
        """Another seat puts its card on a WILD it does not own."""
        owner, idx = data
        if self.over_t is not None:
            return
        p = self.piles.get(idx)
        if p is None or not p.cards or not p.cards[-1].wild:
            return
        top = p.cards[-1]
        want = (p.colour, top.value + 1)
        for other in self.seats.values():
            if other.n == owner or t < other.busy_until or other.calling:
                continue
            for slot, held in sorted(other.row.items()):
                if self.table[held] == want and held != other.reserved:
                    self._land(other, self._take(other, held, "row", slot), idx, t, "illegal")
                    return

    def _do_expire(self, t: float, data: tuple[int, _Card]) -> None:
        seat_n, card = data
        s = self.seats[seat_n]
        if self.scored:
            return
        p = self.piles.get(card.pile)
        if p is None or not p.cards or p.cards[-1] is not card:
            return
        self._unland(s, card)
        s.wild_pile = 0
        delay = self.rng.uniform(0.6, 1.2)
        s.busy_until = max(s.busy_until, t + delay + 0.2)
        self._push(self._frame(t + delay + 0.05), "take_back", (s.n, card, f"pile:{card.pile}"))

    def _do_take_back(self, t: float, data: tuple[int, _Card, str]) -> None:
        seat_n, card, where = data
        s = self.seats[seat_n]
        self._emit(CardTakenBack(t, s.n, card.code, self._place(where)), CAMERA_LAG, "legal")
        if where.startswith("pile:"):
            p = self.piles.get(card.pile)
            if p is not None and p.blocked:
                p.blocked -= 1
            if p is not None and not p.cards and not p.blocked:
                del self.piles[card.pile]
        if self.scored:
            return
        if card.main:
            s.owed_main -= 1
            slot = card.slot
            if slot in s.row:
                slot = next(i for i in range(1, 65) if i not in s.row)
            s.row[slot] = card.code
        elif card.kind == "dig":
            s.waste.insert(min(card.slot, len(s.waste)), card.code)
        else:
            s.waste.append(card.code)
            if card.shown:
                s.shown[card.code] = s.shown.get(card.code, 0) + 1

    def _do_press(self, t: float, data: tuple[int, bool]) -> None:
        seat_n, meant = data
        s = self.seats[seat_n]
        if self.over_t is not None:
            s.calling = False
            return
        valid = s.main_left() == 0  # the referee counts row and reserve only
        intended = None
        if (
            valid
            and meant
            and s.last_main_arrival < t + PAD_LAG - 0.005
            and t - self.last_false_call > 2.0
        ):
            intended = "legal"  # judged at once: its last card is already in the log
        self._emit(PadPress(t, seat_n), PAD_LAG, intended)
        if not valid:  # a false call: the buzz, the penalty option, and play goes on
            self.last_false_call = t
            s.penalty += self.false_call_points
            s.calling = False
            s.quiet_until = max(s.quiet_until, t + self.grace + 0.3)
            return
        self.over_t = t
        self.end_t = t + self.grace
        self.caller = seat_n
        self._push(self.end_t, "end", None)
        self._emit(Clock(round(self.end_t + 0.01, 3)), 0.3)
        rng = self.rng
        if rng.random() < 0.35:
            f = self._frame(t + 1e-3)
            if f <= self.end_t - 0.02:
                self._push(f, "extra", "legal")
        if rng.random() < 0.5 * min(self.m, 2.0):
            self._push(self._frame(self.end_t + 0.05 + rng.uniform(0.0, 0.5)), "extra", "late")

    def _do_extra(self, t: float, verdict: str) -> None:
        """A card just inside the call's grace (counts) or after it (late)."""
        for s in self.seats.values():
            if s.n == self.caller or t < s.busy_until:
                continue
            for slot in sorted(s.row):
                code = s.row[slot]
                c, n = self.table[code]
                if code == s.reserved or n == WILD_N:
                    continue
                idx = self._fit(s.n, c, n, t)
                if idx is not None:
                    self._land(s, self._take(s, code, "row", slot), idx, t, verdict)
                    return
            if s.waste and s.reserved_src != "waste":
                code = s.waste[-1]
                c, n = self.table[code]
                if n != WILD_N and s.shown.get(code, 0) > 0:
                    idx = self._fit(s.n, c, n, t)
                    if idx is not None:
                        self._land(
                            s, self._take(s, code, "waste", 0), idx, t, verdict, reveal_next=False
                        )
                        return

    def _do_end(self, t: float, _data: Any) -> None:
        self._score(t, bonus=True)

    def _do_stop(self, t: float, _data: Any) -> None:
        self._emit(RoundStop(t, "no playable card left"), 0.0)
        self.end_t = t
        self._score(t, bonus=False)

    def _score(self, t: float, bonus: bool) -> None:
        for idx in sorted(self.piles):
            p = self.piles[idx]
            if p.cards and p.cards[-1].wild:  # a WILD still waiting: played alone
                card = p.cards[-1]
                s = self.seats[card.seat]
                self._unland(s, card)
                s.wild_pile = 0
                self._push(
                    self._frame(t + self.rng.uniform(0.8, 1.5)),
                    "take_back",
                    (s.n, card, f"pile:{idx}"),
                )
        scores = {}
        for n, s in self.seats.items():
            scores[n] = (
                s.played - 2 * s.main_left() + (10 if bonus and n == self.caller else 0) - s.penalty
            )
        self.scores.append(scores)
        self.scored = True
