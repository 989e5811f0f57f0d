"""Benchmark: card identification on realistic rendered tables (vision/render.py), per deck.

Each scene (vision.decks.compose.table_scene): a random harsh Look (cloth, uneven tinted light,
vignette, glare, shadows, lens blur, noise), a random camera (height via field fill, tilt up to
25 degrees, yaw, roll, field of view), about 30 cards at random angles on a 6 x 5 grid of spots
(single cards, piles of 2-3, fans of 3), about 10 % face down, and 1-3 hands reaching over cards.

Scored: the resting top cards (truth top=True) with at least 50 % visible; a card is "right"
when a detection near its centre has its code (a back: face down with its colour), "wrong" when
a detection there has another code (or colour), else "unknown". Reported per deck, also split
into clear cards (>= 95 % visible) and covered ones (50-95 %). "phantom_conf_ge_0.9": confident
detections that match no card of the scene with that code. "identify_misses_by_cause": of the
cards identify() did not read right, those with no candidate quad (detect.find_candidates, given
the table's markers as identify() gives them: they change the hypotheses searched in piles)
whose corners all lie within 10 % of the card's short side of the truth, and those with one.
identify_region is also run on every scored card's true quad, jittered by ~2 px and started at
a random corner (what the tracker passes), and timed per call; identify() is timed per full
frame. Medians, one thread.

A larger --scale renders the same tables on a larger frame (a closer or finer camera): at 1.0
the cards are about 50 to 70 px wide, at 2.0 about 100 to 140.

    .venv/bin/python bench/vision_identify.py [--scenes 20] [--scale 1.0] [--out bench-out/vision_identify.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.calibrate import play_area  # noqa: E402
from vision.decks import builtin_names, get_deck  # noqa: E402
from vision.decks.compose import table_scene  # noqa: E402
from vision.detect import corner_gap, find_candidates  # noqa: E402
from vision.identify import identify, identify_region  # noqa: E402
from vision.types import UNKNOWN  # noqa: E402

MIN_VISIBLE = 0.5
HI = 0.9
NEAR_QUAD = 0.1  # a candidate quad whose corners all lie within this share of the card's short side


def _verdict(card, dets) -> tuple[str, bool]:
    """('right' | 'wrong' | 'unknown', wrong with high confidence) for one truth card."""
    right = wrong = wrong_hi = False
    for d in dets:
        if card.face_up:
            if d.face_up and d.code == card.code:
                right = True
            elif d.code != UNKNOWN or not d.face_up:
                wrong = True
                wrong_hi |= d.confidence >= HI
        else:
            if not d.face_up and d.back == card.back:
                right = True
            elif d.code != UNKNOWN or (not d.face_up and d.back != card.back):
                wrong = True
                wrong_hi |= d.confidence >= HI
    if wrong:
        return "wrong", wrong_hi
    return ("right" if right else "unknown"), False


class Tally:
    def __init__(self) -> None:
        self.n = {"right": 0, "wrong": 0, "unknown": 0}
        self.hi = 0

    def add(self, v: str, hi: bool) -> None:
        self.n[v] += 1
        self.hi += hi

    def report(self) -> dict:
        t = max(1, sum(self.n.values()))
        return {"cards": sum(self.n.values()),
                "right_pct": round(100 * self.n["right"] / t, 2),
                "unknown_pct": round(100 * self.n["unknown"] / t, 2),
                "wrong_pct": round(100 * self.n["wrong"] / t, 2),
                "wrong_conf_ge_0.9_pct": round(100 * self.hi / t, 3),
                "wrong": self.n["wrong"], "wrong_conf_ge_0.9": self.hi}


def run_deck(name: str, scenes: int, seed: int, fail_dir: Path | None, scale: float = 1.0) -> dict:
    deck = get_deck(name)
    rng = np.random.default_rng(seed)
    jitter = np.random.default_rng([seed, 1])  # its own: the scenes depend on the seed alone
    full, clear, covered, region, region_clear = Tally(), Tally(), Tally(), Tally(), Tally()
    t_full: list[float] = []
    t_region: list[float] = []
    phantom = dets_total = 0
    # why a card was not read right: no candidate quad near its outline (the detector), or one
    # near it that the reader did not read right (or that identify() dropped)
    causes = {"no_quad_near": 0, "quad_near_not_read": 0}
    size = {"width": round(1920 * scale), "height": round(1080 * scale)}
    warm = table_scene(deck, rng, **size)
    identify(warm.image, deck)  # build the templates outside the timing
    for s in range(scenes):
        res = table_scene(deck, rng, **size)
        img = res.image
        t0 = time.perf_counter()
        dets = identify(img, deck)
        t_full.append(time.perf_counter() - t0)
        dets_total += len(dets)
        cand_quads = None  # the candidates identify() read, found again at the scene's first miss
        centres = np.array([np.mean(d.corners, axis=0) for d in dets]) if dets else np.zeros((0, 2))
        for d, c in zip(dets, centres, strict=True):  # confident reads of nothing in the scene
            if d.confidence < HI or (d.face_up and d.code == UNKNOWN):
                continue
            ok = False
            for card in res.cards:
                q = np.array(card.corners_px, np.float32)
                if cv2.pointPolygonTest(q.reshape(-1, 1, 2), (float(c[0]), float(c[1])), False) >= 0 and (
                        (card.face_up and d.face_up and card.code == d.code)
                        or (not card.face_up and not d.face_up and card.back == d.back)):
                    ok = True
                    break
            phantom += not ok
        for k, card in enumerate(res.cards):
            if not card.top or card.visible < MIN_VISIBLE:
                continue
            q = np.array(card.corners_px, np.float32)
            cc = q.mean(axis=0)
            short = float(min(np.linalg.norm(q[0] - q[1]), np.linalg.norm(q[1] - q[2])))
            near = [d for d, c in zip(dets, centres, strict=True) if np.linalg.norm(c - cc) < 0.3 * short]
            v, hi = _verdict(card, near)
            full.add(v, hi)
            if v != "right":
                if cand_quads is None:
                    cand_quads = [c.corners for c in find_candidates(img, markers=play_area(img)[1])]
                gap = min((corner_gap(q, c) for c in cand_quads), default=np.inf)
                causes["quad_near_not_read" if gap <= NEAR_QUAD * short else "no_quad_near"] += 1
            (clear if card.visible >= 0.95 else covered).add(v, hi)
            jq = np.roll(q + jitter.normal(0, 1.5, q.shape).astype(np.float32), int(jitter.integers(4)), axis=0)
            t0 = time.perf_counter()
            rd = identify_region(img, jq, deck)
            t_region.append(time.perf_counter() - t0)
            rv, rhi = _verdict(card, [rd])
            region.add(rv, rhi)
            if card.visible >= 0.95:
                region_clear.add(rv, rhi)
            if fail_dir is not None and (v != "right" or rv != "right"):  # either read missed
                fail_dir.mkdir(parents=True, exist_ok=True)
                x0, y0 = np.maximum(q.min(axis=0).astype(int) - 20, 0)
                x1, y1 = q.max(axis=0).astype(int) + 20
                got = ",".join(f"{d.code}/{d.back}/{d.confidence:.2f}" for d in near) or "none"
                got += f"-region-{rv}-{rd.code}/{rd.back}/{rd.confidence:.2f}"
                fn = f"{name}-{s}-{k}-{v}-{card.code if card.face_up else 'back-' + str(card.back)}-vis{card.visible:.2f}-got-{got}.png"
                cv2.imwrite(str(fail_dir / fn.replace("/", "_")), img[y0:y1, x0:x1])
    return {"deck": name, "scenes": scenes, "frame": [size["width"], size["height"]], "identify": full.report(), "identify_clear": clear.report(),
            "identify_covered": covered.report(), "identify_region": region.report(), "identify_region_clear": region_clear.report(),
            "identify_misses_by_cause": causes,
            "phantom_conf_ge_0.9": phantom, "detections": dets_total,
            "identify_region_ms_median": round(1000 * float(np.median(t_region)), 2),
            "identify_full_frame_ms_median": round(1000 * float(np.median(t_full)), 1)}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenes", type=int, default=20, help="scenes per deck")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--decks", default=",".join(builtin_names()))
    ap.add_argument("--scale", type=float, default=1.0,
                    help="frame size as a multiple of 1920 x 1080 (the same table: larger cards)")
    ap.add_argument("--fail-dir", default=None, help="write crops of cards not read right here")
    ap.add_argument("--out", default="bench-out/vision_identify.json")
    a = ap.parse_args()
    cv2.setNumThreads(1)
    fail_dir = Path(a.fail_dir) if a.fail_dir else None
    rows = []
    t0 = time.perf_counter()
    for n in a.decks.split(","):
        rows.append(run_deck(n, a.scenes, a.seed, fail_dir, a.scale))
        print(json.dumps(rows[-1]), flush=True)
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"command": " ".join(sys.argv), "seconds": round(time.perf_counter() - t0, 1),
                               "decks": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
