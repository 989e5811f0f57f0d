"""Find the four corner markers and map image pixels <-> table millimetres.

Everything downstream of calibration works in table millimetres, whatever the camera's height
and angle: a homography of the table plane is exact for a pinhole camera (lens distortion aside).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.markers import CORNER_NAMES, DEFAULT_MARKER_MM, MARKER_IDS, MarkerGeometry, dictionary


class CalibrationError(ValueError):
    """The markers could not be found, or a stored calibration is unreadable."""


UPSCALE = 2  # a second look at a doubled picture for markers too small or blurred to read


def _detector():
    """ArUco detector for OpenCV 4.7+ (ArucoDetector) with a fallback to the old functions.

    Each bit is read from the middle of its cell only (the outer 30 % of a cell on each side is
    ignored, 8 samples per cell): a lens-blurred marker smears its bits into their neighbours,
    and with the default margins marker 0's lone bits were misread in 1 harsh rendered table
    of 9.
    """
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.perspectiveRemoveIgnoredMarginPerCell = 0.3
    params.perspectiveRemovePixelPerCell = 8
    if hasattr(cv2.aruco, "ArucoDetector"):
        det = cv2.aruco.ArucoDetector(dictionary(), params)
        return det.detectMarkers
    return lambda img: cv2.aruco.detectMarkers(img, dictionary(), parameters=params)  # < 4.7


def _table_markers(gray: np.ndarray) -> dict[int, np.ndarray]:
    corners, ids, _ = _detector()(gray)
    found: dict[int, np.ndarray] = {}
    if ids is None:
        return found
    for c, i in zip(corners, ids.ravel(), strict=False):
        if int(i) in MARKER_IDS and int(i) not in found:
            found[int(i)] = np.asarray(c, np.float64).reshape(4, 2)
    return found


MARKER_MARGIN = 1.6  # a marker's outline with its white quiet zone, as a share of the black square


def play_area(image: np.ndarray) -> tuple[np.ndarray | None, list[np.ndarray]]:
    """The play area's outline (image px, clockwise from marker 0's corner) where all four
    table markers show in the picture, else None; and the outlines of the markers that show,
    with their white margin (no card lies on them). A picture in which no marker shows at its
    own size is not searched again scaled up: a photo without markers must not cost that."""
    found = detect_markers(image, closer_if_none=False)
    margins = []
    for c in found.values():
        mid = c.mean(axis=0)
        margins.append((mid + MARKER_MARGIN * (c - mid)).astype(np.float32))
    if len(found) < len(MARKER_IDS):
        return None, margins
    # each marker's outer corner lies on the area's corner (vision/markers.py)
    area = np.array([found[m][m] for m in MARKER_IDS], np.float32)
    return area, margins


def detect_markers(image: np.ndarray, closer_if_none: bool = True) -> dict[int, np.ndarray]:
    """Marker id -> 4x2 image corners (TL, TR, BR, BL as printed) of the table markers seen.

    Markers not found at the picture's own size are looked for again in a picture scaled up
    twice: a small marker far from a tilted camera (about 20 px across) reads there.
    closer_if_none=False: not when none was found at all.
    """
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    found = _table_markers(gray)
    if len(found) < len(MARKER_IDS) and (found or closer_if_none):
        big = cv2.resize(gray, None, fx=UPSCALE, fy=UPSCALE, interpolation=cv2.INTER_CUBIC)
        for i, c in _table_markers(big).items():
            found.setdefault(i, (c + 0.5) / UPSCALE - 0.5)  # pixel centres scale about -0.5
    return found


@dataclass(frozen=True)
class Calibration:
    """The table plane's homography both ways, and how well the markers fitted (mm)."""

    image_to_table: np.ndarray  # 3x3, pixels -> mm
    table_w: float
    table_h: float
    image_size: tuple[int, int]  # (width, height) of the pictures it was made from
    error_mm: float = 0.0

    @property
    def table_to_image(self) -> np.ndarray:
        return np.linalg.inv(self.image_to_table)

    def to_table(self, pts) -> np.ndarray:
        """Nx2 image points -> Nx2 table millimetres."""
        p = np.asarray(pts, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(p, self.image_to_table).reshape(-1, 2)

    def to_image(self, pts) -> np.ndarray:
        """Nx2 table millimetres -> Nx2 image points."""
        p = np.asarray(pts, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(p, self.table_to_image).reshape(-1, 2)

    def px_per_mm(self) -> float:
        """Picture resolution at the table centre (pixels per millimetre)."""
        c = np.array([[self.table_w / 2, self.table_h / 2], [self.table_w / 2 + 10,
                                                             self.table_h / 2]])
        p = self.to_image(c)
        return float(np.hypot(*(p[1] - p[0])) / 10)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps({
            "image_to_table": self.image_to_table.tolist(), "table_w": self.table_w,
            "table_h": self.table_h, "image_size": list(self.image_size),
            "error_mm": self.error_mm}, indent=1))

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        try:
            d = json.loads(Path(path).read_text())
            return cls(np.array(d["image_to_table"], np.float64), float(d["table_w"]),
                       float(d["table_h"]), tuple(d["image_size"]), float(d.get("error_mm", 0)))
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise CalibrationError(f"calibration file {path} is unreadable ({e}); run the "
                                   "calibration again with the four markers in view") from None


def calibrate(image: np.ndarray, table_w: float, table_h: float,
              marker_mm: float = DEFAULT_MARKER_MM) -> Calibration:
    """Homography image <-> table mm from the four corner markers in one picture.

    Raises CalibrationError naming the markers that were not seen.
    """
    if image is None or image.size == 0:
        raise CalibrationError("calibration picture is empty; check the camera")
    found = detect_markers(image)
    missing = [m for m in MARKER_IDS if m not in found]
    if missing:
        names = ", ".join(f"{m} ({CORNER_NAMES[m]})" for m in missing)
        raise CalibrationError(
            f"table markers not seen: {names}; make sure all four markers lie flat at the corners "
            "of the play area, uncovered and inside the camera's view (print them with "
            "`referee markers`)")
    geo = MarkerGeometry(table_w, table_h, marker_mm)
    src = np.concatenate([found[m] for m in MARKER_IDS])
    dst = np.concatenate([geo.corners_mm(m) for m in MARKER_IDS])
    h, _ = cv2.findHomography(src, dst, 0)
    if h is None:
        raise CalibrationError("table markers seen but their positions are inconsistent; "
                               "check the table size in the config and the marker corners")
    proj = cv2.perspectiveTransform(src.reshape(-1, 1, 2), h).reshape(-1, 2)
    err = float(np.sqrt(np.mean(np.sum((proj - dst) ** 2, axis=1))))
    ih, iw = image.shape[:2]
    return Calibration(h, float(table_w), float(table_h), (iw, ih), err)
