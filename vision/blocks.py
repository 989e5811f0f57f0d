"""Wonky's blocks: what they look like from above, and the camera model that measures them.

The camera sees the tower from above: the new top block's colour, and its top face, whose size
in the picture depends on how high the face is (a small block on a tall tower looks as big as a
large one on the table). So sizes are measured on the plane of the face: the tower's height
is known from the blocks seen added, and the camera's position comes from the table's
calibration (the four markers) and the lens's field of view (config, default the Raspberry Pi
Camera Module 3's 66 degrees). A straight-down camera cannot tell its height from the markers
alone; the field of view settles it.

Blocks are cubes here (edge per size in BLOCK_EDGE_MM: measure yours and set them in the
config); colours are named and compared by hue, so any three (or more) clearly different
saturated colours work.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

BLOCK_SIZES = ("small", "medium", "large")
BLOCK_EDGE_MM = {"small": 25.0, "medium": 32.0, "large": 40.0}
DEFAULT_HFOV_DEG = 66.0  # Raspberry Pi Camera Module 3 (the wide one: 102)

# Paint colours (BGR) the simulator draws and the hue the watcher expects, by name.
BLOCK_BGR: dict[str, tuple[int, int, int]] = {
    "red": (40, 35, 200), "green": (60, 165, 45), "blue": (185, 95, 25),
    "yellow": (35, 205, 235), "orange": (30, 120, 240), "purple": (150, 50, 120),
}


class UnknownBlockColourError(ValueError):
    """A block colour name that has no known paint colour."""


def colour_bgr(name: str) -> tuple[int, int, int]:
    try:
        return BLOCK_BGR[name.lower()]
    except KeyError:
        raise UnknownBlockColourError(
            f"unknown block colour {name!r}: known colours are {', '.join(BLOCK_BGR)}") from None


def colour_hue(name: str) -> float:
    """OpenCV hue (0..180) of a named block colour."""
    b, g, r = colour_bgr(name)
    hsv = cv2.cvtColor(np.uint8([[[b, g, r]]]), cv2.COLOR_BGR2HSV)[0, 0]
    return float(hsv[0])


@dataclass(frozen=True)
class BlockPose:
    """One block: its base centre in table mm, the height of its base, its turn (degrees)."""

    colour: str
    size: str
    x_mm: float
    y_mm: float
    z_mm: float = 0.0
    angle_deg: float = 0.0
    edge_mm: float | None = None  # None: BLOCK_EDGE_MM[size]

    @property
    def edge(self) -> float:
        return self.edge_mm if self.edge_mm is not None else BLOCK_EDGE_MM[self.size]

    def corners(self) -> np.ndarray:
        """(8, 3): the base's four corners, then the top's, in table mm."""
        a = math.radians(self.angle_deg)
        h = self.edge / 2
        u = np.array([math.cos(a), math.sin(a)]) * h
        v = np.array([-math.sin(a), math.cos(a)]) * h
        c = np.array([self.x_mm, self.y_mm])
        sq = np.array([c - u - v, c + u - v, c + u + v, c - u + v])
        base = np.column_stack([sq, np.full(4, self.z_mm)])
        top = np.column_stack([sq, np.full(4, self.z_mm + self.edge)])
        return np.vstack([base, top])


# --------------------------------------------------------------------------- the camera model


@dataclass(frozen=True)
class CameraModel:
    """A pinhole camera in table coordinates (mm, z up from the table)."""

    k: np.ndarray
    r: np.ndarray
    c: np.ndarray

    @property
    def height_mm(self) -> float:
        return float(self.c[2])

    def project(self, pts: np.ndarray) -> np.ndarray:
        """(n, 3) table points -> (n, 2) pixels."""
        cam = (np.asarray(pts, np.float64) - self.c) @ self.r.T
        uv = cam @ self.k.T
        return uv[:, :2] / uv[:, 2:3]

    def plane_to_image(self, z: float) -> np.ndarray:
        """Homography from table mm on the plane at height z to pixels."""
        t = -self.r @ self.c
        h = self.k @ np.column_stack([self.r[:, 0], self.r[:, 1], self.r[:, 2] * z + t])
        return h / h[2, 2]

    def to_plane(self, px: np.ndarray, z: float) -> np.ndarray:
        """(n, 2) pixels -> (n, 2) table mm on the plane at height z."""
        h = np.linalg.inv(self.plane_to_image(z))
        p = np.asarray(px, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(p, h).reshape(-1, 2)


def camera_from_homography(table_to_image: np.ndarray, image_size: tuple[int, int],
                           hfov_deg: float = DEFAULT_HFOV_DEG) -> CameraModel:
    """The camera's pose from the table plane's homography, for a lens of known field of view
    (principal point at the picture's centre, square pixels)."""
    w, h = image_size
    f = (w / 2) / math.tan(math.radians(hfov_deg) / 2)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
    m = np.linalg.inv(k) @ np.asarray(table_to_image, np.float64)
    lam = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    best: CameraModel | None = None
    for sign in (1.0, -1.0):
        r1, r2, t = sign * lam * m[:, 0], sign * lam * m[:, 1], sign * lam * m[:, 2]
        for hand in (1.0, -1.0):
            r3 = hand * np.cross(r1, r2)
            u, _, vt = np.linalg.svd(np.column_stack([r1, r2, r3]))
            r = u @ vt
            if np.linalg.det(r) * hand < 0:
                continue
            c = -np.linalg.inv(r) @ t
            depth = (r @ -c)[2]  # the table's origin (a corner) lies in front of the camera
            if c[2] > 0 and depth > 0:
                best = CameraModel(k, r, c)
    if best is None:
        raise ValueError("the table calibration does not fit a camera above the table")
    return best


# --------------------------------------------------------------------------- drawing (simulator)


def _shade(bgr: tuple[int, int, int], f: float) -> tuple[int, int, int]:
    return tuple(int(min(255, max(0, round(v * f)))) for v in bgr)  # type: ignore[return-value]


FACES = ((0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7))  # the four sides
SIDE_LIGHT = (0.72, 0.58, 0.5, 0.64)  # light falls from above, a little from one side


def draw_block(frame: np.ndarray, cam: CameraModel, bp: BlockPose) -> np.ndarray:
    """Paint one block (its sides facing the camera, then its top); returns its outline (px)."""
    p3 = bp.corners()
    p2 = cam.project(p3)
    base = colour_bgr(bp.colour)
    centre = p3.mean(axis=0)
    for n, face in enumerate(FACES):
        fc = p3[list(face)].mean(axis=0)
        normal = fc - centre
        normal[2] = 0.0
        if float(np.dot(normal, cam.c - fc)) <= 0:
            continue  # turned away from the camera
        poly = np.round(p2[list(face)] * 16).astype(np.int32)
        cv2.fillConvexPoly(frame, poly, _shade(base, SIDE_LIGHT[n]), cv2.LINE_AA, 4)
    top = np.round(p2[4:] * 16).astype(np.int32)
    cv2.fillConvexPoly(frame, top, base, cv2.LINE_AA, 4)
    cv2.polylines(frame, [top], True, _shade(base, 0.8), 1, cv2.LINE_AA, 4)
    return cv2.convexHull(p2.astype(np.float32)).reshape(-1, 2)


def shadow_polygon(cam: CameraModel, bp: BlockPose, offset_per_mm: np.ndarray) -> np.ndarray:
    """The block's shadow on the table (px): its corners pushed away from the light by height."""
    p3 = bp.corners()
    flat = p3[:, :2] + p3[:, 2:3] * offset_per_mm[None, :]
    pts = cam.project(np.column_stack([flat, np.zeros(8)]))
    return cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2)
