"""Benchmark: calibration from the four corner markers on harsh rendered tables (JSON report).

Each table is the first frame of a simulated game (vision/sim_table.py, cards dealt): a random
harsh Look (cloth, uneven tinted light, glare, shadows, lens blur up to 2.5 px, noise) and a
random camera as in bench/vision_track.py (tilt up to 25 degrees, yaw within 15). The frame is
rendered at 1920x1080 and also scaled down to 1280x720 and 960x540 (smaller cameras). Scored per
size: tables calibrated (all four markers found), which markers were missed, and the error of
the calibration: the largest distance, over a 7 x 5 grid of points spanning the table, between a
point and where the calibration maps its true image position (mm; median and worst over tables).

    .venv/bin/python bench/vision_calibrate.py [--tables 100] [--seed 2000] [--out bench-out/vision_calibrate.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.calibrate import CalibrationError, calibrate, detect_markers  # noqa: E402
from vision.decks import get_deck  # noqa: E402
from vision.layout import make_layout  # noqa: E402
from vision.markers import MARKER_IDS  # noqa: E402
from vision.render import CameraSpec, Look  # noqa: E402
from vision.sim_game import random_game  # noqa: E402
from vision.sim_table import SimTable  # noqa: E402

SIZES = ((1920, 1080), (1280, 720), (960, 540))


def first_frame(seed: int) -> tuple[np.ndarray, np.ndarray, float, float]:
    """(1080p picture, true table mm -> image homography, table width, height) of one table."""
    rng = np.random.default_rng(seed)
    lay = make_layout(4)
    look = Look.random(rng, harsh=True)
    cam = CameraSpec(width=1920, height=1080, tilt_deg=float(rng.uniform(0, 25)),
                     yaw_deg=float(rng.uniform(-15, 15)))
    deck = get_deck("wackee-six")
    initial, actions = random_game(lay, deck, rng, n_actions=2)
    sim = SimTable(lay, deck, actions, initial=initial, camera=cam, look=look, fps=30, rng=rng)
    frame, _ = next(iter(sim))
    return frame.image, sim.renderer.h_table, lay.table_w, lay.table_h


def error_mm(cal, h_table: np.ndarray, scale: float, w: float, h: float) -> float:
    grid = np.array([[x, y] for x in np.linspace(0, w, 7) for y in np.linspace(0, h, 5)])
    px = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), h_table).reshape(-1, 2)
    px = px * scale + (scale - 1) / 2  # pixel centres of the scaled-down picture
    return float(np.max(np.linalg.norm(cal.to_table(px) - grid, axis=1)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2000)
    ap.add_argument("--out", default="bench-out/vision_calibrate.json")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    found = Counter()
    missed: dict[str, Counter] = {f"{w}x{h}": Counter() for w, h in SIZES}
    errors: dict[str, list[float]] = {f"{w}x{h}": [] for w, h in SIZES}
    for seed in range(args.seed, args.seed + args.tables):
        image, h_table, tw, th = first_frame(seed)
        for w, h in SIZES:
            key = f"{w}x{h}"
            pic = image if w == 1920 else cv2.resize(image, (w, h), interpolation=cv2.INTER_AREA)
            try:
                cal = calibrate(pic, tw, th)
            except CalibrationError:
                missed[key].update(set(MARKER_IDS) - set(detect_markers(pic)))
                continue
            found[key] += 1
            errors[key].append(error_mm(cal, h_table, w / 1920, tw, th))
    summary = {key: {"calibrated_pct": round(100 * found[key] / args.tables, 2),
                     "missed_by_marker": {str(m): n for m, n in sorted(missed[key].items())},
                     "error_mm_median": round(float(np.median(errors[key])), 2) if errors[key] else None,
                     "error_mm_max": round(float(np.max(errors[key])), 2) if errors[key] else None}
               for key in errors}
    report = {"args": vars(args), "summary": summary}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=1))
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
