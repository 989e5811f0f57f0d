"""A shadow across a card taken out before it is read again (vision/shading.py): a hand or an arm
held over the table shades half a card, which the template read, with one gain for the whole
card, took for a cover or for a plain back."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.identify as ident
from vision.decks import get_deck
from vision.decks.compose import Composer, card_quad
from vision.identify import SHADE_CONFIRMS, _lit_or_unshaded, identify_region
from vision.shading import REACH, WORK_REACH, _filled, _light_share, unshaded
from vision.types import UNKNOWN, Detection

CODES = ["2S", "5C", "8S", "9C", "JS", "KC", "4H", "7D", "10H", "QD", "AS", "3D"]
LONG_PX = 78  # about 56 px wide, as the overhead camera sees a card


def _table(seed: int, long_px: float = LONG_PX) -> tuple[np.ndarray, list[np.ndarray]]:
    """The cards laid out at random turns on a green cloth, blurred and noisy as a camera sees them
    (at long_px, as a closer camera or a photo: the layout and the blur scaled alike)."""
    deck = get_deck("standard")
    rng = np.random.default_rng(seed)
    k = long_px / LONG_PX
    comp = Composer(round(660 * k), round(240 * k), rng=rng)
    quads = []
    for i, code in enumerate(CODES):
        q = card_quad(k * (55 + (i % 6) * 110), k * (60 + (i // 6) * 120), float(rng.uniform(0, 360)), long_px)
        comp.add_card(deck, code, q)
        quads.append(q)
    return comp.finish(blur=0.9 * k, noise=2.5).image, quads


def _shadowed(img: np.ndarray, quads: list[np.ndarray], share: float, dark: float, turn_deg: float) -> np.ndarray:
    """Each card's far share (along its length, the shadow's edge turned by turn_deg) in a soft
    shadow that takes dark of the light: the paper and the print darkened alike."""
    light = np.ones(img.shape[:2], np.float32)
    turn = np.deg2rad(turn_deg)
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]], np.float32)
    soft = 2.0 * float(np.linalg.norm(quads[0][3] - quads[0][0])) / LONG_PX
    for q in quads:
        length = float(np.linalg.norm(q[3] - q[0]))
        along = rot @ ((q[3] - q[0]) / length)
        across = np.array([-along[1], along[0]], np.float32)
        edge = q.mean(axis=0) + along * length * (0.5 - share)
        far = edge + along * length
        reach = across * 0.6 * length  # (not over the neighbours)
        poly = np.array([edge + reach, edge - reach, far - reach, far + reach])
        cv2.fillConvexPoly(light, np.round(poly).astype(np.int32), 1.0 - dark)
    light = cv2.GaussianBlur(light, (0, 0), soft)  # (the shadow's soft edge, 2 px on a card LONG_PX long)
    return np.clip(img.astype(np.float32) * light[:, :, None], 0, 255).astype(np.uint8)


def test_an_evenly_lit_card_is_not_taken_for_shaded_and_keeps_its_print() -> None:
    """No part of an evenly lit card is in shade (so identify reads it only as lit), and taken
    out all the same, the light leaves its picture as it was but for its level (measured: a
    correlation of 0.987 or more with the picture as seen, a court card's the least)."""
    img, quads = _table(1)
    for q in quads:
        crop, origin, shaded = unshaded(img, q)
        x0, y0 = (int(v) for v in origin)
        seen = img[y0:y0 + crop.shape[0], x0:x0 + crop.shape[1]].astype(np.float32)
        inside = np.zeros(crop.shape[:2], np.uint8)
        cv2.fillConvexPoly(inside, np.round(q - origin).astype(np.int32), 1)
        inside = cv2.erode(inside, np.ones((5, 5), np.uint8)) > 0  # (not the outline's blend with the cloth)
        assert shaded == 0.0
        assert float(np.corrcoef(crop[inside].astype(np.float32).ravel(), seen[inside].ravel())[0, 1]) > 0.98


@pytest.mark.parametrize("long_px", [LONG_PX, 300])
def test_the_shade_over_half_a_card_is_taken_out_of_its_paper(long_px: float) -> None:
    """Half a card in a shadow that takes half the light: its paper comes back within a tenth
    of the lit half's, the shaded share is about half, and the print stays darker than the
    paper; also on a card as large as a photo shows it, whose light is found scaled down."""
    img, quads = _table(2, long_px)
    dark = _shadowed(img, quads, 0.5, 0.5, 0.0)
    for q in quads:
        crop, origin, shaded = unshaded(dark, q)
        # (a court card's picture is no paper to find the light on: at a photo's scale the king
        # of clubs' share comes to 0.61, found at full size or scaled down alike)
        assert 0.4 < shaded < (0.6 if long_px == LONG_PX else 0.65), shaded
        near, far = q[:2].mean(axis=0), q[2:].mean(axis=0)  # the lit end and the shaded end
        lit_end, shaded_end = (np.round(p + 0.3 * (q.mean(axis=0) - p) - origin).astype(int) for p in (near, far))
        w = max(4, round(4 * long_px / LONG_PX))  # (the window: 9 px on a card LONG_PX long)
        lit_paper = float(np.percentile(crop[lit_end[1] - w:lit_end[1] + w + 1, lit_end[0] - w:lit_end[0] + w + 1], 90))
        shaded_paper = float(np.percentile(crop[shaded_end[1] - w:shaded_end[1] + w + 1,
                                                shaded_end[0] - w:shaded_end[0] + w + 1], 90))
        assert abs(shaded_paper - lit_paper) < 0.1 * lit_paper, (lit_paper, shaded_paper)


@pytest.mark.parametrize("shade", [0.0, 0.5])
def test_a_large_cards_light_found_scaled_down_is_the_light_found_at_full_size(shade: float) -> None:
    """A card whose closing would reach beyond WORK_REACH is lit on its picture scaled down (at
    a photo's scale, a full-size closing took over a second a read): the card comes out as
    the full-size light leaves it, within 2.5 grey levels on average (measured: 0.2 to 0.7 on
    pip cards, up to 2.2 on a court card's picture in shade), and its shaded share within 0.04
    (measured: up to 0.03 off, a court card's; a card counts as shaded from SHADED_SHARE, 0.05)."""
    img, quads = _table(3, 300)
    if shade:
        img = _shadowed(img, quads, 0.5, shade, 20.0)
    for code, q in zip(CODES[:6], quads[:6], strict=True):
        crop, origin, shaded = unshaded(img, q)
        short = float(np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1).min())
        r = max(2, round(REACH * short))
        assert r > 2 * WORK_REACH  # (scaled down, and by more than half)
        x0, y0 = (int(v) for v in origin)
        seen = img[y0:y0 + crop.shape[0], x0:x0 + crop.shape[1]].astype(np.float32)
        inside = _filled(seen.shape[:2], q - origin)
        light, full_shaded = _light_share(seen, inside, r)
        full = np.clip(seen / np.where(inside > 0, light, 1.0)[:, :, None], 0, 255)
        core = cv2.erode(inside, np.ones((5, 5), np.uint8)) > 0  # (not the outline's blend with the cloth)
        off = np.abs(crop.astype(np.float32) - full)[core]
        assert float(off.mean()) < 2.5, (code, float(off.mean()))
        assert abs(shaded - full_shaded) < 0.04, (code, shaded, full_shaded)


@pytest.mark.parametrize("share,dark,turn", [(0.5, 0.45, 0.0), (0.5, 0.55, 30.0), (0.3, 0.5, 60.0)])
def test_cards_half_in_a_hands_shadow_are_read(share: float, dark: float, turn: float) -> None:
    """Read as lit, 0 to 9 of these 12 cards were read (measured on both tables, each shadow),
    the shaded half taken for a cover or the card for a plain back; read again with the shadow
    taken out, all but one of them surely, and none as another card."""
    deck = get_deck("standard")
    for seed in (1, 2):
        img, quads = _table(seed)
        dark_img = _shadowed(img, quads, share, dark, turn)
        got = [identify_region(dark_img, q, deck) for q in quads]
        wrong = [(c, g.code) for c, g in zip(CODES, got, strict=True) if g.code not in (c, UNKNOWN)]
        assert not wrong, wrong
        sure = sum(g.code == c and g.confidence >= 0.9 for c, g in zip(CODES, got, strict=True))
        assert sure >= len(CODES) - 1, [(c, g.code, g.confidence) for c, g in zip(CODES, got, strict=True)]


def _read(code: str, conf: float, error: float, best: str | None = None, back: str | None = None):
    """A read (Detection) and its templates' match, as _read_region settles them."""
    best = best or code
    det = Detection(code=code if conf >= ident.MIN_CONFIDENCE else UNKNOWN, corners=((0, 0), (1, 0), (1, 1), (0, 1)),
                    confidence=conf, face_up=back is None, back=back, best_fit=best, fit_error=error)
    return det, ident._Match(best, back, 0, conf, 0.0, error)


def test_of_a_cards_reads_as_lit_and_unshaded_the_far_better_fit_stands_and_a_confirmation_is_not_sure() -> None:
    # the shaded half taken for a plain back's field; unshaded, the queen fits ten times better
    got, _ = _lit_or_unshaded(_read(UNKNOWN, 0.0, 0.047, best=UNKNOWN, back="blue"), _read("QH", 1.0, 0.005))
    assert (got.code, got.confidence) == ("QH", 1.0)
    # sure of the five of spades as lit, from the part the shade left; unshaded, the templates fit
    # six times better and cannot tell it from the five of clubs: the unsure read stands
    got, _ = _lit_or_unshaded(_read("5S", 1.0, 0.0157), _read(UNKNOWN, 0.0, 0.0026, best="5S"))
    assert got.code == UNKNOWN
    # the seven the templates named unsurely as lit, confirmed unshaded: no surer than SHADE_CONFIRMS
    got, _ = _lit_or_unshaded(_read(UNKNOWN, 0.21, 0.024, best="7H"), _read("7H", 0.9, 0.012))
    assert (got.code, got.confidence) == ("7H", SHADE_CONFIRMS)
    # two reads that fit alike and name two cards: the better fit, no surer than the other is unsure
    got, _ = _lit_or_unshaded(_read("8C", 0.6, 0.010), _read("8S", 0.95, 0.012))
    assert got.code == UNKNOWN and got.confidence < 0.1
