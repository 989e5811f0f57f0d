"""A small table-scene compositor for vision's own tests and benchmarks.

It is deliberately simple (the simulator's renderer, vision/render.py, is the full one): cards are
warped onto a cloth, optionally a hand-coloured blob covers part of one, and the whole frame gets
a perspective tilt, a light gradient, blur, noise and JPEG.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.decks.base import Deck, card_size_px


@dataclass
class Placed:
    """Ground truth for one card drawn in a scene."""

    code: str | None  # None for a back
    back: str | None
    corners: np.ndarray  # (4, 2) in image pixels, clockwise from the printed top-left
    visible: float = 1.0  # fraction not covered by anything drawn later


@dataclass
class Scene:
    image: np.ndarray
    cards: list[Placed] = field(default_factory=list)


def card_quad(cx: float, cy: float, angle_deg: float, long_px: float) -> np.ndarray:
    """Corners of a card centred at (cx, cy), clockwise from its printed top-left."""
    w, h = long_px * 63.5 / 88.9, long_px
    pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]], np.float32)
    a = np.deg2rad(angle_deg)
    r = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    return pts @ r.T + np.array([cx, cy], np.float32)


class Composer:
    """Builds one scene: add cards and hands in drawing order, then finish()."""

    def __init__(self, width: int, height: int, cloth=(40, 110, 40), rng: np.random.Generator | None = None,
                 texture: float = 6.0) -> None:
        self.rng = rng or np.random.default_rng(0)
        base = np.empty((height, width, 3), np.float32)
        base[:] = cloth
        if texture:
            noise = self.rng.normal(0, texture, (height // 4 + 1, width // 4 + 1, 1)).astype(np.float32)
            noise = cv2.resize(noise, (width, height))[:, :, None]
            base += noise
        self.img = base
        self.cards: list[Placed] = []
        self.masks: list[np.ndarray] = []

    def _cover(self, poly: np.ndarray) -> None:
        """Something new was drawn over poly: update the visible fraction of earlier cards."""
        h, w = self.img.shape[:2]
        m = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(m, poly.astype(np.int32), 1)
        for card, cm in zip(self.cards, self.masks, strict=True):
            cm &= 1 - m
            card.visible = float(cm.sum()) / self._area(card)

    def _area(self, card: Placed) -> float:
        return max(1.0, abs(cv2.contourArea(card.corners.astype(np.float32))))

    def add_card(self, deck: Deck, code: str | None, corners: np.ndarray, back: str | None = None,
                 px_per_mm: float | None = None) -> None:
        q = np.asarray(corners, np.float32)
        side = float(np.linalg.norm(q[1] - q[2]))
        ppm = px_per_mm or max(2.0, min(8.0, 2.0 * side / 88.9))
        face = deck.render_back(back, ppm) if code is None else deck.render_face(code, ppm)
        fh, fw = face.shape[:2]
        src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32) - 0.5  # the face's outer edges
        m = cv2.getPerspectiveTransform(src, q)
        h, w = self.img.shape[:2]
        warped = cv2.warpPerspective(face, m, (w, h), flags=cv2.INTER_AREA if ppm > 4 else cv2.INTER_LINEAR)
        alpha = cv2.warpPerspective(np.full((fh, fw), 255, np.uint8), m, (w, h)).astype(np.float32)[:, :, None] / 255
        # a soft shadow to the lower right, as under a lamp
        sh = cv2.GaussianBlur(np.roll(alpha[:, :, 0], (3, 3), (0, 1)), (0, 0), 3)[:, :, None]
        self.img *= 1 - 0.35 * sh * (1 - alpha)
        self.img = self.img * (1 - alpha) + warped.astype(np.float32) * alpha
        self._cover(q)
        cm = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(cm, q.astype(np.int32), 1)
        self.cards.append(Placed(code, back, q, 1.0))
        self.masks.append(cm)

    def add_hand(self, cx: float, cy: float, rx: float, ry: float, angle: float = 0.0,
                 colour=(120, 150, 200)) -> None:
        """A skin-coloured blob (hand or arm) over the table."""
        h, w = self.img.shape[:2]
        m = np.zeros((h, w), np.uint8)
        cv2.ellipse(m, (int(cx), int(cy)), (int(rx), int(ry)), angle, 0, 360, 1, -1)
        alpha = cv2.GaussianBlur(m.astype(np.float32), (0, 0), 1.5)[:, :, None]
        self.img = self.img * (1 - alpha) + np.array(colour, np.float32) * alpha
        for card, cm in zip(self.cards, self.masks, strict=True):
            cm &= 1 - m
            card.visible = float(cm.sum()) / self._area(card)

    def finish(self, tilt: float = 0.0, blur: float = 0.0, noise: float = 0.0, gradient: float = 0.0,
               jpeg: int | None = None) -> Scene:
        """Apply camera effects; tilt (0..0.15) is a perspective keystone, corners follow it."""
        img = self.img
        h, w = img.shape[:2]
        cards = self.cards
        if gradient:
            ramp = np.linspace(1 - gradient, 1 + gradient * 0.3, w, dtype=np.float32)[None, :, None]
            img = img * ramp
        if tilt:
            d = tilt * w
            src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
            dst = np.array([[d, 0], [w - d, 0], [w, h], [0, h]], np.float32)
            m = cv2.getPerspectiveTransform(src, dst)
            img = cv2.warpPerspective(img, m, (w, h), borderMode=cv2.BORDER_REPLICATE)
            for c in cards:
                c.corners = cv2.perspectiveTransform(c.corners.reshape(-1, 1, 2), m).reshape(4, 2)
        if blur:
            img = cv2.GaussianBlur(img, (0, 0), blur)
        if noise:
            img = img + self.rng.normal(0, noise, img.shape).astype(np.float32)
        out = np.clip(img, 0, 255).astype(np.uint8)
        if jpeg:
            ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        return Scene(out, cards)


__all__ = ["Composer", "Placed", "Scene", "card_quad", "card_size_px", "table_scene"]


# ---------------------------------------------------------------- realistic scenes (vision/render.py)

TABLE_W_MM, TABLE_H_MM = 1100.0, 900.0


def table_scene(deck: Deck, rng: np.random.Generator, *, width: int = 1920, height: int = 1080,
                n_cards: int = 30, harsh: bool = True, hands: tuple[int, int] = (1, 3),
                backs: float = 0.1, max_tilt: float = 25.0):
    """One realistic frame of a table (vision/render.py) and its truth, for tests and benchmarks.

    About n_cards cards on spots of a 6 x 5 grid, each spot a single card, a pile of 2-3 (only
    the top one is fully seen) or a fan of 3; a random look (harsh: every degradation stronger),
    a random camera height, tilt, yaw and roll, and hands reaching in over some cards.
    Returns vision.render.RenderResult (truth per card: image corners, visible, top).
    """
    from vision.render import SKIN_TONES, CameraSpec, CardPose, HandPose, Look, Renderer

    look = Look.random(rng, harsh=True) if harsh else Look.clean()
    cam = CameraSpec(width=width, height=height, hfov_deg=float(rng.uniform(60, 75)),
                     tilt_deg=float(rng.uniform(0, max_tilt)), yaw_deg=float(rng.uniform(-20, 20)),
                     roll_deg=float(rng.uniform(-6, 6)), fill=float(rng.uniform(0.86, 0.98)))
    codes = list(deck.codes)
    poses: list[CardPose] = []
    spots = [(c, r) for r in range(5) for c in range(6)]
    order = rng.permutation(len(spots))
    z = 0.0

    def card(x: float, y: float, a: float) -> None:
        nonlocal z
        z += 1.0
        if deck.back_colours and rng.random() < backs:
            poses.append(CardPose(deck, codes[0], x, y, a, face_up=False,
                                  back=str(rng.choice(deck.back_colours)), z=z))
        else:
            poses.append(CardPose(deck, str(rng.choice(codes)), x, y, a, z=z))

    for i in order:
        if len(poses) >= n_cards:
            break
        c, r = spots[int(i)]
        x = 120 + c * 172 + rng.uniform(-18, 18)
        y = 110 + r * 170 + rng.uniform(-15, 15)
        a = float(rng.uniform(0, 360))
        kind = rng.random()
        if kind < 0.6:
            card(x, y, a)
        elif kind < 0.8:  # a pile: cards dropped roughly on top of each other
            for _ in range(int(rng.integers(2, 4))):
                card(x + rng.uniform(-12, 12), y + rng.uniform(-12, 12), a + rng.uniform(-25, 25))
        else:  # a fan: each card shifted and turned from the one below
            step = rng.uniform(12, 22)
            da = rng.uniform(-15, 15)
            d = rng.uniform(0, 2 * np.pi)
            for k in range(3):
                card(x + (k - 1) * step * np.cos(d), y + (k - 1) * step * np.sin(d), a + k * da)
    hand_list = []
    for _ in range(int(rng.integers(hands[0], hands[1] + 1))):
        target = poses[int(rng.integers(len(poses)))]
        edge = int(rng.integers(4))
        sx, sy = [(target.x_mm, -300.0), (TABLE_W_MM + 300, target.y_mm), (target.x_mm, TABLE_H_MM + 300),
                  (-300.0, target.y_mm)][edge]
        hx = target.x_mm + rng.uniform(-60, 60)
        hy = target.y_mm + rng.uniform(-60, 60)
        sleeve = rng.integers(20, 200, 3)
        hand_list.append(HandPose((sx, sy), (hx, hy), SKIN_TONES[int(rng.integers(len(SKIN_TONES)))],
                                  (int(sleeve[0]), int(sleeve[1]), int(sleeve[2])),
                                  width_mm=float(rng.uniform(65, 85)), height_mm=float(rng.uniform(20, 120)),
                                  spread=float(rng.uniform(0, 1))))
    renderer = Renderer(cam, look, TABLE_W_MM, TABLE_H_MM, rng)
    return renderer.render(poses, hand_list, rng)
