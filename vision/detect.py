"""Finding card quadrilaterals on the table.

A card is a bright, white-bordered rectangle. The cloth's local colour is estimated with a large
median filter of a tiny image (cards are a minority of any window a few cards wide) and pixels
far from it are "not cloth": brighter counts in full, darker a quarter (shadows), a change of hue
in full (a colour field on a pale cloth); the threshold follows the cloth's own texture. A card
the mask misses (a dark field on a dark cloth) is added where its white margin, a thin bright
ridge, closes round it. A second cloth, estimated in a window sized by the cards found, adds the
cards the first missed on open cloth (_apart_in_finer_cloth). Outer contours of that mask are
turned into card quads:

- a blob that is one clean quadrilateral of about card proportions is one card; its outline is
  sharpened on the full-resolution edges (fit_edges, which may also grow it to the white margin);
- any other blob (overlapping cards, a pile, a fan, a card under a hand) is searched for
  card-sized rectangles whose outline shows (the top card of a pile shows all of it): on a grid
  of centres, at the dominant edge directions around each, plus rectangles laid along its
  right-angled corners and along the right-angled corners its straight edges make inside it (a
  pile's top card lying on other cards), each sharpened by fit_edges. identify() keeps the ones
  that read well (see vision/identify.py);
- a clean quad clearly smaller than the cards near it is part of a card (the rest under an arm,
  or a dark field melting into a dark cloth): card-sized rectangles around it are hypotheses;
- a clean quad of a card's size that reads unsurely may be two cards lying almost on each
  other: identify() asks pile_tops for the rectangles in it, searched as in any other blob.

Corners are returned in full-image pixels, clockwise (image y down), starting anywhere.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from itertools import combinations

import cv2
import numpy as np

from vision.calibrate import MARKER_MARGIN
from vision.markers import DEFAULT_MARKER_MM
from vision.types import CARD_H_MM, CARD_W_MM

ASPECT = CARD_W_MM / CARD_H_MM  # 0.714
WORK_LONG_SIDE = 1000  # the segmentation runs on an image no larger than this


@dataclass(frozen=True)
class Candidate:
    """A card quad found in the image; single=False for hypotheses from a merged blob."""

    corners: np.ndarray  # (4, 2) float32, clockwise
    single: bool
    blob: int  # index of the blob it came from (hypotheses of one blob compete)
    whole: bool = False  # a rectangle fitted whole where the side-by-side fit left it (_blob_cards)
    # a single card's blob (contour, working pixels), the long sides (image pixels) a card there is
    # searched at, and the working scale: see pile_tops
    pile: tuple[np.ndarray, tuple[float, ...], float] | None = None


def order_clockwise(pts: np.ndarray) -> np.ndarray:
    """Four points ordered clockwise in image coordinates (y down), starting at the top-left-most."""
    pts = np.asarray(pts, dtype=np.float32).reshape(4, 2)
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    pts = pts[np.argsort(ang)]  # increasing angle = clockwise when y points down
    start = int(np.argmin(pts[:, 0] + pts[:, 1]))
    return np.roll(pts, -start, axis=0)


@dataclass(frozen=True)
class Cloth:
    """The table as seen without cards: its local colour and how far a pixel must be from it to be
    not table (both smooth images of the working image's size)."""

    local: np.ndarray  # float32 BGR: the cloth's colour near each pixel
    threshold: np.ndarray  # float32: the distance above which a pixel is not cloth, per pixel

    @property
    def colour(self) -> np.ndarray:
        return np.median(self.local.reshape(-1, 3), axis=0).astype(np.int16)

    @property
    def level(self) -> float:
        """A typical threshold (for small regions that have no map of their own)."""
        return float(np.median(self.threshold))


CLOTH_SCALE = 8  # the cloth is estimated on an image this many times smaller than the working one


def estimate_cloth(small: np.ndarray, card_px: float | None = None) -> Cloth:
    """The cloth's local colour: a large median filter of a tiny image (cards are a minority of
    any window of a few card sizes, so the median is the cloth); the threshold follows how much
    the cloth itself varies there (wood grain, felt texture, noise), from the local median of the
    distance to that colour."""
    h, w = small.shape[:2]
    tw, th = max(8, w // CLOTH_SCALE), max(8, h // CLOTH_SCALE)
    tiny = cv2.resize(small, (tw, th), interpolation=cv2.INTER_AREA)
    k = 2 * int(max(5, (card_px or 0.17 * max(h, w)) * 1.6 / CLOTH_SCALE) // 2) + 1
    k = max(3, min(k, 2 * (min(th, tw) // 2) - 1))
    med = cv2.medianBlur(cv2.medianBlur(tiny, k), 3)
    local = cv2.resize(med, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    # the cloth's spread: median distance at a finer scale (grain survives at 1/2 the size)
    half = cv2.resize(small, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    d = _distance(half, cv2.resize(med, (w // 2, h // 2), interpolation=cv2.INTER_LINEAR).astype(np.float32))
    spread = cv2.resize(d, (tw, th), interpolation=cv2.INTER_AREA)  # mean distance in each tiny pixel
    spread = cv2.medianBlur(np.clip(spread, 0, 255).astype(np.uint8), k).astype(np.float32)
    thr = cv2.resize(_cloth_threshold(spread), (w, h), interpolation=cv2.INTER_LINEAR)
    return Cloth(local, thr)


def _cloth_threshold(spread: np.ndarray | float) -> np.ndarray:
    """How far from the cloth's colour a pixel must be to be not cloth, given how far the cloth's
    own pixels stray from it (a typical distance): its grain and noise stay inside."""
    return np.clip(np.asarray(spread, np.float32) * 3.0 + 25.0, 40.0, 150.0)


def cloth_share(pixels: np.ndarray, cloth_pixels: np.ndarray) -> float:
    """The share of pixels ((n, 3) BGR) that could be the cloth whose pixels cloth_pixels
    ((m, 3), a minority of them something else) shows: as near its median colour as raw_mask
    allows the table's cloth (the threshold from the cloth's own spread about that colour)."""
    colour = np.median(cloth_pixels.reshape(-1, 3), axis=0).astype(np.float32)
    spread = float(np.median(_distance(cloth_pixels.reshape(1, -1, 3), colour[None, None])))
    near = _distance(pixels.reshape(1, -1, 3), colour[None, None]) <= _cloth_threshold(spread)
    return float(near.mean())


def _distance(img: np.ndarray, local: np.ndarray) -> np.ndarray:
    """How far from the local cloth colour, per pixel (float32): brightness above the cloth counts
    in full, below it a quarter (a shadow on the cloth is darker and is not a card; a card's white
    margin is brighter than the cloth under the same light), and any difference of hue in full
    (a colour field on a pale cloth)."""
    x = img.astype(np.float32)
    lum = x.mean(axis=2, keepdims=True)
    llum = local.mean(axis=2, keepdims=True)
    dl = (lum - llum)[..., 0] * 3.0
    chroma = np.abs((x - lum) - (local - llum)).sum(axis=2)
    return np.maximum(dl, 0.0) + 0.25 * np.maximum(-dl, 0.0) + chroma


def raw_mask(img: np.ndarray, cloth: Cloth) -> np.ndarray:
    """Pixels that are not cloth: far from the cloth's local colour."""
    d = _distance(img, cloth.local)
    return ((d > cloth.threshold) * 255).astype(np.uint8)


def foreground_mask(small: np.ndarray, cloth: Cloth | None = None) -> np.ndarray:
    blur = cv2.blur(small, (3, 3))
    mask = raw_mask(blur, cloth or estimate_cloth(blur))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return mask


RING_MIN = 12.0  # grey levels a white margin's least channel must rise above its surroundings
RING_NOISE = 4.0  # ... and how many times the image's own spread of that rise
RING_LOW = 0.65  # share of that rise enough where the ridge joins a part that rises fully


def ringed_cards(small: np.ndarray, min_area: float) -> np.ndarray:
    """Cards the foreground mask misses, whole or in part: a dark card on a dark cloth (or a
    field of the cloth's colour) differs from it only by its white margin, a line a pixel or two
    wide that the mask's smoothing wipes out. The margin is a thin ridge of the least channel
    (paper is bright in all three); a ridge closed round a card-shaped hole is a card, filled."""
    least = small.min(axis=2).astype(np.float32)
    rise = least - cv2.blur(least, (5, 5))
    spread = 1.4826 * float(np.median(np.abs(rise)))
    high = max(RING_MIN, RING_NOISE * spread)
    # a margin a pixel wide, averaged with the field and the cloth beside it, rises less here and
    # there: where it still rises part of the way, joined to where it rises fully, it counts
    ridge = (rise > RING_LOW * high).astype(np.uint8)
    n, lab = cv2.connectedComponents(ridge, connectivity=8)
    strong = np.zeros(n, bool)
    strong[np.unique(lab[rise > high])] = True
    strong[0] = False
    ridge = strong[lab].astype(np.uint8)
    out = np.zeros_like(ridge)
    contours, hier = cv2.findContours(ridge, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hier is None:
        return out
    for i, c in enumerate(contours):
        parent = int(hier[0][i][3])
        if parent < 0 or cv2.contourArea(c) < min_area:
            continue  # an outer outline (its holes tell), or a small hole
        hull = cv2.convexHull(c)
        approx = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True).reshape(-1, 2)
        if len(approx) == 4 and cv2.contourArea(c) >= 0.8 * cv2.contourArea(hull) \
                and _card_like(order_clockwise(approx))[0]:
            cv2.drawContours(out, contours, parent, 255, -1)
    return out


# b's corners in each of its four starts, both ways round (np.roll(b, r) and of b[::-1])
_CORNER_ORDERS = np.array([[(i - r) % 4 for i in range(4)] for r in range(4)]
                          + [[3 - (i - r) % 4 for i in range(4)] for r in range(4)])


def corner_gap(a: np.ndarray, b: np.ndarray) -> float:
    """Largest corner distance between two quads, over the starts and directions of b (how far a
    found quad is from a true outline). All eight at once: a frame's hypotheses ask this
    thousands of times."""
    a = np.asarray(a, np.float32).reshape(4, 2)
    b = np.asarray(b, np.float32).reshape(4, 2)
    d = a - b[_CORNER_ORDERS]
    return float(np.sqrt((d * d).sum(axis=2)).max(axis=1).min())


def _intersect(l1: np.ndarray, l2: np.ndarray) -> np.ndarray | None:
    (vx1, vy1, x1, y1), (vx2, vy2, x2, y2) = l1, l2
    den = vx1 * vy2 - vy1 * vx2
    if abs(den) < 1e-6:
        return None
    t = ((x2 - x1) * vy2 - (y2 - y1) * vx2) / den
    return np.array([x1 + t * vx1, y1 + t * vy1], np.float32)


def refine_quad(image: np.ndarray, quad: np.ndarray, cloth: Cloth) -> np.ndarray:
    """Sharpen a quad found on the reduced image: fit its four sides on the full-res outline."""
    h, w = image.shape[:2]
    pad = 8
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int) - pad, 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + pad, [w, h])
    roi = image[y0:y1, x0:x1]
    if roi.size == 0:
        return quad
    rb = cv2.blur(roi, (3, 3))
    edge = np.concatenate([rb[:2].reshape(-1, 3), rb[-2:].reshape(-1, 3), rb[:, :2].reshape(-1, 3),
                           rb[:, -2:].reshape(-1, 3)])
    local = np.median(edge, axis=0).astype(np.float32)  # the cloth just around this card
    mask = ((_distance(rb, local[None, None]) > cloth.level) * 255).astype(np.uint8)
    # keep only the pixels near the quad (neighbouring cards stay out)
    keep = np.zeros_like(mask)
    q = quad - np.array([x0, y0], np.float32)
    cv2.fillConvexPoly(keep, q.astype(np.int32), 255)
    keep = cv2.dilate(keep, np.ones((9, 9), np.uint8))
    mask &= keep
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    cnts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not cnts:
        return quad
    pts = max(cnts, key=cv2.contourArea).reshape(-1, 2).astype(np.float32)
    lines = []
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        ab = b - a
        L = float(np.linalg.norm(ab))
        if L < 4:
            return quad
        u = ab / L
        nrm = np.array([-u[1], u[0]], np.float32)
        rel = pts - a
        t = rel @ u
        d = np.abs(rel @ nrm)
        sel = pts[(t > 0.15 * L) & (t < 0.85 * L) & (d < max(3.0, 0.04 * L))]
        if len(sel) < 5:
            return quad
        lines.append(cv2.fitLine(sel, cv2.DIST_HUBER, 0, 0.01, 0.01).reshape(4))
    out = []
    for i in range(4):
        p = _intersect(lines[i - 1], lines[i])
        if p is None or np.linalg.norm(p - q[i]) > 0.15 * np.linalg.norm(q[i] - q[(i + 1) % 4]) + 3:
            return quad
        out.append(p)
    return np.array(out, np.float32) + np.array([x0, y0], np.float32)


MAX_SKEW_DEG = 6.0  # a quad whose corners are further than this from right angles is in perspective


def _skew(quad: np.ndarray) -> float:
    """The largest departure of a quad's corner angles from 90 degrees (perspective, in degrees)."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    worst = 0.0
    for i in range(4):
        a, b = q[i - 1] - q[i], q[(i + 1) % 4] - q[i]
        cos = float(np.dot(a, b) / max(float(np.linalg.norm(a) * np.linalg.norm(b)), 1e-6))
        worst = max(worst, abs(90.0 - float(np.degrees(np.arccos(np.clip(cos, -1.0, 1.0))))))
    return worst


def _card_like(quad: np.ndarray) -> tuple[bool, float, float]:
    """Is this quad card-shaped? Returns (ok, short side, long side)."""
    d = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    a = (d[0] + d[2]) / 2
    b = (d[1] + d[3]) / 2
    short, long_ = min(a, b), max(a, b)
    if long_ < 1:
        return False, 0.0, 0.0
    ratio = short / long_
    # perspective squashes cards: accept a broad band around 0.714
    return 0.45 < ratio < 0.95, short, long_


def _poly_corners(poly: np.ndarray, short: float) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Right-angled convex corners of a blob's outline polygon, as (corner, u1, u2) with the unit
    directions of its two sides (both at least a fifth of a card's short side long)."""
    out: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    n = len(poly)
    if n < 3:
        return out
    area_sign = np.sign(cv2.contourArea(poly.reshape(-1, 1, 2).astype(np.float32), oriented=True))
    for i in range(n):
        v = poly[i]
        e1, e2 = poly[i - 1] - v, poly[(i + 1) % n] - v
        l1, l2 = float(np.linalg.norm(e1)), float(np.linalg.norm(e2))
        if l1 < 0.2 * short or l2 < 0.2 * short:
            continue
        u1, u2 = e1 / l1, e2 / l2
        if abs(float(np.dot(u1, u2))) > 0.4:  # not near 90 degrees
            continue
        if np.sign(u1[0] * u2[1] - u1[1] * u2[0]) == area_sign:  # concave corner
            continue
        out.append((v, u1, u2))
    return out


def _corner_hypotheses(corners: list[tuple[np.ndarray, np.ndarray, np.ndarray]], short: float,
                       long_: float, mask: np.ndarray) -> list[np.ndarray]:
    """Card rectangles laid along a blob's right-angled corners (both turns), those mostly
    inside the blob."""
    out: list[np.ndarray] = []
    h, w = mask.shape
    for v, u1, u2 in corners:
        for a, b in ((short, long_), (long_, short)):
            quad = np.array([v, v + u1 * a, v + u1 * a + u2 * b, v + u2 * b], dtype=np.float32)
            pts = quad.mean(axis=0) * 0.5 + quad * 0.5  # the inner half of the rectangle
            inside = 0
            for x, y in np.vstack([pts, quad.mean(axis=0, keepdims=True)]):
                xi, yi = int(round(x)), int(round(y))
                if 0 <= xi < w and 0 <= yi < h and mask[yi, xi]:
                    inside += 1
            if inside >= 5:
                out.append(order_clockwise(quad))
    return out


CORNER_ROUND = 0.07  # a card's rounded corner: contour left out either side of a corner (share of the short side)
CORNER_ARM = 0.25  # contour fitted by a line either side of a corner (share of the short side)
CORNER_STRAIGHT = 0.6  # px (rms): a corner's sides are this straight
CORNER_COS = 0.3  # a corner's sides meet within about 17 degrees of square


def _contour_corners(cnt: np.ndarray, short: float) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Right-angled convex corners of a blob's outline, each as (corner, u1, u2) with the unit
    directions of its two sides: where two straight runs of the outline meet near square.

    A card's corner is rounded and the outline is ragged, so a polygon fitted to the outline
    splits it into short edges that name no corner (a card under a hand lost its hypothesis so):
    here a line is fitted to a run of outline either side of each point, leaving the rounding
    out, and the corner is where the two lines meet."""
    pts = cnt.reshape(-1, 2).astype(np.float64)
    if len(pts) < 4:
        return []
    seg = np.linalg.norm(np.diff(np.vstack([pts, pts[:1]]), axis=0), axis=1)
    arc = np.concatenate([[0.0], np.cumsum(seg)])
    total = float(arc[-1])
    gap, arm = max(1, round(CORNER_ROUND * short)), max(4, round(CORNER_ARM * short))
    if total < 4 * (gap + arm):
        return []
    loop = np.vstack([pts, pts[:1]])
    s = np.arange(0.0, total, 1.0)
    p = np.column_stack([np.interp(s, arc, loop[:, 0]), np.interp(s, arc, loop[:, 1])])
    n = len(p)
    orient = np.sign(cv2.contourArea(cnt.reshape(-1, 1, 2).astype(np.float32), oriented=True))
    idx = np.arange(n)
    # windows either side of every point: before (i-gap-arm .. i-gap), after (i+gap .. i+gap+arm)
    offs = np.arange(arm + 1)
    before = p[(idx[:, None] - gap - offs[None, :]) % n]  # (n, arm+1, 2), walking away from i
    after = p[(idx[:, None] + gap + offs[None, :]) % n]

    def line(w: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        c = w.mean(axis=1, keepdims=True)
        d = w - c
        sxx, syy, sxy = (d[..., 0] ** 2).mean(1), (d[..., 1] ** 2).mean(1), (d[..., 0] * d[..., 1]).mean(1)
        th = 0.5 * np.arctan2(2 * sxy, sxx - syy)
        u = np.column_stack([np.cos(th), np.sin(th)])
        resid = np.abs(d[..., 0] * -u[:, None, 1] + d[..., 1] * u[:, None, 0])
        away = w[:, -1] - w[:, 0]  # point the direction away from the corner
        u *= np.sign((u * away).sum(1) + 1e-9)[:, None]
        return c[:, 0], u, np.sqrt((resid ** 2).mean(1))

    c1, u1, r1 = line(before)
    c2, u2, r2 = line(after)
    cos = (u1 * u2).sum(1)
    cross = u1[:, 0] * u2[:, 1] - u1[:, 1] * u2[:, 0]
    ok = (r1 < CORNER_STRAIGHT) & (r2 < CORNER_STRAIGHT) & (np.abs(cos) < CORNER_COS) & (np.sign(cross) != orient)
    found: list[tuple[float, np.ndarray, np.ndarray, np.ndarray]] = []
    for i in np.flatnonzero(ok):
        a = np.column_stack([u1[i], -u2[i]])
        if abs(np.linalg.det(a)) < 1e-6:
            continue
        t = np.linalg.solve(a, c2[i] - c1[i])
        v = c1[i] + t[0] * u1[i]
        if np.linalg.norm(v - p[i]) > gap + 2:
            continue  # the lines meet away from here: a corner cut off, not a card's
        found.append((float(r1[i] + r2[i] + abs(cos[i])), v, u1[i], u2[i]))
    found.sort(key=lambda x: x[0])
    out: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    for _, v, a, b in found:
        if all(np.linalg.norm(v - o[0]) > 0.2 * short for o in out):
            out.append((v, a, b))
    return out


class EdgeMap:
    """Smoothed grey gradients of (part of) an image, for fitting card outlines to edges."""

    def __init__(self, image: np.ndarray, box: tuple[int, int, int, int] | None = None) -> None:
        h, w = image.shape[:2]
        x0, y0, x1, y1 = box if box is not None else (0, 0, w, h)
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        self.off = np.array([x0, y0], np.float32)
        roi = image[y0:y1, x0:x1]
        g = cv2.cvtColor(roi, cv2.COLOR_BGR2GRAY) if roi.ndim == 3 else roi
        g = cv2.GaussianBlur(g, (5, 5), 1.2).astype(np.float32)
        self.gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
        self.gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
        self.h, self.w = g.shape

    @classmethod
    def around(cls, image: np.ndarray, quad: np.ndarray, pad: float = 0.35) -> EdgeMap:
        q = np.asarray(quad, np.float32).reshape(4, 2)
        d = float(np.linalg.norm(q[0] - q[2])) * pad
        x0, y0 = np.floor(q.min(axis=0) - d).astype(int)
        x1, y1 = np.ceil(q.max(axis=0) + d).astype(int)
        return cls(image, (int(x0), int(y0), int(x1), int(y1)))


_TS = np.linspace(-0.78, 0.78, 14, dtype=np.float32)  # positions along a side (corners are round)
_ONE = np.ones_like(_TS)
# per side (top, bottom, left, right): offsets along u and v in half sizes, and the outward normal
_AU = np.stack([_TS, _TS, -_ONE, _ONE])[None]  # (1, 4, 14)
_AV = np.stack([-_ONE, _ONE, _TS, _TS])[None]
_NU = np.array([0, 0, -1, 1], np.float32)[None, :, None]
_NV = np.array([-1, 1, 0, 0], np.float32)[None, :, None]


def _edge_scores(em: EdgeMap, c: np.ndarray, th: np.ndarray, hw: np.ndarray, hh: np.ndarray,
                 sides: int = 3) -> np.ndarray:
    """Edge support of card rectangles (centres c (m, 2), angles th, half sizes hw, hh (m,)).

    Per side: the median, along the side, of the brightness drop going outwards (the paper is
    brighter than what lies around it: cloth, or the shadow on a card below; the edge of a colour
    field inside the white margin falls the other way and is not taken for the outline). The
    score is the mean of the three strongest sides (one side of a pile's top card may lie on the
    white margin of the card below), or of all four for a card lying alone (sides=4), where
    three sides on the card's inner frame or print and the fourth on nothing could outscore
    its outline."""
    ux = np.cos(th).astype(np.float32)[:, None, None]
    uy = np.sin(th).astype(np.float32)[:, None, None]
    au = _AU * hw.astype(np.float32)[:, None, None]
    av = _AV * hh.astype(np.float32)[:, None, None]
    px = (c[:, 0] - em.off[0]).astype(np.float32)[:, None, None] + au * ux - av * uy
    py = (c[:, 1] - em.off[1]).astype(np.float32)[:, None, None] + au * uy + av * ux
    nx = _NU * ux - _NV * uy
    ny = _NU * uy + _NV * ux
    xi = np.clip(np.rint(px).astype(np.int32), 0, em.w - 1)
    yi = np.clip(np.rint(py).astype(np.int32), 0, em.h - 1)
    g = -(em.gx[yi, xi] * nx + em.gy[yi, xi] * ny)
    np.maximum(g, 0.0, out=g)
    g.sort(axis=2)
    med = 0.5 * (g[:, :, 6] + g[:, :, 7])
    med.sort(axis=1)
    return med[:, 4 - sides:].mean(axis=1)


def fit_edges(em: EdgeMap, quad: np.ndarray, max_shift: float = 0.1, max_turn: float = 8.0,
              rounds: int = 3, grow: bool = False, sides: int = 3) -> tuple[np.ndarray, float]:
    """Move a card quad (clockwise, any start) to the rectangle whose outline best follows the
    image's edges nearby: coordinate search over angle, position and size. Returns the quad
    (clockwise, same start) and its edge score (grey levels per pixel; sides: see _edge_scores)."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    c = q.mean(axis=0)
    e_u = (q[1] - q[0]) + (q[2] - q[3])
    e_v = (q[3] - q[0]) + (q[2] - q[1])
    hw = float(np.linalg.norm(e_u)) / 4
    hh = float(np.linalg.norm(e_v)) / 4
    th = float(np.arctan2(e_u[1], e_u[0]))
    if hw < 3 or hh < 3:
        return q, 0.0
    # parameters: the centre's shift along the card's own axes (each moves one pair of sides
    # only, so the search is separable where image x and y would move all four sides at once),
    # angle, scale and a small change of aspect (cards keep their shape; perspective changes it
    # a little)
    p = np.array([0.0, 0.0, th, 1.0, 1.0], np.float64)
    ax_u = np.array([np.cos(th), np.sin(th)])
    ax_v = np.array([-np.sin(th), np.cos(th)])
    hw0, hh0 = hw, hh
    long_ = max(hw, hh) * 2
    steps = [long_ * max_shift / 3, long_ * max_shift / 3, np.radians(max_turn) / 3, 0.035, 0.015]

    def centre(cand: np.ndarray) -> np.ndarray:
        return c[None].astype(np.float64) + cand[:, :1] * ax_u + cand[:, 1:2] * ax_v

    def score(cand: np.ndarray) -> np.ndarray:
        return _edge_scores(em, centre(cand), cand[:, 2], hw0 * cand[:, 3] * cand[:, 4],
                            hh0 * cand[:, 3] / cand[:, 4], sides)

    best = float(score(p[None])[0])
    if grow:  # the outline found may be the colour field's or a part of the card: try larger
        ks_ = np.linspace(0.92, 1.4, 13)
        cand = np.repeat(p[None], len(ks_), axis=0)
        cand[:, 3] = ks_
        sc = score(cand)
        j = int(np.argmax(sc))
        if sc[j] > best:
            best, p = float(sc[j]), cand[j]
    ks = np.arange(-3, 4, dtype=np.float64)
    for r in range(rounds):
        f = 1.0 if r == 0 else 0.5 ** r
        for i in (2, 0, 1, 3, 4):
            cand = np.repeat(p[None], len(ks), axis=0)
            cand[:, i] += ks * steps[i] * f
            sc = score(cand)
            j = int(np.argmax(sc))
            if sc[j] > best:
                best, p = float(sc[j]), cand[j]
    cx, cy = centre(p[None])[0]
    th, hw, hh = p[2], hw0 * p[3] * p[4], hh0 * p[3] / p[4]
    u = np.array([np.cos(th), np.sin(th)]) * hw
    v = np.array([-np.sin(th), np.cos(th)]) * hh
    c = np.array([cx, cy])
    out = np.array([c - u - v, c + u - v, c + u + v, c - u + v], np.float32)
    return out, best


def _sample(img: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Bilinear samples of a float32 image at the points (x, y) (any equal shapes)."""
    shp = x.shape
    xs = x.reshape(-1, shp[-1] if x.ndim > 1 else x.size).astype(np.float32)
    ys = y.reshape(xs.shape).astype(np.float32)
    parts = [cv2.remap(img, xs[i:i + 30000], ys[i:i + 30000], cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE).reshape(-1, xs.shape[1])
             for i in range(0, len(xs), 30000)]
    return np.concatenate(parts).reshape(shp)


_SIDE_TS = np.linspace(0.14, 0.86, 17, dtype=np.float32)  # positions along a side (corners are round)


def side_support(em: EdgeMap, quad: np.ndarray, reach: float = 1.5) -> np.ndarray:
    """Per side of a quad (clockwise), the share of points along it where the image has an
    outline there (a brightness drop going outwards, within reach px). Returns (4,) floats."""
    q = np.asarray(quad, np.float32).reshape(1, 4, 2)
    _, strength = _side_peaks(em, q, reach)
    return (strength[0] >= _EDGE_MIN).mean(axis=1).astype(np.float32)


_EDGE_MIN = 12.0  # outward brightness drop (Sobel units, grey levels) that counts as an outline


def _side_peaks(em: EdgeMap, q: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """For quads q (k, 4, 2), each side and each point along it: the point of the strongest
    outward brightness drop along the side's outward normal (within +-reach px) and its strength.
    Returns points (k, 4, n, 2) in image pixels and strengths (k, 4, n)."""
    c = q.mean(axis=1, keepdims=True)
    a = q
    b = np.roll(q, -1, axis=1)
    ab = b - a
    L = np.linalg.norm(ab, axis=2, keepdims=True)
    u = ab / np.maximum(L, 1e-6)
    nrm = np.stack([u[..., 1], -u[..., 0]], axis=2)
    flip = np.sign((((a + b) / 2 - c) * nrm).sum(axis=2, keepdims=True))
    nrm = (nrm * np.where(flip == 0, 1.0, flip)).astype(np.float32)  # outward
    offs = np.arange(-reach, reach + 0.25, 0.5, dtype=np.float32)
    base = a[:, :, None, :] + _SIDE_TS[None, None, :, None] * ab[:, :, None, :]  # (k, 4, n, 2)
    nx, ny = nrm[:, :, None, None, 0], nrm[:, :, None, None, 1]
    px = base[..., 0][..., None] + offs * nx - em.off[0]  # (k, 4, n, m)
    py = base[..., 1][..., None] + offs * ny - em.off[1]
    g = -(_sample(em.gx, px, py) * nx + _sample(em.gy, px, py) * ny)
    m = len(offs)
    j = np.argmax(g, axis=3)[..., None]
    s = np.take_along_axis(g, j, axis=3)[..., 0]
    gm = np.take_along_axis(g, np.clip(j - 1, 0, m - 1), axis=3)[..., 0]
    gp = np.take_along_axis(g, np.clip(j + 1, 0, m - 1), axis=3)[..., 0]
    j = j[..., 0]
    den = gm - 2 * s + gp
    inner = (den < -1e-6) & (j > 0) & (j < m - 1)
    frac = np.where(inner, 0.5 * (gm - gp) / np.where(inner, den, -1.0), 0.0)
    off = offs[j] + 0.5 * np.clip(frac, -1.0, 1.0)
    at = base + off[..., None] * nrm[:, :, None, :]
    return at, s


def _fit_lines(p: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Total least squares lines through the points p (..., n, 2) with weights w (..., n):
    their centroids (..., 2) and unit directions (..., 2)."""
    sw = np.maximum(w.sum(axis=-1, keepdims=True), 1e-6)
    m = (p * w[..., None]).sum(axis=-2) / sw
    d = p - m[..., None, :]
    cxx = (w * d[..., 0] ** 2).sum(axis=-1)
    cyy = (w * d[..., 1] ** 2).sum(axis=-1)
    cxy = (w * d[..., 0] * d[..., 1]).sum(axis=-1)
    th = 0.5 * np.arctan2(2 * cxy, cxx - cyy)
    return m, np.stack([np.cos(th), np.sin(th)], axis=-1)


def fit_sides_many(em: EdgeMap, quads: np.ndarray, reach: float | None = None, rounds: int = 2,
                   min_share: float = 0.35) -> tuple[np.ndarray, np.ndarray]:
    """fit_sides for many quads (k, 4, 2) at once; returns quads (k, 4, 2) and shares (k, 4)."""
    q = np.asarray(quads, np.float32).reshape(-1, 4, 2).copy()
    k = len(q)
    share = np.zeros((k, 4), np.float32)
    if k == 0:
        return q, share
    d = np.linalg.norm(q - np.roll(q, -1, axis=1), axis=2)
    short = np.minimum(d[:, 0] + d[:, 2], d[:, 1] + d[:, 3]) / 2
    live = short >= 6
    r0 = reach if reach is not None else max(2.5, 0.08 * float(np.median(short)))
    n = len(_SIDE_TS)
    for rd in range(rounds):
        r = r0 if rd == 0 else max(1.5, r0 / 2)
        at, s = _side_peaks(em, q, r)
        ok = s >= _EDGE_MIN
        share = np.where(live[:, None], ok.mean(axis=2), 0.0).astype(np.float32)
        w = ok.astype(np.float32)
        m, dirn = _fit_lines(at, w)
        res = np.abs(((at - m[..., None, :]) * np.stack([-dirn[..., 1], dirn[..., 0]], -1)[..., None, :]).sum(-1))
        med = np.median(np.where(ok, res, np.nan), axis=2) if ok.any() else np.zeros((k, 4))
        w2 = w * (res < np.maximum(1.0, 2.5 * np.nan_to_num(med, nan=0.0))[..., None])
        use = w2.sum(axis=2) >= max(4, min_share * n)
        m2, dirn2 = _fit_lines(at, w2)
        m = np.where(use[..., None], m2, m)
        dirn = np.where(use[..., None], dirn2, dirn)
        a = q
        ab = np.roll(q, -1, axis=1) - a
        u = ab / np.maximum(np.linalg.norm(ab, axis=2, keepdims=True), 1e-6)
        dot = (dirn * u).sum(axis=2)
        dirn = dirn * np.where(dot < 0, -1.0, 1.0)[..., None]
        good = (share >= min_share) & (np.abs(dot) > np.cos(np.radians(10)))
        P = np.where(good[..., None], m, a)  # a point on each side's line and its direction
        D = np.where(good[..., None], dirn, u)
        # corner i: the lines of sides i-1 and i
        P1, D1 = np.roll(P, 1, axis=1), np.roll(D, 1, axis=1)
        den = D1[..., 0] * D[..., 1] - D1[..., 1] * D[..., 0]
        t = ((P[..., 0] - P1[..., 0]) * D[..., 1] - (P[..., 1] - P1[..., 1]) * D[..., 0]) / np.where(
            np.abs(den) < 1e-6, 1.0, den)
        new = P1 + t[..., None] * D1
        moved = np.linalg.norm(new - q, axis=2).max(axis=1)
        fine = live & (np.abs(den) >= 1e-6).all(axis=1) & (moved <= 0.25 * short)
        q = np.where(fine[:, None, None], new, q).astype(np.float32)
    return q, share


def fit_sides(em: EdgeMap, quad: np.ndarray, reach: float | None = None, rounds: int = 2,
              min_share: float = 0.35) -> tuple[np.ndarray, np.ndarray]:
    """Sharpen a card quad side by side: each side's line is fitted to the outline points found
    along it (the strongest outward brightness drop near the side), so the quad may take any
    shape (perspective); a side with too few outline points (covered by a hand, lying on another
    card without a shadow) keeps its line. Returns the quad (clockwise, same start) and the share
    of each side's points that lie on the outline."""
    q, share = fit_sides_many(em, np.asarray(quad, np.float32).reshape(1, 4, 2), reach, rounds, min_share)
    return q[0], share[0]


@dataclass
class _Segments:
    """The foreground's outer contours, sorted into clean card-like quads and everything else."""

    contours: tuple
    singles: list[tuple[np.ndarray, int]]  # (quad, contour index)
    merged: list[tuple[np.ndarray, int]]  # (contour, contour index)
    sizes: list[tuple[float, float]]  # each single's short and long side (working pixels)
    clean: dict[int, np.ndarray]  # blobs that are one clean quadrilateral of odd proportions


def _segment(mask: np.ndarray, min_area: float) -> _Segments:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    seg = _Segments(contours, [], [], [], {})
    for k, cnt in enumerate(contours):
        area = cv2.contourArea(cnt)
        if area < min_area:
            continue
        peri = cv2.arcLength(cnt, True)
        hull = cv2.convexHull(cnt)
        approx = cv2.approxPolyDP(hull, 0.03 * peri, True).reshape(-1, 2).astype(np.float32)
        rect_area = cv2.contourArea(approx) if len(approx) == 4 else 0.0
        if len(approx) == 4 and rect_area > 0 and area / rect_area > 0.93:
            quad = order_clockwise(approx)
            ok, s, lg = _card_like(quad)
            if ok:
                seg.singles.append((quad, k))
                seg.sizes.append((s, lg))
                continue
            seg.clean[k] = quad  # one clean quad of odd proportions: a card under strong perspective?
        seg.merged.append((cnt, k))
    return seg


def _apart_in_finer_cloth(small: np.ndarray, seg: _Segments, min_area: float, long_px: float) -> np.ndarray:
    """What a cloth estimated in a window sized by the cards (long_px, working pixels) tells
    apart from it, away from every blob found already (a mask, working pixels).

    The first cloth's window is a sixth of the picture wide: where the cards are small it spans
    several cards' lengths, and under a lamp's pool or beside an arm's shadow its median is
    the light elsewhere; the threshold, following the cloth's spread from that median, then
    rises above the cards' own contrast, and whole cards on open cloth are missed. A window a
    card and a half wide follows the light, but a pile fills it and becomes cloth: so only its
    parts that touch no blob of the first mask are added."""
    finer = foreground_mask(small, estimate_cloth(cv2.blur(small, (3, 3)), long_px))
    _, lab = cv2.connectedComponents(finer)
    blobs = np.zeros_like(finer)
    cv2.drawContours(blobs, [c for c in seg.contours if cv2.contourArea(c) >= min_area], -1, 255, -1)
    touched = np.unique(lab[cv2.dilate(blobs, np.ones((5, 5), np.uint8)) > 0])
    return (((finer > 0) & ~np.isin(lab, touched)) * 255).astype(np.uint8)


def find_candidates(image: np.ndarray, card_px: float | None = None,
                    refine: bool = True, markers: list[np.ndarray] | None = None) -> list[Candidate]:
    """Card quads and, for merged blobs, card hypotheses (see the module docstring).

    card_px: the expected long side of a card in pixels, when the caller knows the scale
    (calibrated overhead camera); otherwise it is estimated from the clean single cards.
    markers: outlines (image pixels) of the table's markers: a clean quad on one tells a
    card's size there (the sheet's), but not its shape.
    """
    if image is None or image.ndim != 3 or image.shape[2] != 3:
        raise ValueError("find_cards needs a BGR colour image (H x W x 3)")
    h, w = image.shape[:2]
    f = min(1.0, WORK_LONG_SIDE / max(h, w))
    small = cv2.resize(image, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA) if f < 1 else image
    min_area = (card_px * f * ASPECT * card_px * f * 0.25) if card_px else small.shape[0] * small.shape[1] * 0.0006
    cloth = estimate_cloth(cv2.blur(small, (3, 3)))
    mask = foreground_mask(small, cloth) | ringed_cards(small, min_area)
    seg = _segment(mask, min_area)
    if len(seg.sizes) >= 3 or card_px:
        long_px = card_px * f if card_px else float(np.median(np.array(seg.sizes)[:, 1]))
        apart = _apart_in_finer_cloth(small, seg, min_area, long_px)
        if apart.any():
            seg = _segment(mask | apart, min_area)
    contours, singles, merged, sizes, clean = seg.contours, seg.singles, seg.merged, seg.sizes, seg.clean
    marked: set[int] = set()  # blobs on the table's markers: no card's shape
    if markers:
        off = [np.asarray(q, np.float32).reshape(-1, 1, 2) * f for q in markers]
        marked = {k for q, k in singles
                  if any(cv2.pointPolygonTest(o, tuple(float(v) for v in q.mean(axis=0)), False) >= 0 for o in off)}
    marker_sizes, marker_centres = _marker_sizes(markers or [], f)

    def sizes_told(sz: np.ndarray, cs: np.ndarray, own: np.ndarray, scale: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
        """The single cards' sizes and centres (cs: working px over scale); where they are too
        few to fit a plane to (PLANE_MIN_CARDS), those of the cards not on a marker (own) and
        the markers' squares (_marker_sizes)."""
        sz, cs = np.asarray(sz, np.float64).reshape(-1, 2), np.asarray(cs, np.float64).reshape(-1, 2)
        if len(sz) >= PLANE_MIN_CARDS or not len(marker_sizes):
            return sz, cs
        return np.vstack([sz[own], marker_sizes]), np.vstack([cs[own], marker_centres / scale])
    # a "single" much larger than the typical card is two cards lying almost on each other
    if len(sizes) >= 3 or card_px:
        arr = np.array(sizes) if sizes else np.zeros((0, 2))
        ref_l = card_px * f if card_px else float(np.median(arr[:, 1]))
        keep_s, keep_z = [], []
        big = [l_ > 1.12 * ref_l or s_ > 1.12 * ref_l * ASPECT for s_, l_ in sizes]
        if not card_px and any(big) and len(sizes) + len(marker_sizes) > PLANE_MIN_CARDS:
            # under a tilted camera the cards near it are larger than the median: a card is two
            # only where it is also larger than the others (and the markers) tell at its place
            cs = np.array([q.mean(axis=0) for q, _ in singles])
            own = np.array([k not in marked for _, k in singles], bool)
            for i in np.flatnonzero(big):
                others = np.arange(len(sizes)) != i
                at = LongSide(*sizes_told(arr[others], cs[others], own[others]))
                if at.coef is not None:
                    loc = at.at(cs[i])
                    big[i] = arr[i, 1] > 1.12 * loc or arr[i, 0] > 1.12 * loc * ASPECT
        for (quad, k), (s_, l_), two in zip(singles, sizes, big, strict=True):
            if two:
                merged.append((contours[k], k))
                clean[k] = quad
            else:
                keep_s.append((quad, k))
                keep_z.append((s_, l_))
        singles, sizes = keep_s, keep_z
    own = np.array([k not in marked for _, k in singles], bool)  # the single cards not on a marker
    out = []
    skews: list[float] = []  # how far the clean single cards are from rectangles (perspective)
    ref_long = 0.0  # a card's long side (working pixels), where the scale is known or seen
    if card_px:
        ref_long = card_px * f
    elif len(sizes) >= 3:
        ref_long = float(np.median(np.array(sizes)[:, 1]))
    shapes: list[np.ndarray] = []  # each clean single card's shape (_shape), on its sharpened quad
    for i, (q, k) in enumerate(singles):
        fq = q / f
        if refine:
            fq = refine_quad(image, fq, cloth)
            skews.append(_skew(fq))
            shapes.append(_shape(fq))
            em = EdgeMap.around(image, fq, 0.45)
            if skews[-1] < MAX_SKEW_DEG:  # fit_edges fits rectangles: not a card seen in perspective
                fq, _ = fit_edges(em, fq, grow=True, sides=4)
            fq = order_clockwise(fq)
            d = np.linalg.norm(fq - np.roll(fq, -1, axis=0), axis=1)
            sizes[i] = (float(min(d[0] + d[2], d[1] + d[3]) / 2 * f), float(max(d[0] + d[2], d[1] + d[3]) / 2 * f))
        out.append(Candidate(fq, True, k))
    if refine and ref_long > 0:  # a clean quad smaller than a card: the part of one that shows
        # from under an arm, or beside a dark field melting into a dark cloth (the other cards
        # tell a card's size here)
        cs_all = np.array([c.corners.mean(axis=0) for c in out])
        n_single = len(out)
        size_at = LongSide(*sizes_told(np.array(sizes), cs_all, own, f))
        for i, c in enumerate(out[:n_single]):
            local = size_at.at(cs_all[i]) if n_single > 1 else ref_long
            if sizes[i][1] >= PART_OF_CARD * local:
                # (its blob is searched for a card of its own size where smaller than the local
                # card's (the local size may be a few per cent off), and where clearly smaller
                # also of the local card's: the quad may be part of a card, cut across by an arm
                # darker than the cloth, and a rectangle of its size lies on no card)
                longs = (min(local, sizes[i][1]),) + ((local,) if sizes[i][1] < OWN_SIZE * local else ())
                out[i] = replace(c, pile=(contours[c.blob], tuple(v / f for v in longs), f))
                continue
            out[i] = Candidate(c.corners, False, c.blob)  # its own outline is no card's: a hypothesis
            em = EdgeMap.around(image, c.corners, 1.2)
            for hq in _whole_card_around(c.corners, local / f):
                hq, _ = fit_edges(em, hq, max_shift=0.08, rounds=2)
                out.append(Candidate(order_clockwise(hq), False, c.blob))
    if merged:
        centres = np.array([q.mean(axis=0) for q, _ in singles]) if singles else np.zeros((0, 2))
        # (a marker's sheet, cut on its line, is 74 mm square, a card's area, and tells the size
        # (without the markers, a card's size across the rendered tables was over 8 % off at 106
        # of 842 pile tops, with them at 54), but not the shape; where the cards are too few,
        # the markers' own squares tell both)
        told, told_at = sizes_told(np.array(sizes), centres, own)
        if card_px:
            long_ = card_px * f
        elif len(told):
            long_ = float(np.median(told[:, 1]))
        else:
            long_ = 0.0
        local_long = LongSide(told, told_at)
        # (parts of cards, left out of the sizes, have a part's shape)
        by_markers = len(told) != len(sizes)  # (then the own cards' sizes come first, the markers' after)
        if by_markers:
            whole = np.zeros(len(singles), bool)
            whole[own] = local_long.whole[:int(own.sum())]
        else:
            whole = local_long.whole & own
        card_shapes = np.array(shapes).reshape(-1, 3)[whole] if shapes else np.zeros((0, 3))
        shaped_at = centres[whole] / f if shapes else np.zeros((0, 2))  # (no shapes unrefined)
        squares = [_shape(q, 1.0) for q in markers or []] if by_markers else []
        squeeze = Foreshortening(np.vstack([card_shapes, np.reshape(squares, (-1, 3))]),
                                 np.vstack([shaped_at, marker_centres[:len(squares)] / f]), long_ / f,
                                 markers=len(squares))
        for cnt, k in merged:
            l_ = long_
            if len(told) >= 3 and not card_px:  # perspective: the single cards (or the markers)
                # tell the local size
                (mx, my), _, _ = cv2.minAreaRect(cnt)
                l_ = local_long.at(np.array([mx, my]))
            scales: tuple[float, ...] = (1.0,)
            if l_ <= 0:  # no scale known: the blob's narrower extent bounds the card's width
                (_, _), (rw, rh), _ = cv2.minAreaRect(cnt)
                l_ = min(min(rw, rh) / ASPECT, max(rw, rh))
                scales = (1.0, 0.88, 0.77)
            area = cv2.contourArea(cnt)
            x, y, bw, bh = cv2.boundingRect(cnt)
            if l_ < 8:
                continue
            parts = [cnt]
            if area > 40 * l_ * l_ * ASPECT:  # not a group of cards: an arm and a lamp's glare
                # joining a third of the table, or a table edge; what differs from the cloth
                # twice as much inside it may be cards apart
                parts = [p for p in _firmer_parts(small, cloth, cnt) if cv2.contourArea(p) >= min_area
                         and cv2.contourArea(p) <= 40 * l_ * l_ * ASPECT]
            for part in parts:
                (mx, my), _, _ = cv2.minAreaRect(part)
                unsqueeze = squeeze.at(np.array([mx, my]) / f)
                for sc in scales:
                    for quad, whole in _blob_cards_unsqueezed(image, part, sc * l_ / f, f, unsqueeze):
                        out.append(Candidate(quad, False, k, whole))
            if k in clean:  # the blob's own outline may be one card seen under strong perspective
                # (last: a card-sized hypothesis that reads surely inside it goes first)
                # (only when the camera shows perspective, as the single cards tell, and the quad
                # itself does: otherwise a blob larger than a card is more likely two cards lying
                # almost on each other)
                fq = order_clockwise(refine_quad(image, clean[k] / f, cloth) if refine else clean[k] / f)
                # (or one card nearer the camera than the others: the reader and the outline's
                # support decide)
                tilted = float(np.median(skews)) >= MAX_SKEW_DEG if skews else _skew(fq) >= 2 * MAX_SKEW_DEG
                if tilted and _skew(fq) >= MAX_SKEW_DEG:
                    out.append(Candidate(fq, False, k))
                elif refine:
                    em = EdgeMap.around(image, fq, 0.3)
                    sq, share = fit_sides(em, fq)
                    if float(share.min()) >= 0.8:
                        out.append(Candidate(order_clockwise(sq), False, k))
    return out


FIRMER = 2.0  # a blob too large to be cards is cut again at this many times the cloth's threshold


def _firmer_parts(small: np.ndarray, cloth: Cloth, cnt: np.ndarray) -> list[np.ndarray]:
    """The outer contours (working pixels) of what, inside the blob, differs from the cloth
    FIRMER times as much as its threshold: a glare's halo and a shadow fall out, cards stay."""
    x, y, bw, bh = cv2.boundingRect(cnt)
    inside = np.zeros((bh, bw), np.uint8)
    cv2.drawContours(inside, [cnt - np.array([x, y])], -1, 255, -1)
    box = cv2.blur(small, (3, 3))[y:y + bh, x:x + bw]
    d = _distance(box, cloth.local[y:y + bh, x:x + bw])
    firm = ((d > FIRMER * cloth.threshold[y:y + bh, x:x + bw]) * 255).astype(np.uint8) & inside
    firm = cv2.morphologyEx(firm, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    parts, _ = cv2.findContours(firm, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return [p + np.array([x, y]) for p in parts]


MARKER_CARD = math.sqrt(CARD_W_MM * CARD_H_MM) / (MARKER_MARGIN * DEFAULT_MARKER_MM)  # a card's size
# (the side of a square of its area) over a marker's outline with its margin (vision.calibrate.play_area)


def _marker_sizes(markers: list[np.ndarray], f: float) -> tuple[np.ndarray, np.ndarray]:
    """(short, long) of a card at each of the table's markers (outlines in image px, with their
    margin) and the markers' centres, in working px (f: working px per image px). A marker's
    square is printed DEFAULT_MARKER_MM wide and found to a pixel: it tells a card's size where
    it lies however its blob merges with the cards or the table's edge beside it. Asked only
    where the single cards are too few to tell (find_candidates' sizes_told): a marker printed at
    another size would mislead, and the cards' own sizes are the cards'. (With two single cards
    and three markers showing, one of them touching a pile and two the floor, a tilted camera's
    cards came out 10 to 20 % too small across the table.)"""
    sizes, centres = [], []
    for q in markers:
        q = np.asarray(q, np.float32).reshape(-1, 2) * f
        g = math.sqrt(max(float(cv2.contourArea(q)), 0.0)) * MARKER_CARD
        sizes.append((g * math.sqrt(ASPECT), g / math.sqrt(ASPECT)))
        centres.append(q.mean(axis=0))
    return np.array(sizes, np.float64).reshape(-1, 2), np.array(centres, np.float64).reshape(-1, 2)


def _local_long(lens: np.ndarray, centres: np.ndarray, at: np.ndarray) -> float:
    """A card's long side near a point, from the clean single cards nearest it (perspective
    changes it across the table): the upper quartile of the nearest four, since a card whose
    dark field melts into the cloth shows as a smaller quad, never a larger one."""
    near = np.argsort(np.linalg.norm(centres - at, axis=1))[:4]
    return float(np.percentile(lens[near], 75))


PLANE_MIN_CARDS = 5  # clean single cards needed to fit how a card's size changes across the picture
PLANE_HOLD = 0.1  # across a row of cards, the slope is held back as if they spread this share of a card
PART_BELOW = 0.9  # a card this much smaller than the fit where it lies is part of one: left out
NOT_ABOVE = 1.12  # ... and one this much larger is no single card (two, a patch of cloth): left out
PLANE_SPAN = (0.75, 1.33)  # the fit is held within these shares of the smallest and largest card


def _plane(centres: np.ndarray, g: np.ndarray) -> np.ndarray:
    """(c, gx, gy): g ~ c + (gx, gy) . centre, by least squares; where the cards spread less
    than a card's size in some direction (cards in a row), the slope is held back along it:
    they tell nothing of the size across the row, and a free fit there swung to any slope (a
    pile beside the row came out a third off)."""
    mean_c = centres.mean(axis=0)
    d = centres - mean_c
    card = float(np.median(g))
    if float(np.linalg.eigvalsh(d.T @ d / len(g))[0]) >= card ** 2:  # spread both ways
        return np.linalg.lstsq(np.column_stack([np.ones(len(g)), centres]), g, rcond=None)[0]
    hold = len(g) * (PLANE_HOLD * card) ** 2
    slope = np.linalg.solve(d.T @ d + hold * np.eye(2), d.T @ (g - float(g.mean())))
    return np.array([float(g.mean()) - float(slope @ mean_c), *slope])


PLANE_TRIALS = 1500  # planes through three cards tried at most (evenly spread over all triples)


def _consensus(centres: np.ndarray, g: np.ndarray) -> np.ndarray:
    """The cards whose sizes one plane explains (within PART_BELOW..NOT_ABOVE of it), the most
    such: planes through every three cards and each card's size alone are tried, the best
    refitted to its cards. Least squares over all, with the cards off it left out afterwards,
    was led by the outliers themselves: a dark patch of cloth taken for a card and two cards
    lying almost on each other pulled the plane up until the true cards all looked like parts
    (a card's size 40 % off beside them); several parts of cards pulled it down alike."""
    n = len(g)
    a = np.column_stack([np.ones(n), centres])
    trip = np.array(list(combinations(range(n), 3)), int).reshape(-1, 3)
    if len(trip) > PLANE_TRIALS:
        trip = trip[np.linspace(0, len(trip) - 1, PLANE_TRIALS).astype(int)]
    m = a[trip]  # (T, 3, 3)
    ok = np.abs(np.linalg.det(m)) > 1e-6 * float(np.abs(centres).max() + 1) ** 2
    coefs = np.linalg.solve(m[ok], g[trip[ok]][..., None])[..., 0] if ok.any() else np.zeros((0, 3))
    coefs = np.vstack([coefs, np.column_stack([g, np.zeros((n, 2))])])  # and a level plane per card

    def fits(pred: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Which cards lie within the band of each plane's size, and how far (log) they lie."""
        with np.errstate(invalid="ignore", divide="ignore"):
            off = np.log(g[:, None] / np.where(pred > 0, pred, np.nan))
        inside = (off >= math.log(PART_BELOW)) & (off <= math.log(NOT_ABOVE))
        return inside, np.where(inside, np.abs(off), 0.0)

    inl, off = fits(a @ coefs.T)  # (n, T)
    # each card counts the less the further it lies from the plane (MSAC): a plane tilted to
    # take in an outlier at each end scores below the flat one of the true cards
    score = np.where(inl, 1 - (off / math.log(NOT_ABOVE)) ** 2, 0.0).sum(axis=0)
    best = inl[:, int(np.argmax(score))]
    for _ in range(2):  # refitted to its cards (the plane of three is only as good as they are)
        if best.sum() < 3:
            break
        best = fits((a @ _plane(centres[best], g[best]))[:, None])[0][:, 0]
    return best


class LongSide:
    """A card's long side anywhere in the picture, from the clean single cards (sizes: (short,
    long) each, centres: the same units).

    A tilted camera makes cards nearer it larger: one over the distance to a plane is linear in
    the image coordinates, and a card's size in the picture about so. A plane fitted to the cards'
    sizes carries them across the table, also to a pile whose nearest single cards all lie on
    its far side (the nearest four there gave a pile's card 25 % too small). The size fitted is
    the geometric mean of the sides, which tilt changes alike at every turn of a card (it
    shortens the side along it only). The cards off the plane are left out: smaller than it
    where they lie (parts of cards under an arm, a dark field melting into the cloth) or larger
    (two cards lying almost on each other, a patch of cloth): first those off the plane that
    most cards fit (_consensus), then, one at a time, the one furthest off the plane of the
    others. With fewer cards, the nearest four tell (_local_long; there a card's own size counts
    among them)."""

    def __init__(self, sizes: np.ndarray, centres: np.ndarray) -> None:
        sizes = np.asarray(sizes, np.float64).reshape(-1, 2)
        self.lens = sizes[:, 1]
        self.centres = centres = np.asarray(centres, np.float64).reshape(-1, 2)
        self.coef: np.ndarray | None = None
        self.whole = np.ones(len(sizes), bool)  # the cards not left out as parts of cards
        if len(sizes) < PLANE_MIN_CARDS:
            return
        g = np.sqrt(sizes[:, 0] * sizes[:, 1])
        use = self.whole
        use &= _consensus(centres, g)
        a = np.column_stack([np.ones(len(g)), centres])
        while True:  # then each card against the plane of the others: the one furthest off
            # goes, and again, while any is off (one part of a card alone in a corner of the
            # picture tilts a plane to itself)
            idx = np.flatnonzero(use)
            if len(idx) < PLANE_MIN_CARDS:
                return
            ratio = np.array([g[i] / float(a[i] @ _plane(centres[idx[idx != i]], g[idx[idx != i]]))
                              for i in idx])
            off = np.where(ratio < PART_BELOW, PART_BELOW / ratio,
                           np.where(ratio > NOT_ABOVE, ratio / NOT_ABOVE, 0.0))
            if not off.any():
                break
            use[idx[int(np.argmax(off))]] = False
        idx = np.flatnonzero(use)
        if len(idx) < PLANE_MIN_CARDS:
            return
        self.coef = _plane(centres[idx], g[idx])
        self.low, self.high = PLANE_SPAN[0] * float(g[idx].min()), PLANE_SPAN[1] * float(g[idx].max())

    def at(self, pt: np.ndarray) -> float:
        if self.coef is None:
            return _local_long(self.lens, self.centres, pt)
        g = float(self.coef[0] + self.coef[1:] @ pt)
        return min(max(g, self.low), self.high) / math.sqrt(ASPECT)


def _shape(quad: np.ndarray, aspect: float = ASPECT) -> np.ndarray:
    """A card quad's shape as (s11, s12, s22) of S = M M^T (determinant 1), where M's columns are
    its short side over ASPECT and its long side: the camera's squeeze at that place, the same
    whichever way the card is turned (a card's sides are at right angles and ASPECT apart on the
    table: M is the squeeze times a turn, and the turn drops out of M M^T). aspect: the thing's
    short side over its long one on the table (a marker's square: 1)."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    e1 = ((q[1] - q[0]) + (q[2] - q[3])) / 2
    e2 = ((q[3] - q[0]) + (q[2] - q[1])) / 2
    if np.linalg.norm(e1) > np.linalg.norm(e2):
        e1, e2 = e2, e1
    m = np.column_stack([e1 / aspect, e2])
    s = m @ m.T
    s /= math.sqrt(max(float(np.linalg.det(s)), 1e-9))
    return np.array([s[0, 0], s[0, 1], s[1, 1]])


SQUEEZE_MIN = 1.02  # a squeeze (ratio of the longest to the shortest stretch) below this is none
SQUEEZE_MAX = 1.5  # ... and one above this, fitted or extrapolated, is not believed
SQUEEZE_OFF = 0.04  # a card whose shape lies this far from the others' (a part of a card) is left out
SQUEEZE_CARDS = 8  # whole single cards needed to fit the squeeze: from fewer (5 to 7) the fit put
# it further from the truth than none at 40 of 624 rendered pile tops (from 8: at 5), as wrong
# by up to 0.1 of S where the truth was 0.05
SQUEEZE_MARKERS = 3  # ... or the table's markers showing: their squares are found to a pixel at
# the table's corners, and tell the squeeze across it with any cards


class Foreshortening:
    """How a tilted camera squeezes a card's shape across the picture, from the clean single
    cards' shapes (_shape; centres in full-image pixels): at(pt) is the 2x2 map (determinant 1)
    that unsqueezes it there, under which every card is a rectangle of ASPECT again.

    Seen from the side, a card turned along the tilt is shortened and one turned across it is
    not, and one turned between is a parallelogram: a card-shaped rectangle searched in the
    image fits neither (a pile's top card 8 % narrower than a card's proportion was never
    outlined). Each of S's three numbers is fitted as a plane across the picture (the squeeze
    grows towards the far side) where SQUEEZE_CARDS cards or more tell, or SQUEEZE_MARKERS of the
    table's markers (markers: how many of the last shapes are their squares), else nothing is
    unsqueezed."""

    def __init__(self, shapes: np.ndarray, centres: np.ndarray, long_px: float, markers: int = 0) -> None:
        shapes = np.asarray(shapes, np.float64).reshape(-1, 3)
        centres = np.asarray(centres, np.float64).reshape(-1, 2)
        self.coef: np.ndarray | None = None
        if (len(shapes) - markers < SQUEEZE_CARDS and markers < SQUEEZE_MARKERS) or long_px <= 0:
            return
        use = np.ones(len(shapes), bool)
        while use.sum() > PLANE_MIN_CARDS:  # the card furthest from the others' plane, while far
            idx = np.flatnonzero(use)
            off = np.array([np.abs(shapes[i] - np.append(1.0, centres[i]) @ self._plane(
                centres[idx[idx != i]], shapes[idx[idx != i]], long_px)).max() for i in idx])
            worst = int(np.argmax(off))
            if off[worst] <= max(SQUEEZE_OFF, 3.0 * float(np.median(off))):
                break
            use[idx[worst]] = False
        self.coef = self._plane(centres[use], shapes[use], long_px)

    @staticmethod
    def _plane(c: np.ndarray, s: np.ndarray, long_px: float) -> np.ndarray:
        """(3, 3): s ~ [1, x, y] @ coef; a slope across less than a card's spread is held back."""
        d = c - c.mean(axis=0)
        slope = np.linalg.solve(d.T @ d + len(c) * (PLANE_HOLD * long_px) ** 2 * np.eye(2), d.T @ (s - s.mean(axis=0)))
        return np.vstack([s.mean(axis=0) - c.mean(axis=0) @ slope, slope])

    def at(self, pt: np.ndarray) -> np.ndarray:
        if self.coef is None:
            return np.eye(2)
        v = self.coef[0] + np.asarray(pt, np.float64) @ self.coef[1:]
        s = np.array([[v[0], v[1]], [v[1], v[2]]])
        lam, vec = np.linalg.eigh(s)
        if lam[0] <= 0 or not SQUEEZE_MIN <= math.sqrt(lam[1] / lam[0]) <= SQUEEZE_MAX:
            return np.eye(2)
        lam /= math.sqrt(lam[0] * lam[1])
        return vec @ np.diag(lam ** -0.5) @ vec.T


def _blob_cards_unsqueezed(image: np.ndarray, cnt: np.ndarray, long_px: float, f: float,
                           unsqueeze: np.ndarray) -> list[tuple[np.ndarray, bool]]:
    """_blob_cards on the blob's part of the picture unsqueezed (Foreshortening.at), where the
    cards are rectangles of a card's proportion again; quads back in the image's pixels."""
    if np.allclose(unsqueeze, np.eye(2)):
        return _blob_cards(image, cnt, long_px, f)
    h, w = image.shape[:2]
    x, y, bw, bh = cv2.boundingRect(cnt)
    pad = 0.6 * long_px + 8
    x0, y0 = max(x / f - pad, 0.0), max(y / f - pad, 0.0)
    x1, y1 = min((x + bw) / f + pad, w), min((y + bh) / f + pad, h)
    box = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    turned = box @ unsqueeze.T
    lo = turned.min(axis=0)
    size = np.ceil(turned.max(axis=0) - lo).astype(int) + 1
    a = np.hstack([unsqueeze, -lo[:, None]])  # image -> unsqueezed picture
    pic = cv2.warpAffine(image, a, (int(size[0]), int(size[1])), flags=cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)
    pts = cnt.reshape(-1, 2).astype(np.float64) / f @ unsqueeze.T - lo
    cnt_u = np.rint(pts * f).astype(np.int32).reshape(-1, 1, 2)
    back = np.linalg.inv(unsqueeze)
    return [(((q.astype(np.float64) + lo) @ back.T).astype(np.float32), whole)
            for q, whole in _blob_cards(pic, cnt_u, long_px, f)]


SEEDS_PER_CARD = 2  # rectangles fitted per card the blob's area could hold
MAX_CENTRES = 3000  # a blob's grid of centres is thinned to this many (a pile in a lamp's glare,
# joined to fifteen cards' area of cloth, thinned to 600, left a grid a sixth of a card apart, and
# no rectangle near its top card's scored among the seeds; 3000 cost 2 % of identify()'s time)
TURN_APART = math.radians(10)  # seeds turned less than this from each other are one
OWN_SIZE = 0.95  # a single quad's long side below this share of the local card's may be part of a card
PART_OF_CARD = 0.8  # a clean quad whose long side is shorter than this share of a card's is part of one
RIGID_APART = 0.06  # a side-by-side fit whose corners left the whole-rectangle fit by this share of a card's width
FIELD_SAME = 0.2  # a fitted quad this near a printed field's rectangle at every corner (share of a card's half width) is it
LAID_SAME = 0.1  # a laid rectangle is a quad kept already only where one lies this near it at every
# corner (share of a card's short side)
EDGE_SEEDS_PER_CARD = 2  # rectangles laid along the corners of a blob's straight edges, per card its area could hold
EDGE_SEGMENT = 0.3  # a straight edge at least this long (share of a card's short side) ...
EDGE_CORNER_REACH = 0.2  # ... with its nearer end this near the corner it makes with another
EDGE_CORNER_COS = 0.17  # ... met within about 10 degrees of square


def _whole_card_around(quad: np.ndarray, long_px: float) -> list[np.ndarray]:
    """Card-sized rectangles, in both turns, that contain the quad (a visible part of a card)
    flush with two of its sides: where the rest of the card lies is unknown, so every corner."""
    q = order_clockwise(quad)
    u, v = q[1] - q[0], q[3] - q[0]
    lu, lv = float(np.linalg.norm(u)), float(np.linalg.norm(v))
    if lu < 1 or lv < 1:
        return []
    u, v = u / lu, v / lv
    out = []
    for cu, cv in ((long_px * ASPECT, long_px), (long_px, long_px * ASPECT)):
        eu, ev = max(cu - lu, 0.0), max(cv - lv, 0.0)  # the extension each way
        if eu < 0.15 * cu and ev < 0.15 * cv:
            continue
        for su in ((0.0, eu) if eu >= 0.15 * cu else (eu / 2,)):
            for sv in ((0.0, ev) if ev >= 0.15 * cv else (ev / 2,)):
                o = q[0] - su * u - sv * v
                out.append(np.array([o, o + cu * u, o + cu * u + cv * v, o + cv * v], np.float32))
    return out


def _directions(ang: np.ndarray, mag: np.ndarray, strong: np.ndarray, most: int = 4) -> list[float]:
    """The dominant directions (radians, mod 90 degrees) of the strong edges in a window."""
    if not strong.any():
        return []
    hist, _ = np.histogram(ang[strong], bins=45, range=(0, np.pi / 2), weights=mag[strong])
    hist = hist + np.roll(hist, 1) + np.roll(hist, -1)
    peaks = [int(i) for i in np.argsort(-hist)[:12]
             if hist[i] >= 0.2 * hist.max() and hist[i] >= hist[i - 1] and hist[i] >= hist[(i + 1) % 45]]
    return [(i + 0.5) * (np.pi / 2) / 45 for i in peaks[:most]]


def _turn_apart(a: float, b: float) -> float:
    """How far apart two rectangles' turns are (radians; a rectangle turned half round is itself)."""
    d = abs(a - b) % math.pi
    return min(d, math.pi - d)


def _turn(q: np.ndarray) -> float:
    """The direction of a quad's long side (radians), whichever corner it starts at."""
    d0, d1 = q[1] - q[0], q[2] - q[1]
    d = d0 if np.hypot(*d0) >= np.hypot(*d1) else d1
    return math.atan2(float(d[1]), float(d[0]))


FIELD_SCALE = 63.5 / 57.5  # a card's outline / its printed field inside the white margin
FIELD_ERODE = 2  # px the ink is thinned by before its regions are told apart
# a field's area, as a share of the one a card of the blob's size has (that size is the nearest
# single cards', which perspective may make a quarter smaller)
FIELD_AREA = (0.45, 1.6)
FIELD_SOLID = 0.75  # share of its bounding rectangle a field fills (its print's holes filled)
FIELD_RIDGE = 6.0  # grey levels a margin's least channel rises above its surroundings'
FIELD_RIDGE_WIDTH = 0.13  # half the window the surroundings are taken in, as a share of a card's half width
HUE_PHASES = (8, 23)  # two sets of hue bands (OpenCV hue, 0..180, bands 30 wide), half a band apart


def field_seeds(image: np.ndarray, cnt: np.ndarray, f: float, hw: float, hh: float) -> list[np.ndarray]:
    """Card rectangles around the printed fields that show whole in a blob: the top card of a
    pile keeps its white margin all round its field, which sets it apart from the cards below
    even where its outline has no edge against theirs. A field is a solid, card-shaped region
    of ink of one hue (not paper: the blob's brightest, greyest pixels) of about a card's
    field's size and shape (the project decks' design, vision/decks; a standard deck's faces
    have no such field)."""
    x, y, bw, bh = cv2.boundingRect(cnt)
    x0, y0 = int(x / f), int(y / f)
    x1, y1 = min(int((x + bw) / f) + 1, image.shape[1]), min(int((y + bh) / f) + 1, image.shape[0])
    crop = image[y0:y1, x0:x1]
    if crop.size == 0:
        return []
    blob = np.zeros(crop.shape[:2], np.uint8)
    cv2.drawContours(blob, [np.round((cnt.reshape(-1, 2) / f) - [x0, y0]).astype(np.int32)], -1, 1, -1)
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
    v, sat = hsv[:, :, 2].astype(np.float32), hsv[:, :, 1]
    inside = blob.astype(bool)
    if inside.sum() < 50:
        return []
    white = float(np.percentile(v[inside], 95))
    paper = (v > 0.75 * white) & (sat < 70)
    # a margin blurred to a tint of its field's ink still shows as a thin ridge of the least
    # channel (paper is bright in all three; ink, cloth and the cards below are not)
    least = cv2.GaussianBlur(crop.min(axis=2).astype(np.float32), (3, 3), 0)
    k = 2 * max(2, round(FIELD_RIDGE_WIDTH * hw)) + 1
    paper |= least - cv2.blur(least, (k, k)) > FIELD_RIDGE
    # the ink split by hue (a blue field on a red card: a blurred margin between them may not
    # read as paper all along), and the grey ink apart; in two sets of hue bands, half a band
    # apart, since a field whose hue lies on a band's edge is split by the noise into speckles
    # of two bands (a purple field on a pile lost its card so)
    hue = hsv[:, :, 0].astype(np.int32)
    coloured = sat >= 70
    inks = [~coloured] + [coloured & (((hue + phase) % 180) // 30 == band)
                          for phase in HUE_PHASES for band in range(6)]
    contours: list[np.ndarray] = []
    for in_band in inks:
        ink = (inside & ~paper & in_band).astype(np.uint8)
        # a field's own print (a white circle, a character) leaves holes in it: filled; a thin
        # neck to another card's ink of the same hue: cut
        outer, _ = cv2.findContours(ink, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        cv2.drawContours(ink, outer, -1, 1, -1)
        ink = cv2.erode(ink, np.ones((3, 3), np.uint8), iterations=FIELD_ERODE)
        contours += list(cv2.findContours(ink, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0])
    fw, fh = 2 * hw / FIELD_SCALE, 2 * hh / FIELD_SCALE  # a field's width and height
    out: list[np.ndarray] = []
    for c in contours:
        (cx, cy), (rw, rh), ang = cv2.minAreaRect(c)
        area = cv2.contourArea(c) + FIELD_ERODE * (rw + rh) * 2
        rw, rh = rw + 2 * FIELD_ERODE, rh + 2 * FIELD_ERODE
        if not FIELD_AREA[0] * fw * fh <= area <= FIELD_AREA[1] * fw * fh:
            continue
        short, long_ = sorted((rw, rh))
        if area < FIELD_SOLID * rw * rh or abs(short / max(long_, 1.0) - fw / fh) > 0.12:
            continue  # not one solid field: fields of two cards, or a field cut by a card on it
        box = order_clockwise(cv2.boxPoints(((cx + x0, cy + y0), (rw * FIELD_SCALE, rh * FIELD_SCALE),
                                             ang)).astype(np.float32))
        if not any(corner_gap(box, o) < 0.1 * hw for o in out):  # found in both sets of bands
            out.append(box)
    return out


def _blob_cards(image: np.ndarray, cnt: np.ndarray, long_px: float,
                f: float, laid_too: bool = False) -> list[tuple[np.ndarray, bool]]:
    """Card rectangles in a blob of several overlapping cards (a pile, a fan, a card under a hand).

    The top card of a pile shows its whole outline: search the blob for card-sized rectangles
    (on a grid of centres inside it, at the dominant edge directions around each) with edges
    along all four sides, best first, then sharpen each with fit_edges and fit_sides. At one
    place, rectangles turned apart are kept as separate seeds: a pile's cards share their
    centre, and the best-scored rectangle there often follows the card below. Rectangles laid
    along right-angled corners are seeds too: the blob's own, and those its straight edges make
    inside it, where the grid's best rectangles all lie elsewhere (a pile joined to an arm, or
    a top card whose pale half melts into the cloth, its centre at the blob's edge). Returns
    full-image quads, those with more of their outline showing first, duplicates (same place and
    turn; for a laid rectangle, near at every corner) dropped, each with whether it is a rectangle
    fitted whole, or laid along the corner of straight edges (unfitted), kept beside its side fit.
    laid_too: also the rectangles laid along the blob's right-angled corners as laid (whole): on
    a pile of two cards lying almost on each other, the top card's two sides over the card below
    show no edge, and the fit moves such a rectangle onto the outline of both."""
    x, y, bw, bh = cv2.boundingRect(cnt)
    pad = int(0.25 * long_px * f) + 3
    box = (int((x - pad) / f), int((y - pad) / f), int((x + bw + pad) / f), int((y + bh + pad) / f))
    em = EdgeMap(image, box)
    hw, hh = long_px * ASPECT / 2, long_px / 2
    # centres: a grid over the blob (in full-image pixels), inside the blob
    step = max(2.0, 0.09 * long_px)
    xs = np.arange(x / f, (x + bw) / f, step)
    ys = np.arange(y / f, (y + bh) / f, step)
    gx, gy = np.meshgrid(xs, ys)
    pts = np.column_stack([gx.ravel(), gy.ravel()]).astype(np.float32)
    blob = np.zeros((bh + 2, bw + 2), np.uint8)
    cv2.drawContours(blob, [cnt - np.array([x - 1, y - 1])], -1, 255, -1)
    ix = np.clip(np.rint(pts[:, 0] * f - x + 1).astype(int), 0, bw + 1)
    iy = np.clip(np.rint(pts[:, 1] * f - y + 1).astype(int), 0, bh + 1)
    pts = pts[blob[iy, ix] > 0]  # (anywhere inside, up to its edge: where the blob is only part of
    # a card, its print beside paper that melts into the cloth, the card's centre lies near the edge)
    if len(pts) > MAX_CENTRES:  # a very large blob (glare, a table edge): a sparser grid
        pts = pts[:: int(np.ceil(len(pts) / MAX_CENTRES))]
    if len(pts) == 0:
        return []
    # the directions to try at each centre: the dominant directions of the edges (mod 90
    # degrees) around it, within a window a card and a half wide: a blob of several piles (joined
    # by an arm) has cards at many angles, and one card's edges are a minority of the whole
    mag = np.hypot(em.gx, em.gy)
    ang = np.mod(np.arctan2(em.gy, em.gx), np.pi / 2)
    strong = mag > np.percentile(mag, 80)
    cands_l: list[tuple[float, float, float]] = []
    win = 1.5 * long_px
    cells = np.floor((pts - np.array([x / f, y / f], np.float32)) / long_px).astype(int)
    for cell in np.unique(cells, axis=0):
        sel = np.all(cells == cell, axis=1)
        cx0 = x / f + (cell[0] + 0.5) * long_px - em.off[0]
        cy0 = y / f + (cell[1] + 0.5) * long_px - em.off[1]
        r0, r1 = int(max(cy0 - win / 2, 0)), int(min(cy0 + win / 2, em.h))
        c0, c1 = int(max(cx0 - win / 2, 0)), int(min(cx0 + win / 2, em.w))
        for th in _directions(ang[r0:r1, c0:c1], mag[r0:r1, c0:c1], strong[r0:r1, c0:c1]):
            cands_l += [(px, py, th + extra) for extra in (0.0, np.pi / 2) for px, py in pts[sel]]
    if not cands_l:
        return []
    cands = np.array(cands_l, np.float64)
    sc = _edge_scores(em, cands[:, :2], cands[:, 2], np.full(len(cands), hw), np.full(len(cands), hh))
    order = np.argsort(-sc)
    n_max = int(cv2.contourArea(cnt) / (f * f * hw * hh * 4) * 1.5) + 2
    seeds: list[np.ndarray] = []
    starts: list[tuple[float, float, float]] = []  # centre and angle of each seed
    best = float(sc[order[0]])
    for i in order:  # at one place, rectangles of another turn are other seeds: the best-scored
        # there may follow the card below (a pile's cards share their centre)
        if len(seeds) >= SEEDS_PER_CARD * n_max or sc[i] < 0.45 * best:
            break
        cx, cy, th = cands[i]
        if any(math.hypot(cx - sx, cy - sy) < 0.3 * hw and _turn_apart(th, st) < TURN_APART
               for sx, sy, st in starts):
            continue
        starts.append((cx, cy, th))
        u = np.array([np.cos(th), np.sin(th)]) * hw
        v = np.array([-np.sin(th), np.cos(th)]) * hh
        c = np.array([cx, cy])
        seeds.append(np.array([c - u - v, c + u - v, c + u + v, c - u + v], np.float32))
    fields = field_seeds(image, cnt, f, hw, hh)
    # a card whose corner shows (under a hand, at the edge of a fan): a card laid along the corner
    poly = cv2.approxPolyDP(cnt, max(2.0, 0.04 * hw * 2 * f), True).reshape(-1, 2).astype(np.float32)
    off = np.array([x - 1, y - 1], np.float32)
    corners = _poly_corners(poly - off, 2 * hw * f)
    corners += [c for c in _contour_corners(cnt.reshape(-1, 2) - off, 2 * hw * f)
                if all(np.linalg.norm(c[0] - o[0]) > 0.2 * 2 * hw * f for o in corners)]
    laid = [(q + off) / f for q in _corner_hypotheses(corners, 2 * hw * f, 2 * hh * f, blob)]
    seeds += laid
    # (and along the corners of the straight edges inside it: a top card's corner lying on the
    # cards below is no corner of the blob's outline)
    edge_laid = _edge_corner_seeds(image, box, em, hw, hh, EDGE_SEEDS_PER_CARD * n_max)
    seeds += edge_laid
    def known(q: np.ndarray, others: list[np.ndarray]) -> bool:  # the same place and turn
        return any(np.linalg.norm(q.mean(axis=0) - o.mean(axis=0)) < 0.2 * hw
                   and _turn_apart(_turn(q), _turn(o)) < TURN_APART for o in others)

    fitted: list[np.ndarray] = []
    for q0 in seeds:
        q = order_clockwise(fit_edges(em, q0, max_shift=0.15, rounds=2)[0])
        if not known(q, fitted):
            fitted.append(q)
    qs, shares = fit_sides_many(em, np.array(fitted))
    # a printed field that shows whole places its card to a pixel or two: first, as found (the
    # edges around a pile's top card lead a fit to the card's below)
    out: list[np.ndarray] = list(fields)
    whole: list[bool] = [False] * len(out)

    def field_known(q: np.ndarray) -> bool:  # a field's rectangle is the same outline only where
        # every corner is near: one set by a field misjudged (a pattern card's) lies about the
        # card's centre, a few pixels too large, and must not hide the fit on the outline
        return any(corner_gap(q, o) < FIELD_SAME * hw for o in fields)

    for i in np.argsort(-shares.mean(axis=1), kind="stable"):  # best outline support first
        if not known(qs[i], out[len(fields):]) and not field_known(qs[i]):
            out.append(order_clockwise(qs[i]))
            whole.append(False)
            # a pile's top card lying on a card as pale as itself shows no outline along the
            # sides that lie on it: fitted side by side, such a side follows the card below (or
            # the part of its own line that lies on the cloth) and the quad leaves the card,
            # while the rectangle fitted whole kept its shape: that one is a hypothesis too
            if corner_gap(qs[i], fitted[i]) > RIGID_APART * 2 * hw:
                out.append(order_clockwise(fitted[i]))
                whole.append(True)
    # the rectangles laid along the corners of its straight edges are hypotheses as laid, too: a
    # top card's corner places it to a pixel or two, and the fit may move it onto the card below.
    # One is dropped only where a kept quad lies near it at every corner: a fit at the same place
    # and turn may be a few pixels larger or turned a little, off the card (on 24 blurred piles
    # of white faces, 4 top cards kept only such a quad, 0.1 to 0.25 of a card's width off)
    for q in (laid + edge_laid) if laid_too else edge_laid:
        if not any(corner_gap(q, o) < LAID_SAME * 2 * hw for o in out):
            out.append(order_clockwise(q))
            whole.append(True)
    return list(zip(out, whole, strict=True))


def _edge_corners(grey: np.ndarray, short: float) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Right-angled corners of a picture's straight edges, as (corner, u1, u2) like _poly_corners:
    two line segments (OpenCV's line segment detector) about square to each other, each with its
    nearer end near where their lines meet (a card's corner is rounded)."""
    segs = cv2.createLineSegmentDetector().detect(grey)[0]
    if segs is None:
        return []
    s = segs.reshape(-1, 4).astype(np.float64)
    s = s[np.hypot(s[:, 2] - s[:, 0], s[:, 3] - s[:, 1]) >= EDGE_SEGMENT * short]
    u = s[:, 2:] - s[:, :2]
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    i, j = np.triu_indices(len(s), 1)
    square = np.abs((u[i] * u[j]).sum(axis=1)) <= EDGE_CORNER_COS

    def side(m: int, meet: np.ndarray) -> np.ndarray | None:
        """The unit direction from the corner along segment m, if its nearer end is near it."""
        ends = sorted((s[m, :2], s[m, 2:]), key=lambda e: float(np.linalg.norm(e - meet)))
        if np.linalg.norm(ends[0] - meet) > EDGE_CORNER_REACH * short:
            return None
        return (ends[1] - meet) / np.linalg.norm(ends[1] - meet)

    out = []
    for a, b in zip(i[square], j[square], strict=True):
        meet = _intersect(np.r_[u[a], s[a, :2]], np.r_[u[b], s[b, :2]])
        if meet is None:
            continue
        u1, u2 = side(a, meet), side(b, meet)
        if u1 is not None and u2 is not None:
            out.append((meet.astype(np.float64), u1, u2))
    return out


def _edge_corner_seeds(image: np.ndarray, box: tuple[int, int, int, int], em: EdgeMap, hw: float, hh: float,
                       most: int) -> list[np.ndarray]:
    """Card rectangles (half sizes hw, hh) laid both ways along the right-angled corners of the
    straight edges in the box (full-image pixels), the most that show their outline best."""
    x0, y0 = max(box[0], 0), max(box[1], 0)
    grey = cv2.cvtColor(image[y0:box[3], x0:box[2]], cv2.COLOR_BGR2GRAY)
    quads = []
    for v, u1, u2 in _edge_corners(grey, 2 * hw):
        v = v + (x0, y0)
        for a, b in ((2 * hw, 2 * hh), (2 * hh, 2 * hw)):
            quads.append([v, v + u1 * a, v + u1 * a + u2 * b, v + u2 * b])
    if not quads:
        return []
    qs = np.array(quads, np.float32)
    eu = (qs[:, 1] - qs[:, 0]) + (qs[:, 2] - qs[:, 3])
    ev = (qs[:, 3] - qs[:, 0]) + (qs[:, 2] - qs[:, 1])
    score = _edge_scores(em, qs.mean(axis=1).astype(np.float64), np.arctan2(eu[:, 1], eu[:, 0]),
                         np.linalg.norm(eu, axis=1) / 4, np.linalg.norm(ev, axis=1) / 4)
    return [order_clockwise(qs[k]) for k in np.argsort(-score)[:most]]


def pile_tops(image: np.ndarray, single: Candidate) -> list[Candidate]:
    """Card rectangles in a single card's blob, searched as in a blob of several cards: a clean
    quad of a card's size and shape may be two cards lying almost on each other, read unsurely
    as one (identify asks where the read is unsure)."""
    if single.pile is None:
        return []
    cnt, longs, f = single.pile
    return [Candidate(q, False, single.blob, whole) for long_px in longs
            for q, whole in _blob_cards(image, cnt, long_px, f, laid_too=True)]


def find_cards(image: np.ndarray, card_px: float | None = None) -> list[np.ndarray]:
    """Quads (4x2 float32 arrays, clockwise) of everything on the table that may be a card.

    Clean single cards come first; hypotheses from overlapping cards follow and may overlap each
    other: identify() keeps the ones that read as cards.
    """
    return [c.corners for c in find_candidates(image, card_px)]
