"""Simulated Wonky table: players, a 54-card deck, nine blocks, a tower that sometimes falls.

The simulator keeps its own model (hands, deck, tower, turn order and direction) and never asks
the rules core. Mistakes: a card with no free matching block, an action card as the last card,
a card played out of turn, a block that does not match the card (taken off, then the right one).
Falls come from the tilt sensor, sometimes followed by the camera's own report of the fall, and
sometimes race the camera's report of the block that caused them. The table's clock emits the
Clock events that let the buzzer count 1-2-3.
"""

from __future__ import annotations

import random
from typing import Any

from referee.rules.events import (
    BlockAdded,
    CardPlaced,
    CardTakenBack,
    Clock,
    Deal,
    ManualEntry,
    RoundStart,
    RoundStop,
    Tilt,
    TowerFell,
)
from referee.rules.match import MatchHeader
from referee.rules.places import Place

from .base import SeriesSimulator

SIZES = ("small", "medium", "large")
SIZE_LETTERS = "SML"
ACTIONS = ("PASS", "REV")  # the printed deck's codes (vision/decks/games.py)
DISCARD = Place("discard")


def deck_cards(letters: list[str]) -> list[str]:
    """The simulator's 54 cards (the real deck's mix is not published; docs/games/wonky.md)."""
    exact = [f"{c}{s}" for c in letters for s in SIZE_LETTERS] * 2  # 18
    by_colour = [f"{c}X" for c in letters] * 3  # 9
    by_size = [f"X{s}" for s in SIZE_LETTERS] * 3  # 9
    return (exact + by_colour + by_size + ["XX"] * 4 + ["PASS"] * 4 + ["REV"] * 4
            + ["XX-DRAW"] * 3 + ["XX-REV"] * 3)


class Simulator(SeriesSimulator):
    """``Simulator(header, seed, mistakes=0.08, fall=0.16)``: one whole match."""

    TICK = (0.4, 1.8)

    def __init__(self, header: MatchHeader, seed: int, mistakes: float = 0.08,
                 fall: float = 0.16, max_turns: int = 400, **_: Any) -> None:
        super().__init__()
        self.header = header
        self.rng = random.Random(seed)
        self.n = len(header.seats)
        self.mistakes = mistakes
        self.fall = fall  # chance of a fall per block already in the tower
        self.max_turns = max_turns
        opts = header.options
        self.colours = [c.strip().lower() for c in str(opts.get("colours", "red,green,blue"))
                        .split(",")]
        self.letters = [c[0].upper() for c in self.colours]
        self.hand_size = int(opts.get("hand_size", 7))
        self.count_s = float(opts.get("count_s", 1.0))
        self.games_to_win = int(opts.get("games_to_win", 5))
        self.grace = float(opts.get("grace_s", 0.15))
        self.deck: list[str] = []
        self.discard: list[str] = []
        self.hands: dict[int, list[str]] = {}
        self.tower: list[tuple[int, int]] = []
        self.direction = 1

    # --- the model -------------------------------------------------------------------------

    def _draw(self) -> str:
        if not self.deck:
            self.deck, self.discard = self.discard, []
            self.rng.shuffle(self.deck)
        if not self.deck:  # every card is in a hand: a spare from the box keeps the model going
            return self.rng.choice(deck_cards(self.letters))
        return self.deck.pop()

    def _matches(self, card: str) -> list[tuple[int, int]]:
        """The free blocks a card may add (empty for action cards)."""
        if card in ACTIONS:
            return []
        code = card.split("+")[0]
        c, s = code[0], code[1]
        return [
            (ci, si) for ci in range(3) for si in range(3)
            if (c == "X" or self.letters[ci] == c) and (s == "X" or SIZE_LETTERS[si] == s)
            and (ci, si) not in self.tower
        ]

    def _playable(self, seat: int, after_fall: bool) -> list[str]:
        hand = self.hands[seat]
        out = []
        for c in hand:
            if c in ACTIONS:
                if not after_fall and len(hand) > 1:
                    out.append(c)
            elif self._matches(c):
                out.append(c)
        return out

    def _next(self, seat: int) -> int:
        return (seat - 1 + self.direction) % self.n + 1

    # --- one game --------------------------------------------------------------------------

    def _game(self, number: int) -> int | None:
        rng = self.rng
        self.deck = deck_cards(self.letters)
        rng.shuffle(self.deck)
        self.discard = []
        self.hands = {s: [self.deck.pop() for _ in range(self.hand_size)]
                      for s in range(1, self.n + 1)}
        self.tower = []
        self.direction = 1
        dealer = (number - 1) % self.n + 1
        counts = {f"hand:{s}": self.hand_size for s in self.hands}
        self._emit(Deal(self._tick(), counts=counts, dealer=dealer), "legal")
        cur = dealer % self.n + 1
        if rng.random() < 0.5:
            cur = rng.randint(1, self.n)  # the tallest player, named on the dashboard
            self._emit(RoundStart(self._tick(0.5, 2.0), seat=cur), "legal")
        for _turn in range(self.max_turns):
            result = self._turn(cur)
            if result is None:
                break
            if result < 0:
                return cur
            cur = result
        self._emit(RoundStop(self._tick(), reason="the simulated table gave up"))
        return None

    def _turn(self, seat: int) -> int | None:
        """Play one turn; the next seat, -1 when this seat won, None when the game is stuck."""
        rng = self.rng
        after_fall = False
        if rng.random() < self.mistakes:
            self._out_of_turn(seat)
        for _attempt in range(20):
            hand = self.hands[seat]
            if rng.random() < self.mistakes:
                self._wrong_card(seat, after_fall)
            playable = self._playable(seat, after_fall)
            drawn = 0
            while not playable and drawn < 30:
                # "draw until you find a playable card": one dashboard tap per card
                hand.append(self._draw())
                drawn += 1
                self._emit(ManualEntry(self._tick(), action="draw", seat=seat, value=1),
                           "legal")
                playable = self._playable(seat, after_fall)
            if not playable:
                return None
            card = rng.choice(playable)
            if card not in ACTIONS and len(playable) > 1 and rng.random() < self.mistakes:
                # a change of mind: the card goes back to the hand before any block is added
                self._emit(CardPlaced(self._tick(), seat=seat, card=card, to=DISCARD,
                                      source=Place("hand", seat)), "legal")
                self._emit(CardTakenBack(self._tick(0.3, 1.0), seat=seat, card=card,
                                         at=DISCARD), "legal")
                card = rng.choice([c for c in playable if c != card] or [card])
            hand.remove(card)
            self.discard.append(card)
            self._emit(CardPlaced(self._tick(), seat=seat, card=card, to=DISCARD,
                                  source=Place("hand", seat)), "legal")
            if card in ACTIONS:
                if card == "REV":
                    self.direction = -self.direction
                return self._next(seat)
            matches = self._matches(card)
            block = rng.choice(matches)
            if rng.random() < self.mistakes:
                self._wrong_block(seat, matches)
            fell = self._place_block(seat, block)
            if fell:
                hand.extend(self._draw() for _ in range(3))
                after_fall = True
                continue
            if len(self.tower) >= 9 or not hand:
                return -1
            if card == "XX-REV":
                self.direction = -self.direction
            nxt = self._next(seat)
            if card == "XX-DRAW":
                self.hands[nxt].append(self._draw())
            return nxt
        return None

    def _place_block(self, seat: int, block: tuple[int, int]) -> bool:
        """Add the block and count; True when the tower fell."""
        rng = self.rng
        tb = self._tick(0.8, 2.5)
        ev = BlockAdded(tb, seat=seat, colour=self.colours[block[0]], size=SIZES[block[1]])
        height = len(self.tower)
        if height and rng.random() < self.fall * height:
            self.tower = []
            if rng.random() < 0.3:
                # the tilt sensor reports before the camera's (earlier stamped) frame arrives
                tf = round(tb + rng.uniform(0.02, self.grace / 2), 3)
                self._emit(Tilt(tf, magnitude=round(rng.uniform(1, 4), 2)), "info")
                self._emit(ev)
                self.t = tf
                return True
            self._emit(ev, "legal")
            tf = round(tb + rng.uniform(0.1, 3 * self.count_s - 0.1), 3)
            for k in range(1, 3):
                if tb + k * self.count_s < tf:
                    self._emit(Clock(round(tb + k * self.count_s, 3)))
            self._emit(Tilt(tf, magnitude=round(rng.uniform(1, 4), 2)), "info")
            self.t = tf
            if rng.random() < 0.5:
                self._emit(TowerFell(self._tick(0.1, 0.4), blocks_left=0))
            return True
        self.tower.append(block)
        self._emit(ev, "legal")
        for k in range(1, 4):
            self._emit(Clock(round(tb + k * self.count_s, 3)))
        self.t = round(tb + 3 * self.count_s, 3)
        return False

    # --- mistakes --------------------------------------------------------------------------

    def _wrong_card(self, seat: int, after_fall: bool) -> None:
        hand = self.hands[seat]
        if len(hand) == 1 and hand[0] in ACTIONS:
            bad = hand[0]  # the last card cannot be an action card
        else:
            stuck = [c for c in hand if c not in ACTIONS and not self._matches(c)]
            if not stuck:
                return
            bad = self.rng.choice(stuck)
        self._emit(CardPlaced(self._tick(), seat=seat, card=bad, to=DISCARD,
                              source=Place("hand", seat)), "illegal")
        self._emit(CardTakenBack(self._tick(0.4, 1.2), seat=seat, card=bad, at=DISCARD), "legal")

    def _out_of_turn(self, seat: int) -> None:
        other = self.rng.choice([s for s in range(1, self.n + 1) if s != seat])
        if not self.hands[other]:
            return
        card = self.rng.choice(self.hands[other])
        self._emit(CardPlaced(self._tick(0.2, 0.8), seat=other, card=card, to=DISCARD,
                              source=Place("hand", other)), "illegal")
        self._emit(CardTakenBack(self._tick(0.4, 1.2), seat=other, card=card, at=DISCARD),
                   "legal")

    def _wrong_block(self, seat: int, matches: list[tuple[int, int]]) -> None:
        """A block that does not match the card (it is taken off before the right one)."""
        wrong = [(c, s) for c in range(3) for s in range(3)
                 if (c, s) not in self.tower and (c, s) not in matches]
        if not wrong:
            return
        b = self.rng.choice(wrong)
        self._emit(BlockAdded(self._tick(0.8, 2.0), seat=seat, colour=self.colours[b[0]],
                              size=SIZES[b[1]]), "illegal")
