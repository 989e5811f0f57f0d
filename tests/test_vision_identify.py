"""identify() on small rendered scenes: rotation, perspective, cover, piles, backs, unreadable."""

from __future__ import annotations

import numpy as np
import pytest

from vision.decks import get_deck
from vision.decks.compose import Composer, card_quad
from vision.identify import UnreadableImageError, find_cards, identify, identify_region, read_image
from vision.types import UNKNOWN

L = 140  # card long side in px: the overhead camera's scale at 1920 x 1080


def _codes(dets):
    return sorted(d.code for d in dets if d.face_up and d.code != UNKNOWN)


@pytest.mark.parametrize("deck_name", ["standard", "wackee-six", "slap-wacky", "wig-out",
                                       "spite-and-malice", "wonky"])
def test_rotated_tilted_cards_are_read(deck_name: str) -> None:
    deck = get_deck(deck_name)
    rng = np.random.default_rng(7)
    comp = Composer(960, 540, rng=rng)
    codes = list(rng.choice(deck.codes, 6, replace=False))
    for i, code in enumerate(codes):
        comp.add_card(deck, code, card_quad(110 + i * 150, 200 + (i % 2) * 160, rng.uniform(0, 360), L))
    scene = comp.finish(tilt=0.05, blur=0.7, noise=2.0, gradient=0.15, jpeg=90)
    dets = identify(scene.image, deck)
    assert _codes(dets) == sorted(codes)
    assert all(d.confidence >= 0.5 for d in dets)


def test_corners_start_at_printed_top_left() -> None:
    deck = get_deck("wackee-six")
    comp = Composer(400, 400)
    truth = card_quad(200, 200, 170, L)  # nearly upside down
    comp.add_card(deck, "R9", truth)
    scene = comp.finish()
    (det,) = identify(scene.image, deck)
    assert det.code == "R9"
    assert np.linalg.norm(np.array(det.corners[0]) - truth[0]) < 4


def test_partly_covered_card_and_back_colour() -> None:
    deck = get_deck("wackee-six")
    comp = Composer(700, 400)
    comp.add_card(deck, "G12", card_quad(150, 200, 15, L))
    comp.add_card(deck, None, card_quad(350, 200, -20, L), back="purple")
    comp.add_card(deck, "Y6", card_quad(550, 200, 95, L))
    comp.add_hand(600, 260, 60, 35, 30)  # a hand over a corner of Y6
    scene = comp.finish(blur=0.6, noise=2.0)
    dets = identify(scene.image, deck)
    assert "G12" in _codes(dets) and "Y6" in _codes(dets)
    backs = [d for d in dets if not d.face_up]
    assert [b.back for b in backs] == ["purple"]


def test_top_card_of_a_pile_is_read() -> None:
    deck = get_deck("spite-and-malice")
    comp = Composer(500, 400)
    for i, code in enumerate(["3", "4", "5B"]):
        comp.add_card(deck, code, card_quad(250 + i * 6, 200 - i * 5, 10 + i * 8, L))
    scene = comp.finish(noise=2.0)
    dets = identify(scene.image, deck)
    readable = [d for d in dets if d.code != UNKNOWN]
    assert readable and max(readable, key=lambda d: d.confidence).code == "5B"
    assert "3" not in _codes(dets)  # the bottom card is hidden: never guessed


def test_unreadable_card_is_unknown_not_guessed() -> None:
    deck = get_deck("standard")
    comp = Composer(400, 400)
    other = get_deck("wig-out")  # a card of another deck: card-shaped but not a standard card
    comp.add_card(other, "C5", card_quad(200, 200, 30, L))
    scene = comp.finish()
    (det,) = identify(scene.image, deck)
    assert det.code == UNKNOWN


def test_identify_region_reads_one_quad() -> None:
    deck = get_deck("slap-wacky")
    comp = Composer(400, 400)
    comp.add_card(deck, "P3-2F", card_quad(200, 200, 60, L))
    scene = comp.finish(noise=2.0)
    quads = find_cards(scene.image)
    assert len(quads) == 1
    det = identify_region(scene.image, quads[0], deck)
    assert det.code == "P3-2F" and det.confidence >= 0.9


def test_read_image_errors(tmp_path) -> None:
    with pytest.raises(UnreadableImageError, match="does not exist"):
        read_image(tmp_path / "nope.png")
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"not a jpeg")
    with pytest.raises(UnreadableImageError, match="cannot be read"):
        read_image(bad)
