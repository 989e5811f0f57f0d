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

A second reader fits each face to the whole print at once (_WholePrint): one blur and the light
as a plane over the whole card, so that a face cannot buy a mark's fit with a gain and a move of
its own, as it can in a window (what it leaves unexplained is counted near the marks). On five
clubs 49 to 57 px wide that the identify benchmark left unread, on their true outlines, the
windows alone chose the club by 0.02 to 0.09 (too little to be sure of), the two readers
together by 0.07 to 0.23. It needs the quad on the card to a
fraction of a pixel, so the quad is first laid on the card's outline, the strongest marks in the
picture (_edge_aligned), then on the print at each turn (_aligned). Where the two readers disagree the margin is none;
where they agree, the surer one's. Photographed faces and covered cards are read by the windows
alone, on the quad as given. Where the caller knows what part of the card a hand or another card
hides (identify's occluder), that part is left out of every fit and alignment: counted, it was a
misfit of both faces that diluted the margin the visible marks gave.

The camera's blur is shared by both faces (a face must not fit better only by being blurred more
than the camera blurs): the blur at which the better face fits the whole print best, or, for
the windows alone, their own on a coarse grid of moves. Where a small spade and club are hard to
tell apart, so is an upright pip from one upside down, so the quad is also tried turned half
round, and each face is judged at the turn in which it explains the card best: an ace of spades
fitted as itself upright about as well as an ace of clubs upside down is not told apart
(choosing the turn first, by a hair, read it as the club at full margin).

Two red faces are compared in the blue and green channels, where their ink is dark (_weights_for).
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


def _grey(img: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """The mean of the three channels, 0..1 (cv2.transform: numpy's mean over a face's channels
    took a tenth of the read); or of those the weights give."""
    return cv2.transform(img.astype(np.float32), _MEAN if weights is None else weights)


_MEAN = np.full((1, 3), 1 / 765, np.float32)
_BLUE_GREEN = np.array([[1 / 510, 1 / 510, 0.0]], np.float32)  # (B, G, R)


def _weights_for(faces: tuple[np.ndarray, np.ndarray]) -> np.ndarray | None:
    """The channels two faces are compared in: where both are printed in red ink, blue and green
    only, in which red ink is dark (in the red channel it is nearly as bright as the paper, so the
    mean of the three keeps two thirds of its contrast, against more of the camera's noise than
    two channels leave). On the identify benchmark's clear red cards, true outlines and 1.5 px
    off, the pair read was sure of the right twin on 2,047 of 2,058 reads on seeds 1 to 8 (2,039
    in the mean of the three) and 1,559 of 1,566 on seeds 9 to 14 (1,548), and chose the wrong
    one in none. None: the mean of the three."""
    return _BLUE_GREEN if all(_red_ink(f) for f in faces) else None


RED_INK = 0.5  # a face whose ink's red stands out of its mean by this share of its darkness is printed in red


def _red_ink(face: np.ndarray) -> bool:
    """Is the face's ink red (_face_ink)?"""
    hue = _face_ink(face)[1]
    return hue is not None and float(hue[2]) > RED_INK


def _face_ink(face: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """A face (BGR, drawn at FACE_PX_PER_MM) shrunk to INK_SCALE, in grey, and its ink's colour
    (_ink_hue)."""
    small = cv2.resize(face, None, fx=INK_SCALE, fy=INK_SCALE, interpolation=cv2.INTER_AREA)
    grey = _grey(small)
    return grey, _ink_hue(small, grey, np.ones(grey.shape, bool))


def _warped(face: np.ndarray, corners: np.ndarray, shape: tuple[int, int], fine: int = 1) -> np.ndarray:
    """The face drawn into a crop through corners (crop px, clockwise from the printed
    top-left); -1 outside it. fine > 1: drawn on a grid that many times finer, with a margin of
    fine // 2 of its px all round, so that every move of the face by a multiple of 1 / fine px
    (up to half a px) is a slice of it."""
    h, w = face.shape[:2]
    # the face's outer edges (half a px beyond its first and last px centres) on the corners, so
    # that a face turned half round through the corners turned half round is the same drawing
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32) - 0.5
    m = cv2.getPerspectiveTransform(src, (corners * fine + fine // 2).astype(np.float32))
    size = (shape[1] * fine + 2 * (fine // 2), shape[0] * fine + 2 * (fine // 2))
    return cv2.warpPerspective(face, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                               borderValue=-1.0)


def _differ(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Where two faces drawn through one quad differ (a little softened: not at a rasterised
    edge's last pixel)."""
    return np.abs(cv2.GaussianBlur(a, (0, 0), 0.8) - cv2.GaussianBlur(b, (0, 0), 0.8)) > DIFFER


class _Marks:
    """The windows where two faces, drawn through one quad, differ; and how well each face
    fits the crop there under a set of moves and blurs."""

    def __init__(self, crop: np.ndarray, q: np.ndarray, soft: list[np.ndarray],
                 hide: np.ndarray | None = None) -> None:
        self.crop, self.q, self.soft = crop, q, soft
        still = [_warped(f, q, crop.shape) for f in soft]
        inside = cv2.erode((still[0] >= 0).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
        if hide is not None:
            inside &= ~hide
        marks = cv2.dilate((_differ(*still) & inside).astype(np.uint8), np.ones((3, 3), np.uint8))
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


def _detail(img: np.ndarray, sigma: float = 3.0) -> np.ndarray:
    """The picture less its light: what is left after a blur wider than a pip."""
    return img - cv2.GaussianBlur(img, (0, 0), sigma)


def _print_drawn(shape: tuple[int, int], q: np.ndarray, both: np.ndarray,
                 hide: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """The print both faces share drawn through q into a crop of this shape, less its light, and
    where it lies inside the card (and is not hidden); None where too little of it does."""
    drawn = _warped(both, q, shape)
    inside = cv2.erode((drawn >= 0).astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
    if hide is not None:
        inside &= ~hide
    if inside.sum() < 50:
        return None
    return _detail(np.where(inside, drawn, float(drawn[inside].mean())).astype(np.float32)), inside


def _offset(seen: np.ndarray, q: np.ndarray, both: np.ndarray, hide: np.ndarray | None = None) -> np.ndarray:
    """The move (image px) that lays the print both faces share (their mean: the pips' places,
    the index) on the crop's: a quad a pixel and a half off moved each mark's window off its mark,
    and the wrong one of two faces then won by a margin of up to 0.19. Both faces move alike, so
    the move favours neither. Found to the whole pixel by correlation, then to a fraction of one
    by ECC; no move where the best lies at the edge of the reach. seen: the crop's detail."""
    drawn = _print_drawn(seen.shape, q, both, hide)
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


def _aligned(crop: np.ndarray, q: np.ndarray, both: np.ndarray, hide: np.ndarray | None = None) -> np.ndarray:
    """q moved onto the print both faces share (_offset), then twisted onto it (an affine map,
    by ECC): a quad's corners are off by different amounts, so a shift leaves the marks at one
    end off theirs. On the identify benchmark's black and red cards, each corner 2 px off, the
    wrong one of two faces won by more than the pair read's floor (vision/identify.py,
    PAIR_FLOOR) 4 times in 590 reads shifted only, twice twisted too, and the right one was
    left within the floor 53 times, against 34. The twist is kept only where it lays the print
    closer than the shift did (a higher ECC): on true outlines it otherwise strayed, a three's
    pips in one line leaving the map's shear free, and lowered 41 of 295 margins by over 0.03.
    Nor where it moves a corner further than ALIGN_TWIST. hide: see pair_margin."""
    seen = _hidden_flat(_detail(crop), hide)
    q = q + _offset(seen, q, both, hide)
    drawn = _print_drawn(crop.shape, q, both, hide)
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


EDGE_REACH = 6.0  # image px: how far laying the card's outline on its edges may move a corner
EDGE_DETAIL = 2.0  # image px: the outline is laid on the pictures' detail, less a blur this wide


def _edge_aligned(crop: np.ndarray, q: np.ndarray, both: np.ndarray, hide: np.ndarray | None = None) -> np.ndarray:
    """q laid on the card's outline and print together (a homography, by ECC): the face both
    faces share drawn on the cloth's colour, so the card's edges, the strongest marks in the
    picture, hold it. On 375 of the benchmark's cards outlined 1.5 px off, the print alone (a few
    blurred pips, _aligned) left the quad a median 0.88 px off at the print and 12.5 % of them
    over 1.5 px, too far for one drawing to be told from the other; the edges, then the print,
    0.55 px and 5.9 %. The move found is then refined on both pictures less their light
    (_detail), as _aligned compares the print: ECC fits one gain and offset to the whole picture,
    and the light across a card (a lamp's glare, the cloth's shading) is not one. On the
    benchmark's 506 clear standard cards (seeds 1 and 2), outlined truly or 1.5 px off, that took
    the quad's error at the print (the worst of nine points inside the card) from a median 0.70
    px to 0.57, and the reads over 1.5 px off from 116 of 1,012 to 41; the pair read was sure of
    the right black twin (PAIR_FLOOR_DRAWN + PAIR_SPAN) on 1,780 of 1,898 reads on seeds 1 to 8
    (was 1,728), and chose the wrong one once, by 0.003 (three times, by up to 0.033). Laid on
    the detail alone, from the quad given, it did as well there, but left a wig-out card's quad
    5 px off, which the first pass lays on the card. Only where the move stays within EDGE_REACH."""
    drawn = _warped(both, q, crop.shape)
    card = drawn >= 0
    around = cv2.dilate(card.astype(np.uint8), np.ones((5, 5), np.uint8)) == 0
    if hide is not None:
        around &= ~hide
    if card.sum() < 50 or around.sum() < 50:
        return q
    tmpl = np.where(card, drawn, float(np.median(crop[around]))).astype(np.float32)
    mask = cv2.dilate(card.astype(np.uint8), np.ones((9, 9), np.uint8))
    if hide is not None:
        mask[hide] = 0
    try:  # (both pictures smoothed a little: a reach of a few px; from a smoother start, then a
        # sharp one, the margins came out as they do from this one pass, at 3 ms more a read)
        _, warp = cv2.findTransformECC(tmpl, crop, np.eye(3, dtype=np.float32), cv2.MOTION_HOMOGRAPHY,
                                       (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 50, 1e-4), mask, 3)
    except cv2.error:  # no convergence: the quad as given
        return q
    try:  # then on the pictures less their light, from there
        _, warp = cv2.findTransformECC(_detail(tmpl, EDGE_DETAIL), _detail(crop, EDGE_DETAIL), warp,
                                       cv2.MOTION_HOMOGRAPHY,
                                       (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 20, 1e-4), mask, 3)
    except cv2.error:  # no convergence: the first pass stands
        pass
    moved = cv2.perspectiveTransform(q.reshape(-1, 1, 2), warp).reshape(4, 2).astype(np.float32)
    return moved if float(np.abs(moved - q).max()) <= EDGE_REACH else q


INK_SCALE = 0.25  # the face is shrunk to a pixel a mm to find its ink (a pip is still 9 px across)
INK_HUE = 0.4  # the ink's colour, as a share of how much darker it is than the paper, off by this much: another card


def _ink_hue(bgr: np.ndarray, shade: np.ndarray, inside: np.ndarray) -> np.ndarray | None:
    """The colour of a card's ink against its paper (B, G, R less their mean), as a share of how
    much darker the ink is, where shade (the face drawn in grey, or as it is expected in the
    picture) is darkest and lightest: 0 for black ink, about (-0.5, -0.5, 1) for red, whatever
    the light's tint and glare do to the contrast. None where no ink is drawn."""
    s = shade[inside]
    if s.size < 50:
        return None
    ink = inside & (shade <= np.percentile(s, 8))
    paper = inside & (shade >= np.percentile(s, 60))
    c = bgr.astype(np.float32)
    hue = c - c.mean(axis=2, keepdims=True)
    drop = float(c[paper].mean() - c[ink].mean())
    if drop <= 1e-3 * float(c[paper].mean() + 1):
        return None
    return (hue[ink].mean(axis=0) - hue[paper].mean(axis=0)) / drop


WHOLE_BLURS = (0.5, 0.8, 1.1, 1.4, 1.7, 2.0, 2.4)  # image px: camera blurs tried for the whole print
WHOLE_MOVES = (-0.5, -0.25, 0.0, 0.25, 0.5)  # image px: each face's moves, once the quad is laid on the card
INSET_PX = 3  # image px: the card's border left out (its edge is where the outline errs most)
MARKS_REACH = 3  # image px: what each face leaves unexplained is counted this near where the two differ


# The normal equations of (1, x, y, t, t x, t y) from 18 sums: the six moments (1, x, y, x x, x y,
# y y) summed plain, times t and times t * t. Entry (i, j) is the moment of (1, x, y)[i % 3] times
# (1, x, y)[j % 3], times t to the power i // 3 + j // 3.
_SQUARE = np.array([[0, 1, 2], [1, 3, 4], [2, 4, 5]])
_NORMAL = np.array([[6 * (i // 3 + j // 3) + _SQUARE[i % 3, j % 3] for j in range(6)] for i in range(6)])


class _WholePrint:
    """Both faces drawn through one quad and fitted to the whole card at once: one camera blur,
    the light as a plane (an offset and a gain that vary linearly across the card), each face
    moved by up to half a pixel. Fitting each mark in its own window, with its own gain and a
    move of a pixel, let a small club's blurred pips pass for a spade's (module docstring).

    What each face leaves unexplained is counted only near where the two differ (MARKS_REACH):
    elsewhere both draw the same print, and the light and blur they fit there alike left a
    misfit that only diluted the margin. On the identify benchmark's clear standard cards (true
    outlines and 1.5 px off), the pair read was then sure of the right black twin on 1,842 of
    1,898 reads on seeds 1 to 8 (1,780 counted over the whole card), and chose the wrong one
    once, by 0.023: a queen of clubs under a lamp's glare whose templates saw no card (structure
    -0.16, so that identify does not ask the whole print: PAIR_STRUCTURE). On seeds 9 to 14,
    kept out of this work, it was sure of 1,429 of 1,464 (1,361 before this and the outline's
    refinement in _edge_aligned) and chose the wrong one in none; of the red twins, 1,548 of
    1,566 (1,553)."""

    def __init__(self, crop: np.ndarray, q: np.ndarray, soft: list[np.ndarray],
                 hide: np.ndarray | None = None) -> None:
        still = _warped(soft[0], q, crop.shape)
        size = 2 * INSET_PX + 1
        self.inside = cv2.erode((still >= 0).astype(np.uint8), np.ones((size, size), np.uint8)) > 0
        if hide is not None:
            self.inside &= ~hide
        self.n = int(self.inside.sum())
        self.shape = crop.shape
        h, w = crop.shape
        ys, xs = np.nonzero(self.inside)
        self.x = xs / w - 0.5
        self.y = ys / h - 0.5
        self.seen = crop[self.inside].astype(np.float64)
        # the light's plane and gain fitted by the normal equations, whose sums over the card are
        # those of t and t * t against these six (1, x, y and their products): t varies, they do not
        x, y = self.x, self.y
        self.moments = np.stack([np.ones_like(x), x, y, x * x, x * y, y * y])
        self.sums, self.plain = self.moments.sum(axis=1), self.moments[:3] @ self.seen
        fine = round(1 / float(np.diff(WHOLE_MOVES).min()))
        self.fine = fine
        self.first = [fine // 2 - round(m * fine) for m in WHOLE_MOVES]  # each move's first px on the fine grid
        self.drawn = [_warped(f, q, crop.shape, fine) for f in soft]  # every move is a slice of these
        near = 2 * MARKS_REACH + 1
        differ = _differ(still, _warped(soft[1], q, crop.shape)).astype(np.uint8)
        self.marked = (cv2.dilate(differ, np.ones((near, near), np.uint8)) > 0)[self.inside]
        # the picture's variation where the misfit is counted: a two of diamonds' few faint pips
        # vary the whole card less than the camera's noise does
        near_marks = self.seen[self.marked]
        self.n_marked = int(near_marks.size)
        self.spread = float(((near_marks - near_marks.mean()) ** 2).sum()) if self.n_marked else 0.0
        self.xm, self.ym, self.seen_marked = self.x[self.marked], self.y[self.marked], near_marks
        self.errors: dict[tuple[int, float, int, int], float] = {}

    def error(self, face: int, sigma: float, dy: int | None = None, dx: int | None = None) -> float:
        """What the face leaves unexplained (sum of squares, near the marks) at this blur and move
        (a slice of the fine drawing; the middle one: unmoved), the light fitted on the whole card."""
        mid = self.fine // 2
        key = (face, sigma, mid if dy is None else dy, mid if dx is None else dx)
        if key not in self.errors:  # (the blur search's unmoved faces are tried again among the moves)
            self.errors[key] = self._error(*key)
        return self.errors[key]

    def _error(self, face: int, sigma: float, dy: int, dx: int) -> float:
        """error, worked out (dy, dx: the move's first px on the fine grid)."""
        h, w = self.shape
        f = self.fine
        moved = np.ascontiguousarray(self.drawn[face][dy::f, dx::f][:h, :w])
        t = cv2.GaussianBlur(moved, (0, 0), sigma)[self.inside].astype(np.float64)
        if (t < 0).any():  # the blur or the move reached outside the card
            return np.inf
        # least squares for (1, x, y, t, t x, t y) by its normal equations (6 unknowns), their
        # sums taken from the moments: no 6 x n matrix is formed (on a card of 5,952 px a call
        # took 0.13 ms, against 0.20 to 0.25 ms forming it)
        ata = np.concatenate((self.sums, self.moments @ t, self.moments @ (t * t)))[_NORMAL]
        aty = np.concatenate((self.plain, self.moments[:3] @ (t * self.seen)))
        try:
            beta = np.linalg.solve(ata + 1e-9 * np.eye(6), aty)
        except np.linalg.LinAlgError:
            return np.inf
        tm = t[self.marked]
        fitted = beta[0] + beta[1] * self.xm + beta[2] * self.ym + tm * (beta[3] + beta[4] * self.xm + beta[5] * self.ym)
        left = self.seen_marked - fitted
        return float(left @ left)

    def best_moved(self, face: int, sigma: float) -> float:
        """The least error over the moves: every other one first, then those beside the best."""
        firsts = self.first
        tried = {(dy, dx): self.error(face, sigma, dy, dx) for dy in firsts[::2] for dx in firsts[::2]}
        iy, ix = (firsts.index(v) for v in min(tried, key=tried.__getitem__))
        for dy in firsts[max(iy - 1, 0):iy + 2]:
            for dx in firsts[max(ix - 1, 0):ix + 2]:
                if (dy, dx) not in tried:
                    tried[dy, dx] = self.error(face, sigma, dy, dx)
        return min(tried.values())


def _whole_margin(crop: np.ndarray, quads: list[np.ndarray], soft: list[np.ndarray],
                  hide: np.ndarray | None = None) -> tuple[float, float | None]:
    """pair_margin on the whole print: each face at the quad (of those laid on the card, upright
    and turned half round) and move where it fits best, both at the camera blur where the better
    one does (a face must not win by being blurred more than the camera blurs); and that blur
    (None where too little of the card is in the picture, or it varies near the marks no more
    than the camera's noise would)."""
    fits = [_WholePrint(crop, q, soft, hide) for q in quads]
    fits = [f for f in fits if f.n >= 50 and f.spread > NOISE * f.n_marked]
    if not fits:
        return 0.0, None
    coarse = np.array([[[f.error(k, s) for s in WHOLE_BLURS] for k in (0, 1)] for f in fits])  # (quads, faces, blurs)
    b = int(np.argmin(coarse.min(axis=(0, 1))))
    e0, e1 = (fits[int(np.argmin(coarse[:, k, b]))].best_moved(k, WHOLE_BLURS[b]) for k in (0, 1))
    return (e1 - e0) / (e0 + e1 + 1e-12), WHOLE_BLURS[b]


def _seen(image: np.ndarray, corners: np.ndarray, faces: tuple[np.ndarray, np.ndarray],
          hidden: tuple[np.ndarray, np.ndarray] | None = None) -> tuple | None:
    """The card's part of the picture in grey (in the channels the two faces differ in), the quad
    in it, the faces softened to the camera's scale, the hidden part (see pair_margin) and the
    crop's corner in the image; None where the quad is too small."""
    q = np.asarray(corners, np.float32).reshape(4, 2)
    pad = 4 + STEP + ALIGN_REACH
    x0, y0 = np.maximum(np.floor(q.min(axis=0)).astype(int) - pad, 0)
    x1, y1 = np.ceil(q.max(axis=0)).astype(int) + pad
    x1, y1 = min(x1, image.shape[1]), min(y1, image.shape[0])
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    weights = _weights_for(faces)
    crop = _grey(image[y0:y1, x0:x1], weights)
    corner = np.array([x0, y0], np.float32)
    q = q - corner
    hide = None if hidden is None else _hidden_in(crop.shape, hidden[0], hidden[1] - corner)
    short = float(min(np.linalg.norm(q[0] - q[1]), np.linalg.norm(q[1] - q[2])))
    shrink = FACE_PX_PER_MM * CARD_W_MM / max(short, 1.0)  # face px per image px
    soft = [cv2.GaussianBlur(_grey(f, weights), (0, 0), 0.4 * shrink) for f in faces]  # no aliasing in the warp
    return crop, q, soft, hide, corner


def laid_on_card(image: np.ndarray, corners: np.ndarray, faces: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """The quad (image px, as corners: clockwise from the faces' printed top-left) laid on the
    card's outline and print as pair_margin lays it before it compares the whole print
    (_edge_aligned, then _aligned on the print the two faces share): a caller may read the
    card again there."""
    seen = _seen(image, corners, faces)
    if seen is None:
        return np.asarray(corners, np.float32).reshape(4, 2)
    crop, q, soft, _, corner = seen
    both = 0.5 * (soft[0] + soft[1])
    on_edges = _edge_aligned(crop, q, 0.5 * (both + both[::-1, ::-1]))
    return (_aligned(crop, on_edges, both) + corner).astype(np.float32)


def pair_margin(image: np.ndarray, corners: np.ndarray, faces: tuple[np.ndarray, np.ndarray],
                align: bool = True, as_drawn: bool = True, against: bool = False,
                hidden: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[float, float]:
    """How much better the first of two faces explains the card than the second, in -1..1
    (0: no telling them apart), and the share of the marks' variation the better face explains
    (a quad off the card, or a third card, leaves much of it unexplained by either).

    corners: the card's quad in image px, clockwise from the printed top-left of both faces
    (or from the bottom-right: both turns are tried); faces: the two faces (BGR) drawn at
    FACE_PX_PER_MM. align: our own drawings of a card in full view (or a covered standard card the
    templates are sure of but for its twin: identify.PAIR_SPAN_COVERED), read by the marks' windows
    (_Marks) once the quad is laid on the print the faces share (_aligned); and, as_drawn, where
    the card is printed as they are drawn (a real deck's ace of clubs, read with our standard
    deck's faces, is not), by the whole print too (_WholePrint), the quad first laid on the card's
    outline (_edge_aligned). Otherwise (photographed faces, whose shared print lies a pixel or so
    apart in each photo; a card partly covered, whose cover's edges would pull the quad off) by
    the windows alone, on the quad as given.

    against: the caller asks only whether the second face is favoured (a card read surely,
    checked against its twin): where the whole print favours the first, or neither, the two
    readers cannot agree on the second, so the windows (about a third of a pair read's time)
    are not read and the margin is 0, with nothing explained.

    hidden: where a hand or another card lies over the card, as a picture of it (1: hidden) and
    the quad in image px it is drawn through (clockwise from its top-left): those pixels, and
    HIDDEN_RIM about them, are left out of every fit and alignment. A hand over half of a card's
    pips otherwise counted as a misfit of both faces, and diluted the margin the other half gave."""
    seen = _seen(image, corners, faces, hidden)
    if seen is None:
        return 0.0, 0.0
    crop, q, soft, hide, _ = seen
    if not align:
        return _marks_margin(crop, [q, np.roll(q, -2, axis=0)], soft, hide=hide)
    both = 0.5 * (soft[0] + soft[1])
    if not as_drawn:
        return _marks_margin(crop, [_aligned(crop, np.roll(q, -turn, axis=0), both, hide) for turn in (0, 2)],
                             soft, hide=hide)
    on_edges = _edge_aligned(crop, q, 0.5 * (both + both[::-1, ::-1]), hide)  # (as likely either way up)
    # then on the print, upright and turned half round (a spade's point and a club's lobes are
    # not where the other's are, so the print the two faces share is laid at each turn)
    quads = [_aligned(crop, np.roll(on_edges, -turn, axis=0), both, hide) for turn in (0, 2)]
    whole, blur = _whole_margin(crop, quads, soft, hide)
    if against and whole >= 0:
        return 0.0, 0.0
    marks, explained = _marks_margin(crop, quads, soft, blur, hide)
    # two readers that weigh the print differently: where they disagree, neither is trusted; where
    # they agree, the surer one speaks for both (of 5,285 reads of standard cards on the identify
    # benchmark's tables, on true outlines and 1.5 px off, either way up, the two agreed on the
    # wrong twin in none; alone, the whole print had chosen it by up to 0.085, the windows by 0.044)
    if whole * marks <= 0:
        return 0.0, explained
    return float(np.sign(whole) * max(abs(whole), abs(marks))), explained


HIDDEN_RIM = 2  # image px about a hidden part of the card also left out (its blurred edge, a shadow)


def _hidden_in(shape: tuple[int, int], picture: np.ndarray, q: np.ndarray) -> np.ndarray | None:
    """Where the hidden part of a card (a picture of it, 1: hidden) lies in a crop of this shape,
    drawn through q (crop px), with HIDDEN_RIM about it; None where none of it does."""
    hide = _warped(picture.astype(np.float32), q, shape) > 0.5
    if not hide.any():
        return None
    size = 2 * HIDDEN_RIM + 1
    return cv2.dilate(hide.astype(np.uint8), np.ones((size, size), np.uint8)) > 0


def _hidden_flat(seen: np.ndarray, hide: np.ndarray | None) -> np.ndarray:
    """A picture's detail with its hidden part flat (no mark there to align on)."""
    return seen if hide is None else np.where(hide, 0.0, seen).astype(seen.dtype)


def _marks_margin(crop: np.ndarray, quads: list[np.ndarray], soft: list[np.ndarray],
                  blur: float | None = None, hide: np.ndarray | None = None) -> tuple[float, float]:
    """pair_margin on the marks where the two faces differ, each in its own window; quads: the
    card's quad upright and turned half round. blur: the camera's, where it is known (found on
    the whole print), else found here."""
    fitted = [m for m in (_Marks(crop, q, soft, hide) for q in quads)
              if m.used and m.spread > NOISE * m.used]  # (no marks, or too faint to tell)
    if not fitted:
        return 0.0, 0.0
    if blur is None:
        coarse = np.array([m.errors(COARSE_MOVES, BLURS) / m.spread for m in fitted])  # (turns, faces, blurs)
        blur = BLURS[int(np.argmin(coarse.min(axis=(0, 1))))]  # where the better face fits best
    # each face's share of the marks' variation left, at the turn where it explains them best
    unexplained = np.array([m.errors(FINE_MOVES, (blur,))[:, 0] / m.spread for m in fitted]).min(axis=0)
    noise = max(NOISE * m.used / m.spread for m in fitted)
    u0, u1 = (float(u) for u in unexplained)
    return (u1 - u0) / (u0 + u1 + noise), 1.0 - min(u0, u1)


def other_ink(image: np.ndarray, corners: np.ndarray, face: np.ndarray) -> bool:
    """Is the card's ink another colour than the face's (_ink_hue)? A black six under a lamp's
    glare, its pips grey, was read by the templates as a red one; the pair read, which sees the
    picture in grey, then chose between the heart and the diamond surely. corners: the card's
    quad in image px, clockwise from the face's printed top-left; face: BGR, drawn at
    FACE_PX_PER_MM. On 3,020 reads of standard cards on the identify benchmark's tables (true
    outlines and 1.5 px off), a card's own face was never taken for another ink, and a face of
    the other colour was missed once."""
    q = np.asarray(corners, np.float32).reshape(4, 2)
    if image.ndim != 3:
        return False
    x0, y0 = np.maximum(np.floor(q.min(axis=0)).astype(int) - 2, 0)
    x1, y1 = np.ceil(q.max(axis=0)).astype(int) + 2
    seen = image[y0:y1, x0:x1]
    if seen.shape[0] < 8 or seen.shape[1] < 8:
        return False
    grey, face_hue = _face_ink(face)
    drawn = _warped(cv2.GaussianBlur(grey, (0, 0), 0.5), q - np.array([x0, y0], np.float32), seen.shape[:2])
    inside = cv2.erode((drawn >= 0).astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
    seen_hue = _ink_hue(seen, drawn, inside)
    return seen_hue is not None and face_hue is not None and float(np.abs(seen_hue - face_hue).max()) > INK_HUE
