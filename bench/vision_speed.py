"""Benchmark: tracker + recognition frames/s on one core, 1920x1080, ~30 cards (JSON report).

    .venv/bin/python bench/vision_speed.py [--deck standard] [--repeat 3] [--out bench-out/vision_speed.json]

Frames are rendered first (rendering is not timed), then fed to a Tracker with OpenCV limited
to one thread, --repeat times (a fresh Tracker each time). "moving": frames in which cards slide
and arms move (several seats at once); "still": the same table with nothing moving. Per-frame
medians, p90 and max, and throughput (frames / total time: what a camera loop sustains, slow
frames where new cards are read included), each the median over the repeats.

The deck is the product's: its recogniser (vision/identify.py) reads every card. --deck standin
times the simulator's stand-in reader instead (vision/sim_standin.py: the simulator's own tests
use it), which reads a card in a fraction of the time: its figures are not the product's.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.calibrate import calibrate  # noqa: E402
from vision.layout import make_layout  # noqa: E402
from vision.render import CameraSpec, Look  # noqa: E402
from vision.sim_game import random_game  # noqa: E402
from vision.sim_table import SimTable  # noqa: E402
from vision.track import Tracker  # noqa: E402


def _timed(deck, lay, cal, frames: list, n_still: int) -> dict:
    """One pass: the moving frames through a fresh Tracker, then a still table through another."""
    tr = Tracker(deck, lay, cal)
    times = []
    for fr in frames:
        t0 = time.perf_counter()
        tr.update(fr)
        tr.read_ahead()
        times.append(time.perf_counter() - t0)
    moving = times[30:]  # after the first second, where the truth has arms on the table
    tr2 = Tracker(deck, lay, cal)
    still = []
    for i in range(n_still):
        f = type(frames[0])(frames[0].image, i / 30.0, i)
        t0 = time.perf_counter()
        tr2.update(f)
        tr2.read_ahead()
        still.append(time.perf_counter() - t0)
    still = still[10:]
    return {
        "moving_median_ms": 1000 * float(np.median(moving)),
        "moving_fps_median": 1 / float(np.median(moving)),
        "moving_p90_ms": 1000 * float(np.percentile(moving, 90)),
        "moving_max_ms": 1000 * float(np.max(moving)),
        "moving_fps_throughput": round(len(moving) / float(np.sum(moving)), 1),
        "still_median_ms": 1000 * float(np.median(still)),
        "still_fps_median": 1 / float(np.median(still)),
        "still_fps_throughput": len(still) / float(np.sum(still)),
        "reads": tr.stats["reads"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", default="standard")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", default="bench-out/vision_speed.json")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    if args.deck == "standin":
        from vision.sim_standin import StandInDeck
        deck = StandInDeck()
    else:
        from vision.decks import get_deck
        deck = get_deck(args.deck)
    rng = np.random.default_rng(args.seed)
    lay = make_layout(4)
    initial, actions = random_game(lay, deck, rng, n_actions=14, pace_s=0.5)
    sim = SimTable(lay, deck, actions, initial=initial, camera=CameraSpec(), look=Look.random(rng),
                   rng=rng)
    frames = []
    for fr, _ in sim:
        frames.append(fr)
        if len(frames) >= 3 * args.frames:
            break
    n_cards = len(sim.last_render.cards)
    cal = calibrate(frames[0].image, lay.table_w, lay.table_h)
    if args.deck != "standin":
        from vision.identify import prepare
        prepare(deck)  # the templates and the index's glyphs, built before play as the service does
    runs = [_timed(deck, lay, cal, frames, args.frames) for _ in range(args.repeat)]

    def med(key: str) -> float:
        return round(float(np.median([r[key] for r in runs])), 3 if key.endswith("_ms") else 1)
    rep = {
        "deck": args.deck,
        "cards_on_table": n_cards,
        "size": list(frames[0].image.shape[:2][::-1]),
        "repeats": args.repeat,
        **{k: med(k) for k in runs[0] if k != "reads"},
        "moving_fps_throughput_each": [r["moving_fps_throughput"] for r in runs],
        "reads": runs[0]["reads"],
        "opencv": cv2.__version__, "threads": cv2.getNumThreads(),
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(rep, indent=1))
    print(json.dumps(rep, indent=1))


if __name__ == "__main__":
    main()
