"""The four ArUco corner markers that tell the camera where the table is.

Dictionary DICT_4X4_50, ids 0..3, one per corner of the play area, in table coordinates
(x right, y towards seat 1):

    id 0  top-left      (far left as seen from seat 1)
    id 1  top-right
    id 2  bottom-right  (seat 1's right)
    id 3  bottom-left   (seat 1's left)

Each black square lies inside the play area with its outer corner on the area's corner and its
printed top edge towards the far side (the top edge, away from seat 1). `referee markers`
writes the printable sheet with write_marker_sheet().
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ARUCO_DICT = cv2.aruco.DICT_4X4_50
MARKER_IDS = (0, 1, 2, 3)
CORNER_NAMES = {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}
DEFAULT_MARKER_MM = 50.0


class MarkerSheetError(ValueError):
    """The marker sheet could not be written (bad path or format)."""


def dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(ARUCO_DICT)


@dataclass(frozen=True)
class MarkerGeometry:
    """Where the markers lie on a table of a given size (mm)."""

    table_w: float
    table_h: float
    size_mm: float = DEFAULT_MARKER_MM

    def corners_mm(self, marker_id: int) -> np.ndarray:
        """4x2 table points of the marker's corners in ArUco order (TL, TR, BR, BL as printed)."""
        s, w, h = self.size_mm, self.table_w, self.table_h
        x0, y0 = {0: (0.0, 0.0), 1: (w - s, 0.0), 2: (w - s, h - s), 3: (0.0, h - s)}[marker_id]
        return np.array([[x0, y0], [x0 + s, y0], [x0 + s, y0 + s], [x0, y0 + s]], np.float64)


def marker_image(marker_id: int, side_px: int) -> np.ndarray:
    """The black-and-white marker (uint8, side_px square, no quiet zone)."""
    return cv2.aruco.generateImageMarker(dictionary(), int(marker_id), int(side_px), borderBits=1)


def write_marker_sheet(path: str | Path, size_mm: float = DEFAULT_MARKER_MM, dpi: int = 300) -> Path:
    """Write an A4 sheet (PDF or PNG, by the file's suffix) with the four markers to cut out.

    Print at 100 % scale ("actual size"); each marker is size_mm wide and labelled with its id and
    its corner. Returns the path written.
    """
    from PIL import Image, ImageDraw, ImageFont

    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".pdf", ".png"):
        raise MarkerSheetError(f"marker sheet {path}: use a .pdf or .png file name")
    if not path.parent.exists():
        raise MarkerSheetError(f"marker sheet {path}: folder {path.parent} does not exist")
    mm = dpi / 25.4
    page = Image.new("L", (round(210 * mm), round(297 * mm)), 255)
    draw = ImageDraw.Draw(page)
    try:
        font = ImageFont.truetype("DejaVuSans.ttf", round(4.5 * mm))
    except OSError:
        font = ImageFont.load_default()
    side = round(size_mm * mm)
    for i, mid in enumerate(MARKER_IDS):
        cx = (52.5 + 105 * (i % 2)) * mm
        cy = (80 + 135 * (i // 2)) * mm
        x0, y0 = round(cx - side / 2), round(cy - side / 2)
        page.paste(Image.fromarray(marker_image(mid, side)), (x0, y0))
        q = round(12 * mm)  # quiet zone shown by a light cut line
        draw.rectangle((x0 - q, y0 - q, x0 + side + q, y0 + side + q), outline=170, width=2)
        draw.text((x0 - q, y0 - q - 7 * mm), f"id {mid}: {CORNER_NAMES[mid]} corner", fill=0,
                  font=font)
        draw.text((x0 - q, y0 + side + q + 2 * mm), "this edge towards seat 1 ^", fill=0,
                  font=font)
    draw.text((15 * mm, 12 * mm), f"Referee table markers (ArUco 4x4_50), {size_mm:g} mm: print at "
              "100 %; black square's outer corner on the play area's corner", fill=0, font=font)
    try:
        if suffix == ".pdf":
            page.save(path, "PDF", resolution=float(dpi))
        else:
            page.save(path, "PNG", dpi=(dpi, dpi))
    except OSError as e:
        raise MarkerSheetError(f"marker sheet {path}: cannot write it ({e})") from None
    return path
