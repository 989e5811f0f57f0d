"""The random-table conformance test (OpenSpiel's habit): for every game, seeded simulated players
make thousands of mostly legal and some illegal, late and racing moves. The verdicts of the live
run must equal those of a replay of its log, and the scores must equal the simulator's own
independent recount."""

from __future__ import annotations

import io
import json

import pytest

from referee.rules import Match, game_names
from referee.rules.game import Seat
from referee.rules.log import event_line, header_line, read_log_stream
from referee.rules.match import MatchHeader
from referee.sim import make_simulator

SEEDS = [1, 2, 3]
MIN_EVENTS = 2000  # per test case: thousands of simulated moves
COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"]


def header_for(game: str, seats: int) -> MatchHeader:
    return MatchHeader(
        game, tuple(Seat(i, f"P{i}", COLOURS[i - 1]) for i in range(1, seats + 1)), {}
    )


def check_one_match(game: str, seats: int, seed: int) -> tuple[int, set[str]]:
    """Live vs replay vs recount for one simulated match; returns (events, rulings seen)."""
    header = header_for(game, seats)
    sim = make_simulator(header, seed)
    live = Match(header)
    log = io.StringIO()
    log.write(header_line(header) + "\n")
    live_verdicts = []
    for ev in sim.events():
        live_verdicts.append([v.to_dict() for v in live.apply(ev)])
        log.write(event_line(ev) + "\n")
    outcome = sim.outcome()

    # Replay the written log: identical verdicts, event by event.
    log.seek(0)
    replay_header, events = read_log_stream(log)
    replay = Match(replay_header)
    replay_verdicts = [[v.to_dict() for v in replay.apply(ev)] for ev in events]
    assert replay_verdicts == live_verdicts, f"{game} seed {seed}: replay differs from live"

    # The scores equal the simulator's independent recount.
    standings = live.standings()
    assert standings["totals"] == outcome.totals, f"{game} seed {seed}"
    if outcome.rounds:
        assert standings["rounds"] == outcome.rounds, f"{game} seed {seed}"

    # The core agrees with what the simulator meant by each move it was sure of.
    rulings: dict[int, set[str]] = {}
    for v in live.verdicts:
        if v.event is not None:
            rulings.setdefault(v.event, set()).add(v.ruling)
    disagreements = {
        i: (want, sorted(rulings.get(i, set())))
        for i, want in outcome.intended.items()
        if want not in rulings.get(i, set())
    }
    assert not disagreements, f"{game} seed {seed}: " + json.dumps(
        dict(list(disagreements.items())[:10]))
    return len(live_verdicts), {r for rs in rulings.values() for r in rs}


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("seed", SEEDS)
def test_live_equals_replay_and_scores_equal_recount(game: str, seed: int) -> None:
    """Whole seeded matches until the simulated players have made thousands of moves."""
    total, kinds, match_no = 0, set(), 0
    while total < MIN_EVENTS:
        n, seen = check_one_match(game, 2 + (seed + match_no) % 3, seed * 1000 + match_no)
        total += n
        kinds |= seen
        match_no += 1
    assert {"legal", "illegal"} <= kinds, f"{game}: the simulator made no illegal moves"
