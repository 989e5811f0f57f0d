"""Benchmark: the live referee's latencies, as a JSON report.

1. pad press to verdict and buzzer, in-process: gpiozero mock pins drive the real slap-pad code,
   whose callback hands the press to the real table service (rules core, SQLite store, buzzer).
   Measured from the pin's edge to the buzzer's play() call. Goal: p99 <= 2 ms.
2. frame captured to verdict visible in the browser: the simulated table is rendered, tracked and
   judged live while headless Chromium (Playwright) shows the scoreboard; measured from the
   moment the frame that completed an observation was handed to the vision pipeline to the
   moment the verdict's text appears in the page (the top-level p50/p99). Goal: p99 <= 150 ms.
   Also reported: the split (pipeline to judged, judged to page), and the same from the
   simulated camera's capture time, which adds the renderer's own lag (not the product's).

    python bench/live_latency.py --out bench-out/live_latency.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory

from hardware.buzzer import RecordingBuzzer
from hardware.pads import SlapPads
from referee.rules import Deal, PadPress, RoundStart
from referee.store import MatchStore
from referee.table import Table


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def summary_ms(values: list[float]) -> dict[str, float]:
    return {"n": len(values), "p50_ms": round(statistics.median(values) * 1000, 3),
            "p99_ms": round(percentile(values, 99) * 1000, 3),
            "max_ms": round(max(values) * 1000, 3)}


def pad_to_verdict(presses: int) -> dict[str, Any]:
    """Wackee Six calls by a seat whose row and reserve are empty: judged on the press itself."""
    clock = time.perf_counter
    with tempfile.TemporaryDirectory() as tmp:
        buzzer = RecordingBuzzer(clock=clock)
        table = Table(store=MatchStore(Path(tmp) / "bench.sqlite3"), buzzer=buzzer, clock=clock)
        seats = [{"name": f"P{i}", "colour": c} for i, c in enumerate(["red", "blue"], 1)]
        table.setup("wackee-six", seats, {"target_score": 100_000})
        table.start()
        factory = MockFactory()
        pads = SlapPads({1: 17, 2: 27}, lambda seat, t: table.submit(PadPress(t, seat)),
                        clock=clock, pin_factory=factory, debounce_s=0.0)
        pin = factory.pin(17)
        latencies: list[float] = []
        for _ in range(presses):
            t = clock()
            table.submit(Deal(t, {}, {"reserve:1": 0, "reserve:2": 0, "stock:1": 40,
                                      "stock:2": 40}))
            table.submit(RoundStart(clock(), 1))
            before = len(buzzer.played)
            start = clock()
            pin.drive_low()
            if len(buzzer.played) > before:
                latencies.append(buzzer.played[-1][1] - start)
            pin.drive_high()
        pads.close()
        factory.close()
        verdicts = table.match.verdicts if table.match else []
        accepted = sum(1 for v in verdicts if v.ruling == "legal" and "accepted" in v.text)
    if not latencies:
        raise SystemExit("no press reached the buzzer: the benchmark's scenario is broken")
    return {"presses": presses, "buzzed": len(latencies), "calls_accepted": accepted,
            **summary_ms(latencies)}


def frame_to_browser(seconds: float, port: int) -> dict[str, Any]:
    from referee.demo import Demo, DemoClock
    from web import create_app
    from web.server import serve

    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return {"skipped": "playwright is not installed"}
    if not Path("/usr/bin/chromium").exists():
        return {"skipped": "/usr/bin/chromium is not installed"}

    clock = DemoClock(1.0)
    table = Table(buzzer=RecordingBuzzer(clock=clock), clock=clock)
    table.start_ticker()
    # wall time at which each camera-made event's frame was captured
    captured: dict[int, float] = {}  # the simulated camera's capture time (frame.t), wall clock
    handed: dict[int, float] = {}  # when that frame was handed to the vision pipeline
    judged: dict[int, float] = {}  # wall time the table had judged it
    frame_wall: dict[str, float] = {}

    original_submit = table.submit

    def submit(ev: Any) -> Any:
        verdicts = original_submit(ev)
        if table.match is not None and type(ev).__name__ in ("CardPlaced", "CardRevealed",
                                                             "CardTakenBack"):
            captured[len(table.match.events) - 1] = frame_wall["captured"]
            handed[len(table.match.events) - 1] = frame_wall["handed"]
            judged[len(table.match.events) - 1] = time.time()
        return verdicts

    table.submit = submit  # type: ignore[method-assign]
    demo = Demo(table, "wackee-six", 4, 7, 1.0, True, clock,
                on_frame=lambda t: None)
    original_process = None

    app = create_app(table, {"admin_pin": "1234"})
    handle = serve(app, host="127.0.0.1", port=port)
    seen: list[dict[str, Any]] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(f"http://127.0.0.1:{port}/")
        page.evaluate("""() => {
            window.__seen = [];
            new MutationObserver(muts => {
              const now = Date.now();
              for (const m of muts) for (const n of m.addedNodes) {
                if (n.nodeType === 1 && n.textContent) window.__seen.push([now, n.textContent]);
              }
            }).observe(document.body, {childList: true, subtree: true});
        }""")
        from referee import vision_loop

        original_process = vision_loop.VisionLoop.process

        def process(self: Any, frame: Any) -> int:
            # the wall time at which the camera captured this frame (frame.t on the table clock)
            frame_wall["handed"] = time.time()
            frame_wall["captured"] = time.time() - (clock() - frame.t) / clock.speed
            return original_process(self, frame)

        vision_loop.VisionLoop.process = process  # type: ignore[method-assign]
        runner = threading.Thread(target=demo.run, args=(seconds,), daemon=True)
        runner.start()
        runner.join(seconds + 30)
        demo.close()
        vision_loop.VisionLoop.process = original_process  # type: ignore[method-assign]
        seen = [{"t": t, "text": text} for t, text in page.evaluate("window.__seen")]
        browser.close()
    handle.stop()
    table.close()
    latencies, from_capture, to_judged, to_page = [], [], [], []
    if table.match is not None:
        for v in table.match.verdicts:
            if v.event in captured:
                shown = [s["t"] / 1000 for s in seen if v.text in s["text"]]
                if shown:
                    latencies.append(min(shown) - handed[v.event])
                    from_capture.append(min(shown) - captured[v.event])
                    to_judged.append(judged[v.event] - handed[v.event])
                    to_page.append(min(shown) - judged[v.event])
    if not latencies:
        return {"events_from_camera": len(captured), "matched_in_browser": 0,
                "error": "no camera verdict was seen in the page"}
    return {"events_from_camera": len(captured), "frames": demo.frames,
            "frames_dropped_behind": demo.dropped,
            "matched_in_browser": len(latencies), **summary_ms(latencies),
            "pipeline_to_judged": summary_ms(to_judged), "judged_to_page": summary_ms(to_page),
            "simulated_capture_to_page": summary_ms(from_capture)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presses", type=int, default=2000)
    ap.add_argument("--seconds", type=float, default=60.0, help="demo time for the browser part")
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--skip-browser", action="store_true")
    ap.add_argument("--out", default="bench-out/live_latency.json")
    args = ap.parse_args()
    report: dict[str, Any] = {"pad_to_verdict": pad_to_verdict(args.presses)}
    print("pad press -> verdict + buzzer:", json.dumps(report["pad_to_verdict"]), flush=True)
    if not args.skip_browser:
        report["frame_to_browser"] = frame_to_browser(args.seconds, args.port)
        print("frame -> verdict in browser:", json.dumps(report["frame_to_browser"]), flush=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2))
    print(f"report: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
