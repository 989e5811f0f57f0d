"""Telling suit symbols apart by their blurred shape (spades from clubs, hearts from diamonds).

A pip on an overhead camera's picture of a card is a dozen pixels tall and blurred: its
thresholded silhouette is a blob, and spade and club blobs correlate almost alike with any
template. What still tells them apart is the grey-level shape: the club's three round lobes and
thin stem against the spade's point and wide base. So each symbol is read as a small grey patch
centred on it, scaled to its size, and classified by linear discriminant analysis trained on
suit glyphs (several fonts and our vector suits, upright and upside down, as real decks print
the lower pips) blurred and sampled the way a camera does, at the sizes and blurs met on a
table. Each glyph and turn is a class of its own (a mixture), a suit's likelihood the sum over
its classes, so that a deck's own spade need not look like the average spade.

Symbols smaller than MIN_PX camera pixels give no evidence: below that, a camera's blur leaves
too little of the shape, and a guess there would be a wrong card read surely. The training is
seeded and takes about a second, once per process.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

SUITS = ("S", "H", "D", "C")
F = 16  # the patch is compared at F x F
PAD = 1.3  # the patch spans the symbol's box grown by this factor
MIN_PX = 9.0  # symbols smaller than this (height in camera pixels) are not read
SIZES_PX = (8.0, 45.0)  # symbol heights in camera pixels trained on
MAX_BLUR = 0.3  # largest blur trained on (sigma, as a share of the symbol's height)
SHRINK = 0.1  # covariance shrinkage towards the identity (few samples, many dimensions)


def feature(grey: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """Zero-mean, unit-norm F x F patch of grey (ink 0..1) around box (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    hw, hh = PAD * max(x1 - x0, 1) / 2, PAD * max(y1 - y0, 1) / 2
    src = np.float32([[cx - hw, cy - hh], [cx + hw, cy - hh], [cx + hw, cy + hh]])
    dst = np.float32([[0, 0], [F, 0], [F, F]])
    m = cv2.getAffineTransform(src, dst)
    p = cv2.warpAffine(grey.astype(np.float32), m, (F, F), flags=cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_CONSTANT).reshape(-1)
    p = p - p.mean()
    n = float(np.linalg.norm(p))
    return p / n if n > 1e-6 else p


def _glyphs() -> list[tuple[str, np.ndarray]]:
    from vision.decks.index_reader import _SUIT_CHARS, _pil_glyphs, _vector_suits

    items = [(s, g) for s, ch in _SUIT_CHARS.items() for g in _pil_glyphs(ch)]
    return items + _vector_suits()


def _sample(glyph: np.ndarray, rng: np.random.Generator) -> np.ndarray | None:
    """One glyph as a camera sees it: drawn at a random size, blurred, sampled, noised, then
    found by a threshold as the reader finds a pip, and cut out as feature() does."""
    up = 4  # the reader's rectified card is finer than the camera's pixels
    h = rng.uniform(*SIZES_PX)
    w = h * glyph.shape[1] / glyph.shape[0] * rng.uniform(0.9, 1.1)
    gh, gw = int(h * up), max(1, int(w * up))
    border = 16 * up
    canvas = np.zeros((gh + 2 * border, gw + 2 * border), np.float32)
    canvas[border:border + gh, border:border + gw] = cv2.resize(glyph.astype(np.float32), (gw, gh),
                                                                 interpolation=cv2.INTER_AREA)
    size = (max(4, round(canvas.shape[1] / up)), max(4, round(canvas.shape[0] / up)))
    cam = cv2.resize(canvas, size, interpolation=cv2.INTER_AREA)
    cam = cv2.GaussianBlur(cam, (0, 0), max(0.3, rng.uniform(0.0, MAX_BLUR) * h))
    cam += rng.normal(0.0, rng.uniform(0.0, 0.06), cam.shape).astype(np.float32)
    big = cv2.resize(cam, (canvas.shape[1], canvas.shape[0]), interpolation=cv2.INTER_LINEAR)
    mask = (big > rng.uniform(0.3, 0.6) * big.max()).astype(np.uint8)
    n, _lab, st, _ = cv2.connectedComponentsWithStats(mask)
    if n < 2:
        return None
    i = 1 + int(np.argmax(st[1:, 4]))
    x, y, bw, bh, _a = st[i]
    return feature(big, (x, y, x + bw, y + bh))


class SuitShapes:
    """The trained discriminant: one linear score per (glyph, turn) class."""

    def __init__(self, seed: int = 0, per_class: int = 40) -> None:
        rng = np.random.default_rng(seed)
        xs, cls, suit_of = [], [], []
        for s, g in _glyphs():
            for turned in (False, True):
                gg = g[::-1, ::-1] if turned else g
                k = len(suit_of)
                suit_of.append(SUITS.index(s))
                for _ in range(per_class):
                    v = _sample(gg, rng)
                    if v is not None:
                        xs.append(v)
                        cls.append(k)
        x = np.array(xs, np.float32)
        c = np.array(cls)
        mu = np.stack([x[c == k].mean(axis=0) for k in range(len(suit_of))])
        r = x - mu[c]
        cov = r.T @ r / len(x)
        cov = (1 - SHRINK) * cov + SHRINK * np.eye(cov.shape[0]) * np.trace(cov) / cov.shape[0]
        w = mu @ np.linalg.inv(cov)
        self.w = w.astype(np.float32)
        self.b = (-0.5 * np.einsum("ij,ij->i", w, mu)).astype(np.float32)
        self.suit_of = np.array(suit_of)

    def log_likelihoods(self, v: np.ndarray) -> np.ndarray:
        """Per suit (SUITS order), up to a shared constant."""
        s = self.w @ v + self.b
        out = np.full(len(SUITS), -np.inf)
        for k in range(len(SUITS)):
            t = s[self.suit_of == k]
            if t.size:
                m = float(t.max())
                out[k] = m + np.log(np.exp(t - m).sum())
        return out


@lru_cache(maxsize=1)
def model() -> SuitShapes:
    return SuitShapes()


def evidence(grey: np.ndarray, box: tuple[float, float, float, float], px_per_camera_px: float
             ) -> np.ndarray | None:
    """Log-likelihood per suit of the symbol in box (in grey's pixels), or None where the
    symbol is too small on the camera's picture to tell (px_per_camera_px: grey's pixels per
    camera pixel)."""
    if (box[3] - box[1]) / max(px_per_camera_px, 1e-6) < MIN_PX:
        return None
    return model().log_likelihoods(feature(grey, box))
