"""Simulated Spite and Malice table: seated players with real decks, mostly legal, sometimes not.

The simulator keeps its own model of every card (stacks, hands, stores, build piles, draw and
discard piles) and never asks the rules core what is legal. Its mistakes: a card that does not
fit a build pile, a card played out of turn, a stored 2, a fifth store pile, a second stored card,
a WILD left on top at the end of a turn, a pad pressed by the wrong seat. Each illegal card is
taken back. SPITE cards come from other seats right after build-pile plays, some stamped a little
before the play they answer (a race inside the grace window).
"""

from __future__ import annotations

import random
from typing import Any

from referee.rules.events import (
    CardPlaced,
    CardRevealed,
    CardTakenBack,
    Deal,
    ManualEntry,
    RoundStop,
    TurnEnd,
)
from referee.rules.match import MatchHeader
from referee.rules.places import Place

from .base import SeriesSimulator

WILD = 14
NO_WILD = (1, 2, 7, 13)


def _value(code: str) -> int:
    base = code[:-1] if code.endswith("B") else code
    return WILD if base == "WILD" else int(base)


def _deck(bordered: bool) -> list[str]:
    suffix = "B" if bordered else ""
    cards = [f"{v}{suffix}" for v in range(1, 14) for _ in range(4)]
    return cards + [f"WILD{suffix}"] * 3  # 55 cards a set, 110 in all


class Simulator(SeriesSimulator):
    """``Simulator(header, seed, mistakes=0.08, max_turns=500)``: one whole match."""

    def __init__(self, header: MatchHeader, seed: int, mistakes: float = 0.08,
                 max_turns: int = 500, **_: Any) -> None:
        super().__init__()
        self.header = header
        self.rng = random.Random(seed)
        self.n = len(header.seats)
        self.mistakes = mistakes
        self.max_turns = max_turns
        self.stack_size = int(header.options.get("stack_size", 8))
        self.games_to_win = int(header.options.get("games_to_win", 5))
        self.grace = float(header.options.get("grace_s", 0.15))
        self.draw: list[str] = []
        self.discard: list[str] = []
        self.stacks: dict[int, list[str]] = {}
        self.up: dict[int, str | None] = {}
        self.hands: dict[int, list[str]] = {}
        self.stores: dict[int, list[list[str]]] = {}
        self.piles: dict[int, list[str]] = {}

    # --- one game --------------------------------------------------------------------------

    def _draw(self) -> str | None:
        if not self.draw:
            self.draw, self.discard = self.discard, []
            self.rng.shuffle(self.draw)
        return self.draw.pop() if self.draw else None

    def _game(self, number: int) -> int | None:
        rng = self.rng
        seats = range(1, self.n + 1)
        bordered, plain = _deck(True), _deck(False)
        rng.shuffle(bordered)
        rng.shuffle(plain)
        self.stacks = {s: [bordered.pop() for _ in range(self.stack_size)] for s in seats}
        self.up = {s: self.stacks[s].pop() for s in seats}
        self.draw = bordered + plain  # the non-bordered cards on top
        self.discard = []
        self.hands = {s: [self.draw.pop() for _ in range(4)] for s in seats}
        self.stores = {s: [[], [], [], []] for s in seats}
        self.piles = {}
        dealer = (number - 1) % self.n + 1
        layout: dict[str, tuple[str, ...]] = {f"up:{s}": (self.up[s] or "",) for s in seats}
        counts = {**{f"stack:{s}": len(self.stacks[s]) for s in seats},
                  **{f"hand:{s}": 4 for s in seats}}
        self._emit(Deal(self._tick(), layout=layout, counts=counts, dealer=dealer), "legal")
        cur, best = dealer, -1
        for k in range(1, self.n + 1):
            s = (dealer - 1 + k) % self.n + 1
            u = self.up[s]
            v = 0 if u is None or _value(u) == WILD else _value(u)
            if v > best:
                cur, best = s, v
        for _turn in range(self.max_turns):
            winner = self._turn(cur)
            if winner is not None:
                return winner
            cur = cur % self.n + 1
        self._emit(RoundStop(self._tick(), reason="the simulated table gave up"))
        return None

    # --- one turn --------------------------------------------------------------------------

    def _need(self, n: int) -> int:
        pile = self.piles.get(n)
        return len(pile) + 1 if pile else 1

    def _new_pile(self) -> int:
        n = 1
        while n in self.piles:
            n += 1
        return n

    def _fit(self, v: int) -> int | None:
        """A build pile that takes a natural card of value v (a new pile for a 1)."""
        if v == 1:
            return self._new_pile()
        for n, pile in self.piles.items():
            if len(pile) + 1 == v:
                return n
        return None

    def _turn(self, seat: int) -> int | None:
        rng = self.rng
        hand = self.hands[seat]
        while len(hand) < 5:
            c = self._draw()
            if c is None:
                break
            hand.append(c)
        if rng.random() < self.mistakes:
            self._out_of_turn(seat)
        if rng.random() < self.mistakes:
            self._wrong_pile(seat)
        for _ in range(40):
            won = self._one_play(seat)
            if won is None:
                break
            if won:
                return seat
            if not hand:
                for _k in range(5):
                    c = self._draw()
                    if c is not None:
                        hand.append(c)
        if rng.random() < self.mistakes:
            self._wild_left_on_top(seat)
        self._store(seat)
        if rng.random() < self.mistakes:
            other = seat % self.n + 1
            self._emit(TurnEnd(self._tick(0.2, 0.6), seat=other), "illegal")
        self._emit(TurnEnd(self._tick(0.2, 0.8), seat=seat), "legal")
        return None

    def _one_play(self, seat: int) -> bool | None:
        """Play one card (or a WILD and its cover); None: nothing to play; True: the game is won."""
        hand = self.hands[seat]
        up = self.up[seat]
        if up is not None and _value(up) != WILD:
            n = self._fit(_value(up))
            if n is not None:
                return self._play(seat, up, n, Place("up", seat))
        for c in sorted(hand, key=_value):
            v = _value(c)
            if v != WILD:
                n = self._fit(v)
                if n is not None:
                    hand.remove(c)
                    return self._play(seat, c, n, Place("hand", seat))
        for k, store in enumerate(self.stores[seat], start=1):
            if store:
                n = self._fit(_value(store[-1]))
                if n is not None:
                    return self._play(seat, store.pop(), n, Place("store", seat, k))
        wilds = [(c, False) for c in hand if _value(c) == WILD]
        if up is not None and _value(up) == WILD:
            wilds.append((up, True))
        for w, from_up in wilds:
            for n, pile in self.piles.items():
                need = len(pile) + 1
                if need in NO_WILD or _value(pile[-1]) == WILD:
                    continue
                cover = self._cover(seat, need + 1)
                if cover is None:
                    continue
                src = Place("up", seat) if from_up else Place("hand", seat)
                if not from_up:
                    hand.remove(w)
                if self._play(seat, w, n, src):
                    return True
                card, where = cover
                if where.area == "hand":
                    hand.remove(card)
                elif where.area == "store":
                    self.stores[seat][(where.index or 1) - 1].pop()
                return self._play(seat, card, n, where)
        return None

    def _cover(self, seat: int, v: int) -> tuple[str, Place] | None:
        up = self.up[seat]
        if up is not None and _value(up) == v:
            return up, Place("up", seat)
        for c in self.hands[seat]:
            if _value(c) == v:
                return c, Place("hand", seat)
        for k, store in enumerate(self.stores[seat], start=1):
            if store and _value(store[-1]) == v:
                return store[-1], Place("store", seat, k)
        return None

    def _play(self, seat: int, card: str, n: int, src: Place) -> bool:
        """Put a card (already out of the hand or store) on pile n; True: it won the game."""
        t = self._tick()
        self._emit(CardPlaced(t, seat=seat, card=card, to=Place("pile", index=n), source=src),
                   "legal")
        pile = self.piles.setdefault(n, [])
        pile.append(card)
        if src.area == "up":
            if not self.stacks[seat]:
                self.up[seat] = None
                return True
            self.up[seat] = self.stacks[seat].pop()
            self._emit(CardRevealed(self._tick(0.2, 0.6), seat=seat, card=self.up[seat] or "",
                                    at=Place("up", seat)), "legal")
        if len(pile) == 13:
            self._cap(seat, n)
        if self.rng.random() < 0.12:
            self._spite(seat, t)
        return False

    def _cap(self, seat: int, n: int) -> None:
        pile = self.piles.pop(n)
        self._emit(CardTakenBack(self._tick(0.3, 0.8), seat=seat, card=pile[-1],
                                 at=Place("pile", index=n)), "legal")
        self.discard.extend(pile)
        gift = self._draw()
        if gift is None:
            return
        others = [s for s in self.stacks if s != seat]
        to = min(others, key=lambda s: (len(self.stacks[s]), s))
        self.stacks[to].insert(0, gift)
        self._emit(ManualEntry(self._tick(0.5, 1.5), action="give_card", seat=seat, value=to),
                   "legal")

    def _spite(self, seat: int, build_t: float) -> None:
        """Another seat answers a build-pile play with a SPITE card (sometimes a close race)."""
        for other in self.rng.sample(range(1, self.n + 1), self.n):
            if other == seat:
                continue
            wild = next((c for c in self.hands[other] if _value(c) == WILD), None)
            if wild is None:
                continue
            self.hands[other].remove(wild)
            self.discard.append(wild)
            if self.rng.random() < 0.3 and self.t - build_t < 1.5:
                # the camera stamped it just before the play it answers (the log allows lines
                # up to 2 s behind the latest one, so only right after that play)
                t = round(build_t - self.grace / 2, 3)
            else:
                t = self._tick(0.1, 0.6)
            self._emit(CardPlaced(t, seat=other, card=wild, to=Place("discard"),
                                  source=Place("hand", other)), "legal")
            return

    # --- mistakes --------------------------------------------------------------------------

    def _out_of_turn(self, seat: int) -> None:
        other = self.rng.choice([s for s in range(1, self.n + 1) if s != seat])
        cards = [c for c in self.hands[other] if _value(c) != WILD]
        if not cards:
            return
        c = self.rng.choice(cards)
        n = self.rng.choice(list(self.piles)) if self.piles else 1
        place = Place("pile", index=n)
        self._emit(CardPlaced(self._tick(), seat=other, card=c, to=place,
                              source=Place("hand", other)), "illegal")
        self._emit(CardTakenBack(self._tick(0.5, 1.5), seat=other, card=c, at=place), "legal")

    def _wrong_pile(self, seat: int) -> None:
        for c in self.hands[seat]:
            v = _value(c)
            if v in (1, WILD):
                continue
            wrong = [n for n in self.piles if len(self.piles[n]) + 1 != v]
            n = self.rng.choice(wrong) if wrong else self._new_pile()
            place = Place("pile", index=n)
            self._emit(CardPlaced(self._tick(), seat=seat, card=c, to=place,
                                  source=Place("hand", seat)), "illegal")
            self._emit(CardTakenBack(self._tick(0.5, 1.5), seat=seat, card=c, at=place), "legal")
            return

    def _wild_left_on_top(self, seat: int) -> None:
        """Play a WILD, press the pad with it on top (illegal), then take the WILD back."""
        hand = self.hands[seat]
        wild = next((c for c in hand if _value(c) == WILD), None)
        if wild is None:
            return
        for n, pile in self.piles.items():
            if len(pile) + 1 in NO_WILD or _value(pile[-1]) == WILD:
                continue
            place = Place("pile", index=n)
            self._emit(CardPlaced(self._tick(), seat=seat, card=wild, to=place,
                                  source=Place("hand", seat)), "legal")
            self._emit(TurnEnd(self._tick(0.3, 0.8), seat=seat), "illegal")
            self._emit(CardTakenBack(self._tick(0.5, 1.5), seat=seat, card=wild, at=place),
                       "legal")
            return

    def _store(self, seat: int) -> None:
        rng = self.rng
        hand = self.hands[seat]
        stores = self.stores[seat]
        if rng.random() < self.mistakes:
            two = next((c for c in hand if _value(c) == 2), None)
            if two is not None:
                self._bad_store(seat, two, Place("store", seat, rng.randint(1, 4)))
        storable = [c for c in hand if _value(c) not in (1, 2, WILD)]
        if not storable:
            return
        if rng.random() < self.mistakes and all(stores):
            self._bad_store(seat, rng.choice(storable), Place("store", seat, 5))
        card = max(storable, key=_value)
        v = _value(card)
        k = next((i for i, p in enumerate(stores) if p and _value(p[-1]) == v + 1), None)
        if k is None:
            k = next((i for i, p in enumerate(stores) if not p), None)
        if k is None:
            k = rng.randrange(4)
        hand.remove(card)
        stores[k].append(card)
        self._emit(CardPlaced(self._tick(), seat=seat, card=card, to=Place("store", seat, k + 1),
                              source=Place("hand", seat)), "legal")
        rest = [c for c in hand if _value(c) not in (1, 2, WILD)]
        if rest and rng.random() < self.mistakes:
            self._bad_store(seat, rest[0], Place("store", seat, rng.randint(1, 4)))

    def _bad_store(self, seat: int, card: str, place: Place) -> None:
        self._emit(CardPlaced(self._tick(), seat=seat, card=card, to=place,
                              source=Place("hand", seat)), "illegal")
        self._emit(CardTakenBack(self._tick(0.5, 1.5), seat=seat, card=card, at=place), "legal")
