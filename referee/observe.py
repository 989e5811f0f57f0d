"""Turning what vision and hardware report into the rules core's table events.

Vision speaks in card codes, table millimetres and zone names; the rules core speaks in places.
Here a card at rest in the centre becomes ``pile:N`` (piles are numbered as they appear and a
number is never reused), a card in a named spot keeps the spot's place (``row:2:4``,
``store:1:3``, ``pattern:5:3``, ``discard``), and the deal snapshot becomes a ``deal`` event with
the counts of face-down cards that the game's deal prescribes (the camera cannot count them).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from referee.rules import (
    BlockAdded,
    CardPlaced,
    CardRevealed,
    CardTakenBack,
    Deal,
    Event,
    EventError,
    Place,
    TowerFell,
)

# Face-down cards per seat at the deal, by game (rulebooks): place area -> count.
DEAL_COUNTS: dict[str, dict[str, int]] = {
    "wackee-six": {"reserve": 6, "stock": 42},  # 52 + 2 WILDs - 12 dealt
    "spite-and-malice": {"stack": 7, "hand": 4},
    "wonky": {"hand": 7},
    "slap-wacky": {"hand": 5},
    # Wig Out: none. Players draw from the face-down draw pile whenever they cannot play, and the
    # camera cannot count cards taken off a face-down pile: a count from the deal would be wrong
    # by every draw, and judge a good "Wig Out!" false. Without it the referee asks the table to
    # confirm each call, and takes the hands left at the end from the dashboard or the cards
    # laid face down in each seat zone (docs/referee.md: "What the referee asks instead").
}

PILE_RADIUS_MM = 45.0
UNREAD = "?"  # vision's code for a card face it could not read
REVEAL_AREAS = frozenset({"waste", "row", "up"})  # seat spots where a card face is revealed
HIDDEN_AREAS = frozenset({"hand", "stock", "reserve", "stack", "zone"})  # a card landing this close to a pile's centre lands on that pile


@dataclass
class _Pile:
    number: int
    x: float
    y: float
    cards: list[str] = field(default_factory=list)


class Observer:
    """Stateful translation for one round of one game (piles are remembered)."""

    def __init__(self, game: str, seats: int, pile_radius_mm: float = PILE_RADIUS_MM,
                 first_dealer: int = 1) -> None:
        self.game = game
        self.seats = seats
        self.radius = pile_radius_mm
        self._piles: list[_Pile] = []
        self._next_pile = 1
        self._deals = first_dealer - 1  # rounds dealt before (the first deal's dealer - 1)

    def reset(self) -> None:
        self._piles.clear()
        self._next_pile = 1

    # --- piles -------------------------------------------------------------------------------

    def _pile_at(self, x: float, y: float) -> _Pile | None:
        best: tuple[float, _Pile] | None = None
        for p in self._piles:
            d = math.hypot(x - p.x, y - p.y)
            if d <= self.radius and (best is None or d < best[0]):
                best = (d, p)
        return best[1] if best else None

    def _land(self, code: str, x: float, y: float) -> Place:
        pile = self._pile_at(x, y)
        if pile is None:
            pile = _Pile(self._next_pile, x, y)
            self._next_pile += 1
            self._piles.append(pile)
        pile.cards.append(code)
        return Place("pile", None, pile.number)

    def _lift(self, code: str, x: float, y: float) -> Place | None:
        pile = self._pile_at(x, y)
        if pile is None:
            candidates = [p for p in self._piles if code in p.cards]
            pile = candidates[-1] if candidates else None
        if pile is None:
            return None
        if code in pile.cards:
            pile.cards.remove(code)
        if not pile.cards:
            self._piles.remove(pile)
        return Place("pile", None, pile.number)

    # --- zones ---------------------------------------------------------------------------------

    @staticmethod
    def _place(zone: str | None) -> Place | None:
        if not zone or zone in ("centre", "off"):
            return None
        try:
            return Place.parse(zone)
        except EventError:
            return None

    # --- observations ------------------------------------------------------------------------

    def translate(self, obs: Any) -> list[Event]:
        """Events for one vision observation (vision.types.*Obs); [] when it means nothing."""
        kind = getattr(obs, "kind", None)
        if kind == "card_rest":
            if obs.code == UNREAD:
                return []  # a card vision could not read is not judged (the live view marks it)
            to = self._place(obs.zone)
            if to is None or to.area in ("zone", "hand"):
                to = self._land(obs.code, obs.x_mm, obs.y_mm)
            source = self._place(obs.from_zone)
            if to.area in REVEAL_AREAS and (source is None or source.area in HIDDEN_AREAS):
                # a card laid face up in a seat's own spot from the hand or a face-down pile is
                # a reveal: a three-card turn onto the waste, a row refill, a new UP card
                return [CardRevealed(obs.t, obs.seat or to.seat, obs.code, to)]
            return [CardPlaced(obs.t, obs.seat, obs.code, to, source)]
        if kind == "reveal":
            at = self._place(obs.zone)
            if at is None:
                return []
            if at.area not in REVEAL_AREAS:
                # a card that appeared in a seat's spot where cards are laid, not turned up (a
                # Spite and Malice store pile): it came from the hand
                return [CardPlaced(obs.t, obs.seat, obs.code, at, None)]
            return [CardRevealed(obs.t, obs.seat, obs.code, at)]
        if kind == "take_back":
            at = self._place(obs.zone)
            if at is None or at.area in ("zone", "hand"):
                at = self._lift(obs.code, obs.x_mm, obs.y_mm)
            if at is None:
                return []
            return [CardTakenBack(obs.t, obs.seat, obs.code, at)]
        if kind == "left_unseen":  # a row card gone where the camera did not see it land
            source = self._place(obs.zone)
            if source is None or obs.code == UNREAD:
                return []
            return [CardPlaced(obs.t, obs.seat, obs.code, Place("unseen"), source)]
        if kind == "deal":
            return [self.deal(obs)]
        if kind == "block":  # Wonky: the seat is the current player's unless vision saw it
            return [BlockAdded(obs.t, obs.seat, obs.colour, obs.size)]
        if kind == "tower_fell":
            return [TowerFell(obs.t, obs.blocks_left)]
        return []

    def deal(self, obs: Any) -> Deal:
        """The deal as laid out: face-up cards by place, face-down counts from the rulebook.

        The camera cannot see who dealt: `first_dealer` deals the first round (seat 1 unless
        told) and the deal moves one seat on each round (as the rules core's simulated players
        deal)."""
        self.reset()
        self._deals += 1
        layout: dict[str, list[str]] = {}
        for card in obs.cards:
            if not card.face_up:
                continue
            place = self._place(card.zone)
            if place is None:
                place = self._land(card.code, card.x_mm, card.y_mm)
            layout.setdefault(str(place), []).append(card.code)
        counts = {f"{area}:{seat}": n
                  for area, n in DEAL_COUNTS.get(self.game, {}).items()
                  for seat in range(1, self.seats + 1)}
        return Deal(obs.t, {k: tuple(v) for k, v in layout.items()}, counts,
                    dealer=(self._deals - 1) % self.seats + 1)
