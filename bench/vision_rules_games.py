"""Benchmark: the rules core's simulated players on the simulated table, seen by the camera.

    .venv/bin/python bench/vision_rules_games.py --seeds 1 2 --seconds 30

The demo's own setting (`referee demo`): each game's first round, played by the rules core's
simulated players, is acted out on the simulated table (referee.demo.table_script) and filmed.
Two referees judge it side by side:
  - the vision referee: frames -> tracker -> table events -> rules core (as on a real table);
  - the direct referee: the simulator's own table events straight into the rules core (what
    `referee demo --no-vision` shows; it is the truth of what happened).
Where only the camera sees the cards, the table answers on the dashboard what it cannot count
(Wig Out calls and hands: referee.demo.camera_answers); the vision referee gets those answers.
Reported per game: tracking against the simulated table's truth (as bench/vision_track.py), and
the calls: illegal or late verdicts the vision referee gave that the direct one did not (false
calls: a player told to take back a good card) and those it missed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from vision_track import score  # noqa: E402

from referee import demo as D  # noqa: E402
from referee.rules import Clock, MatchHeader, Seat  # noqa: E402
from referee.sim import make_simulator  # noqa: E402
from referee.table import Table  # noqa: E402
from referee.vision_loop import VisionLoop  # noqa: E402

GAMES = ("wackee-six", "slap-wacky", "wig-out", "spite-and-malice", "wonky")
CALLS = ("illegal", "late")


class _Now:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def _table(game: str, seats: list[dict], now: _Now) -> tuple[Table, list]:
    table = Table(clock=now)
    table.setup(game, seats, {})
    table.start()
    verdicts: list = []
    submit = table.submit

    def recorded(ev):
        out = submit(ev)
        verdicts.extend(out)
        return out

    table.submit = recorded  # type: ignore[method-assign]
    return table, verdicts


def _calls(verdicts: list) -> Counter:
    return Counter((v.ruling, v.seat, v.card) for v in verdicts if v.ruling in CALLS)


def _surplus(verdicts: list, surplus: Counter) -> list[str]:
    """The calls in surplus, each key's last ones (a key the direct referee also called once
    and the camera twice lists the camera's second)."""
    left = Counter(surplus)
    out = []
    for v in reversed(verdicts):
        key = (v.ruling, v.seat, v.card)
        if left[key] > 0:
            left[key] -= 1
            out.append(f"t={v.t:.2f} seat {v.seat} {v.text}")
    return out[::-1]


def run_round(game: str, n_seats: int, seed: int, args) -> dict:
    seats = D.seats_for(n_seats)
    header = MatchHeader(game, tuple(Seat(i + 1, s["name"], s["colour"])
                                     for i, s in enumerate(seats)))
    events = list(make_simulator(header, seed).events())
    refused = D.refused_blocks(header, events) if game == "wonky" else set()
    rounds = D.split_rounds(events)
    plan = rounds[0]
    # the table's taps on the dashboard where only the camera sees the cards (as the demo)
    answers = D.camera_answers(header, events)
    if len(rounds) > 1:
        answers = [a for a in answers if a.t < rounds[1].deal.t]
    start = plan.deal.t - 1.0
    end = min(plan.end + 2.0, plan.deal.t + args.seconds)
    sim, deck, layout = D.round_table(plan, game, n_seats, seed, size=(args.width, args.height),
                                      fps=args.fps, duration=end - start,
                                      tower_actions=D.tower_script(plan, refused))
    now = _Now()
    seen, seen_verdicts = _table(game, seats, now)
    truth_table, truth_verdicts = _table(game, seats, now)
    truth_table.submit(plan.deal)
    loop = VisionLoop(seen, game, n_seats, deck, layout, hfov_deg=D.DEMO_HFOV_DEG,
                      first_dealer=plan.deal.dealer or 1)
    observations: list = []
    translate = loop.observer.translate

    def recorded(obs):
        observations.append(obs)
        return translate(obs)

    loop.observer.translate = recorded  # type: ignore[method-assign]
    pending = [e for e in plan.events if not isinstance(e, Clock)]
    t_vision = 0.0
    frames = 0
    for frame, _ in sim:
        now.t = frame.t
        while pending and pending[0].t <= frame.t:
            ev = pending.pop(0)
            truth_table.submit(ev)
            if not isinstance(ev, D.VISION_KINDS):
                seen.submit(ev)
        while answers and answers[0].t <= frame.t:
            seen.submit(answers.pop(0))
        t0 = time.perf_counter()
        loop.process(frame)
        t_vision += time.perf_counter() - t0
        frames += 1
        seen.tick()
        truth_table.tick()
    got, want = _calls(seen_verdicts), _calls(truth_verdicts)
    false_calls, missed_calls = got - want, want - got
    tracking = score([e for e in sim.events if e.kind != "deal"],
                     [o for o in observations if getattr(o, "kind", "") != "deal"], args.fps,
                     sim.visibility)
    return {
        "game": game, "seed": seed, "seconds": round(end - plan.deal.t, 1), "frames": frames,
        "vision_ms_per_frame": round(1000 * t_vision / max(frames, 1), 1),
        "calls_truth": sum(want.values()), "calls_seen": sum(got.values()),
        "false_calls": sum(false_calls.values()), "missed_calls": sum(missed_calls.values()),
        "false_call_list": _surplus(seen_verdicts, false_calls),
        "tracking": tracking,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="*", default=list(GAMES))
    ap.add_argument("--seeds", nargs="*", type=int, default=[1])
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=30.0, help="of each round, from the deal")
    ap.add_argument("--fps", type=float, default=15.0)
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=720)
    ap.add_argument("--out", default="bench-out/vision_rules_games.json")
    args = ap.parse_args()
    runs = []
    for game in args.games:
        for seed in args.seeds:
            r = run_round(game, args.seats, seed, args)
            runs.append(r)
            k = r["tracking"]["kinds"]
            n = sum(v["n"] for v in k.values())
            print(f"{game:17s} seed {seed}: {r['seconds']:5.1f} s  events {n:3d}  found "
                  f"{sum(v['found'] for v in k.values()) / max(n, 1):6.1%}  seat "
                  f"{sum(v['seat'] for v in k.values()) / max(1, sum(v['found'] for v in k.values())):6.1%}"
                  f"  extra {len(r['tracking']['extra']):2d}   calls: truth {r['calls_truth']:2d} "
                  f"seen {r['calls_seen']:2d} false {r['false_calls']:2d} "
                  f"missed {r['missed_calls']:2d}", flush=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"args": vars(args), "runs": runs}, indent=1))
    print("report:", out)


if __name__ == "__main__":
    main()
