"""The simulated table: shapes, truth corners that match a projected card, occlusion truth."""

from dataclasses import replace

import numpy as np

from vision.layout import make_layout
from vision.render import CameraSpec, CardPose, HandPose, Look, Renderer
from vision.sim_standin import StandInDeck
from vision.types import CARD_H_MM, CARD_W_MM


def test_render_shape_and_truth_corners_match_projection():
    deck = StandInDeck()
    cam = CameraSpec(width=640, height=360, tilt_deg=20, yaw_deg=10)
    r = Renderer(cam, Look.clean(), 1100, 900, np.random.default_rng(0))
    res = r.render([CardPose(deck, "QH", 550, 450, 30)], [], np.random.default_rng(1))
    assert res.image.shape == (360, 640, 3) and res.image.dtype == np.uint8
    t = res.cards[0]
    assert t.code == "QH" and t.visible > 0.9 and t.top
    exp = r.project(CardPose(deck, "QH", 550, 450, 30).corners_mm())
    assert np.allclose(np.array(t.corners_px), exp, atol=1e-6)
    # the card is drawn there: the centre of the quad is bright card stock, not cloth
    cx, cy = np.round(exp.mean(axis=0)).astype(int)
    assert res.image[cy - 2:cy + 3, cx - 2:cx + 3].mean() > 150
    # card size in px is consistent with the card's mm size at this scale
    side = np.linalg.norm(exp[1] - exp[0]) / np.linalg.norm(exp[3] - exp[0])
    assert abs(side - CARD_W_MM / CARD_H_MM) < 0.1


def test_hand_and_overlap_reduce_visibility_and_top():
    deck = StandInDeck()
    r = Renderer(CameraSpec(width=480, height=270), Look(), 1100, 900, np.random.default_rng(0))
    under = CardPose(deck, "2S", 550, 450, 0, z=0)
    over = CardPose(deck, "3S", 560, 460, 10, z=1)
    res = r.render([under, over], [], np.random.default_rng(0))
    assert not res.cards[0].top and res.cards[1].top
    assert res.cards[0].visible < 0.6 < res.cards[1].visible
    hand = HandPose((550, 1300), (560, 470))
    res2 = r.render([under, over], [hand], np.random.default_rng(0))
    assert res2.cards[1].visible < res.cards[1].visible


def test_a_cards_visible_share_is_the_share_of_its_outline_left_uncovered():
    """The truth's visible share is what the benchmarks count a card by (at least half showing):
    it must be the share of the card's own outline that nothing covers, measured here on the
    full-resolution outlines of a card and the one lying over it."""
    import cv2

    deck = StandInDeck()
    r = Renderer(CameraSpec(width=1280, height=720), Look.clean(), 1100, 900, np.random.default_rng(0))
    for shift, turn in ((20, 0), (35, 10), (45, -20)):
        under = CardPose(deck, "2S", 550, 450, 0, z=0)
        over = CardPose(deck, "3S", 550 + shift, 450 + shift / 2, turn, z=1)
        res = r.render([under, over], [], np.random.default_rng(0))
        masks = []
        for card in res.cards:
            m = np.zeros((720, 1280), np.uint8)
            cv2.fillConvexPoly(m, np.round(np.array(card.corners_px) * 16).astype(np.int32), 1, cv2.LINE_AA, 4)
            masks.append(m)
        uncovered = float((masks[0] & (1 - masks[1])).sum()) / float(masks[0].sum())
        assert abs(res.cards[0].visible - uncovered) < 0.03, (shift, res.cards[0].visible, uncovered)


def test_layout_zones_and_seats():
    lay = make_layout(4)
    assert lay.zone_at(*lay.centre) == "centre"
    b = lay.spot("row:1:3")
    assert lay.zone_at(b.cx, b.cy) == "row:1:3" and lay.seat_of_zone("row:1:3") == 1
    # clockwise from the bottom: seat 2 on the left edge, 3 top, 4 right
    assert [s.edge for s in lay.seats] == ["bottom", "left", "top", "right"]
    assert lay.seat_for_edge_point(-50, 450) == 2


def test_the_stand_in_reader_reads_white_cards_left_grey_by_a_dim_exposure():
    """The stand-in deck's reader (the tracking benchmark's and tests' own) told a card from a
    misplaced quad by its white border, once at a fixed brightness: under a dim exposure, white
    cards came out grey and a whole simulated game went unread. The border is now as bright as
    the card's own white; a quad half on the cloth still is no card."""
    from vision.sim_standin import identify_region

    deck = StandInDeck()
    face = deck.render_face("7D", 2.0)
    h, w = face.shape[:2]
    table = np.full((h + 80, w + 80, 3), 50, np.uint8)
    table[40:40 + h, 40:40 + w] = face
    quad = np.array([[40, 40], [40 + w, 40], [40 + w, 40 + h], [40, 40 + h]], np.float32)
    for exposure in (1.0, 0.55):
        img = (table.astype(np.float32) * exposure).astype(np.uint8)
        assert identify_region(img, quad, deck).code == "7D"
    off = quad + np.float32([w / 2, 0])
    assert identify_region((table * 0.55).astype(np.uint8), off, deck).code == "?"


def test_a_lamps_glare_fades_out_with_no_edge():
    """A lamp's glare is a soft spot: where it ends, it has faded to nothing. (It was drawn in
    a box its radius wide, which cut it off at a step of up to ten grey levels, a straight
    edge that no lamp makes.)"""
    from dataclasses import replace

    cam = CameraSpec(width=1280, height=720)
    looks = [replace(Look.clean(), cloth_bgr=(90, 90, 90), glare=g) for g in (0.0, 0.8)]
    bare, lit = (Renderer(cam, look, 1100, 900, np.random.default_rng(3)).render(
        [], [], np.random.default_rng(4)).image.astype(int) for look in looks)
    glare = (lit - bare)[..., 1]
    assert glare.max() > 100  # there is a glare
    ys, xs = np.nonzero(glare)
    h, w = glare.shape
    sides = [glare[y, :] for y in (ys.min(), ys.max()) if 0 < y < h - 1]  # (not the frame's edge)
    sides += [glare[:, x] for x in (xs.min(), xs.max()) if 0 < x < w - 1]
    assert sides and max(int(side.max()) for side in sides) <= 1


def test_a_card_is_drawn_with_its_edges_on_its_true_outline():
    """The truth's outline is where the card's edges are: the benchmarks measure readers against
    it to a fraction of a pixel. (The card's picture was mapped by its first and last pixel
    centres, so every card lay a quarter of a pixel up and left of its truth.)"""
    import cv2

    deck = StandInDeck()
    r = Renderer(CameraSpec(width=1280, height=720), replace(Look.clean(), cloth_bgr=(40, 40, 40)),
                 1100, 900, np.random.default_rng(0))
    for x, y, turn in ((550, 450, 0), (530, 470, 33), (580, 420, -71)):
        res = r.render([CardPose(deck, "QH", x, y, turn)], [], np.random.default_rng(0))
        grey = cv2.cvtColor(res.image, cv2.COLOR_BGR2GRAY).astype(np.float32)
        q = np.array(res.cards[0].corners_px, np.float32)
        # the card's edge lies where the picture is halfway from the cloth to the paper; its
        # area's centre, so found, is the outline's (to a few hundredths of a pixel)
        mask = (grey > (40 + grey[tuple(np.round(q.mean(axis=0)[::-1]).astype(int))]) / 2).astype(np.uint8)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        filled = np.zeros_like(mask)
        cv2.drawContours(filled, [max(contours, key=cv2.contourArea)], -1, 1, cv2.FILLED)
        mo = cv2.moments(filled, binaryImage=True)
        drawn = np.array([mo["m10"] / mo["m00"], mo["m01"] / mo["m00"]])
        m = cv2.moments(q.reshape(-1, 1, 2))
        truth = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
        assert np.abs(drawn - truth).max() < 0.1, (turn, drawn - truth)


def test_cards_laid_on_a_spot_land_off_its_middle_and_apart():
    """No hand lays a card at a spot's very middle, nor two cards at one place: three cards
    turned onto one waste pile land a few mm off the spot and off each other (laid all at its
    middle, a copy turned onto its like at nearly its angle changed no pixel, and no tracker
    could see it). A card laid at a given table point lands there."""
    from vision.sim_table import SPOT_LANDING_MM, SimTable, TableAction

    deck, lay = StandInDeck(), make_layout(4)
    w = lay.spot("waste:2")
    acts = [TableAction(0.2 + 0.8 * i, "reveal", 2, code, zone="waste:2") for i, code in enumerate(("3H", "3H", "9C"))]
    acts.append(TableAction(2.6, "place", 2, "5D", zone="centre", to_mm=(550.0, 450.0)))
    sim = SimTable(lay, deck, acts, camera=CameraSpec(width=320, height=180), look=Look.clean(),
                   rng=np.random.default_rng(0))
    for _ in sim:
        pass
    laid = [(c.x, c.y) for c in sim.cards if c.zone == "waste:2"]
    assert len(laid) == 3
    offs = [np.hypot(x - w.cx, y - w.cy) for x, y in laid]
    assert all(0.05 < o <= 2 * SPOT_LANDING_MM * np.sqrt(2) + 1e-9 for o in offs)
    assert min(np.hypot(a[0] - b[0], a[1] - b[1]) for i, a in enumerate(laid) for b in laid[i + 1:]) > 0.05
    (placed,) = [c for c in sim.cards if c.code == "5D"]
    assert (placed.x, placed.y) == (550.0, 450.0)
