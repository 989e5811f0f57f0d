"""Reading an ordinary (real, printed) standard deck: corner index rank + suit, pips as a check.

Our own renders of the standard deck are matched as templates by vision/identify.py; a real deck
bought in a shop looks different (other fonts, pips, court pictures), so it is read the way a
person reads it: the rank glyph and the suit symbol in the corner index, cross-checked with the
number of pips in the middle of the card (or the presence of a court picture).

Nothing here is tuned to one deck. Rank glyphs are compared with templates rendered from several
fonts (DejaVu and Liberation via Pillow when present, OpenCV's Hershey fonts always), each
stretched to a common box, plus the glyph's aspect ratio; suits by ink colour (red: hearts,
diamonds; black: spades, clubs), then by their silhouettes against shape templates (font suit
symbols and our vector suits) and, where the symbols are large enough on the camera's picture,
by their grey-level shape (vision/decks/suit_shapes.py): a small spade's silhouette and a small
club's are too alike to be sure of, so without the grey-level shape a black suit is never sure.
A card's pips are counted only where they lie as a number card's do (_pip_layout).
Symbols only a few camera pixels high are blobs that every suit's silhouette fits about as well
(SILHOUETTE_PX), and a rank glyph that small, with no pips to witness it, is no surer (ALONE_PX):
on cards under about 45 px wide such reads were sure and wrong.
The index is read in every corner the card may carry it (either diagonal, since under strong
perspective the quad's long side is not known for sure), and the best-read corner wins.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from vision.decks import suit_shapes

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
RED = ("H", "D")
PIP_RANK = {1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10"}

S = 4.0  # px per mm of the rectified card
CARD_W_MM, CARD_H_MM = 63.5, 88.9
GW, GH = 20, 28  # rank glyphs are compared at this size
SW, SH = 32, 32  # suit symbols are compared at this size
ZONE_W_MM, ZONE_H_MM = 14.0, 32.0  # the index lives in this corner box
SHAPE_DOUBT = 6.0  # a card's suit_shapes score (see _decide) this low decides nothing (wrong suits reached 5.1) ...
SHAPE_SURE = 5.0  # ... and this much above it makes the suit sure
SILHOUETTE_VETO = 0.8  # silhouettes this sure of a suit overrule a grey-level shape that says another
SILHOUETTE_BLACK = 0.45  # the most a spade or club read from its silhouette alone is trusted
WITNESSES_DISAGREE = 0.05  # silhouette score by which the corner's symbol and the pips each favour
# another suit (of the two of their colour): neither is read surely
SILHOUETTE_PX = (3.5, 4.5)  # suit symbols (camera px high) from which silhouettes begin to count, and count fully
ALONE_PX = (4.5, 5.5)  # ... and an index without pips to witness it (measured by its suit symbol)
OCCLUDER_MM = 8.0  # ink from the card's edge this thick on average (area / length) covers it
COURT_GLYPH = 0.03  # a court picture's rank glyph must read about as well as any number's
GRAIN = (0.05, 0.065)  # the paper's grain (see _grain) from which an index read is trusted less, and not at all

_FONTS = ("DejaVuSans-Bold.ttf", "DejaVuSans.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSerif.ttf",
          "DejaVuSansCondensed-Bold.ttf", "DejaVuSerifCondensed-Bold.ttf",
          "LiberationSans-Bold.ttf", "LiberationSans-Regular.ttf", "LiberationSerif-Bold.ttf",
          "LiberationSerif-Regular.ttf", "LiberationSansNarrow-Bold.ttf",
          "LiberationSansNarrow-Regular.ttf")
_SUIT_CHARS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


@dataclass(frozen=True)
class IndexRead:
    """code read, confidence 0..1, rot: quarter turns (0, 90, 180, 270) from the quad given
    (corners clockwise, 0-1 a short side) to the card's printed top-left corner."""

    code: str
    confidence: float
    rot: int


# ------------------------------------------------------------------ templates

def _tight(mask: np.ndarray) -> np.ndarray | None:
    ys, xs = np.nonzero(mask > 0.5 * mask.max()) if mask.max() > 0 else ((), ())
    if len(ys) == 0:
        return None
    return mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def _vec(glyph: np.ndarray, w: int, h: int) -> np.ndarray:
    """Zero-mean, unit-norm picture of a glyph stretched to w x h (float ink 0..1 in, any size).

    The glyph gets a blank border of 15 % of its height first, so a plain bar ("1") still has a
    shape, and a narrow glyph keeps some of its narrowness.
    """
    p = max(1, round(0.15 * glyph.shape[0]))
    g = cv2.copyMakeBorder(glyph.astype(np.float32), p, p, p, p, cv2.BORDER_CONSTANT, value=0.0)
    g = cv2.resize(g, (w, h), interpolation=cv2.INTER_AREA)
    g = cv2.GaussianBlur(g, (3, 3), 0.7).reshape(-1)
    g = g - g.mean()
    n = float(np.linalg.norm(g))
    return g / n if n > 1e-6 else g


FONT_PACKAGES = "fonts-dejavu-core fonts-liberation"  # Debian's packages of _FONTS


@lru_cache(maxsize=1)
def missing_fonts() -> tuple[str, ...]:
    """The fonts of _FONTS that Pillow cannot open here. Their glyphs are what an ordinary deck's
    rank is read against: without Liberation, the built-in deck found 23 of the real photos' 24
    cards instead of 24 (and OpenCV 5 draws all its own font faces alike)."""
    try:
        from PIL import ImageFont
    except ImportError:  # pragma: no cover - Pillow is a dependency
        return _FONTS
    missing = []
    for name in _FONTS:
        try:
            ImageFont.truetype(name, 64)
        except OSError:
            missing.append(name)
    return tuple(missing)


def _pil_glyphs(text: str) -> list[np.ndarray]:
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:  # pragma: no cover - Pillow is a dependency
        return []
    out = []
    for name in _FONTS:
        try:
            f = ImageFont.truetype(name, 64)
        except OSError:
            continue
        img = Image.new("L", (64 * (len(text) + 1), 110), 0)
        ImageDraw.Draw(img).text((10, 10), text, font=f, fill=255)
        g = _tight(np.asarray(img, np.float32) / 255.0)
        if g is not None:
            out.append(g)
    return out


def _hershey_glyphs(text: str) -> list[np.ndarray]:
    out = []
    for face in (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
                 cv2.FONT_HERSHEY_TRIPLEX):
        for thick in (3, 6):
            img = np.zeros((120, 70 * (len(text) + 1)), np.uint8)
            cv2.putText(img, text, (10, 95), face, 2.5, 255, thick, cv2.LINE_AA)
            g = _tight(img.astype(np.float32) / 255.0)
            if g is not None:
                out.append(g)
    return out


def _tight_ten(ones: list[np.ndarray], zeros: list[np.ndarray]) -> list[np.ndarray]:
    """'10' set tight (many decks squeeze the two digits together)."""
    out = []
    for a, b in zip(ones, zeros, strict=False):
        h = max(a.shape[0], b.shape[0])
        pa = np.zeros((h, a.shape[1]), np.float32)
        pa[h - a.shape[0]:] = a
        pb = np.zeros((h, b.shape[1]), np.float32)
        pb[h - b.shape[0]:] = b
        gap = np.zeros((h, max(1, h // 12)), np.float32)
        out.append(np.hstack([pa, gap, pb]))
    return out


@dataclass
class _Bank:
    labels: list[str]
    mat: np.ndarray  # (n, d) unit vectors
    aspect: np.ndarray  # (n,) log(w / h)
    ids: np.ndarray | None = None  # (n,) index of each row's label in names (rows sorted by it)
    names: tuple[str, ...] = ()
    starts: np.ndarray | None = None  # (len(names),) first row of each label


def _bank(items: list[tuple[str, np.ndarray]], w: int, h: int) -> _Bank:
    labels, rows, asp = [], [], []
    k = np.ones((3, 3), np.uint8)
    for label, g in items:
        for v in (g, cv2.dilate(g, k, iterations=2), cv2.erode(g, k, iterations=1)):
            t = _tight(v)
            if t is None or t.shape[0] < 4:
                continue
            labels.append(label)
            rows.append(_vec(t, w, h))
            asp.append(np.log(t.shape[1] / t.shape[0]))
    names = tuple(dict.fromkeys(labels))
    ids = np.array([names.index(lb) for lb in labels], np.int64)
    order = np.argsort(ids, kind="stable")  # rows grouped by label: a fast best-per-label
    starts = np.searchsorted(ids[order], np.arange(len(names)))
    return _Bank([labels[i] for i in order], np.ascontiguousarray(np.stack(rows)[order], np.float32),
                 np.array(asp, np.float32)[order], ids[order], names, starts)


@lru_cache(maxsize=1)
def rank_bank() -> _Bank:
    items: list[tuple[str, np.ndarray]] = []
    for r in RANKS:
        for g in _pil_glyphs(r) + _hershey_glyphs(r):
            items.append((r, g))
    tens = _tight_ten(_pil_glyphs("1") + _hershey_glyphs("1"), _pil_glyphs("0") + _hershey_glyphs("0"))
    items += [("10", g) for g in tens]
    # condensed "10"s (common on real decks): the two digits squeezed into one digit's width
    items += [("10", cv2.resize(g, (max(2, round(g.shape[0] * 0.65)), g.shape[0]),
                                interpolation=cv2.INTER_AREA)) for g in tens]
    return _bank(items, GW, GH)


@lru_cache(maxsize=1)
def digit_bank() -> _Bank:
    """The two digits of a "10" read one by one, with the other ranks' glyphs as competitors."""
    items: list[tuple[str, np.ndarray]] = []
    for r in ("1", "0", "A", "2", "3", "4", "5", "6", "7", "8", "9", "J", "Q", "K"):
        for g in _pil_glyphs(r) + _hershey_glyphs(r):
            items.append((r, g))
    return _bank(items, GW, GH)


def _vector_suits() -> list[tuple[str, np.ndarray]]:
    from vision.decks.base import Canvas
    from vision.decks.glyphs import suit

    out = []
    for s in SUITS:
        c = Canvas(8.0, background=(0, 0, 0))
        suit(c, s, 31.75, 44.45, 30.0, (255, 255, 255))
        g = _tight(np.asarray(c.img, np.float32)[:, :, 0] / 255.0)
        if g is not None:
            out.append((s, g))
    return out


@lru_cache(maxsize=2)
def suit_bank(turned: bool = False) -> _Bank:
    """Suit shapes; turned=True adds them upside down too (pips in the lower half of a card)."""
    items: list[tuple[str, np.ndarray]] = []
    for s, ch in _SUIT_CHARS.items():
        for g in _pil_glyphs(ch)[:6]:  # DejaVu carries the suit symbols
            items.append((s, g))
    items += _vector_suits()
    if turned:
        items += [(s, g[::-1, ::-1].copy()) for s, g in items]
    return _bank(items, SW, SH)


def prepare() -> None:
    """Build every glyph bank and the suit-shape model now. Each is built on first use, and the
    first use may be mid-game: the digit bank is first needed by the first ten played (0.2 s of
    CPU here, about four times that on a Pi 4, that frame held up)."""
    rank_bank()
    digit_bank()
    suit_bank(False)
    suit_bank(True)
    suit_shapes.model()


def _classify(glyph: np.ndarray, bank: _Bank, w: int, h: int, labels: tuple[str, ...],
              aspect_weight: float) -> dict[str, float]:
    """Best score per label: correlation minus a penalty for a different aspect ratio."""
    v = _vec(glyph, w, h)
    a = np.log(glyph.shape[1] / glyph.shape[0])
    sc = bank.mat @ v.astype(np.float32) - np.float32(aspect_weight) * np.abs(bank.aspect - np.float32(a))
    best = np.maximum.reduceat(sc, bank.starts)
    return {lb: float(best[bank.names.index(lb)]) if lb in bank.names else -1.0 for lb in labels}


# ------------------------------------------------------------------ image analysis

def _rectify(image: np.ndarray, q: np.ndarray) -> np.ndarray:
    from vision.identify import rectify

    w, h = round(CARD_W_MM * S), round(CARD_H_MM * S)
    return rectify(image, q, w, h)


def _white(card: np.ndarray) -> np.ndarray:
    """Per-channel paper white: a high percentile of the card's inner area."""
    m = int(3 * S)
    inner = card[m:-m:2, m:-m:2].reshape(-1, 3).astype(np.float32)
    return np.maximum(np.percentile(inner, 90, axis=0), 25.0)


@dataclass(frozen=True)
class _Blob:
    x0: int
    y0: int
    x1: int
    y1: int
    area: int
    label: int

    @property
    def w(self) -> int:
        return self.x1 - self.x0

    @property
    def h(self) -> int:
        return self.y1 - self.y0


def _blobs(mask: np.ndarray, min_area: float) -> tuple[np.ndarray, list[_Blob]]:
    n, lab, st, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    out = []
    for i in range(1, n):
        x, y, w, h, a = st[i]
        if a >= min_area:
            out.append(_Blob(int(x), int(y), int(x + w), int(y + h), int(a), i))
    return lab, out


def _grain(card: np.ndarray, white: np.ndarray, cam_px: float) -> float:
    """How grainy the picture is, relative to its paper: what is finer than a camera pixel or
    two in its darkest channel, where that is least (a fifth of the card, most of it plain
    paper: print is drawn in few places, grain lies everywhere). A card's paper, even in dim
    light, is far above its grain (on the identify benchmark's cards 0.012 median, 0.04 at most,
    the gate begins at GRAIN[0]); a dark
    patch with no print (a sleeve in shadow), normalised on its own near-black channel, is all
    grain, in which noise makes index marks and pips (read as the ace of spades, fully surely)."""
    b, g, r = cv2.split(cv2.resize(card, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_NEAREST).astype(np.float32))
    lo = cv2.min(cv2.min(b / np.float32(white[0]), g / np.float32(white[1])), r / np.float32(white[2]))
    px = max(cam_px / 2, 0.5)  # camera px in this half-size picture
    hp = lo - cv2.GaussianBlur(lo, (0, 0), px)
    local = cv2.GaussianBlur(hp * hp, (0, 0), 2 * px)
    return float(np.sqrt(np.percentile(local, 20)))


def _ink(card: np.ndarray, white: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(darkness 0..1 relative to the local paper, redness) per pixel."""
    b, g, r = cv2.split(card.astype(np.float32))
    b, g, r = b / np.float32(white[0]), g / np.float32(white[1]), r / np.float32(white[2])
    lo = cv2.min(cv2.min(b, g), r)  # cv2 per-channel ops: numpy's reduce over axis 2 is slow
    # the local paper level: a 7 mm max filter (wider than any index stroke), worked out at
    # quarter resolution since it is smooth anyway
    h, w = lo.shape
    small = cv2.resize(lo, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
    k = max(3, int(7 * S / 4) | 1)
    bg = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    bg = cv2.blur(bg, (3, 3))
    bg = cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)
    dark = np.clip(1.0 - lo / np.maximum(bg, 0.2), 0.0, 1.0)
    red = r - cv2.max(b, g)
    return dark, red


@dataclass(frozen=True)
class _CornerRead:
    ranks: dict[str, float]
    suits: dict[str, float]
    red: float  # ink redness of the index (> 0.15 red)
    quality: float  # how index-like the layout looked (0..1)
    shapes: tuple[np.ndarray, ...] = ()  # suit_shapes log-likelihoods of its suit symbol(s)
    suit_px: float = 0.0  # its suit symbol's height in camera px (0: none found)


def _read_corner(dark: np.ndarray, red: np.ndarray, cam_px: float) -> _CornerRead | None:
    """Read the index in the top-left corner of an upright card picture (cam_px: the
    picture's pixels per camera pixel)."""
    zw, zh = int(ZONE_W_MM * S), int(ZONE_H_MM * S)
    d = dark[:zh, :zw]
    rr = red[:zh, :zw]
    thr, _ = cv2.threshold((d * 255).astype(np.uint8), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    thr = float(np.clip(thr / 255.0, 0.22, 0.5))
    mask = d > thr
    lab, blobs = _blobs(mask, 0.6 * S * S)
    edge = int(0.6 * S)
    blobs = [b for b in blobs if b.x0 > edge and b.y0 > edge and b.x1 < zw - 1 and b.y1 < zh - 1]
    ranks = [b for b in blobs if 2.5 * S <= b.h <= 12 * S and b.w <= 12 * S and b.x0 < 8 * S]
    if not ranks:
        return None
    top = min(ranks, key=lambda b: b.y0)
    parts = [b for b in blobs if min(b.y1, top.y1) - max(b.y0, top.y0) > 0.5 * min(b.h, top.h)
             and b.h > 0.5 * top.h and b.x0 < top.x1 + 2 * S and b.x1 > top.x0 - 2 * S]
    x0, y0 = min(b.x0 for b in parts), min(b.y0 for b in parts)
    x1, y1 = max(b.x1 for b in parts), max(b.y1 for b in parts)
    if x1 - x0 > 13 * S:
        return None
    glyph = np.isin(lab[y0:y1, x0:x1], [b.label for b in parts]).astype(np.float32)
    rank_sc = _classify(glyph, rank_bank(), GW, GH, RANKS, 0.35)
    if len(parts) == 2:  # two glyphs side by side: a "10" when they read as "1" and "0"
        left, right = sorted(parts, key=lambda b: b.x0)
        if left.x1 <= right.x0 + 1:
            sl = _classify((lab[left.y0:left.y1, left.x0:left.x1] == left.label).astype(np.float32),
                           digit_bank(), GW, GH, ("1", "0", "A", "J", "7"), 0.35)
            sr = _classify((lab[right.y0:right.y1, right.x0:right.x1] == right.label).astype(np.float32),
                           digit_bank(), GW, GH, ("1", "0", "Q", "9", "6", "8"), 0.35)
            if sl["1"] >= max(sl.values()) - 0.05 and sr["0"] >= max(sr.values()) - 0.02:
                rank_sc["10"] = max(rank_sc["10"], (sl["1"] + sr["0"]) / 2)
    cx = (x0 + x1) / 2
    below = [b for b in blobs if b.y0 >= y1 - 0.5 * S and b.y0 < y1 + 7 * S and 1.8 * S <= b.h <= 9 * S
             and b.w <= 9 * S and abs((b.x0 + b.x1) / 2 - cx) < 4 * S]
    suit_sc = {s: -1.0 for s in SUITS}
    ink_lbls = [b.label for b in parts]
    quality = 0.5
    shapes: tuple[np.ndarray, ...] = ()
    suit_px = 0.0
    if below:
        sb = min(below, key=lambda b: b.y0)
        suit_px = sb.h / cam_px
        suit_sc = _classify((lab[sb.y0:sb.y1, sb.x0:sb.x1] == sb.label).astype(np.float32),
                            suit_bank(), SW, SH, SUITS, 0.5)
        ev = suit_shapes.evidence(d, (sb.x0, sb.y0, sb.x1, sb.y1), cam_px)
        shapes = () if ev is None else (ev,)
        ink_lbls.append(sb.label)
        quality = 1.0
    sub = (slice(y0, zh), slice(0, zw))
    inkpx = np.isin(lab[sub], ink_lbls)
    redness = float(np.median(rr[sub][inkpx])) if inkpx.any() else 0.0
    return _CornerRead(rank_sc, suit_sc, redness, quality, shapes, suit_px)


@dataclass(frozen=True)
class _Pips:
    rank: str | None  # "A".."10", "court" or None
    suits: dict[str, float]
    red: float
    shapes: tuple[np.ndarray, ...] = ()  # suit_shapes log-likelihoods of each pip large enough
    pip_px: float = 0.0  # the pips' height in camera px (their median; 0: none counted)


PIP_SPAN = 0.4  # the pips of a 2 to 10 reach from the top row to the bottom one: this share of the card at least
PIP_CENTRE = 0.12  # ... and centre on the card's middle, within this share of its height


def _pip_layout(pips: list[_Blob], w: int, h: int) -> bool:
    """Do these blobs lie as a number card's pips do? Every deck lays them out alike: an ace's
    in the middle, from the 2 up a top row and a bottom row, the rest between, all balanced
    about the middle. A court card's picture broken into a few blobs, or a card half hidden
    under a pale one (its hidden pips do not count), fails this."""
    cx = np.array([(b.x0 + b.x1) / 2 for b in pips])
    cy = np.array([(b.y0 + b.y1) / 2 for b in pips])
    if abs(float(cx.mean()) - w / 2) > PIP_CENTRE * h or abs(float(cy.mean()) - h / 2) > PIP_CENTRE * h:
        return False
    return len(pips) == 1 or (float(cy.max() - cy.min()) >= PIP_SPAN * h and _mirrored(pips, cx, cy))


PIP_MIRROR = 0.5  # a pip's mirror image must fall within this share of a pip's size of another pip


def _mirrored(pips: list[_Blob], cx: np.ndarray, cy: np.ndarray) -> bool:
    """Is the layout its own mirror image across the card's long axis (every number card's is,
    the 7's odd pip lying on the axis)? A corner's index suit counted as a pip (a quad a few
    millimetres larger than the card moves it out of the index box) has no partner: 8 pips and
    the two index suits would count as a 10."""
    size = float(np.median([max(b.w, b.h) for b in pips]))
    tol = PIP_MIRROR * size
    axis = float(cx.mean())
    mx = 2 * axis - cx
    near = (np.abs(mx[:, None] - cx[None, :]) <= tol) & (np.abs(cy[:, None] - cy[None, :]) <= tol)
    return bool(near.any(axis=1).all())


def _read_pips(dark: np.ndarray, red: np.ndarray, cam_px: float) -> _Pips:
    """Count the pips in the middle of the card (index corners left out), or spot a picture
    (cam_px: the picture's pixels per camera pixel)."""
    h, w = dark.shape
    m = int(2.5 * S)
    mask = np.zeros(dark.shape, bool)
    mask[m:h - m, m:w - m] = dark[m:h - m, m:w - m] > 0.35
    lab, blobs = _blobs(mask, 12 * S * S)
    zw, zh = ZONE_W_MM * S * 0.8, ZONE_H_MM * S * 0.8

    def in_index(b: _Blob) -> bool:
        cx, cy = (b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2
        return (cx < zw and cy < zh) or (cx > w - zw and cy > h - zh)

    # a blob reaching the edge of the searched area is the cloth or a neighbouring card seen
    # through a quad a little larger than the card, never a pip or a court picture; one that is
    # thick (not a rim along the sides) is a hand or a card lying over this one, and the pips it
    # hides cannot be counted
    inner = [b for b in blobs if b.x0 > m and b.y0 > m and b.x1 < w - m - 1 and b.y1 < h - m - 1]
    none = _Pips(None, {s: -1.0 for s in SUITS}, 0.0)
    if any(b.area / max(b.w, b.h, 1) > OCCLUDER_MM * S for b in blobs if b not in inner):
        return none
    blobs = [b for b in inner if not in_index(b)]
    if not blobs:
        return none
    big = max(blobs, key=lambda b: b.w * b.h)
    if big.w > 30 * S and big.h > 35 * S:
        return _Pips("court", none.suits, 0.0)
    areas = np.array([b.area for b in blobs], np.float32)
    med = float(np.median(areas))
    pips = [b for b in blobs if 0.45 * med <= b.area <= 2.2 * med and b.w < 22 * S and b.h < 26 * S]
    n = len(pips)
    if n != len(blobs) or n == 0 or n > 10 or not _pip_layout(pips, w, h):
        return none
    bank = suit_bank(True)
    votes = {s: 0.0 for s in SUITS}
    reds = []
    shapes: list[np.ndarray] = []
    for b in pips:
        g = (lab[b.y0:b.y1, b.x0:b.x1] == b.label).astype(np.float32)
        sc = _classify(g, bank, SW, SH, SUITS, 0.5)
        for s in SUITS:
            votes[s] += sc[s] / n
        reds.append(float(np.median(red[b.y0:b.y1, b.x0:b.x1][g > 0])))
        ev = suit_shapes.evidence(dark, (b.x0, b.y0, b.x1, b.y1), cam_px)
        if ev is not None:
            shapes.append(ev)
    return _Pips(PIP_RANK[n], votes, float(np.median(reds)), tuple(shapes),
                 float(np.median([b.h for b in pips])) / cam_px)


# ------------------------------------------------------------------ combining

def _margin(scores: dict[str, float]) -> tuple[str, float, float]:
    order = sorted(scores.items(), key=lambda kv: -kv[1])
    return order[0][0], order[0][1], order[0][1] - order[1][1]


def _decide(cr: _CornerRead, pips: _Pips) -> tuple[str, float]:
    """Combine one corner's read with the pips into (code, confidence).

    The rank glyph alone is trusted only with a clear margin; the pips (their number, or a
    court picture) are an independent witness: agreement makes the read sure, disagreement
    makes it doubtful.
    """
    ranks = cr.ranks
    rank, r_best, r_margin = _margin(ranks)
    court = {r: ranks[r] for r in ("J", "Q", "K")}
    if pips.rank == "court" and max(court.values()) < r_best - COURT_GLYPH:
        # a picture in the middle, but a number in the corner: a hand or a card lying over the
        # pips looks like a court picture (an arm over a four of diamonds, its 4 in view, was
        # read as the queen, whose glyph was not among the six likeliest): the glyph alone tells
        pips = replace(pips, rank=None)
    if pips.rank == "court":
        rank, r_best, r_margin = _margin(court)
        conf_r = float(np.clip(r_margin / 0.06, 0, 1))
    elif pips.rank is not None:
        if pips.rank == rank or ranks[pips.rank] >= r_best - 0.03:
            rank = pips.rank
            conf_r = 1.0
        else:
            conf_r = float(np.clip((r_margin - 0.1) / 0.1, 0, 1)) * 0.6
    else:  # the rank glyph alone, without a witness: only where the index is not tiny
        conf_r = float(np.clip(r_margin / 0.12, 0, 1)) * 0.9
        conf_r *= float(np.clip((cr.suit_px - ALONE_PX[0]) / (ALONE_PX[1] - ALONE_PX[0]), 0, 1))
    conf_r *= float(np.clip((r_best - 0.45) / 0.15, 0, 1))
    use_pips = pips.rank not in (None, "court")
    is_red = (cr.red + (pips.red if use_pips else cr.red)) / 2 > 0.15
    allowed = RED if is_red else ("S", "C")
    # the suit by the symbols' silhouettes (reliable for hearts against diamonds, not for small
    # spades against clubs) and, where they are large enough, by their grey-level shape
    suits = {s: cr.suits[s] + (pips.suits[s] if use_pips else cr.suits[s]) for s in allowed}
    suit, s_best, s_margin = _margin(suits)
    conf_s = float(np.clip(s_margin / 0.1, 0, 1) * np.clip((s_best / 2 - 0.4) / 0.2, 0, 1))
    if use_pips:
        # the corner's symbol and the pips are two witnesses of one suit: where each favours
        # another suit clearly, their sum is no read of it (a dim four of hearts, blurred: its
        # corner's symbol fitted the diamond better by 0.22, its pips the heart by 0.11, and the
        # sum named the diamond fully surely)
        a, b = allowed
        by_corner, by_pips = cr.suits[a] - cr.suits[b], pips.suits[a] - pips.suits[b]
        if by_corner * by_pips < 0 and min(abs(by_corner), abs(by_pips)) >= WITNESSES_DISAGREE:
            conf_s = 0.0
    # a symbol a few camera pixels high is a blob: any suit's silhouette fits it about as well
    seen_px = max(cr.suit_px, pips.pip_px if use_pips else 0.0)
    conf_s *= float(np.clip((seen_px - SILHOUETTE_PX[0]) / (SILHOUETTE_PX[1] - SILHOUETTE_PX[0]), 0, 1))
    shapes = cr.shapes + (pips.shapes if use_pips else ())
    if shapes:
        # per symbol, how much likelier the one suit than the other; the symbols of one card
        # share its blur and print, so they are not independent witnesses: their mean counts,
        # by the square root of how many agree on it
        a, b = (SUITS.index(s) for s in allowed)
        d = np.array([float(v[a] - v[b]) for v in shapes])
        score = float(d.mean()) * float(np.sqrt(len(d)))
        by_shape, shape_margin = (allowed[0] if score > 0 else allowed[1]), abs(score)
        if by_shape != suit and conf_s >= SILHOUETTE_VETO:  # clear silhouettes against it: a
            conf_s = 0.0  # quad across two cards, or symbols sheared by a quad off the card
        elif shape_margin >= SHAPE_DOUBT:  # the shape decides
            suit, conf_s = by_shape, float(np.clip((shape_margin - SHAPE_DOUBT) / SHAPE_SURE, 0, 1))
        elif by_shape != suit:  # two weak witnesses that disagree
            conf_s = 0.0
    elif not is_red:  # spades and clubs too small to read their shape: silhouettes alone are not enough
        conf_s = min(conf_s, SILHOUETTE_BLACK)
    conf = min(conf_r, conf_s) * cr.quality
    return rank + suit, conf


def read_index(image: np.ndarray, corners: np.ndarray) -> IndexRead | None:
    """Read a real standard card inside corners (4 points clockwise, 0-1 a short side).

    Returns None when no index-like mark is found in any corner.
    """
    q = np.asarray(corners, np.float32).reshape(4, 2)
    best: IndexRead | None = None
    d = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    ratio = (d[0] + d[2]) / max(d[1] + d[3], 1e-6)
    # which pair of sides is the short one: perspective can fool the caller when the quad
    # looks nearly square; a clearly oblong quad is taken as given
    for k in ((0, 1) if ratio > 0.78 else (0,)):
        if best is not None and best.confidence >= 0.95:
            break
        qk = np.roll(q, -k, axis=0)
        card = _rectify(image, qk)
        white = _white(card)
        dark, red = _ink(card, white)
        short = (d[k] + d[(k + 2) % 4]) / 2  # the card's width in camera px
        cam_px = S * CARD_W_MM / max(float(short), 1.0)  # picture px per camera px
        pips = _read_pips(dark, red, cam_px)
        # the index in the top-left, or in the bottom-right (card upside down)
        crs = [_read_corner(dark, red, cam_px), _read_corner(dark[::-1, ::-1], red[::-1, ::-1], cam_px)]
        trust = None  # (worked out only for a read that is at all sure)
        for turn, cr in zip((0, 2), crs, strict=True):
            if cr is None:
                continue
            code, conf = _decide(_with_other_corner(cr, crs[1 - turn // 2]), pips)
            if conf > 0.0:
                if trust is None:
                    trust = float(np.clip((GRAIN[1] - _grain(card, white, cam_px)) / (GRAIN[1] - GRAIN[0]), 0.0, 1.0))
                conf *= trust
            if best is None or conf > best.confidence:
                best = IndexRead(code, round(conf, 4), 90 * ((k + turn) % 4))
    return best


def _with_other_corner(cr: _CornerRead, other: _CornerRead | None) -> _CornerRead:
    """cr with the other corner's suit symbol added to its suit evidence, where the other
    corner reads the same rank: both indices of a card carry its suit, and a court card has no
    pips to add theirs."""
    if not cr.shapes or other is None or not other.shapes:
        return cr
    if _margin(cr.ranks)[0] != _margin(other.ranks)[0]:
        return cr
    return replace(cr, shapes=cr.shapes + other.shapes)
