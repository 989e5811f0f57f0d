"""Benchmark: identification on rendered scenes with every degradation on, for each deck.

Uses vision.decks.compose (vision/render.py is not used yet). Each scene: 30 cards at the
overhead camera's scale (long side ~140 px in 1920 x 1080), random rotation, a few piles of 2-3,
one hand over a card, a few backs, perspective tilt, light gradient, blur, noise, JPEG.
Scored: resting top cards (visible >= 95 %) read right; detections wrong with confidence >= 0.9.

    .venv/bin/python bench/vision_identify.py [--scenes 10] [--out bench-out/vision_identify.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from vision.decks import builtin_names, get_deck  # noqa: E402
from vision.decks.compose import Composer, card_quad  # noqa: E402
from vision.identify import identify  # noqa: E402
from vision.types import UNKNOWN  # noqa: E402


def make_scene(deck, rng):
    comp = Composer(1920, 1080, cloth=tuple(int(v) for v in rng.choice([(40, 110, 40), (90, 50, 30), (50, 50, 60)])),
                    rng=rng)
    for i in range(6):
        for j in range(5):
            cx, cy = 160 + i * 300 + rng.uniform(-25, 25), 110 + j * 210 + rng.uniform(-15, 15)
            n = 1 if rng.random() > 0.15 else 2
            for k in range(n):
                if rng.random() < 0.1 and deck.back_colours:
                    comp.add_card(deck, None, card_quad(cx + 8 * k, cy + 5 * k, rng.uniform(0, 360), 140),
                                  back=str(rng.choice(deck.back_colours)))
                else:
                    comp.add_card(deck, str(rng.choice(deck.codes)),
                                  card_quad(cx + 8 * k, cy + 5 * k, rng.uniform(0, 360), rng.uniform(130, 150)))
    comp.add_hand(rng.uniform(300, 1600), rng.uniform(200, 900), 70, 40, rng.uniform(0, 180))
    return comp.finish(tilt=rng.uniform(0, 0.05), blur=rng.uniform(0.5, 1.1), noise=rng.uniform(1, 4),
                       gradient=rng.uniform(0, 0.25), jpeg=int(rng.integers(75, 95)))


def run_deck(name: str, scenes: int, seed: int) -> dict:
    deck = get_deck(name)
    rng = np.random.default_rng(seed)
    top = right = unknown = wrong_hi = wrong = dets_total = 0
    backs = backs_right = 0
    times = []
    identify(make_scene(deck, rng).image, deck)  # warm the templates
    for _ in range(scenes):
        sc = make_scene(deck, rng)
        t = time.perf_counter()
        dets = identify(sc.image, deck)
        times.append(time.perf_counter() - t)
        dets_total += len(dets)
        centres = [np.mean(np.array(d.corners), axis=0) for d in dets]
        for card in sc.cards:
            import cv2
            poly = card.corners.reshape(-1, 1, 2).astype(np.float32)
            mine = [d for d, c in zip(dets, centres, strict=True)
                    if cv2.pointPolygonTest(poly, (float(c[0]), float(c[1])), False) >= 0]
            if card.visible < 0.95:
                continue
            if card.code is None:
                backs += 1
                backs_right += any(d.back == card.back for d in mine)
                continue
            top += 1
            if any(d.code == card.code for d in mine):
                right += 1
            elif all(d.code == UNKNOWN for d in mine):
                unknown += 1
            for d in mine:
                if d.code not in (UNKNOWN, card.code):
                    wrong += 1
                    wrong_hi += d.confidence >= 0.9
    return {"deck": name, "scenes": scenes, "resting_top_cards": top,
            "right_pct": round(100 * right / max(top, 1), 2), "unknown": unknown, "wrong": wrong,
            "wrong_conf_ge_0.9": wrong_hi, "wrong_hi_pct_of_detections": round(100 * wrong_hi / max(dets_total, 1), 3),
            "backs": backs, "backs_colour_right": backs_right,
            "median_identify_ms_full_frame": round(1000 * float(np.median(times)), 1)}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenes", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="bench-out/vision_identify.json")
    a = ap.parse_args()
    rows = [run_deck(n, a.scenes, a.seed) for n in builtin_names()]
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(rows, indent=1))
    for r in rows:
        print(json.dumps(r))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
