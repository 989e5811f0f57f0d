"""Benchmark: real photos of deck C (../shared/photos/deck-c by default; never copied here).

Enrols deck C from enrol/ into a temporary data dir, identifies scenes/ and scores against
labels.json: a labelled card counts as found when a detection with its code has its centre
inside the labelled box; a detection whose centre is in a labelled box with another code, and
whose confidence is >= 0.5 (reported, not UNKNOWN), is wrong. Cards marked partial are reported
separately. Also runs the built-in "standard" deck without enrolment.

    .venv/bin/python bench/vision_photos.py [PHOTOS_DIR] [--out bench-out/vision_photos.json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from vision.decks import get_deck  # noqa: E402
from vision.enroll import enroll  # noqa: E402
from vision.identify import identify, read_image  # noqa: E402
from vision.types import UNKNOWN  # noqa: E402


def score(photos: Path, deck) -> dict:
    labels = json.loads((photos / "labels.json").read_text())
    tot = found = wrong = wrong_hi = 0
    per_scene = []
    times = []
    for scene in labels:
        img = read_image(photos / scene["file"])
        t = time.perf_counter()
        dets = identify(img, deck)
        times.append(time.perf_counter() - t)
        s_found, s_wrong, s_total = 0, 0, 0
        detail = []
        for card in scene["cards"]:
            if card.get("partial"):
                continue
            x0, y0, x1, y1 = card["bbox"]
            inside = [d for d in dets if d.code != UNKNOWN and x0 <= np.mean([c[0] for c in d.corners]) <= x1
                      and y0 <= np.mean([c[1] for c in d.corners]) <= y1]
            ok = any(d.code == card["code"] for d in inside)
            bad = [d for d in inside if d.code != card["code"]]
            s_total += 1
            s_found += ok
            s_wrong += bool(bad) and not ok
            wrong_hi += any(d.confidence >= 0.9 for d in bad)
            detail.append({"code": card["code"], "found": ok,
                           "read_as": [(d.code, d.confidence) for d in inside]})
        tot += s_total
        found += s_found
        wrong += s_wrong
        per_scene.append({"file": scene["file"], "cards": s_total, "found": s_found,
                          "wrong": s_wrong, "detections": len(dets), "detail": detail})
    return {"deck": deck.name, "fully_visible_cards": tot, "found": found,
            "found_pct": round(100 * found / max(tot, 1), 1), "wrong": wrong,
            "wrong_pct": round(100 * wrong / max(tot, 1), 1), "wrong_conf_ge_0.9": wrong_hi,
            "median_identify_ms": round(1000 * float(np.median(times)), 1), "scenes": per_scene}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(__file__).resolve().parents[1] / ".." / "shared" / "photos" / "deck-c"
    ap.add_argument("photos", nargs="?", default=str(default))
    ap.add_argument("--out", default="bench-out/vision_photos.json")
    a = ap.parse_args()
    photos = Path(a.photos).resolve()
    if not (photos / "labels.json").is_file():
        print(f"no photos at {photos} (labels.json missing); pass the deck-c directory", file=sys.stderr)
        return 2
    report: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["REFEREE_DATA"] = tmp
        t = time.perf_counter()
        deck = enroll("deck-c", photos / "enrol")
        report["enrol_s"] = round(time.perf_counter() - t, 2)
        report["enrolled"] = score(photos, deck)
    report["standard_builtin"] = score(photos, get_deck("standard"))
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1))
    for k in ("enrolled", "standard_builtin"):
        r = report[k]
        print(f"{k}: found {r['found']}/{r['fully_visible_cards']} ({r['found_pct']} %), "
              f"wrong {r['wrong']} ({r['wrong_pct']} %), wrong with conf>=0.9: {r['wrong_conf_ge_0.9']}")
    print(f"report: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
