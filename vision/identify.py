"""Which card is where: classify card quads against the deck's face and back templates.

Each quad is rectified to a small canonical picture (CW x CH px, about 1.45 mm a pixel),
divided by the card's own paper white (a high percentile: every card keeps a white margin) and
compared with every template (each face and back, at 0 and 180 degrees, sharp and soft) under a
photometric model fitted per template: x = a_c * t + b, channel gains a_c that may differ from
each other by a white-balance error only and one offset b for glare and haze. Cells of a 5 x 7
grid that the fitted template does not explain are taken as covered (a hand, another card) and
cost every template the same, so a half-covered card is still read from what shows. The fit
starts from the picture as normalised (gain 1, no offset), so that a hand over half the card
does not drag the first fit off; the offset is held towards none, except where the sensor
clipped part of the card, or even the best card fits poorly so held, and a freer offset fits
clearly better (glare washing the print out). Within the covered cells the occluder itself is
then found pixel by pixel (blobs from the picture's edge that none of the likeliest cards
explains) and the card is read again with the visible part of those cells; this may only make
the likeliest card surer, never change it.

The confidence is the margin between the best card and each close rival (and, in a standard
deck, its twin wherever the overall fit ranks it: two faces that differ in small marks only may
fit alike overall far behind cards that differ in whole pips; on a card partly covered, each
rival turned either way up, as the cover spoils the overall fit's choice of its turn), measured
on the pixels where the two differ, on a softened picture; the templates are blurred to match
the picture's own blur and each may move by a pixel, so that neither a blurred picture nor a
quad a pixel off passes for a margin. It is lowered when the fit is poor, when most of the card
is covered, and when the template explains little of what the picture shows (a bare patch of
cloth or skin, normalised on itself, looks like a plain white card); the fit is judged on the
cells where the card shows, except in a strict read (a hypothesis from a blob of cards, or a
tracker that wants only the card on top), where the covered cells count against it. Below
MIN_CONFIDENCE the card is reported as UNKNOWN, never guessed. Where the margin is small against
one other face only (a small spade's pips and a club's are a few blurred pixels apart on the
rectified picture), the two are compared again on the image's own pixels (vision/pair_read.py);
a standard deck's read is compared so with its twin (the same rank in the other suit of its
colour) even when it is sure. The pair read is sure sooner where the faces are our own drawings
than where they are photos (an enrolled deck), and only as slowly where part of the card is
covered (PAIR_SPAN); where the templates found an occluder over a card they explain well
otherwise, the pair read leaves its pixels out (_occluded).

The quad is read as given and as sharpened on the image's edges (detect.fit_edges; a card in
perspective side by side, detect.fit_sides), each first
moved by up to two canonical pixels to where the likeliest template, as fitted, matches best (a
quad two pixels off reads a shifted picture, in which a 13 can pass for an 11). Where two reads
name different cards, an edge pulled one off the card, and the better fit stands with its
confidence cut (unless the other fits far worse), and a later read of the same card keeps that
doubt. A read that is not sure is retried with the quad grown by the white margin (on a pale
cloth the outline found may be the colour field's) and then with a small search of the pose
scored by the likeliest templates (not for a standard card unsure only against its twin that its
corner index reads surely, nor one in perspective whose sharpened sides follow its outline all
round close to the quad given). A standard deck's quads are not moved (see _aligned). Where a
read is unsure or takes part of the card for covered, and a shadow lies across the card (a hand
or an arm held over the table), the card is read again with the shadow taken out
(vision/shading.py) and the better fit stands (_read_region).

For the built-in "standard" deck (and decks enrolled with standard codes), every face is also
read by its corner index (vision/decks/index_reader.py); a sure index read decides, a less sure
one only where the templates see a card there (whether or not they name the same one), and a
spade or club read of the twin the pair read argues against is not sure.

Incremental use: find_cards(image) gives quads; identify_region(image, corners, deck) reads one
quad, so a tracker re-reads only the regions that changed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.calibrate import MARKER_MARGIN, play_area
from vision.decks import Deck
from vision.detect import (
    MAX_SKEW_DEG,
    EdgeMap,
    _card_like,
    _skew,
    corner_gap,
    find_candidates,
    find_cards,
    fit_edges,
    fit_sides,
    order_clockwise,
    pile_tops,
    side_support,
)
from vision.pair_read import FACE_PX_PER_MM, laid_on_card, other_ink, pair_margin
from vision.shading import SHADED_SHARE, unshaded
from vision.types import UNKNOWN, Detection

if TYPE_CHECKING:
    from vision.decks.index_reader import IndexRead

__all__ = ["identify", "identify_region", "prepare", "settle", "find_cards", "read_image",
           "UnreadableImageError", "rectify", "CW", "CH"]

RW, RH = 44, 60  # the whole card is rectified at this size (about 1.45 mm a pixel)
INSET = 2  # px of the white margin dropped before the comparison (jitter of the outline)
CW, CH = RW - 2 * INSET, RH - 2 * INSET  # canonical picture compared with the templates: 40 x 56
GRID = (5, 7)  # cells across, down (8 x 8 px each)
BLURS = (0.45, 1.3)  # template blur (canonical px): sharp and soft cameras
MIN_CONFIDENCE = 0.5
STRUCTURE_MIN = 0.1  # share of the picture's variation the template must explain
PRINT_BEYOND_SHADE = 0.05  # ... and, where it fits glare across the card, the share a blank card so shaded leaves
INDEX_SURE = 0.95  # an index read this sure (rank and suit confirmed by the pips) decides
STRUCTURE_INDEX = 0.3  # a less sure index read decides only where the templates see a card
COVERED_INDEX = 0.4  # ... and see it over more than this share of the quad (not a quad off the card)
STRUCTURE_BLOB = 0.4  # a blob hypothesis read by templates explaining less of its picture ...
BLOB_UNSURE = 0.85  # ... is at most this sure (unless a standard card's corner index confirms it, INDEX_SURE)
COVER_TAU = 0.05  # mean squared residual (0..1 scale) above which a cell counts as covered
RIVAL_EXPLAINS = 0.0125  # ... and below which a rival explains a cell well (see _decide's margins)
STRAY_DEPTH = 0.25  # a pixel this much darker than the fitted card predicts (0..1 of its white) is print ...
STRAY_PX = 8  # ... and this many of them in a cell the card leaves unexplained, away from its edges, are print it lacks
STRAY_SHIFT = 2  # ... unless its print lies this near (canonical px): a quad a little off moves all print
GAIN_SPREAD = (0.85, 1.18)  # allowed white-balance error per channel, relative to the mean gain
ROBUST_ROUNDS = 2  # fits on the cells the previous fit explained
MAX_COVERED = 0.65  # a card this much covered is not read at all (from 30 % less, less sure)
TURN_COVERED = 0.15  # a card at least this much covered is weighed against each rival turned either way up
MIN_GAIN = 0.35  # the least contrast of the print fitted, as a share of the card's (its mean gain) ...
MAX_GLARE = 0.45  # ... and the largest offset (glare, haze) fitted, as a share of the card's white
GLARE_RIDGE = 1.0  # holds the fitted offset towards none: glare is the exception
WASHED_OUT = 0.05  # ... unless this share of the card's pixel channels is clipped: glare is seen
FREE_FROM = 0.008  # ... or the best card, held, fits no better than this (a clear card on the
# identify benchmark's harsh tables: median 0.002 to 0.005; 2 % of standard cards above, 12 to 19 % of ours)
FREER_FIT = 0.9  # ... and the offset fitted freely fits the best card better by this factor
FREE_TRIAL = 8  # ... tried first on this many of the likeliest templates (it costs a full fit)
FREE_HOLD = 0.005  # (fitted freely, the offset is still held a little: a plain field's is its gain's twin)
FREE_MIN_GAIN = 0.2  # ... and its print may be as faint, and the glare as strong, as this (a ten of
FREE_MAX_GLARE = 0.8  # hearts in a lamp's glare, its pips' green 0.74 of the paper's, fits at
# gain 0.25 and offset 0.75: held at 0.35 and 0.45, every template left more than a blank card)
SLOPE_HOLD = 1.0  # ... and its slope across the card (a share of that hold) once the gains are set
PLANE_FROM = 0.016  # the best template's score above which the offset is also fitted as a plane
SECOND_START = 0.2  # share of the best card's cells unexplained above which the fit starts twice
CLIPPED = 250  # a channel this bright (0..255) may have been brighter still: the sensor clipped it
POOL_CLIPPED_FROM = 0.15  # from this share of a card's pixel channels clipped, they are fitted in 2 x 2 blocks


class UnreadableImageError(ValueError):
    """An image file that is missing or that OpenCV cannot decode."""


def read_image(path: str | Path) -> np.ndarray:
    """Load a BGR image, with a clear error for a missing or unreadable file."""
    p = Path(path)
    if not p.is_file():
        raise UnreadableImageError(f"image file {p} does not exist; check the path")
    img = cv2.imread(str(p), cv2.IMREAD_COLOR)
    if img is None:
        raise UnreadableImageError(f"image file {p} cannot be read as an image (JPEG/PNG expected)")
    return img


# ------------------------------------------------------------------ canonical pictures

_cell_perm: np.ndarray | None = None


def _perm() -> np.ndarray:
    """Index permutation that groups a flattened CH x CW x 3 picture by cell, then channel."""
    global _cell_perm
    if _cell_perm is None:
        gx, gy = GRID
        idx = np.arange(CH * CW * 3).reshape(CH, CW, 3)
        ys = np.array_split(np.arange(CH), gy)
        xs = np.array_split(np.arange(CW), gx)
        parts = [idx[np.ix_(yy, xx)][:, :, ch].ravel() for yy in ys for xx in xs for ch in range(3)]
        assert len({len(p) for p in parts}) == 1, "grid must split the picture evenly"
        _cell_perm = np.concatenate(parts)
    return _cell_perm


_cell_unperm: np.ndarray | None = None


def _fitted_picture(t: _Templates, j: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Template j as fitted (_scores' gains a and offsets b), as a CH x CW x 3 picture."""
    global _cell_unperm
    if _cell_unperm is None:
        _cell_unperm = np.argsort(_perm())
    ncell = GRID[0] * GRID[1]
    ppc = CH * CW // ncell
    m = t.mat[j].reshape(ncell, 3, ppc) * a[:, j][None, :, None] + b[:, j][:, None, None]
    return m.reshape(-1)[_cell_unperm].reshape(CH, CW, 3)


def _white_ref(f: np.ndarray) -> np.ndarray:
    """Per-channel paper white: a high percentile of the card (every card keeps a white margin,
    so a few percent of its pixels are white paper; the template fit absorbs what is left)."""
    flat = f[1:-1, 1:-1].reshape(-1, 3)
    k = int(0.94 * (len(flat) - 1))
    return np.maximum(np.partition(flat, k, axis=0)[k], 25.0)


def _normalise(pic: np.ndarray) -> np.ndarray:
    """Canonical float picture (CH x CW x 3, about 0..1) of the card, white-balanced on itself."""
    f = pic.astype(np.float32)
    inner = f[INSET:RH - INSET, INSET:RW - INSET]
    return np.minimum(inner / _white_ref(f), 2.0)


def rectify(image: np.ndarray, corners: np.ndarray, w: int = RW, h: int = RH) -> np.ndarray:
    """Warp a card quad (clockwise from the printed top-left) to a w x h upright picture."""
    q = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    side = max(np.linalg.norm(q[0] - q[1]), np.linalg.norm(q[1] - q[2]))
    scale = h / max(side, 1.0)
    x0, y0 = np.floor(q.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(q.max(axis=0)).astype(int) + 2
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, image.shape[1]), min(y1, image.shape[0])
    if x1 - x0 > 4 and y1 - y0 > 4:
        crop = image[y0:y1, x0:x1]
        off = np.array([x0, y0], np.float32)
        if scale < 0.7:  # shrink the region first so the warp does not alias
            k = min(1.0, scale * 1.5)
            crop = cv2.resize(crop, (max(2, round(crop.shape[1] * k)), max(2, round(crop.shape[0] * k))),
                              interpolation=cv2.INTER_AREA)
            k_xy = np.array([crop.shape[1] / (x1 - x0), crop.shape[0] / (y1 - y0)], np.float32)
            q = (q - off + 0.5) * k_xy - 0.5  # (pixel centres, as cv2.resize maps them)
        else:
            q = q - off
        image = crop
    # the corners on the picture's outer edges, half a px beyond its first and last px centres:
    # where the templates (a whole face shrunk by cv2.resize) have the card's edges
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32) - 0.5
    m = cv2.getPerspectiveTransform(q, dst)
    return cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


@dataclass
class _Templates:
    keys: list[tuple[str, str | None, int]]  # (code or UNKNOWN, back colour, rotation 0/180)
    mat: np.ndarray  # (n, D) float32, cell/channel-grouped
    cells: np.ndarray  # (cells * 3, n, px per cell) the same numbers, cell-channel major
    s_t: np.ndarray  # (cells, 3, n) per cell and channel: sum of t
    s_tt: np.ndarray  # (cells, 3, n): sum of t * t
    ident: np.ndarray  # (n,) int: one id per (code, back), shared by rotations and blurs

    @cached_property
    def twin(self) -> np.ndarray:
        """(n,) int: the ident of each row's twin (_twins), -1 where it has none in the deck."""
        by_code = {k[0]: int(i) for k, i in zip(self.keys, self.ident, strict=True) if k[1] is None}
        other = {x: (pair - {x}).pop() for pair in _TWIN_SUITS for x in pair}
        return np.array([by_code.get(code[:-1] + other[code[-1]], -1)
                         if back is None and code[-1:] in other else -1
                         for code, back, _ in self.keys], np.int64)

    @cached_property
    def cells_sq(self) -> np.ndarray:
        """cells squared: sums of t * t over part of a cell's pixels (a read with an occluder)."""
        return self.cells ** 2

    @cached_property
    def by_entry(self) -> np.ndarray:
        """(cells * 3, blocks + px per cell, n): every template's mean over each 2 x 2 block of a
        cell's pixels, then its value at each pixel, each (n,) in one piece: the clipped pixel
        channels of a card are gathered from it at once (_censored)."""
        by_pixel = self.cells.transpose(0, 2, 1)
        r, ppc, n = by_pixel.shape
        across = CW // GRID[0]
        blocks = by_pixel.reshape(r, ppc // across // 2, 2, across // 2, 2, n).mean(axis=(2, 4))
        return np.ascontiguousarray(np.concatenate([blocks.reshape(r, -1, n), by_pixel], axis=1))


_template_cache: dict[tuple[int, str], _Templates] = {}


def _template_pictures(img: np.ndarray) -> list[np.ndarray]:
    """The face as the camera would see it: rectified size, at each template blur."""
    f = img.astype(np.float32) / 255.0
    small = cv2.resize(f, (RW, RH), interpolation=cv2.INTER_AREA)
    out = []
    for s in BLURS:
        b = cv2.GaussianBlur(small, (0, 0), s, borderType=cv2.BORDER_REPLICATE)
        out.append(np.ascontiguousarray(b[INSET:RH - INSET, INSET:RW - INSET]))
    return out


def templates(deck: Deck) -> _Templates:
    """The deck's face and back pictures at 0 and 180 degrees and two blurs (built once per deck)."""
    key = (id(deck), deck.name)
    t = _template_cache.get(key)
    if t is not None:
        return t
    keys: list[tuple[str, str | None, int]] = []
    rows: list[np.ndarray] = []
    ident: list[int] = []
    perm = _perm()
    items: list[tuple[str, str | None, np.ndarray]] = [(c, None, deck.render_face(c, 4.0)) for c in deck.codes]
    items += [(UNKNOWN, b, deck.render_back(b, 4.0)) for b in deck.back_colours]
    for i, (code, back, img) in enumerate(items):
        for pic in _template_pictures(img):
            for rot in (0, 180):
                p = pic if rot == 0 else pic[::-1, ::-1]
                keys.append((code, back, rot))
                rows.append(p.reshape(-1)[perm])
                ident.append(i)
    mat = np.ascontiguousarray(np.stack(rows).astype(np.float32))
    ncell = GRID[0] * GRID[1]
    cells = np.ascontiguousarray(mat.reshape(len(keys), ncell * 3, -1).transpose(1, 0, 2))
    s_t = cells.sum(axis=2).reshape(ncell, 3, -1)
    s_tt = (cells ** 2).sum(axis=2).reshape(ncell, 3, -1)
    t = _Templates(keys, mat, cells, s_t, s_tt, np.array(ident))
    _template_cache[key] = t
    return t


# ------------------------------------------------------------------ matching

@dataclass(frozen=True)
class _Match:
    code: str
    back: str | None
    rot: int
    confidence: float
    covered: float
    error: float
    structure: float = 1.0  # share of the picture's variation the best template explains
    quality: float = 1.0  # what the fit, the structure and the cover leave of a sure margin (0..1)
    rival: tuple[str, str | None] | None = None  # the card (code, back) the margin was closest to
    rival_margin: float = 1.0  # the margin against it (0..1, before quality)
    other_margin: float = 1.0  # the least margin against any other card
    paired: float = 0.0  # the pair read's margin (vision/pair_read.py) for this card over its rival
    # where a hand or another card lies over this one (_occluder_keep), in the card's picture as
    # rectified on the read's quad (RH x RW, 1: hidden); None where nothing does
    hidden: np.ndarray | None = field(default=None, compare=False, repr=False)


def _cell_axes() -> np.ndarray:
    """(cells, 3): 1 and each cell's middle across and down the card (-1..1): the terms of the
    glare's offset (a plane over the card)."""
    gx, gy = GRID
    u = (np.arange(gx) + 0.5) / gx * 2 - 1
    v = (np.arange(gy) + 0.5) / gy * 2 - 1
    vv, uu = np.meshgrid(v, u, indexing="ij")  # cells in reading order, like _perm
    return np.stack([np.ones(gx * gy), uu.ravel(), vv.ravel()], axis=1).astype(np.float32)


_PHI = _cell_axes()
_PHI_OUTER = (_PHI[:, :, None] * _PHI[:, None, :]).reshape(-1, 9)  # (cells, 9)


def _blank_residual(xe: np.ndarray, ke: np.ndarray, phi: np.ndarray, sloped: bool) -> float:
    """What a blank card leaves of the cells' pixel channels xe (cells, 3, ppc; ke: those used):
    fitted with a level per channel and, sloped, also with an offset sloping across the card as
    _fit's plane does (glare fading). A card fitted with that slope must explain more than a
    blank card fitted as freely: a plain sleeve or cloth, shaded from one side and normalised on
    itself, was fitted as a nearly blank card (a 2 of diamonds, at 1.0) with the shade taken for
    glare."""
    n = ke.sum(axis=2)  # (cells, 3): pixel channels used
    s = (xe * ke).sum(axis=2)
    within = float(((xe * xe) * ke).sum() - (s * s / np.maximum(n, 1e-9)).sum())  # about each cell's mean
    mean = s / np.maximum(n, 1e-9)
    # the cells' means fitted by a level per channel and two slopes shared by the channels
    design = np.zeros((phi.shape[0], 3, 5 if sloped else 3))
    design[:, np.arange(3), np.arange(3)] = 1.0
    if sloped:
        design[:, :, 3:] = phi[:, None, 1:]
    w = np.sqrt(n).reshape(-1, 1)
    coef = np.linalg.lstsq(design.reshape(-1, design.shape[2]) * w, mean.reshape(-1, 1) * w, rcond=None)[0]
    between = float((n * (mean - (design @ coef)[:, :, 0]) ** 2).sum())
    return within + between


def _plane(w: np.ndarray, rhs: np.ndarray, sub: np.ndarray, ridge: np.ndarray) -> np.ndarray:
    """The offset plane's three terms per template, (3, m), from the normal equations: w (cells,
    m) the pixel channels weighing each cell, rhs (3, m), sub (3, 3, m) taken off the cells'
    own matrix (the gains' share), ridge (3, m) added to its diagonal."""
    mat = (_PHI_OUTER.T @ w).reshape(3, 3, -1) - sub  # (3, 3, m)
    mat[[0, 1, 2], [0, 1, 2]] += ridge
    # the symmetric 3 x 3 systems solved by their adjugate (np.linalg.solve costs more than the
    # whole fit on a batch this small)
    a, b, c, d, e, f = mat[0, 0], mat[0, 1], mat[0, 2], mat[1, 1], mat[1, 2], mat[2, 2]
    ia, ib, ic = d * f - e * e, c * e - b * f, b * e - c * d
    id_, ie, if_ = a * f - c * c, b * c - a * e, a * d - b * b
    det = a * ia + b * ib + c * ic
    r0, r1, r2 = rhs
    return np.stack([ia * r0 + ib * r1 + ic * r2, ib * r0 + id_ * r1 + ie * r2,
                     ic * r0 + ie * r1 + if_ * r2]) / det


def _fit(sx, sxt, s_t, s_tt, use, den, plane: bool = False, hold: float = GLARE_RIDGE):
    """Per template: channel gains a (3, m) and an offset b (cells, m) fitting x ~ a t + b on the
    cells in use (cells, m); den (cells, 1): the pixel channels summed in each cell.

    The gains may differ from their mean by GAIN_SPREAD only (white balance error), so that a
    plain colour field cannot be turned into another colour; b (glare, haze) is the same for all
    channels and held towards none (by hold: GLARE_RIDGE, FREE_HOLD where glare is seen); plane: b
    may be a plane across the card (a lamp's glare fades across it: a card near its middle is
    washed out at one end and not the other). Where glare is seen (hold below GLARE_RIDGE), the
    print may be fainter and the offset larger (FREE_MIN_GAIN, FREE_MAX_GLARE).
    """
    w = use[:, None]
    low, top = (MIN_GAIN, MAX_GLARE) if hold >= GLARE_RIDGE else (FREE_MIN_GAIN, FREE_MAX_GLARE)
    sum_xt = (sxt * w).sum(axis=0)
    sum_tt = np.maximum((s_tt * w).sum(axis=0), 1e-6)
    m = sxt.shape[2]
    if not plane:
        return _fit_flat((sx * w).sum(axis=0), sum_xt, (s_t * w).sum(axis=0), sum_tt, (den * use).sum(axis=0), m,
                         hold, low, top)
    st_phi = (_PHI.T @ (s_t * w).reshape(len(_PHI), -1)).reshape(3, 3, m)  # (3 terms, 3 channels, m)
    x_phi = _PHI.T @ (sx * w).sum(axis=1)  # (3 terms, m)
    wc = den * use  # (cells, m)
    npx = np.maximum(wc.sum(axis=0), 1.0)

    def gains(b):  # b (cells, m)
        a = (sum_xt - (s_t * w * b[:, None, :]).sum(axis=0)) / sum_tt
        mean = np.minimum(np.maximum(a.mean(axis=0), low), 2.5)  # (np.clip is slow on small arrays)
        return np.minimum(np.maximum(a, mean * GAIN_SPREAD[0]), mean * GAIN_SPREAD[1])

    def held(beta):  # the plane, per cell, within the offsets allowed
        return np.minimum(np.maximum(_PHI @ beta, -0.15), top)

    # as in _fit_flat, the plane's terms solved jointly with the gains, then again once they are set
    ridge = np.broadcast_to((hold * npx / 3)[None], (3, npx.size))
    sub = (st_phi[:, None] * (st_phi / sum_tt[None])[None]).sum(axis=2)
    rhs = x_phi - (st_phi * (sum_xt / sum_tt)[None]).sum(axis=1)
    a = gains(held(_plane(wc, rhs, sub, ridge)))
    # the gains may have been held to their bounds: the offset that best goes with them
    rhs = x_phi - (st_phi * a[None]).sum(axis=1)
    b = held(_plane(wc, rhs, np.zeros_like(sub), SLOPE_HOLD * ridge * (np.arange(3) > 0)[:, None]))
    return gains(b), b


def _fit_flat(sum_x, sum_xt, sum_t, sum_tt, npx, m, hold: float = GLARE_RIDGE, low: float = MIN_GAIN,
              top: float = MAX_GLARE):
    """_fit with one offset over the whole card, from the sums over the cells in use."""
    npx = np.maximum(npx, 1.0)

    def gains(b):
        a = (sum_xt - b * sum_t) / sum_tt
        mean = np.minimum(np.maximum(a.mean(axis=0), low), 2.5)  # (np.clip is slow on small arrays)
        return np.minimum(np.maximum(a, mean * GAIN_SPREAD[0]), mean * GAIN_SPREAD[1])

    # the least-squares offset with the gains solved jointly (with a mostly white card the two are
    # nearly interchangeable, and fitting them in turn creeps towards the answer: a card washed
    # out by glare was fitted as a clean card with its print covered), held towards no offset
    c3 = npx / 3  # pixels per channel
    num = sum_x.sum(axis=0) - (sum_t * sum_xt / sum_tt).sum(axis=0)
    den_b = npx - (sum_t ** 2 / sum_tt).sum(axis=0) + hold * c3
    b = np.minimum(np.maximum(num / den_b, -0.15), top)
    a = gains(b)
    # the gains may have been held to their bounds: the offset that best goes with them
    b = np.minimum(np.maximum((sum_x - a * sum_t).sum(axis=0) / npx, -0.15), top)
    return gains(b), np.broadcast_to(b[None], (GRID[0] * GRID[1], m))


def _likeliest(score: np.ndarray, t: _Templates, n: int) -> list[int]:
    """The best-scoring row of each of the n likeliest cards (a card has a row per blur and turn)."""
    rows: list[int] = []
    seen: set[int] = set()
    for j in np.argsort(score):
        i = int(t.ident[int(j)])
        if i not in seen:
            seen.add(i)
            rows.append(int(j))
            if len(rows) >= n:
                break
    return rows


def _subset(t: _Templates, rows: np.ndarray) -> _Templates:
    """The same templates restricted to some rows (for a quick search of a card's exact pose)."""
    return _Templates([t.keys[int(i)] for i in rows], t.mat[rows], np.ascontiguousarray(t.cells[:, rows]),
                      t.s_t[:, :, rows], t.s_tt[:, :, rows], t.ident[rows])


def _scores(x: np.ndarray, t: _Templates, keep: np.ndarray | None = None,
            clipped: np.ndarray | None = None, free_when_poor: bool = True
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Robust fit of every template to the cell-grouped picture x: (score, res, a, b).

    score (n,): mean over cells of the residual, capped at COVER_TAU per cell (a covered cell
    costs the same for every template); res (cells, n): per-cell residual; a, b: the photometric
    fit (see _fit). keep (like x, 1 or 0): the pixels to use, where an occluder was found.
    clipped (like x, bool): pixel channels the sensor clipped (_clipped): the true value was at
    least the one seen, so they are fitted at the value a template predicts where that is more,
    and cost a template only where it predicts less (an orange field under glare, its red
    clipped, must not read as yellow). free_when_poor: see _robust_fit."""
    ncell = GRID[0] * GRID[1]
    xc = x.reshape(ncell * 3, -1)
    censored = None
    if clipped is not None:
        cc = clipped.reshape(ncell * 3, -1)
        kc = np.ones_like(xc) if keep is None else keep.reshape(ncell * 3, -1)
        rows, pix = np.nonzero(cc & (kc > 0))
        censored = _censored(t, rows, pix, xc)
        keep = (kc * ~cc).reshape(-1)
    counts = None
    if keep is None:
        sxt = np.matmul(t.cells, xc[:, :, None])[:, :, 0].reshape(ncell, 3, -1)  # (cells, 3, n)
        sx = xc.sum(axis=1).reshape(ncell, 3, 1)
        sxx = (xc ** 2).sum(axis=1).reshape(ncell, 3, 1)
        s_t, s_tt = t.s_t, t.s_tt
    else:
        kc = keep.reshape(ncell * 3, -1)
        xk = xc * kc
        sxt = np.matmul(t.cells, xk[:, :, None])[:, :, 0].reshape(ncell, 3, -1)
        s_t = np.matmul(t.cells, kc[:, :, None])[:, :, 0].reshape(ncell, 3, -1)
        s_tt = np.matmul(t.cells_sq, kc[:, :, None])[:, :, 0].reshape(ncell, 3, -1)
        sx = xk.sum(axis=1).reshape(ncell, 3, 1)
        sxx = (xk * xc).sum(axis=1).reshape(ncell, 3, 1)
        counts = kc.sum(axis=1).reshape(ncell, 3, 1)
    return _robust_fit(sx, sxx, sxt, s_t, s_tt, xc.shape[1], counts, censored, free_when_poor=free_when_poor)


def _censored(t: _Templates, rows: np.ndarray, pix: np.ndarray, xc: np.ndarray) -> tuple:
    """_robust_fit's censored: the clipped pixel channels (rows: cell * 3 + channel, pix: pixel
    in the cell) as each template predicts them, their cells, channels, values seen and weights.

    A card under a bright lamp or an over-exposed camera clips most of its white, thousands of
    pixel channels, each weighed against every template in every round of the fit (most of such
    a card's read, and of a frame's time): from POOL_CLIPPED_FROM of them, a 2 x 2 block of a
    cell's pixels clipped whole is fitted as one, at its mean value and the templates' mean
    there, weighing four (the templates are blurred a pixel or more: little is lost)."""
    ncell, ppc = GRID[0] * GRID[1], xc.shape[1]
    nb = ppc // 4
    seen = xc[rows, pix]
    if len(rows) < POOL_CLIPPED_FROM * ncell * 3 * ppc:
        return t.by_entry[rows, nb + pix], rows // 3, rows % 3, seen, None
    across = CW // GRID[0]  # a cell's pixels across
    key = rows * nb + (pix // across) // 2 * (across // 2) + (pix % across) // 2  # its block
    whole = np.bincount(key, minlength=len(xc) * nb)[key] == 4
    blocks = np.unique(key[whole])
    block_seen = np.bincount(key[whole], seen[whole], minlength=len(xc) * nb)[blocks] / 4
    row = np.concatenate([blocks // nb, rows[~whole]])
    entry = np.concatenate([blocks % nb, nb + pix[~whole]])
    weight = np.concatenate([np.full(len(blocks), 4, np.float32),
                             np.ones(len(row) - len(blocks), np.float32)])
    value = np.concatenate([block_seen.astype(np.float32), seen[~whole]])
    order = np.argsort(row, kind="stable")  # in order of cells and channels, as _robust_fit sums them
    row = row[order]
    return t.by_entry[row, entry[order]], row // 3, row % 3, value[order], weight[order]


def _scores_many(xs: np.ndarray, t: _Templates) -> np.ndarray:
    """The best template's score for each of several pictures (B, D) at once: (B,). The same
    numbers as _scores, one call instead of B (a pose search tries several poses a step)."""
    ncell = GRID[0] * GRID[1]
    nb = xs.shape[0]
    xc = xs.reshape(nb, ncell * 3, -1).transpose(1, 2, 0)  # (cells * 3, ppc, B)
    n = t.cells.shape[1]
    sxt = np.matmul(t.cells, xc).reshape(ncell, 3, n * nb)  # column j: template j // B, pose j % B
    sx = np.tile(xc.sum(axis=1).reshape(ncell, 3, nb), (1, 1, n))
    sxx = np.tile((xc ** 2).sum(axis=1).reshape(ncell, 3, nb), (1, 1, n))
    s_t, s_tt = np.repeat(t.s_t, nb, axis=2), np.repeat(t.s_tt, nb, axis=2)
    score = _robust_fit(sx, sxx, sxt, s_t, s_tt, xc.shape[1], plane=False)[0]
    return score.reshape(n, nb).min(axis=0)


def _robust_fit(sx: np.ndarray, sxx: np.ndarray, sxt: np.ndarray, s_t: np.ndarray,
                s_tt: np.ndarray, ppc: int, counts: np.ndarray | None = None,
                censored: tuple | None = None, plane: bool = True, free_when_poor: bool = False
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """_scores from per-cell, per-channel sums: of the picture (sx, sxx: (cells, 3, 1 or m)),
    of picture times template (sxt), of the template (s_t, s_tt: (cells, 3, m)); ppc pixels a
    cell, of which counts (cells, 3, 1) were summed where an occluder was masked out (or the
    channel clipped). A cell with hardly a pixel left counts as covered. censored: the clipped
    pixel channels, left out of those sums: their templates' values (k, m), cells, channels,
    values seen (k,) and how many pixel channels each stands for (k,; None: one each; see
    _censored); each costs a template what it predicts below the value seen. plane: where the
    best template fits poorly (PLANE_FROM) though little of it is covered, every template is
    fitted again with the offset a plane across the card (_fit), and the better fit kept.
    free_when_poor: the offset is also fitted freely where the best card fits poorly held
    (FREE_FROM), not only where the sensor clipped much of it (a reader's own fit; not where the
    scores are compared with held ones, as in _pose_search)."""
    ncell = GRID[0] * GRID[1]
    m = sxt.shape[2]
    cnt = np.full((ncell, 3, 1), float(ppc), np.float32) if counts is None else counts
    den_fit = np.maximum(cnt.sum(axis=1), 1.0)  # (cells, 1): the pixel channels fitted
    den = den_fit
    clipped = censored is not None and len(censored[3]) > 0
    n_clipped = 0.0
    if clipped:
        tc, cell_c, ch_c, xv, weight = censored
        n_clipped = float(len(xv) if weight is None else weight.sum())
        den = den_fit + np.bincount(cell_c, weight, minlength=ncell)[:, None]
        group = cell_c * 3 + ch_c  # sorted (_censored)
        g_starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
        w_col = None if weight is None else weight[:, None]

        def sums(v: np.ndarray) -> np.ndarray:  # (k, m) -> summed per cell and channel (cells, 3, m),
            # each as many times as it stands for
            out = np.zeros((ncell * 3, v.shape[1]), np.float32)
            out[group[g_starts]] = np.add.reduceat(v if w_col is None else v * w_col, g_starts, axis=0)
            return out.reshape(ncell, 3, -1)

        s_t_all, s_tt_all = s_t + sums(tc), s_tt + sums(tc * tc)
    share = den / (3.0 * ppc)

    full = (sxt, s_t, s_tt) + ((tc, s_t_all, s_tt_all) if clipped else (None, None, None))

    def columns(cols: np.ndarray) -> tuple:  # the sums of some templates only
        return tuple(None if v is None else v[..., cols] for v in full)

    def cell_res(a, b, arr=full, pred=None):  # (cells, m) mean squared residual per pixel and
        # channel; pred: predicted(a, b, arr[3]) where the caller has it
        xt, t1, tt, tcl = arr[:4]
        a3, b3 = a[None], b[:, None, :]
        r = (sxx - 2 * a3 * xt - 2 * b3 * sx + a3 ** 2 * tt + 2 * a3 * b3 * t1 + b3 ** 2 * cnt).sum(axis=1)
        if clipped:
            short = np.subtract(xv[:, None], predicted(a, b, tcl) if pred is None else pred)
            np.maximum(short, 0.0, out=short)
            r += sums(np.square(short, out=short)).sum(axis=1)
        return np.where(share > 0.15, r / den, COVER_TAU)

    def predicted(a, b, tcl):  # (k, m): what each template predicts at the clipped channels
        # (in float32, like the pictures: a glary card clips thousands of channels, and these
        # products over every template took most of its read in float64)
        out = a.astype(np.float32)[ch_c]
        out *= tcl
        out += b.astype(np.float32)[cell_c]
        return out

    def in_use(res):  # the cells a fit explains, and at least the best-fitting third (a fit is always made)
        thr = np.partition(res, ncell // 3, axis=0)[ncell // 3][None]
        return ((res < COVER_TAU) | (res <= thr)).astype(np.float32)

    def rounds(use, plane=False, hold=GLARE_RIDGE, arr=full):
        xt, t1, tt, tcl, t1_all, tt_all = arr
        seen = xv[:, None] if clipped else None
        for _ in range(ROBUST_ROUNDS):
            if clipped:  # the clipped channels fitted at the value seen, or the one the last fit
                # predicted where that is more (their expected value, as far as the fit knows)
                a, b = _fit(sx + sums(seen), xt + sums(seen * tcl), t1_all, tt_all, use, den, plane, hold)
            else:
                a, b = _fit(sx, xt, t1, tt, use, den_fit, plane, hold)
            pred = predicted(a, b, tcl) if clipped else None
            res = cell_res(a, b, arr, pred)
            use = in_use(res)
            if clipped:
                seen = np.maximum(xv[:, None], pred, out=pred)
        robust = np.minimum(res, COVER_TAU)
        score = robust.mean(axis=0) / np.minimum(np.maximum(a.mean(axis=0) ** 2, 0.3), 1.0)  # a dim card's residuals are smaller
        return score, res, a, b

    # start from the picture as normalised (paper white = 1: gain 1, no offset), keep the cells
    # that this explains, fit on those, then again on the cells the fit explains (the rest is
    # covered): a hand over half the card does not drag this start off
    start = in_use(cell_res(np.ones((3, m), np.float32), np.zeros((ncell, m), np.float32)))
    score, res, a, b = rounds(start)
    hold = GLARE_RIDGE
    glare_seen = clipped and n_clipped > WASHED_OUT * ncell * 3 * ppc
    if glare_seen or (free_when_poor and float(score.min()) > FREE_FROM):
        # glare may wash a card out, lifting its print towards white; where the sensor clipped
        # some of the card, it is seen to be there, so the offset is also fitted without being
        # held towards none (held, a washed-out 6 was fitted as a clean card whose print is too
        # pale); so too where the held fit leaves even the best card poor: a camera that keeps
        # the white below clipping shows the glare only as print lifted towards it. Where that
        # fits the best card clearly better (FREER_FIT), it is kept for every template, and the
        # fits below are as free (kept per template, the rivals' freer fits cut the margin of a
        # card that the held fit read surely). Tried first on the likeliest few: a clean white
        # card clips too, and there the freer fit finds nothing. The likeliest by the held fit,
        # and where the sensor shows the glare, by their correlation with the picture too, which
        # the print's contrast does not sway (a queen of clubs in a lamp's glare, her print 0.55
        # of her white, came 20th held, first so: never tried, she was read as no card); not
        # where the held fit is only poor: a shade across a plain field correlates with a
        # two-toned face (a Wig Out character), which the freer fit then follows
        few = np.argsort(score)[:FREE_TRIAL]
        if glare_seen:
            few = np.union1d(few, _by_correlation(sx, sxx, sxt, s_t, s_tt, cnt)[:FREE_TRIAL])
        if float(rounds(start[:, few], hold=FREE_HOLD, arr=columns(few))[0].min()) < FREER_FIT * float(score.min()):
            free = rounds(start, hold=FREE_HOLD)
            if float(free[0].min()) < FREER_FIT * float(score.min()):
                score, res, a, b = free
                hold = FREE_HOLD
    if (res[:, int(np.argmin(score))] >= COVER_TAU).mean() > SECOND_START:
        # much of the best card unexplained: glare may have washed its print out (lower
        # contrast than the card as normalised), so also start from a fit on every cell and keep,
        # per template, the better of the two
        score, res, a, b = _better((score, res, a, b), rounds(np.ones((ncell, m), np.float32), hold=hold))
    best = int(np.argmin(score))
    if plane and float(score[best]) > PLANE_FROM and (res[:, best] >= COVER_TAU).mean() <= SECOND_START:
        # the best card fits poorly all over, not where something covers it: glare may fade
        # across it (a plane lets a quad half on the cloth fit a card whose field is the cloth's
        # colour, so not there)
        score, res, a, b = _better((score, res, a, b), rounds(in_use(res), plane=True, hold=hold))
    return score, res, a, b


def _by_correlation(sx: np.ndarray, sxx: np.ndarray, sxt: np.ndarray, s_t: np.ndarray,
                    s_tt: np.ndarray, cnt: np.ndarray) -> np.ndarray:
    """Template columns, best first, by their correlation with the picture over the pixel
    channels summed (_robust_fit's sums, every cell and channel pooled): a fit with any gain and
    offset, however faint the print."""
    n, x, xx = max(float(cnt.sum()), 1.0), float(sx.sum()), float(sxx.sum())
    t1, tt, xt = s_t.sum(axis=(0, 1)), s_tt.sum(axis=(0, 1)), sxt.sum(axis=(0, 1))
    cov = xt - x * t1 / n
    spread = (xx - x * x / n) * (tt - t1 * t1 / n)
    return np.argsort(-cov / np.sqrt(np.maximum(spread, 1e-12)), kind="stable")


def _better(f1: tuple, f2: tuple) -> tuple:
    """Of two fits (score, res, a, b) of every template, the better one per template."""
    better = f2[0] < f1[0]
    return (np.where(better, f2[0], f1[0]), np.where(better[None], f2[1], f1[1]),
            np.where(better[None], f2[2], f1[2]), np.where(better[None], f2[3], f1[3]))


def _picture(image: np.ndarray, q: np.ndarray) -> np.ndarray:
    return _normalise(rectify(image, q)).reshape(-1)[_perm()]


def _clipped(pic: np.ndarray) -> np.ndarray | None:
    """The pixel channels of a rectified picture (as _normalise crops it) that the sensor may
    have clipped, or None where there are none."""
    c = pic[INSET:RH - INSET, INSET:RW - INSET] >= CLIPPED
    return c if c.any() else None


def _grouped(clipped: np.ndarray | None) -> np.ndarray | None:
    """_clipped's mask in _scores' cell-grouped order."""
    return None if clipped is None else clipped.reshape(-1)[_perm()]


MARGIN_BLUR = 0.9  # extra blur (canonical px) of the picture when two cards are compared
MARGIN_SIGMAS = (0.0, 0.9, 1.8)  # extra blur of the templates tried, to match the picture's


def _match(pic: np.ndarray, t: _Templates, strict: bool = False, fitted: tuple | None = None) -> _Match:
    return _decide(_normalise(pic), t, strict, fitted, _clipped(pic))


def _read_pic(image: np.ndarray, q: np.ndarray, t: _Templates, strict: bool = False) -> _Match:
    return _match(rectify(image, q), t, strict)


OCCLUDER_RIVALS = 6  # an occluder's pixels are those that none of this many likeliest cards explains
OCCLUDER_RES = 0.2  # squared residual (summed over the channels) above which a pixel is unexplained
OCCLUDER_MIN_PX = 12  # smaller unexplained specks are print the templates miss, not an occluder

_pix_perm_cache: np.ndarray | None = None


def _pix_perm() -> np.ndarray:
    """For each pixel of the cell-grouped order (cells x pixels a cell), its index in the picture."""
    global _pix_perm_cache
    if _pix_perm_cache is None:
        ncell = GRID[0] * GRID[1]
        ppc = CH * CW // ncell
        _pix_perm_cache = (_perm().reshape(ncell, 3, ppc)[:, 0, :] // 3).reshape(-1)
    return _pix_perm_cache


def _occluder_keep(x: np.ndarray, t: _Templates, score: np.ndarray, a: np.ndarray,
                   b: np.ndarray, covered: np.ndarray, clipped: np.ndarray | None = None) -> np.ndarray | None:
    """Keep-mask (cell-grouped, like x) without the pixels of a hand or card lying over this one:
    blobs, reaching in from the picture's edge, that none of the likeliest cards explains. Only
    the covered cells (covered: (cells,) bool) are masked, so that the cells cut by an
    occluder's edge count with their visible part; the explained cells keep every pixel (a
    card's print that only the right card explains must never be masked away). None when no
    occluder is found. clipped: as for _scores."""
    ncell = GRID[0] * GRID[1]
    ppc = x.size // (ncell * 3)
    r = np.asarray(_likeliest(score, t, OCCLUDER_RIVALS))
    model = t.mat[r].reshape(len(r), ncell, 3, ppc) * a[:, r].T[:, None, :, None] + b[:, r].T[:, :, None, None]
    d = x.reshape(1, ncell, 3, ppc) - model
    if clipped is not None:
        d = np.where(clipped.reshape(1, ncell, 3, ppc), np.maximum(d, 0.0), d)
    err = (d ** 2).sum(axis=2).min(axis=0).reshape(-1)  # (pixels,)
    bad = np.zeros(CH * CW, np.uint8)
    bad[_pix_perm()] = err > OCCLUDER_RES
    bad = bad.reshape(CH, CW)
    bad = cv2.morphologyEx(bad, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    n, lab, stats, _ = cv2.connectedComponentsWithStats(bad, connectivity=4)
    mask = np.zeros((CH, CW), np.uint8)
    for k in range(1, n):
        x0, y0, w, h, area = stats[k]
        at_edge = x0 == 0 or y0 == 0 or x0 + w == CW or y0 + h == CH
        if at_edge and area >= OCCLUDER_MIN_PX:
            mask[lab == k] = 1
    mask = cv2.dilate(mask, np.ones((3, 3), np.uint8))  # the occluder's blurred rim
    cut = mask.reshape(-1)[_pix_perm()].reshape(ncell, ppc) * covered[:, None]  # cell-grouped
    if cut.sum() < OCCLUDER_MIN_PX:
        return None
    keep_pix = 1.0 - cut.astype(np.float32)
    return np.repeat(keep_pix.reshape(ncell, 1, ppc), 3, axis=1).reshape(-1)


def _squared(d: np.ndarray, clipped: np.ndarray) -> float:
    """Sum of squared residuals (picture less model), where a clipped channel counts only as
    far as the model lies below it."""
    return float((np.where(clipped, np.maximum(d, 0.0), d) ** 2).sum())


def _quick_best(pic: np.ndarray, t: _Templates) -> tuple[str, str | None]:
    """The likeliest card by the fit alone, without the margins: (code, back)."""
    score = _scores(_normalise(pic).reshape(-1)[_perm()], t, clipped=_grouped(_clipped(pic)))[0]
    code, back, _ = t.keys[int(np.argmin(score))]
    return code, back


def _other_turn(t: _Templates, score: np.ndarray, j: int) -> int:
    """The best-fitting row of template row j's card turned the other way up (rows go card by
    card, blur by blur, 0 and 180 degrees)."""
    per = 2 * len(BLURS)
    rows = (j // per) * per + 2 * np.arange(len(BLURS)) + (1 - j % 2)
    return int(rows[int(np.argmin(score[rows]))])


def _decide(pic: np.ndarray, t: _Templates, strict: bool = False, fitted: tuple | None = None,
            clipped: np.ndarray | None = None) -> _Match:
    """The best template for the normalised picture and how sure that is (see the module
    docstring). The best card is compared with its rivals on a softer picture and the soft
    templates: a quad a pixel or two off then costs both alike. Where part of the card is
    covered, the occluder is found pixel by pixel and the card read again without it.

    strict: a hypothesis of where a card may be (from a blob of overlapping cards) rather than
    a card's known outline; its covered cells count against how well it fits, since a quad
    across two cards also leaves part of itself unexplained. fitted: _scores of this picture,
    where the caller has them already. clipped (like pic, bool): see _clipped; a clipped
    channel costs a card only what it predicts below the value seen, in the margins too."""
    perm = _perm()
    x = pic.reshape(-1)[perm]
    xc = _grouped(clipped)
    score, res, a, b = fitted if fitted is not None else _scores(x, t, clipped=xc)
    ncell = GRID[0] * GRID[1]
    ppc = x.size // (ncell * 3)
    keep = None
    first = int(np.argmin(score))
    cov_cells = res[:, first] >= COVER_TAU
    if cov_cells.any():
        keep = _occluder_keep(x, t, score, a, b, cov_cells, xc)
        if keep is not None:
            got = _scores(x, t, keep, xc)
            # the mask may only make the likeliest card surer: where it would change the card,
            # what it hid may have been that card's own print (blurred or washed out), so the
            # read without it stands
            if int(t.ident[int(np.argmin(got[0]))]) == int(t.ident[first]):
                score, res, a, b = got
            else:
                keep = None
    order = np.argsort(score)
    best = int(order[0])
    code, back, rot = t.keys[best]
    kept = np.ones((ncell, 3, ppc), np.float32) if keep is None else keep.reshape(ncell, 3, ppc)
    share = kept.mean(axis=(1, 2))
    explained = (res[:, best] < COVER_TAU) & (share > 0.15)
    covered = 1.0 - float((share * explained).mean())
    s1 = float(score[best])
    if explained.sum() < 5:
        return _Match(UNKNOWN, None, 0, 0.0, covered, s1, 0.0, 0.0)
    # margin against the best template of every other card, on the pixels where the two differ
    soft = cv2.GaussianBlur(pic, (0, 0), MARGIN_BLUR, borderType=cv2.BORDER_REPLICATE).reshape(-1)[perm]
    # (a softened pixel next to clipped ones was brighter too)
    soft_clip = np.zeros(soft.shape, bool) if clipped is None else (cv2.GaussianBlur(
        clipped.astype(np.float32), (0, 0), MARGIN_BLUR, borderType=cv2.BORDER_REPLICATE) > 0.25).reshape(-1)[perm]
    per = 2 * len(BLURS)  # rows per card: blurs x rotations

    def soft_row(j: int) -> int:  # the same card and turn, at the softest template blur
        return (j // per) * per + (len(BLURS) - 1) * 2 + (j % 2)

    def compared(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The soft picture's pixel channels in these cells (left out: the occluder's), where
        they lie in a picture padded by a pixel, flattened, and which may be clipped."""
        valid = np.repeat(cells, 3 * ppc)
        usable = kept.reshape(-1)[valid] > 0
        at = perm[np.flatnonzero(valid)[usable]]
        return (soft[valid][usable], ((at // (CW * 3) + 1) * (CW + 2) + (at // 3) % CW + 1) * 3 + at % 3,
                soft_clip[valid][usable])

    xb, at_pad, cb = compared(explained)
    moves = [(dy * (CW + 2) + dx) * 3 for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
    padded: dict[tuple[int, float], np.ndarray] = {}

    def image(j: int, sigma: float) -> np.ndarray:
        """Template j as fitted, blurred by sigma more, as a picture padded by a pixel (flat)."""
        img = padded.get((j, sigma))
        if img is None:
            img = _fitted_picture(t, j, a, b)
            if sigma > 0:
                img = cv2.GaussianBlur(img, (0, 0), sigma, borderType=cv2.BORDER_REPLICATE)
            img = cv2.copyMakeBorder(img, 1, 1, 1, 1, cv2.BORDER_REPLICATE).reshape(-1)
            padded[(j, sigma)] = img
        return img

    def model(j: int, sigma: float, at_pad: np.ndarray = at_pad) -> np.ndarray:
        return image(j, sigma)[at_pad]

    def best_shift_error(j: int, sigma: float, idx: np.ndarray, xd: np.ndarray, cd: np.ndarray) -> float:
        """Error on the pixels idx (padded picture) of template j moved by up to a pixel each
        way (an outline a pixel off must not make a rival look worse than it is)."""
        img = image(j, sigma)
        return min(_squared(xd - img[idx + d], cd) for d in moves)

    # a picture blurrier than the soft templates washes out what tells two cards apart: the
    # templates are blurred to match it before they are compared, so that a blurred picture's
    # small differences are not taken for a margin
    sb = soft_row(best)
    sigma = min(MARGIN_SIGMAS, key=lambda sg: _squared(xb - model(sb, sg), cb))
    mb = model(sb, sigma)
    def against_row(j: int) -> float | None:
        """The best card's margin against template row j, on the pixels where the two differ
        (None: they differ in too few of the pixels seen to tell)."""
        jj = soft_row(j)
        # cells the rival explains well that the best card leaves unexplained (taken for
        # covered) are compared too: they are the rival's evidence (a character's black hair
        # missing under glare where the card read has none)
        extra = (res[:, j] < RIVAL_EXPLAINS) & ~explained & (share > 0.15)
        if extra.any():
            xj, at_j, cj = compared(explained | extra)
            mj = model(sb, sigma, at_j)
        else:
            xj, at_j, cj, mj = xb, at_pad, cb, mb
        diff = np.abs(mj - model(jj, sigma, at_j)) > 0.12
        k = int(diff.sum())
        if k < 6:
            return None
        xd, cd = xj[diff], cj[diff]
        ea = best_shift_error(sb, sigma, at_j[diff], xd, cd)
        ej = best_shift_error(jj, sigma, at_j[diff], xd, cd)
        return float(min(1.0, max(0.0, (ej - ea) / (ea + ej + 0.002 * k)) / 0.6))

    margins: list[tuple[float, int]] = []  # (margin, row) against each close rival
    seen = {int(t.ident[best])}
    twin = _twin_row(t, order, best)
    def far_worse(j: int) -> bool:  # than the best card, overall: no real competitor
        return float(score[j]) > 4.0 * s1 + 0.015

    for n, j in enumerate(list(order[1:]) + ([twin] if twin is not None else [])):
        j = int(j)
        if int(t.ident[j]) in seen:
            continue
        if n < len(order) - 1 and (far_worse(j) or len(seen) >= 5):
            # far worse overall, or enough rivals: no real competitor, but for the twin
            if twin is None or int(t.ident[twin]) in seen:
                break
            continue
        seen.add(int(t.ident[j]))
        # on a card partly covered the rival is also weighed turned the other way up (unless that
        # fits far worse), not only as it fits the whole quad best, cover and all: a seven of hearts
        # a third under an arm fitted the seven turned the wrong way up best, and against that turn
        # the eight, whose other middle pip the arm hid, was read at 0.91. (On a card seen whole,
        # the rival's better turn is the one to beat.)
        rows = [j]
        if covered >= TURN_COVERED:  # (a card seen whole, the common case, asks nothing more)
            turned = _other_turn(t, score, j)
            if not far_worse(turned):
                rows.append(turned)
        m_j, j = min(((against_row(r), r) for r in rows), key=lambda a: -1.0 if a[0] is None else a[0])
        if m_j is None:
            margins.append((0.0, j))  # the two cards differ only under the cover: undecidable
            break
        margins.append((m_j, j))
    margins.sort()
    margin = margins[0][0] if margins else 1.0
    rival = t.keys[margins[0][1]][:2] if margins else None
    other = margins[1][0] if len(margins) > 1 else 1.0
    conf = 1.0
    # the card's pattern must be there: the template must explain most of what differs inside the
    # quad (a bare patch of cloth or skin, normalised on itself, looks like a plain white card)
    xe = x.reshape(-1, 3, ppc)[explained]  # (cells, 3, ppc)
    ke = kept[explained]
    flat = _blank_residual(xe, ke, _PHI[explained], sloped=False)
    n_e = ke.sum(axis=(1, 2))  # pixel channels used in each explained cell
    fit = float((res[explained, best] * n_e).sum())
    structure = 1.0 - fit / max(flat, 1e-6)
    conf *= float(np.clip((structure - STRUCTURE_MIN) / 0.2, 0.0, 1.0))
    if float(np.ptp(b[:, best])) > 1e-6:  # the fit took a shade across the card for glare
        beyond = 1.0 - fit / max(_blank_residual(xe, ke, _PHI[explained], sloped=True), 1e-6)
        conf *= float(np.clip(beyond / PRINT_BEYOND_SHADE, 0.0, 1.0))
    # nothing fits well where the card shows: not a card of this deck, or unreadable (the
    # covered cells are left out here: the coverage has its own cut below)
    err = s1 if strict else fit / max(float(n_e.sum()), 1.0)
    if err > 0.02:
        conf *= max(0.0, 1.0 - (err - 0.02) / 0.02)
    # a card mostly hidden is not trusted: at 65 % covered the confidence is already zero
    conf *= max(0.0, min(1.0, (MAX_COVERED - covered) / 0.3))
    if _stray_print(x, t, best, a, b, res[:, best]):
        conf = 0.0
    return _Match(code, back, rot, margin * conf, covered, s1, structure, conf, rival, margin, other,
                  hidden=None if keep is None else _hidden_picture(keep))


def _hidden_picture(keep: np.ndarray) -> np.ndarray:
    """_occluder_keep's mask as a picture of the whole card (RH x RW, 1 where hidden; the
    margin INSET left out of the comparison takes its nearest pixel's)."""
    ncell = GRID[0] * GRID[1]
    hid = np.zeros(CH * CW, np.float32)
    hid[_pix_perm()] = 1.0 - keep.reshape(ncell, 3, -1)[:, 0, :].reshape(-1)
    return np.pad(hid.reshape(CH, CW), INSET, mode="edge")


def _stray_print(x: np.ndarray, t: _Templates, j: int, a: np.ndarray, b: np.ndarray, res: np.ndarray) -> bool:
    """Whether the picture shows print that template j, as fitted (res: its residual per cell),
    lacks, in cells it leaves unexplained that no hand or card can reach: cells walled off from
    the card's edges by cells it explains well (RIVAL_EXPLAINS). What covers a card comes in over
    its edge; a pip in the middle that the card read has not is another card's (a seven of clubs
    turned end over end, its seventh pip between the middle ones, read as a six at 0.95, that pip
    taken for cover, every other cell explained almost exactly). The walls must be explained
    well, not merely below COVER_TAU: a finger over a card's corner leaves cells its skin happens
    to fit nearly as badly as the print between them. Only print too many counts (darker than
    the card predicts, even a pixel or two off): print missing may be glare."""
    unexplained = res >= COVER_TAU
    if not unexplained.any():
        return False
    gx, gy = GRID
    _, lab = cv2.connectedComponents((res >= RIVAL_EXPLAINS).reshape(gy, gx).astype(np.uint8), connectivity=4)
    edge = set(np.unique(np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]])).tolist())
    cells = np.flatnonzero(unexplained & ~np.isin(lab.ravel(), list(edge)))
    if not cells.size:
        return False
    ncell = gx * gy
    ppc = x.size // (ncell * 3)
    # the darkest the card's print comes within STRAY_SHIFT of each pixel
    near = cv2.erode(_fitted_picture(t, j, a, b), np.ones((2 * STRAY_SHIFT + 1,) * 2, np.uint8))
    near = near.reshape(-1)[_perm()].reshape(ncell, 3, ppc)[cells]
    darker = (near - x.reshape(ncell, 3, ppc)[cells]).mean(axis=1)  # (cells, ppc)
    return bool(((darker > STRAY_DEPTH).sum(axis=1) >= STRAY_PX).any())


def _twin_row(t: _Templates, order: np.ndarray, best: int) -> int | None:
    """The likeliest row of the best card's twin (_twins), where the deck has one."""
    tw = int(t.twin[best])
    return None if tw < 0 else int(order[int(np.argmax(t.ident[order] == tw))])


def _oriented(corners: np.ndarray) -> np.ndarray:
    """Clockwise corners starting so that side 0-1 is a short side (portrait card)."""
    q = order_clockwise(corners)
    d01 = np.linalg.norm(q[0] - q[1]) + np.linalg.norm(q[2] - q[3])
    d12 = np.linalg.norm(q[1] - q[2]) + np.linalg.norm(q[3] - q[0])
    if d01 > d12:
        q = np.roll(q, -1, axis=0)
    return q


FIELD_SCALE = 63.5 / 57.5  # card outline / colour field inside the white margin


def _scaled(q: np.ndarray, k: float) -> np.ndarray:
    c = q.mean(axis=0)
    return ((q - c) * k + c).astype(np.float32)


def _moved(q: np.ndarray, dx: float, dy: float, turn: float, scale: float) -> np.ndarray:
    c = q.mean(axis=0)
    ca, sa = np.cos(turn), np.sin(turn)
    r = np.array([[ca, -sa], [sa, ca]], np.float32)
    return (((q - c) @ r.T) * scale + c + np.array([dx, dy], np.float32)).astype(np.float32)


def _pose_search(image: np.ndarray, q: np.ndarray, t: _Templates, n_codes: int = 4,
                 rounds: int = 2) -> np.ndarray:
    """The quad near q where the likeliest cards' templates fit best (a hypothesis from a pile or
    a tracker's box is often several pixels off): coordinate search over shift, turn and scale,
    scored with the few best templates only (cheap), returning the best quad."""
    score = _scores(_picture(image, q), t, free_when_poor=False)[0]  # (compared with _scores_many's)
    rows = np.flatnonzero(np.isin(t.ident, t.ident[_likeliest(score, t, n_codes)]))
    sub = _subset(t, rows)
    short = float(np.linalg.norm(q[0] - q[1]))
    p = np.zeros(4)
    p[3] = 1.0
    best = float(score[rows].min())
    steps = np.array([0.06 * short, 0.06 * short, np.radians(3.0), 0.04])

    # along each of shift x, shift y, turn and scale (then the shifts again), one and two steps
    # either way scored in one batch, keeping the best; then half steps
    plan = [(i, (-2.0, -1.0, 1.0, 2.0)) for i in (0, 1, 2, 3, 0, 1)[:6 if rounds > 1 else 4]]
    plan += [(i, (-0.5, 0.5)) for i in ((0, 1, 2) if rounds > 1 else ())]
    for i, ks in plan:
        cands = []
        for k in ks:
            c = p.copy()
            c[i] += k * steps[i]
            cands.append(c)
        v = _scores_many(np.stack([_picture(image, _moved(q, *c)) for c in cands]), sub)
        j = int(np.argmin(v))
        if float(v[j]) < best:
            best, p = float(v[j]), cands[j]
    return _moved(q, *p)


WIDE_SHIFTS = (-0.3, -0.15, 0.0, 0.15, 0.3)  # a wide pose search's shifts along each side (share of the short side)
WIDE_COVERED = 0.05  # a read so found counts only where the templates see the card whole (a pile's top card)


def _wide_search(image: np.ndarray, q: np.ndarray, t: _Templates) -> np.ndarray:
    """The quad up to a third of a card's width from q where the templates fit best, then
    searched finely (_pose_search): a pile's top card lying almost squarely on a card as pale
    as itself shows no outline where it lies on it, and the rectangles found in the blob may
    lie a quarter of a card off it, beyond the fine search's reach, while its print places it."""
    q = np.asarray(q, np.float32)
    e1, e2 = q[1] - q[0], q[3] - q[0]
    l1, l2 = float(np.linalg.norm(e1)), float(np.linalg.norm(e2))
    if min(l1, l2) < 1:
        return q
    short = min(l1, l2)
    poses = [q + (a * short / l1) * e1 + (b * short / l2) * e2 for a in WIDE_SHIFTS for b in WIDE_SHIFTS]
    v = _scores_many(np.stack([_picture(image, p) for p in poses]), t)
    return _pose_search(image, poses[int(np.argmin(v))].astype(np.float32), t)


def _wide_read(image: np.ndarray, q: np.ndarray, deck: Deck) -> tuple[np.ndarray, Detection, _Match]:
    """The quad _wide_search finds about q, and the card read strictly on it."""
    wq = _wide_search(image, _oriented(q), templates(deck))
    return (wq, *_twin_resettled(image, deck, *_read_region(image, wq, deck, refine=False, search=False, strict=True)))


def _found_wide(det: Detection, m: _Match) -> bool:
    """Does a wide read count: sure, and seeing the card whole (WIDE_COVERED)?"""
    return det.confidence >= 0.9 and m.covered <= WIDE_COVERED


ALIGN_PX = 2  # a quad is read at the shift, up to this many canonical pixels each way, that fits best
ALIGN_STRUCTURE = 0.5  # ... of a template that explains at least this share of the picture's variation


def _aligned(image: np.ndarray, q: np.ndarray, t: _Templates, align: bool = True
             ) -> tuple[np.ndarray, np.ndarray, tuple | None]:
    """The quad moved along its own axes by the whole canonical pixels (up to ALIGN_PX each way)
    at which the likeliest template, as fitted, matches the picture best, and its picture. A
    quad a pixel or two off (a tracker's box, jitter, an outline pulled by a neighbour's edge)
    otherwise reads a shifted picture, in which one digit can pass for another (13 for 11)
    surely: the margins allow a one-pixel move only. The card's frame (margin, fields, index
    corners) sets the shift, so that the likeliest template serves even where it is the wrong
    card. Searched across, then down (each moves one pair of sides), on the cells the template
    explains (on the whole picture where it explains too little: _guides), in one picture
    rectified with a border. The third value: the picture's _scores when it is the quad's own
    (not moved). align=False: the quad as given (a standard deck, printed in many designs: our
    renders of it would lead the quad off a real card, and its corner index is read on the quad
    as found)."""
    p = ALIGN_PX if align else 0
    w, h = RW + 2 * p, RH + 2 * p
    canon = np.array([[p, p], [p + RW, p], [p + RW, p + RH], [p, p + RH]], np.float32)
    to_image = cv2.getPerspectiveTransform(canon, np.asarray(q, np.float32).reshape(4, 2))
    outer = cv2.perspectiveTransform(np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float32), to_image)[0]
    big = rectify(image, outer, w, h)
    centre = big[p:p + RH, p:p + RW]
    f = big.astype(np.float32) / _white_ref(centre.astype(np.float32))  # _normalise, with a border
    np.minimum(f, 2.0, out=f)
    x0 = f[_inner(p, 0, 0)]
    fitted = _scores(x0.reshape(-1)[_perm()], t, clipped=_grouped(_clipped(centre)))
    if not align:
        return np.asarray(q, np.float32).reshape(4, 2), centre, fitted
    score, res, a, b = fitted
    j = int(np.argmin(score))
    model = _fitted_picture(t, j, a, b)
    use = _explained(res, j)
    big_clipped = big >= CLIPPED
    guided = _guides(x0, model, use)
    # where the template does not guide at the quad as given (another design than our faces', or
    # a quad over a pixel off both ways, 3 image px on a card 140 px long, which leaves too little
    # of the print on it), the whole picture chooses the shift, taken only where it guides there
    dx, dy = _best_shift(f, model, use if guided else np.ones_like(use), big_clipped, p)
    if dx == 0 and dy == 0:
        return np.asarray(q, np.float32).reshape(4, 2), centre, fitted
    moved_pic = big[p + dy:p + dy + RH, p + dx:p + dx + RW]
    if not guided:
        x = f[_inner(p, dx, dy)]
        score, res, a, b = _scores(x.reshape(-1)[_perm()], t, clipped=_grouped(_clipped(moved_pic)))
        j = int(np.argmin(score))
        if not _guides(x, _fitted_picture(t, j, a, b), _explained(res, j)):
            return np.asarray(q, np.float32).reshape(4, 2), centre, fitted
    moved = cv2.perspectiveTransform((canon + np.float32([dx, dy]))[None], to_image)[0]
    return moved.astype(np.float32), moved_pic, None


def _inner(p: int, dx: int, dy: int) -> tuple[slice, slice]:
    """The compared part (INSET in) of the card's picture moved by (dx, dy) in one rectified with
    a border of p."""
    return slice(p + dy + INSET, p + dy + RH - INSET), slice(p + dx + INSET, p + dx + RW - INSET)


def _explained(res: np.ndarray, j: int) -> np.ndarray:
    """The pixels (CH x CW x 1, 0 or 1) of the cells template j explains (not taken for covered)."""
    use = np.zeros(CH * CW, np.float32)
    use[_pix_perm()] = np.repeat(res[:, j] < COVER_TAU, CH * CW // (GRID[0] * GRID[1]))
    return use.reshape(CH, CW, 1)


def _guides(x: np.ndarray, model: np.ndarray, use: np.ndarray) -> bool:
    """Does the fitted template explain enough of the picture (a share of its cells, and of
    the variation there) to guide the quad's shift? (Not on a card of another design than our
    faces', nor on a quad too far off the card to show its print where the template has it.)"""
    if use.sum() < 0.3 * use.size:
        return False
    mean = (x * use).sum(axis=(0, 1)) / max(float(use.sum()), 1.0)
    return float((((x - model) ** 2) * use).sum()) <= (1.0 - ALIGN_STRUCTURE) * float((((x - mean) ** 2) * use).sum())


def _best_shift(f: np.ndarray, model: np.ndarray, use: np.ndarray, clipped: np.ndarray, p: int) -> tuple[int, int]:
    """The whole canonical pixels (up to p each way) by which the picture f (rectified with a
    border of p) fits the model best on the pixels used: across, then down, a clear gain only
    (else none)."""
    def err(dx: int, dy: int) -> float:
        at = _inner(p, dx, dy)
        return _squared((f[at] - model) * use, clipped[at])  # (use is 0 or 1)

    base = err(0, 0)
    dx = dy = 0
    for axis in (0, 1):
        for k in (-p, -1, 1, p):
            move = (k, dy) if axis == 0 else (dx, k)
            e = err(*move)
            if e < 0.8 * base:
                base, (dx, dy) = e, move
    return dx, dy


PROMISING_STRUCTURE = -0.5  # a read whose best template leaves more variation than this is no card's
HYPOTHESIS_STRUCTURE = -2.0  # ... but a blob's hypothesis may be that far off a card and lie on one


def _promising(m: _Match, hypothesis: bool = False) -> bool:
    """Is this unsure read near enough a card to be worth the slow search of its exact pose?
    (An outline of a shadow, a hand or cloth fits no template: searching it costs time.) A
    hypothesis of a blob of cards (unsharpened) may lie a tenth of a card off one under an arm,
    its print a tenth off every template's and the arm's edge across it: a nine of clubs so
    outlined, structure -1.6, read 1.0 once its pose was searched."""
    floor = HYPOTHESIS_STRUCTURE if hypothesis else PROMISING_STRUCTURE
    return m.error < 0.045 and m.covered < 0.7 and m.structure > floor


OUTLINED = 0.9  # share of each side along which a sharpened quad in perspective follows an outline
OUTLINE_AGREES = 0.04  # ... no corner of it further than this share of the card's width from the
# quad given (sides fitted to a pile's edges, or to a pattern inside the card, follow an outline
# all round too, but far from the quad given)
SAME_OUTLINE_PX = 1.5  # a sharpened outline this near the one given reads the same card
NO_CARD_STRUCTURE = -1.0  # the best template leaves more variation than the picture has: no card


def _no_card(m: _Match) -> bool:
    """Does a read find no card at all? Its best template leaves more variation than the picture
    has (NO_CARD_STRUCTURE), or explains too few of the cells to read anything (_decide's UNKNOWN)."""
    return m.confidence == 0.0 and (m.structure < NO_CARD_STRUCTURE
                                    or (m.code == UNKNOWN and m.back is None and m.quality == 0.0))


def _best_read(image: np.ndarray, q: np.ndarray, t: _Templates, refine: bool,
               search: bool = True, strict: bool = False, align: bool = True,
               settled: Callable[[np.ndarray, _Match], bool] | None = None,
               fielded: bool = True, twins: bool = False) -> tuple[np.ndarray, _Match]:
    """Read the quad as given and as sharpened on the image's edges (a tracker's or a blob's quad
    is a few pixels off): fitted a rectangle, or, a card in perspective, side by side (where the
    sides then follow an outline all round, OUTLINED, close to the quad given, OUTLINE_AGREES,
    the card's pose is known and is not searched: a real deck's card, unlike our renders, was
    searched off its outline); when neither is sure, also the quad grown by the white margin (on a
    pale cloth the outline found may be the colour field's), where the faces have such a field
    (fielded; not a standard deck's, whose print lies on the white: without that read the
    identify benchmark's standard tables read as many cards right or more, and it took a quarter
    of the tracker's reading time under a lamp's glare, where few reads of a standard card are
    sure). Where the sharpened quad's read finds no card at all (_no_card: a tracker's outline on
    an arm or a moving shadow), that read is the answer: the other quads lie on the same nothing,
    and cost 10-20 ms a quad.

    Reads that name different cards are settled by _either. settled(quad, read): whether an
    unsure read needs no search of its exact pose (see _read_region's twin_settled). twins: a
    standard deck, whose twins the caller settles (_twin_only)."""
    reads: list[tuple[np.ndarray, _Match]] = []
    outlined = False  # the sharpened quad follows the card's outline all round: no pose to search
    if refine:
        em = EdgeMap.around(image, q, 0.25)
        if _skew(q) < MAX_SKEW_DEG:
            fq, _ = fit_edges(em, q, max_shift=0.06, max_turn=5.0)
        else:  # a card in perspective (fit_edges fits rectangles): each side on its own outline
            fq, share = fit_sides(em, q)
            outlined = bool((share >= OUTLINED).all()) and \
                float(np.linalg.norm(fq - q, axis=1).max()) <= OUTLINE_AGREES * _card_like(q)[1]
        fq, pic, fitted = _aligned(image, _oriented(fq), t, align)
        reads.append((fq, _match(pic, t, strict, fitted)))
    if reads:
        first = reads[0][1]
        same_outline = float(np.abs(reads[0][0] - q).max()) <= SAME_OUTLINE_PX
        if first.confidence >= 0.95 and (
                same_outline or _quick_best(rectify(image, q), t) == (first.code, first.back)):
            return reads[0]
        if twins and same_outline and _twin_only(first):
            # a standard card sure but for its twin, on an outline its edges confirm: the outline
            # given shows the same picture, and no pose search tells a spade from a club better
            # than the pair read and the corner index do (a tenth of the tracker's reading time
            # under a lamp's glare; the tracking and identify benchmarks read every card as before)
            return reads[0]
        if _no_card(first):
            return reads[0]  # no card there (a hand, a shadow): the other outlines would not find one
    aq, pic, fitted = _aligned(image, q, t, align)
    reads.append((aq, _match(pic, t, strict, fitted)))
    best = reads[-1] if len(reads) == 1 else _either(reads[0], reads[1])
    if best[1].confidence < 0.9 and fielded:
        g = _scaled(best[0], FIELD_SCALE)
        reads.append((g, _match(rectify(image, g), t, strict)))
        best = _either(best, reads[-1])
    if best[1].confidence < 0.9 and search and not outlined and _promising(best[1], hypothesis=not refine) \
            and not (settled and settled(*best)):
        g = _pose_search(image, best[0], t)
        reads.append((g, _read_pic(image, g, t, strict)))
        best = _either(best, reads[-1])
    return _doubted(best, reads)


def _doubted(best: tuple[np.ndarray, _Match], reads: list[tuple[np.ndarray, _Match]]) -> tuple[np.ndarray, _Match]:
    """The read settled from several outlines of one card, no surer than the surest read of
    another card among them is unsure (as _either settles two): a read replaced by a surer one of
    the same card must not take its doubt with it (a wig-out 4 under a dark sleeve read as the 4
    at 0.21 on the outline given; a searched pose, where the sleeve passed for a 9's dark hair,
    read the 9 at 1.0). Reads that fit far worse (WORSE_FIT) say nothing against it."""
    m = best[1]
    against = max((r.confidence for _, r in reads if (r.code, r.back) != (m.code, m.back)
                   and r.error <= WORSE_FIT * m.error and not _twin_reads(m, r)), default=0.0)
    if against <= 0.0 or m.confidence <= 1.0 - against:
        return best
    keep = (1.0 - against) / m.confidence
    return best[0], replace(m, confidence=m.confidence * keep, quality=m.quality * keep)


WORSE_FIT = 3.0  # a read whose error is this many times another's says nothing against it


def _stands(same: bool, conf: tuple[float, float], err: tuple[float, float]) -> tuple[int, float]:
    """Of two reads of one card on two outlines (confidences conf, fit errors err), which stands
    (0 or 1) and the share of its confidence it keeps: where they name the same card, the surer,
    all of it; where they name two, an outline was pulled off the card (by a shadow, a
    neighbour's rim) or a search strayed onto a pose that suits another card, so the read that
    fits better stands, no surer than the other is unsure (unless the other fits far worse: then
    it is no evidence against it)."""
    if same:
        i = 1 if conf[1] > conf[0] or (conf[1] == conf[0] and err[1] < err[0]) else 0
        return i, 1.0
    i = 0 if err[0] <= err[1] else 1
    if err[1 - i] > WORSE_FIT * err[i]:
        return i, 1.0
    return i, 1.0 - conf[1 - i]


def _either(a: tuple[np.ndarray, _Match], b: tuple[np.ndarray, _Match]) -> tuple[np.ndarray, _Match]:
    """Two reads of one card on two outlines, settled by _stands (a cut counts against the
    read's quality, so that a later margin keeps it; not where the two reads name a standard
    card and its twin: see _twin_reads)."""
    i, keep = _stands((a[1].code, a[1].back) == (b[1].code, b[1].back),
                      (a[1].confidence, b[1].confidence), (a[1].error, b[1].error))
    q, m = (a, b)[i]
    if keep == 1.0:
        return q, m
    if _twin_reads(a[1], b[1]):
        return q, replace(m, confidence=m.confidence * keep)
    return q, replace(m, confidence=m.confidence * keep, quality=m.quality * keep)


TWIN_READS_QUALITY = 0.5  # both reads of twins see the card this well, or their disagreement is doubt


def _twin_reads(a: _Match, b: _Match) -> bool:
    """Do two reads name a standard card and its twin, each the other's rival? The templates'
    margin between twins comes from a picture too coarse for a small spade and club, and the
    pair read settles it on the image's own pixels (_pair_settled), so their disagreement is no
    doubt about the card's outline: an ace of spades outlined well read as the ace of clubs by
    0.6, searched 1.6 pixels down as the ace of spades by 0.0, and the pair read chose the spade
    by 0.17; with the quality cut by the first read's 0.6, it stood at 0.4. Only where both
    reads see the card well (TWIN_READS_QUALITY): a read that barely fits one of the twins
    may be of neither (a seven of hearts under a card slid over it, read as a six of hearts,
    and on the grown outline, poorly, as the six of diamonds)."""
    return (a.back is None and b.back is None and _twins(a.code, b.code) and a.rival is not None
            and b.rival is not None and a.rival[0] == b.code and b.rival[0] == a.code
            and min(a.quality, b.quality) >= TWIN_READS_QUALITY)


PAIR_TRY = 0.9  # a margin below this against one other face is settled by vision/pair_read.py
PAIR_FLOOR = 0.05  # a pair margin this small says nothing, read by the marks' windows alone ...
PAIR_FLOOR_DRAWN = 0.03  # ... or by them and the whole print, on our drawings of a card in full view
PAIR_SPAN = 0.04  # ... and this much more makes the read sure, where the faces are our drawings
# (the two faces compared are then exactly the two printed, and the two readers must agree: on
# 5,285 reads of the standard cards on the identify benchmark's tables (seeds 1, 3 and 7), on
# their true outlines and jittered by 1.5 px, either way up, none chose the wrong twin, and the
# black cards' median was 0.22, 85 % of them past 0.07; the windows alone had chosen the wrong
# twin by up to 0.13 on such reads. Since the whole print's misfit is counted near the marks
# only (pair_read._WholePrint), the black cards' median on seeds 1 to 8 is 0.39, 97 % past
# 0.07, one wrong at 0.023); where they are photographs of the cards (an enrolled deck),
# their own light and blur err too (a real 4 of hearts favoured the 4 of diamonds by 0.175):
PAIR_SPAN_PHOTOS = 0.2
# ... and so where over a tenth of the card is covered: the two faces may then both be wrong, the
# card a third one whose hidden marks would tell (a three of clubs with its middle pip under
# another card, read as a two, was a two of spades by 0.165); nor is the quad then moved onto
# the print the faces share (pair_read._aligned), which the cover's edges may pull off it (a
# wig-out card a third covered, read as itself at 0.53, then favoured another character)
PAIR_CLEAR = 0.1
# ... except between a standard card and its twin, where the templates are sure of every other
# card (_twin_only): a third card is then unlikely, and on our drawings the two readers that
# must agree (the whole print and the marks' windows, on the quad laid on the print the twins
# share) read a card under a hand well. On the identify benchmark's tables (seeds 1 to 7), of 112
# such reads of standard cards 10 to 40 % covered, on true outlines and 1.5 px off, they favoured
# the wrong twin by at most 0.023 (0.033 where the templates explain little of the picture,
# PAIR_STRUCTURE), and the right one by over 0.05 in 64; the windows alone on the quad as given
# favoured the wrong twin by up to 0.089. So such a card is read so, with the floor of PAIR_FLOOR
# and a span of PAIR_SPAN_COVERED (PAIR_SPAN_VAGUE where the templates explain little of the
# picture); where the two readers disagree, by the windows alone as before
# (a ten of hearts a fifth under a hand, which the whole print could not tell from the ten of
# diamonds, the windows chose by 0.22)
PAIR_SPAN_COVERED = 0.05
PAIR_STRUCTURE = 0.6  # where the best template explains less of the picture than this, the card
# is not printed as our faces are drawn (a real deck's ace of clubs, 0.29), so the pair read is
# the windows' alone (not the whole print's: that one left the real ace unread), with a floor of
# PAIR_FLOOR and a span of PAIR_SPAN_VAGUE; or it is a third card (a tracker's outline 10 px
# off a six of spades, over one column of its pips, read as a three, the pair read choosing the
# three of spades by 0.076); of 157 twins the pair read chose by over its floor on the
# benchmark's tables, 129 were read with a structure of 0.8 or more, all right. (It was 0.7: a
# clear card blurred by 1.75 px under a harsh light, its templates sharper than the camera, fits
# them less well: a seven of clubs at 0.63, a two of clubs at 0.62, on their true outlines read
# unsurely by the windows, which the whole print and the windows together told from their twins
# by 0.17 and 0.13. Up to SEES_WELL such a read is sure only as a vague one is (PAIR_FLOOR and
# PAIR_SPAN_VAGUE): with the floor and span of a card seen well, a jittered outline of a four of
# hearts a tenth under a hand, structure 0.68, was read as the four of diamonds at 0.93)
PAIR_SPAN_VAGUE = 0.1
SEES_WELL = 0.7  # templates explaining this much of a card's picture see it well: sure of its rank,
# they leave an index read of another rank unsure (below, the index decides: a real deck's five of
# clubs at 0.6 to 0.7, fitted best by our ace of clubs, which the pair read's whole print made sure
# of its suit; this was PAIR_STRUCTURE, and at 0.6 the real five was left unknown); and a pair read
# of the card is sure soonest (PAIR_FLOOR_DRAWN, PAIR_SPAN)
SMALL_INDEX_PX = 80  # a card narrower than this (image px) shows its index's suit in a few blurred pixels
PAIR_CONTRADICTS = 0.1  # a pair margin this large for one twin leaves an index read of the other nothing
PAIR_EXPLAINS = 0.5  # the better face must explain more of its marks than this (0.8: fully trusted)


_BLACK = {"S", "C"}
_TWIN_SUITS = (_BLACK, {"H", "D"})


def _twin_only(m: _Match) -> bool:
    """Is a read of a standard card sure against every card but its twin (the pair read and
    the corner index tell those apart)?"""
    return (m.back is None and m.rival is not None and m.rival[1] is None and _twins(m.code, m.rival[0])
            and m.other_margin * m.quality >= 0.9)


def _twins(a: str, b: str) -> bool:
    """Standard codes of one rank in the two suits of one colour (5S and 5C, QH and QD)."""
    return a[:-1] == b[:-1] and {a[-1:], b[-1:]} in _TWIN_SUITS


def _pair_settled(image: np.ndarray, q: np.ndarray, deck: Deck, m: _Match, twins: bool = False,
                  backed: bool = False, covered_twins: bool = True) -> _Match:
    """A face read whose margin is small against one other face only (a small spade's pips
    and a small club's are a few blurred pixels apart on the rectified picture) is settled
    between the two on the image's own pixels (vision/pair_read.py): the winner keeps the
    margins against every other card, and what the fit, structure and cover cut.

    twins: a standard deck, whose faces come in twins that differ in small marks only (_twins),
    so even a sure margin against the card's twin is checked: on the rectified picture a quad a
    pixel or two off can make the wrong one fit surely. Its other faces differ in large marks
    (a whole pip, the index's rank) that the templates tell apart on any picture of the card:
    where they cannot, the quad is well off the card (a pile's top card outlined with the one
    below) or the card is a third one, and the pair read, which knows only the two faces, would
    choose one of them surely (a pile's 8 of hearts read as a 7 of diamonds, not an 8).

    backed: another reader (the corner index, fully surely) names m's card: the pair read is
    asked only whether it favours the twin (pair_margin's against), which alone would change
    the verdict. covered_twins: a covered card sure but for its twin is first read by the pair
    read's two readers (PAIR_SPAN_COVERED; not for a quick read: see _read_region)."""
    if m.back is not None or m.code == UNKNOWN or m.quality <= 0.0:
        return m
    if twins and _drawn_clear(deck, m) and _ink_not_of(image, q, deck, m, m.code):
        # a black card read as a red one (or a red one as black): the pair read, in grey, would
        # choose one of the two red twins, and it is neither
        return _other_colour(image, q, deck, m)
    if twins and (m.rival is None or not _twins(m.code, m.rival[0])):
        return _twin_checked(image, q, deck, m)
    if m.rival is None or m.rival[1] is not None or m.rival[0] == UNKNOWN:
        return m
    if m.rival_margin >= PAIR_TRY and not twins:
        return m
    got, sure = 0.0, 0.0
    if covered_twins and twins and deck.kind != "enrolled" and m.covered >= PAIR_CLEAR and _twin_only(m):
        got, sure = _pair_read(image, q, deck, m, m.rival[0], against=backed, covered_twin=True)
    if sure <= 0.0:  # (where the two readers of a covered twin disagree, the windows alone may tell)
        got, sure = _pair_read(image, q, deck, m, m.rival[0], against=backed)
    if got >= 0:
        margin = min(max(m.rival_margin, sure), m.other_margin)
        return replace(m, confidence=margin * m.quality, rival_margin=max(m.rival_margin, sure),
                       paired=got)
    return replace(m, code=m.rival[0], confidence=min(sure, m.other_margin) * m.quality,
                   rival=(m.code, None), rival_margin=sure, paired=-got)


def _other_colour(image: np.ndarray, q: np.ndarray, deck: Deck, m: _Match) -> _Match:
    """A standard card whose ink is not the colour of the templates' card (other_ink): glare had
    greyed a black six's pips and the templates read it as a red six. The pips' places are the
    rank's, so it is read as one of the other colour's two cards of that rank, settled by the pair
    read; as sure as the pair read makes it and the templates' fit allows (their margins were
    against the wrong colour), and unsure where the pair read cannot tell, or its ink is not
    theirs either."""
    rank, unsure = m.code[:-1], replace(m, confidence=0.0, quality=0.0)
    suits = ("H", "D") if m.code[-1:] in _BLACK else ("S", "C")
    first, second = (rank + s for s in suits)
    if first not in deck.codes or second not in deck.codes:
        return unsure
    asked = replace(m, code=first, rival=(second, None), rival_margin=0.0)
    got, sure = _pair_read(image, q, deck, asked, second)
    code = first if got >= 0 else second
    if sure <= 0.0 or _ink_not_of(image, q, deck, m, code):
        return unsure
    return replace(m, code=code, confidence=sure * m.quality, rival=(second if code == first else first, None),
                   rival_margin=sure, other_margin=1.0, paired=abs(got))


def _pair_read(image: np.ndarray, q: np.ndarray, deck: Deck, m: _Match, other: str,
               against: bool = False, covered_twin: bool = False) -> tuple[float, float]:
    """The pair read's margin for m's card over the other (vision/pair_read.py), and how sure
    it makes one of the two (0..1). against: the caller asks only whether the other is
    favoured (pair_margin's against). covered_twin: m is a covered standard card sure but for
    its twin, the other (PAIR_SPAN_COVERED)."""
    faces = (deck.render_face(m.code, FACE_PX_PER_MM), deck.render_face(other, FACE_PX_PER_MM))
    aligned = _drawn_clear(deck, m) or covered_twin  # (the quad laid on the print both faces share)
    got, explained = pair_margin(image, _printed(q, m), faces, align=aligned,
                                 as_drawn=m.structure >= PAIR_STRUCTURE, against=against,
                                 hidden=(m.hidden, q) if _occluded(m) else None)
    if not aligned:
        span = PAIR_SPAN_PHOTOS
    elif m.structure < SEES_WELL:  # (read by the windows alone, or with the whole print less surely)
        span = PAIR_SPAN_VAGUE
    elif covered_twin:
        span = PAIR_SPAN_COVERED
    else:
        span = PAIR_SPAN
    sure = float(np.clip((abs(got) - _pair_floor(deck, m)) / span, 0.0, 1.0))
    return got, sure * float(np.clip((explained - PAIR_EXPLAINS) / 0.3, 0.0, 1.0))


def _occluded(m: _Match) -> bool:
    """Is part of m's card hidden by something the templates do not take for print (a hand, a
    card over it), so that the pair read leaves it out (pair_margin's hidden)? Only where the
    templates explain the rest well (PAIR_STRUCTURE): where they explain little, what they took
    for an occluder may be the card's own print in a shadow (a clear seven of spades, which the
    pair read then told less surely), or the card a third one whose marks under the cover would
    tell (a pile's two of hearts, all but its index under a back, read as the ace of diamonds
    surely once the back was left out)."""
    return m.hidden is not None and m.structure >= PAIR_STRUCTURE


def _pair_floor(deck: Deck, m: _Match) -> float:
    """The pair margin below which the pair read of m's card says nothing: lower where two
    readers that must agree read it (our drawings of a card in full view, printed as drawn)."""
    return PAIR_FLOOR_DRAWN if _drawn_clear(deck, m) and m.structure >= SEES_WELL else PAIR_FLOOR


def _drawn_clear(deck: Deck, m: _Match) -> bool:
    """Are the faces the pair read compares our drawings (not an enrolled deck's photographs),
    and is m's card in full view (PAIR_CLEAR)?"""
    return deck.kind != "enrolled" and m.covered < PAIR_CLEAR


def _laid_for_pair(image: np.ndarray, q: np.ndarray, deck: Deck, m: _Match, strict: bool) -> tuple[np.ndarray, _Match]:
    """A standard card sure but for its twin, on an outline where the templates explain too
    little of the picture for the pair read's whole print (PAIR_STRUCTURE), read again on the
    outline the pair read lays on the card's edges and print (pair_read.laid_on_card): where
    the templates there name the same two twins and see the card as drawn, that outline and
    read stand. Outlines two pixels off a small, soft two of clubs (46 px wide) left the
    templates explaining 0.60 to 0.68 of it (0.73 on its true outline), and the marks' windows
    alone could not tell the club from the spade (margins 0.02 to 0.03; the whole print's 0.21
    on the true outline)."""
    faces = (deck.render_face(m.code, FACE_PX_PER_MM), deck.render_face(m.rival[0], FACE_PX_PER_MM))
    turn = (m.rot // 90) % 4
    laid = np.roll(laid_on_card(image, _printed(q, m), faces), turn, axis=0)
    again = _read_pic(image, laid, templates(deck), strict)
    if _twin_only(again) and {again.code, again.rival[0]} == {m.code, m.rival[0]} \
            and again.structure >= PAIR_STRUCTURE and again.covered < PAIR_CLEAR:
        return laid, again
    return q, m


def _printed(q: np.ndarray, m: _Match) -> np.ndarray:
    """q from the corner at m's card's printed top-left."""
    return np.roll(q, -((m.rot // 90) % 4), axis=0)


def _ink_not_of(image: np.ndarray, q: np.ndarray, deck: Deck, m: _Match, code: str) -> bool:
    """Is the ink of the card m read on q another colour than that card's (pair_read.other_ink)?"""
    return other_ink(image, _printed(q, m), deck.render_face(code, FACE_PX_PER_MM))


def _twin_checked(image: np.ndarray, q: np.ndarray, deck: Deck, m: _Match) -> _Match:
    """A standard card read surely enough to report (MIN_CONFIDENCE), though its twin was not its
    closest rival, is checked against the twin all the same; where the pair read favours the twin, the
    two readers disagree and the read is that much less sure. On a blob's outline sharpened by
    0.6 px, the templates read a king of hearts 49 px wide as the king of diamonds at 0.97, with
    a jack of hearts the closest rival (the king of hearts read as itself at 0.86 on the outline
    before, where the pair read chose it by 0.5)."""
    twin = _twin_code(m.code)
    if m.confidence < MIN_CONFIDENCE or twin is None or twin not in deck.codes:
        return m
    got, sure = _pair_read(image, q, deck, m, twin, against=True)
    if got >= 0:
        return m
    return replace(m, confidence=m.confidence * (1.0 - sure), quality=m.quality * (1.0 - sure))


def _rank_sure(m: _Match, conf: float) -> float:
    """How sure the templates are of the card's rank: their read's confidence, or where they are
    torn between the card and its twin alone, their margin against every other card."""
    if m.rival is not None and m.rival[1] is None and _twins(m.code, m.rival[0]):
        return max(conf, m.other_margin * m.quality)
    return conf


def _twin_code(code: str) -> str | None:
    """The code of a standard card's twin (_twins), or None (a joker, or not a standard code)."""
    for pair in _TWIN_SUITS:
        if code[-1:] in pair and code[:-1]:
            return code[:-1] + next(iter(pair - {code[-1:]}))
    return None


SHADE_RETRY = 0.9  # a read less sure than this is read again with the shadow over the card taken out ...
SHADE_COVERED = 0.1  # ... and so is one that takes more than this share of the card for covered (it may be shade)
SHADE_CONFIRMS = 0.85  # a read with the shade out naming the card the read as lit named unsurely is at most this sure


def _read_region(image: np.ndarray, corners: np.ndarray, deck: Deck, refine: bool = True,
                 search: bool = True, strict: bool = False, quick: bool = False) -> tuple[Detection, _Match]:
    """identify_region's read, and the templates' match it was settled from: as the card is lit
    and, where a shadow lies across the card and that read is unsure (SHADE_RETRY) or takes part
    of the card for covered (SHADE_COVERED), also with the shadow taken out (vision/shading.py:
    a hand's shadow over half a card left it read as a plain back, or its shaded half taken for a
    cover, and the pair read, told to leave that out, chose a five of spades for a five of clubs
    from the rest surely). The better fit of the two reads stands (_lit_or_unshaded). Not for a
    quick read (see _read_lit)."""
    lit = _read_lit(image, corners, deck, refine, search, strict, quick)
    if quick or (lit[0].confidence >= SHADE_RETRY and lit[1].covered <= SHADE_COVERED):
        return lit
    crop, origin, shaded = unshaded(image, corners)
    if shaded < SHADED_SHARE:
        return lit
    det, m = _read_lit(crop, np.asarray(corners, np.float32).reshape(4, 2) - origin, deck, refine, search, strict)
    det = replace(det, corners=tuple((x + float(origin[0]), y + float(origin[1])) for x, y in det.corners))
    settled = _lit_or_unshaded(lit, (det, m))
    if settled[0].confidence < MIN_CONFIDENCE and lit[0].confidence < MIN_CONFIDENCE:
        # neither read is a card: the read as lit stands, as identify weighs the reads of a place
        # by their fit (unshaded, a rectangle across a pile fitted better, and the search that
        # found a clear four of clubs there was not made)
        return lit
    return settled


def _lit_or_unshaded(lit: tuple[Detection, _Match], shade_out: tuple[Detection, _Match]) -> tuple[Detection, _Match]:
    """A card's reads as lit and with its shadow taken out. Where one's templates fit far better
    (WORSE_FIT), that read stands, sure or not: the other's picture is what its fit could not
    explain (the shade, or a court card's picture taken for shade). Otherwise as two reads of one
    card on two outlines (_stands) on the cards they name (an unsure read: its templates' best);
    a read cut below MIN_CONFIDENCE becomes UNKNOWN, and one that only confirms the card the read
    as lit named unsurely is not made sure (SHADE_CONFIRMS). (A five of clubs in shade read as lit was
    the five of spades at 1.0: the shade taken for a cover, the pair read judged the twins on the
    rest; unshaded, its templates fitted six times better and could not tell the two apart.)"""
    (a, ma), (b, mb) = lit, shade_out
    if ma.error > WORSE_FIT * mb.error:
        return shade_out
    if mb.error > WORSE_FIT * ma.error:
        return lit

    def named(d: Detection, m: _Match) -> tuple[str, str | None]:
        return (d.code, d.back) if d.confidence >= MIN_CONFIDENCE else (m.code, m.back)

    same = named(a, ma) == named(b, mb)
    i, keep = _stands(same, (a.confidence, b.confidence), (ma.error, mb.error))
    det, m = (lit, shade_out)[i]
    if same and i == 1 and det.confidence > max(a.confidence, SHADE_CONFIRMS):
        # the templates named the card as lit, and the shade only left them unsure: taken out, it
        # confirms their card but does not make it sure, as a cover beside the shade may be what
        # the card rests on (a finger over a six of hearts where a seven's middle pip would be,
        # read as the seven at 0.21 as lit, at 0.90 unshaded)
        return replace(det, confidence=max(a.confidence, SHADE_CONFIRMS)), m
    return _kept(det, keep), m


def _read_lit(image: np.ndarray, corners: np.ndarray, deck: Deck, refine: bool = True,
              search: bool = True, strict: bool = False, quick: bool = False) -> tuple[Detection, _Match]:
    """_read_region's read of the card as it is lit. quick: for a
    caller that takes only a sure read, fast (a tracker's read of a card beside a hand, which
    is read again where it settles; its pose is not searched either, search): not the pair
    read's two readers on a covered twin (_pair_settled's covered_twins: 70 ms more on a card
    beside a hand under a lamp's glare, read unsurely all the same)."""
    given = _oriented(np.asarray(corners, dtype=np.float32))
    standard = reads_corner_index(deck)
    indexed: dict[bytes, IndexRead | None] = {}

    def index_on(q: np.ndarray) -> IndexRead | None:  # (read once per outline)
        key = q.tobytes()
        if key not in indexed:
            from vision.decks.index_reader import read_index

            indexed[key] = read_index(image, q)
        return indexed[key]

    def twin_settled(q: np.ndarray, m: _Match) -> bool:
        """A standard card read surely against every card but its twin, whose corner index reads
        surely as one of the two: the pose search would not tell a small spade from a small club
        any better than the index and the pair read do (and costs 10 to 20 ms a card)."""
        if not _twin_only(m):
            return False
        r = index_on(q)
        return r is not None and r.confidence >= INDEX_SURE and r.code in (m.code, m.rival[0])

    q, m = _best_read(image, given, templates(deck), refine, search, strict, align=not standard,
                      settled=twin_settled if standard else None, fielded=not standard, twins=standard)
    index = None
    index_q = q  # the outline the corner index was read on
    if standard and m.back is None and m.structure >= NO_CARD_STRUCTURE:
        # (where the templates see no card at all, neither did the corner index: on the rendered
        # tables and the real photos it never read such a quad at MIN_CONFIDENCE)
        index = index_on(q)
        if (index is None or index.confidence < INDEX_SURE) and corner_gap(q, given) > SAME_OUTLINE_PX \
                and m.covered < COVERED_INDEX:
            # the templates' search moved the outline: it fits our faces' layout, which a real
            # deck's need not share (a photo's four of hearts, outlined whole, was searched onto
            # three quarters of it, where its index could not be confirmed by the pips). Not
            # where the templates see much of the card covered: a hand over a number card's
            # pips is taken for a court card's picture by the index reader (a 2 read as a jack)
            as_given = index_on(given)
            if as_given is not None and as_given.confidence > (index.confidence if index else 0.0):
                index, index_q = as_given, given
    doubted = index is not None and m.back is None and _twins(index.code, m.code) and m.rival is not None \
        and m.rival[0] != index.code
    if doubted:
        # the corner index names the twin of the templates' card, which they put behind another
        # rival: their margin against the twin, drawn from a picture too coarse for a small
        # spade and club, is not trusted (a 7 of spades 32 px wide read as the 7 of clubs at
        # 1.0, its index saying the spade); the pair read is asked instead
        assert index is not None and m.rival is not None
        m = replace(m, rival=(index.code, None), rival_margin=0.0, other_margin=min(m.rival_margin, m.other_margin))
    if standard and not doubted and _twin_only(m) and m.structure < PAIR_STRUCTURE and _drawn_clear(deck, m):
        q, m = _laid_for_pair(image, q, deck, m, strict)
    backed = index is not None and index.confidence >= 1.0 and index.code == m.code
    if not (backed and (m.confidence >= 0.9 or m.code[-1:] not in _BLACK)):
        # (where the corner index reads the card the templates name fully surely, the pair read
        # is not needed; except a black card the templates are unsure of: their card may be the
        # twin the index names only by chance, and the index's spades and clubs rest on a shape
        # model that can be sure and wrong, which the pair read may contradict: only that is
        # asked of it, backed, as a read that favours the card leaves the index's verdict)
        settled = _pair_settled(image, q, deck, m, twins=standard, backed=backed, covered_twins=not quick)
        # where the index doubted it, the pair read may only leave the templates' card less sure:
        # two readers that are unsure at this size do not make the twin sure
        m = replace(settled, code=m.code, rival=m.rival, confidence=0.0, paired=0.0) if doubted and settled.code != m.code \
            else settled
    code, back, conf = m.code, m.back, m.confidence
    rot = m.rot
    if strict and back is None and m.structure < STRUCTURE_BLOB:
        # a hypothesis across the cards of a pile reads as one of them, whose template takes the
        # others' paper for its own (white faces on white faces), or whose numeral it finds in
        # theirs turned and cut (a 3 on an 11 read as a 7): only the part of the picture the
        # template explains tells, and where that is little the read is unsure
        conf = min(conf, BLOB_UNSURE)
    # a standard deck (built in, or enrolled with standard codes) is also read by its corner index,
    # the way a person reads it: a real deck's face (another font, other pips) can fit the wrong
    # one of our renders closely, and even our renders' suits (hearts and diamonds, spades and
    # clubs) differ in few pixels, so a sure index read (the pips confirm it) decides; a less sure
    # one only where the template read is less sure still and the templates do see a card there
    if standard and back is None:
        r = index
        # (on a blob's hypothesis, templates explaining less than STRUCTURE_BLOB of the picture
        # see no card: a quad two thirds over a pile's ace of spades and one corner of the seven
        # of hearts below, read as that seven at 0.85, its index read at 0.9 in the quad's
        # corner, was made sure and took the ace's place)
        sees_card = m.structure >= (STRUCTURE_BLOB if strict else STRUCTURE_INDEX) and m.covered < COVERED_INDEX
        if r is not None and r.code in deck.codes:
            if r.code == code:
                # the templates' best card is a witness only where they see a card: on a quad
                # across a fan (a ten of spades and the three of hearts below it) their best
                # fit of nothing named the same jack of diamonds as the index, which took the
                # ten's pips for a court picture and the three for a jack
                if r.confidence >= INDEX_SURE or sees_card:
                    conf = max(conf, r.confidence)
            else:
                # the pair read compares the two faces on the image's own pixels and names the
                # right twin nearly always, if seldom surely (on rendered tables its margin for
                # the wrong one never passed PAIR_FLOOR); the index tells a small spade from a
                # club by a shape model trained on fonts, which read a six of clubs as the six
                # of spades fully surely: where the two disagree, the index is not sure
                # (hearts and diamonds too on a card so small that the index's suit is a few
                # blurred pixels (SMALL_INDEX_PX), where the faces compared are our drawings:
                # the index read a five of diamonds 56 px wide, outlined a pixel off, as the five
                # of hearts fully surely, the pair read choosing the diamond by 0.2, on several
                # whole pips; not on larger cards, whose index's silhouette the reader takes in,
                # and whose pips may be drawn unlike ours: the pair read chose a foreign deck's
                # two of diamonds over its two of hearts; nor an enrolled deck's, whose pair read
                # on its photographed faces chose the four of diamonds over a real four of hearts
                # by 0.175)
                r_conf = r.confidence
                if _twins(r.code, code) and m.paired > _pair_floor(deck, m) \
                        and (code[-1:] in _BLACK or _index_blurred(deck, index_q)):
                    r_conf *= max(0.0, 1.0 - m.paired / PAIR_CONTRADICTS)
                if r_conf >= INDEX_SURE or (r_conf >= MIN_CONFIDENCE and r_conf > conf and sees_card):
                    if not _twins(r.code, code) and _rank_sure(m, conf) >= MIN_CONFIDENCE \
                            and m.structure >= SEES_WELL:
                        # the templates see the card well and name another rank, at least half
                        # surely: two readers sure of different cards leave it unknown (a covered
                        # queen of hearts 45 px wide, the templates' 0.81, its index read as the
                        # ace at 1.0: the big Q in the middle of our faces passed for a pip; a
                        # king of spades under the fingers picking it up, the templates torn
                        # between it and the king of clubs only, its index read as the ace of
                        # spades at 1.0). Not where the templates are unsure of the rank: a real
                        # deck's four of spades fitted our five best, unsurely, its index read right
                        conf = 0.0
                    else:
                        code, conf, rot, q = r.code, r_conf, r.rot, index_q
    if back is not None and conf >= MIN_CONFIDENCE:
        conf *= _margin_shown(image, q, deck, back)
    q = np.roll(q, -((rot // 90) % 4), axis=0)  # rot: quarter turns to the printed top-left
    face_up = back is None
    if conf < MIN_CONFIDENCE:
        code = UNKNOWN
        if not face_up:
            back = None
            face_up = True
    det = Detection(code=code if face_up else UNKNOWN,
                    corners=tuple((float(x), float(y)) for x, y in q),
                    confidence=round(conf, 4), face_up=face_up, back=back,
                    covered=round(m.covered, 3),
                    best_fit=f"back:{m.back}" if m.back is not None else m.code,
                    fit_error=round(m.error, 6))
    return det, m


BACK_RING_SHOWN = (0.05, 0.15)  # how far a back's margin stands out from its field along a side, as a share
# of what its design has (log ratio, in the channel where the field is darkest): from no confidence to full
BACK_RING_DESIGN = 1.5  # ... asked only of a back whose design has a margin this many times brighter
_back_rings: dict[tuple[int, str, str], tuple[int, float]] = {}


def _ring_and_field(pic: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    """Along each side of a rectified card (corners left out: they are round), the brightest of
    its three outermost pixels (the outline may be a pixel or two off); and the median colour
    inside."""
    f = pic.astype(np.float32) + 4.0  # (no log of zero in the dark)
    sides = [f[:3, 4:-4].max(axis=0), f[-3:, 4:-4].max(axis=0),
             f[4:-4, :3].max(axis=1), f[4:-4, -3:].max(axis=1)]
    return sides, np.median(f[8:-8, 8:-8].reshape(-1, 3), axis=0)


def _back_ring(deck: Deck, colour: str) -> tuple[int, float]:
    """The channel in which a back's margin stands out most from its field, and by how much
    (log ratio); about 0 for a back drawn or photographed without a margin."""
    key = (id(deck), deck.name, colour)
    if key not in _back_rings:
        pic = cv2.resize(deck.render_back(colour, 4.0), (RW, RH), interpolation=cv2.INTER_AREA)
        sides, field = _ring_and_field(pic)
        contrast = np.log(np.median(np.concatenate(sides), axis=0) / field)
        c = int(np.argmax(contrast))
        _back_rings[key] = (c, float(contrast[c]))
    return _back_rings[key]


def _margin_shown(image: np.ndarray, q: np.ndarray, deck: Deck, colour: str) -> float:
    """How far a back read on q is to be trusted for the margin it shows (0..1). At the camera's
    scale a back is a plain field of colour, and so is bare cloth of that colour: on a blue felt,
    the gap a card left between two others, outlined across them, read as a blue back at 0.72,
    the cloth taken for the field and the neighbours' white for two sides of the margin (the
    other two stood out 0.07 of the design's contrast). A back shows its margin on every side,
    and where another card or a hand covers one, mostly paper or skin brighter than the field;
    so the side that stands out second least decides (one side may lie under something dark).
    Of the identify benchmark's 98 backs at least half visible (seeds 1 and 2, every deck), the
    fully visible ones stood out 0.28 or more, and two half under a dark hand less than 0.1."""
    c, design = _back_ring(deck, colour)
    if design < np.log(BACK_RING_DESIGN):
        return 1.0
    sides, field = _ring_and_field(rectify(image, _oriented(q)))
    stands_out = sorted(float(np.median(np.log(s[:, c] / field[c]))) / design for s in sides)
    lo, hi = BACK_RING_SHOWN
    return float(np.clip((stands_out[1] - lo) / (hi - lo), 0.0, 1.0))


def _index_blurred(deck: Deck, q: np.ndarray) -> bool:
    """A card outlined by q so small that its index's suit is a few blurred pixels
    (SMALL_INDEX_PX), where the faces compared are our drawings (not an enrolled deck's photos)."""
    return deck.kind != "enrolled" and _card_like(q)[1] < SMALL_INDEX_PX


def _twin_resettled(image: np.ndarray, deck: Deck, det: Detection, m: _Match) -> tuple[Detection, _Match]:
    """A blob hypothesis's read of a standard card that the pair read told from its twin, read again
    on its outline sharpened on the image's edges; where that read names another card, it stands,
    and so does one that names none, unless the pair read made the first read sure and the templates
    fit the card no better on the sharpened outline: sharpened on a pile, on the edges of the cards
    below, an outline may move further off the card (a clear three of diamonds read at 1.0 on a
    blob's outline, sharpened, fitted four times worse and read as no card; a two of clubs outlined
    1.2 px off, sharpened 2.5 px off, likewise). The pair read compares two faces that differ in a
    few pixels, so it follows an outline a few pixels off: a hypothesis's rectangle across a dealt
    row, searched onto the print, read a 3 of spades as the 3 of clubs surely (sharpened: the 3 of
    spades) and a queen of clubs outlined at four fifths of its size as the queen of spades
    (sharpened: unsure). So is one that the corner index read surely where the templates were unsure
    (index_alone): the index's small spade and club rest on a shape model that can be sure and
    wrong, and on a blob's rectangle 6 px short of an eight of clubs 63 px wide it read the eight of
    spades fully surely, the templates unsure of that card, the pair read favouring it too
    (sharpened: the eight of clubs, surely). Only a black card, or one so small that its index's
    suit is a few blurred pixels (SMALL_INDEX_PX): on a real deck the templates are often unsure and
    the index the reader that knows the card (a photo's ten of hearts, read at 0.6 by its index
    alone, was read as nothing on the sharpened outline)."""
    paired_twin = m.rival is not None and _twins(det.code, m.rival[0]) and m.paired > 0.0
    index_alone = det.back is None and det.confidence >= MIN_CONFIDENCE > m.confidence \
        and (det.code[-1:] in _BLACK or _index_blurred(deck, np.array(det.corners, np.float32)))
    if det.code == UNKNOWN or not (paired_twin or index_alone):
        return det, m
    again = _read_region(image, np.array(det.corners, np.float32), deck, refine=True, search=False, strict=True)
    if again[0].code == det.code:
        return det, m
    if (again[0].code, again[0].back) == (UNKNOWN, None) and paired_twin and det.confidence >= 0.9 \
            and again[1].error >= m.error:
        return det, m
    return again


def settle(a: Detection, b: Detection) -> Detection:
    """Two reads of one card on two outlines (a tracker's hypotheses), settled by _stands on
    the card each template fits best (best_fit); a read cut below MIN_CONFIDENCE becomes
    UNKNOWN. Reads without best_fit or fit_error: the surer."""
    if a.best_fit is None or b.best_fit is None or a.fit_error is None or b.fit_error is None:
        return a if a.confidence >= b.confidence else b
    i, keep = _stands(a.best_fit == b.best_fit, (a.confidence, b.confidence), (a.fit_error, b.fit_error))
    return _kept((a, b)[i], keep)


def _kept(det: Detection, keep: float) -> Detection:
    """det keeping this share of its confidence (_stands); cut below MIN_CONFIDENCE, UNKNOWN."""
    if keep == 1.0:
        return det
    conf = round(det.confidence * keep, 4)
    if conf >= MIN_CONFIDENCE:
        return replace(det, confidence=conf)
    return replace(det, code=UNKNOWN, confidence=conf, face_up=True, back=None)


def identify_region(image: np.ndarray, corners, deck: Deck, strict: bool = False,
                    quick: bool = False, wide: bool = False) -> Detection:
    """Read the one card whose quad is corners (4 points in image pixels, any start, any order).

    strict: the covered part of the quad counts against the fit, so that a card showing from
    under another (or under a hand) is not read surely; a tracker that wants only the card come
    to rest on top asks for this. quick: no slow search of the card's exact pose when the first
    reads are unsure, nor the pair read's two readers on a covered card (for a caller that takes
    only a sure read: see _read_region). wide: where that read is unsure, the card is also
    looked for up to a third of its width off the quad (_wide_search, as identify searches a
    blob's unsure hypotheses: a pile's top card whose outline was fitted to the pile), and
    read there only where that read is sure and sees the card whole (WIDE_COVERED)."""
    q = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    det, _ = _read_region(image, q, deck, search=not quick, strict=strict, quick=quick)
    if wide and det.confidence < 0.9:
        _wq, found, m = _wide_read(image, q, deck)
        if _found_wide(found, m):
            return found
    return det


_prepared: set[tuple[int, str]] = set()


def prepare(deck: Deck) -> None:
    """Build what the first read of a deck builds, before any card is played: its templates and,
    for a standard deck, the corner index's glyphs and suit-shape model take about 2.5 s here,
    four times that on a Pi 4, and would hold up the first card of a game. The index's are built
    outright (a read of one card would leave the "10"'s digits to the first ten played); one
    read of one of its cards, drawn small and large, builds the rest (once per deck: a demo
    prepares each round's camera view)."""
    from vision.decks.compose import Composer, card_quad

    key = (id(deck), deck.name)
    if key in _prepared:
        return
    _prepared.add(key)
    if reads_corner_index(deck):
        from vision.decks.index_reader import prepare as prepare_index

        prepare_index()
    for long_px in (90, 220):
        comp = Composer(300, 300, rng=np.random.default_rng(0))
        comp.add_card(deck, deck.codes[0], card_quad(150, 150, 15.0, long_px))
        scene = comp.finish(blur=0.8)
        identify_region(scene.image, scene.cards[0].corners, deck)


def _inside(pt: tuple[float, float], quad: np.ndarray) -> bool:
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2).astype(np.float32), pt, False) >= 0


def _mostly_known(corners: np.ndarray, known: list[np.ndarray]) -> bool:
    """Does this outline lie mostly on cards read already? (Its centre and its corners drawn
    a little in: three of the five inside them.)"""
    c = corners.mean(axis=0)
    pts = [c, *(c + 0.8 * (p - c) for p in corners)]
    return sum(any(_inside(tuple(p), kq) for kq in known) for p in pts) >= 3


AREA_MARGIN = 0.05  # share of the play area's size by which a card's centre may lie outside it
ON_MARKER = 0.05  # share of a table marker's black square a read's outline may cover: a marker
# found in the picture shows whole, nothing lies on it, so an outline across it is of no card (a
# patch of blue felt beside a marker, its white margin taken for a Wonky card's white index
# corner, read as a blue small block card at 1.0, its outline over 0.11 of the marker)


def _across_marker(corners, marker_squares: list[np.ndarray]) -> bool:
    """Does this outline cover more than ON_MARKER of a marker's square (image px)?"""
    q = np.asarray(corners, np.float32).reshape(4, 2)
    for square in marker_squares:
        covered, _ = cv2.intersectConvexConvex(q, square)
        if covered > ON_MARKER * cv2.contourArea(square):
            return True
    return False


SAME_CARD = 0.2  # quads whose corners lie within this share of the short side: the same card


def _same_card(a: np.ndarray, b: np.ndarray) -> bool:
    return corner_gap(a, b) < SAME_CARD * _card_like(np.asarray(b, np.float32))[1]


def _overlaps(a: np.ndarray, b: np.ndarray) -> bool:
    """Two outlines of one card: the centre of either lies inside the other."""
    return _inside(tuple(a.mean(axis=0)), b) or _inside(tuple(b.mean(axis=0)), a)


WHOLE_MOVE = 0.12  # share of its short side a rectangle fitted whole may be searched away
# (unless it reads surely there with its outline showing on every side, or a standard card's
# corner index names it there (_index_confirms): then the search found the card it was fitted
# around, not part of one)


def _index_confirms(image: np.ndarray, deck: Deck, det: Detection) -> bool:
    """Does a standard card's corner index, read on a sure read's outline, name its card surely
    (INDEX_SURE)? Then the outline is that card's, not part of one, even where a side of it
    shows no outline: the top card of a fan lies on white paper along one side (an 8 of hearts
    whose searched outline lay within 6 % of its short side of the truth was dropped). Part of
    a card seldom shows in its corner an index of the card it reads as that the pips inside it
    confirm (the top part of a 6 of hearts read as a 3 of hearts at 0.97)."""
    if det.confidence < 0.9 or det.back is not None or not reads_corner_index(deck):
        return False
    from vision.decks.index_reader import read_index

    r = read_index(image, _oriented(np.array(det.corners, np.float32)))
    return r is not None and r.code == det.code and r.confidence >= INDEX_SURE


def reads_corner_index(deck: Deck) -> bool:
    """Is this deck read by its corner index (the built-in standard deck, or one enrolled with its codes)?"""
    return deck.kind == "standard" or getattr(deck, "base", None) == "standard"


FIT_CLEARLY = 2.0  # a read of a card whose error is this many times below another's has its outline

OUTLINE_SHOWS = 0.25  # share of its weakest side along which a hypothesis's outline must show
OUTLINE_ANY = 0.7  # ... and of its best side, or its read is never sure (NO_OUTLINE at most) ...
OUTLINE_SECOND = 0.4  # ... and of its second best side
NO_OUTLINE = 0.6
OUTLINE_CLOSED = 0.6  # a sure read whose outline shows along this share of every side is not contested by
# hypotheses of another card centred on it; one that does not (over part of a card and the pile beside
# it: a seven of clubs read over two fifths of an eight, its weakest side's outline along 0.53) is, by
# those whose outline shows better (_shows). Contesting every sure read not outlined along 0.9 of every
# side read 44 % more quads over the identify benchmark's tables, for one card more
BEST_RANK = 3
REFINE_OUTLINED = 0.9  # an unsure hypothesis whose outline shows along this share of every side is read
# sharpened on it at last (a clear eight of clubs 45 px wide, its quad a few pixels short of one corner)


def _support(image: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The share of each side of the quad along which the image shows an outline, best first."""
    return np.sort(side_support(EdgeMap.around(image, q, 0.25), q))[::-1]


def _shows(support: np.ndarray) -> float:
    """How well a quad's outline shows: the mean share of its three best sides along which it
    does (a pile's top card may show none along the side that lies on the white of the card below)."""
    return float(np.sort(support)[::-1][:3].mean())


def _rank(image: np.ndarray, q: np.ndarray, det: Detection, m: _Match, support: np.ndarray | None = None) -> int:
    """How much a sure read of a blob hypothesis is to be trusted over another of the same place,
    0 to BEST_RANK: +2 when the image shows an outline along every side of the quad (a rectangle
    over part of a card and the cloth or the card beside it has a side across paper with no edge
    along it, and can read as another card surely: the left half of a four of spades is a two of
    spades); +1 when the templates name the card read (not the corner index alone: a quad on the
    card below a pile's top card shows that card's index in its corner, and the top card in the
    rest of it). -1, not sure at all, where no side shows its outline along most of it: a patch
    of cloth and a hand over it, which the blob's outline drew a card around, can look like a
    card's colour field and face (a green character card, on green felt); so is one whose outline
    shows along one side only: a straight edge (the table's, an arm's) with a quad drawn on it
    (a two-tone character card fitted a quad on the table's edge, wood inside, dark cloth beyond)."""
    support = _support(image, q) if support is None else support
    if float(support[0]) < OUTLINE_ANY or float(support[1]) < OUTLINE_SECOND:
        return -1
    return 2 * (float(support.min()) >= OUTLINE_SHOWS) + (m.code == det.code)


def _doubted_by(det: Detection, err: float, other: Detection, other_err: float) -> Detection:
    """A sure blob read that holds its place against another sure read of it, ranked alike (both
    _rank 0 or more), naming another card, is no surer than that one is unsure, as _stands
    settles two outlines of one card: an outline a few pixels off a wackee-six 11, on the side
    of its numeral's first digit, fit the 13 better and read it fully surely, the true outline
    the 11 as surely. Not where the other fits far worse (WORSE_FIT), nor against a standard
    card's twin (the pair read settles those). Between unsure reads it cost right cards (a
    queen of hearts 58 % visible, read at 0.66, doubted to 0.33 by an unsure rival)."""
    if (det.code, det.back) == (other.code, other.back) or _twins(det.code, other.code) \
            or other_err > WORSE_FIT * err:
        return det
    conf = det.confidence * (1.0 - other.confidence)
    if conf >= MIN_CONFIDENCE:
        return replace(det, confidence=round(conf, 4))
    return replace(det, code=UNKNOWN, back=None, face_up=True, confidence=round(conf, 4))


def _holds_place(same: bool, kept: tuple[int, float], new: tuple[int, float]) -> bool:
    """Does a kept blob read hold its place against a new read of the same place? Each is
    (_rank, fit error); same: they name the same card. The higher-ranked stands, and of two
    ranked alike the kept one, unless they name different cards and the new one fits better.
    Of two outlines read as the same card, one whose read fits it clearly better (FIT_CLEARLY)
    stands whatever their ranks: a card back, its white margin on a white face below, shows no
    outline along that side, and a rectangle across it and part of the face below, with edges
    all round, read it too (at 2.6 times the error)."""
    (k_rank, k_err), (rank, err) = kept, new
    if same and min(k_rank, rank) >= 0 and max(k_err, err) > FIT_CLEARLY * min(k_err, err):
        return k_err <= err
    if k_rank != rank or same:
        return k_rank >= rank
    return k_err <= err


def identify(image: np.ndarray, deck: Deck, card_px: float | None = None,
             known: list[np.ndarray] | None = None, area: np.ndarray | None = None,
             markers: bool = True) -> list[Detection]:
    """Every card face and back on the table (top cards of piles, fanned cards, covered cards).

    A card-shaped thing that cannot be read is reported with code UNKNOWN (face up, back None).
    Hypotheses from blobs of overlapping cards are read quickly first; only the promising ones
    that are not yet sure get the slower search of their exact pose, best quick reads first, and
    those still unsure a wide search of their pose, once per place (_wide_search). Of
    two reads of one place the one ranked higher stands (_rank: a sure read whose outline shows
    on every side and whose templates agree with it), else the first. known: outlines (image
    corners) of cards (or other things) the caller knows already, such as a tracker's reads at
    the layout's spots and the table's markers: hypotheses lying mostly on them are not read.
    area: the play area's outline (image corners); outlines centred outside it (grown by
    AREA_MARGIN) are not read. markers: look for the table's corner markers in the picture
    (vision.calibrate.play_area): the markers are known, and where all four show, the area
    they mark is the play area; a read across a marker is of no card (ON_MARKER). Of the
    outlines a rendered table gave, over a third lay on the markers or on the table's own
    corners against the floor, and each cost a read.
    """
    known = list(known or [])
    marker_quads: list[np.ndarray] = []
    if markers:
        found, marker_quads = play_area(image)
        known += marker_quads
        area = area if area is not None else found
    if area is not None:
        area = np.asarray(area, np.float32).reshape(-1, 2)
        mid = area.mean(axis=0)
        area = mid + (1.0 + AREA_MARGIN) * (area - mid)
    cands = find_candidates(image, card_px, markers=marker_quads)
    out: list[Detection] = []
    singles: list[np.ndarray] = []  # sure single cards' outlines
    hyps: list[tuple[tuple[float, float], np.ndarray, Detection, _Match]] = []
    kept: list[tuple[Detection, np.ndarray, int, float, bool]] = []  # blob reads: outline, _rank (-1: not
    # sure), the fit's error, outlined all round (OUTLINE_CLOSED)
    known_quads = [np.asarray(q, np.float32).reshape(4, 2) for q in known or []]
    sure: list[np.ndarray] = list(known_quads)  # hypotheses centred on these are not read
    sure_as: list[tuple[str, str | None] | None] = [None] * len(sure)  # ... the card each names
    open_shows: list[float | None] = [None] * len(sure)  # ... and, where its outline does not show all
    # round (OUTLINE_CLOSED), how well it shows (_shows): only then is it contested

    def claim(det: Detection, m: _Match) -> None:
        """Keep a blob read unless a single card or a read that _holds_place holds its place; it
        displaces the reads there that do not. (Of two ranked alike, the first is the
        better-supported seed, or the surer quick read; where they name different cards, the one
        that fits its picture better stands: two quads of one card, one of them a few pixels off
        it, read a king of hearts as itself and, the first, as the king of diamonds. A sure read
        outlined all round, OUTLINE_CLOSED, is not doubted by one that is not: a rectangle two
        fifths off a pile's clear eight of clubs, its sides on the pile's edges and a column of
        pips, read a seven of clubs at 1.0, fitting twice as badly as the eight's own outline.)"""
        q = np.array(det.corners, np.float32)
        if any(_overlaps(q, kq) for kq in singles):
            return
        support = _support(image, q) if det.confidence >= 0.9 else None
        rank = _rank(image, q, det, m, support) if support is not None else -1
        if rank < 0 and det.confidence >= 0.9:
            det = replace(det, confidence=NO_OUTLINE)
        shut = rank == BEST_RANK and support is not None and float(support[-1]) >= OUTLINE_CLOSED
        rivals = [k for k in kept if _overlaps(q, k[1])]

        def holds(k: tuple[Detection, np.ndarray, int, float, bool]) -> bool:
            return _holds_place((k[0].code, k[0].back) == (det.code, det.back), (k[2], k[3]), (rank, m.error))
        standing = next((k for k in rivals if holds(k)), None)
        if standing is not None:
            if standing[2] == rank >= 0 and standing[4] <= shut:
                i = next(i for i, k in enumerate(kept) if k is standing)
                kept[i] = (_doubted_by(standing[0], standing[3], det, m.error),) + standing[1:]
            return
        for k in rivals:
            if k[2] == rank >= 0 and k[4] >= shut:
                det = _doubted_by(det, m.error, k[0], k[3])
        kept[:] = [k for k in kept if not any(k is r for r in rivals)] + [(det, q, rank, m.error, shut)]
        if rank == BEST_RANK:
            sure.append(q)
            sure_as.append((det.code, det.back))
            open_shows.append(None if shut else _shows(support))

    def settled(det: Detection) -> bool:
        """Is this unsure read's place held already: by a single card, or by a sure blob read
        that names its card (or the twin)? One that names another card is searched all the
        same (one that names none too, where it contests the sure read: contests), and claim
        settles the two: a rectangle a third of a card off a pile's top card,
        its sides on the edges of the cards below, read a 7 as a 3 at 0.91, and the 7's own
        outlines, read at 0.85 and 0.82, were never searched."""
        at = tuple(np.array(det.corners, np.float32).mean(axis=0))
        if any(_inside(at, kq) for kq in singles):
            return True
        named = det.code != UNKNOWN or det.back is not None  # (a read below MIN_CONFIDENCE is not)
        q = np.array(det.corners, np.float32)
        return any(_inside(at, kq) and (card is None or card == (det.code, det.back) or _twins(det.code, card[0])
                                        or (not named and not contests(q, show)))
                   for kq, card, show in zip(sure, sure_as, open_shows, strict=True))

    def contests(q: np.ndarray, show: float | None) -> bool:
        """Does a quad of another card contest a sure read it is centred on, whose outline shows
        so (open_shows)? Only where that outline does not show all round, and the quad's shows better."""
        return show is not None and _shows(_support(image, q)) > show

    work = list(cands)
    for c in work:  # (a single not read surely adds its pile tops to the end of the work)
        if known_quads and _mostly_known(c.corners, known_quads):
            continue
        if area is not None and not _inside(tuple(c.corners.mean(axis=0)), area):
            continue
        if c.single:
            det, m = _read_region(image, c.corners, deck)
            out.append(det)
            if det.confidence >= 0.9:
                singles.append(np.array(det.corners, np.float32))
            else:  # two cards lying almost on each other, read unsurely as one: their top card
                # is searched for as in a blob of cards; so is a quad that reads as no card: the
                # part of a card that shows beside an arm lying across it, a card long but not a
                # card wide (a three of diamonds so cut, structure -1.0, read 1.0 laid along the
                # corners of its part)
                work += pile_tops(image, c)
            continue
        if any(_inside(tuple(c.corners.mean(axis=0)), kq) and not _same_card(c.corners, kq)
               and not contests(c.corners, show) for kq, show in zip(sure, open_shows, strict=True)):
            continue  # (another quad of a sure read's card is read: it may contradict it; so is a
            # quad centred on a sure read whose outline does not show all round, where its own shows better)
        det, m = _twin_resettled(image, deck, *_read_region(image, c.corners, deck, refine=False, search=False, strict=True))
        if det.confidence >= 0.9:
            claim(det, m)
        else:
            hyps.append(((det.confidence * (1.0 - 0.5 * det.covered), -m.error), c.corners, det, m, c.whole))
    hyps.sort(key=lambda h: h[0], reverse=True)
    unsure: list[tuple[np.ndarray, Detection]] = []  # hypotheses read unsurely, worth a wide search
    for _, corners, det, m, whole in hyps:
        if settled(det):
            continue
        if det.confidence < 0.9 and _promising(m, hypothesis=True):
            quick = (det, m)
            det, m = _twin_resettled(image, deck, *_read_region(image, corners, deck, refine=False, search=True, strict=True))
            if not _promising(quick[1]) and det.confidence < 0.9:
                det, m = quick  # (searched only for a sure read: a queen of hearts beside an arm,
                # its hypothesis searched so, read as the ace of diamonds at 0.74)
            if (whole and corner_gap(np.array(det.corners, np.float32), corners) > WHOLE_MOVE * _card_like(corners)[1]
                    and (det.confidence < 0.9 or _rank(image, np.array(det.corners, np.float32), det, m) < BEST_RANK)
                    and not _index_confirms(image, deck, det)):
                continue  # a rectangle fitted whole, searched far off: onto part of a card
        if det.confidence < 0.9 and _promising(m):
            unsure.append((corners, det))
        if det.code == UNKNOWN and det.back is None:
            continue
        claim(det, m)
    # the hypotheses still unsure, searched widely once per place (_wide_search); a read so
    # found counts only where it sees the card whole: a wide search over a card under a hand
    # found a pose where an ace's template explained what showed, and called the rest covered;
    # then, searched or not (another's search may have covered its middle), one whose outline
    # shows all round (REFINE_OUTLINED) is read once more on it, sharpened on the edges
    tried: list[np.ndarray] = []
    for corners, det in unsure:
        if settled(det):
            continue
        if not any(_inside(tuple(corners.mean(axis=0)), p) for p in tried):
            wq, det, m = _wide_read(image, corners, deck)
            tried += [_scaled(corners, 0.5), _scaled(wq, 0.5)]
            if _found_wide(det, m):
                claim(det, m)
                continue
        if float(_support(image, corners)[-1]) >= REFINE_OUTLINED:
            det, m = _twin_resettled(image, deck, *_read_region(image, corners, deck, refine=True, search=False, strict=True))
            if det.confidence >= 0.9:
                claim(det, m)
    # a clean quad read unsurely may be part of a card (a dark field melting into the cloth)
    # that a hypothesis around it reads surer: the surer read stands

    def outdone(d: Detection) -> bool:
        q = np.array(d.corners, np.float32)
        return any(_overlaps(q, kq) and k.confidence > d.confidence for k, kq, _, _, _ in kept)
    out = [d for d in out if d.confidence >= 0.9 or not outdone(d)]
    squares = [(q.mean(axis=0) + (q - q.mean(axis=0)) / MARKER_MARGIN).astype(np.float32)
               for q in marker_quads]  # (play_area gives them with their white margin)
    return [d for d in out + [k[0] for k in kept] if not _across_marker(d.corners, squares)]
