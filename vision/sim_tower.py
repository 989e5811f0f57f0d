"""Wonky's tower on the simulated table: arms bring blocks, take them off, the tower falls.

A SimTower is stepped with the frame times of a SimTable (or on its own with `frames()`): it
gives the blocks and arms to draw, and the truth: BlockObs stamped with the capture time of the
first frame in which the block lay still on the tower, TowerFellObs with the first frame in
which the tower was down (a block taken off: the first frame in which it was lifted).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from vision.blocks import BLOCK_EDGE_MM, BlockPose
from vision.layout import TableLayout
from vision.render import SKIN_TONES, CameraSpec, HandPose, Look, Renderer
from vision.types import BlockObs, Frame, TowerFellObs

HAND_SPEED_MM_S = 1400.0


def _approach(u: float) -> float:
    """Slowing down towards the tower, but set down with some speed left (a block is put down,
    not eased in forever)."""
    u = min(max(u, 0.0), 1.0)
    return 0.7 * u * (2 - u) + 0.3 * u


@dataclass(frozen=True)
class TowerAction:
    """kind: "add" (seat brings a colour/size block to the top; it rests at t), "take_off" (the
    seat lifts the top block away, starting at t), "fall" (the tower comes down at t)."""

    t: float
    kind: str
    seat: int = 1
    colour: str = ""
    size: str = ""


class _Move:
    def __init__(self, tower: SimTower, act: TowerAction, rng: np.random.Generator) -> None:
        s = tower.layout.seat(act.seat)
        lateral = rng.uniform(-0.2, 0.2) * s.span
        self.act = act
        self.shoulder = np.array(s.point(lateral, -380.0))
        self.edge = np.array(s.point(lateral * 0.8, -40.0))
        self.skin = SKIN_TONES[(act.seat * 2 + 1) % len(SKIN_TONES)]
        self.target = np.array(tower.spot) + rng.normal(0, 2.5, 2)
        self.placed = False  # an added block has come to rest on the tower
        self.block: BlockPose | None = None  # the block a take-off lifted
        dist = float(np.linalg.norm(self.target - self.edge))
        travel = 0.12 + dist / HAND_SPEED_MM_S * 1.6
        if act.kind == "add":
            self.t_start, self.t_land = act.t - travel, act.t
            self.t_release = act.t + rng.uniform(0.05, 0.15)
            self.t_gone = self.t_release + 0.08 + dist / (HAND_SPEED_MM_S * 1.3)
            self.angle = float(rng.normal(0, 12))
        else:  # take_off
            self.t_start = act.t
            self.t_land = act.t + 0.05 + dist / HAND_SPEED_MM_S  # hand at the top block
            self.t_release = self.t_land + 0.1  # lifted
            self.t_gone = self.t_release + 0.08 + dist / (HAND_SPEED_MM_S * 1.3)
            self.angle = 0.0

    def hand(self, t: float, z: float) -> HandPose | None:
        if t < self.t_start or t >= self.t_gone:
            return None
        if t < self.t_land:
            u = _approach((t - self.t_start) / max(self.t_land - self.t_start, 1e-6))
            p = self.edge + (self.target - self.edge) * u
        elif t < self.t_release:
            p = self.target
        else:
            u = (t - self.t_release) / max(self.t_gone - self.t_release, 1e-6)
            p = self.target + (self.edge - self.target) * u
        d = p - self.shoulder
        d = d / (np.linalg.norm(d) or 1.0)
        # fingers hold the block from its near side: the top face shows
        return HandPose(tuple(self.shoulder), tuple(p - d * 95.0), self.skin, (60, 60, 60),
                        height_mm=z + 15.0, spread=0.3)


class SimTower:
    """The tower's blocks and the arms that move them, frame by frame."""

    def __init__(self, layout: TableLayout, spot: tuple[float, float], actions,
                 rng: np.random.Generator | None = None) -> None:
        self.layout = layout
        self.spot = spot
        self.rng = rng if rng is not None else np.random.default_rng(0)
        # (start time, action, its arm's script made in advance for additions)
        self.pending: list[tuple[float, TowerAction, _Move | None]] = []
        for act in sorted(actions, key=lambda a: a.t):
            m = _Move(self, act, self.rng) if act.kind == "add" else None
            self.pending.append((m.t_start if m else act.t, act, m))
        self.pending.sort(key=lambda p: p[0])
        self.stack: list[BlockPose] = []
        self.fallen: list[BlockPose] = []
        self.moves: list[_Move] = []
        self.events: list[BlockObs | TowerFellObs] = []
        self._fall: tuple[float, list[BlockPose], list[BlockPose]] | None = None

    def _start(self, t: float) -> None:
        while self.pending and self.pending[0][0] <= t:
            _, act, m = self.pending.pop(0)
            if act.kind == "fall":
                self._begin_fall(t)
            else:
                if act.kind == "add":  # a block that fell earlier is picked up from the table
                    self.fallen = [b for b in self.fallen if (b.colour, b.size) != (act.colour, act.size)]
                self.moves.append(m if m is not None else _Move(self, act, self.rng))

    def _begin_fall(self, t: float) -> None:
        start = list(self.stack)
        end = []
        for b in start:
            a = self.rng.uniform(0, 2 * math.pi)
            r = self.rng.uniform(110, 200)
            end.append(BlockPose(b.colour, b.size, self.spot[0] + r * math.cos(a),
                                 self.spot[1] + r * math.sin(a), 0.0, float(self.rng.uniform(0, 90))))
        self.stack = []
        self._fall = (t, start, end)
        self.events.append(TowerFellObs(0, t))  # the first frame in which the tower is down

    def step(self, t: float) -> tuple[list[BlockPose], list[HandPose]]:
        """Blocks and arms at time t (call with increasing t); truth goes to self.events."""
        self._start(t)
        hands: list[HandPose] = []
        blocks = list(self.fallen)
        if self._fall is not None:
            t0, start, end = self._fall
            u = (t - t0) / 0.35
            if u >= 1.0:
                self.fallen.extend(end)
                blocks.extend(end)
                self._fall = None
            else:
                for a, b in zip(start, end, strict=True):
                    blocks.append(BlockPose(a.colour, a.size, a.x_mm + (b.x_mm - a.x_mm) * u,
                                            a.y_mm + (b.y_mm - a.y_mm) * u, a.z_mm * (1 - u) ** 2,
                                            a.angle_deg + 40 * u))
        height = sum(b.edge for b in self.stack)
        for m in list(self.moves):
            a = m.act
            if a.kind == "add":
                edge = BLOCK_EDGE_MM[a.size]
                if t < m.t_land:
                    u = _approach((t - m.t_start) / max(m.t_land - m.t_start, 1e-6))
                    p = m.edge + (m.target - m.edge) * u
                    lift = height + 30.0 * (1 - u)
                    blocks.append(BlockPose(a.colour, a.size, float(p[0]), float(p[1]), lift,
                                            m.angle + 30 * (1 - u)))
                    hands.append(m.hand(t, lift + edge))  # type: ignore[arg-type]
                else:
                    if not m.placed:
                        m.placed = True
                        self.stack.append(BlockPose(a.colour, a.size, float(m.target[0]),
                                                    float(m.target[1]), height, m.angle))
                        self.events.append(BlockObs(a.colour, a.size, t, a.seat))
                        height += edge
                    hp = m.hand(t, height)
                    if hp is not None:
                        hands.append(hp)
            else:  # take_off
                if not self.stack and m.block is None:
                    self.moves.remove(m)
                    continue
                if t >= m.t_land and m.block is None:
                    m.block = self.stack.pop()
                    height -= m.block.edge
                    self.events.append(TowerFellObs(len(self.stack), t))
                hp = m.hand(t, height + 40.0)
                if hp is not None:
                    hands.append(hp)
                    b = m.block
                    if b is not None:
                        hx, hy = hp.hand_mm
                        blocks.append(BlockPose(b.colour, b.size, hx, hy, height + 20.0, b.angle_deg))
            if t >= m.t_gone:
                self.moves.remove(m)
        return self.stack + blocks, hands

    def frames(self, camera: CameraSpec, look: Look, fps: float = 30.0, t0: float = 0.0,
               duration: float = 5.0) -> Iterator[tuple[Frame, list[BlockObs | TowerFellObs]]]:
        """Render the tower alone on the table: (frame, truth so far)."""
        r = Renderer(camera, look, self.layout.table_w, self.layout.table_h, self.rng)
        for k in range(int(round(duration * fps)) + 1):
            t = t0 + k / fps
            blocks, hands = self.step(t)
            res = r.render([], hands, self.rng, blocks=blocks)
            yield Frame(res.image, t, k), list(self.events)
