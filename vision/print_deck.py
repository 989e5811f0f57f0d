"""Printing a deck: a PDF of every card at true size (63.5 x 88.9 mm) with cut marks.

`referee print-deck GAME` calls write_deck. Nine cards per A4 or Letter page (3 x 3), 300 dpi.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from vision.decks import get_deck
from vision.types import CARD_H_MM, CARD_W_MM

DPI = 300
PAGES_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
COLS, ROWS = 3, 3
GAP_MM = 2.0  # between cards, so each has its own cut line
MARK_MM = 4.0  # length of a cut mark


def _mm(v: float) -> int:
    return round(v * DPI / 25.4)


def card_list(deck_name: str) -> list[str]:
    """Every physical card of the deck (codes repeated per copy), in deck order."""
    deck = get_deck(deck_name)
    return [c for c in deck.codes for _ in range(deck.counts.get(c, 1))]


def page_count(deck_name: str) -> int:
    return -(-len(card_list(deck_name)) // (COLS * ROWS))


def write_deck(deck_name: str, out_path: str | Path, paper: str = "a4") -> Path:
    """Write the PDF; returns its path. paper is "a4" or "letter"."""
    paper = paper.lower()
    if paper not in PAGES_MM:
        raise ValueError(f"paper {paper!r} is not known; use one of: {', '.join(PAGES_MM)}")
    deck = get_deck(deck_name)
    pw, ph = PAGES_MM[paper]
    px_per_mm = DPI / 25.4
    grid_w = COLS * CARD_W_MM + (COLS - 1) * GAP_MM
    grid_h = ROWS * CARD_H_MM + (ROWS - 1) * GAP_MM
    x0, y0 = (pw - grid_w) / 2, (ph - grid_h) / 2
    codes = card_list(deck_name)
    faces: dict[str, Image.Image] = {}
    pages: list[Image.Image] = []
    per_page = COLS * ROWS
    for start in range(0, len(codes), per_page):
        page = Image.new("RGB", (_mm(pw), _mm(ph)), "white")
        draw = ImageDraw.Draw(page)
        for i, code in enumerate(codes[start:start + per_page]):
            if code not in faces:
                faces[code] = Image.fromarray(deck.render_face(code, px_per_mm)[:, :, ::-1])
            cx = x0 + (i % COLS) * (CARD_W_MM + GAP_MM)
            cy = y0 + (i // COLS) * (CARD_H_MM + GAP_MM)
            img = faces[code]
            page.paste(img.resize((_mm(CARD_W_MM), _mm(CARD_H_MM))), (_mm(cx), _mm(cy)))
            # cut marks at the four corners, outside the card
            for xx, yy, sx, sy in ((cx, cy, -1, -1), (cx + CARD_W_MM, cy, 1, -1),
                                   (cx, cy + CARD_H_MM, -1, 1), (cx + CARD_W_MM, cy + CARD_H_MM, 1, 1)):
                draw.line([(_mm(xx + sx * 0.5), _mm(yy)), (_mm(xx + sx * (0.5 + MARK_MM)), _mm(yy))],
                          fill="black", width=2)
                draw.line([(_mm(xx), _mm(yy + sy * 0.5)), (_mm(xx), _mm(yy + sy * (0.5 + MARK_MM)))],
                          fill="black", width=2)
        draw.text((_mm(10), _mm(ph - 8)), f"{deck.title} - page {len(pages) + 1} - print at 100 %",
                  fill="grey")
        pages.append(page)
    out = Path(out_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    pages[0].save(out, "PDF", resolution=DPI, save_all=True, append_images=pages[1:])
    return out
