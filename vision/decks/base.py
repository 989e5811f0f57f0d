"""The Deck value: card codes, back colours and the painters that draw faces and backs.

Every deck of the project draws its cards with the same small toolkit (a white card with a white
margin, big colour fields, bold numerals and an index repeated in two opposite corners) so that
the camera finds every card by its white outline and reads it even when half of it is covered.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from vision.types import CARD_H_MM, CARD_W_MM


class UnknownDeckError(ValueError):
    """A deck name that is neither built in nor enrolled."""


class UnknownCardError(ValueError):
    """A card code that the deck does not have."""


class UnknownBackError(ValueError):
    """A back colour that the deck does not have."""


# RGB colours used by the project's decks: saturated, far apart in hue, readable when printed.
PALETTE: dict[str, tuple[int, int, int]] = {
    "red": (214, 38, 38),
    "blue": (30, 86, 204),
    "green": (24, 150, 62),
    "yellow": (242, 190, 18),
    "purple": (128, 48, 168),
    "orange": (244, 118, 22),
    "black": (20, 20, 20),
    "white": (255, 255, 255),
    "grey": (120, 120, 120),
    "pink": (232, 86, 160),
    "teal": (0, 150, 150),
    "brown": (130, 80, 40),
}

MARGIN_MM = 3.0  # white border every card keeps, so its outline stands out on any cloth

FacePainter = Callable[["Canvas", str], None]
BackPainter = Callable[["Canvas", str], None]


def card_size_px(px_per_mm: float) -> tuple[int, int]:
    """Card (width, height) in pixels at this resolution."""
    return max(8, round(CARD_W_MM * px_per_mm)), max(11, round(CARD_H_MM * px_per_mm))


@lru_cache(maxsize=64)
def font(size_px: int, bold: bool = True) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans (on every Debian/Raspberry Pi OS) or Pillow's bundled font."""
    size_px = max(6, int(size_px))
    for name in (("DejaVuSans-Bold.ttf", "DejaVuSans.ttf") if bold else ("DejaVuSans.ttf",)):
        try:
            return ImageFont.truetype(name, size_px)
        except OSError:
            continue
    return ImageFont.load_default(size=size_px)


class Canvas:
    """A card-sized Pillow drawing surface addressed in millimetres (origin top-left)."""

    def __init__(self, px_per_mm: float, background: tuple[int, int, int] = (255, 255, 255)):
        self.s = px_per_mm
        self.w, self.h = card_size_px(px_per_mm)
        self.img = Image.new("RGB", (self.w, self.h), background)
        self.d = ImageDraw.Draw(self.img)

    def px(self, v: float) -> int:
        return round(v * self.s)

    def rect(self, x0: float, y0: float, x1: float, y1: float, fill, radius: float = 0.0,
             outline=None, width_mm: float = 0.0) -> None:
        box = (self.px(x0), self.px(y0), self.px(x1) - 1, self.px(y1) - 1)
        w = max(1, self.px(width_mm)) if outline is not None else 0
        if radius > 0:
            self.d.rounded_rectangle(box, radius=self.px(radius), fill=fill, outline=outline, width=w)
        else:
            self.d.rectangle(box, fill=fill, outline=outline, width=w)

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, fill, outline=None,
                width_mm: float = 0.0) -> None:
        box = (self.px(cx - rx), self.px(cy - ry), self.px(cx + rx), self.px(cy + ry))
        w = max(1, self.px(width_mm)) if outline is not None else 0
        self.d.ellipse(box, fill=fill, outline=outline, width=w)

    def polygon(self, pts: list[tuple[float, float]], fill) -> None:
        self.d.polygon([(self.px(x), self.px(y)) for x, y in pts], fill=fill)

    def line(self, pts: list[tuple[float, float]], fill, width_mm: float) -> None:
        self.d.line([(self.px(x), self.px(y)) for x, y in pts], fill=fill,
                    width=max(1, self.px(width_mm)), joint="curve")

    def text(self, cx: float, cy: float, s: str, height_mm: float, fill,
             underline: bool = False, bold: bool = True, max_w_mm: float | None = None) -> None:
        """Text centred on (cx, cy) whose capital height is height_mm (shrunk to max_w_mm)."""
        size = max(6, self.px(height_mm * 1.37))
        f = font(size, bold)
        x0, y0, x1, y1 = self.d.textbbox((0, 0), s, font=f)
        if max_w_mm is not None and (x1 - x0) > self.px(max_w_mm):
            size = max(6, int(size * self.px(max_w_mm) / (x1 - x0)))
            f = font(size, bold)
            x0, y0, x1, y1 = self.d.textbbox((0, 0), s, font=f)
        tx = self.px(cx) - (x0 + x1) / 2
        ty = self.px(cy) - (y0 + y1) / 2
        self.d.text((tx, ty), s, font=f, fill=fill)
        if underline:
            uw = (x1 - x0) * 0.8
            uy = self.px(cy) + (y1 - y0) / 2 + max(1, self.px(height_mm * 0.12))
            self.d.line([(self.px(cx) - uw / 2, uy), (self.px(cx) + uw / 2, uy)], fill=fill,
                        width=max(1, self.px(height_mm * 0.12)))

    def paste_rotated_copy_of_corner(self, w_mm: float, h_mm: float) -> None:
        """Copy the top-left index box, turned 180 degrees, into the bottom-right corner."""
        bw, bh = self.px(w_mm), self.px(h_mm)
        box = self.img.crop((0, 0, bw, bh)).rotate(180)
        self.img.paste(box, (self.w - bw, self.h - bh))

    def to_bgr(self) -> np.ndarray:
        return np.ascontiguousarray(np.asarray(self.img)[:, :, ::-1])


class Deck:
    """A set of card faces with their codes and the colours their backs come in.

    codes are the distinct faces (two identical jokers share one code); counts says how many
    physical copies of each a printed deck holds.
    """

    def __init__(self, name: str, codes: tuple[str, ...], back_colours: tuple[str, ...],
                 face_painter: FacePainter, back_painter: BackPainter,
                 counts: dict[str, int] | None = None, title: str | None = None,
                 kind: str = "designed") -> None:
        self.name = name
        self.codes = tuple(codes)
        self.back_colours = tuple(back_colours)
        self.counts = {c: (counts or {}).get(c, 1) for c in self.codes}
        self.title = title or name
        # "designed": faces are our own renders; "standard": real decks must also be read by their
        # corner index; "enrolled": faces are rectified photos.
        self.kind = kind
        self._face_painter = face_painter
        self._back_painter = back_painter
        self._code_set = frozenset(self.codes)
        self._cache: dict[tuple[str, str, float], np.ndarray] = {}

    def __repr__(self) -> str:
        return f"Deck({self.name!r}, {len(self.codes)} codes, backs={self.back_colours})"

    def check_code(self, code: str) -> str:
        if code not in self._code_set:
            shown = ", ".join(self.codes[:60])
            raise UnknownCardError(
                f"card {code!r} is not in deck {self.name!r}; its codes are: {shown}"
                " (see docs/decks.md)")
        return code

    def render_face(self, code: str, px_per_mm: float = 8.0) -> np.ndarray:
        """BGR uint8 picture of the face, CARD_W_MM x CARD_H_MM at px_per_mm (a copy)."""
        self.check_code(code)
        key = ("F", code, round(float(px_per_mm), 4))
        img = self._cache.get(key)
        if img is None:
            canvas = Canvas(px_per_mm)
            self._face_painter(canvas, code)
            img = canvas.to_bgr()
            img.setflags(write=False)
            if len(self._cache) < 4096:
                self._cache[key] = img
        return img.copy()

    def render_back(self, colour: str, px_per_mm: float = 8.0) -> np.ndarray:
        """BGR uint8 picture of the back in one of back_colours."""
        if colour not in self.back_colours:
            raise UnknownBackError(
                f"back colour {colour!r} is not in deck {self.name!r}; "
                f"its back colours are: {', '.join(self.back_colours)}")
        key = ("B", colour, round(float(px_per_mm), 4))
        img = self._cache.get(key)
        if img is None:
            canvas = Canvas(px_per_mm)
            self._back_painter(canvas, colour)
            img = canvas.to_bgr()
            img.setflags(write=False)
            self._cache[key] = img
        return img.copy()


def rgb(name: str) -> tuple[int, int, int]:
    return PALETTE[name]


def lighten(c: tuple[int, int, int], f: float) -> tuple[int, int, int]:
    """Mix a colour with white (f=0 unchanged, f=1 white)."""
    return tuple(int(round(v + (255 - v) * f)) for v in c)  # type: ignore[return-value]


def patterned_back(canvas: Canvas, colour: str) -> None:
    """The shared back design: white margin, a solid colour field with a light lattice.

    The field is large and uniform so that its hue (the owner's colour) reads at any angle.
    """
    c = rgb(colour)
    m = MARGIN_MM
    canvas.rect(0, 0, CARD_W_MM, CARD_H_MM, fill=c)
    light = lighten(c, 0.3)
    for i in range(-12, 12):
        x = i * 7.0
        canvas.line([(x, 0), (x + 90, 90)], fill=light, width_mm=0.7)
        canvas.line([(x + 90, 0), (x, 90)], fill=light, width_mm=0.7)
    canvas.rect(m + 2.5, m + 2.5, CARD_W_MM - m - 2.5, CARD_H_MM - m - 2.5, fill=None,
                radius=2.0, outline=(255, 255, 255), width_mm=0.8)
    canvas.ellipse(CARD_W_MM / 2, CARD_H_MM / 2, 12, 12, fill=c, outline=(255, 255, 255),
                   width_mm=1.2)
    white_margin(canvas)


def white_margin(canvas: Canvas, radius_mm: float = 3.0) -> None:
    """Paint the white border (with rounded inner corners) over whatever was drawn."""
    m = MARGIN_MM
    canvas.rect(0, 0, CARD_W_MM, CARD_H_MM, fill=None, outline=(255, 255, 255), width_mm=m)
    # round the inner corners of the coloured field
    r = radius_mm
    for cx, cy, sx, sy in ((m, m, 1, 1), (CARD_W_MM - m, m, -1, 1), (m, CARD_H_MM - m, 1, -1),
                           (CARD_W_MM - m, CARD_H_MM - m, -1, -1)):
        x0, y0 = min(cx, cx + sx * r), min(cy, cy + sy * r)
        tmp = Image.new("L", (canvas.px(r) + 1, canvas.px(r) + 1), 255)
        ImageDraw.Draw(tmp).pieslice((0 if sx > 0 else -canvas.px(r), 0 if sy > 0 else -canvas.px(r),
                                      canvas.px(2 * r) if sx > 0 else canvas.px(r),
                                      canvas.px(2 * r) if sy > 0 else canvas.px(r)),
                                     0, 360, fill=0)
        canvas.img.paste((255, 255, 255), (canvas.px(x0), canvas.px(y0)), tmp)
