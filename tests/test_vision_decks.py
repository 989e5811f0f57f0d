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
