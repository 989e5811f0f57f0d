"""Enrolling a user's own deck from photos: one card per photo, each file named by its code.

The card is found in each photo, rectified to an upright picture and stored under the data
directory (see vision/decks/user.py); get_deck(name) then returns it and identify() uses the
photos as templates.

Files named back-COLOUR.jpg (e.g. back-red.jpg) are enrolled as the deck's back colours.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.decks import Deck, get_deck
from vision.decks.base import card_size_px
from vision.decks.user import STORE_PX_PER_MM, save_enrolled
from vision.detect import ASPECT, find_candidates, order_clockwise

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}


class EnrollError(ValueError):
    """A problem with the photos given to enroll (the message names the file and the fix)."""


MIN_PHOTO_SHARE = 0.05  # a card in an enrolment photo covers at least this share of it


def _largest_card_quad(image: np.ndarray) -> np.ndarray | None:
    """The card in a photo that shows one card, on a darker background: the largest bright blob
    first (the table detector's cloth model takes a card that fills the photo for cloth, and
    then offers a pip, or a card merged with its shadow); else the largest card-shaped quad the
    table detector finds, if large enough to be the card."""
    quad = _bright_card_quad(image)
    if quad is not None:
        return quad
    h, w = image.shape[:2]
    cands = [c.corners for c in find_candidates(image) if c.single]
    best = max(cands, key=cv2.contourArea, default=None)
    if best is not None and cv2.contourArea(best) >= MIN_PHOTO_SHARE * h * w:
        return best
    return None


def _bright_card_quad(image: np.ndarray) -> np.ndarray | None:
    """The largest bright blob's quad (Otsu on the darkest channel: cards are white)."""
    h, w = image.shape[:2]
    f = min(1.0, 1000 / max(h, w))
    small = cv2.resize(image, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
    b, g, r = cv2.split(cv2.GaussianBlur(small, (5, 5), 0))
    lo = cv2.min(cv2.min(b, g), r)
    otsu, _ = cv2.threshold(lo, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # Otsu first; on a pale or vignetted background try stricter levels until a card shows
    for thr in [otsu] + [float(np.percentile(lo, p)) for p in (50, 60, 70, 80)]:
        quad = _bright_quad(lo, thr)
        if quad is not None:
            return quad / f
    return None


def _bright_quad(lo: np.ndarray, thr: float) -> np.ndarray | None:
    _, mask = cv2.threshold(lo, thr, 255, cv2.THRESH_BINARY)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    cnts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not cnts:
        return None
    cnt = max(cnts, key=cv2.contourArea)
    hull = cv2.convexHull(cnt)
    approx = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True).reshape(-1, 2)
    if len(approx) == 4:
        quad = order_clockwise(approx.astype(np.float32))
    else:
        quad = order_clockwise(cv2.boxPoints(cv2.minAreaRect(cnt)))
    d = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    short, long_ = min(d[0] + d[2], d[1] + d[3]), max(d[0] + d[2], d[1] + d[3])
    if short < 40 or not 0.5 < short / long_ < 0.95:
        return None
    if cv2.contourArea(cnt) < 0.8 * cv2.contourArea(quad):
        return None
    if cv2.contourArea(quad) > 0.9 * lo.shape[0] * lo.shape[1]:  # no card: the whole frame
        return None
    return quad


def rectify_card(image: np.ndarray, corners: np.ndarray, px_per_mm: float = STORE_PX_PER_MM) -> np.ndarray:
    """Upright (portrait) picture of the card inside corners."""
    from vision.identify import _oriented

    q = _oriented(corners)
    w, h = card_size_px(px_per_mm)
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32) - 0.5  # (the picture's outer edges)
    m = cv2.getPerspectiveTransform(q.astype(np.float32), dst)
    return cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def _codes_base(stems: list[str], base: str | None) -> tuple[str | None, set[str]]:
    """Which built-in deck's code scheme the file names follow (None: free codes)."""
    from vision.decks import builtin_names

    candidates = [base] if base else builtin_names()
    best: tuple[str | None, set[str]] = (None, set(stems))
    for name in candidates:
        deck = get_deck(name)
        bad = {s for s in stems if s not in deck.codes}
        if not bad:
            return name, set()
        if len(bad) < len(best[1]):
            best = (name, bad)
    return best


def enroll(name: str, directory: Path | str, base: str | None = None) -> Deck:
    """Build the deck NAME from one photo per card in directory (files named by code).

    base names the built-in deck whose codes the files use (default: whichever fits them all).
    Raises EnrollError for a missing or empty directory, an unreadable photo, a file name that is
    not a card code, or a photo in which no card is found.
    """
    from vision.decks import builtin_names
    from vision.identify import UnreadableImageError, read_image

    if not name or "/" in name or name.startswith("."):
        raise EnrollError(f"deck name {name!r} is not usable; use letters, digits and '-'")
    if name in builtin_names():
        raise EnrollError(f"deck name {name!r} is a built-in deck; choose another name")
    d = Path(directory)
    if not d.is_dir():
        raise EnrollError(f"enrol directory {d} does not exist; give the folder of card photos")
    files = sorted(p for p in d.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise EnrollError(f"enrol directory {d} holds no photos (.jpg/.png); put one photo per card "
                          "in it, named by the card's code (QH.jpg, 10S.png)")
    backs = [p for p in files if p.stem.lower().startswith("back-")]
    faces = [p for p in files if p not in backs]
    stems = [p.stem.upper() for p in faces]
    if len(set(stems)) != len(stems):
        dup = sorted({s for s in stems if stems.count(s) > 1})
        raise EnrollError(f"enrol directory {d} has two photos for the card(s) {', '.join(dup)}")
    base_name, bad = _codes_base(stems, base)
    if bad:
        names = ", ".join(p.name for p in faces if p.stem.upper() in bad)
        hint = f" of deck {base_name!r}" if base_name else ""
        raise EnrollError(f"file name(s) {names} in {d} are not card codes{hint}; name each photo by "
                          "its card's code (QH.jpg, 10S.png, see docs/decks.md)")
    face_imgs: dict[str, np.ndarray] = {}
    back_imgs: dict[str, np.ndarray] = {}
    for p, store, key in [(p, face_imgs, p.stem.upper()) for p in faces] + [
            (p, back_imgs, p.stem[5:].lower()) for p in backs]:
        try:
            img = read_image(p)
        except UnreadableImageError as e:
            raise EnrollError(str(e)) from None
        quad = _largest_card_quad(img)
        if quad is None:
            raise EnrollError(f"no card found in photo {p}; photograph one card, whole, on a plain "
                              "darker background")
        store[key] = rectify_card(img, quad)
    save_enrolled(name, face_imgs, back_imgs, base=base_name)
    deck = get_deck(name)
    _ = ASPECT
    return deck
