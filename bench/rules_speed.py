"""Benchmark: events judged per second by the rules core, per game, on one core.

Builds large table logs with the seeded simulators, writes them as JSON Lines, then replays them:
`judge` times Match.apply over already-parsed events; `replay` times the whole path from the file
(JSON parsing, checking, judging). Reports medians of several runs as JSON.

    python bench/rules_speed.py --events 200000 --repeat 5 --out bench-out/rules_speed.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

from referee.rules import Match, MatchHeader, Seat, game_names
from referee.rules.log import event_line, header_line, read_log
from referee.sim import make_simulator

COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"]


def build_logs(game: str, n_events: int, folder: Path) -> list[Path]:
    """Several seeded matches adding up to about n_events events."""
    paths, total, seed = [], 0, 0
    while total < n_events:
        seed += 1
        seats = 2 + seed % 4
        header = MatchHeader(game, tuple(Seat(i, f"P{i}", COLOURS[i - 1]) for i in range(1, seats + 1)))
        events = list(make_simulator(header, seed).events())
        path = folder / f"{game}-{seed}.jsonl"
        with open(path, "w") as f:
            f.write(header_line(header) + "\n")
            f.writelines(event_line(e) + "\n" for e in events)
        paths.append(path)
        total += len(events)
    return paths


def time_judge(logs: list[tuple[MatchHeader, list]]) -> tuple[int, float]:
    n = 0
    start = time.perf_counter()
    for header, events in logs:
        m = Match(header)
        apply = m.apply
        for ev in events:
            apply(ev)
        n += len(events)
    return n, time.perf_counter() - start


def time_replay(paths: list[Path]) -> tuple[int, float]:
    n = 0
    start = time.perf_counter()
    for path in paths:
        header, events = read_log(path)
        m = Match(header)
        for ev in events:
            m.apply(ev)
        n += len(events)
    return n, time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=200_000, help="events per game")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--games", nargs="*", default=game_names())
    ap.add_argument("--out", default="bench-out/rules_speed.json")
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    report: dict = {"python": sys.version.split()[0], "machine": platform.machine(),
                    "events_per_game": args.events, "repeat": args.repeat, "games": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games:
            paths = build_logs(game, args.events, Path(tmp))
            parsed = [read_log(p) for p in paths]
            judge, replay = [], []
            for _ in range(args.repeat):
                n, s = time_judge(parsed)
                judge.append(n / s)
                n, s = time_replay(paths)
                replay.append(n / s)
            report["games"][game] = {
                "events": n,
                "matches": len(paths),
                "judge_events_per_s_median": round(statistics.median(judge)),
                "replay_from_file_events_per_s_median": round(statistics.median(replay)),
            }
            print(f"{game:<18} {n:>8} events  judge {statistics.median(judge):>10,.0f}/s  "
                  f"replay from file {statistics.median(replay):>10,.0f}/s", flush=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2))
    print(f"report: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
