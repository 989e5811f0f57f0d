"""A simulated game table: a timeline of table actions played out as camera frames with truth.

The lead's simulated players (referee/sim) drive it with actions; it imports nothing of referee/.
Each action starts at its time t: an arm comes in from the seat's table edge, picks the card
from its place (or brings it from the hand), slides it to its target where it lands askew, and
withdraws. Frames are rendered at `fps` on a virtual clock starting at t0; every frame comes
with the truth events whose time has come: a card's rest time is the capture time of the first
frame in which it lay still at its final place.

>>> from vision.sim_standin import StandInDeck
>>> from vision.layout import make_layout
>>> deck, lay = StandInDeck(), make_layout(2)
>>> sim = SimTable(lay, deck, [TableAction(0.1, "place", 1, "AS", to_mm=(550, 450))],
...                camera=CameraSpec(width=480, height=270), look=Look.clean(), duration=1.0)
>>> events = [ev for _, ev in sim][-1]
>>> [(e.kind, getattr(e, "code", None), getattr(e, "seat", None)) for e in events]
[('deal', None, None), ('card_rest', 'AS', 1)]
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from vision.layout import TableLayout
from vision.render import SKIN_TONES, CameraSpec, CardPose, DeckLike, HandPose, Look, Renderer
from vision.types import (
    CardRestObs,
    CardSeen,
    DealObs,
    Frame,
    RevealObs,
    TableObservation,
    TakeBackObs,
)

HAND_SPEED_MM_S = 1400.0
SPOT_LANDING_MM = 3.0  # a card laid on a layout spot lands this far off its middle (sd, each way)


@dataclass(frozen=True)
class TableAction:
    """One thing a player does at the table.

    kind: "place" (a card to to_mm, from from_zone: a spot like "row:2:3", or None / "hand" /
    "stock" for a card brought from the player's hand), "reveal" (a card face laid in the seat's
    own zone, at spot `zone` or to_mm), "take_back" (the card `code` is lifted off its place and
    taken back to the seat: of several alike on the table, the one nearest to_mm where given),
    "expose" (no arm: the card lay squared under the top card of spot `zone`, face up, and
    shows once that card is lifted, as the next card of a three-card turn on a waste pile
    does), "gather" (every card on spot `zone` is picked up at once and taken
    back to the seat: a waste pile turned over to be the stock again; not a rules event, so no
    truth event). angle_deg: the final angle (None: upright for the seat, askew). land_t: the
    time the card lands, if it must land then (the hand moves as fast as that takes).
    """

    t: float
    kind: str
    seat: int
    code: str
    deck: DeckLike | None = None
    from_zone: str | None = None
    to_mm: tuple[float, float] | None = None
    zone: str | None = None
    face_up: bool = True
    back: str | None = None
    angle_deg: float | None = None
    land_t: float | None = None  # when the card should land (None: at the hand's own pace)

    @classmethod
    def of(cls, item) -> TableAction:
        """Accept a TableAction or a tuple (t, kind, seat, code, deck, from_zone, to_mm)."""
        if isinstance(item, TableAction):
            return item
        t, kind, seat, code, *rest = item
        names = ["deck", "from_zone", "to_mm", "zone", "face_up", "back", "angle_deg", "land_t"]
        return cls(float(t), kind, int(seat), code, **dict(zip(names, rest, strict=False)))


@dataclass
class _Card:
    key: int
    deck: DeckLike
    code: str
    x: float
    y: float
    angle: float
    face_up: bool = True
    back: str | None = None
    z: float = 0.0
    zone: str = "centre"
    on_table: bool = True
    busy: bool = False


def _ease(u: float) -> float:
    """Slide under friction: speed falls linearly to zero."""
    u = min(max(u, 0.0), 1.0)
    return 1 - (1 - u) ** 2


def _landing_error(act: TableAction) -> np.ndarray:
    """How far off a spot's middle a hand lays the action's card (mm): drawn from a generator
    seeded by the action, so that the table's other draws, and with them a seed's game, stay
    as they were."""
    seed = zlib.crc32(f"{act.t:.4f}|{act.seat}|{act.code}|{act.zone}".encode())
    err = np.random.default_rng(seed).normal(0.0, SPOT_LANDING_MM, 2)
    return np.clip(err, -2 * SPOT_LANDING_MM, 2 * SPOT_LANDING_MM)


class _Motion:
    """One action's script: where the hand and its card are at time t."""

    def __init__(self, sim: SimTable, act: TableAction, rng: np.random.Generator) -> None:
        lay = sim.layout
        self.act = act
        self.seat = lay.seat(act.seat)
        s = self.seat
        lateral = rng.uniform(-0.25, 0.25) * s.span
        self.shoulder = np.array(s.point(lateral, -380.0))
        self.edge = np.array(s.point(lateral * 0.8, -40.0))  # hand just outside the table
        self.skin = SKIN_TONES[(act.seat * 2 + 1) % len(SKIN_TONES)]
        self.sleeve = [(90, 60, 40), (40, 40, 120), (200, 200, 200), (30, 30, 30), (60, 120, 60),
                       (150, 100, 180)][act.seat % 6]
        self.card: _Card | None = None
        self.start = np.array(self.edge)
        self.target = np.array(self.edge)
        self.final_angle = 0.0
        self.start_angle = 0.0
        t = act.t
        self.lifts = act.kind in ("take_back", "gather")  # a card off the table, to the seat
        if act.kind == "gather":
            self.card = sim.card_in_zone(act.zone or "")
            if self.card is None:
                raise ValueError(f"simulated table: nothing on {act.zone} to gather")
        if self.lifts:
            if act.kind == "take_back":
                self.card = sim.card_by_code(act.code, act.to_mm)
            assert self.card is not None
            self.pick = np.array([self.card.x, self.card.y])
            self.start_angle = self.card.angle
            self.target = self.edge.copy()
        else:
            if act.to_mm is not None:
                self.target = np.array(act.to_mm)
            else:  # a spot: no hand lays a card at its very middle, nor twice at the same place
                spot = lay.spot(act.zone)  # type: ignore[arg-type]
                self.target = np.array((spot.cx, spot.cy)) + _landing_error(act)
            askew = float(rng.normal(0, 7.0))
            self.final_angle = (act.angle_deg if act.angle_deg is not None
                                else s.card_angle_deg + askew)
            src = act.from_zone
            self.from_table = src is not None and src not in ("hand", "stock")
            if self.from_table:
                self.card = sim.card_in_zone(src)  # type: ignore[arg-type]
                if self.card is None or self.card.code != act.code:
                    self.card = sim.find_card(act.code, act.face_up)
                self.from_table = self.card is not None  # not there: it comes from the hand
            if self.from_table and self.card is not None:
                self.pick = np.array([self.card.x, self.card.y])
                self.start_angle = self.card.angle
            else:
                self.pick = self.edge.copy()
                self.start_angle = s.card_angle_deg + float(rng.normal(0, 20))
                deck = act.deck or sim.deck
                self.card = sim.new_card(deck, act.code, act.face_up, act.back)
                self.card.on_table = False
        assert self.card is not None
        self.card.busy = True
        d_reach = float(np.linalg.norm(self.pick - self.edge))
        d_move = float(np.linalg.norm(self.target - self.pick))
        self.t_pick = t + (0.05 + d_reach / HAND_SPEED_MM_S if self.lifts
                           or getattr(self, "from_table", False) else 0.0)
        self.t_land = self.t_pick + 0.12 + d_move / HAND_SPEED_MM_S * 1.6
        if act.land_t is not None and not self.lifts:  # a quicker or slower hand, to be on time
            self.t_land = max(self.t_pick + 0.12, act.land_t)
        self.t_release = self.t_land + rng.uniform(0.03, 0.12)
        self.t_gone = self.t_release + 0.08 + np.linalg.norm(self.target - self.edge) / (
            HAND_SPEED_MM_S * 1.3)
        self.t_end = self.t_gone
        self.landed = False

    def hand_at(self, t: float) -> tuple[np.ndarray, float] | None:
        """Hand centre (mm) and its height at time t, or None when it is not over the table."""
        a = self.act
        if t < a.t or t >= self.t_gone:
            return None
        if t < self.t_pick:
            u = (t - a.t) / max(self.t_pick - a.t, 1e-6)
            return self.edge + (self.pick - self.edge) * _ease(u), 70.0
        if t < self.t_land:
            u = _ease((t - self.t_pick) / (self.t_land - self.t_pick))
            return self.pick + (self.target - self.pick) * u, 35.0
        if t < self.t_release:
            return self.target.copy(), 40.0
        u = (t - self.t_release) / (self.t_gone - self.t_release)
        return self.target + (self.edge - self.target) * _ease(u), 40.0 + 80 * u

    def card_at(self, t: float) -> tuple[np.ndarray, float, np.ndarray] | None:
        """Card centre, angle, velocity (mm/s) while moving; None before pick and after landing."""
        if t < self.t_pick:
            return None
        if self.lifts:
            if t >= self.t_gone:
                return None
            u = (t - self.t_pick) / (self.t_gone - self.t_pick)
            p = self.pick + (self.edge - self.pick) * _ease(u)
            return p, self.start_angle, (self.edge - self.pick) / (self.t_gone - self.t_pick)
        if t >= self.t_land:
            return None
        u = (t - self.t_pick) / (self.t_land - self.t_pick)
        e = _ease(u)
        p = self.pick + (self.target - self.pick) * e
        ang = self.start_angle + _angle_diff(self.final_angle, self.start_angle) * e
        v = (self.target - self.pick) * 2 * (1 - u) / (self.t_land - self.t_pick)
        return p, ang, v


def _angle_diff(a: float, b: float) -> float:
    return (a - b + 180) % 360 - 180


class SimTable:
    """Plays a timeline of TableActions as frames: iterate for (Frame, truth events so far)."""

    def __init__(self, layout: TableLayout, deck: DeckLike, actions, *,
                 initial: list[CardPose] | None = None, camera: CameraSpec | None = None,
                 look: Look | None = None, fps: float = 30.0, t0: float = 0.0,
                 duration: float | None = None, rng: np.random.Generator | None = None,
                 tower=None) -> None:
        self.layout, self.deck, self.fps, self.t0 = layout, deck, float(fps), float(t0)
        self.tower = tower  # Wonky's blocks (vision.sim_tower.SimTower), if any
        self.rng = rng if rng is not None else np.random.default_rng(0)
        self.actions = sorted((TableAction.of(a) for a in actions), key=lambda a: a.t)
        self.renderer = Renderer(camera or CameraSpec(), look or Look(), layout.table_w,
                                 layout.table_h, self.rng)
        self.cards: list[_Card] = []
        self._z = 0.0
        for cp in initial or []:
            c = self.new_card(cp.deck, cp.code, cp.face_up, cp.back)
            c.x, c.y, c.angle = cp.x_mm, cp.y_mm, cp.angle_deg
            c.zone = layout.zone_at(c.x, c.y)
        last = max((a.t for a in self.actions), default=0.0)
        self.duration = duration if duration is not None else last + 2.0
        self.events: list[TableObservation] = []
        self.skipped: list[TableAction] = []  # actions that could not be acted out
        self._pending: list[TableObservation] = []
        self._exposing: dict[int, list[tuple[_Card, int]]] = {}  # lifted card key -> under it
        # id(event) -> fraction of the card visible in the frame the event happened
        self.visibility: dict[int, float] = {}

    # -- state helpers used by the motions

    def new_card(self, deck: DeckLike, code: str, face_up: bool = True,
                 back: str | None = None) -> _Card:
        self._z += 1
        c = _Card(len(self.cards), deck, code, 0.0, 0.0, 0.0, face_up, back, self._z)
        self.cards.append(c)
        return c

    def find_card(self, code: str, face_up: bool = True) -> _Card | None:
        for c in reversed(self.cards):
            if c.on_table and not c.busy and c.code == code and c.face_up == face_up:
                return c
        return None

    def card_by_code(self, code: str, near: tuple[float, float] | None = None) -> _Card:
        """The card of that code on the table: the latest laid, or the one nearest `near`."""
        alike = [c for c in reversed(self.cards) if c.on_table and c.code == code]
        if not alike:
            raise ValueError(f"simulated table: no card {code!r} on the table to pick up")
        if near is None:
            return alike[0]
        return min(alike, key=lambda c: (c.x - near[0]) ** 2 + (c.y - near[1]) ** 2)

    def card_in_zone(self, zone: str) -> _Card | None:
        best = None
        for c in self.cards:
            if c.on_table and not c.busy and c.zone == zone and (best is None or c.z > best.z):
                best = c
        return best

    def _expose(self, act: TableAction) -> None:
        """Slip the card under the top card of its spot, where it lay all along unseen."""
        assert act.zone is not None
        on_spot = [c for c in self.cards if c.on_table and c.zone == act.zone]
        if not on_spot:
            self.skipped.append(act)
            return
        top = max(on_spot, key=lambda c: c.z)
        c = self.new_card(act.deck or self.deck, act.code, True, act.back)
        c.x, c.y, c.angle, c.zone, c.z = top.x, top.y, top.angle, top.zone, top.z - 0.5
        self._exposing.setdefault(top.key, []).append((c, act.seat))

    # -- the clock

    def __iter__(self) -> Iterator[tuple[Frame, list[TableObservation]]]:
        n_frames = int(round(self.duration * self.fps))
        pending = list(self.actions)
        active: list[_Motion] = []
        n_seen = 0
        for k in range(n_frames + 1):
            t = self.t0 + k / self.fps
            while pending and pending[0].t <= t:
                act = pending.pop(0)
                if act.kind == "expose":
                    self._expose(act)
                    continue
                try:
                    active.append(_Motion(self, act, self.rng))
                except ValueError:  # e.g. a take-back of a card that is not on the table
                    self.skipped.append(act)
            if k == 0:
                self.events.append(DealObs(tuple(
                    CardSeen(c.code, c.x, c.y, c.angle, c.zone, self.layout.seat_of_zone(c.zone),
                             c.face_up, c.back) for c in self.cards if c.on_table), t))
            poses: dict[int, CardPose] = {}
            hands: list[HandPose] = []
            for m in list(active):
                self._step(m, t, poses, hands)
                if t >= m.t_end:
                    active.remove(m)
            cards = []
            for c in self.cards:
                if c.key in poses:
                    cards.append(poses[c.key])
                elif c.on_table:
                    cards.append(CardPose(c.deck, c.code, c.x, c.y, c.angle, c.face_up, c.back,
                                          c.z, key=c.key))
            blocks: list = []
            if self.tower is not None:
                before = len(self.tower.events)
                blocks, arms = self.tower.step(t)
                hands.extend(arms)
                self.events.extend(self.tower.events[before:])
            res = self.renderer.render(cards, hands, self.rng, blocks=blocks)
            self.last_render = res
            for ev in self.events[n_seen:]:
                self.visibility[id(ev)] = self._visible(ev, res.cards)
            n_seen = len(self.events)
            yield Frame(res.image, t, k), list(self.events)

    @staticmethod
    def _visible(ev, cards) -> float:
        """How much of an event's card shows in the frame: of the cards with its code (a deck
        holds copies), the one lying nearest the event's place."""
        code = getattr(ev, "code", None)
        alike = [c for c in cards if c.code == code]
        if not alike:
            return 0.0
        x, y = getattr(ev, "x_mm", 0.0), getattr(ev, "y_mm", 0.0)
        return min(alike, key=lambda c: (c.x_mm - x) ** 2 + (c.y_mm - y) ** 2).visible

    def _step(self, m: _Motion, t: float, poses: dict[int, CardPose],
              hands: list[HandPose]) -> None:
        c = m.card
        assert c is not None
        h = m.hand_at(t)
        if h is not None:
            # fingers rest on the card's near end: the hand sits back towards the shoulder
            d = h[0] - m.shoulder
            d = d / (np.linalg.norm(d) or 1.0)
            hands.append(HandPose(tuple(m.shoulder), tuple(h[0] - d * 75.0), m.skin, m.sleeve,
                                  height_mm=h[1], spread=0.4))
        act = m.act
        pose = m.card_at(t)
        if pose is not None:
            p, ang, v = pose
            if m.lifts and not c.busy:
                return
            if m.lifts and c.on_table:
                c.on_table = False
                if act.kind == "take_back":
                    self.events.append(TakeBackObs(c.code, c.x, c.y, c.zone, t, act.seat))
                else:  # the rest of the pile goes with its top card
                    for o in self.cards:
                        if o.on_table and o.zone == c.zone:
                            o.on_table = False
            for under, seat in self._exposing.pop(c.key, []):  # lifted: the card below shows
                self.events.append(RevealObs(under.code, under.x, under.y, under.zone, seat, t))
            if not m.lifts or np.linalg.norm(p - m.edge) > 30:
                poses[c.key] = CardPose(c.deck, c.code, float(p[0]), float(p[1]), ang,
                                        c.face_up, c.back, 1e6 + c.z, lift_mm=1.0,
                                        vx=float(v[0]) / self.fps, vy=float(v[1]) / self.fps,
                                        key=c.key)
            return
        if not m.lifts and t >= m.t_land and not m.landed:
            m.landed = True
            self._z += 1
            c.x, c.y, c.angle = float(m.target[0]), float(m.target[1]), m.final_angle
            c.z, c.on_table, c.busy = self._z, True, False
            c.zone = self.layout.zone_at(c.x, c.y)
            if act.kind == "reveal":
                self.events.append(RevealObs(c.code, c.x, c.y, c.zone, act.seat, t))
            else:
                from_zone = act.from_zone if getattr(m, "from_table", False) else None
                self.events.append(CardRestObs(c.code, c.x, c.y, c.angle, c.zone, t, act.seat,
                                               from_zone, c.face_up, c.back))
        if m.lifts and t >= m.t_gone:
            c.busy = False
