"""Which card is where: classify card quads against the deck's face and back templates.

Each quad is rectified to a small canonical picture (CW x CH px, white-balanced on the card's
own white border) and compared, cell by cell (a 4 x 5 grid), with every template at 0 and 180
degrees. Cells that no template explains are taken as covered (a hand, another card) and left
out, so a half-covered card is still read from what shows. The confidence comes from the margin
between the best code and the best other code; below MIN_CONFIDENCE the card is reported with
code UNKNOWN rather than guessed.

For the built-in "standard" deck, cards that do not match our own renders (a real deck) are read
by their corner index instead (vision/decks/index_reader.py).

Incremental use: find_cards(image) gives quads; identify_region(image, corners, deck) reads one
quad, so a tracker re-reads only the regions that changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.decks import Deck
from vision.detect import find_candidates, find_cards, order_clockwise
from vision.types import UNKNOWN, Detection

__all__ = ["identify", "identify_region", "find_cards", "read_image", "UnreadableImageError",
           "rectify", "CW", "CH"]

CW, CH = 36, 50  # canonical card picture (portrait), the field inside the white margin
RW, RH = 72, 100  # the whole card is first rectified at this size
RING = 2  # px from the edge of the RW x RH picture where the white margin is sampled
INSET = 4  # px of margin dropped before the comparison
GRID = (4, 5)  # cells across, down
MIN_CONFIDENCE = 0.5
COVER_TAU = 0.045  # mean squared error (per channel, 0..1 scale) above which no template explains a cell


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
    """Index permutation that groups a flattened CH x CW x 3 picture cell by cell."""
    global _cell_perm
    if _cell_perm is None:
        gx, gy = GRID
        idx = np.arange(CH * CW * 3).reshape(CH, CW, 3)
        ys = np.array_split(np.arange(CH), gy)
        xs = np.array_split(np.arange(CW), gx)
        parts = [idx[np.ix_(yy, xx)].ravel() for yy in ys for xx in xs]
        assert len({len(p) for p in parts}) == 1, "grid must split the picture evenly"
        _cell_perm = np.concatenate(parts)
    return _cell_perm


def _normalise(pic: np.ndarray) -> np.ndarray:
    """Canonical float picture (CH x CW x 3, 0..1) of the card's inner field, white-balanced.

    pic is the whole card at RW x RH: the white reference is the median of a ring 2 px inside
    the edge (the middle of every card's white margin); the comparison then uses the field inside
    the margin only, which is insensitive to a pixel or two of error in the card's outline.
    """
    f = pic.astype(np.float32)
    r = RING
    ring = np.concatenate([f[r, r:-r], f[-1 - r, r:-r], f[r:-r, r], f[r:-r, -1 - r]])
    ref = np.median(ring, axis=0)
    bright = np.percentile(ring, 90, axis=0)
    ref = np.maximum(np.maximum(ref, bright * 0.85), 30.0)
    inner = f[INSET:-INSET, INSET:-INSET]
    small = cv2.resize(inner, (CW, CH), interpolation=cv2.INTER_AREA)
    return np.clip(small / ref, 0.0, 1.05)


def rectify(image: np.ndarray, corners: np.ndarray, w: int = RW, h: int = RH) -> np.ndarray:
    """Warp a card quad (clockwise from the printed top-left) to a w x h upright picture."""
    q = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    side = max(np.linalg.norm(q[0] - q[1]), np.linalg.norm(q[1] - q[2]))
    scale = h / max(side, 1.0)
    if scale < 0.5:  # shrink the region first so the warp does not alias
        x0, y0 = np.floor(q.min(axis=0)).astype(int) - 2
        x1, y1 = np.ceil(q.max(axis=0)).astype(int) + 2
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, image.shape[1]), min(y1, image.shape[0])
        if x1 - x0 > 4 and y1 - y0 > 4:
            crop = image[y0:y1, x0:x1]
            k = min(1.0, scale * 2.0)
            crop = cv2.resize(crop, (max(2, round(crop.shape[1] * k)), max(2, round(crop.shape[0] * k))),
                              interpolation=cv2.INTER_AREA)
            q = (q - np.array([x0, y0], np.float32)) * np.array(
                [crop.shape[1] / (x1 - x0), crop.shape[0] / (y1 - y0)], np.float32)
            image = crop
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    m = cv2.getPerspectiveTransform(q, dst)
    return cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


@dataclass
class _Templates:
    keys: list[tuple[str, str | None, int]]  # (code or UNKNOWN, back colour, rotation 0/180)
    mat: np.ndarray  # (n, D) float32, cell-grouped
    cells: np.ndarray  # (cells, n, pixels per cell) float32, the same numbers cell-major
    sq: np.ndarray  # (cells, n) squared norms per cell


_template_cache: dict[tuple[int, str], _Templates] = {}


def _template_picture(img: np.ndarray) -> np.ndarray:
    small = cv2.resize(img, (RW, RH), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (3, 3), 0.8)
    return _normalise(small)


def templates(deck: Deck) -> _Templates:
    """The deck's face and back pictures at 0 and 180 degrees (built once per deck)."""
    key = (id(deck), deck.name)
    t = _template_cache.get(key)
    if t is not None:
        return t
    keys: list[tuple[str, str | None, int]] = []
    rows: list[np.ndarray] = []
    perm = _perm()
    items: list[tuple[str, str | None, np.ndarray]] = [(c, None, deck.render_face(c, 4.0)) for c in deck.codes]
    items += [(UNKNOWN, b, deck.render_back(b, 4.0)) for b in deck.back_colours]
    for code, back, img in items:
        pic = _template_picture(img)
        for rot in (0, 180):
            p = pic if rot == 0 else pic[::-1, ::-1]
            keys.append((code, back, rot))
            rows.append(p.reshape(-1)[perm])
    mat = np.ascontiguousarray(np.stack(rows))
    ncell = GRID[0] * GRID[1]
    cells = np.ascontiguousarray(mat.reshape(len(keys), ncell, -1).transpose(1, 0, 2))
    t = _Templates(keys, mat, cells, (cells ** 2).sum(axis=2))
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


def _pair_margin(x: np.ndarray, a: np.ndarray, b: np.ndarray, valid: np.ndarray) -> float:
    """How much better template a explains x than b, on the pixels where a and b differ.

    (eb - ea) / (ea + eb): 1 when x is exactly a, 0 when undecided, negative when b fits better.
    Restricting to the differing pixels makes a one-pip difference (7 vs 8) count in full.
    """
    diff = np.abs(a - b) > 0.15
    diff &= valid
    k = int(diff.sum())
    if k < 4:
        return 0.0
    ea = float(((x[diff] - a[diff]) ** 2).sum())
    eb = float(((x[diff] - b[diff]) ** 2).sum())
    return (eb - ea) / (ea + eb + 0.02 * k * 0.01 + 1e-6)


def _match(pic: np.ndarray, t: _Templates) -> _Match:
    x = _normalise(pic).reshape(-1)[_perm()]
    ncell = GRID[0] * GRID[1]
    xc = x.reshape(ncell, -1)
    ppc = xc.shape[1]
    dots = np.matmul(t.cells, xc[:, :, None])[:, :, 0]  # (cells, n)
    d = (t.sq - 2.0 * dots + (xc ** 2).sum(axis=1)[:, None]).T / ppc  # (n, cells) mean sq error
    explained = d.min(axis=0) < COVER_TAU
    covered = 1.0 - float(explained.mean())
    if explained.sum() < 4:
        return _Match(UNKNOWN, None, 0, 0.0, covered, 1.0)
    score = d[:, explained].mean(axis=1)
    order = np.argsort(score)
    best = int(order[0])
    code, back, rot = t.keys[best]
    s1 = float(score[best])
    valid = np.repeat(explained, ppc)
    seen: set[tuple[str, str | None]] = {(code, back)}
    conf = 1.0
    for j in order[1:]:
        j = int(j)
        c2, b2, _ = t.keys[j]
        if (c2, b2) in seen:
            continue
        seen.add((c2, b2))
        if float(score[j]) > 3.0 * s1 + 0.01:
            break  # far worse overall: no real competitor
        m = _pair_margin(x, t.mat[best], t.mat[j], valid)
        conf = min(conf, m)
        if len(seen) >= 4:
            break
    conf = max(0.0, conf)
    # calibrated on rendered scenes (bench/vision_identify.py): a margin of 0.5 on the differing
    # pixels is already a clear decision
    conf = float(min(1.0, conf / 0.5))
    if s1 > 0.03:  # nothing fits well: not a card of this deck, or unreadable
        conf *= max(0.0, 1.0 - (s1 - 0.03) / 0.03)
    # a card mostly hidden is not trusted: at 60 % covered the confidence is already zero
    conf *= max(0.0, min(1.0, (0.6 - covered) / 0.3))
    return _Match(code, back, rot, conf, covered, s1)


def _oriented(corners: np.ndarray) -> np.ndarray:
    """Clockwise corners starting so that side 0-1 is a short side (portrait card)."""
    q = order_clockwise(corners)
    d01 = np.linalg.norm(q[0] - q[1]) + np.linalg.norm(q[2] - q[3])
    d12 = np.linalg.norm(q[1] - q[2]) + np.linalg.norm(q[3] - q[0])
    if d01 > d12:
        q = np.roll(q, -1, axis=0)
    return q


def _read_region(image: np.ndarray, corners: np.ndarray, deck: Deck) -> tuple[Detection, _Match]:
    q = _oriented(np.asarray(corners, dtype=np.float32))
    pic = rectify(image, q)
    m = _match(pic, templates(deck))
    code, back, conf = m.code, m.back, m.confidence
    rot = m.rot
    if deck.kind == "standard" and back is None and conf < 0.9:
        from vision.decks.index_reader import read_index

        r = read_index(image, q)
        if r is not None and r.confidence > conf:
            code, conf, rot = r.code, r.confidence, r.rot
    if rot == 180:
        q = np.roll(q, -2, axis=0)
    face_up = back is None
    if conf < MIN_CONFIDENCE:
        code = UNKNOWN
        if not face_up:
            back = None
            face_up = True
    det = Detection(code=code if face_up else UNKNOWN,
                    corners=tuple((float(x), float(y)) for x, y in q),
                    confidence=round(conf, 4), face_up=face_up, back=back,
                    covered=round(m.covered, 3))
    return det, m


def identify_region(image: np.ndarray, corners, deck: Deck) -> Detection:
    """Read the one card whose quad is corners (4 points in image pixels, any start, any order)."""
    det, _ = _read_region(image, np.asarray(corners, dtype=np.float32).reshape(4, 2), deck)
    return det


def _inside(pt: tuple[float, float], quad: np.ndarray) -> bool:
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2).astype(np.float32), pt, False) >= 0


def identify(image: np.ndarray, deck: Deck, card_px: float | None = None) -> list[Detection]:
    """Every card face and back on the table (top cards of piles, fanned cards, covered cards).

    A card-shaped thing that cannot be read is reported with code UNKNOWN (face up, back None).
    """
    cands = find_candidates(image, card_px)
    out: list[Detection] = []
    hyps: list[tuple[float, Detection]] = []
    for c in cands:
        det, m = _read_region(image, c.corners, deck)
        if c.single:
            out.append(det)
        elif det.code != UNKNOWN or det.back is not None:
            hyps.append((det.confidence * (1.0 - 0.5 * det.covered), det))
    # hypotheses from merged blobs: the best-read first; drop the ones that repeat a kept card
    hyps.sort(key=lambda t: -t[0])
    kept: list[Detection] = []
    for _, det in hyps:
        q = np.array(det.corners, np.float32)
        c = tuple(q.mean(axis=0))
        dup = False
        for k in kept:
            kq = np.array(k.corners, np.float32)
            if _inside(c, kq) or _inside(tuple(kq.mean(axis=0)), q):
                dup = True
                break
        if not dup:
            kept.append(det)
    return out + kept
