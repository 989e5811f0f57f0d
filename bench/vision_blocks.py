"""Benchmark: Wonky's tower seen by the camera, against the simulator's truth (JSON report).

Each run builds random towers on the simulated table (vision/sim_tower.py): blocks brought by
arms from random seats, a block taken off now and then, falls; a random camera (tilt up to 20
degrees, any yaw) and a random look (with --harsh: uneven tinted light, glare, blur, noise,
cloths of any colour). The watcher (vision/tower.py) runs on every frame after calibrating from
the corner markers. Scored per truth event: found (a block observation with the right colour
and size / a tower observation with the right number left), time within one frame and within
three, plus false observations. Timing: ms per frame for the watcher.

    .venv/bin/python bench/vision_blocks.py [--runs 12] [--harsh] [--out bench-out/vision_blocks.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.calibrate import CalibrationError, calibrate  # noqa: E402
from vision.layout import make_layout  # noqa: E402
from vision.render import CameraSpec, Look, camera_matrices, plane_homography  # noqa: E402
from vision.sim_tower import SimTower, TowerAction  # noqa: E402
from vision.tower import TowerWatcher  # noqa: E402

COLOURS = ("red", "green", "blue")
SIZES = ("small", "medium", "large")


def script(rng: np.random.Generator, seats: int) -> tuple[list[TowerAction], float]:
    """Random tower actions: towers of up to 9 blocks, a block taken off now and then, falls."""
    acts: list[TowerAction] = []
    t = 1.0
    free = [(c, s) for c in COLOURS for s in SIZES]
    tower: list[tuple[str, str]] = []
    for _ in range(int(rng.integers(8, 13))):
        r = rng.random()
        if tower and r < 0.12:
            acts.append(TowerAction(t, "take_off", int(rng.integers(1, seats + 1))))
            free.append(tower.pop())
            t += float(rng.uniform(1.3, 2.0))
        elif len(tower) >= 2 and r < 0.22:
            acts.append(TowerAction(t, "fall"))
            free.extend(tower)
            tower = []
            t += float(rng.uniform(1.2, 2.0))
        elif free:
            b = free.pop(int(rng.integers(len(free))))
            tower.append(b)
            acts.append(TowerAction(t, "add", int(rng.integers(1, seats + 1)), *b))
            t += float(rng.uniform(1.0, 1.8))
    return acts, t + 1.0


def run(seed: int, harsh: bool, width: int, height: int, fps: float) -> dict:
    rng = np.random.default_rng(seed)
    lay = make_layout(4, game="wonky")
    spot = lay.spots["tower"].cx, lay.spots["tower"].cy
    acts, end = script(rng, 4)
    hfov = float(rng.uniform(55, 80))
    cam = CameraSpec(width=width, height=height, hfov_deg=hfov, tilt_deg=float(rng.uniform(0, 20)),
                     yaw_deg=float(rng.uniform(0, 360)))
    look = Look.random(rng, harsh=True) if harsh else Look()
    sim = SimTower(lay, spot, acts, rng)
    watcher = None
    from_sim = False
    seen: list = []
    spent: list[float] = []
    truth: list = []
    for frame, so_far in sim.frames(cam, look, fps=fps, duration=end):
        truth = so_far
        if watcher is None:
            try:
                to_image = calibrate(frame.image, lay.table_w, lay.table_h).table_to_image
            except CalibrationError:  # glare on a marker: use the simulator's (counted)
                k, r, c = camera_matrices(cam, lay.table_w, lay.table_h)
                to_image, from_sim = plane_homography(k, r, c), True
            watcher = TowerWatcher(to_image, (width, height), spot, COLOURS, hfov_deg=hfov)
        t0 = time.perf_counter()
        seen.extend(watcher.update(frame))
        spent.append(time.perf_counter() - t0)
    frame_s = 1.0 / fps
    used = set()
    rows = []
    for ev in truth:
        hit = None
        for i, o in enumerate(seen):
            if i in used or o.kind != ev.kind:
                continue
            same = ((o.colour, o.size) == (ev.colour, ev.size) if ev.kind == "block"
                    else o.blocks_left == ev.blocks_left)
            if same and abs(o.t - ev.t) < 1.0:
                hit = i
                break
        if hit is not None:
            used.add(hit)
        dt = seen[hit].t - ev.t if hit is not None else None
        rows.append({"kind": ev.kind, "what": (f"{ev.colour} {ev.size}" if ev.kind == "block"
                                               else f"{ev.blocks_left} left"),
                     "t": round(ev.t, 3), "found": hit is not None,
                     "dt": None if dt is None else round(dt, 3),
                     "within_frame": dt is not None and abs(dt) <= frame_s + 1e-3,
                     "within_3_frames": dt is not None and abs(dt) <= 3 * frame_s + 1e-3})
    false = [f"{o.kind} {getattr(o, 'colour', '')} {getattr(o, 'size', '')}"
             f"{getattr(o, 'blocks_left', '')} t={o.t:.3f}" for i, o in enumerate(seen) if i not in used]
    return {"seed": seed, "tilt": round(cam.tilt_deg, 1), "hfov": round(hfov, 1),
            "calibrated_from_simulator": from_sim, "events": rows,
            "false": false, "ms_per_frame_median": round(1000 * float(np.median(spent)), 3),
            "ms_per_frame_max": round(1000 * float(np.max(spent)), 3)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--harsh", action="store_true")
    ap.add_argument("--width", type=int, default=1920)
    ap.add_argument("--height", type=int, default=1080)
    ap.add_argument("--fps", type=float, default=30.0)
    ap.add_argument("--out", default="bench-out/vision_blocks.json")
    a = ap.parse_args()
    runs = [run(a.seed + k, a.harsh, a.width, a.height, a.fps) for k in range(a.runs)]
    ev = [e for r in runs for e in r["events"]]
    summary: dict = {"events": len(ev)}
    for kind in ("block", "tower_fell"):
        sub = [e for e in ev if e["kind"] == kind]
        found = [e for e in sub if e["found"]]
        summary[kind] = {"n": len(sub), "found_pct": round(100 * len(found) / max(1, len(sub)), 1),
                         "time_within_frame_pct_of_found": round(
                             100 * sum(e["within_frame"] for e in found) / max(1, len(found)), 1),
                         "time_within_3_frames_pct_of_found": round(
                             100 * sum(e["within_3_frames"] for e in found) / max(1, len(found)), 1)}
    summary["false_observations"] = sum(len(r["false"]) for r in runs)
    summary["runs_calibrated_from_simulator"] = sum(r["calibrated_from_simulator"] for r in runs)
    summary["ms_per_frame_median"] = round(float(np.median([r["ms_per_frame_median"] for r in runs])), 3)
    report = {"command": " ".join(sys.argv), "args": vars(a), "summary": summary, "runs": runs}
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1))
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
