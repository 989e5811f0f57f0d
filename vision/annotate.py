"""Drawing the live table view: every recognised card outlined and labelled, notes on top.

Plain values in (image corners, labels, colours, lines of text), a JPEG out; vision does not know
what a verdict is, the caller says what to write and in which colour.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import cv2
import numpy as np

GREEN = (60, 200, 60)
RED = (40, 40, 230)
AMBER = (0, 170, 255)
WHITE = (255, 255, 255)


def draw_cards(image: np.ndarray, cards: Iterable[tuple[Sequence[Sequence[float]], str, tuple[int, int, int]]]) -> None:
    """Outline each card (corners in image px) and write its label at its centre, in place."""
    scale = max(0.4, image.shape[1] / 2400)
    for corners, label, colour in cards:
        pts = np.round(np.asarray(corners, np.float32)).astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(image, [pts], True, colour, max(1, round(2 * scale)), cv2.LINE_AA)
        cx, cy = pts.reshape(-1, 2).mean(axis=0)
        (w, h), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        x, y = int(cx - w / 2), int(cy + h / 2)
        cv2.rectangle(image, (x - 3, y - h - 4), (x + w + 3, y + 4), (0, 0, 0), -1)
        cv2.putText(image, label, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1, cv2.LINE_AA)


def draw_notes(image: np.ndarray, lines: Iterable[tuple[str, tuple[int, int, int]]]) -> None:
    """Write lines of text in a dark band at the top of the picture, in place."""
    lines = list(lines)
    if not lines:
        return
    scale = max(0.5, image.shape[1] / 1800)
    step = int(32 * scale)
    band = image[: step * len(lines) + 10]
    band[:] = (band * 0.35).astype(np.uint8)
    for i, (text, colour) in enumerate(lines):
        cv2.putText(image, text, (10, step * (i + 1)), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1,
                    cv2.LINE_AA)


def to_jpeg(image: np.ndarray, quality: int = 75) -> bytes:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("could not encode the live picture as JPEG")
    return buf.tobytes()
