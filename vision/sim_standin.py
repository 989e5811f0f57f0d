"""A tiny stand-in deck and recogniser behind the same interface as vision.decks / identify.

Used by the simulator's tests and benchmarks so that they run whether or not the real decks and
recogniser are there: white cards with the code written large, and a reader that matches a
rectified card against the deck's own faces. Also the fallback when vision.identify is missing.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.types import CARD_H_MM, CARD_W_MM, UNKNOWN, Detection

_COLOURS = {"S": (20, 20, 20), "C": (30, 110, 20), "H": (30, 30, 200), "D": (200, 60, 20)}


class StandInDeck:
    """13 x 4 codes like 'AS', '10H', plus 'JK'; backs 'red' and 'blue'."""

    name = "standin"

    def __init__(self) -> None:
        ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
        self.codes = tuple(r + s for s in "SHDC" for r in ranks) + ("JK",)
        self.back_colours = ("red", "blue")
        self._cache: dict[tuple, np.ndarray] = {}

    def render_face(self, code: str, px_per_mm: float = 8.0) -> np.ndarray:
        key = ("F", code, px_per_mm)
        if key not in self._cache:
            if code not in self.codes:
                raise ValueError(f"card {code!r} is not in the stand-in deck")
            w, h = round(CARD_W_MM * px_per_mm), round(CARD_H_MM * px_per_mm)
            img = np.full((h, w, 3), 250, np.uint8)
            col = _COLOURS.get(code[-1], (0, 0, 0))
            s = px_per_mm
            m = int(5 * s)
            # a big bar code-like colour block keyed on the code (readable when small) ...
            idx = self.codes.index(code)
            for b in range(6):
                if (idx >> b) & 1:
                    cv2.rectangle(img, (m, int((24 + 7 * b) * s)), (w - m, int((29 + 7 * b) * s)),
                                  col, -1)
            cv2.rectangle(img, (m, int(20 * s)), (w - m, int(22 * s)), col, -1)
            # ... and the code in the corners
            fs = 0.045 * s * 10
            cv2.putText(img, code, (m, int(15 * s)), cv2.FONT_HERSHEY_SIMPLEX, fs / 2.2, col,
                        max(1, int(s)), cv2.LINE_AA)
            cv2.putText(img, code, (m, h - int(4 * s)), cv2.FONT_HERSHEY_SIMPLEX, fs / 2.2, col,
                        max(1, int(s)), cv2.LINE_AA)
            self._cache[key] = img
        return self._cache[key].copy()

    def render_back(self, colour: str, px_per_mm: float = 8.0) -> np.ndarray:
        w, h = round(CARD_W_MM * px_per_mm), round(CARD_H_MM * px_per_mm)
        img = np.full((h, w, 3), 250, np.uint8)
        c = {"red": (40, 40, 190), "blue": (170, 80, 30)}.get(colour, (90, 90, 90))
        m = int(3 * px_per_mm)
        cv2.rectangle(img, (m, m), (w - m, h - m), c, -1)
        return img


_TW, _TH = 32, 44  # size of the rectified comparison picture


def _rectify(image: np.ndarray, corners) -> np.ndarray:
    src = np.asarray(corners, np.float32).reshape(4, 2)
    dst = np.array([[0, 0], [_TW, 0], [_TW, _TH], [0, _TH]], np.float32) - 0.5  # (outer edges, as cv2.resize)
    m = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(image, m, (_TW, _TH), flags=cv2.INTER_AREA)


def _norm(img: np.ndarray) -> np.ndarray:
    f = img.astype(np.float32).ravel()
    f -= f.mean()
    return f / (np.linalg.norm(f) + 1e-6)


class TemplateReader:
    """Reads a card by correlating its rectified picture with every face (both ways up)."""

    def __init__(self, deck) -> None:
        self.deck = deck
        self.keys: list[tuple[str, bool, str | None]] = []
        rows = []
        for code in deck.codes:
            img = cv2.resize(deck.render_face(code, 3.0), (_TW, _TH), interpolation=cv2.INTER_AREA)
            for flip in (False, True):
                rows.append(_norm(img[::-1, ::-1] if flip else img))
                self.keys.append((code, True, None))
        for colour in getattr(deck, "back_colours", ()):
            img = cv2.resize(deck.render_back(colour, 3.0), (_TW, _TH), interpolation=cv2.INTER_AREA)
            rows.append(_norm(img))
            self.keys.append((UNKNOWN, False, colour))
        self.bank = np.stack(rows)

    def read(self, image: np.ndarray, corners) -> Detection:
        c = np.asarray(corners, np.float32).reshape(4, 2)
        best = (-1.0, 0, c)
        for rot in range(2):  # the quad may start at the short or the long side
            cc = np.roll(c, -rot, axis=0)
            w = np.linalg.norm(cc[1] - cc[0])
            h = np.linalg.norm(cc[3] - cc[0])
            if w > h:
                continue
            scores = self.bank @ _norm(_rectify(image, cc))
            j = int(np.argmax(scores))
            if scores[j] > best[0]:
                best = (float(scores[j]), j, cc)
        score, j, cc = best
        code, face_up, back = self.keys[j]
        hsv = cv2.cvtColor(_rectify(image, cc), cv2.COLOR_BGR2HSV)
        ring = np.concatenate([hsv[1, 3:-3], hsv[-2, 3:-3], hsv[3:-3, 1], hsv[3:-3, -2]])
        # the border as bright as the card's white (a dim exposure leaves white cards grey)
        paper = max(float(np.percentile(hsv[:, :, 2], 95)), 60.0)
        white = float(np.mean((ring[:, 2] > 0.85 * paper) & (ring[:, 1] < 70)))
        if score < 0.55 or white < 0.6:  # no white card border: not a card (or badly placed)
            code, back = UNKNOWN, None
        return Detection(code, tuple((float(x), float(y)) for x, y in cc), max(0.0, score),
                         face_up, back)


_READERS: dict[int, TemplateReader] = {}


def identify_region(image: np.ndarray, corners, deck) -> Detection:
    """Stand-in for vision.identify.identify_region."""
    r = _READERS.get(id(deck))
    if r is None:
        r = _READERS[id(deck)] = TemplateReader(deck)
    return r.read(image, corners)


def find_cards(image: np.ndarray) -> list[np.ndarray]:
    """Stand-in for vision.identify.find_cards: bright low-saturation quads of card shape."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    v = hsv[..., 2]
    thr = max(120, int(np.percentile(v, 60)) + 25)
    mask = ((v > thr) & (hsv[..., 1] < 70)).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    cnts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for cnt in cnts:
        if cv2.contourArea(cnt) < 150:
            continue
        rect = cv2.minAreaRect(cnt)
        (w, h) = rect[1]
        if min(w, h) < 5 or not 1.15 < max(w, h) / min(w, h) < 1.75:
            continue
        if cv2.contourArea(cnt) < 0.8 * w * h:
            continue
        box = cv2.boxPoints(rect)
        out.append(box.astype(np.float64))
    return out
