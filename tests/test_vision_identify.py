"""identify() on small rendered scenes: rotation, perspective, cover, piles, backs, unreadable."""

from __future__ import annotations

from dataclasses import replace

import cv2
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


def _near(dets, quad, short):
    c = np.asarray(quad, np.float32).mean(axis=0)
    return [d for d in dets if np.linalg.norm(np.mean(d.corners, axis=0) - c) < 0.3 * short]


def test_realistic_table_scene_is_read_without_confident_mistakes() -> None:
    """A harsh rendered table (vision/render.py): piles, fans, hands, tilt, glare, blur, noise."""
    from vision.decks.compose import table_scene

    deck = get_deck("wig-out")
    res = table_scene(deck, np.random.default_rng(4), n_cards=24)
    dets = identify(res.image, deck)
    scored = right = 0
    for card in res.cards:
        q = np.array(card.corners_px, np.float32)
        short = float(np.linalg.norm(q[0] - q[1]))
        near = _near(dets, q, short)
        for d in near:  # never a confident wrong read of a card that is on top
            if card.top and d.confidence >= 0.9:
                assert (d.code == card.code) if card.face_up else (d.back == card.back)
        if card.top and card.visible >= 0.95:
            scored += 1
            right += any((d.code == card.code) if card.face_up else (not d.face_up and d.back == card.back)
                         for d in near)
    assert scored >= 8
    assert right >= 0.75 * scored  # the bench (bench/vision_identify.py) measures this properly


def _benchmark_scene(deck, seed: int, scene: int):
    """Scene `scene` of the identify benchmark's tables for this seed (bench/vision_identify.py
    renders one table first, outside the count)."""
    from vision.decks.compose import table_scene

    rng = np.random.default_rng(seed)
    for _ in range(scene + 1):
        table_scene(deck, rng)
    return table_scene(deck, rng)


def _reads_on(image: np.ndarray, deck, quad: np.ndarray) -> list:
    """identify()'s reads whose outline is centred on the quad."""
    return [d for d in identify(image, deck)
            if cv2.pointPolygonTest(quad.reshape(-1, 1, 2), tuple(float(v) for v in np.mean(d.corners, axis=0)), False) >= 0]


def test_a_sure_read_off_a_piles_top_card_does_not_keep_its_own_outlines_unread() -> None:
    """A Spite and Malice 7 on a pile of two (the identify benchmark's seed 1, scene 7): a
    rectangle a third of a card off it, its sides on the edges of the cards below, read it as a 3
    at 0.91; claimed first, it kept the 7's own outlines (read quickly at 0.85 and 0.82) from
    the search of their exact pose, and the 3 stood. A read naming another card than the sure
    one at its place is searched all the same, and the better fit stands."""
    deck = get_deck("spite-and-malice")
    res = _benchmark_scene(deck, 1, 7)
    card = res.cards[11]
    assert card.top and card.face_up and card.visible > 0.99
    q = np.array(card.corners_px, np.float32)
    on_it = _reads_on(res.image, deck, q)
    assert not [d for d in on_it if d.code != card.code and d.confidence >= 0.9], on_it
    assert any(d.code == card.code and d.confidence >= 0.9 for d in on_it), on_it


def test_an_unsure_hypothesis_outlined_all_round_is_read_sharpened_on_its_outline() -> None:
    """A clear eight of clubs alone on wood, 45 px wide and soft (the identify benchmark's seed 3,
    scene 12): no single-card outline was found, and its blob hypotheses, a few pixels short of
    one corner, read unsurely; the wide search of a hypothesis a third of a card off (a seven of
    diamonds at 0.84) covered their middles, so they were never searched, and the card was not
    reported. A hypothesis whose outline shows all round is read at last on its sharpened outline."""
    deck = get_deck("standard")
    res = _benchmark_scene(deck, 3, 12)
    card = res.cards[20]
    assert card.code == "8C" and card.top and card.visible > 0.99
    q = np.array(card.corners_px, np.float32)
    on_it = _reads_on(res.image, deck, q)
    assert any(d.code == "8C" and d.confidence >= 0.9 for d in on_it), on_it
    assert not [d for d in on_it if d.code != "8C" and d.confidence >= 0.5], on_it


def test_a_twin_outlined_a_little_off_is_read_on_the_outline_the_pair_read_lays_on_it() -> None:
    """A clear two of clubs 46 px wide and soft (the identify benchmark's seed 3, scene 12),
    outlined a pixel or two off at each corner as a tracker outlines it: the templates, sure of
    it but for the two of spades, explained 0.60 of its picture there (0.73 on its true outline),
    too little for the pair read's whole print, and the marks' windows alone chose the club by
    0.02: unknown. Read again on the outline the pair read lays on its edges and print, it is the
    two of clubs surely from half of such outlines (one in twelve before), and never another."""
    deck = get_deck("standard")
    res = _benchmark_scene(deck, 3, 12)
    card = res.cards[23]
    assert card.code == "2C" and card.top and card.visible > 0.99
    q = np.array(card.corners_px, np.float32)
    rng = np.random.default_rng(0)
    reads = [identify_region(res.image, np.roll(q + np.round(rng.normal(0, 1.5, (4, 2)), 1).astype(np.float32), i % 4, axis=0), deck)
             for i in range(12)]
    assert sum(d.code == "2C" and d.confidence >= 0.9 for d in reads) >= 5, reads
    assert all(d.code in ("2C", UNKNOWN) for d in reads), reads


def test_a_card_a_third_under_an_arm_is_not_read_as_a_card_its_hidden_part_would_tell_it_from() -> None:
    """A seven of hearts 50 px long, a third under an arm (the identify benchmark's seed 3, scene
    4): the arm hides the place of the one middle pip that tells it from the eight. Against the
    seven turned the way up that fitted the whole quad best, cover and all, the eight won: of 24
    outlines a pixel or two off, as a tracker outlines it, three read it as the eight at 0.81 to
    0.93 and one as the seven of diamonds at 0.91. Weighed against the seven turned either way
    up, no outline names another card surely (6 read the seven surely; 7 before)."""
    deck = get_deck("standard")
    res = _benchmark_scene(deck, 3, 4)
    card = res.cards[18]
    assert card.code == "7H" and card.top and 0.55 < card.visible < 0.7
    q = np.array(card.corners_px, np.float32)
    rng = np.random.default_rng(0)
    reads = [identify_region(res.image, np.roll(q + np.round(rng.normal(0, 1.5, (4, 2)), 1).astype(np.float32), i % 4, axis=0), deck)
             for i in range(24)]
    assert not [d for d in reads if d.code not in ("7H", UNKNOWN) and d.confidence >= 0.9], reads
    assert sum(d.code == "7H" and d.confidence >= 0.9 for d in reads) >= 4, reads


def test_identify_region_tolerates_a_tracker_quad_a_few_pixels_off() -> None:
    from vision.decks.compose import table_scene

    deck = get_deck("spite-and-malice")
    rng = np.random.default_rng(9)
    res = table_scene(deck, rng, width=1600, height=900, n_cards=16, hands=(0, 0))
    clear = [c for c in res.cards if c.top and c.visible >= 0.98 and c.face_up]
    assert len(clear) >= 5
    right = 0
    for card in clear:
        q = np.array(card.corners_px, np.float32)
        jq = np.roll(q + rng.normal(0, 1.5, q.shape).astype(np.float32), 1, axis=0)
        d = identify_region(res.image, jq, deck)
        assert d.code in (card.code, UNKNOWN)
        right += d.code == card.code
        if d.code == card.code:  # corners come back from the printed top-left
            assert np.linalg.norm(np.array(d.corners[0]) - q[0]) < 0.2 * np.linalg.norm(q[0] - q[1])
    assert right >= 0.8 * len(clear)


def test_bare_cloth_and_hand_are_not_read_as_cards() -> None:
    """A card-sized quad on plain cloth or on skin (self-normalised it looks like a plain white
    card) must come back unknown, for every deck."""
    comp = Composer(500, 400, cloth=(60, 120, 40))
    comp.add_hand(380, 200, 90, 120, 0)
    scene = comp.finish(blur=0.8, noise=3.0)
    for name in ("standard", "wackee-six", "slap-wacky", "wig-out", "spite-and-malice", "wonky"):
        deck = get_deck(name)
        for cx in (130.0, 380.0):
            d = identify_region(scene.image, card_quad(cx, 200, 20, L), deck)
            assert d.code == UNKNOWN and d.back is None, (name, cx, d)


@pytest.mark.parametrize("colour", [(220, 200, 30), (60, 60, 200)])
def test_a_shade_across_a_plain_field_is_not_a_card(colour: tuple[int, int, int]) -> None:
    """A plain sleeve shaded on one side, or a shadow's edge across the cloth: normalised on
    itself it is a white field with a soft step in it. Taken for a nearly blank card whose glare
    fades across it, it read as the 2 of diamonds at 1.0 (and a spite-and-malice 1 at 0.88): the
    card's print must explain more than a blank card with the same shading does."""
    h, w = 400, 600
    rng = np.random.default_rng(0)
    yy = np.mgrid[0:h, 0:w][0].astype(np.float32)
    for name in ("standard", "wackee-six", "slap-wacky", "wig-out", "spite-and-malice", "wonky"):
        deck = get_deck(name)
        for step in (0.5, 0.7):  # where the shade starts, along the card's length
            for long_px in (100.0, 125.0):
                img = np.empty((h, w, 3), np.float32)
                img[:] = colour
                img *= 1.0 - 0.27 / (1 + np.exp(-(yy - (200 + (step - 0.5) * long_px)) / 4.0))[:, :, None]
                img = cv2.GaussianBlur(img, (0, 0), 1.2) + rng.normal(0, 3, img.shape).astype(np.float32)
                img = np.clip(img, 0, 255).astype(np.uint8)
                for angle in (0.0, 90.0):
                    d = identify_region(img, card_quad(300, 200, angle, long_px), deck)
                    assert d.code == UNKNOWN and d.back is None, (name, step, long_px, angle, d)


def test_back_colours_are_told_apart() -> None:
    deck = get_deck("wackee-six")
    comp = Composer(1000, 300, rng=np.random.default_rng(3))
    for i, colour in enumerate(deck.back_colours):
        comp.add_card(deck, None, card_quad(90 + i * 165, 150, 30 * i, L), back=colour)
    scene = comp.finish(blur=0.8, noise=2.5, gradient=0.2, jpeg=85)
    dets = identify(scene.image, deck)
    got = sorted(d.back for d in dets if not d.face_up)
    assert got == sorted(deck.back_colours)


def _skewed(cx: float, cy: float, angle: float, long_px: float, shear: float) -> np.ndarray:
    """A card quad as a strongly tilted camera shows it: a rectangle sheared by `shear` (a
    parallelogram whose corners are far from right angles)."""
    q = card_quad(0, 0, 0, long_px).astype(np.float32)
    q[:, 0] += shear * q[:, 1]
    a = np.radians(angle)
    r = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    return (q @ r.T + np.array([cx, cy], np.float32)).astype(np.float32)


def test_cards_seen_in_strong_perspective_are_read_with_their_own_outline() -> None:
    """Under a tilted camera a card's outline is no rectangle: the quad found must follow the
    card's own corners (not the best-fitting rectangle), and a card whose outline looks square or
    larger than its neighbours is still one card."""
    deck = get_deck("wackee-six")
    rng = np.random.default_rng(5)
    comp = Composer(1100, 500, cloth=(40, 50, 70), rng=rng)
    cards = [("R9", _skewed(180, 250, 20, 200, 0.45)), ("B3", _skewed(520, 250, -35, 230, 0.55)),
             ("G7", _skewed(880, 250, 70, 260, 0.5))]
    for code, q in cards:
        comp.add_card(deck, code, q)
    scene = comp.finish(blur=0.7, noise=2.0, jpeg=90)
    dets = identify(scene.image, deck)
    assert _codes(dets) == sorted(c for c, _ in cards)
    for code, q in cards:
        d = next(d for d in dets if d.code == code)
        got = np.array(d.corners, np.float32)
        err = max(float(np.linalg.norm(got - corner, axis=1).min()) for corner in q)
        assert err < 0.06 * 200, f"{code}: a corner is {err:.1f} px from the card's"


@pytest.mark.parametrize("deck_name,code", [("wackee-six", "B13"), ("slap-wacky", "P2-3W"), ("wig-out", "C11"),
                                            ("spite-and-malice", "7B"), ("wonky", "GM")])
def test_partly_covered_card_is_read_by_region(deck_name: str, code: str) -> None:
    """identify_region (what the tracker calls) on a card a hand covers a third of, with the quad
    a couple of pixels off: the card is read from what shows, and not surely as anything else."""
    deck = get_deck(deck_name)
    rng = np.random.default_rng(3)
    comp = Composer(420, 360, rng=rng)
    truth = card_quad(200, 180, 23, L)
    comp.add_card(deck, code, truth)
    # a hand reaching in over the card's right side (its centre and one index stay in view)
    comp.add_hand(258, 190, 60, 45, 80)
    scene = comp.finish(tilt=0.03, blur=0.8, noise=2.0, gradient=0.15, jpeg=90)
    visible = scene.cards[0].visible
    assert 0.55 < visible < 0.9
    jittered = np.roll(truth + rng.normal(0, 1.5, truth.shape).astype(np.float32), 1, axis=0)
    det = identify_region(scene.image, jittered, deck)
    assert det.code == code and det.face_up
    assert det.confidence >= 0.5 and det.covered > 0.0


@pytest.mark.parametrize("long_px", [80, 110])
@pytest.mark.parametrize("turn", [20.0, 200.0])
def test_a_card_washed_out_by_glare_is_not_read_surely_as_one_whose_print_is_missing(long_px: int, turn: float) -> None:
    """A lamp's glare washes the lower half of a Wig Out 3 (green) to white. The 11 (grey, with a
    band of black hair across its middle) fitted the rest better once its hair cells were taken
    for covered, and read at 0.97 to 1.0: the cells a rival explains well where the card read
    explains nothing are the rival's evidence, and count in the margin."""
    deck = get_deck("wig-out")
    comp = Composer(300, 300, cloth=(120, 120, 110), rng=np.random.default_rng(1))
    comp.add_card(deck, "C3", card_quad(150, 150, turn, long_px))
    scene = comp.finish(blur=1.0, noise=2.0)
    corners = np.array(scene.cards[0].corners)
    lamp = 0.7 * (corners[2] + corners[3]) / 2 + 0.3 * corners.mean(axis=0)
    yy, xx = np.mgrid[0:300, 0:300]
    glare = 0.9 * np.exp(-((xx - lamp[0]) ** 2 + (yy - lamp[1]) ** 2) / (2 * (0.6 * long_px) ** 2))
    img = scene.image.astype(np.float32)
    img = np.clip(img + glare[..., None] * (255 - img), 0, 255).astype(np.uint8)
    det = identify_region(img, corners, deck)
    assert det.code in ("C3", UNKNOWN) or det.confidence < 0.9, (det.code, det.confidence)


@pytest.mark.parametrize("deck_name,code,light", [
    ("wonky", "BL", (1.25, 0.45)), ("spite-and-malice", "5B", (1.1, 0.6)), ("wackee-six", "R7", (1.1, 0.6)),
    ("wig-out", "C4", (1.1, 0.6)), ("slap-wacky", "P2-3F", (1.25, 0.45))])
@pytest.mark.parametrize("turn", [20.0, 200.0])
def test_a_card_over_exposed_under_a_lamp_beside_it_is_read(deck_name: str, code: str, light, turn: float) -> None:
    """A camera exposed for a dark cloth, and a lamp's glare beyond one end of the card: the
    channels of its white and of a bright field clip at 255 (an orange field turns yellow), and
    the glare fades from one end to the other. A clipped channel was at least as bright as seen
    (it costs a card only what it predicts below that) and the glare's offset may be a plane
    across the card; before, most of these read as nothing."""
    gain, glare = light
    deck = get_deck(deck_name)
    comp = Composer(300, 300, cloth=(150, 90, 40), rng=np.random.default_rng(2))
    comp.add_card(deck, code, card_quad(150, 150, turn, 80))
    scene = comp.finish(blur=1.0, noise=2.0)
    corners = np.array(scene.cards[0].corners)
    lamp = corners[0] + 1.2 * (corners[3] - corners[0])  # beyond one end of the card
    yy, xx = np.mgrid[0:300, 0:300]
    g = glare * 255 * np.exp(-((xx - lamp[0]) ** 2 + (yy - lamp[1]) ** 2) / (2 * 70.0 ** 2))
    img = np.clip(scene.image.astype(np.float32) * gain + g[..., None], 0, 255).astype(np.uint8)
    on_card = np.zeros(img.shape[:2], np.uint8)
    cv2.fillConvexPoly(on_card, np.round(corners).astype(np.int32), 1)
    assert (img[on_card > 0] == 255).mean() > 0.2  # much of the card is clipped
    det = identify_region(img, corners, deck)
    assert det.code == code and det.confidence >= 0.5, (det.code, det.confidence)


@pytest.mark.parametrize("deck_name,code,wash", [
    ("spite-and-malice", "6", 0.5), ("spite-and-malice", "5B", 0.6), ("wackee-six", "B7", 0.6),
    ("wig-out", "C4", 0.6), ("wonky", "BM", 0.5), ("slap-wacky", "P2-1F", 0.5), ("slap-wacky", "P4-2F", 0.5)])
@pytest.mark.parametrize("turn", [20.0, 200.0])
def test_a_card_washed_out_whole_by_glare_is_read(deck_name: str, code: str, wash: float, turn: float) -> None:
    """A lamp's glare over the whole card lifts its print towards white, and the camera clips the
    white: the offset is then fitted freely too (not held towards none), and kept where it fits
    the best card clearly better. Before, every one of these read as nothing."""
    deck = get_deck(deck_name)
    comp = Composer(300, 300, cloth=(110, 100, 90), rng=np.random.default_rng(3))
    comp.add_card(deck, code, card_quad(150, 150, turn, 80))
    scene = comp.finish(blur=1.0, noise=2.0)
    corners = np.array(scene.cards[0].corners)
    img = scene.image.astype(np.float32) * 1.15
    img = np.clip(img + wash * (255 - img), 0, 255).astype(np.uint8)
    det = identify_region(img, corners, deck)
    assert det.code == code and det.confidence >= 0.9, (det.code, det.confidence)


@pytest.mark.parametrize("deck_name,code", [
    ("spite-and-malice", "5B"), ("wackee-six", "B7"), ("wig-out", "C4"), ("wonky", "BM"),
    ("slap-wacky", "P2-1F"), ("slap-wacky", "P5-3F")])
@pytest.mark.parametrize("turn", [20.0, 200.0])
def test_a_card_washed_out_by_glare_with_nothing_clipped_is_read(deck_name: str, code: str, turn: float) -> None:
    """The same glare seen by a camera that keeps the white below 255 (as an auto-exposed camera
    does): nothing is clipped, yet the print is lifted half the way or more to white. The held
    fit then leaves the best card a poor fit, and that too calls for the freer fit. Before, every
    one of these read as nothing (a Slap Wacky card in a lamp's glare on the identify
    benchmark's tables, read right at 1.0 on its outline, left 0.03)."""
    deck = get_deck(deck_name)
    comp = Composer(300, 300, cloth=(110, 100, 90), rng=np.random.default_rng(3))
    comp.add_card(deck, code, card_quad(150, 150, turn, 80))
    scene = comp.finish(blur=1.0, noise=2.0)
    img = _lifted(scene.image, 0.6 if deck_name in ("wackee-six", "wig-out") else 0.5, white=0.85)
    assert img.max() < 250  # no channel clipped
    det = identify_region(img, np.array(scene.cards[0].corners), deck)
    assert det.code == code and det.confidence >= 0.9, (det.code, det.confidence)


def _lifted(image: np.ndarray, wash: float, white: float) -> np.ndarray:
    """The picture exposed white times as brightly (above 1 its white clips at 255), then lifted
    wash of the way to its white."""
    img = image.astype(np.float32) * white
    return np.clip(img + wash * (min(white, 1.0) * 255 - img), 0, 255).astype(np.uint8)


def _washed_out_read(deck, code: str, wash: float, white: float = 1.15):
    """The read of one card, over-exposed a little and lifted this share of the way to white."""
    comp = Composer(300, 300, cloth=(110, 100, 90), rng=np.random.default_rng(4))
    comp.add_card(deck, code, card_quad(150, 150, 30.0, 80))
    scene = comp.finish(blur=1.0, noise=2.0)
    return identify_region(_lifted(scene.image, wash, white), np.array(scene.cards[0].corners), deck)


@pytest.mark.parametrize("deck_name", ["wackee-six", "wig-out", "wonky"])
def test_a_card_washed_out_to_a_faint_print_is_read(deck_name: str) -> None:
    """Glare that lifts the print seven tenths of the way to white leaves it faint but there:
    where the white is seen clipped, the fit lets the print's contrast fall to a fifth and the
    glare's offset rise to 0.8 of the white. Held at 0.35 and 0.45, every template left more
    than a blank card did, and none of these read."""
    deck = get_deck(deck_name)
    codes = deck.codes[::3]
    right = 0
    for code in codes:
        det = _washed_out_read(deck, code, 0.7)
        assert det.code in (code, UNKNOWN) or det.confidence < 0.9, (code, det.code, det.confidence)
        right += det.code == code and det.confidence >= 0.9
    assert right >= 0.8 * len(codes), (right, len(codes))


@pytest.mark.parametrize("deck_name", ["spite-and-malice", "wackee-six", "wig-out", "wonky", "slap-wacky"])
@pytest.mark.parametrize("white,wash", [(1.15, 0.75), (0.85, 0.7), (0.85, 0.8)])
def test_no_card_washed_out_past_reading_is_read_surely_as_another(deck_name: str, white: float, wash: float) -> None:
    """Washed out further than the fit can follow, a card may go unread, never be read surely
    as another card: with its white clipped, or kept below 255 (where a poor held fit alone
    calls for the freer one)."""
    deck = get_deck(deck_name)
    for code in deck.codes[::3]:
        det = _washed_out_read(deck, code, wash, white)
        assert det.code in (code, UNKNOWN) or det.confidence < 0.9, (code, det.code, det.confidence)


def test_a_read_replaced_by_a_surer_one_of_the_same_card_keeps_the_doubt_of_another() -> None:
    """Reads of one card on several outlines: where one names another card, the read settled on
    is no surer than that one is unsure, even after a later outline (a pose search's) read its
    card surely (a wig-out 4 under a dark sleeve: 0.21 on the outline given, and the 9 at 1.0 on
    a searched pose where the sleeve passed for the 9's dark hair). A read that fits far worse is
    no evidence against it."""
    from vision.identify import _doubted, _Match

    q = np.zeros((4, 2), np.float32)
    nine = _Match("C9", None, 0, 0.999, 0.17, 0.034)
    four = _Match("C4", None, 0, 0.21, 0.43, 0.038)
    got = _doubted((q, nine), [(q, four), (q, _Match("C9", None, 0, 0.18, 0.58, 0.035)), (q, nine)])[1]
    assert got.code == "C9" and got.confidence == pytest.approx(0.79)
    assert got.quality < nine.quality
    far_worse = replace(four, error=0.2)
    assert _doubted((q, nine), [(q, far_worse), (q, nine)])[1].confidence == nine.confidence
    same = _Match("C9", None, 0, 0.5, 0.4, 0.036)
    assert _doubted((q, nine), [(q, same), (q, nine)])[1].confidence == nine.confidence


@pytest.mark.parametrize("deck_name,code", [("wackee-six", "B9"), ("wig-out", "C7"), ("spite-and-malice", "12"),
                                            ("wonky", "RM"), ("slap-wacky", "P5-3F")])
def test_a_card_half_under_an_arm_is_read_and_a_strict_read_is_less_sure(deck_name: str, code: str) -> None:
    """Half the card under an arm: read from what shows (the occluder is found pixel by pixel);
    a strict read (what the tracker asks for: only a card on top, uncovered) counts the covered
    half against the fit, so it is less sure, and never sure of another card."""
    deck = get_deck(deck_name)
    rng = np.random.default_rng(5)
    comp = Composer(420, 360, rng=rng)
    truth = card_quad(200, 180, 8, L)
    comp.add_card(deck, code, truth)
    comp.add_hand(255, 180, 55, 110, 5)  # an arm over the card's right half
    scene = comp.finish(tilt=0.03, blur=0.8, noise=2.0, gradient=0.15, jpeg=90)
    assert 0.45 < scene.cards[0].visible < 0.65
    relaxed = identify_region(scene.image, truth, deck)
    strict = identify_region(scene.image, truth, deck, strict=True)
    assert relaxed.code == code and relaxed.confidence >= 0.5 and relaxed.covered > 0.1
    assert strict.confidence < relaxed.confidence
    assert strict.code in (code, UNKNOWN)


def test_a_quad_two_pixels_off_is_moved_onto_the_card_before_it_is_read() -> None:
    """A small card (76 px long) read on a quad two canonical pixels off: in a shifted picture
    a 13 can pass for an 11, so the quad is first moved to where the card's frame fits."""
    from vision.decks.compose import Composer, card_quad
    from vision.identify import RH, _aligned, templates

    deck = get_deck("wackee-six")
    t = templates(deck)
    moved = []
    for k, (dx, dy) in enumerate(((2, 0), (0, 2), (-2, 0), (0, -2), (2, -2), (-1, 2))):
        comp = Composer(300, 300, cloth=(60, 40, 30), rng=np.random.default_rng(k))
        truth = card_quad(150, 150, 25.0 + 40 * k, 76)
        comp.add_card(deck, "Y13", truth)
        img = comp.finish(blur=1.0, noise=2.0).image
        u = (truth[1] - truth[0]) / np.linalg.norm(truth[1] - truth[0])
        v = (truth[3] - truth[0]) / np.linalg.norm(truth[3] - truth[0])
        q = (truth + 76 / RH * (dx * u + dy * v)).astype(np.float32)
        aq, _, _ = _aligned(img, q, t)
        before, after = float(np.abs(q - truth).max()), float(np.abs(aq - truth).max())
        assert after < before
        moved.append(after)
        assert identify_region(img, q, deck).code == "Y13"
    assert sum(m <= 0.5 for m in moved) >= 5, np.round(moved, 2)


def test_two_reads_naming_two_cards_the_better_fit_stands_less_sure() -> None:
    from vision.identify import _either, _Match

    q1, q2 = np.zeros((4, 2), np.float32), np.ones((4, 2), np.float32)
    good = _Match("Y13", None, 0, 0.9, 0.0, 0.004)
    rival = _Match("Y11", None, 0, 0.6, 0.0, 0.006)
    far_worse = _Match("Y11", None, 0, 1.0, 0.0, 0.02)
    same = _Match("Y13", None, 0, 1.0, 0.0, 0.005)
    q, m = _either((q1, good), (q2, rival))  # comparable fits: the better stands, less sure
    assert m.code == "Y13" and q is q1 and abs(m.confidence - 0.9 * 0.4) < 1e-9
    _, m = _either((q2, far_worse), (q1, good))  # a read fitting five times worse is no evidence
    assert m.code == "Y13" and m.confidence == 0.9
    q, m = _either((q1, good), (q2, same))  # the same card: the surer read
    assert q is q2 and m.confidence == 1.0


def test_two_reads_naming_a_standard_card_and_its_twin_leave_the_twin_to_the_pair_read() -> None:
    """The templates' margin between twins (a small spade and club) is not evidence against the
    outline: the read that fits better stands, less sure, but with its quality whole, so that
    the pair read can make it sure; reads of two cards that are not twins cut it as before."""
    from vision.identify import _doubted, _either, _Match

    q1, q2 = np.zeros((4, 2), np.float32), np.ones((4, 2), np.float32)
    clubs = _Match("AC", None, 0, 0.6, 0.0, 0.0019, rival=("AS", None), rival_margin=0.6)
    spades = _Match("AS", None, 0, 0.0, 0.0, 0.0013, rival=("AC", None), rival_margin=0.0)
    q, m = _either((q1, clubs), (q2, spades))
    assert q is q2 and m.code == "AS" and m.quality == 1.0
    _, m = _doubted((q2, m), [(q1, clubs), (q2, m)])
    assert m.quality == 1.0
    four = _Match("4S", None, 0, 0.6, 0.0, 0.0019, rival=("AS", None), rival_margin=0.6)
    _, m = _either((q1, four), (q2, spades))
    assert m.code == "AS" and abs(m.quality - 0.4) < 1e-9
    hearts = _Match("AH", None, 0, 0.6, 0.0, 0.0019, rival=("AD", None), rival_margin=0.6)
    _, m = _either((q1, hearts), (q2, spades))  # not each other's rival: not the twin question
    assert abs(m.quality - 0.4) < 1e-9
    poor = replace(clubs, quality=0.2, confidence=0.12)  # it barely sees a card: it may be neither
    _, m = _either((q1, poor), (q2, spades))
    assert abs(m.quality - 0.88) < 1e-9


@pytest.mark.parametrize("code,twin,other", [("KH", "KD", "JH"), ("7S", "7C", "8S"), ("3C", "3S", "2C")])
def test_a_standard_card_read_surely_as_its_twin_is_doubted_by_the_pair_read(code: str, twin: str, other: str) -> None:
    """Where the templates put a card's twin ahead of it and another card closest behind, the
    pair read still compares the twins; where it favours the other twin, the read is cut. The
    card's own read, checked the same way, keeps its confidence."""
    from vision.identify import _Match, _oriented, _twin_checked

    deck = get_deck("standard")
    comp = Composer(240, 240, cloth=(40, 110, 40), rng=np.random.default_rng(5))
    comp.add_card(deck, code, card_quad(120, 120, 20.0, 100))
    scene = comp.finish(blur=0.8, noise=2.0)
    q = _oriented(np.array(scene.cards[0].corners, np.float32))
    rot = 0 if np.linalg.norm(q[0] - scene.cards[0].corners[0]) < 1 else 180
    wrong = _twin_checked(scene.image, q, deck, _Match(twin, None, rot, 0.97, 0.0, 0.01, rival=(other, None)))
    assert wrong.confidence < 0.5, wrong
    right = _twin_checked(scene.image, q, deck, _Match(code, None, rot, 0.97, 0.0, 0.01, rival=(other, None)))
    assert right.confidence == 0.97


def test_of_two_outlines_read_as_one_card_the_clearly_better_fit_holds_the_place() -> None:
    """A red back on a white face showed no outline along that side; a rectangle across the back
    and part of the face, with edges all round, ranked higher though it fitted 2.6 times worse."""
    from vision.identify import FIT_CLEARLY, _holds_place

    # the same card: ranks decide, unless one read fits it clearly better
    assert _holds_place(True, (3, 0.0215), (1, 0.0215))
    assert not _holds_place(True, (3, 0.0215), (1, 0.0082))
    assert _holds_place(True, (1, 0.0082), (3, 0.0215))
    assert _holds_place(True, (3, 0.01), (1, 0.01 / (0.9 * FIT_CLEARLY)))  # not clearly better
    assert _holds_place(True, (3, 0.03), (-1, 0.001))  # no outline at all: ranks decide
    # two cards: the higher rank, and of two ranked alike the better fit
    assert _holds_place(False, (3, 0.03), (1, 0.001))
    assert not _holds_place(False, (2, 0.03), (2, 0.01))
    assert _holds_place(False, (2, 0.01), (2, 0.03))


def test_settle_two_reads_of_one_card_on_two_outlines() -> None:
    """The tracker's outline hypotheses for one card, settled as _either settles reads."""
    from vision.identify import settle
    from vision.types import Detection

    q = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    pale3 = Detection(UNKNOWN, q, 0.39, best_fit="3", fit_error=0.0058)  # unsure, fits best
    off7 = Detection("7", q, 0.67, best_fit="7", fit_error=0.0098)  # an outline 12 px off
    got = settle(pale3, off7)
    assert got.code == UNKNOWN and got.confidence < 0.5  # no 7: the better fit is no card yet
    sure = Detection("3", q, 0.95, best_fit="3", fit_error=0.004)
    # a sure 3 against a 7 fitting 2.4 times worse: the 3 stands, cut to no card yet (the
    # tracker reads the other outlines only while no read is sure, and tries again later)
    assert settle(off7, sure).best_fit == "3" and settle(off7, sure).code == UNKNOWN
    far = Detection("7", q, 0.9, best_fit="7", fit_error=0.05)  # fits far worse: no evidence
    assert settle(far, sure) == sure
    again = Detection("3", q, 0.6, best_fit="3", fit_error=0.005)
    assert settle(again, sure) == sure  # the same card: the surer read
    plain = Detection("7", q, 0.8)  # a reader that measures no fit: the surer read
    assert settle(plain, again) == plain


@pytest.mark.parametrize("code", ["4S", "10H"])
def test_a_card_outranks_a_rectangle_over_half_of_it(code: str) -> None:
    # half a card cut across its long side is itself card-shaped, and the half of a four of
    # spades shows an index and two pips (a two of spades, on a real deck): of two sure reads
    # of one place, the one whose outline shows on every side must stand
    from vision.identify import BEST_RANK, _rank, _read_region

    deck = get_deck("standard")
    comp = Composer(500, 400, rng=np.random.default_rng(0))
    q = card_quad(250, 200, 100, L)
    comp.add_card(deck, code, q)
    image = comp.finish(noise=2.0).image
    half = np.array([q[0], q[1], (q[1] + q[2]) / 2, (q[0] + q[3]) / 2], np.float32)
    ranks = []
    for quad in (q, half):
        det, m = _read_region(image, quad, deck, refine=False, search=False, strict=True)
        ranks.append(_rank(image, np.array(det.corners, np.float32), det, m))
    assert ranks[0] == BEST_RANK
    assert ranks[1] < 2  # no outline along the cut across the card


@pytest.mark.parametrize("seed", [5, 6])
def test_a_hand_on_green_felt_is_not_read_surely_as_a_green_card(seed: int) -> None:
    """A hand over the edge of a card on green felt: the blob of card and hand gets card-sized
    hypotheses around it, and a patch of felt with the hand's skin over it looks much like a
    green character card's field and face (wig-out's C3), which read surely before. A card's
    outline shows along most of at least one side of it; nothing without one is read surely."""
    deck = get_deck("wig-out")
    rng = np.random.default_rng(seed)
    comp = Composer(700, 420, rng=rng)
    comp.add_card(deck, "C7", card_quad(200, 210, 8 + seed * 7, L))
    for i, code in enumerate(["C1", "C2", "C4"]):
        comp.add_card(deck, code, card_quad(420 + (i % 2) * 170, 110 + (i // 2) * 200 + (i % 2) * 60, 20 * i - 15, L))
    comp.add_hand(272, 210, 55, 110, 5)  # over the right third of C7
    scene = comp.finish(tilt=0.03, blur=0.8, noise=2.0, gradient=0.15, jpeg=90)
    dets = identify(scene.image, deck)
    sure = {d.code for d in dets if d.confidence >= 0.9}
    assert {"C1", "C2", "C4"} <= sure
    assert sure <= {"C1", "C2", "C4", "C7"}


@pytest.mark.parametrize(("deck_name", "code"), [("standard", "3H"), ("spite-and-malice", "7")])
@pytest.mark.parametrize(("structure", "strict", "sure"), [(0.3, True, False), (0.3, False, True), (0.8, True, True)])
def test_a_blob_hypothesis_the_templates_explain_little_of_is_not_read_surely(
        monkeypatch: pytest.MonkeyPatch, deck_name: str, code: str, structure: float, strict: bool,
        sure: bool) -> None:
    """A hypothesis across the cards of a pile reads as one of them: on white faces the card
    below, whose template takes the top card's paper for its own; on a 3 lying on an 11, turned
    with the 11, a 7. A strict read (a hypothesis, not a known outline) whose templates explain
    little of the picture is therefore not sure (unless a standard card's corner index confirms
    it); a known outline's read is."""
    import vision.decks.index_reader as index_reader
    import vision.identify as ident

    match = ident._Match(code, None, 0, 1.0, 0.14, 0.017, structure=structure)
    monkeypatch.setattr(ident, "_best_read", lambda image, q, *a, **k: (q, match))
    monkeypatch.setattr(index_reader, "read_index", lambda image, q: None)
    img = np.zeros((100, 100, 3), np.uint8)
    det = identify_region(img, card_quad(50, 50, 0.0, 78), get_deck(deck_name), strict=strict)
    assert det.code == code
    assert (det.confidence >= 0.9) is sure


def test_a_quad_on_a_straight_edge_with_no_other_outline_is_not_a_sure_card() -> None:
    """The table's edge (dark cloth beyond, wood inside) with a card-sized quad drawn on it: its
    outline shows along one side only. A two-tone character card fitted such a quad surely; a
    card shows its outline along at least two sides, so it is never ranked as a card."""
    from vision.detect import order_clockwise
    from vision.identify import _Match, _rank
    from vision.types import Detection

    rng = np.random.default_rng(2)
    img = np.empty((300, 400, 3), np.float32)
    img[:150] = (30, 70, 35)  # beyond the table
    img[150:] = (70, 110, 160)  # the wood
    img = np.clip(cv2.GaussianBlur(img, (0, 0), 1.2) + rng.normal(0, 3, img.shape), 0, 255).astype(np.uint8)
    # on the wood, one side along the edge: going out across it the picture darkens, as at a card's
    edge = order_clockwise(np.array([[160, 150], [240, 150], [240, 206], [160, 206]], np.float32))
    det = Detection("C3", tuple(map(tuple, edge)), 0.98)
    assert _rank(img, edge, det, _Match("C3", None, 0, 0.98, 0.0, 0.001)) == -1
    card = order_clockwise(np.array([[280, 230], [360, 230], [360, 174], [280, 174]], np.float32))
    img[174:230, 280:360] = (235, 235, 235)  # a plain white card on the wood
    det = Detection("C3", tuple(map(tuple, card)), 0.98)
    assert _rank(img, card, det, _Match("C3", None, 0, 0.98, 0.0, 0.001)) >= 0


@pytest.mark.parametrize(("whole", "rank", "index", "kept"), [
    (True, 1, None, False), (False, 1, None, True), (True, 3, None, True),
    (True, 1, ("3H", 1.0), True), (True, 1, ("3H", 0.6), False), (True, 1, ("6H", 1.0), False)])
def test_a_rectangle_fitted_whole_is_not_searched_far_off(monkeypatch: pytest.MonkeyPatch, whole: bool, rank: int,
                                                          index: tuple[str, float] | None, kept: bool) -> None:
    """A pile's top card gets the rectangle fitted whole as a hypothesis as well as its side
    fit. Searched from, such a rectangle can stray onto part of the card, which reads as another
    card (a 6 of hearts' top part read as a 3 of hearts at 0.97): a search that takes it further
    than a little off is not read, unless its sure read's outline shows on every side (rank 3):
    then the search found the whole card (a fan's top 8, whose other hypothesis, turned onto the
    cards below, read as a 7 at 1.0); or unless the corner index on it names the card surely (a
    fan's top 8 of hearts, one side on the white of the card below, showed no outline there).
    Other hypotheses are searched as before."""
    import vision.identify as ident
    from vision.decks import index_reader
    from vision.detect import Candidate

    monkeypatch.setattr(index_reader, "read_index",
                        lambda image, corners: None if index is None else index_reader.IndexRead(*index, 0))

    q = card_quad(200, 200, 10.0, 100)  # 71 px wide
    far = q + np.float32([0.3 * 71, 0.0])  # searched 30 % of its width away

    def read(image, corners, deck, refine=True, search=True, strict=False):
        if not search:
            return ident.Detection("?", tuple(map(tuple, corners)), 0.1), ident._Match("?", None, 0, 0.1, 0.0, 0.01)
        return (ident.Detection("3H", tuple(map(tuple, far)), 0.97),
                ident._Match("3H", None, 0, 0.97, 0.0, 0.005, rival=("3D", None)))

    monkeypatch.setattr(ident, "find_candidates", lambda image, card_px=None, **kw: [Candidate(q, False, 0, whole)])
    monkeypatch.setattr(ident, "_read_region", read)
    monkeypatch.setattr(ident, "_rank", lambda image, q, det, m, support=None: rank)
    dets = ident.identify(np.zeros((400, 400, 3), np.uint8), get_deck("standard"))
    assert [d.code for d in dets] == (["3H"] if kept else [])


@pytest.mark.parametrize("first_fits_better", [False, True])
def test_two_sure_reads_of_one_card_naming_two_cards_the_better_fit_stands(
        monkeypatch: pytest.MonkeyPatch, first_fits_better: bool) -> None:
    """Two hypotheses of one pile's top card, one a few pixels off it, read a king of hearts as
    itself (1.0) and as a king of diamonds (0.97), ranked alike. The first read no longer holds
    the place by coming first: the second quad is read too, and the read that fits its picture
    better stands, whichever came first."""
    import vision.identify as ident
    from vision.detect import Candidate

    true = card_quad(200, 200, 10.0, 100)
    off = true + np.float32([[0, 0], [-7, 0], [-5, 2], [0, 0]])  # within 20 % of its short side
    reads = {"KD": (off, 0.97, 0.0136 if not first_fits_better else 0.005),
             "KH": (true, 1.0, 0.0065)}

    def read(image, corners, deck, refine=True, search=True, strict=False):
        code = "KD" if np.allclose(corners, off) else "KH"
        q, conf, err = reads[code]
        return (ident.Detection(code, tuple(map(tuple, q)), conf),
                ident._Match(code, None, 0, conf, 0.0, err))

    monkeypatch.setattr(ident, "find_candidates", lambda image, card_px=None, **kw: [
        Candidate(off, False, 0), Candidate(true, False, 0)])
    monkeypatch.setattr(ident, "_read_region", read)
    monkeypatch.setattr(ident, "_rank", lambda image, q, det, m, support=None: ident.BEST_RANK)
    dets = ident.identify(np.zeros((400, 400, 3), np.uint8), get_deck("standard"))
    assert [d.code for d in dets] == (["KD"] if first_fits_better else ["KH"])


@pytest.mark.parametrize("other_err", [0.0065, 0.02])
def test_two_sure_reads_of_one_place_naming_two_cards_leave_the_better_fit_unsure(
        monkeypatch: pytest.MonkeyPatch, other_err: float) -> None:
    """Two hypotheses of one wackee-six 11, one a few pixels off it on the side of its numeral's
    first digit, read it as itself and as the 13, both fully surely and ranked alike (on the
    identify benchmark's tables the 13 fit better and was reported at 1.0). The better fit holds
    the place, no surer than the other read is unsure; unless the other fits far worse."""
    import vision.identify as ident
    from vision.detect import Candidate

    true = card_quad(200, 200, 10.0, 100)
    off = true + np.float32([[0, 0], [0, 0], [-6, 1], [-7, 0]])
    reads = {"R13": (off, 1.0, 0.005), "R11": (true, 1.0, other_err)}

    def read(image, corners, deck, refine=True, search=True, strict=False):
        code = "R13" if np.allclose(corners, off) else "R11"
        q, conf, err = reads[code]
        return (ident.Detection(code, tuple(map(tuple, q)), conf),
                ident._Match(code, None, 0, conf, 0.0, err))

    for order in ([true, off], [off, true]):
        monkeypatch.setattr(ident, "find_candidates", lambda image, card_px=None, order=order, **kw: [
            Candidate(q, False, 0) for q in order])
        monkeypatch.setattr(ident, "_read_region", read)
        monkeypatch.setattr(ident, "_rank", lambda image, q, det, m, support=None: ident.BEST_RANK)
        dets = ident.identify(np.zeros((400, 400, 3), np.uint8), get_deck("wackee-six"))
        assert len(dets) == 1
        if other_err > ident.WORSE_FIT * 0.005:
            assert (dets[0].code, dets[0].confidence) == ("R13", 1.0)
        else:
            assert dets[0].code == UNKNOWN and dets[0].confidence < 0.5


@pytest.mark.parametrize("closed", [True, False])
def test_a_sure_read_with_an_open_outline_is_contested_and_cannot_doubt_one_outlined_all_round(
        monkeypatch: pytest.MonkeyPatch, closed: bool) -> None:
    """A rectangle two fifths of a card off a pile's clear eight of clubs, over its last two
    columns of pips and the cards below, read as a seven of clubs at 1.0, its outline showing
    along each side (the pile's edges, a column of pips) but along one only half of it; the
    eight's own hypotheses, centred on that rectangle, were then never read (identify
    benchmark --scale 2, seed 1, scene 7: a phantom at 1.0). A sure read whose outline shows
    along OUTLINE_CLOSED of every side is not contested by another card's hypotheses; one whose
    outline does not is, by those whose outline shows better (_shows). Of two sure reads of one
    place ranked alike the better fit stands, as before, and one outlined all round is not
    doubted by one that is not, whichever is read first (where neither is, it is as unsure as
    the other is sure; and the seven's quad, its outline showing worse, does not contest the
    eight read first)."""
    import vision.identify as ident
    from vision.detect import Candidate

    true = card_quad(200, 200, 10.0, 100)
    off = true + np.float32([[-2, 38], [-2, 38], [-2, 38], [-2, 38]])  # 0.4 of its width towards a long side
    assert ident._inside(tuple(true.mean(axis=0)), off) and not ident._same_card(true, off)
    sides = {"7C": np.float32([0.88, 0.82, 0.65, 0.53]),
             "8C": np.float32([1.0, 1.0, 1.0, 0.95] if closed else [1.0, 1.0, 0.8, 0.5])}
    assert sides["7C"][-1] < ident.OUTLINE_CLOSED and (sides["8C"][-1] >= ident.OUTLINE_CLOSED) == closed

    def read(image, corners, deck, refine=True, search=True, strict=False):
        code = "7C" if np.allclose(corners, off) else "8C"
        return (ident.Detection(code, tuple(map(tuple, corners)), 1.0),
                ident._Match(code, None, 0, 1.0, 0.0, 0.005 if code == "8C" else 0.009))

    def support(image, q):
        return sides["7C" if np.allclose(q, off) else "8C"]

    monkeypatch.setattr(ident, "_read_region", read)
    monkeypatch.setattr(ident, "_support", support)
    monkeypatch.setattr(ident, "_rank", lambda image, q, det, m, support=None: ident.BEST_RANK)
    for order in ([off, true], [true, off]):
        monkeypatch.setattr(ident, "find_candidates", lambda image, card_px=None, order=order, **kw: [
            Candidate(q, False, 0) for q in order])
        dets = ident.identify(np.zeros((400, 400, 3), np.uint8), get_deck("standard"))
        if closed or order[0] is true:
            assert [(d.code, d.confidence) for d in dets] == [("8C", 1.0)]
        else:  # (neither outlined all round: the better fit stands, no surer than the other is unsure)
            assert [(d.code, d.confidence) for d in dets] == [(UNKNOWN, 0.0)]


@pytest.mark.parametrize("case", ["outlined all round", "the other shows no better"])
def test_a_sure_read_is_contested_only_by_a_quad_whose_outline_shows_better(
        monkeypatch: pytest.MonkeyPatch, case: str) -> None:
    """A sure blob read holds its place, the hypotheses of other cards centred on it not read,
    where its outline shows along OUTLINE_CLOSED of every side (a pile's top card, one side on
    the white of the card below), or where theirs shows no better on its three best sides
    (_shows): contesting every sure read not outlined along 0.9 of every side read 44 % more
    quads over the identify benchmark's tables, for one card more."""
    import vision.identify as ident
    from vision.detect import Candidate

    true = card_quad(200, 200, 10.0, 100)
    off = true + np.float32([[-2, 38], [-2, 38], [-2, 38], [-2, 38]])
    read_at: list[str] = []

    def read(image, corners, deck, refine=True, search=True, strict=False):
        code = "7C" if np.allclose(corners, off) else "8C"
        read_at.append(code)
        return (ident.Detection(code, tuple(map(tuple, corners)), 1.0),
                ident._Match(code, None, 0, 1.0, 0.0, 0.005 if code == "8C" else 0.009))

    sides = {"7C": np.float32([1.0, 0.9, 0.8, ident.OUTLINE_CLOSED + 0.05]), "8C": np.float32([1.0, 1.0, 1.0, 0.9])}
    if case == "the other shows no better":
        sides = {"7C": np.float32([0.88, 0.82, 0.65, 0.53]), "8C": np.float32([1.0, 0.7, 0.6, 0.5])}
    assert (sides["7C"][-1] >= ident.OUTLINE_CLOSED) == (case == "outlined all round")
    monkeypatch.setattr(ident, "_read_region", read)
    monkeypatch.setattr(ident, "_support", lambda image, q: sides["7C" if np.allclose(q, off) else "8C"])
    monkeypatch.setattr(ident, "_rank", lambda image, q, det, m, support=None: ident.BEST_RANK)
    monkeypatch.setattr(ident, "find_candidates", lambda image, card_px=None, **kw: [
        Candidate(off, False, 0), Candidate(true, False, 0)])
    dets = ident.identify(np.zeros((400, 400, 3), np.uint8), get_deck("standard"))
    assert read_at == ["7C"] and [d.code for d in dets] == ["7C"]


@pytest.mark.parametrize("deck_name,code,shear", [("standard", "7C", 0.35), ("standard", "QS", 0.45),
                                                  ("wackee-six", "R9", 0.45)])
def test_a_card_in_strong_perspective_is_read_on_its_own_outline_not_a_rectangle(
        monkeypatch: pytest.MonkeyPatch, deck_name: str, code: str, shear: float) -> None:
    """A card seen under a strongly tilted camera, read on its own outline (a parallelogram). The
    reader's sharpening fits a rectangle to the image's edges, which turned such an outline off
    the card (a real photo's seven of clubs, enrolled deck: 24 degrees from square, unread after
    it); that outline is sharpened side by side instead (detect.fit_sides). A card seen square
    is still fitted a rectangle."""
    import vision.identify as ident

    fitted = []
    real_fit = ident.fit_edges
    monkeypatch.setattr(ident, "fit_edges", lambda *a, **k: fitted.append(1) or real_fit(*a, **k))
    deck = get_deck(deck_name)
    for sheared in (shear, 0.0):
        comp = Composer(500, 400, cloth=(40, 50, 70), rng=np.random.default_rng(1))
        q = _skewed(250, 200, 12, 180, sheared)
        comp.add_card(deck, code, q)
        image = comp.finish(blur=0.8, noise=2.0, jpeg=90).image
        fitted.clear()
        det = identify_region(image, q, deck)
        assert det.code == code and det.confidence >= 0.9
        got = np.array(det.corners, np.float32)
        assert max(float(np.linalg.norm(got - c, axis=1).min()) for c in q) < 4.0
        assert bool(fitted) == (sheared == 0.0)


@pytest.mark.parametrize("deck_name,code", [("standard", "QH"), ("standard", "4D"), ("wackee-six", "B13")])
def test_a_quad_in_perspective_with_a_corner_off_is_sharpened_on_the_cards_own_outline(
        monkeypatch: pytest.MonkeyPatch, deck_name: str, code: str) -> None:
    """A tracker's quad of a card seen in perspective, one corner a few pixels off (on a
    rendered table, at 51 px wide, such a quad read a queen of hearts as the king of diamonds,
    fully sure): each side is sharpened on the card's own outline and that outline is read
    first, as a quad seen square is sharpened by fitting a rectangle."""
    import vision.identify as ident

    read_on = []
    real = ident._aligned
    monkeypatch.setattr(ident, "_aligned", lambda image, q, *a, **k: read_on.append(q) or real(image, q, *a, **k))
    deck = get_deck(deck_name)
    for k in range(4):
        comp = Composer(300, 300, cloth=(40, 90, 50), rng=np.random.default_rng(k))
        truth = _skewed(150, 150, 35.0 + 80 * k, 80, 0.2)
        comp.add_card(deck, code, truth)
        image = comp.finish(blur=0.9, noise=2.0, jpeg=90).image
        q = truth.copy()
        a = np.radians(60 + 90 * k)
        q[k] += 4.0 * np.array([np.cos(a), np.sin(a)], np.float32)
        read_on.clear()
        d = identify_region(image, q, deck)
        first = np.asarray(read_on[0], np.float32)
        off = max(float(np.linalg.norm(first - c, axis=1).min()) for c in truth)
        assert off < 1.0, f"{code}, corner {k}: first read on an outline {off:.1f} px off the card's"
        assert d.code == code and d.confidence >= 0.9


def test_a_card_in_perspective_outlined_all_round_is_not_pose_searched(monkeypatch) -> None:
    """Where a quad in perspective, sharpened side by side, follows the card's outline along all
    four sides near the quad given, the card's pose is known: an unsure read is not searched for
    a better one (a real photo's seven of clubs, another design than our renders, was searched
    off its outline onto a pose where its corner index was no longer sure). A quad given several
    pixels off the outline its sides were fitted to (a pile's edges, a pattern inside the card
    follow an outline all round too), and a quad seen square, sharpened as a rectangle, are
    searched as before."""
    import vision.identify as ident

    real = ident._match
    monkeypatch.setattr(ident, "_match", lambda *a, **k: replace(real(*a, **k), confidence=0.3))
    deck = get_deck("wackee-six")
    for shear, off, searched in ((0.2, 1.0, False), (0.2, 5.0, True), (0.0, 1.0, True)):
        comp = Composer(300, 300, cloth=(40, 90, 50), rng=np.random.default_rng(3))
        truth = _skewed(150, 150, 35.0, 110, shear)
        comp.add_card(deck, "G7", truth)
        image = comp.finish(blur=0.9, noise=2.0).image
        calls = _counted(monkeypatch, ident, "_pose_search")
        identify_region(image, truth + off, deck)
        assert bool(calls) == searched, (shear, off)


def test_the_corner_index_agreeing_with_templates_that_see_no_card_does_not_make_it_sure(monkeypatch) -> None:
    """The templates' best card counts as a witness for the corner index only where they see a
    card: on a quad across a fan (a ten of spades over a three of hearts) their best fit of
    nothing named the jack of diamonds, as did an index read at 0.9 that took the ten's pips for
    a court picture; the two together made a sure jack. An index read sure on its own decides."""
    import vision.identify as ident

    deck = get_deck("standard")
    image = np.full((300, 300, 3), 90, np.uint8)
    q = card_quad(150, 150, 20, L)
    for structure, covered, index_conf, read in ((-0.7, 0.48, 0.9, False), (0.8, 0.1, 0.9, True),
                                                 (-0.7, 0.48, 0.97, True)):
        def best_read(image, q, *args, structure=structure, covered=covered, **kw):
            return q, ident._Match("JD", None, 0, 0.0, covered, 0.03, structure=structure, quality=0.0)

        monkeypatch.setattr(ident, "_best_read", best_read)
        _index_reads(monkeypatch, "JD", index_conf)
        d = identify_region(image, q, deck)
        assert (d.code == "JD") == read, (structure, index_conf)
        if read:
            assert d.confidence == index_conf


def test_the_corner_index_makes_a_blob_read_the_templates_explain_little_of_sure_only_when_sure(monkeypatch) -> None:
    """A blob hypothesis two thirds over a pile's ace of spades and the corner of the seven of
    hearts below it, the seven's index in its corner, read as that seven: its templates explained
    a third of its picture (below STRUCTURE_BLOB, so at most BLOB_UNSURE sure), and its index,
    read at 0.9, made it sure; it held the place of the ace's own sure reads. On a blob's
    hypothesis (strict) only an index read sure on its own (INDEX_SURE) makes a read the templates
    explain so little of sure; on a card's own outline the index witnesses as before."""
    import vision.identify as ident

    deck = get_deck("standard")
    image = np.full((300, 300, 3), 90, np.uint8)
    q = card_quad(150, 150, 20, L)
    for strict, index_conf, read in ((True, 0.9, False), (False, 0.9, True), (True, 0.97, True)):
        def best_read(image, q, *args, **kw):
            return q, ident._Match("7H", None, 0, 0.0, 0.1, 0.015, structure=0.35, quality=0.0)

        monkeypatch.setattr(ident, "_best_read", best_read)
        _index_reads(monkeypatch, "7H", index_conf)
        d, _ = ident._read_region(image, q, deck, refine=False, search=False, strict=strict)
        assert (d.code == "7H") == read, (strict, index_conf)
        if read:
            assert d.confidence == index_conf


def _one_card(deck_name: str, code: str):
    """(deck, quad, image): one card of the deck, turned 20 degrees, on a green cloth."""
    deck = get_deck(deck_name)
    comp = Composer(300, 300, cloth=(60, 120, 40))
    q = card_quad(150, 150, 20, L)
    comp.add_card(deck, code, q)
    return deck, q, comp.finish(blur=0.8, noise=2.0).image


def test_a_quad_on_no_card_is_given_up_after_its_first_read(monkeypatch) -> None:
    """Where the first read finds no card at all (its best template leaves more variation than
    the picture has, or explains too few of the cells to read anything: a tracker's outline on
    an arm or a moving shadow), the quad as given, the quad grown by the margin and the pose
    search are not read too: they cost 10-20 ms a quad and found no card there. A read that
    finds a card's structure goes on as before."""
    from dataclasses import replace

    import vision.identify as ident

    deck, q, image = _one_card("wackee-six", "G7")
    real = ident._match
    firsts = {"structure -3": dict(confidence=0.0, structure=-3.0),
              "few cells explained": dict(code=UNKNOWN, back=None, confidence=0.0, structure=0.0, quality=0.0),
              "structure 0.5": dict(confidence=0.0, structure=0.5)}
    for name, reads in (("structure -3", 1), ("few cells explained", 1), ("structure 0.5", 2)):
        calls = []

        def match(*args, first=firsts[name], calls=calls, **kw):
            calls.append(1)
            m = real(*args, **kw)
            return replace(m, **first) if len(calls) == 1 else m

        monkeypatch.setattr(ident, "_match", match)
        # (2 px off each way: _aligned lays a quad up to about 3 px off a card this size on it,
        # but not every way: on four cards 189 of 196 such moves were read surely, not 3 px
        # right and down from this one)
        d = identify_region(image, q + 2.0, deck)
        assert len(calls) == reads, name
        assert (d.code == UNKNOWN) == (reads == 1)


@pytest.mark.parametrize("deck_name,code,grown", [("standard", "7D", False), ("standard", "KS", False),
                                                  ("wackee-six", "G7", True), ("wig-out", "C4", True)])
def test_only_a_face_with_a_colour_field_is_read_on_its_outline_grown_by_the_margin(
        monkeypatch: pytest.MonkeyPatch, deck_name: str, code: str, grown: bool) -> None:
    """Where neither the outline given nor the sharpened one reads surely, a face printed with a
    colour field inside a white margin is read again on the quad grown by that margin (on a pale
    cloth the outline found may be the field's). A standard card's print lies on the white: it is
    not read so (under a lamp's glare, where few of its reads are sure, that read took a quarter
    of the tracker's reading time, and the identify benchmark read no fewer cards right without)."""
    import vision.identify as ident

    deck, q, image = _one_card(deck_name, code)
    real_match, real_scaled = ident._match, ident._scaled
    grown_reads: list[float] = []

    def scaled(quad, k):
        if k == ident.FIELD_SCALE:
            grown_reads.append(k)
        return real_scaled(quad, k)

    monkeypatch.setattr(ident, "_match", lambda *a, **kw: replace(real_match(*a, **kw), confidence=0.5))
    monkeypatch.setattr(ident, "_scaled", scaled)
    d = identify_region(image, q, deck, quick=True)  # (quick: no pose search after)
    assert bool(grown_reads) == grown
    assert d.code == code  # read all the same (the card's corner index, or the templates, unsure)


def _counted(monkeypatch: pytest.MonkeyPatch, module, name: str) -> list[int]:
    """Patch module.name to count its calls (the list returned grows by one a call)."""
    real, calls = getattr(module, name), []

    def counting(*args, **kw):
        calls.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(module, name, counting)
    return calls


def _index_reads(monkeypatch: pytest.MonkeyPatch, code: str, confidence: float) -> None:
    """Make the corner index read every quad as this card, this surely."""
    import vision.decks.index_reader as index_reader

    monkeypatch.setattr(index_reader, "read_index",
                        lambda image, corners: index_reader.IndexRead(code, confidence, 0))


def test_a_card_whose_index_reads_it_fully_surely_needs_no_pair_read(monkeypatch) -> None:
    """A standard card that its templates read surely and its corner index, fully surely, as the
    same card is that card, fully sure: the pair read (20-30 ms) is not run. An index read less
    sure, or of another card, leaves the pair read to settle the twins; so do templates unsure
    between the twins (a seven of spades), whose card may agree with the index only by chance."""
    import vision.identify as ident

    for code, index_read, paired in (("7H", ("7H", 1.0), False), ("7H", ("7H", 0.97), True),
                                     ("7H", ("7D", 1.0), True), ("7S", ("7S", 1.0), True)):
        deck, q, image = _one_card("standard", code)
        monkeypatch.undo()
        calls = _counted(monkeypatch, ident, "_pair_settled")
        _index_reads(monkeypatch, *index_read)
        d = identify_region(image, q, deck)
        assert bool(calls) == paired, (code, index_read)
        if not paired:
            assert (d.code, d.confidence) == (code, 1.0)


@pytest.mark.parametrize("index_read,windows", [(("7S", 1.0), False), (("7S", 0.97), True), (("7C", 1.0), True)])
def test_a_black_card_its_index_names_fully_surely_is_pair_read_only_against_its_twin(
        monkeypatch: pytest.MonkeyPatch, index_read: tuple[str, float], windows: bool) -> None:
    """A seven of spades the templates cannot tell from the seven of clubs, whose corner index
    reads the spade fully surely: the pair read is asked only whether it favours the club (the
    index's shape model can be sure and wrong), and where its whole print favours the spade its
    marks' windows are not read (a pair read that favours the card leaves the index's verdict).
    An index less sure, or naming the club, leaves the whole pair read to run."""
    import vision.pair_read as pair_read

    deck, q, image = _one_card("standard", "7S")
    read_windows = _counted(monkeypatch, pair_read, "_marks_margin")
    _index_reads(monkeypatch, *index_read)
    d = identify_region(image, q, deck)
    assert bool(read_windows) == windows
    if index_read == ("7S", 1.0):
        assert (d.code, d.confidence) == ("7S", 1.0)


def test_a_card_unsure_only_against_its_twin_is_not_pose_searched_where_its_index_is_sure(monkeypatch) -> None:
    """A standard card whose templates are sure against every card but its twin (an 8 of
    spades against the 8 of clubs), and whose corner index reads surely as one of the two: a
    search of its exact pose (10-20 ms, the largest part of a standard read on the tracker's
    moving frames) would tell the twins apart no better than the index and the pair read do, so
    it is not run. An index read unsure, or of a third card, leaves the search to run. (The
    outline given lies 2 px off the card: one that its edges confirm is not searched at all,
    see the next test.)"""
    import vision.identify as ident

    deck = get_deck("standard")
    comp = Composer(300, 300, cloth=(40, 90, 50), rng=np.random.default_rng(2))
    comp.add_card(deck, "8S", card_quad(150, 150, 25.0, 110))
    scene = comp.finish(blur=1.0, noise=2.0)
    corners = np.array(scene.cards[0].corners) + 2.0
    q = ident._oriented(np.asarray(corners, np.float32))
    _, m = ident._best_read(scene.image, q, ident.templates(deck), True, search=False, align=False)
    # the case: unsure against the twin only (an 8 of diamonds so drawn is read surely now)
    assert m.confidence < 0.9 and m.rival == ("8C", None) and m.other_margin * m.quality >= 0.9
    for index_read, searched in ((("8S", 1.0), False), (("8C", 0.96), False), (("8S", 0.6), True),
                                 (("3S", 1.0), True)):
        monkeypatch.undo()
        calls = _counted(monkeypatch, ident, "_pose_search")
        _index_reads(monkeypatch, *index_read)
        d = identify_region(scene.image, corners, deck)
        assert bool(calls) == searched, index_read
        if index_read == ("8S", 1.0):
            assert (d.code, d.confidence) == ("8S", 1.0)


@pytest.mark.parametrize("off_px,outlines", [(0.0, 1), (2.0, 2)])
def test_a_card_unsure_only_against_its_twin_is_read_once_on_an_outline_its_edges_confirm(
        monkeypatch: pytest.MonkeyPatch, off_px: float, outlines: int) -> None:
    """A standard card whose templates are sure against every card but its twin, read on the
    outline sharpened on its edges, where that lies within SAME_OUTLINE_PX of the outline given
    (a tracker's outline is fitted to the edges already): the outline given shows the same
    picture and its pose needs no search, whatever the corner index reads; the pair read
    settles the twins (under a lamp's glare, reading such a card again and searching its pose
    took a tenth of the tracker's reading time). An outline given 2 px off is read too, and
    searched where the index is unsure."""
    import vision.identify as ident

    deck = get_deck("standard")
    comp = Composer(300, 300, cloth=(40, 90, 50), rng=np.random.default_rng(2))
    comp.add_card(deck, "8S", card_quad(150, 150, 25.0, 110))
    scene = comp.finish(blur=1.0, noise=2.0)
    corners = np.array(scene.cards[0].corners) + off_px
    aligned = _counted(monkeypatch, ident, "_aligned")
    searched = _counted(monkeypatch, ident, "_pose_search")
    _index_reads(monkeypatch, "8S", 0.6)
    d = identify_region(scene.image, corners, deck)
    assert len(aligned) == outlines
    assert bool(searched) == (outlines == 2)
    assert (d.code, d.confidence >= 0.9) == ("8S", True)  # (the pair read chose the spade)


def test_a_sure_index_read_of_one_twin_is_not_sure_where_the_pair_read_names_the_other(monkeypatch) -> None:
    """The corner index tells a small spade from a club by a shape model trained on fonts (it
    read a rendered six of clubs as the six of spades, fully sure); the pair read compares the
    two faces on the image's own pixels and on rendered tables never favoured the wrong twin
    past its floor. Where the two disagree, the index read is cut (PAIR_CONTRADICTS); a pair
    margin within the floor (PAIR_FLOOR_DRAWN) says nothing against it, one just past it leaves
    neither sure, and one for the same card confirms it. (The templates read this six of clubs,
    140 px long, as either six: the pair read is run.)"""
    deck, q, image = _one_card("standard", "6C")
    for margin, read, sure in ((0.3, "6C", True), (0.045, None, False), (0.03, "6S", True), (-0.07, "6S", True)):
        monkeypatch.undo()
        _index_reads(monkeypatch, "6S", 1.0)
        _pair_reads(monkeypatch, deck, "6C", margin)
        d = identify_region(image, q, deck)
        assert read is None or d.code == read, margin
        assert (d.confidence >= 0.9) == sure, (margin, d)


def _pair_reads(monkeypatch: pytest.MonkeyPatch, deck, code: str, margin: float) -> None:
    """Make the pair read favour this card over its twin by margin (explaining 98 % of the marks)."""
    import vision.identify as ident

    def pair_margin(image, corners, faces, align=True, as_drawn=True, against=False, hidden=None):  # faces: the templates' card first
        first = np.array_equal(faces[0], deck.render_face(code, ident.FACE_PX_PER_MM))
        return (margin if first else -margin), 0.98

    monkeypatch.setattr(ident, "pair_margin", pair_margin)


@pytest.mark.parametrize("code,twin,enrolled,long_px,read", [
    ("6C", "6S", False, L, "6C"), ("6C", "6S", True, L, "6C"), ("6H", "6D", False, L, "6D"),
    ("6H", "6D", True, L, "6D"), ("6H", "6D", False, 70, "6H"), ("6H", "6D", True, 70, "6D")])
def test_the_pair_read_argues_against_the_index_on_spades_and_clubs_and_on_small_drawn_hearts(
        monkeypatch: pytest.MonkeyPatch, code: str, twin: str, enrolled: bool, long_px: int, read: str) -> None:
    """Templates unsure between twins, the pair read for one by 0.3, the index sure of the other:
    for spades and clubs the pair read stands against the index's shape model; for hearts and
    diamonds the index stands (it reads them by their silhouettes; a foreign deck's pips, and an
    enrolled deck's photographed faces, are unlike the faces the pair read compares), but on a
    card so small that its index's suit is a few blurred pixels, where the faces are drawn."""
    import copy

    import vision.identify as ident

    deck = get_deck("standard")
    if enrolled:
        deck = copy.copy(deck)
        deck.kind, deck.base = "enrolled", "standard"
    image = np.full((300, 300, 3), 90, np.uint8)
    q = card_quad(150, 150, 20, long_px)

    def best_read(image, q, *args, **kw):
        return q, ident._Match(code, None, 0, 0.0, 0.0, 0.005, structure=0.9, rival=(twin, None),
                               rival_margin=0.0)

    monkeypatch.setattr(ident, "_best_read", best_read)
    _index_reads(monkeypatch, twin, 1.0)
    _pair_reads(monkeypatch, deck, code, 0.3)
    d = identify_region(image, q, deck)
    assert d.code == read


def test_the_corner_index_is_not_read_where_the_templates_see_no_card(monkeypatch) -> None:
    """A standard deck's quad on which the templates see no card at all (the best one leaves more
    variation than the picture has: an arm, a shadow) is not read by the corner index either (4 ms
    a quad; on the rendered tables and the real photos it never read such a quad surely enough
    to count). Where the templates see a card, however unsure, the index is read."""
    import vision.decks.index_reader as index_reader
    import vision.identify as ident

    deck = get_deck("standard")
    image = np.full((300, 300, 3), 90, np.uint8)
    q = card_quad(150, 150, 20, L)
    for structure, indexed in ((-3.0, False), (0.2, True)):
        calls = []

        def best_read(image, q, *args, structure=structure, **kw):
            return q, ident._Match("7S", None, 0, 0.0, 0.0, 0.05, structure=structure, quality=0.0)

        def read_index(image, corners, calls=calls):
            calls.append(1)
            return None

        monkeypatch.setattr(ident, "_best_read", best_read)
        monkeypatch.setattr(index_reader, "read_index", read_index)
        d = identify_region(image, q, deck)
        assert bool(calls) == indexed, structure
        assert d.code == UNKNOWN


def test_prepare_builds_what_the_first_read_of_a_deck_would() -> None:
    """The first read of a standard card built the templates, the corner index's glyphs and the
    suit-shape model (2.5 s here, about 10 s on a Pi 4): the vision loop builds them with
    prepare() before the game, so the first card played is not held up. Reading one card left
    the digits of a "10" (a quarter of a second) to the first ten played."""
    import vision.identify as ident
    from vision.decks import index_reader, suit_shapes

    deck = get_deck("standard")
    ident._prepared.discard((id(deck), deck.name))
    ident._template_cache.pop((id(deck), deck.name), None)
    banks = (suit_shapes.model, index_reader.rank_bank, index_reader.digit_bank, index_reader.suit_bank)
    for bank in banks:
        bank.cache_clear()
    ident.prepare(deck)
    assert (id(deck), deck.name) in ident._template_cache
    assert [bank.cache_info().currsize for bank in banks] == [1, 1, 1, 2]  # (suits as printed and turned)


def test_only_cards_inside_the_area_the_four_markers_mark_are_reported() -> None:
    """Where the table's markers show, the play area is theirs: a card on the cloth beyond it is
    not in play (the tracker leaves it out too), and the markers are not read as cards."""
    from vision.render import CameraSpec, CardPose, Look, Renderer

    deck = get_deck("wackee-six")
    r = Renderer(CameraSpec(width=1280, height=720, fill=0.7), Look(glare=0.0), 1100, 900,
                 np.random.default_rng(3))
    cards = [CardPose(deck, "R7", 550, 450, 20.0), CardPose(deck, "B3", -80, 450, 80.0),
             CardPose(deck, "G9", 1180, 300, 10.0)]
    img = r.render(cards, [], np.random.default_rng(0)).image
    assert [d.code for d in identify(img, deck)] == ["R7"]
    assert _codes(identify(img, deck, markers=False)) == ["B3", "G9", "R7"]  # a photo without markers
    hidden = img.copy()
    q = np.round(r.project(np.array([[1050, 0], [1100, 0], [1100, 50], [1050, 50]], float))).astype(np.int32)
    cv2.fillConvexPoly(hidden, cv2.convexHull(q), (40, 110, 40))  # one marker covered: no area known
    assert _codes(identify(hidden, deck)) == ["B3", "G9", "R7"]


@pytest.mark.parametrize("pair,read", [(0.3, "7C"), (0.02, UNKNOWN), (-0.3, UNKNOWN)])
def test_a_sure_template_read_whose_twin_the_index_names_is_pair_read(
        monkeypatch: pytest.MonkeyPatch, pair: float, read: str) -> None:
    """Templates sure of a seven of clubs, their least margin against another card (the six of
    spades), the corner index (unsure) naming the seven of spades: on a card 32 px wide the
    templates' margin against the twin was sure and wrong. The pair read is asked: it keeps the
    clubs where it is sure of them, and leaves the card unknown where it is not, or where it
    favours the spade (not read as the spade: two readers unsure at that size do not make it
    sure)."""
    import vision.identify as ident

    deck = get_deck("standard")
    image = np.full((300, 300, 3), 90, np.uint8)
    q = card_quad(150, 150, 20, L)

    def best_read(image, q, *args, **kw):
        return q, ident._Match("7C", None, 0, 1.0, 0.0, 0.005, structure=0.9, rival=("6S", None),
                               rival_margin=1.0)

    monkeypatch.setattr(ident, "_best_read", best_read)
    _index_reads(monkeypatch, "7S", 0.45)
    _pair_reads(monkeypatch, deck, "7C", pair)
    d = identify_region(image, q, deck)
    assert d.code == read, d


@pytest.mark.parametrize("code", ["7C", "9S"])
def test_a_standard_cards_margin_is_taken_against_its_twin_however_far_its_overall_fit(code: str) -> None:
    """Twins (a seven of spades and of clubs) differ in a few small marks: the overall fit may
    rank the twin far behind cards that differ in whole pips, and the closest rivals by fit
    were all the margin was taken against, so a seven of spades 36 px wide, its pips blurred
    to blobs, read as the seven of clubs at 1.0. The twin is always compared: a card whose
    twin the picture cannot rule out is not sure, wherever the twin ranks."""
    import vision.identify as ident

    deck = get_deck("standard")
    t = ident.templates(deck)
    comp = Composer(300, 300, cloth=(40, 30, 60), rng=np.random.default_rng(1))
    q = card_quad(150, 150, 20.0, 52)
    comp.add_card(deck, code, q)
    pic = ident.rectify(comp.finish(blur=1.2, noise=2.0, gradient=0.1).image, np.asarray(q, np.float32))
    near = ident._match(pic, t, strict=True)
    assert near.confidence < 0.5 and ident._twins(near.code, near.rival[0]), near  # too small to tell
    x = ident._normalise(pic).reshape(-1)[ident._perm()]
    score, res, a, b = ident._scores(x, t, clipped=ident._grouped(ident._clipped(pic)))
    far = score.copy()
    twin_rows = np.array([k[0] == near.rival[0] for k in t.keys])
    far[twin_rows] += 10.0 * float(score.max())  # last by fit (its own rows in their order: its likeliest
    # row is still the one turned and blurred as the picture is)
    m = ident._match(pic, t, strict=True, fitted=(far, res, a, b))
    assert (m.code, m.rival) == (near.code, near.rival) and m.confidence <= near.confidence + 1e-6, m


@pytest.mark.parametrize("kind,covered,other_margin,sure,asked_align", [
    ("standard", 0.0, 1.0, True, [True]), ("enrolled", 0.0, 1.0, False, [False]),
    ("standard", 0.26, 1.0, True, [True]), ("standard", 0.26, 0.85, False, [False])])
def test_a_pair_margin_is_sure_sooner_where_the_faces_are_our_drawings(
        monkeypatch: pytest.MonkeyPatch, kind: str, covered: float, other_margin: float, sure: bool,
        asked_align: list[bool]) -> None:
    """A pair margin of 0.17 for one twin: where the two faces compared are our drawings, the
    print itself, the pair read errs only by the camera (on rendered tables, with the quad a
    pixel and a half off, its two readers never agreed on the wrong twin) and that is sure;
    where they are photographs (an enrolled deck: their own light and blur err too, by 0.175
    on a real four of hearts), it is not. Where a quarter of the card is covered, so too where
    the templates are sure of every card but the twin (PAIR_SPAN_COVERED); not where they are
    unsure of a third card (a three of clubs with its middle pip hidden read as a two, and the
    two of spades won by 0.165): there the windows alone read it, on the quad as given (the
    cover's edges may pull the quad off the print the two faces share)."""
    import vision.identify as ident

    deck = get_deck("standard")
    monkeypatch.setattr(deck, "kind", kind)
    _pair_reads(monkeypatch, deck, "7S", 0.17)
    asked = []
    margin = ident.pair_margin
    monkeypatch.setattr(ident, "pair_margin",
                        lambda *a, align=True, as_drawn=True, against=False, hidden=None: asked.append(align) or margin(*a))
    m = ident._Match("7S", None, 0, 0.0, covered, 0.005, structure=0.9, rival=("7C", None),
                     rival_margin=0.0, other_margin=other_margin)
    got = ident._pair_settled(np.zeros((200, 200, 3), np.uint8), card_quad(100, 100, 0, 120), deck, m,
                              twins=True)
    assert got.code == "7S" and (got.confidence >= 0.9) == sure, got
    assert asked == asked_align  # the quad is laid on the shared print first only there too


def test_a_covered_twin_the_two_readers_cannot_settle_is_read_by_the_windows_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A covered standard card sure but for its twin, where the whole print and the marks'
    windows disagree (the pair read's margin 0): read as before, by the windows alone on the
    quad as given (a ten of hearts a fifth under a hand, chosen by them by 0.22); and not at all
    by the two readers in a quick read (a tracker's, of a card beside a hand)."""
    import vision.identify as ident

    deck = get_deck("standard")
    asked = []

    def pair_margin(image, corners, faces, align=True, as_drawn=True, against=False, hidden=None):
        asked.append(align)
        return (0.0, 0.98) if align else (0.3, 0.98)
    monkeypatch.setattr(ident, "pair_margin", pair_margin)
    m = ident._Match("10H", None, 0, 0.0, 0.2, 0.005, structure=0.9, rival=("10D", None),
                     rival_margin=0.0, other_margin=1.0)
    img, q = np.zeros((200, 200, 3), np.uint8), card_quad(100, 100, 0, 120)
    got = ident._pair_settled(img, q, deck, m, twins=True)
    assert asked == [True, False] and got.code == "10H" and got.confidence >= 0.9, got
    asked.clear()
    ident._pair_settled(img, q, deck, m, twins=True, covered_twins=False)
    assert asked == [False]


@pytest.mark.parametrize("code, twin", [("3S", "3C"), ("QC", "QS")])
def test_a_twin_the_pair_read_chose_on_a_blob_outline_is_read_again_on_the_sharpened_one(
        monkeypatch, code: str, twin: str) -> None:
    """A blob hypothesis's read that the pair read settled as a card's twin, on an outline a few
    pixels off (in dealt rows, a 3 of spades read surely as the 3 of clubs, a queen of clubs
    outlined at four fifths of its size as the queen of spades), is read again on its outline
    sharpened on the image's edges, and that read stands where it names another card. A read
    that names the card again, or one the pair read did not settle, is kept as it is, with no
    second read."""
    import vision.identify as ident
    from vision.types import Detection

    deck = get_deck("standard")
    comp = Composer(200, 200, cloth=(60, 70, 50), rng=np.random.default_rng(3))
    q = card_quad(100, 100, 17, L)
    comp.add_card(deck, code, q)
    image = comp.finish(blur=1.0, noise=2.0).image
    corners = tuple(map(tuple, q))
    wrong = (Detection(twin, corners, 1.0), ident._Match(twin, None, 0, 1.0, 0.0, 0.003, rival=(code, None), paired=0.2))
    det, _ = ident._twin_resettled(image, deck, *wrong)
    assert det.code in (code, UNKNOWN)

    reads = _counted(monkeypatch, ident, "_read_region")
    right = (Detection(code, corners, 1.0), ident._Match(code, None, 0, 1.0, 0.0, 0.003, rival=(twin, None), paired=0.2))
    assert ident._twin_resettled(image, deck, *right)[0] is right[0] and len(reads) == 1
    unpaired = (wrong[0], replace(wrong[1], paired=0.0))
    assert ident._twin_resettled(image, deck, *unpaired)[0] is wrong[0] and len(reads) == 1


@pytest.mark.parametrize("again_error, paired, stands", [
    (0.004, 0.2, "first"),  # the sharpened outline fits the card worse: not the truer outline
    (0.003, 0.2, "first"),  # ... or no better
    (0.002, 0.2, "again"),  # better: the truer outline, and there the card is unsure
    (0.004, 0.0, "again"),  # the corner index alone made the first read sure: it may be wrong
    (0.004, 0.2, "back"),  # a card back, face down: it names another card, and stands
])
def test_a_sure_twin_read_stands_where_its_sharpened_outline_reads_nothing_and_fits_no_better(
        monkeypatch, again_error: float, paired: float, stands: str) -> None:
    """A blob read that the pair read made sure is read again on its outline sharpened on the
    image's edges. Where that read names no card, it stands only where the templates fit the
    card better on the sharpened outline: on the identify benchmark's piles, a clear three of
    diamonds and a two of clubs, read at 1.0, sharpened onto the edges of the cards below,
    fitted worse there and read as nothing, and both were lost."""
    import vision.identify as ident
    from vision.types import Detection

    deck = get_deck("standard")
    q = card_quad(100, 100, 17, L)
    first = (Detection("2C", tuple(map(tuple, q)), 1.0),
             ident._Match("2C", None, 0, 1.0 if paired else 0.2, 0.0, 0.003, rival=("2S", None), paired=paired))
    as_back = stands == "back"
    sharpened = (Detection(UNKNOWN, tuple(map(tuple, q + np.float32([1.0, 0.0]))), 0.9 if as_back else 0.0,
                           face_up=not as_back, back="red" if as_back else None),
                 ident._Match("2C", None, 0, 0.0, 0.0, again_error, rival=("2S", None)))
    monkeypatch.setattr(ident, "_read_region", lambda *a, **k: sharpened)
    det, _ = ident._twin_resettled(np.zeros((200, 200, 3), np.uint8), deck, *first)
    assert det is (first if stands == "first" else sharpened)[0]


def test_a_blob_read_made_sure_by_the_corner_index_alone_is_read_again_on_the_sharpened_outline(
        monkeypatch) -> None:
    """A blob hypothesis that the templates read unsurely (below MIN_CONFIDENCE), made sure by
    its corner index alone, is read again on its outline sharpened on the image's edges, and that
    read stands where it names another card: the index's small spade and club can be sure and
    wrong (on a blob's rectangle 6 px short of an eight of clubs 63 px wide it read the eight of
    spades fully surely, the templates unsure of it and the pair read favouring it too). A read
    the templates are sure of themselves is kept with no second read."""
    import vision.identify as ident
    from vision.types import Detection

    deck = get_deck("standard")
    comp = Composer(200, 200, cloth=(60, 70, 50), rng=np.random.default_rng(5))
    q = card_quad(100, 100, 28, L)
    comp.add_card(deck, "8C", q)
    image = comp.finish(blur=1.0, noise=2.0).image
    corners = tuple(map(tuple, q))
    by_index = (Detection("8S", corners, 1.0), ident._Match("8S", None, 0, 0.2, 0.0, 0.01, rival=("7S", None)))
    reads = _counted(monkeypatch, ident, "_read_region")
    det, _ = ident._twin_resettled(image, deck, *by_index)
    assert det.code in ("8C", UNKNOWN) and len(reads) == 1
    by_templates = (by_index[0], replace(by_index[1], confidence=0.95))
    assert ident._twin_resettled(image, deck, *by_templates)[0] is by_index[0] and len(reads) == 1


def test_the_top_card_of_two_lying_almost_on_each_other_is_read() -> None:
    """Two white cards dropped almost on each other make one clean quad of nearly a card's
    shape, taken for a single card and read unsurely as one: the top card, whose two sides over
    the card below show no edge, is searched for as in a blob of cards (detect.pile_tops). Of
    9 such piles beside four single cards each, 3 tops were read before, 7 now."""
    deck = get_deck("standard")
    read = 0
    for seed in range(3):
        rng = np.random.default_rng(seed)
        comp = Composer(1000, 560, cloth=(90, 80, 60), rng=rng)
        codes = [str(c) for c in rng.choice([c for c in deck.codes if c != "JK"], 10, replace=False)]
        for k in range(4):  # single cards: they tell a card's size
            comp.add_card(deck, codes[k], card_quad(120 + 240 * k, 120, rng.uniform(0, 360), 86))
        tops = []
        for k in range(3):
            x, y, a = 180 + 300 * k, 380, float(rng.uniform(0, 360))
            comp.add_card(deck, codes[4 + 2 * k], card_quad(x, y, a, 86))
            d = rng.uniform(8, 14) * np.array([np.cos(np.radians(a + 45)), np.sin(np.radians(a + 45))])
            comp.add_card(deck, codes[5 + 2 * k], card_quad(x + d[0], y + d[1], a + rng.uniform(-2, 2), 86))
            tops.append((codes[5 + 2 * k], np.array([x + d[0], y + d[1]])))
        dets = identify(comp.finish(blur=1.4, noise=3.5).image, deck)
        read += sum(any(d.code == code and d.confidence >= 0.9 and np.linalg.norm(np.mean(d.corners, axis=0) - c) < 8
                        for d in dets) for code, c in tops)
    assert read >= 6, f"{read} of 9 pile tops read"


def test_the_gap_a_card_left_on_cloth_of_its_backs_colour_is_not_read_as_a_back() -> None:
    """At the camera's scale a back is a plain field of colour, and so is bare cloth of that
    colour. On a blue felt, the gap a card left in a dealt row, outlined across it with the two
    neighbours' white at its ends, read as a blue back (at 0.87 on one of these tables); the
    tracker reported a face-down card that was never there. A back shows its white margin on
    every side; the gap shows it on two at most. The backs lying on that felt are still read."""
    from vision.render import CameraSpec, CardPose, Look, render

    deck = get_deck("standard")
    turn = np.array([[0, -1], [1, 0]], np.float32)
    for seed in range(12):
        rng = np.random.default_rng(seed)
        look = replace(Look.random(rng, harsh=True), cloth="felt", cloth_bgr=(110, 70, 30), glare=0.0)
        cam = CameraSpec(tilt_deg=float(rng.uniform(0, 20)), yaw_deg=float(rng.uniform(-15, 15)))
        row = [CardPose(deck, code, x, 450.0, float(rng.uniform(-3, 3)))
               for code, x in (("6C", 300.0), ("7C", 444.0))]  # a slot between them
        back = CardPose(deck, "2D", 700.0, 450.0, 0.0, face_up=False, back="blue")
        scene = render([*row, back], [], cam, look, rng)
        left, right = (np.array(c.corners_px, np.float32) for c in scene.cards[:2])
        slot = 0.5 * (left + right)  # where the card between them lay
        centre = slot.mean(axis=0)
        across = centre + (np.roll(slot, 1, axis=0) - centre) @ turn  # the slot's outline turned a quarter
        for strict in (False, True):
            d = identify_region(scene.image, across, deck, strict=strict)
            assert d.back is None and d.code == UNKNOWN, (seed, strict, d)
        d = identify_region(scene.image, np.array(scene.cards[2].corners_px, np.float32), deck, strict=True)
        assert not d.face_up and d.back == "blue" and d.confidence >= 0.9, (seed, d)


def test_a_back_printed_to_its_edges_is_read_without_a_margin() -> None:
    """The margin a back must show is its design's: a deck whose back has none (many real
    decks' are printed to the edge) is read face down as before."""
    from vision.decks.base import CARD_H_MM, CARD_W_MM, Deck, rgb
    from vision.decks.standard import CODES, paint_face

    def edge_to_edge(canvas, colour: str) -> None:
        canvas.rect(0, 0, CARD_W_MM, CARD_H_MM, fill=rgb(colour))
        canvas.rect(20, 30, CARD_W_MM - 20, CARD_H_MM - 30, fill=(255, 255, 255))

    deck = Deck("edge-backs", CODES, ("blue",), paint_face, edge_to_edge, kind="standard")
    comp = Composer(400, 300, cloth=(40, 110, 40), rng=np.random.default_rng(5))
    comp.add_card(deck, None, card_quad(200, 150, 25, L), back="blue")
    scene = comp.finish(blur=0.8, noise=2.5)
    d = identify_region(scene.image, scene.cards[0].corners, deck, strict=True)
    assert not d.face_up and d.back == "blue" and d.confidence >= 0.9, d


@pytest.mark.parametrize("long_px", [110, 140])
@pytest.mark.parametrize("turn", [15.0, 200.0])
def test_print_in_the_middle_of_a_card_that_its_read_lacks_makes_the_read_unsure(long_px: int, turn: float) -> None:
    """A pip drawn between a six of clubs' middle rows, where no hand or card reaches without
    crossing the card's edge: a read that takes it for cover (a seven turned end over end read
    as a six at 0.95 on the identify benchmark) names a card whose print is not all there. The
    plain six beside it is still read surely."""
    deck = get_deck("standard")
    comp = Composer(420, 300, cloth=(40, 60, 110), rng=np.random.default_rng(2))
    plain, marked = card_quad(110, 150, turn, long_px), card_quad(300, 150, turn, long_px)
    comp.add_card(deck, "6C", plain)
    comp.add_card(deck, "6C", marked)
    # the pip: on the long axis, between the middle row and the lower one
    centre, down = marked.mean(axis=0), (marked[3] - marked[0]) / np.linalg.norm(marked[3] - marked[0])
    at = centre + 0.14 * long_px * down
    cv2.circle(comp.img, (int(round(at[0])), int(round(at[1]))), max(3, int(0.045 * long_px)), (20, 20, 20), -1)
    image = comp.finish(blur=0.8, noise=2.0).image
    plain_read = identify_region(image, plain, deck)
    assert plain_read.code == "6C" and plain_read.confidence >= 0.9
    det = identify_region(image, marked, deck)
    assert det.code != "6C" or det.confidence < 0.9, (det.code, det.confidence)


@pytest.mark.parametrize("deck_name,code", [("standard", "7D"), ("standard", "KS"), ("wackee-six", "R7"),
                                            ("slap-wacky", "P2-3F"), ("wig-out", "C4")])
def test_an_over_exposed_cards_clipped_white_fitted_in_blocks_reads_as_pixel_by_pixel(
        monkeypatch: pytest.MonkeyPatch, deck_name: str, code: str) -> None:
    """A camera exposed for a dark cloth clips most of a card's white: thousands of pixel
    channels, each weighed against every template, took most of such a table's frame time.
    From POOL_CLIPPED_FROM of them, a 2 x 2 block clipped whole is fitted as one (weighing four):
    each card's fit is nearly what it is pixel by pixel (within 15 % where it could be taken for
    the card, near ties aside the cards rank alike), and the read is the same. (10 % until the
    picture lay on its templates to the half pixel: the card's own misfit more than halved, the blocks'
    share of it, about 0.0002, stayed.)"""
    import vision.identify as ident

    deck = get_deck(deck_name)
    t = ident.templates(deck)
    comp = Composer(300, 300, cloth=(150, 90, 40), rng=np.random.default_rng(5))
    q = card_quad(150, 150, 25.0, 90)
    comp.add_card(deck, code, q)
    img = np.clip(comp.finish(blur=1.0, noise=2.0).image.astype(np.float32) * 1.3, 0, 255).astype(np.uint8)
    pic = ident.rectify(img, np.asarray(q, np.float32))
    x = ident._normalise(pic).reshape(-1)[ident._perm()]
    clipped = ident._grouped(ident._clipped(pic))
    assert clipped is not None and clipped.mean() > ident.POOL_CLIPPED_FROM  # blocks are pooled
    pooled, pooled_read = ident._scores(x, t, clipped=clipped)[0], ident._match(pic, t)
    monkeypatch.setattr(ident, "POOL_CLIPPED_FROM", 2.0)  # never: pixel by pixel
    exact, exact_read = ident._scores(x, t, clipped=clipped)[0], ident._match(pic, t)
    best = int(np.argmin(exact))
    assert t.keys[best][0] == code and int(np.argmin(pooled)) == best
    near = exact < 3 * exact[best]  # the cards that could be taken for it
    assert np.allclose(pooled[near], exact[near], rtol=0.15), np.abs(pooled / exact - 1)[near].max()
    assert pooled_read.code == exact_read.code == code
    assert abs(pooled_read.confidence - exact_read.confidence) < 0.05, (pooled_read, exact_read)


@pytest.mark.parametrize("code,read_as", [("6S", "6D"), ("QC", "QH"), ("8D", "8C")])
def test_a_card_read_in_the_other_colour_is_read_by_its_ink(code: str, read_as: str) -> None:
    """The templates read a black six whose pips a lamp's glare had greyed as a red six. Its ink
    is black, so it is one of the black sixes, and the pair read settles which; it is not left to
    the pair read between the two red ones, which sees the picture in grey and chose surely."""
    import vision.identify as ident

    deck, q, image = _one_card("standard", code)
    twin = read_as[:-1] + {"S": "C", "C": "S", "H": "D", "D": "H"}[read_as[-1]]
    m = ident._Match(read_as, None, 0, 0.8, 0.0, 0.005, structure=0.9, rival=(twin, None), rival_margin=1.0,
                     other_margin=0.8)
    got = ident._pair_settled(image, np.asarray(q, np.float32), deck, m, twins=True)
    assert got.code == code and got.confidence >= 0.9, got


def _shift(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """How far (x, y, px) b's content lies from a's: least squares on the pictures' gradients."""
    mean = (a + b) / 2
    gx = cv2.Sobel(mean, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(mean, cv2.CV_32F, 0, 1, ksize=3) / 8
    g = np.array([[np.sum(gx * gx), np.sum(gx * gy)], [np.sum(gx * gy), np.sum(gy * gy)]])
    return np.linalg.solve(g, [np.sum(gx * (a - b)), np.sum(gy * (a - b))])


@pytest.mark.parametrize(("code", "turn", "long_px"), [("7C", 17.0, 180), ("QH", -40.0, 90), ("5D", 3.0, 60)])
def test_a_card_rectified_from_either_end_is_the_same_picture(code: str, turn: float, long_px: int) -> None:
    """rectify lays the quad's corners on the picture's outer edges, where the templates (a face
    shrunk whole) have the card's: so a card read from its printed top-left and one read from its
    bottom-right, turned back, are one picture. (The corners were laid on the first and last
    pixel centres: each picture lay half a pixel off its template towards the first corner, and
    a seven of clubs read as the seven from one end and as a six from the other.)"""
    import vision.identify as ident

    deck = get_deck("standard")
    comp = Composer(400, 400, rng=np.random.default_rng(1))
    q = card_quad(200.3, 190.6, turn, long_px)
    comp.add_card(deck, code, q, px_per_mm=long_px / 88.9)
    img = comp.finish().image
    i = ident.INSET
    ahead = ident.rectify(img, q).astype(np.float32).mean(axis=2)[i:-i, i:-i]
    turned = ident.rectify(img, np.roll(q, 2, axis=0))[::-1, ::-1].astype(np.float32).mean(axis=2)[i:-i, i:-i]
    assert np.abs(_shift(ahead, turned)).max() < 0.05


def test_a_card_seen_well_whose_index_names_another_rank_surely_is_unknown(monkeypatch) -> None:
    """Two readers, each at least half sure of a different card (not twins), leave the card
    unknown: a covered queen of hearts 45 px wide, which the templates read at 0.81, had its
    corner index read as the ace of hearts fully surely (our faces' big Q passed for its pip),
    and the index's read stood. An index read of the card itself, or of its twin (the pair read
    settles those), still counts."""
    for code, index_read, read in (("QH", ("AH", 1.0), UNKNOWN), ("9S", ("6S", 1.0), UNKNOWN),
                                   ("QH", ("QH", 1.0), "QH"), ("9S", ("9C", 1.0), "9S")):
        deck, q, image = _one_card("standard", code)
        monkeypatch.undo()
        _index_reads(monkeypatch, *index_read)
        d = identify_region(image, q, deck)
        assert d.code == read, (code, index_read, d)


def test_a_sure_index_read_stands_against_templates_that_explain_the_card_less_well(monkeypatch) -> None:
    """Where the templates explain less of the card than SEES_WELL, a fully sure index read of
    another rank is the card: a real deck's five of clubs, fitted best by our ace of clubs at a
    structure of 0.6 to 0.7 (its pips are not drawn as ours), was read by its index; where the
    templates see the card well, the two readers leave it unknown (the test above)."""
    import vision.identify as ident

    deck, q, image = _one_card("standard", "AC")
    best_read = ident._best_read

    def explaining_less(*args, **kwargs):
        q_read, m = best_read(*args, **kwargs)
        return q_read, replace(m, structure=0.65)

    monkeypatch.setattr(ident, "_best_read", explaining_less)
    _index_reads(monkeypatch, "5C", 1.0)
    assert identify_region(image, q, deck).code == "5C"


def test_a_card_whose_twin_is_undecided_and_whose_index_names_another_rank_is_unknown(monkeypatch) -> None:
    """Templates torn between a king of spades and the king of clubs alone (the pair read cannot
    settle them: fingers over the card) are still sure it is a king: an index read of the ace of
    spades, fully sure, leaves the card unknown, not an ace (a card picked up off the table was
    told as an ace of spades that way)."""
    import vision.identify as ident

    deck, q, image = _one_card("standard", "KS")
    monkeypatch.setattr(ident, "_pair_settled", lambda image, q, deck, m, twins=False, backed=False, covered_twins=True: replace(
        m, confidence=0.0, rival=(ident._twin_code(m.code), None), rival_margin=0.0, paired=0.0))
    _index_reads(monkeypatch, "AS", 1.0)
    assert identify_region(image, q, deck).code == UNKNOWN
    _index_reads(monkeypatch, "KS", 1.0)  # (its index names the king: it is read)
    assert identify_region(image, q, deck).code == "KS"


@pytest.mark.parametrize("move", [(-3, -3), (-3, 3), (3, -3), (3, 3)])
def test_a_quad_too_far_off_for_its_template_to_guide_is_still_laid_on_the_card(move) -> None:
    """A quad 3 px off both ways on a card 140 px long (over a canonical pixel each way) leaves so
    little of the print on it that the likeliest template, fitted there, explains too little to
    guide _aligned's shift: the whole picture chooses the shift then, and the quad is moved
    where the template guides again (a Slap Wacky card so outlined read at 0.41 to 0.85)."""
    import vision.identify as ident

    deck, q, image = _one_card("slap-wacky", "P3-2W")
    t = ident.templates(deck)
    quad = ident._oriented(np.asarray(q + np.float32(move), np.float32))
    moved, pic, fitted = ident._aligned(image, quad, t, True)
    m = ident._match(pic, t, False, fitted)
    assert (m.code, m.confidence >= 0.9) == ("P3-2W", True), (move, m.confidence)
    assert np.abs(moved - ident._oriented(np.asarray(q, np.float32))).max() < np.abs(quad - ident._oriented(np.asarray(q, np.float32))).max()


def test_a_pile_top_with_no_outline_on_the_card_below_is_placed_by_its_print() -> None:
    """A ten of diamonds lying almost squarely on another white card (the identify benchmark's
    seed 3, scene 5): its sides over that card show no edge, and the rectangles the blob gave
    lay a quarter of a card off it, beyond the fine pose search's reach, each read unsurely. A
    wide search of the pose (_wide_search), where the templates fit best, places it by its print,
    and it is read surely; a read so found counts only where the card shows whole."""
    from vision.detect import corner_gap
    from vision.identify import _oriented, _pose_search, _wide_search, templates

    deck = get_deck("standard")
    res = _benchmark_scene(deck, 3, 5)
    card = res.cards[2]
    assert card.top and card.code == "10D" and card.visible > 0.99
    q = _oriented(np.array(card.corners_px, np.float32))
    short = float(min(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[3] - q[0])))
    u = (q[1] - q[0]) / np.linalg.norm(q[1] - q[0])
    off = q + 0.25 * short * u  # a rectangle a quarter of the card's width off it
    t = templates(deck)
    assert corner_gap(_pose_search(res.image, off, t), q) > 0.15 * short  # (the fine search alone)
    assert corner_gap(_wide_search(res.image, off, t), q) < 0.06 * short
    on_it = _reads_on(res.image, deck, q)
    assert any(d.code == "10D" and d.confidence >= 0.9 for d in on_it), on_it
    assert not [d for d in on_it if d.code != "10D" and d.confidence >= 0.9], on_it


def test_a_clear_card_its_blurred_templates_fit_less_well_is_told_from_its_twin_by_the_whole_print() -> None:
    """A clear card blurred more than the templates, under a harsh light, fits them less well:
    its best template explains 0.6 to 0.7 of its picture. Below PAIR_STRUCTURE the pair read
    is the marks' windows' alone, which left such black cards unsure against their twins (an
    eight of clubs here at 0.74); read by the whole print and the windows together, as a card
    printed as drawn, they are sure. On these two harsh tables every clear card whose templates
    explain so little is read right and surely."""
    import vision.identify as ident
    from vision.decks.compose import table_scene

    deck = get_deck("standard")
    t = ident.templates(deck)
    low = 0
    for seed in (108, 114):
        scene = table_scene(deck, np.random.default_rng(seed))
        for card in scene.cards:
            if not (card.top and card.visible >= 0.95 and card.face_up):
                continue
            q = np.array(card.corners_px, np.float32)
            if not 0.6 <= ident._read_pic(scene.image, ident._oriented(q), t).structure < 0.7:
                continue
            low += 1
            det = identify_region(scene.image, q, deck)
            assert (det.code, det.confidence >= 0.9) == (card.code, True), (seed, card.code, det)
    assert low >= 3, f"only {low} clear cards fit their templates so little: the test no longer tests"


def _benchmark_table_around(seed: int, table: int, code: str) -> tuple[np.ndarray, np.ndarray, float]:
    """The identify benchmark's rendered table (standard deck, bench/vision_identify.py --seed
    seed: its first table warms up, so table k is the (k + 2)th rendered) cropped to 700 x 700 px
    around its top card of this code: the crop, the card's corners in it and its short side."""
    from vision.decks.compose import table_scene

    deck = get_deck("standard")
    rng = np.random.default_rng(seed)
    for _ in range(table + 1):
        table_scene(deck, rng)
    res = table_scene(deck, rng)
    card = next(c for c in res.cards if c.code == code and c.top)
    q = np.array(card.corners_px, np.float32)
    x0, y0 = np.maximum(q.mean(axis=0).astype(int) - 350, 0)
    img = np.ascontiguousarray(res.image[y0:y0 + 700, x0:x0 + 700])
    q -= np.array([x0, y0], np.float32)
    return img, q, float(np.linalg.norm(q[0] - q[1]))


def test_the_part_of_a_card_an_arm_leaves_is_searched_for_the_card_even_where_it_reads_as_none() -> None:
    """An arm of about the cloth's colour lying along a card leaves a clean quad of the card's
    length and part of its width: a single card, read as no card at all (stretched to a card's
    shape, the part fits no template). Such a quad's blob is searched for a card too (pile_tops),
    as an unsure read's is: on a rendered table (the identify benchmark's standard seed 5, its
    twelfth table) a three of diamonds a quarter under a dark arm on a red cloth was left
    unknown, and reads surely from a rectangle laid along the corners of its part."""
    from vision.calibrate import play_area
    from vision.detect import corner_gap, find_candidates
    from vision.identify import _no_card, _read_region

    deck = get_deck("standard")
    img, q, short = _benchmark_table_around(5, 11, "3D")
    part = min((c for c in find_candidates(img, markers=play_area(img)[1]) if c.single),
               key=lambda c: float(np.linalg.norm(c.corners.mean(axis=0) - q.mean(axis=0))))
    assert corner_gap(q, part.corners) > 0.3 * short and _no_card(_read_region(img, part.corners, deck)[1]), \
        "the card's part no longer reads as no card: the test no longer tests"
    read = [d for d in identify(img, deck) if np.linalg.norm(np.mean(d.corners, axis=0) - q.mean(axis=0)) < 0.3 * short]
    assert any(d.code == "3D" and d.confidence >= 0.9 for d in read), [(d.code, d.confidence) for d in read]


def test_a_blob_hypothesis_a_tenth_off_a_card_under_an_arm_is_searched() -> None:
    """A blob's hypothesis a tenth of a card off a card under an arm fits every template worse
    than a plain field would (its print a tenth off, the arm's edge across it): such a read was
    not searched for the card's exact pose (_promising), as a shadow's outline is not. On a
    rendered table (the identify benchmark's standard seed 3, its seventh table) a nine of
    clubs under a bright arm on a dark cloth was left unread: its hypotheses 0.09 and 0.10 off,
    structure -1.9 and -1.6, read 0.57 and 1.0 once searched. A hypothesis is now searched
    down to HYPOTHESIS_STRUCTURE."""
    from vision.calibrate import play_area
    from vision.detect import corner_gap, find_candidates
    from vision.identify import PROMISING_STRUCTURE, _read_region

    deck = get_deck("standard")
    img, q, short = _benchmark_table_around(3, 6, "9C")
    near = [c for c in find_candidates(img, markers=play_area(img)[1])
            if not c.single and corner_gap(q, c.corners) < 0.12 * short]
    quick = [_read_region(img, c.corners, deck, refine=False, search=False, strict=True)[1] for c in near]
    assert quick and all(m.structure <= PROMISING_STRUCTURE for m in quick), \
        "a hypothesis near the card fits a template: the test no longer tests"
    read = [d for d in identify(img, deck) if np.linalg.norm(np.mean(d.corners, axis=0) - q.mean(axis=0)) < 0.3 * short]
    assert any(d.code == "9C" and d.confidence >= 0.9 for d in read), [(d.code, d.confidence) for d in read]


def _pile_top_off_its_outline(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A six of hearts laid on a nine of clubs, a sixth of a card's width and a tenth of its
    length off it: the picture, the nine's outline (a pile's edges give it) and the six's."""
    deck = get_deck("standard")
    rng = np.random.default_rng(seed)
    comp = Composer(500, 400, cloth=(40, 100, 45), rng=rng)
    angle = float(rng.uniform(0, 360))
    turn = np.radians(angle)
    across, down = np.array([np.cos(turn), np.sin(turn)]), np.array([-np.sin(turn), np.cos(turn)])
    under = card_quad(250, 200, angle, 130)  # (about 93 px wide)
    comp.add_card(deck, "9C", under, px_per_mm=8)
    off = 0.15 * 93 * across + 0.1 * 130 * down
    top = card_quad(250 + off[0], 200 + off[1], angle, 130)
    comp.add_card(deck, "6H", top, px_per_mm=8)
    return comp.finish(blur=1.0, noise=2.0).image, np.asarray(under, np.float32), np.asarray(top, np.float32)


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 5])
def test_a_pile_top_outlined_by_the_card_below_is_found_by_the_wide_read(seed: int) -> None:
    """The tracker's outline of a card laid on a pile may follow the pile's edges, a sixth of a
    card off the top card; asked wide, the reader looks for it up to a third of its width off."""
    img, under, top = _pile_top_off_its_outline(seed)
    deck = get_deck("standard")
    assert identify_region(img, under, deck, strict=True).confidence < 0.5  # (the outline is that far off)
    found = identify_region(img, under, deck, strict=True, wide=True)
    assert (found.code, found.face_up) == ("6H", True) and found.confidence >= 0.9
    assert np.linalg.norm(np.mean(found.corners, axis=0) - top.mean(axis=0)) < 3


def test_a_read_across_a_table_marker_is_of_no_card() -> None:
    """A table marker found in the picture shows whole: nothing lies on it, so an outline across
    its black square is of no card (a patch of blue felt beside a marker, its white margin taken
    for a Wonky card's white index corner, was read as a blue small block card at 1.0). A card
    beside a marker is read, and so is one laid over a marker: the marker it hides is not found."""
    from vision.identify import _across_marker
    from vision.render import CameraSpec, CardPose, Look, Renderer

    square = np.array([[100, 100], [140, 100], [140, 140], [100, 140]], np.float32)
    beside = np.array([[40, 90], [99, 90], [99, 170], [40, 170]], np.float32)
    assert not _across_marker(beside, [square])
    assert _across_marker(beside + [12, 0], [square])  # over 11 of its 40 px
    deck = get_deck("wonky")
    marker_mm = 50.0 * 1.3  # the marker's square with its white margin, from the table's corner
    for x_mm, y_mm in ((marker_mm + 40.0, 60.0), (40.0, 40.0)):  # beside marker 0; over it
        r = Renderer(CameraSpec(width=1280, height=720), Look.clean(), 1100, 900,
                     np.random.default_rng(1))
        img = r.render([CardPose(deck, "BS", x_mm, y_mm, 0.0)], [], np.random.default_rng(0)).image
        codes = [d.code for d in identify(img, deck)]
        assert "BS" in codes, (x_mm, y_mm, codes)
