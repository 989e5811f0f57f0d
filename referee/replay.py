"""Replaying a table log: the same verdicts and scores every time, for a person or as JSON."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from referee.rules.events import Event
from referee.rules.log import read_log
from referee.rules.match import Match, MatchHeader
from referee.rules.verdicts import Verdict


def replay(header: MatchHeader, events: Iterable[Event]) -> tuple[Match, list[tuple[Event, list[Verdict]]]]:
    match = Match(header)
    steps = [(ev, match.apply(ev)) for ev in events]
    return match, steps


def describe_event(ev: Event) -> str:
    d = ev.to_dict()
    kind = d.pop("kind")
    d.pop("t")
    seat = d.pop("seat", None)
    parts = [kind]
    if seat is not None:
        parts.append(f"seat {seat}")
    if "card" in d:
        parts.append(str(d.pop("card")))
    if "from" in d:
        parts.append(f"{d.pop('from')} ->")
    for key in ("to", "at"):
        if key in d:
            parts.append(str(d.pop(key)))
    for key, value in d.items():
        parts.append(f"{key}={json.dumps(value, separators=(',', ':'))}")
    return " ".join(parts)


def print_human(match: Match, steps: list[tuple[Event, list[Verdict]]], out: IO[str]) -> None:
    header = match.header
    seats = ", ".join(f"{s.number} {s.name} ({s.colour})" if s.colour else f"{s.number} {s.name}"
                      for s in header.seats)
    title = match.game.title
    out.write(f"{title}: {len(header.seats)} seats: {seats}\n")
    for ev, verdicts in steps:
        event_text = describe_event(ev)
        if not verdicts:
            continue
        for i, v in enumerate(verdicts):
            left = f"{ev.t:9.3f}  {event_text:<34.34}" if i == 0 else " " * 45
            out.write(f"{left} {v.ruling.upper():<8} {v.text}\n")
    out.write(scores_text(match))


def scores_text(match: Match) -> str:
    st = match.standings()
    lines = [f"\nScores after {len(st['rounds'])} round(s):"]
    for seat in match.header.seats:
        rounds = " ".join(f"{r.get(seat.number, 0):+d}" for r in st["rounds"])
        total = st["totals"].get(seat.number, 0)
        lines.append(f"  {seat.number} {seat.name:<12} {total:>6}   ({rounds})")
    winner = st.get("winner")
    if winner is not None:
        lines.append(f"Winner: {match.game.who(winner)}")
    elif st.get("over"):
        lines.append("The match is over.")
    else:
        lines.append("The match is not over.")
    return "\n".join(lines) + "\n"


def json_lines(match: Match, steps: list[tuple[Event, list[Verdict]]]) -> list[str]:
    out = [json.dumps(v.to_dict(), separators=(",", ":")) for _ev, vs in steps for v in vs]
    scores: dict[str, Any] = match.standings()
    scores = {
        "scores": {
            "rounds": [{str(k): v for k, v in r.items()} for r in scores["rounds"]],
            "totals": {str(k): v for k, v in scores["totals"].items()},
            "winner": scores["winner"],
            "over": scores["over"],
        }
    }
    out.append(json.dumps(scores, separators=(",", ":")))
    return out


def replay_file(path: Path, as_json: bool, out: IO[str]) -> None:
    header, events = read_log(path)
    match, steps = replay(header, events)
    if as_json:
        out.write("\n".join(json_lines(match, steps)) + "\n")
    else:
        print_human(match, steps, out)
