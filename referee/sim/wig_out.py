"""Simulated Wig Out table: seated players draw and play at once until one calls "Wig Out!".

The simulator keeps its own table (hands, piles, deck) and its own idea of each move's ruling; it
never asks the rules core. Players act in parallel at human speed (0.3-1.2 s per action each).
Camera events reach the log a little after their capture time (in capture order); pad presses
and dashboard entries arrive at once, so a call can overtake the cards that preceded it.
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
    RoundStop,
)
from referee.rules.match import MatchHeader
from referee.rules.options import resolve_options
from referee.rules.places import Place
from referee.rules.registry import find_game

from .base import SimOutcome, in_arrival_order


class Simulator:
    """Seeded Wig Out players. kw: ``mistakes`` (chance of an illegal move per action)."""

    def __init__(self, header: MatchHeader, seed: int, mistakes: float = 0.25,
                 uncounted_rounds: float = 0.25) -> None:
        self.header = header
        self.rng = random.Random(seed)
        self.opts = resolve_options(find_game(header.game).all_options(), header.options)
        self.seats = [s.number for s in header.seats]
        self.mistakes = mistakes
        self.uncounted = uncounted_rounds
        self.grace = float(self.opts["grace_s"])
        self.window = float(self.opts["new_pile_window_s"])
        self.penalty = int(self.opts["false_call_penalty"])
        self._events: list[tuple[float, int, Event, str | None]] = []  # (t, seq, event, intended)
        self._seq = 0
        self._horizon = 0.0  # the latest card time emitted: a call comes after cards in flight
        self._round_pen: dict[int, int] = {}
        self._outcome = SimOutcome(totals={s: 0 for s in self.seats})

    # --- recording -------------------------------------------------------------------------

    def _emit(self, ev: Event, intended: str | None) -> None:
        self._seq += 1
        if isinstance(ev, CardPlaced) and ev.t > self._horizon:
            self._horizon = ev.t
        self._events.append((round(ev.t, 3), self._seq, ev, intended))

    def events(self) -> Iterator[Event]:
        t = 1.0
        for r in range(int(self.opts["rounds"])):
            t = self._round(t + 0.1 * len(self.seats) * 7, r)
        self._emit(Clock(t), None)  # the table's ticker: the last deadlines fire
        yield from in_arrival_order(self._events, self.rng, self._outcome)

    def outcome(self) -> SimOutcome:
        return self._outcome

    # --- one round -------------------------------------------------------------------------

    def _round(self, t: float, r: int) -> float:
        rng = self.rng
        n = len(self.seats)
        deck = [f"C{c}" for c in range(1, 13) for _ in range(5)]
        rng.shuffle(deck)
        size = 7 if n <= 4 else 5
        hands = {s: [deck.pop() for _ in range(size)] for s in self.seats}
        a, b = deck.pop(), deck.pop()
        piles: dict[int, list[Any]] = {}  # n -> [code, open_from_t]
        layout: dict[str, tuple[str, ...]] = (
            {"pile:1": (a, b)} if a == b else {"pile:1": (a,), "pile:2": (b,)})
        for key, cards in layout.items():
            piles[int(key[5:])] = [cards[0], 0.0]
        counted = rng.random() >= self.uncounted
        counts = {f"hand:{s}": size for s in self.seats} if counted else {}
        counts["draw"] = len(deck)
        # The dealer deals one card at a time; the camera sees each leave the deck (no verdict).
        for i in range(size):
            for s in self.seats:
                self._emit(CardPlaced(t - 0.9 * size * n / 10 + 0.09 * (i * n + s), s, "?",
                                      Place("hand", s), Place("draw")), None)
        self._emit(Deal(t, layout=layout, counts=counts, dealer=self.seats[r % n]), None)
        t += 2.0
        self._emit(RoundStart(t), None)
        next_pile = len(piles) + 1
        free = [(t + rng.uniform(0.3, 1.0), s) for s in self.seats]
        heapq.heapify(free)
        stuck = 0
        while True:
            now, s = heapq.heappop(free)
            hand = hands[s]
            busy = rng.uniform(0.3, 1.2)
            open_piles = [p for p, (code, since) in piles.items() if since <= now]
            match = [p for p in open_piles if piles[p][0] in hand]
            pairs = [c for c in sorted(set(hand)) if hand.count(c) >= 2]
            roll = rng.random()
            if roll < self.mistakes and hand:
                kind = rng.random()
                card = rng.choice(hand)
                wrong = [p for p in open_piles if piles[p][0] != card]
                if kind < 0.5 and wrong:
                    p = rng.choice(wrong)
                    self._emit(CardPlaced(now, s, card, Place("pile", None, p)), "illegal")
                    back = now + rng.uniform(0.5, 0.9)
                    self._emit(CardTakenBack(back, s, card, Place("pile", None, p)), "legal")
                    busy = back - now + 0.2
                elif kind < 0.8:
                    p = next_pile
                    next_pile += 1
                    self._emit(CardPlaced(now, s, card, Place("pile", None, p)), "illegal")
                    back = now + self.window + rng.uniform(0.6, 1.0)
                    self._emit(CardTakenBack(back, s, card, Place("pile", None, p)), "legal")
                    busy = back - now + 0.2
                elif len(hand) > 1 and self._horizon < now:
                    # A false "Wig Out!": everyone stops until the buzzer says play on.
                    self._emit(PadPress(now, s), "illegal" if counted else None)
                    if not counted:
                        self._emit(ManualEntry(now + 1.0, "confirm", None, False), None)
                    self._pen(s, r)
                    resume = now + 1.5
                    free = [(max(ft, resume), fs) for ft, fs in free]
                    heapq.heapify(free)
                    busy = 1.5
                heapq.heappush(free, (now + busy, s))
                continue
            if (match or pairs) and deck and rng.random() < 0.3:
                match, pairs = [], []  # overlooked a match: draws instead
            if match:
                p = rng.choice(match)
                card = piles[p][0]
                hand.remove(card)
                self._emit(CardPlaced(now, s, card, Place("pile", None, p)), "legal")
                end = now
            elif pairs:
                card = rng.choice(pairs)
                p = next_pile
                next_pile += 1
                k = min(hand.count(card), rng.choice((2, 2, 2, 3, 4)))
                tt = now
                for _ in range(k):
                    hand.remove(card)
                    self._emit(CardPlaced(tt, s, card, Place("pile", None, p)), "legal")
                    end = tt
                    tt += rng.uniform(0.2, 0.45)
                piles[p] = [card, end + 0.001]
                busy = end - now + rng.uniform(0.3, 1.0)
                # A rival who tries the same character on the pile before it is open.
                rivals = [o for o in self.seats if o != s and card in hands[o]]
                if k >= 2 and rivals and rng.random() < 0.1:
                    o = rng.choice(rivals)
                    t_rival = now + 0.05
                    if t_rival < end:
                        self._emit(CardPlaced(t_rival, o, card, Place("pile", None, p)), "illegal")
                        back = end + rng.uniform(0.5, 0.9)
                        self._emit(CardTakenBack(back, o, card, Place("pile", None, p)), "legal")
                        free = [(max(ft, back + 0.2) if fs == o else ft, fs) for ft, fs in free]
                        heapq.heapify(free)
            elif deck:
                hand.append(deck.pop())
                self._emit(CardPlaced(now, s, "?", Place("hand", s), Place("draw")), "legal")
                end = now
                busy = rng.uniform(0.3, 0.8)
            else:
                stuck += 1
                if stuck > 4 * n:
                    return self._stuck_end(now + 2.0, hands, counted, r)
                heapq.heappush(free, (now + rng.uniform(0.8, 1.5), s))
                continue
            stuck = 0
            if not hand:
                call = max(end + rng.uniform(0.2, 0.5), self._horizon + 0.05)
                return self._wig_out(call, s, hands, piles, counted, r)
            heapq.heappush(free, (now + busy, s))

    def _pen(self, seat: int, r: int) -> None:
        self._round_pen[seat] = self._round_pen.get(seat, 0) + self.penalty

    def _wig_out(self, t: float, s: int, hands: dict[int, list[str]], piles: dict[int, list[Any]],
                 counted: bool, r: int) -> float:
        self._emit(PadPress(t, s), "legal" if counted else None)
        # A rival's card already in flight when the call came: late.
        others = [o for o in self.seats if o != s and hands[o]]
        if others and self.rng.random() < 0.5:
            o = self.rng.choice(others)
            card = self.rng.choice(hands[o])
            p = min(piles)
            tl = t + self.grace + self.rng.uniform(0.1, 0.4)
            self._emit(CardPlaced(tl, o, card, Place("pile", None, p)), "late")
            self._emit(CardTakenBack(tl + 0.8, o, card, Place("pile", None, p)), "legal")
        t += 2.0
        if not counted:
            self._emit(ManualEntry(t, "confirm", None, True), None)
            t = self._counts(t + 1.0, hands, exclude=s)
        self._score({o: (0 if o == s else len(hands[o])) for o in self.seats})
        return t + 3.0

    def _counts(self, t: float, hands: dict[int, list[str]], exclude: int | None) -> float:
        # Each player lays the cards left face down in their zone; the camera counts them and
        # the dashboard takes the camera's count (hand_count without a value) or a typed one.
        for o in self.seats:
            if o != exclude:
                for _ in hands[o]:
                    self._emit(CardPlaced(t, o, "?", Place("zone", o), Place("hand", o)), "legal")
                    t += 0.25
                value = None if self.rng.random() < 0.7 else len(hands[o])
                self._emit(ManualEntry(t, "hand_count", o, value), "legal")
                t += 0.7
        return t

    def _stuck_end(self, t: float, hands: dict[int, list[str]], counted: bool, r: int) -> float:
        if all(len(h) == 1 for h in hands.values()):
            self._emit(ManualEntry(t, "tie_round"), None)
            self._score({o: 0 for o in self.seats}, tie=True)
            return t + 3.0
        self._emit(RoundStop(t, "no one can play"), None)
        if not counted:
            t = self._counts(t + 1.0, hands, exclude=None)
        self._score({o: len(hands[o]) for o in self.seats})
        return t + 3.0

    def _score(self, scores: dict[int, int], tie: bool = False) -> None:
        pen = self._round_pen
        if not tie:
            scores = {s: p + pen.get(s, 0) for s, p in scores.items()}
        self._round_pen = {}
        self._outcome.rounds.append(scores)
        for s, p in scores.items():
            self._outcome.totals[s] += p
