"""The five games' own decks, designed to be read by the overhead camera.

Shared design rules (see docs/decks.md): a 3 mm white margin (the outline the detector finds), a
large colour field or glyph that identifies the card at 100 x 140 px, and the index (the code in
short) printed in the top-left corner and again, turned, in the bottom-right corner, so that a card
half covered by another still shows one full index. 6 and 9 are underlined.
"""

from __future__ import annotations

from vision.decks.base import Canvas, Deck, lighten, patterned_back, rgb, white_margin
from vision.decks.glyphs import arrows_reverse, shape, star

W, H = 63.5, 88.9
WHITE = (255, 255, 255)
BLACK = (20, 20, 20)
SIX_COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")


BACK_SHAPES = {"red": "circle", "blue": "square", "green": "triangle", "yellow": "star",
               "purple": "diamond", "orange": "hexagon"}


BACK_SHAPE_R = 13.0  # mm: large enough that a star and a hexagon still differ under a blurred camera


def game_back(c: Canvas, colour: str) -> None:
    """The shared back with a white shape in its middle that differs per back colour, so that two
    backs differ in shape as well as in hue (hues shift under warm or dim light)."""
    patterned_back(c, colour)
    shape(c, BACK_SHAPES.get(colour, "circle"), W / 2, H / 2, BACK_SHAPE_R, WHITE)


def _num(c: Canvas, cx: float, cy: float, label: str, h: float, fill, max_w: float | None = None) -> None:
    c.text(cx, cy, label, h, fill, underline=label in ("6", "9"), max_w_mm=max_w)


def _index(c: Canvas, label: str, fill, h: float = 9.0, glyph=None, box=(15.5, 27.0)) -> None:
    """Index in the top-left corner, copied turned into the bottom-right corner."""
    _num(c, 9.2, 10.0, label, h, fill, max_w=11.5)
    if glyph is not None:
        glyph(c, 9.2, 21.5)
    c.paste_rotated_copy_of_corner(*box)


# ---------------------------------------------------------------- Wackee Six
WS_COLOURS = {"R": "red", "B": "blue", "G": "green", "Y": "yellow"}
WS_CODES = tuple(f"{k}{n}" for k in WS_COLOURS for n in range(1, 14)) + ("WILD",)


def _wackee_face(c: Canvas, code: str) -> None:
    if code == "WILD":
        quads = (("red", 3, 3), ("blue", W / 2, 3), ("green", 3, H / 2), ("yellow", W / 2, H / 2))
        for name, x, y in quads:
            c.rect(x, y, x + W / 2 - 3, y + H / 2 - 3, fill=rgb(name))
        c.ellipse(W / 2, H / 2, 24, 15, fill=WHITE)
        c.text(W / 2, H / 2, "WILD", 10, BLACK, max_w_mm=40)
        c.rect(3, 3, 19, 19, fill=BLACK)
        c.text(11, 11, "W", 9, WHITE)
        c.paste_rotated_copy_of_corner(19, 19)
        white_margin(c)
        return
    col = rgb(WS_COLOURS[code[0]])
    n = code[1:]
    txt = BLACK if code[0] == "Y" else WHITE
    c.rect(3, 3, W - 3, H - 3, fill=col)
    _index(c, n, txt, h=10.0)
    # the number as large as the card allows: the second digit of 10 to 13 is all that tells
    # those four apart
    c.ellipse(W / 2, H / 2, 24.5, 28, fill=WHITE)
    _num(c, W / 2, H / 2, n, 26, col if code[0] != "Y" else BLACK, max_w=41)
    white_margin(c)


def make_wackee_six() -> Deck:
    counts = {"WILD": 2}
    return Deck("wackee-six", WS_CODES, SIX_COLOURS, _wackee_face, game_back, counts=counts,
                title="Wackee Six")


# ---------------------------------------------------------------- Slap Wacky
SW_PATTERNS = {  # pattern number -> (shape, colour)
    1: ("circle", "red"), 2: ("square", "blue"), 3: ("triangle", "green"),
    4: ("star", "orange"), 5: ("diamond", "purple"), 6: ("hexagon", "black"),
}
SW_CODES = tuple(f"P{p}-{q}{k}" for p in SW_PATTERNS for q in range(1, 5) for k in "WF") + ("WILD", "BLOCK")
_CELLS = {1: (0, 0), 2: (1, 0), 3: (0, 1), 4: (1, 1)}  # position -> (col, row) in the 2x2 pattern


def _slap_face(c: Canvas, code: str) -> None:
    if code == "WILD":
        for i, name in enumerate(("red", "orange", "yellow", "green", "blue", "purple")):
            c.rect(3, 3 + i * (H - 6) / 6, W - 3, 3 + (i + 1) * (H - 6) / 6, fill=rgb(name))
        c.polygon(star(W / 2, H / 2, 20), WHITE)
        c.text(W / 2, H / 2 + 2, "WILD", 6, BLACK)
        c.rect(3, 3, 17, 17, fill=WHITE)
        c.text(10, 10, "W", 8, BLACK)
        c.paste_rotated_copy_of_corner(17, 17)
        white_margin(c)
        return
    if code == "BLOCK":
        c.rect(3, 3, W - 3, H - 3, fill=BLACK)
        shape(c, "hexagon", W / 2, H / 2, 19, rgb("red"))
        c.line([(W / 2 - 10, H / 2 - 10), (W / 2 + 10, H / 2 + 10)], WHITE, 4)
        c.line([(W / 2 + 10, H / 2 - 10), (W / 2 - 10, H / 2 + 10)], WHITE, 4)
        c.text(10, 10, "B", 8, WHITE)
        c.paste_rotated_copy_of_corner(17, 17)
        white_margin(c)
        return
    p, q, kind = int(code[1]), int(code[3]), code[4]
    shp, colname = SW_PATTERNS[p]
    col = rgb(colname)
    face = kind == "F"
    field, ink = (col, WHITE) if face else (WHITE, col)
    c.rect(3, 3, W - 3, H - 3, fill=field)
    if not face:
        c.rect(3, 3, W - 3, H - 3, fill=None, outline=col, width_mm=2.6)
    # index: position number, the pattern's shape, W or F
    _num(c, 9.5, 10.0, str(q), 9.0, ink)
    shape(c, shp, 9.5, 21.0, 3.6, ink)
    c.text(9.5, 29.5, "F" if face else "W", 4.5, ink)
    c.paste_rotated_copy_of_corner(16.0, 33.0)
    # the 2x2 pattern with this card's cell filled
    x0, y0, cell = 19.0, 27.5, 13.0
    for pos, (cx, cy) in _CELLS.items():
        x, y = x0 + cx * cell, y0 + cy * cell
        if pos == q:
            c.rect(x + 0.5, y + 0.5, x + cell - 0.5, y + cell - 0.5, fill=ink)
            shape(c, shp, x + cell / 2, y + cell / 2, 4.8, field)
        else:
            c.rect(x + 0.5, y + 0.5, x + cell - 0.5, y + cell - 0.5, fill=None, outline=ink, width_mm=0.6)
    c.text(W / 2, 62.0, "FACE +2" if face else "WACKY +1", 4.5, ink, max_w_mm=26)
    # the position again as a row of bold bars: a count reads the same with the card turned round
    # (the 2 x 2 pattern of a turned card shows another cell filled), and bars this size still
    # count under a blurred camera that sees about a pixel per millimetre
    bar, gap = 4.0, 3.0
    x = W / 2 - 4.0 - (q * bar + (q - 1) * gap) / 2
    for _ in range(q):
        c.rect(x, 68.5, x + bar, 79.5, fill=ink)
        x += bar + gap
    if face:  # a smiling face: the face cards are the ones worth two
        c.ellipse(W / 2, 16.0, 7, 7, fill=WHITE)
        c.ellipse(W / 2 - 2.4, 14.5, 1.0, 1.0, fill=BLACK)
        c.ellipse(W / 2 + 2.4, 14.5, 1.0, 1.0, fill=BLACK)
        c.line([(W / 2 - 3.5, 18), (W / 2, 20.2), (W / 2 + 3.5, 18)], BLACK, 0.8)
    white_margin(c)


def make_slap_wacky() -> Deck:
    counts = {code: (2 if code.endswith("W") else 1) for code in SW_CODES}
    counts.update({"WILD": 6, "BLOCK": 6})
    return Deck("slap-wacky", SW_CODES, ("purple",), _slap_face, game_back, counts=counts,
                title="Slap Wacky")


# ---------------------------------------------------------------- Wig Out
WIG_CHARACTERS = {  # code -> (name, colour, shape)
    "C1": ("Frizz", "red", "circle"), "C2": ("Curly", "blue", "square"),
    "C3": ("Spike", "green", "triangle"), "C4": ("Twirl", "orange", "star"),
    "C5": ("Mop", "purple", "diamond"), "C6": ("Puff", "teal", "hexagon"),
    "C7": ("Braid", "pink", "heart"), "C8": ("Mohawk", "black", "cross"),
    "C9": ("Afro", "brown", "moon"), "C10": ("Bun", "yellow", "bolt"),
    "C11": ("Mullet", "grey", "circle"), "C12": ("Bob", "blue", "star"),
}
WIG_CODES = tuple(WIG_CHARACTERS)


def _wig_face(c: Canvas, code: str) -> None:
    name, colname, shp = WIG_CHARACTERS[code]
    col = rgb(colname)
    n = int(code[1:])
    # two-tone field: top half the character colour, bottom half lighter; characters 11 and 12
    # swap the tones so that they differ from 1 and 2 at a glance
    top, bottom = (col, lighten(col, 0.6)) if n <= 10 else (lighten(col, 0.6), col)
    c.rect(3, 3, W - 3, H / 2, fill=top)
    c.rect(3, H / 2, W - 3, H - 3, fill=bottom)
    ink = BLACK if colname == "yellow" else WHITE
    c.rect(3, 3, 18, 28, fill=BLACK)
    _num(c, 10.5, 10.5, str(n), 8.0, WHITE, max_w=12)
    shape(c, shp, 10.5, 22.0, 3.6, WHITE)
    c.paste_rotated_copy_of_corner(18.0, 28.0)
    # the character: a face with wild hair in its shape
    c.ellipse(W / 2, 46, 13, 13, fill=(250, 214, 170))
    for dx in (-12, -6, 0, 6, 12):
        shape(c, shp, W / 2 + dx, 32.5 - abs(dx) * 0.15, 4.5, col if n <= 10 else BLACK)
    c.ellipse(W / 2 - 5, 45, 1.8, 1.8, fill=BLACK)
    c.ellipse(W / 2 + 5, 45, 1.8, 1.8, fill=BLACK)
    c.line([(W / 2 - 5, 51.5), (W / 2, 54), (W / 2 + 5, 51.5)], BLACK, 1.0)
    c.rect(17, 62, W - 17, 69, fill=WHITE, radius=2)
    c.text(W / 2, 65.5, name.upper(), 4.0, BLACK, max_w_mm=26)
    _ = ink
    white_margin(c)


def make_wig_out() -> Deck:
    return Deck("wig-out", WIG_CODES, ("orange",), _wig_face, game_back,
                counts={k: 5 for k in WIG_CODES}, title="Wig Out")


# ---------------------------------------------------------------- Spite and Malice
SM_VALUES = tuple(str(n) for n in range(1, 14)) + ("WILD",)
SM_CODES = SM_VALUES + tuple(v + "B" for v in SM_VALUES)
_SM_INK = ("red", "blue", "green", "black")  # numeral colour cycles by value: 1 red, 2 blue, ...
BORDER = (110, 40, 150)


def _spite_face(c: Canvas, code: str) -> None:
    bordered = code.endswith("B")
    v = code[:-1] if bordered else code
    if bordered:  # the bordered set: a solid purple field, told from the plain set at a glance
        c.rect(3, 3, W - 3, H - 3, fill=BORDER)
    if v == "WILD":
        if bordered:
            c.ellipse(W / 2, H / 2 - 3, 22, 22, fill=WHITE)
        c.polygon(star(W / 2, H / 2 - 3, 19), rgb("orange"))
        c.rect(W / 2 - 16, 58, W / 2 + 16, 66, fill=WHITE, radius=2)
        c.text(W / 2, 62, "SPITE", 6.0, BLACK, max_w_mm=30)
        label, ink = "W", BLACK
    else:
        n = int(v)
        ink = rgb(_SM_INK[(n - 1) % 4])
        c.ellipse(W / 2, H / 2, 24.5, 28, fill=WHITE if bordered else lighten(ink, 0.82))
        _num(c, W / 2, H / 2, v, 26, ink, max_w=41)  # as large as fits: 10 to 13 differ in one digit
        label = v
    if bordered:
        c.rect(3, 3, 16.0, 18.0, fill=WHITE)
    _num(c, 9.2, 10.0, label, 8.0, ink, max_w=10.5)
    c.paste_rotated_copy_of_corner(16.0, 18.0)
    white_margin(c)


def make_spite_and_malice() -> Deck:
    counts = {k: 4 for k in SM_CODES}
    counts.update({"WILD": 3, "WILDB": 3})
    return Deck("spite-and-malice", SM_CODES, ("blue",), _spite_face, game_back, counts=counts,
                title="Spite and Malice")


# ---------------------------------------------------------------- Wonky
WK_COLOURS = {"R": "red", "G": "green", "B": "blue"}
# drawn block edge, mm: far apart, so that the size reads at a glance and under a blurred camera
WK_SIZES = {"S": 12.0, "M": 21.0, "L": 30.0}
WK_ANY_SIZES = {"S": 8.0, "M": 12.5, "L": 17.0}  # the three blocks side by side of "any size"
WK_BLOCKS = tuple(c + s for c in "RGBX" for s in "SMLX")
WK_CODES = WK_BLOCKS + ("PASS", "REV", "XX-DRAW", "XX-REV")


def _block(c: Canvas, cx: float, cy: float, colour: str, size: str) -> None:
    """The block (or, for any size, the three blocks side by side, bottoms aligned) as seen from
    above: a square with a black outline, filled with the block colour ('X': striped)."""
    if size == "X":
        gap = 2.5
        total = sum(WK_ANY_SIZES.values()) + 2 * gap
        x = cx - total / 2
        base = cy + WK_ANY_SIZES["L"] / 2
        for s in ("S", "M", "L"):
            e = WK_ANY_SIZES[s]
            _square(c, x + e / 2, base - e / 2, e, colour)
            x += e + gap
        return
    _square(c, cx, cy, WK_SIZES[size], colour)


def _square(c: Canvas, cx: float, cy: float, e: float, colour: str) -> None:
    """One block of edge e: filled square, colour by name, 'X' colour = striped, 'W' white."""
    if colour == "X":
        k = e / 3
        for i, name in enumerate(("red", "green", "blue")):
            c.rect(cx - e / 2 + i * k, cy - e / 2, cx - e / 2 + (i + 1) * k, cy + e / 2, fill=rgb(name))
    else:
        c.rect(cx - e / 2, cy - e / 2, cx + e / 2, cy + e / 2, fill=WHITE if colour == "W" else rgb(WK_COLOURS[colour]))
    c.rect(cx - e / 2, cy - e / 2, cx + e / 2, cy + e / 2, fill=None, outline=BLACK, width_mm=0.7)


def _wonky_block_face(c: Canvas, code: str) -> None:
    """A block card: the whole field in the block's colour (any colour: red, green and blue
    stripes) and the block drawn white at its size in the middle; the colour and the size each
    cover a large part of the card, so either still reads with the card half covered."""
    colour, size = code[0], code[1]
    if colour == "X":
        k = (W - 6) / 3
        for i, name in enumerate(("red", "green", "blue")):
            c.rect(3 + i * k, 3, 3 + (i + 1) * k, H - 3, fill=rgb(name))
    else:
        c.rect(3, 3, W - 3, H - 3, fill=rgb(WK_COLOURS[colour]))
    _block(c, W / 2, H / 2 - 3, "W", size)
    # the size again as a count of bold bars (1 small, 2 medium, 3 large, none for any size): a
    # count reads the same on an outline a little too large or small, the block's size does not
    n = {"S": 1, "M": 2, "L": 3, "X": 0}[size]
    bar, gap = 4.5, 3.0
    x = W / 2 - (n * bar + (n - 1) * gap) / 2
    for _ in range(n):
        c.rect(x, 64.5, x + bar, 74.5, fill=WHITE)
        x += bar + gap
    c.text(W / 2, 80, {"S": "SMALL", "M": "MEDIUM", "L": "LARGE", "X": "ANY SIZE"}[size], 4.0,
           WHITE, max_w_mm=26)
    c.text(W / 2, 15, {"R": "RED", "G": "GREEN", "B": "BLUE", "X": "ANY COLOUR"}[colour], 4.5,
           WHITE, max_w_mm=26)
    c.rect(3, 3, 17, 17, fill=WHITE)
    ink = BLACK if colour == "X" else rgb(WK_COLOURS[colour])
    c.text(10.0, 10.0, code.replace("X", "*"), 6.0, ink, max_w_mm=12)
    c.paste_rotated_copy_of_corner(17.0, 17.0)
    white_margin(c)


def _wonky_face(c: Canvas, code: str) -> None:
    if code in WK_BLOCKS:
        _wonky_block_face(c, code)
        return
    c.rect(3, 3, W - 3, H - 3, fill=rgb("yellow") if code in ("PASS", "REV") else rgb("purple"))
    if code == "PASS":
        c.ellipse(W / 2, H / 2, 18, 18, fill=WHITE)
        c.text(W / 2, H / 2, "PASS", 7, BLACK, max_w_mm=30)
        short = "P"
    elif code == "REV":
        c.ellipse(W / 2, H / 2, 18, 18, fill=WHITE)
        arrows_reverse(c, W / 2, H / 2, 11, BLACK)
        short = "R"
    else:
        c.rect(6, 22, W - 6, 48, fill=WHITE, radius=2)
        _block(c, W / 2, 35, "X", "X")
        c.ellipse(W / 2, 64, 12, 12, fill=WHITE)
        if code == "XX-DRAW":
            c.text(W / 2, 64, "+1", 9, BLACK)
            short = "D"
        else:
            arrows_reverse(c, W / 2, 64, 7.5, BLACK)
            short = "R"
        c.text(W / 2, 16, "THEN", 3.5, WHITE)
    c.rect(3, 3, 17, 17, fill=WHITE)
    c.text(10, 10, short, 8, BLACK)
    c.paste_rotated_copy_of_corner(17.0, 17.0)
    white_margin(c)


def make_wonky() -> Deck:
    counts = {k: 3 for k in WK_BLOCKS}
    counts.update({"XX": 1, "PASS": 2, "REV": 2, "XX-DRAW": 2, "XX-REV": 2})
    return Deck("wonky", WK_CODES, ("green",), _wonky_face, game_back, counts=counts,
                title="Wonky")
