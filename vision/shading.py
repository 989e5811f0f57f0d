"""A card's picture with the shadow lying across it taken out.

A hand or an arm held over the table casts a soft shadow, and a card half in it is half as
bright: the template read (vision/identify.py) fits one gain per channel to the whole card, so
the shaded half is left unexplained and taken for a cover, and a card mostly in shadow fits a
plain dark back better than its own face. A shadow darkens the paper and the print alike (the
light is multiplied) and dims the paper's colour evenly, so it is found on the paper: the card
is white but for its print, and the brightest pixels within a pip's reach of each point (a
morphological closing, wider than a pip, then smoothed over the card alone) give the light
falling there, where they are the paper's grey (GREY, DARKEST). Where they are not (a court
card's picture, a finger, the cloth under an outline a little off the card), the light is the
paper's about them. Dividing by that light, relative to the card's best lit paper, leaves the
card as if evenly lit. identify reads a card so only where its read as lit is unsure or takes
part of it for covered, and keeps the read that fits better.
"""
from __future__ import annotations

import cv2
import numpy as np

REACH = 0.15  # share of the card's short side: the closing's radius (a pip is about a tenth)
PAD = 0.5  # share of the card's long side kept about it in the crop (the read may sharpen and search its outline)
LIT = 0.95  # the percentile of the light inside the card taken as its best lit paper
DARKEST = 0.3  # light below this share of the paper's is not taken for paper in shade (cloth, a back) ...
GREY = 1.25  # ... nor light whose channels fall by shares more unlike than this (skin, coloured cloth,
# a court card's picture): a shadow dims the paper's colour evenly
SHADED = 0.8  # light below this share of the paper's is a shadow ...
SHADED_SHARE = 0.05  # ... and a card with this share of it in shadow is shaded


WORK_REACH = 10  # px: a card whose closing would reach further is lit on its picture scaled down
# to this reach (the light is smooth; at a photo's scale, a closing 75 px wide over the card's
# whole crop took a second a read)


def unshaded(image: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """A crop of the image about the card outlined by corners (image px), divided by the light
    falling on it; the crop's top-left corner in the image (x, y); and the share of the card in
    shadow (SHADED)."""
    q = np.asarray(corners, np.float32).reshape(4, 2)
    sides = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    short, long = float(sides.min()), float(sides.max())
    pad = int(PAD * long) + 4
    x0, y0 = np.maximum(np.floor(q.min(axis=0)).astype(int) - pad, 0)
    x1, y1 = np.ceil(q.max(axis=0)).astype(int) + pad
    seen = image[y0:y1, x0:x1]
    origin = np.array([x0, y0], np.float32)
    if seen.ndim != 3 or seen.shape[0] < 8 or seen.shape[1] < 8:
        return seen.copy(), origin, 0.0
    crop = seen.astype(np.float32)
    inside = _filled(crop.shape[:2], q - origin)
    r = max(2, round(REACH * short))
    k = min(1.0, WORK_REACH / r)
    if k < 1.0:
        size = (max(8, round(crop.shape[1] * k)), max(8, round(crop.shape[0] * k)))
        scale = np.array([size[0] / crop.shape[1], size[1] / crop.shape[0]], np.float32)
        small = cv2.resize(crop, size, interpolation=cv2.INTER_AREA)
        # (a pixel's centre x lies at (x + 0.5) * scale - 0.5 in the smaller picture)
        found = _light_share(small, _filled(small.shape[:2], (q - origin + 0.5) * scale - 0.5),
                             WORK_REACH, 50 * float(scale.prod()))
    else:
        found = _light_share(crop, inside, r)
    if found is None:
        return seen.copy(), origin, 0.0
    light, shaded = found
    if light.shape != inside.shape:
        light = cv2.resize(light, (crop.shape[1], crop.shape[0]), interpolation=cv2.INTER_LINEAR)
    share = np.where(inside > 0, light, 1.0).astype(np.float32)  # (off the card none is taken out)
    return np.clip(crop / share[:, :, None], 0, 255).astype(image.dtype), origin, shaded


def _filled(shape: tuple[int, ...], q: np.ndarray) -> np.ndarray:
    """A float mask of the quad q (pixels of a picture of that shape)."""
    mask = np.zeros(shape, np.float32)
    cv2.fillConvexPoly(mask, np.round(q).astype(np.int32), 1.0)
    return mask


def _light_share(crop: np.ndarray, inside: np.ndarray, r: int,
                 min_core: float = 50) -> tuple[np.ndarray, float] | None:
    """The light falling on the card (inside, a mask of the crop), as a share of its best lit
    paper's, also about the card where its paper is near (so that a picture scaled back up
    keeps the card's outline); and the share of the card in shadow. None where fewer than
    min_core of its pixels lie away from its outline."""
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    core = cv2.erode(inside, disc[::2, ::2]) > 0  # (away from the outline, which may be a pixel or two off)
    if core.sum() < min_core:
        return None
    # each channel's light: its brightest within a pip's reach, smoothed over the card alone (a
    # blur across its edge would take the cloth for shade)
    sigma = max(1.0, r / 6)
    weight = np.maximum(cv2.GaussianBlur(inside, (0, 0), sigma), 1e-3)[:, :, None]
    closed = cv2.morphologyEx(crop, cv2.MORPH_CLOSE, disc)
    light = cv2.GaussianBlur(closed * inside[:, :, None], (0, 0), sigma) / weight
    light = np.where(inside[:, :, None] > 0, light, closed)
    paper = np.maximum(np.percentile(light[core], 100 * LIT, axis=0), 1.0)
    shares = light / paper
    share = shares.mean(axis=2)
    grey = shares.max(axis=2) <= GREY * np.maximum(shares.min(axis=2), 1e-3)
    # the light is known on the paper; elsewhere on the card (a court card's picture, a finger)
    # it is the paper's about it
    paper_light = (grey & (share >= DARKEST) & (inside > 0)).astype(np.float32)
    share = np.minimum(share, 1.0)
    near = cv2.GaussianBlur(paper_light, (0, 0), r)
    about = cv2.GaussianBlur(share * paper_light, (0, 0), r) / np.maximum(near, 1e-3)
    share = np.where(paper_light > 0, share, np.where(near > 0.05, about, 1.0)).astype(np.float32)
    return share, float((share[core] < SHADED).mean())
