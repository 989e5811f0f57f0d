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
