"""Enrolling a deck from photos: round trip and the errors a user can cause."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.decks import get_deck
from vision.decks.compose import Composer, card_quad
from vision.enroll import EnrollError, enroll
from vision.identify import identify

CODES = ["AS", "7H", "10D", "QC", "KS", "2C"]


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_DATA", str(tmp_path / "data"))
    return tmp_path / "data"


def _photo_dir(tmp_path, codes=CODES):
    """One 'photo' per card: a standard face, turned and tilted, on a wooden-brown table."""
    d = tmp_path / "photos"
    d.mkdir()
    deck = get_deck("standard")
    rng = np.random.default_rng(3)
    for code in codes:
        comp = Composer(640, 480, cloth=(40, 70, 120), rng=rng)
        comp.add_card(deck, code, card_quad(320, 240, rng.uniform(-20, 20) + 90 * rng.integers(0, 2), 380))
        cv2.imwrite(str(d / f"{code}.jpg"), comp.finish(blur=0.8, noise=2.0).image)
    return d


def test_enroll_round_trip(tmp_path, data_dir) -> None:
    deck = enroll("my-deck", _photo_dir(tmp_path))
    assert sorted(deck.codes) == sorted(CODES)
    again = get_deck("my-deck")  # found by name under $REFEREE_DATA
    assert again.codes == deck.codes and (data_dir / "decks" / "my-deck" / "deck.json").is_file()
    comp = Composer(800, 400, rng=np.random.default_rng(5))
    for i, code in enumerate(["7H", "QC", "2C"]):
        comp.add_card(get_deck("standard"), code, card_quad(150 + i * 250, 200, 30 * i + 10, 150))
    dets = identify(comp.finish(noise=2.0, blur=0.6).image, again)
    assert sorted(d.code for d in dets) == ["2C", "7H", "QC"]


def test_enroll_errors(tmp_path, data_dir) -> None:
    with pytest.raises(EnrollError, match="does not exist"):
        enroll("x", tmp_path / "missing")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(EnrollError, match="holds no photos"):
        enroll("x", empty)
    d = _photo_dir(tmp_path, ["AS", "7H"])
    (d / "banana.jpg").write_bytes((d / "AS.jpg").read_bytes())
    with pytest.raises(EnrollError, match="banana.jpg .*not card codes"):
        enroll("x", d)
    (d / "banana.jpg").unlink()
    (d / "KS.jpg").write_bytes(b"garbage")
    with pytest.raises(EnrollError, match="KS.jpg cannot be read"):
        enroll("x", d)
    cv2.imwrite(str(d / "KS.jpg"), np.full((300, 400, 3), (40, 70, 120), np.uint8))
    with pytest.raises(EnrollError, match="no card found in photo .*KS.jpg"):
        enroll("x", d)


@pytest.mark.parametrize("code", ["2C", "AC", "KH"])
def test_a_card_that_fills_the_photo_is_enrolled_whole(code) -> None:
    """A close photo of one card standing on a dark strip (a shelf, a keyboard): the table
    detector takes a card that fills most of the frame for the cloth and offers a pip, or the
    card merged with the strip, as the largest card; 6 of the 52 real photos of deck C were
    enrolled from a pip so. The card's own outline must be the one stored."""
    from vision.detect import corner_gap
    from vision.enroll import _largest_card_quad

    comp = Composer(750, 1000, cloth=(30, 45, 90), rng=np.random.default_rng(4))
    comp.img[880:] = (45, 45, 50)  # the dark strip the card's foot lies on
    truth = card_quad(375, 490, 3.0, 880)
    comp.add_card(get_deck("standard"), code, truth)
    quad = _largest_card_quad(comp.finish(blur=0.8, noise=2.0).image)
    assert quad is not None
    assert corner_gap(quad, truth) < 0.02 * 880  # the card's corners, not a pip's
