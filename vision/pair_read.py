"""Which of two cards that differ only in small marks a quad shows, read on the image's own pixels.

The template read (vision/identify.py) compares a card rectified to about 1.45 mm a pixel. That
is enough for a card's layout and colours, but a small spade and a small club (or a heart and a
diamond) differ there in a handful of blurred pixels, so a standard deck's black cards at the
overhead camera's scale came out unsure. Here both candidate faces are drawn into the image
itself through the quad's homography (finely drawn, then softened to the camera's scale), and
compared only where they differ: each mark (a pip, a corner suit, a court card's symbol) in its
own small window, where each face may move by up to a pixel and a half (a quad's corners are a
pixel or so off, and not by the same amount everywhere) and gets its own gain and offset (light
and glare vary across a card). The marks are a few pixels across, so the moves are tried in
quarter pixels: at half pixels a spade's pips were often fitted about as well by a club's.

Before that, the quad is moved onto the print the two faces share (their mean: the pips'
places, the index), to a fraction of a pixel: the windows are placed by the quad, and with the
quad a pixel and a half off they left their marks: on rendered black cards whose true outline
gave a margin of +0.02 at worst for the right face, the wrong one then won by up to 0.19.
Both faces move alike, so the move favours neither. It is a shift, then a twist (an affine
map) where that lays the print closer still: a quad's corners are off by different amounts.
Photographed faces (an enrolled deck) are not moved so: each photo's print lies a pixel or so
from the other's; nor (vision/identify.py decides) a card partly covered, whose cover's edges
may pull the move off the print.

The camera's blur is found first, on a coarse grid of moves; it is shared by both faces (a face
must not fit better only by being blurred more than the camera blurs). Where a small spade and
club are hard to tell apart, so is an upright pip from one upside down, so the quad is also tried
turned half round, and each face is judged at the turn in which it explains the marks best: an
ace of spades fitted as itself upright about as well as an ace of clubs upside down is not told
apart (choosing the turn first, by a hair, read it as the club at full margin).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.types import CARD_W_MM

FACE_PX_PER_MM = 4.0  # the faces are drawn this finely before they are warped into the image
COARSE_MOVES = (-0.5, 0.0, 0.5)  # image px: moves of a whole face while the blur is found ...
FINE_MOVES = (-0.5, -0.25, 0.0, 0.25, 0.5)  # ... and when the faces are compared
STEP = 1  # image px: each mark's window also moves by up to this much on top
BLURS = (0.5, 0.8, 1.1, 1.5, 2.0)  # image px: camera blurs tried
DIFFER = 0.06  # grey level (0..1) from which two faces count as different at a pixel
MIN_MARK_PX = 4  # a difference this small (in px) is a speck of rasterising, not a mark
MIN_GAIN = 0.2  # a face must be seen with at least this contrast to explain a window
NOISE = 0.002  # per pixel: residual that is the camera's noise, not evidence


def _grey(img: np.ndarray) -> np.ndarray:
    """The mean of the three channels, 0..1 (cv2.transform: numpy's mean over a face's channels
    took a tenth of the read)."""
    return cv2.transform(img.astype(np.float32), _MEAN)


_MEAN = np.full((1, 3), 1 / 765, np.float32)


def _warped(face: np.ndarray, corners: np.ndarray, shape: tuple[int, int], fine: int = 1) -> np.ndarray:
    """The face drawn into a crop through corners (crop px, clockwise from the printed
    top-left); -1 outside it. fine > 1: drawn on a grid that many times finer, with a margin of
    fine // 2 of its px all round, so that every move of the face by a multiple of 1 / fine px
    (up to half a px) is a slice of it."""
    h, w = face.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(src, (corners * fine + fine // 2).astype(np.float32))
    size = (shape[1] * fine + 2 * (fine // 2), shape[0] * fine + 2 * (fine // 2))
    return cv2.warpPerspective(face, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                               borderValue=-1.0)


class _Marks:
    """The windows where two faces, drawn through one quad, differ; and how well each face
    fits the crop there under a set of moves and blurs."""

    def __init__(self, crop: np.ndarray, q: np.ndarray, soft: list[np.ndarray]) -> None:
        self.crop, self.q, self.soft = crop, q, soft
        still = [_warped(f, q, crop.shape) for f in soft]
        inside = cv2.erode((still[0] >= 0).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
        differ = np.abs(cv2.GaussianBlur(still[0], (0, 0), 0.8) - cv2.GaussianBlur(still[1], (0, 0), 0.8)) > DIFFER
        marks = cv2.dilate((differ & inside).astype(np.uint8), np.ones((3, 3), np.uint8))
        n, lab, stats, _ = cv2.connectedComponentsWithStats(marks)
        h_img, w_img = crop.shape
        pixels, starts, spreads = [], [], []  # each window's pixels (flat crop index), in turn
        used = 0
        for i in range(1, n):
            x, y, w, h, area = stats[i]
            xa, ya, xb, yb = x - 1, y - 1, x + w + 1, y + h + 1
            if area < MIN_MARK_PX or xa - STEP < 0 or ya - STEP < 0 or xb + STEP > w_img or yb + STEP > h_img:
                continue
            ys, xs = np.nonzero(lab[ya:yb, xa:xb] == i)
            win = (ys + ya) * w_img + xs + xa
            xv = crop.reshape(-1)[win]
            starts.append(used)
            pixels.append(win)
            spreads.append(float((xv * xv).sum() - xv.sum() ** 2 / xv.size))  # what a flat patch leaves
            used += win.size
        self.used = used
        self.spread = sum(spreads)
        if not used:
            return
        px = np.concatenate(pixels)
        steps = [dy * w_img + dx for dy in range(-STEP, STEP + 1) for dx in range(-STEP, STEP + 1)]
        self.stepped = px[None, :] + np.array(steps)[:, None]  # (steps, px): every window at every step
        self.starts = np.array(starts)
        self.xv = crop.reshape(-1)[px]
        self.n = np.diff(np.append(self.starts, used)).astype(np.float32)
        self.mean_xv = np.add.reduceat(self.xv, self.starts) / self.n
        self.spreads = np.array(spreads)

    def errors(self, moves: tuple[float, ...], blurs: tuple[float, ...], faces: tuple[int, ...] = (0, 1)
               ) -> np.ndarray:
        """(2, len(blurs)): each face's residual summed over the windows, each window at its
        best move (a whole-face move, then the window's own step); inf for a face not asked."""
        fine = round(1 / float(np.diff(moves).min())) if len(moves) > 1 else 1  # the grid the moves lie on
        first = [fine // 2 - round(m * fine) for m in moves]  # each move's first px on the fine grid
        h, w = self.crop.shape
        total = np.full((2, len(blurs)), np.inf)
        for k in faces:
            # every move at once, as the channels of one picture; each is a slice of one drawing on
            # the finer grid (a homography followed by a move is one homography)
            drawn = _warped(self.soft[k], self.q, self.crop.shape, fine)
            warps = np.dstack([drawn[ay::fine, ax::fine][:h, :w] for ay in first for ax in first])
            for b, sigma in enumerate(blurs):
                blurred = cv2.GaussianBlur(warps, (0, 0), sigma).reshape(-1, len(first) ** 2)
                t = blurred[self.stepped]  # (steps, px, moves)
                s_t = np.add.reduceat(t, self.starts, axis=1)  # (steps, windows, moves)
                var_t = np.add.reduceat(t * t, self.starts, axis=1) - s_t * s_t / self.n[:, None]
                cov = np.add.reduceat(t * self.xv[:, None], self.starts, axis=1) - s_t * self.mean_xv[:, None]
                gain = cov / np.maximum(var_t, 1e-9)
                res = np.where(gain > MIN_GAIN, self.spreads[:, None] - gain * cov, self.spreads[:, None])
                res[np.logical_or.reduceat(t < 0, self.starts, axis=1)] = np.inf  # a move that left the card
                total[k, b] = np.maximum(res.min(axis=(0, 2)), 0.0).sum()
        return total


ALIGN_REACH = 5  # image px: how far the quad is moved to lie on the marks both faces share
ALIGN_TWIST = 4.0  # image px: how far the fine alignment may move a corner beyond the shift


def _detail(img: np.ndarray) -> np.ndarray:
    """The picture less its light: what is left after a blur wider than a pip."""
    return img - cv2.GaussianBlur(img, (0, 0), 3.0)


def _print_drawn(shape: tuple[int, int], q: np.ndarray, both: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The print both faces share drawn through q into a crop of this shape, less its light, and
    where it lies inside the card; None where too little of it does."""
    drawn = _warped(both, q, shape)
    inside = cv2.erode((drawn >= 0).astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
    if inside.sum() < 50:
        return None
    return _detail(np.where(inside, drawn, float(drawn[inside].mean())).astype(np.float32)), inside


def _offset(seen: np.ndarray, q: np.ndarray, both: np.ndarray) -> np.ndarray:
    """The move (image px) that lays the print both faces share (their mean: the pips' places,
    the index) on the crop's: a quad a pixel and a half off moved each mark's window off its mark,
    and the wrong one of two faces then won by a margin of up to 0.19. Both faces move alike, so
    the move favours neither. Found to the whole pixel by correlation, then to a fraction of one
    by ECC; no move where the best lies at the edge of the reach. seen: the crop's detail."""
    drawn = _print_drawn(seen.shape, q, both)
    if drawn is None:
        return np.zeros(2, np.float32)
    face, inside = drawn
    r = ALIGN_REACH
    tmpl = face[r:-r, r:-r]
    if tmpl.shape[0] < 8 or tmpl.shape[1] < 8:
        return np.zeros(2, np.float32)
    score = cv2.matchTemplate(seen, tmpl, cv2.TM_CCOEFF_NORMED)  # (2r+1, 2r+1)
    y, x = np.unravel_index(int(np.argmax(score)), score.shape)
    if not (0 < y < 2 * r and 0 < x < 2 * r):
        return np.zeros(2, np.float32)  # the best move at the edge of the reach: no clear one
    # to a fraction of a pixel: ECC on the print's detail, from the whole pixel found
    warp = np.array([[1, 0, x - r], [0, 1, y - r]], np.float32)
    try:
        _, warp = cv2.findTransformECC(face, seen, warp, cv2.MOTION_TRANSLATION,
                                       (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 30, 1e-3),
                                       inside.astype(np.uint8), 1)
    except cv2.error:  # no convergence: the whole pixel stands
        pass
    d = warp[:, 2]
    return d.astype(np.float32) if float(np.abs(d).max()) <= r else np.zeros(2, np.float32)


def _aligned(crop: np.ndarray, q: np.ndarray, both: np.ndarray) -> np.ndarray:
    """q moved onto the print both faces share (_offset), then twisted onto it (an affine map,
    by ECC): a quad's corners are off by different amounts, so a shift leaves the marks at one
    end off theirs. On the identify benchmark's black and red cards, each corner 2 px off, the
    wrong one of two faces won by more than the pair read's floor (vision/identify.py,
    PAIR_FLOOR) 4 times in 590 reads shifted only, twice twisted too, and the right one was
    left within the floor 53 times, against 34. The twist is kept only where it lays the print
    closer than the shift did (a higher ECC): on true outlines it otherwise strayed, a three's
    pips in one line leaving the map's shear free, and lowered 41 of 295 margins by over 0.03.
    Nor where it moves a corner further than ALIGN_TWIST."""
    seen = _detail(crop)
    q = q + _offset(seen, q, both)
    drawn = _print_drawn(crop.shape, q, both)
    if drawn is None:
        return q
    face, inside = drawn
    mask = inside.astype(np.uint8)
    shifted = cv2.computeECC(face, seen, mask)
    try:
        twisted_ecc, warp = cv2.findTransformECC(face, seen, np.eye(2, 3, dtype=np.float32), cv2.MOTION_AFFINE,
                                                 (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 50, 1e-4),
                                                 mask, 1)
    except cv2.error:  # no convergence: the shift stands
        return q
    twisted = (q @ warp[:, :2].T + warp[:, 2]).astype(np.float32)
    if not twisted_ecc > shifted or float(np.abs(twisted - q).max()) > ALIGN_TWIST:
        return q  # (a flat picture's ECC is NaN: no twist)
    return twisted


def pair_margin(image: np.ndarray, corners: np.ndarray, faces: tuple[np.ndarray, np.ndarray],
                align: bool = True) -> tuple[float, float]:
    """How much better the first of two faces explains the card than the second, in -1..1
    (0: no telling them apart), and the share of the marks' variation the better face explains
    (a quad off the card, or a third card, leaves much of it unexplained by either).

    corners: the card's quad in image px, clockwise from the printed top-left of both faces
    (or from the bottom-right: both turns are tried); faces: the two faces (BGR) drawn at
    FACE_PX_PER_MM. align: the quad is first moved onto the print both faces share (_aligned);
    not for photographed faces, whose shared print lies a pixel or so apart in each photo."""
    q = np.asarray(corners, np.float32).reshape(4, 2)
    pad = 4 + STEP + ALIGN_REACH
    x0, y0 = np.maximum(np.floor(q.min(axis=0)).astype(int) - pad, 0)
    x1, y1 = np.ceil(q.max(axis=0)).astype(int) + pad
    x1, y1 = min(x1, image.shape[1]), min(y1, image.shape[0])
    if x1 - x0 < 8 or y1 - y0 < 8:
        return 0.0, 0.0
    crop = _grey(image[y0:y1, x0:x1])
    q = q - np.array([x0, y0], np.float32)
    short = float(min(np.linalg.norm(q[0] - q[1]), np.linalg.norm(q[1] - q[2])))
    shrink = FACE_PX_PER_MM * CARD_W_MM / max(short, 1.0)  # face px per image px
    soft = [cv2.GaussianBlur(_grey(f), (0, 0), 0.4 * shrink) for f in faces]  # no aliasing in the warp
    if align:
        q = _aligned(crop, q, 0.5 * (soft[0] + soft[1]))
    turns = []  # (marks, each face's share of their variation left at each blur)
    for turn in (0, 2):
        marks = _Marks(crop, np.roll(q, -turn, axis=0), soft)
        if marks.used == 0 or marks.spread <= NOISE * marks.used:  # no marks, or too faint to tell
            continue
        turns.append((marks, marks.errors(COARSE_MOVES, BLURS) / marks.spread))
    if not turns:
        return 0.0, 0.0
    # the turn and the camera's blur at which the better face explains the marks best
    t, b = min(((t, int(np.argmin(c.min(axis=0)))) for t, (_, c) in enumerate(turns)),
               key=lambda tb: float(turns[tb[0]][1][:, tb[1]].min()))
    marks, coarse = turns[t]
    unexplained = marks.errors(FINE_MOVES, (BLURS[b],))[:, 0] / marks.spread  # each face's share left
    noise = NOISE * marks.used / marks.spread
    worse = int(np.argmax(unexplained))
    for other, c in turns[:t] + turns[t + 1:]:
        if c[worse, b] < coarse[worse, b]:  # the worse face fits better turned: judged there
            e = other.errors(FINE_MOVES, (BLURS[b],), (worse,))[worse, 0] / other.spread
            unexplained[worse] = min(unexplained[worse], e)
            noise = max(noise, NOISE * other.used / other.spread)
    u0, u1 = (float(u) for u in unexplained)
    return (u1 - u0) / (u0 + u1 + noise), 1.0 - min(u0, u1)
