"""The standard 52-card deck plus joker, drawn like an ordinary deck (index in two corners)."""

from __future__ import annotations

from vision.decks.base import Canvas, Deck, patterned_back
from vision.decks.glyphs import shape, star, suit

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
RED_SUITS = ("H", "D")
JOKER = "JK"
CODES = tuple(r + s for s in SUITS for r in RANKS) + (JOKER,)

INK_BLACK = (20, 20, 20)
INK_RED = (200, 20, 30)

# Pip positions (x, y) in mm for the number cards, on the classic three-column grid.
_COLS = (19.0, 31.75, 44.5)
_ROWS = (22.0, 33.0, 44.45, 55.9, 66.9)
_PIPS: dict[str, list[tuple[float, float]]] = {
    "A": [(31.75, 44.45)],
    "2": [(31.75, 22), (31.75, 66.9)],
    "3": [(31.75, 22), (31.75, 44.45), (31.75, 66.9)],
    "4": [(19, 22), (44.5, 22), (19, 66.9), (44.5, 66.9)],
    "5": [(19, 22), (44.5, 22), (31.75, 44.45), (19, 66.9), (44.5, 66.9)],
    "6": [(19, 22), (44.5, 22), (19, 44.45), (44.5, 44.45), (19, 66.9), (44.5, 66.9)],
    "7": [(19, 22), (44.5, 22), (31.75, 33.2), (19, 44.45), (44.5, 44.45), (19, 66.9), (44.5, 66.9)],
    "8": [(19, 22), (44.5, 22), (31.75, 33.2), (19, 44.45), (44.5, 44.45), (31.75, 55.7), (19, 66.9),
          (44.5, 66.9)],
    "9": [(19, 22), (44.5, 22), (19, 37), (44.5, 37), (31.75, 44.45), (19, 52), (44.5, 52), (19, 66.9),
          (44.5, 66.9)],
    "10": [(19, 22), (44.5, 22), (31.75, 29.5), (19, 37), (44.5, 37), (19, 52), (44.5, 52),
           (31.75, 59.4), (19, 66.9), (44.5, 66.9)],
}


def ink(code: str) -> tuple[int, int, int]:
    return INK_RED if code[-1] in RED_SUITS else INK_BLACK


def paint_face(c: Canvas, code: str) -> None:
    if code == JOKER:
        c.text(31.75, 30, "JOKER", 8, INK_RED, max_w_mm=40)
        c.polygon(star(31.75, 52, 14), INK_BLACK)
        for x, y in ((7, 10), (56.5, 78.9)):
            c.text(x, y, "JK", 6, INK_RED)
        return
    rank, s = code[:-1], code[-1]
    col = ink(code)
    # corner index: rank above suit, 8 mm tall so it is ~13 px on the overhead camera
    c.text(7.6, 9.0, rank, 7.5, col, max_w_mm=11)
    suit(c, s, 7.6, 19.5, 6.5, col)
    c.paste_rotated_copy_of_corner(14.0, 24.5)
    if rank in _PIPS:
        for x, y in _PIPS[rank]:
            size = 16.0 if rank == "A" else 9.5
            suit(c, s, x, y, size, col)
    else:
        # court cards: a framed panel with a big letter and a suit, easy to tell apart at a glance
        c.rect(15, 14, 48.5, 74.9, fill=(250, 236, 200), radius=2, outline=col, width_mm=0.8)
        c.text(31.75, 34, rank, 20, col)
        suit(c, s, 31.75, 60, 14, col)
        shape(c, "circle", 31.75, 47, 1.5, col)


def make_standard() -> Deck:
    counts = {JOKER: 2}
    return Deck("standard", CODES, ("red", "blue"), paint_face, patterned_back, counts=counts,
                title="Standard 52 + jokers", kind="standard")
