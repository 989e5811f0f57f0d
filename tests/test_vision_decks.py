"""The deck registry, code schemes, renders and the printable PDF."""

from __future__ import annotations

import numpy as np
import pytest

from vision.decks import UnknownCardError, UnknownDeckError, deck_names, get_deck
from vision.decks.base import UnknownBackError, card_size_px
from vision.print_deck import page_count, write_deck

EXPECTED = {"standard": 53, "wackee-six": 53, "slap-wacky": 50, "wig-out": 12,
            "spite-and-malice": 28, "wonky": 20}
PHYSICAL = {"standard": 54, "wackee-six": 54, "slap-wacky": 84, "wig-out": 60,
            "spite-and-malice": 110, "wonky": 54}


def test_builtin_decks_and_code_schemes() -> None:
    assert set(EXPECTED) <= set(deck_names())
    for name, n in EXPECTED.items():
        deck = get_deck(name)
        assert len(deck.codes) == n == len(set(deck.codes))
        assert sum(deck.counts.values()) == PHYSICAL[name]
    assert {"10H", "QS", "AS", "JK"} <= set(get_deck("standard").codes)
    assert {"R7", "B13", "G1", "Y12", "WILD"} <= set(get_deck("wackee-six").codes)
    assert len(get_deck("wackee-six").back_colours) == 6
    assert {"P3-2W", "P3-2F", "WILD", "BLOCK"} <= set(get_deck("slap-wacky").codes)
    assert {"7", "7B", "WILD", "WILDB"} <= set(get_deck("spite-and-malice").codes)
    assert {"RL", "XX", "PASS", "REV", "XX-DRAW", "XX-REV"} <= set(get_deck("wonky").codes)


def test_unknown_names_raise_clear_errors() -> None:
    with pytest.raises(UnknownDeckError, match="known decks: standard"):
        get_deck("uno")
    deck = get_deck("standard")
    with pytest.raises(UnknownCardError, match="'1H' is not in deck 'standard'"):
        deck.render_face("1H")
    with pytest.raises(UnknownBackError):
        deck.render_back("gold")
    assert isinstance(UnknownDeckError("x"), ValueError)


@pytest.mark.parametrize("name", list(EXPECTED))
def test_faces_are_true_size_and_distinct(name: str) -> None:
    deck = get_deck(name)
    w, h = card_size_px(8.0)
    img = deck.render_face(deck.codes[0])
    assert img.shape == (h, w, 3) and img.dtype == np.uint8
    assert deck.render_back(deck.back_colours[0], 2.0).shape == (*card_size_px(2.0)[::-1], 3)
    # at the camera's scale (~1.6 px/mm) every two faces still differ clearly
    small = np.stack([deck.render_face(c, 1.6).astype(np.float32) for c in deck.codes])
    flat = small.reshape(len(deck.codes), -1)
    d = ((flat[:, None, :] - flat[None, :, :]) ** 2).mean(axis=2)
    d[np.arange(len(d)), np.arange(len(d))] = np.inf
    assert d.min() > 50.0
    # the white border every detector relies on
    assert img[:8, :, :].min() > 200 and img[:, :8, :].min() > 200


def test_print_deck_writes_pdf_with_right_page_count(tmp_path) -> None:
    out = write_deck("wonky", tmp_path / "wonky.pdf")
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    assert page_count("wonky") == 6  # 54 cards, 9 a page
    assert data.count(b"/Type /Page\n") + data.count(b"/Type /Page\r") + data.count(b"/Type /Page ") \
        or data.count(b"/Type /Page") - data.count(b"/Type /Pages") == 6
    assert data.count(b"/Type /Page") - data.count(b"/Type /Pages") == 6


def test_backs_differ_in_shape_not_only_in_hue() -> None:
    """Two back colours must still differ when the camera's colour is off: grey pictures differ."""
    deck = get_deck("wackee-six")
    greys = [deck.render_back(b, 2.0).astype(np.float32).mean(axis=2) for b in deck.back_colours]
    h, w = greys[0].shape
    greys = [g[h // 2 - 30:h // 2 + 30, w // 2 - 30:w // 2 + 30] for g in greys]  # the middle 30 mm
    for i in range(len(greys)):
        for j in range(i + 1, len(greys)):
            a = greys[i] - greys[i].mean()
            b = greys[j] - greys[j].mean()
            corr = float((a * b).sum() / np.sqrt((a * a).sum() * (b * b).sum()))
            assert corr < 0.95, (deck.back_colours[i], deck.back_colours[j], corr)


def test_easily_confused_faces_differ_where_the_camera_sees_them() -> None:
    """Wonky's 'any size' and 'large' blocks, Spite and Malice's plain and bordered sets: at the
    camera's scale and blur, the two faces differ in grey at least as much as two numerals do
    (7 and 8 differ by about 7.7 grey levels on average)."""
    import cv2

    def grey(deck, code):
        img = deck.render_face(code, 1.0).astype(np.float32).mean(axis=2)
        return cv2.GaussianBlur(img, (0, 0), 1.5)

    wonky, spite = get_deck("wonky"), get_deck("spite-and-malice")
    for deck, a, b, least in ((wonky, "RX", "RL", 7.0), (wonky, "XX", "XL", 7.0), (spite, "7", "7B", 40.0),
                              (spite, "WILD", "WILDB", 40.0)):
        d = np.abs(grey(deck, a) - grey(deck, b))
        assert d.mean() > least, (a, b, d.mean())


def test_slap_wacky_repeats_the_position_as_a_count_of_bars() -> None:
    """A count reads the same with the card turned round (the 2 x 2 picture does not): the row
    of bars under the pattern holds as many bold bars as the position, each wide enough (4 mm)
    to count under a blurred camera that sees about a pixel per millimetre."""
    import cv2

    deck = get_deck("slap-wacky")
    ppm = 8.0
    for code in ("P3-1W", "P3-2F", "P6-3W", "P1-4F"):
        img = deck.render_face(code, ppm)
        band = img[int(68 * ppm):int(80 * ppm), int(8 * ppm):int(48 * ppm)].astype(np.int16)
        field = img[int(66.5 * ppm), int(10 * ppm)].astype(np.int16)  # the card's field just above
        ink = (np.abs(band - field).sum(axis=2) > 120).astype(np.uint8)
        n, _, stats, _ = cv2.connectedComponentsWithStats(ink)
        bars = [s for s in stats[1:] if s[cv2.CC_STAT_WIDTH] >= 3.5 * ppm and s[cv2.CC_STAT_HEIGHT] >= 10 * ppm]
        assert len(bars) == int(code[3]), code


def test_wonky_block_sizes_are_far_apart_on_the_card() -> None:
    """The block is drawn white on the block's colour, and each size is at least half again the
    area of the one below, so that small, medium and large read apart at a glance."""
    deck = get_deck("wonky")
    ppm = 4.0

    def white_block_area(code: str) -> int:
        img = deck.render_face(code, ppm)
        h, w = img.shape[:2]
        mid = img[int(0.25 * h):int(0.75 * h), int(0.15 * w):int(0.85 * w)]
        return int((mid.min(axis=2) > 230).sum())

    for colour in "RGB":
        s, m, big = (white_block_area(colour + size) for size in "SML")
        assert m > 1.5 * s and big > 1.5 * m, (colour, s, m, big)
