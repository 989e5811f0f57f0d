"""The simulated table: cards, hands and corner markers seen through a virtual camera.

A pinhole camera at any height and angle looks at the table plane (z = 0, table millimetres);
the plane maps to the picture by a homography, so every card is composed into the frame with one
small cv2.warpPerspective. What makes a render look like a phone or Pi camera picture:
procedural cloths (felt, wood, plain, patterned) larger than the marked area, uneven and tinted
light with vignetting, soft shadows under cards and arms, glare, lens blur, motion blur of
moving cards and sensor noise. Per scene (camera + look) the cloth, light and noise are made
once; a frame then costs a copy, the cards, the hands and four full-frame passes.

Nothing here knows game rules; it renders what it is given:

>>> import numpy as np
>>> from vision.sim_standin import StandInDeck
>>> r = Renderer(CameraSpec(width=640, height=360), Look.clean(), table_w=1000, table_h=750)
>>> res = r.render([CardPose(StandInDeck(), "AS", 500, 375, 10)], [], np.random.default_rng(0))
>>> res.image.shape, res.cards[0].code
((360, 640, 3), 'AS')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Protocol

import cv2
import numpy as np

from vision.markers import DEFAULT_MARKER_MM, MarkerGeometry, marker_image
from vision.types import CARD_H_MM, CARD_W_MM

PRINT_PX_PER_MM = 8.0  # card pictures are drawn at least this finely (see Renderer.card_picture)

CORNER_RADIUS_MM = 3.2


class DeckLike(Protocol):
    """What the renderer needs of a deck (vision.decks.Deck satisfies it)."""

    name: str

    def render_face(self, code: str, px_per_mm: float = 8.0) -> np.ndarray: ...

    def render_back(self, colour: str, px_per_mm: float = 8.0) -> np.ndarray: ...


# --------------------------------------------------------------------------- inputs


@dataclass(frozen=True)
class CameraSpec:
    """A pinhole camera looking at a target point of the table.

    height_mm: camera height above the table (None: the lowest that shows the whole marked
    area with a margin). tilt_deg: angle of the view from straight down (0 = overhead), the camera
    moving towards seat 1's side (yaw_deg turns that side around the table). roll_deg turns the
    picture. hfov_deg: horizontal field of view.
    """

    width: int = 1920
    height: int = 1080
    hfov_deg: float = 70.0
    height_mm: float | None = None
    tilt_deg: float = 0.0
    yaw_deg: float = 0.0
    roll_deg: float = 0.0
    target_mm: tuple[float, float] | None = None  # default: table centre
    fill: float = 0.92  # with height_mm None: fraction of the frame the marked area may fill


@dataclass(frozen=True)
class Look:
    """How the picture is degraded: cloth, light, optics, sensor."""

    cloth: str = "felt"  # felt, wood, plain, pattern
    cloth_bgr: tuple[int, int, int] = (60, 120, 40)
    texture: float = 1.0  # strength of the cloth's texture
    exposure: float = 1.0
    tint_bgr: tuple[float, float, float] = (0.92, 1.0, 1.08)  # warm indoor light
    gradient: float = 0.25  # light falling off across the table (0 = even)
    gradient_deg: float = 30.0
    vignette: float = 0.25
    light_blobs: int = 2  # soft darker/brighter patches (lamps, a person's shadow)
    glare: float = 0.35  # peak brightness added by a reflected lamp (0..1)
    shadow: float = 0.45  # darkness of card and arm shadows
    blur_sigma: float = 0.9  # lens blur (pixels)
    noise_sigma: float = 3.0  # sensor noise (grey levels)
    motion_blur: bool = True
    card_tint: float = 0.97  # cards are slightly off-white paper

    @classmethod
    def clean(cls) -> Look:
        """Even light, no noise: for tests that check geometry."""
        return cls(cloth="plain", gradient=0.0, vignette=0.0, light_blobs=0, glare=0.0,
                   shadow=0.0, blur_sigma=0.0, noise_sigma=0.0, tint_bgr=(1.0, 1.0, 1.0),
                   texture=0.0, motion_blur=False, card_tint=1.0)

    @classmethod
    def random(cls, rng: np.random.Generator, harsh: bool = False) -> Look:
        """A plausible room: the cloth, colour and light vary; harsh adds more of everything."""
        k = 1.6 if harsh else 1.0
        cloths = [("felt", (60, 125, 35)), ("felt", (45, 95, 30)), ("felt", (110, 70, 30)),
                  ("felt", (40, 40, 130)), ("wood", (35, 55, 95)), ("wood", (60, 95, 140)),
                  ("wood", (25, 35, 60)), ("plain", (70, 70, 70)), ("plain", (150, 150, 150)),
                  ("pattern", (90, 60, 40)), ("felt", (30, 30, 30))]
        cloth, bgr = cloths[int(rng.integers(len(cloths)))]
        j = rng.integers(-12, 13, 3)
        bgr = tuple(int(np.clip(c + d, 5, 230)) for c, d in zip(bgr, j, strict=True))
        warm = float(rng.uniform(-0.06, 0.12))
        return cls(
            cloth=cloth, cloth_bgr=bgr, texture=float(rng.uniform(0.6, 1.3)),
            exposure=float(rng.uniform(0.75, 1.15)),
            tint_bgr=(1.0 - warm, 1.0, 1.0 + warm),
            gradient=float(rng.uniform(0.05, 0.35) * k), gradient_deg=float(rng.uniform(0, 360)),
            vignette=float(rng.uniform(0.1, 0.35) * k), light_blobs=int(rng.integers(0, 4)),
            glare=float(rng.uniform(0.0, 0.5) * k), shadow=float(rng.uniform(0.25, 0.6)),
            blur_sigma=float(rng.uniform(0.4, 1.3) * k), noise_sigma=float(rng.uniform(1.0, 4.5) * k),
            card_tint=float(rng.uniform(0.93, 1.0)))


@dataclass(frozen=True)
class CardPose:
    """One card on (or just above) the table: its centre and angle in table mm / degrees.

    angle_deg turns the card's printed x axis from the table's x axis (clockwise as seen from
    above, y pointing to seat 1). z orders overlapping cards (higher is on top; ties keep list
    order). lift_mm > 0 means held above the table (the shadow moves away). vx, vy: motion in
    mm per frame, for motion blur.
    """

    deck: DeckLike
    code: str
    x_mm: float
    y_mm: float
    angle_deg: float = 0.0
    face_up: bool = True
    back: str | None = None
    z: float = 0.0
    lift_mm: float = 0.0
    vx: float = 0.0
    vy: float = 0.0
    key: object = None  # the caller's id for this physical card (truth refers to it)

    def corners_mm(self) -> np.ndarray:
        """4x2 table points: card corners TL, TR, BR, BL as printed."""
        a = math.radians(self.angle_deg)
        ux, uy = math.cos(a), math.sin(a)
        vx, vy = -math.sin(a), math.cos(a)
        hw, hh = CARD_W_MM / 2, CARD_H_MM / 2
        return np.array([[self.x_mm + su * hw * ux + sv * hh * vx,
                          self.y_mm + su * hw * uy + sv * hh * vy]
                         for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))])


@dataclass(frozen=True)
class HandPose:
    """An arm reaching in over the table: from a point beyond the table edge to the hand.

    Points in table mm. The hand floats height_mm above the table (its shadow falls beside it).
    """

    shoulder_mm: tuple[float, float]
    hand_mm: tuple[float, float]
    skin_bgr: tuple[int, int, int] = (120, 160, 210)
    sleeve_bgr: tuple[int, int, int] | None = (90, 60, 40)
    width_mm: float = 75.0
    height_mm: float = 60.0
    spread: float = 0.5  # 0 = fist, 1 = fingers wide


SKIN_TONES: list[tuple[int, int, int]] = [
    (150, 180, 230), (120, 160, 210), (95, 135, 190), (70, 105, 160), (50, 75, 120), (35, 50, 85)]


# --------------------------------------------------------------------------- outputs


@dataclass(frozen=True)
class CardTruth:
    """What the renderer knows about one card in one frame."""

    code: str
    key: object
    corners_px: tuple[tuple[float, float], ...]  # TL, TR, BR, BL as printed
    x_mm: float
    y_mm: float
    angle_deg: float
    face_up: bool
    back: str | None
    visible: float  # fraction of the card visible in the frame (not covered, not cut off)
    top: bool  # no card above overlaps it


@dataclass
class RenderResult:
    image: np.ndarray
    cards: list[CardTruth]
    hands_px: list[np.ndarray] = field(default_factory=list)  # arm outlines in pixels


# --------------------------------------------------------------------------- geometry


def camera_matrices(cam: CameraSpec, table_w: float, table_h: float) -> tuple[np.ndarray, ...]:
    """K, R, C (camera centre, mm) of a camera spec."""
    f = (cam.width / 2) / math.tan(math.radians(cam.hfov_deg) / 2)
    k = np.array([[f, 0, cam.width / 2], [0, f, cam.height / 2], [0, 0, 1.0]])
    tx, ty = cam.target_mm if cam.target_mm is not None else (table_w / 2, table_h / 2)
    target = np.array([tx, ty, 0.0])
    yaw, tilt = math.radians(cam.yaw_deg), math.radians(cam.tilt_deg)
    hvec = np.array([math.sin(yaw), math.cos(yaw), 0.0])

    def rig(dist: float) -> tuple[np.ndarray, np.ndarray]:
        c = target + dist * (math.sin(tilt) * hvec + np.array([0, 0, math.cos(tilt)]))
        fwd = (target - c) / np.linalg.norm(target - c)
        dn = hvec - np.dot(hvec, fwd) * fwd
        if np.linalg.norm(dn) < 1e-9:
            dn = np.array([0.0, 1.0, 0.0])
        dn /= np.linalg.norm(dn)
        right = np.cross(fwd, dn)
        r0 = np.stack([right, dn, fwd])
        cr, sr = math.cos(math.radians(cam.roll_deg)), math.sin(math.radians(cam.roll_deg))
        roll = np.array([[cr, -sr, 0], [sr, cr, 0], [0, 0, 1.0]])
        return roll @ r0, c

    if cam.height_mm is not None:
        dist = cam.height_mm / max(math.cos(tilt), 1e-3)
        r, c = rig(dist)
        return k, r, c
    # Smallest distance that keeps the marked area inside `fill` of the frame.
    corners = np.array([[0, 0], [table_w, 0], [table_w, table_h], [0, table_h]], float)
    lo, hi = 100.0, 20000.0
    for _ in range(40):
        mid = (lo + hi) / 2
        r, c = rig(mid)
        p = _project(k, r, c, corners, 0.0)
        ok = (np.all(np.abs(p[:, 0] - cam.width / 2) <= cam.fill * cam.width / 2)
              and np.all(np.abs(p[:, 1] - cam.height / 2) <= cam.fill * cam.height / 2))
        lo, hi = (lo, mid) if ok else (mid, hi)
    r, c = rig(hi)
    return k, r, c


def _project(k, r, c, pts, z: float) -> np.ndarray:
    p3 = np.column_stack([pts, np.full(len(pts), z)])
    cam = (p3 - c) @ r.T
    uv = cam @ k.T
    return uv[:, :2] / uv[:, 2:3]


def plane_homography(k: np.ndarray, r: np.ndarray, c: np.ndarray, z: float = 0.0) -> np.ndarray:
    """3x3 homography from table mm (plane at height z) to pixels."""
    t = -r @ c
    h = k @ np.column_stack([r[:, 0], r[:, 1], r[:, 2] * z + t])
    return h / h[2, 2]


# --------------------------------------------------------------------------- procedural maps


def _smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cells: int) -> np.ndarray:
    """Low-frequency noise in about -1..1, `cells` blobs across the longer side."""
    h, w = shape
    gh = max(2, round(cells * h / max(h, w))) + 1
    gw = max(2, round(cells * w / max(h, w))) + 1
    g = rng.standard_normal((gh, gw)).astype(np.float32)
    return cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)


def cloth_texture(look: Look, shape: tuple[int, int], px_per_mm: float,
                  rng: np.random.Generator) -> np.ndarray:
    """The table surface (BGR uint8) at px_per_mm."""
    h, w = shape
    base = np.array(look.cloth_bgr, np.float32)
    t = look.texture
    lum = np.zeros((h, w), np.float32)
    if look.cloth == "felt":
        lum += 0.10 * t * _smooth_noise(rng, shape, 14)
        lum += 0.05 * t * _smooth_noise(rng, shape, 60)
        lum += 0.05 * t * cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32),
                                           (0, 0), 0.8 * px_per_mm)
        lum += 0.04 * t * rng.standard_normal((h, w)).astype(np.float32)
    elif look.cloth == "wood":
        y = np.arange(h, dtype=np.float32)[:, None] / px_per_mm
        warp = 25 * _smooth_noise(rng, shape, 5) + 6 * _smooth_noise(rng, shape, 20)
        freq = rng.uniform(0.15, 0.35)
        grain = np.sin((y + warp) * freq) + 0.5 * np.sin((y + warp) * freq * 3.1 + 1.0)
        lum += 0.10 * t * grain.astype(np.float32)
        lum += 0.06 * t * _smooth_noise(rng, shape, 8)
        streak = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0),
                                  sigmaX=30 * px_per_mm, sigmaY=0.3 * px_per_mm)
        lum += 2.5 * t * streak
        plank = rng.uniform(120, 200) * px_per_mm
        seams = (np.mod(np.arange(h) + rng.uniform(0, plank), plank) < 1.2 * px_per_mm)
        lum[seams, :] -= 0.35 * t
    elif look.cloth == "pattern":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32) / px_per_mm
        period = rng.uniform(25, 60)
        lum += 0.10 * t * np.sign(np.sin(xx * 2 * np.pi / period) * np.sin(yy * 2 * np.pi / period))
        lum += 0.04 * t * _smooth_noise(rng, shape, 12)
        lum = cv2.GaussianBlur(lum, (0, 0), 0.6 * px_per_mm)
    else:
        lum += 0.03 * t * _smooth_noise(rng, shape, 10)
        lum += 0.02 * t * rng.standard_normal((h, w)).astype(np.float32)
    hue = 0.04 * t * _smooth_noise(rng, shape, 6)
    img = base[None, None, :] * (1 + lum[..., None])
    img[..., 0] *= 1 + hue
    img[..., 2] *= 1 - hue
    return np.clip(img, 0, 255).astype(np.uint8)


def _light_map(look: Look, w: int, h: int, rng: np.random.Generator) -> np.ndarray:
    """Multiplicative light (float32 HxWx3, ~1.0) at any resolution."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xn, yn = xx / w - 0.5, yy / h - 0.5
    a = math.radians(look.gradient_deg)
    g = 1 + look.gradient * 2 * (xn * math.cos(a) + yn * math.sin(a))
    r2 = (xn * 2) ** 2 + (yn * 2 * h / w) ** 2
    g *= 1 - look.vignette * np.clip(r2, 0, 2) / 2
    for _ in range(look.light_blobs):
        cx, cy = rng.uniform(-0.2, 1.2) * w, rng.uniform(-0.2, 1.2) * h
        rad = rng.uniform(0.15, 0.5) * w
        amp = rng.uniform(-0.3, 0.2)
        g *= 1 + amp * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * rad * rad))
    g *= look.exposure
    return np.stack([g * t for t in look.tint_bgr], axis=-1).astype(np.float32)


def _rounded_mask(w: int, h: int, px_per_mm: float) -> np.ndarray:
    m = np.zeros((h, w), np.uint8)
    r = max(1, round(CORNER_RADIUS_MM * px_per_mm))
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (w - 1 - r, h - 1 - r), (r, h - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return m


# --------------------------------------------------------------------------- renderer


def _lies_still(cp: CardPose) -> bool:
    return cp.lift_mm == 0 and cp.vx == 0 and cp.vy == 0


def _still_signature(cp: CardPose) -> tuple:
    """All that decides how a card lying still is drawn."""
    return (id(cp.deck), cp.code, cp.x_mm, cp.y_mm, cp.angle_deg, cp.face_up, cp.back, cp.z)


class Renderer:
    """Renders frames of one scene: a camera, a look and a table size; caches what is static."""

    SHADOW_SCALE = 4  # shadows and light are computed at 1/4 resolution
    LABEL_SCALE = 2  # what covers what (the truth's visible shares) at 1/2

    def __init__(self, camera: CameraSpec, look: Look, table_w: float = 1100.0,
                 table_h: float = 900.0, rng: np.random.Generator | None = None,
                 marker_mm: float = DEFAULT_MARKER_MM, markers: bool = True,
                 surround_mm: float = 250.0) -> None:
        rng = rng if rng is not None else np.random.default_rng(0)
        self.camera, self.look = camera, look
        self.table_w, self.table_h = float(table_w), float(table_h)
        self.k, self.r, self.c = camera_matrices(camera, table_w, table_h)
        self.h_table = plane_homography(self.k, self.r, self.c, 0.0)  # table mm -> px
        W, H = camera.width, camera.height
        self.size = (W, H)
        # Resolution at the table centre decides the card picture scale.
        p = cv2.perspectiveTransform(np.array([[[table_w / 2, table_h / 2]],
                                               [[table_w / 2 + 10, table_h / 2]]]), self.h_table)
        self.px_per_mm = float(np.linalg.norm(p[1, 0] - p[0, 0]) / 10)
        # Card pictures at about 1.5x the largest on-screen scale (sharp, cheap to warp).
        corners = np.array([[[0, 0]], [[table_w, 0]], [[table_w, table_h]], [[0, table_h]]], float)
        pc = cv2.perspectiveTransform(corners, self.h_table).reshape(4, 2)
        edge = max(np.linalg.norm(pc[1] - pc[0]) / table_w, np.linalg.norm(pc[2] - pc[3]) / table_w,
                   np.linalg.norm(pc[3] - pc[0]) / table_h, np.linalg.norm(pc[2] - pc[1]) / table_h)
        self.card_px_per_mm = float(min(12.0, max(2.0, math.ceil(edge * 1.5 * 2) / 2)))
        self._faces: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        self._build_background(rng, marker_mm, markers, surround_mm)
        sw, sh = W // self.SHADOW_SCALE, H // self.SHADOW_SCALE
        self._light_lo = _light_map(look, sw, sh, rng)
        self._light_full_static = self._to_gain(self._light_lo)
        self._glare = self._make_glare(rng)
        nh, nw = H + 64, W + 64
        if look.noise_sigma > 0:
            n = rng.normal(0, look.noise_sigma, (nh, nw, 3)).astype(np.float32)
            self._noise_pos = np.clip(n, 0, 255).astype(np.uint8)
            self._noise_neg = np.clip(-n, 0, 255).astype(np.uint8)
        self._s_scale = np.diag([1 / self.SHADOW_SCALE, 1 / self.SHADOW_SCALE, 1.0])

    # -- static layers

    def _build_background(self, rng, marker_mm: float, markers: bool, surround: float) -> None:
        s = 2.0 if self.px_per_mm > 1.0 else 1.0
        tw, th = self.table_w + 2 * surround, self.table_h + 2 * surround
        shape = (round(th * s), round(tw * s))
        tex = cloth_texture(self.look, shape, s, rng)
        if markers:
            geo = MarkerGeometry(self.table_w, self.table_h, marker_mm)
            side = round(marker_mm * s)
            q = round(10 * s)
            for mid in range(4):
                x0, y0 = geo.corners_mm(mid)[0]
                px, py = round((x0 + surround) * s), round((y0 + surround) * s)
                cv2.rectangle(tex, (px - q, py - q), (px + side + q, py + side + q),
                              (235, 235, 235), -1)
                m = marker_image(mid, side)
                tex[py:py + side, px:px + side] = np.where(m[..., None] > 127, 235, 25)
        # texture px -> table mm -> image px
        t = np.array([[1 / s, 0, -surround], [0, 1 / s, -surround], [0, 0, 1.0]])
        floor = tuple(int(v) for v in rng.integers(15, 60, 3))
        self.background = cv2.warpPerspective(tex, self.h_table @ t, self.size,
                                              flags=cv2.INTER_LINEAR,
                                              borderMode=cv2.BORDER_CONSTANT, borderValue=floor)
        # (signature of the still cards, frame, shadow, labels, their quads) after drawing them
        self._still_layer: tuple | None = None

    @staticmethod
    def _to_gain(light: np.ndarray) -> np.ndarray:
        return np.clip(light * 128, 0, 255).astype(np.uint8)

    def _make_glare(self, rng) -> tuple[np.ndarray, tuple[int, int]] | None:
        if self.look.glare <= 0:
            return None
        W, H = self.size
        rad = int(rng.uniform(0.06, 0.16) * W)
        # drawn in a box twice the glare's radius from its middle, where it has faded out: a
        # box of the radius cut it off at a twentieth of its peak, a straight step of a dozen
        # grey levels that no lamp makes (and that a detector takes for an edge)
        box = 2 * rad
        g = np.zeros((2 * box, 2 * box), np.float32)
        cv2.circle(g, (box, box), int(rad * 0.45), 1.0, -1)
        g = cv2.GaussianBlur(g, (0, 0), rad * 0.3)
        g = np.rint(g / max(g.max(), 1e-6) * 255 * self.look.glare).astype(np.uint8)
        return cv2.merge([g, g, g]), (int(rng.uniform(0.15, 0.85) * W) - box,
                                      int(rng.uniform(0.15, 0.85) * H) - box)

    # -- card pictures

    def card_picture(self, deck: DeckLike, code: str, face_up: bool,
                     back: str | None) -> tuple[np.ndarray, np.ndarray]:
        key = (id(deck), code if face_up else None, face_up, back)
        got = self._faces.get(key)
        if got is None:
            s = self.card_px_per_mm
            # drawn finely and shrunk by area: printed ink has smooth edges that the camera's
            # pixels average, not the stair steps of a drawing made at the camera's scale
            fine = max(s, PRINT_PX_PER_MM)
            if face_up:
                img = deck.render_face(code, fine)
            else:
                img = deck.render_back(back or deck.back_colours[0], fine)  # type: ignore[attr-defined]
            if fine != s:
                h, w = img.shape[:2]
                size = (round(w * s / fine), round(h * s / fine))
                img = cv2.resize(img, size, interpolation=cv2.INTER_AREA)
            img = np.ascontiguousarray(img)
            if self.look.card_tint < 1:
                img = cv2.convertScaleAbs(img, alpha=self.look.card_tint, beta=2)
            h, w = img.shape[:2]
            got = (img, _rounded_mask(w, h, s))
            self._faces[key] = got
        return got

    # -- one frame

    def project(self, pts_mm: np.ndarray, z: float = 0.0) -> np.ndarray:
        if z == 0.0:
            h = self.h_table
        else:
            h = plane_homography(self.k, self.r, self.c, z)
        return cv2.perspectiveTransform(np.asarray(pts_mm, np.float64).reshape(-1, 1, 2),
                                        h).reshape(-1, 2)

    def render(self, cards: list[CardPose], hands: list[HandPose],
               rng: np.random.Generator, blocks: list | None = None) -> RenderResult:
        """One frame and its truth. rng draws the noise offset (and nothing else). blocks:
        Wonky's blocks (vision.blocks.BlockPose), drawn over the cards and under the hands."""
        W, H = self.size
        look = self.look
        order = sorted(range(len(cards)), key=lambda i: cards[i].z)  # stable: ties keep order
        sw, sh = W // self.SHADOW_SCALE, H // self.SHADOW_SCALE
        # the cards lying still under every moving one look as they did the frame before: their
        # drawing is kept and drawn again only when one of them changes
        still = 0
        while still < len(order) and _lies_still(cards[order[still]]):
            still += 1
        sig = tuple(_still_signature(cards[i]) for i in order[:still])
        quads: dict[int, np.ndarray] = {}
        if self._still_layer is not None and self._still_layer[0] == sig:
            _, frame, shadow, labels, kept = self._still_layer
            frame, labels = frame.copy(), labels.copy()
            shadow = shadow.copy() if shadow is not None else None
            quads.update({order[n]: q for n, q in enumerate(kept)})
            first = still
        else:
            frame = self.background.copy()
            shadow = np.zeros((sh, sw), np.uint8) if look.shadow > 0 else None
            labels = np.zeros((H // self.LABEL_SCALE, W // self.LABEL_SCALE), np.int16)
            first = 0
        for n, i in enumerate(order, start=1):
            if n <= first:
                continue
            cp = cards[i]
            q = self.project(cp.corners_mm(), cp.lift_mm)
            quads[i] = q
            ql = np.round(q / self.SHADOW_SCALE * 16).astype(np.int32)
            if shadow is not None:
                off = self._shadow_offset(cp.lift_mm)
                qs = np.round((self.project(cp.corners_mm() + off, 0.0)) / self.SHADOW_SCALE
                              * 16).astype(np.int32)
                cv2.fillConvexPoly(shadow, qs, 255 if cp.lift_mm > 2 else 200, cv2.LINE_AA, 4)
                cv2.fillConvexPoly(shadow, ql, 0, cv2.LINE_8, 4)
            cv2.fillConvexPoly(labels, np.round(q / self.LABEL_SCALE * 16).astype(np.int32), n,
                               cv2.LINE_8, 4)
            self._draw_card(frame, cp, q)
            if n == still:
                self._still_layer = (sig, frame.copy(), None if shadow is None else shadow.copy(),
                                     labels.copy(), [quads[j] for j in order[:still]])
        if blocks:
            self._draw_blocks(frame, blocks, shadow)
        hands_px = []
        for hp in hands:
            outline = self._draw_hand(frame, hp, shadow, labels)
            hands_px.append(outline)
        # light (with shadows) in one multiply at full resolution
        if shadow is not None:
            sh_f = cv2.GaussianBlur(shadow, (5, 5), 0).astype(np.float32) * (look.shadow / 255)
            light = self._light_lo * (1 - sh_f)[..., None]
            gain = cv2.resize(self._to_gain(light), (W, H), interpolation=cv2.INTER_LINEAR)
        else:
            gain = cv2.resize(self._light_full_static, (W, H), interpolation=cv2.INTER_LINEAR)
        frame = cv2.multiply(frame, gain, scale=1 / 128)
        if self._glare is not None:
            g, (gx, gy) = self._glare
            self._add_clipped(frame, g, gx, gy)
        if look.blur_sigma > 0.05:
            frame = cv2.GaussianBlur(frame, (0, 0), look.blur_sigma)
        if look.noise_sigma > 0:
            ox, oy = int(rng.integers(0, 64)), int(rng.integers(0, 64))
            cv2.add(frame, self._noise_pos[oy:oy + H, ox:ox + W], dst=frame)
            cv2.subtract(frame, self._noise_neg[oy:oy + H, ox:ox + W], dst=frame)
        # truth: visible fraction from the label image, top-of-pile from table-mm overlaps
        counts = np.bincount(labels.ravel().clip(0), minlength=len(cards) + 2)
        truth = []
        for n, i in enumerate(order, start=1):
            cp = cards[i]
            q = quads[i]
            full = _raster_area(q / self.LABEL_SCALE)
            vis = float(min(1.0, counts[n] / full)) if full > 0 else 0.0
            truth.append((i, CardTruth(
                cp.code, cp.key, tuple((float(x), float(y)) for x, y in q), cp.x_mm, cp.y_mm,
                cp.angle_deg, cp.face_up, cp.back, vis, self._is_top(cards, order, n - 1))))
        truth.sort(key=lambda p: p[0])
        return RenderResult(frame, [t for _, t in truth], hands_px)

    def _draw_blocks(self, frame: np.ndarray, blocks: list, shadow: np.ndarray | None) -> None:
        from vision.blocks import CameraModel, draw_block, shadow_polygon

        cam = CameraModel(self.k, self.r, self.c)
        if shadow is not None:
            per_mm = self._shadow_offset(1.0) - self._shadow_offset(0.0)
            for bp in blocks:
                poly = shadow_polygon(cam, bp, per_mm) / self.SHADOW_SCALE
                cv2.fillConvexPoly(shadow, np.round(poly * 16).astype(np.int32), 200, cv2.LINE_AA, 4)
            for bp in blocks:  # a block's shadow does not fall on the block itself
                hull = cv2.convexHull(cam.project(bp.corners()).astype(np.float32))
                cv2.fillConvexPoly(shadow, np.round(hull.reshape(-1, 2) / self.SHADOW_SCALE * 16)
                                   .astype(np.int32), 0, cv2.LINE_8, 4)
        # lower blocks first; of blocks at one height, the farther from the camera first
        for bp in sorted(blocks, key=lambda b: (b.z_mm, -math.hypot(b.x_mm - self.c[0],
                                                                     b.y_mm - self.c[1]))):
            draw_block(frame, cam, bp)

    def _shadow_offset(self, lift: float) -> np.ndarray:
        d = 1.0 + 0.6 * lift  # light from above-left-front
        return np.array([d * 0.6, d * 0.8])

    @staticmethod
    def _is_top(cards: list[CardPose], order: list[int], pos: int) -> bool:
        me = cards[order[pos]]
        a = me.corners_mm().astype(np.float32)
        area = CARD_W_MM * CARD_H_MM
        for j in order[pos + 1:]:
            o = cards[j]
            if abs(o.x_mm - me.x_mm) > 110 or abs(o.y_mm - me.y_mm) > 110:
                continue
            inter, _ = cv2.intersectConvexConvex(a, o.corners_mm().astype(np.float32))
            if inter > 0.02 * area:
                return False
        return True

    def _draw_card(self, frame: np.ndarray, cp: CardPose, q: np.ndarray) -> None:
        W, H = self.size
        img, mask = self.card_picture(cp.deck, cp.code, cp.face_up, cp.back)
        x0, y0 = np.floor(q.min(axis=0)).astype(int) - 2
        x1, y1 = np.ceil(q.max(axis=0)).astype(int) + 2
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
        if x1 <= x0 or y1 <= y0:
            return
        h, w = img.shape[:2]
        src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32) - 0.5  # the picture's outer edges
        m = cv2.getPerspectiveTransform(src, (q - [x0, y0]).astype(np.float32))
        size = (x1 - x0, y1 - y0)
        warped = cv2.warpPerspective(img, m, size, flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT)
        alpha = cv2.warpPerspective(mask, m, size, flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_CONSTANT)
        speed = math.hypot(cp.vx, cp.vy) * self.px_per_mm
        if self.look.motion_blur and speed > 1.5:
            n = min(41, int(speed) | 1)
            kern = np.zeros((n, n), np.float32)
            ang = math.atan2(cp.vy, cp.vx)
            c = n // 2
            cv2.line(kern, (int(c - c * math.cos(ang)), int(c - c * math.sin(ang))),
                     (int(c + c * math.cos(ang)), int(c + c * math.sin(ang))), 1.0, 1)
            kern /= kern.sum()
            warped = cv2.filter2D(warped, -1, kern)
            alpha = cv2.filter2D(alpha, -1, kern)
        roi = frame[y0:y1, x0:x1]
        a = alpha.astype(np.float32)[..., None] * (1 / 255)
        roi[:] = (warped * a + roi * (1 - a)).astype(np.uint8)

    def _draw_hand(self, frame: np.ndarray, hp: HandPose, shadow: np.ndarray | None,
                   labels: np.ndarray) -> np.ndarray:
        """Arm + hand as shaded polygons projected from the plane at the hand's height."""
        sx, sy = hp.shoulder_mm
        hx, hy = hp.hand_mm
        d = np.array([hx - sx, hy - sy], float)
        L = float(np.linalg.norm(d)) or 1.0
        d /= L
        nrm = np.array([-d[1], d[0]])
        wd = hp.width_mm
        wrist = np.array([hx, hy]) - d * 0.55 * wd
        start = np.array([sx, sy])
        arm = np.array([start + nrm * wd * 0.62, wrist + nrm * wd * 0.42,
                        wrist - nrm * wd * 0.42, start - nrm * wd * 0.62])
        palm_c = np.array([hx, hy]) - d * 0.1 * wd
        # palm as an ellipse polygon, fingers as thin ellipses fanned out
        ang = math.degrees(math.atan2(d[1], d[0]))
        palm = cv2.ellipse2Poly((0, 0), (int(wd * 0.62), int(wd * 0.5)), int(ang), 0, 360, 15)
        palm = palm.astype(float) + palm_c
        fingers = []
        for k, off in enumerate((-0.36, -0.12, 0.12, 0.36)):
            fa = ang + off * 60 * hp.spread
            length = wd * (0.55 if k in (1, 2) else 0.45)
            base = palm_c + d * wd * 0.45 + nrm * off * wd * 0.9
            tip_c = base + np.array([math.cos(math.radians(fa)), math.sin(math.radians(fa))]) \
                * length * 0.5
            fingers.append(cv2.ellipse2Poly((0, 0), (int(length * 0.6), int(wd * 0.1)), int(fa), 0,
                                            360, 30).astype(float) + tip_c)
        thumb_a = ang - 70 * (0.5 + hp.spread)
        tb = palm_c + nrm * -wd * 0.45
        tip_c = tb + np.array([math.cos(math.radians(thumb_a)), math.sin(math.radians(thumb_a))]) \
            * wd * 0.3
        fingers.append(cv2.ellipse2Poly((0, 0), (int(wd * 0.35), int(wd * 0.12)), int(thumb_a), 0,
                                        360, 30).astype(float) + tip_c)
        z = hp.height_mm
        parts = [self.project(p, z) for p in [arm, palm, *fingers]]
        W, H = self.size
        allp = np.concatenate(parts)
        x0, y0 = np.floor(allp.min(axis=0)).astype(int) - 6
        x1, y1 = np.ceil(allp.max(axis=0)).astype(int) + 6
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
        outline = self.project(arm, z)
        if x1 <= x0 or y1 <= y0:
            return outline
        S = self.SHADOW_SCALE
        if shadow is not None:
            off = self._shadow_offset(z)
            for p in [arm, palm, *fingers]:
                ps = self.project(p + off, 0.0) / S
                cv2.fillPoly(shadow, [np.round(ps * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
        for p in parts:
            cv2.fillPoly(labels, [np.round(p / self.LABEL_SCALE * 16).astype(np.int32)], -1,
                         cv2.LINE_8, 4)
        roi = frame[y0:y1, x0:x1]
        layer = roi.copy()
        mask = np.zeros(roi.shape[:2], np.uint8)
        shade = np.zeros(roi.shape[:2], np.uint8)
        skin = np.array(hp.skin_bgr, float)
        pts = [np.round((p - [x0, y0]) * 16).astype(np.int32) for p in parts]
        cv2.fillPoly(layer, [pts[0]], tuple(int(v) for v in skin * 0.85), cv2.LINE_AA, 4)
        if hp.sleeve_bgr is not None:
            cut = 0.45
            sleeve = np.array([start + nrm * wd * 0.65, start + d * L * cut + nrm * wd * 0.58,
                               start + d * L * cut - nrm * wd * 0.58, start - nrm * wd * 0.65])
            sp = np.round((self.project(sleeve, z) - [x0, y0]) * 16).astype(np.int32)
            cv2.fillPoly(layer, [sp], hp.sleeve_bgr, cv2.LINE_AA, 4)
        for p in pts[1:]:
            cv2.fillPoly(layer, [p], tuple(int(v) for v in skin), cv2.LINE_AA, 4)
        for p in pts:
            cv2.fillPoly(mask, [p], 255, cv2.LINE_AA, 4)
        # shading: darker rims, lighter middle line along the arm
        cv2.fillPoly(shade, [pts[0]], 255, cv2.LINE_AA, 4)
        k = max(3, int(self.px_per_mm * wd * 0.25) | 1)
        shade = cv2.GaussianBlur(cv2.erode(shade, np.ones((3, 3), np.uint8)), (k, k), 0)
        f = (0.75 + 0.35 * shade.astype(np.float32) / 255)[..., None]
        layer = np.clip(layer * f, 0, 255)
        a = cv2.GaussianBlur(mask, (3, 3), 0).astype(np.float32)[..., None] / 255
        roi[:] = (layer * a + roi * (1 - a)).astype(np.uint8)
        return outline

    @staticmethod
    def _add_clipped(frame: np.ndarray, g: np.ndarray, gx: int, gy: int) -> None:
        H, W = frame.shape[:2]
        h, w = g.shape[:2]
        x0, y0, x1, y1 = max(gx, 0), max(gy, 0), min(gx + w, W), min(gy + h, H)
        if x1 > x0 and y1 > y0:
            roi = frame[y0:y1, x0:x1]
            cv2.add(roi, g[y0 - gy:y1 - gy, x0 - gx:x1 - gx], dst=roi)


def _raster_area(q: np.ndarray) -> int:
    """Label pixels a quad fills when drawn alone as the labels are drawn (off the frame too).

    The visible share is counted in these, not in the quad's area: the pixels on a card's
    outline are a good share of its count (at quarter resolution a sixth), and an area below the
    count made a card a quarter under an arm count as 84 % visible."""
    ql = np.round(q * 16).astype(np.int32)
    x0, y0 = (ql.min(axis=0) >> 4) - 1
    x1, y1 = (ql.max(axis=0) >> 4) + 2
    patch = np.zeros((int(y1 - y0), int(x1 - x0)), np.uint8)
    cv2.fillConvexPoly(patch, ql - np.array([x0, y0]) * 16, 1, cv2.LINE_8, 4)
    return int(patch.sum())


def render(cards: list[CardPose], hands: list[HandPose], camera: CameraSpec, look: Look,
           rng: np.random.Generator, table_w: float = 1100.0,
           table_h: float = 900.0) -> RenderResult:
    """One-off render (builds a Renderer; keep a Renderer for many frames of one scene)."""
    return Renderer(camera, look, table_w, table_h, rng).render(cards, hands, rng)


def with_look(renderer: Renderer, **changes) -> Look:
    """A copy of a renderer's look with some fields changed (for sweeps)."""
    return replace(renderer.look, **changes)
