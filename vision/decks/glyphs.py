"""Vector glyphs (suits, shapes, arrows) drawn on a Canvas in millimetres.

Drawn from primitives rather than from font symbols, so decks look the same on every machine.
"""

from __future__ import annotations

import math

from vision.decks.base import Canvas


def suit(c: Canvas, s: str, cx: float, cy: float, size: float, fill) -> None:
    """One suit symbol (S, H, D, C) of height size centred on (cx, cy)."""
    h = size
    if s == "D":
        c.polygon([(cx, cy - h / 2), (cx + 0.37 * h, cy), (cx, cy + h / 2), (cx - 0.37 * h, cy)], fill)
    elif s == "H":
        r = 0.26 * h
        c.ellipse(cx - 0.24 * h, cy - 0.22 * h, r, r, fill)
        c.ellipse(cx + 0.24 * h, cy - 0.22 * h, r, r, fill)
        c.polygon([(cx - 0.49 * h, cy - 0.16 * h), (cx + 0.49 * h, cy - 0.16 * h), (cx, cy + 0.5 * h)], fill)
    elif s == "S":
        r = 0.24 * h
        c.ellipse(cx - 0.23 * h, cy + 0.1 * h, r, r, fill)
        c.ellipse(cx + 0.23 * h, cy + 0.1 * h, r, r, fill)
        c.polygon([(cx - 0.46 * h, cy + 0.04 * h), (cx + 0.46 * h, cy + 0.04 * h), (cx, cy - 0.5 * h)], fill)
        c.polygon([(cx, cy + 0.05 * h), (cx + 0.17 * h, cy + 0.5 * h), (cx - 0.17 * h, cy + 0.5 * h)], fill)
    elif s == "C":
        r = 0.21 * h
        c.ellipse(cx, cy - 0.27 * h, r, r, fill)
        c.ellipse(cx - 0.24 * h, cy + 0.08 * h, r, r, fill)
        c.ellipse(cx + 0.24 * h, cy + 0.08 * h, r, r, fill)
        c.ellipse(cx, cy - 0.02 * h, 0.12 * h, 0.12 * h, fill)
        c.polygon([(cx, cy + 0.0 * h), (cx + 0.16 * h, cy + 0.5 * h), (cx - 0.16 * h, cy + 0.5 * h)], fill)
    else:
        raise ValueError(f"no suit {s!r}")


def regular_polygon(n: int, cx: float, cy: float, r: float, rot: float = -90.0) -> list[tuple[float, float]]:
    return [(cx + r * math.cos(math.radians(rot + 360 * i / n)),
             cy + r * math.sin(math.radians(rot + 360 * i / n))) for i in range(n)]


def star(cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45) -> list[tuple[float, float]]:
    pts = []
    for i in range(points * 2):
        rr = r if i % 2 == 0 else r * inner
        a = math.radians(-90 + 180 * i / points)
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


def shape(c: Canvas, name: str, cx: float, cy: float, r: float, fill) -> None:
    """A named shape of radius r: circle, square, triangle, star, diamond, hexagon, heart, cross."""
    if name == "circle":
        c.ellipse(cx, cy, r, r, fill)
    elif name == "square":
        c.rect(cx - 0.85 * r, cy - 0.85 * r, cx + 0.85 * r, cy + 0.85 * r, fill)
    elif name == "triangle":
        c.polygon(regular_polygon(3, cx, cy + 0.2 * r, 1.15 * r), fill)
    elif name == "star":
        c.polygon(star(cx, cy + 0.08 * r, 1.1 * r), fill)
    elif name == "diamond":
        c.polygon([(cx, cy - r), (cx + 0.75 * r, cy), (cx, cy + r), (cx - 0.75 * r, cy)], fill)
    elif name == "hexagon":
        c.polygon(regular_polygon(6, cx, cy, r, rot=0), fill)
    elif name == "heart":
        suit(c, "H", cx, cy, 2 * r, fill)
    elif name == "cross":
        w = 0.36 * r
        c.rect(cx - w, cy - r, cx + w, cy + r, fill)
        c.rect(cx - r, cy - w, cx + r, cy + w, fill)
    elif name == "moon":
        c.ellipse(cx, cy, r, r, fill)
        c.ellipse(cx + 0.45 * r, cy - 0.25 * r, 0.8 * r, 0.8 * r, (255, 255, 255))
    elif name == "bolt":
        c.polygon([(cx + 0.2 * r, cy - r), (cx - 0.6 * r, cy + 0.15 * r), (cx - 0.05 * r, cy + 0.15 * r),
                   (cx - 0.25 * r, cy + r), (cx + 0.6 * r, cy - 0.2 * r), (cx + 0.05 * r, cy - 0.2 * r)], fill)
    else:
        raise ValueError(f"no shape {name!r}")


def arrows_reverse(c: Canvas, cx: float, cy: float, r: float, fill) -> None:
    """Two curved arrows chasing each other: the 'reverse' sign."""
    for rot in (0, 180):
        pts = []
        for i in range(13):
            a = math.radians(rot + 20 + i * 11)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        c.line(pts, fill, width_mm=0.22 * r)
        a = math.radians(rot + 20 + 12 * 11)
        tip = (cx + r * math.cos(a + 0.35), cy + r * math.sin(a + 0.35))
        b1 = (cx + (r - 0.35 * r) * math.cos(a), cy + (r - 0.35 * r) * math.sin(a))
        b2 = (cx + (r + 0.35 * r) * math.cos(a), cy + (r + 0.35 * r) * math.sin(a))
        c.polygon([tip, b1, b2], fill)
