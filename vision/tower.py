"""Watching Wonky's tower from above: which block came to rest on top, and when blocks fell.

The watcher looks only at the tower's part of the picture (the tower spot, projected from the
table up to the height of nine large blocks). When that part has been still for a moment and
differs from the last accepted picture, it is judged:

- the top block's face (remembered when the block was added) has lost its colour: blocks were
  taken off or fell; the highest block whose face shows again is the new top (TowerFellObs with
  the number still standing; the rules core decides whether that was a fall);
- a face of one of the block colours, bright (a top face: lit from above) and new, lies on the
  tower's axis: a block was added (BlockObs). Its size is measured on the plane of its own top
  face: the tower's height is the sum of the blocks seen added (see vision/blocks.py);
- something else changed that is not a block colour, not cloth seen again and not a shadow: a
  hand (or a phone) rests there; wait for it to go.

The time reported is the capture time of the first frame in which the new top face looked as it
does now (a short history of the tower's picture is kept), not the moment the hand left.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

import cv2
import numpy as np

from vision.blocks import (
    BLOCK_EDGE_MM,
    BLOCK_SIZES,
    DEFAULT_HFOV_DEG,
    camera_from_homography,
    colour_hue,
)
from vision.types import BlockObs, Frame, TowerFellObs

TOWER_RADIUS_MM = 75.0  # blocks of a standing tower stay this close to the tower spot's centre
RING_MM = 115.0  # an arm reaching the tower crosses the ring between TOWER_RADIUS_MM and this
RING_QUIET_S = 0.4  # the ring must have been still this long before the tower is judged
MAX_BLOCKS = 9
STILL_FRAMES = 2  # frames without motion before the tower's picture is judged
MOTION_LEVEL = 22  # grey-level change that counts as motion / as a change
HUE_TOL = 8  # OpenCV hue units (0..180): skin (hue 9-13) is not red paint (179)
MIN_SAT = 150  # paint is saturated; skin and most cloth are not
BRIGHT = 0.8  # a top face is at least this bright relative to its colour's brightest pixels
RIM = 0.7  # ... and its blurred rim at least this bright
HISTORY_S = 1.5
SHOWN = 0.5  # share of a remembered face that must still show its colour


def _same_colour(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pixels whose colour differs only in brightness (a shadow, a change of light)."""
    x = a.astype(np.float32) + 1
    y = b.astype(np.float32) + 1
    cos = (x * y).sum(axis=2) / np.sqrt((x * x).sum(axis=2) * (y * y).sum(axis=2))
    return cos > 0.995


@dataclass
class _Placed:
    colour: str
    size: str
    face: np.ndarray  # bool mask (tower picture) of its top face when it was added
    picture: np.ndarray  # the tower picture then


class TowerWatcher:
    """Turns frames into block and tower observations; one per Wonky table."""

    def __init__(self, table_to_image: np.ndarray, image_size: tuple[int, int],
                 tower_mm: tuple[float, float], colours: tuple[str, ...] = ("red", "green", "blue"),
                 hfov_deg: float = DEFAULT_HFOV_DEG, edges_mm: dict[str, float] | None = None) -> None:
        self.cam = camera_from_homography(table_to_image, image_size, hfov_deg)
        self.tower = tower_mm
        self.colours = tuple(colours)
        self.hues = np.array([colour_hue(c) for c in self.colours])
        self.edges = dict(edges_mm or BLOCK_EDGE_MM)
        w, h = image_size
        ring = [(tower_mm[0] + RING_MM * math.cos(a), tower_mm[1] + RING_MM * math.sin(a))
                for a in np.linspace(0, 2 * math.pi, 16, endpoint=False)]
        top = MAX_BLOCKS * max(self.edges.values()) + 20
        pts = np.vstack([self.cam.project(np.array([[x, y, z] for x, y in ring])) for z in (0.0, top)])
        x0, y0 = np.floor(pts.min(axis=0)).astype(int)
        x1, y1 = np.ceil(pts.max(axis=0)).astype(int)
        self.box = (max(0, int(x0)), max(0, int(y0)), min(w, int(x1)), min(h, int(y1)))
        self.stack: list[_Placed] = []
        self.ref: np.ndarray | None = None
        self.ref_cls: np.ndarray | None = None  # block colours of ref (kept: judged once)
        self.empty: np.ndarray | None = None  # the tower spot before the first block: the cloth
        self.prev: np.ndarray | None = None
        self.prev_t = 0.0
        self.still = 0
        self.still_t = 0.0
        self.waiting_since: float | None = None
        self.history: deque[tuple[float, np.ndarray]] = deque()
        x0, y0, x1, y1 = self.box
        # the ring an arm must cross (on the table plane), as a mask of the tower picture
        self.ring = np.zeros((y1 - y0, x1 - x0), np.uint8)
        for radius, value in ((RING_MM, 1), (TOWER_RADIUS_MM, 0)):
            circle = np.array([(tower_mm[0] + radius * math.cos(a), tower_mm[1] + radius * math.sin(a), 0.0)
                               for a in np.linspace(0, 2 * math.pi, 48, endpoint=False)])
            poly = self.cam.project(circle) - np.array([x0, y0], float)
            cv2.fillPoly(self.ring, [np.round(poly).astype(np.int32)], value)
        self.ring_mask = self.ring > 0
        # where a block of the tower can show: the cylinder over the tower spot, up to the top
        self.reach = np.zeros_like(self.ring)
        for z in np.linspace(0.0, top, 6):
            circle = np.array([(tower_mm[0] + TOWER_RADIUS_MM * math.cos(a),
                                tower_mm[1] + TOWER_RADIUS_MM * math.sin(a), z)
                               for a in np.linspace(0, 2 * math.pi, 32, endpoint=False)])
            poly = self.cam.project(circle) - np.array([x0, y0], float)
            cv2.fillPoly(self.reach, [np.round(poly).astype(np.int32)], 1)
        self.reach_mask = self.reach > 0
        self.px_per_mm = float(np.linalg.norm(self.cam.project(np.array([[*tower_mm, 0.0]]))
                                              - self.cam.project(np.array([[tower_mm[0] + 10, tower_mm[1], 0.0]])))
                               / 10)

    # --- geometry ------------------------------------------------------------------------------

    @property
    def height_mm(self) -> float:
        return sum(self.edges[p.size] for p in self.stack)

    def _axis_px(self, z: float) -> np.ndarray:
        p = self.cam.project(np.array([[self.tower[0], self.tower[1], z]]))[0]
        return p - np.array(self.box[:2], float)

    def _side_mm(self, contour: np.ndarray, z: float) -> float:
        pts = contour.reshape(-1, 2).astype(np.float64) + np.array(self.box[:2], float)
        on_plane = self.cam.to_plane(pts, z)
        return math.sqrt(max(0.0, abs(cv2.contourArea(on_plane.astype(np.float32)))))

    # --- picture analysis ----------------------------------------------------------------------

    def _classes(self, hsv: np.ndarray, img: np.ndarray) -> np.ndarray:
        """Per pixel: index of the block colour it shows, or -1 (also where the picture is the
        bare cloth's: a green cloth is not a green block)."""
        hue = hsv[..., 0].astype(np.int16)
        d = np.abs(hue[..., None] - self.hues[None, None, :].astype(np.int16))
        d = np.minimum(d, 180 - d)
        best = d.argmin(axis=2)
        ok = (d.min(axis=2) <= HUE_TOL) & (hsv[..., 1] >= MIN_SAT) & (hsv[..., 2] >= 40)
        if self.empty is not None:  # not the cloth, not the cloth in a shadow (a block painted
            # the cloth's colour differs from it by being lit brighter: its top faces the light)
            shadowed = _same_colour(img, self.empty) & (img.sum(axis=2) <= self.empty.sum(axis=2) * 1.1)
            ok &= self._changed(img, self.empty, MOTION_LEVEL // 2) & ~shadowed
        return np.where(ok, best, -1).astype(np.int8)

    def _faces(self, img: np.ndarray, cls: np.ndarray, hsv: np.ndarray, c: int) -> np.ndarray:
        """Bright (top) faces of colour c, split along the edges between faces."""
        m = cls == c
        if m.sum() < 10:
            return np.zeros_like(m)
        v = hsv[..., 2].astype(np.float32)
        bright = m & (v >= BRIGHT * float(np.percentile(v[m], 95)))
        edges = cv2.Canny(cv2.GaussianBlur(hsv[..., 2], (3, 3), 0), 20, 50) > 0
        return bright & ~edges

    # --- the loop ------------------------------------------------------------------------------

    def update(self, frame: Frame) -> list[BlockObs | TowerFellObs]:
        x0, y0, x1, y1 = self.box
        img = cv2.GaussianBlur(frame.image[y0:y1, x0:x1], (3, 3), 0)
        self.history.append((frame.t, img))
        while self.history and self.history[0][0] < frame.t - HISTORY_S:
            self.history.popleft()
        if self.prev is None or self.ref is None:
            self.prev, self.ref, self.empty, self.prev_t = img, img, img, frame.t
            return []
        moving = self._changed(img, self.prev).sum() > max(12, 4 * self.px_per_mm ** 2)
        self.prev, prev_t = img, self.prev_t
        self.prev_t = frame.t
        if moving:
            self.still = 0
            return []
        if self.still == 0:
            self.still_t = prev_t
        self.still += 1
        if self.still < STILL_FRAMES:
            return []
        return self._judge(img, frame.t)

    def _changed(self, a: np.ndarray, b: np.ndarray, level: int = MOTION_LEVEL) -> np.ndarray:
        d = cv2.absdiff(a, b).max(axis=2)
        return cv2.morphologyEx((d > level).astype(np.uint8), cv2.MORPH_OPEN,
                                np.ones((3, 3), np.uint8)) > 0

    def _judge(self, img: np.ndarray, t: float) -> list[BlockObs | TowerFellObs]:
        assert self.ref is not None
        change = self._changed(img, self.ref) & self.reach_mask  # a card on a pile nearby is no block
        small_face = (self.edges[BLOCK_SIZES[0]] * self.px_per_mm) ** 2
        if change.sum() < 0.3 * small_face:
            return []
        if self._arm_in_ring(img, t):
            return []  # an arm reaches over the ring around the tower, or just left it
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
        cls = self._classes(hsv, img)
        if self.ref_cls is None:
            self.ref_cls = self._classes(cv2.cvtColor(self.ref, cv2.COLOR_BGR2HSV), self.ref)
        ref_cls = self.ref_cls
        if self._foreign(img, cls, ref_cls, change):
            if self.waiting_since is None:
                self.waiting_since = t
            if t - self.waiting_since < 3.0:
                return []  # a hand (or something) rests there: judge once it is gone
        self.waiting_since = None
        out: list[BlockObs | TowerFellObs] = []
        new = self._new_face(img, hsv, cls, change)
        cover = None
        if new is not None:  # the new block (its top and, around it, its sides) hides what was under it
            cover = cv2.dilate(new[3].astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
            cover &= cls == new[1]
            cover |= new[3]
        left = self._standing(cls, cover)
        if left == 0 and self.stack and not self._bare(img, self.stack[0].face):
            left = len(self.stack)  # the top is hidden, yet the tower's foot is not bare: unsure
        if left < len(self.stack):
            top = self.stack[-1]
            del self.stack[left:]
            out.append(TowerFellObs(left, self._gone_since(top, img, change)))
        if new is not None:
            out.append(self._add(img, new))
        self.ref, self.ref_cls = img, cls
        return out

    def _arm_in_ring(self, img: np.ndarray, t: float) -> bool:
        """Did something move in the ring around the tower in the last RING_QUIET_S? (An arm
        must cross the ring to reach the tower; a card or a shadow that lies still does not.)"""
        old = next((p for ft, p in self.history if ft >= t - RING_QUIET_S), None)
        if old is None:
            return False
        moved = self._changed(img, old) & self.ring_mask & ~_same_colour(img, old)
        return float(moved.sum()) > 150 * self.px_per_mm ** 2

    def _foreign(self, img: np.ndarray, cls: np.ndarray, ref_cls: np.ndarray,
                 change: np.ndarray) -> bool:
        """Does most of the change show neither blocks, nor cloth seen again, nor a shadow?"""
        assert self.ref is not None
        shadow_like = _same_colour(img, self.ref)
        revealed = ref_cls >= 0  # a block was there before (cloth seen again, or another block)
        other = (cls < 0) & ~shadow_like & ~revealed
        return float((change & other).sum()) > 0.35 * float(change.sum())

    def _bitten(self, top: _Placed, c: int, comp: np.ndarray) -> bool:
        """Is this face the top block's own, partly hidden (inside its remembered face, and no
        longer a convex square)? A new block's face, even one of the same colour, is whole."""
        if top.colour != self.colours[c] or float((comp & top.face).sum()) < 0.8 * float(comp.sum()):
            return False
        cnts, _ = cv2.findContours(comp.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not cnts:
            return False
        c0 = max(cnts, key=cv2.contourArea)
        hull = float(cv2.contourArea(cv2.convexHull(c0)))
        return hull > 0 and float(comp.sum()) / hull < 0.85

    def _shows_again(self, p: _Placed, img: np.ndarray, where: np.ndarray) -> bool:
        """Does the picture around this face look as when the block was added?"""
        m = where | p.face
        d = cv2.absdiff(img, p.picture).max(axis=2)[m]
        return float((d > MOTION_LEVEL).mean()) < 0.1

    def _bare(self, img: np.ndarray, where: np.ndarray) -> bool:
        """Does the cloth show again where the tower stood (its lowest block's face)?"""
        assert self.empty is not None
        if not where.any():
            return True
        same = ~self._changed(img, self.empty) | _same_colour(img, self.empty)
        return float(same[where].mean()) >= 0.6

    def _standing(self, cls: np.ndarray, cover: np.ndarray | None) -> int:
        """How many blocks of the stack still show their top face where they did, or lie under
        the new block (from the top: the first one whose remembered face shows)."""
        for n in range(len(self.stack), 0, -1):
            p = self.stack[n - 1]
            c = self.colours.index(p.colour)
            ok = cls[p.face] == c
            if cover is not None:
                ok |= cover[p.face]
            shown = float(ok.mean()) if p.face.any() else 0.0
            if shown >= SHOWN:
                return n
        return 0

    def _new_face(self, img: np.ndarray, hsv: np.ndarray, cls: np.ndarray,
                  change: np.ndarray) -> tuple[float, int, str, np.ndarray, float] | None:
        """(fit error, colour index, size, face mask, confidence) of a new top face, or None."""
        if len(self.stack) >= MAX_BLOCKS:
            return None
        h0 = self.height_mm
        best: tuple[float, int, str, float, np.ndarray] | None = None
        v = hsv[..., 2].astype(np.float32)
        rim = {}
        for c in range(len(self.colours)):
            m = cls == c
            rim[c] = m & (v >= RIM * float(np.percentile(v[m], 95))) if m.sum() >= 10 else m
        for c in range(len(self.colours)):
            if (change & (cls == c)).sum() < 0.3 * (self.edges[BLOCK_SIZES[0]] * self.px_per_mm) ** 2:
                continue
            faces = self._faces(img, cls, hsv, c).astype(np.uint8)
            n, labels, stats, _ = cv2.connectedComponentsWithStats(faces, connectivity=4)
            for i in range(1, n):
                comp = labels == i
                grown = cv2.dilate(comp.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
                if (grown & change).sum() < 0.15 * comp.sum():
                    continue  # not new
                if any(p.colour == self.colours[c] and self._shows_again(p, img, grown)
                       for p in self.stack):
                    continue  # a block of the tower showing again (the one above was taken off)
                if self.stack and self._bitten(self.stack[-1], c, comp):
                    continue  # the top block's face with a bite out of it: something lies on it
                # the face's own rim (blurred, on the edge line) is given back: up to 2 px of
                # its colour and nearly its brightness
                comp_u8 = (cv2.dilate(comp.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0) & rim[c]
                comp_u8 = (comp_u8 | comp).astype(np.uint8)
                cnts, _ = cv2.findContours(comp_u8, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
                if not cnts:
                    continue
                hull = cv2.convexHull(max(cnts, key=cv2.contourArea))
                fits = []
                for size in BLOCK_SIZES:
                    e = self.edges[size]
                    z = h0 + e
                    centre = self._axis_px(z)
                    m = cv2.moments(hull)
                    if m["m00"] <= 0:
                        continue
                    cc = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
                    if np.linalg.norm(cc - centre) > (TOWER_RADIUS_MM * 0.6) * self.px_per_mm * 1.5:
                        continue
                    side = self._side_mm(hull, z)
                    fits.append((abs(side - e) / e, size, side))
                if not fits:
                    continue
                fits.sort()
                err, size, _side = fits[0]
                second = fits[1][0] if len(fits) > 1 else 1.0
                if err > 0.2:
                    continue
                conf = float(np.clip((second - err) / max(second, 1e-6), 0.0, 1.0))
                if best is None or err < best[0]:
                    best = (err, c, size, comp, conf)
        return best

    def _add(self, img: np.ndarray, new: tuple[float, int, str, np.ndarray, float]) -> BlockObs:
        _, c, size, comp, conf = new
        self.stack.append(_Placed(self.colours[c], size, comp, img))
        return BlockObs(self.colours[c], size, self._since(img, comp), None, round(conf, 3))

    def _gone_since(self, top: _Placed, img: np.ndarray, change: np.ndarray) -> float:
        """Capture time of the first frame in which the old top block's face no longer looked
        as when it was added (the moment it was lifted or the tower began to fall)."""
        m = top.face
        after = None
        for ft, old in reversed(self.history):
            moved = (cv2.absdiff(old, top.picture).max(axis=2) > MOTION_LEVEL) & ~_same_colour(old, top.picture)
            if float(moved[m].mean()) <= 0.1:
                return after if after is not None else ft
            after = ft
        return self._since(img, change)

    def _since(self, img: np.ndarray, where: np.ndarray) -> float:
        """Capture time of the first frame (of the recent history) from which the picture at
        `where` looked as it does now, without a break."""
        t = self.still_t
        if not where.any():
            return t
        box = cv2.boundingRect(where.astype(np.uint8))
        x, y, w, h = box
        sub, m = img[y:y + h, x:x + w], where[y:y + h, x:x + w]
        for ft, old in reversed(self.history):
            o = old[y:y + h, x:x + w]
            moved = (cv2.absdiff(o, sub).max(axis=2) > MOTION_LEVEL) & ~_same_colour(o, sub)
            if float(moved[m].mean()) > 0.1:  # a shadow passing over it is not a move
                break
            t = ft
        return t
