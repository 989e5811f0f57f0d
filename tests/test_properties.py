"""Property tests: no sequence of events crashes the core, and no line crashes the log reader:
only verdicts or clear errors."""

from __future__ import annotations

import io
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.rules import LogError, Match, MatchHeader, Seat, Verdict, event_from_dict, game_names
from referee.rules.errors import RefereeError
from referee.rules.log import iter_events, parse_events, read_log_stream

CARDS = [
    # standard deck and every game's codes, plus junk
    "AH", "7S", "10D", "KC", "QH", "JK", "R1", "R2", "B13", "G7", "Y12", "WILD", "WILDB",
    "P1-1W", "P1-2F", "P3-4W", "P6-3F", "BLOCK", "C1", "C5", "C12", "1", "2", "7", "13", "7B",
    "PASS", "REVERSE", "??", "X",
]
PLACES = [
    "pile:1", "pile:2", "pile:3", "pile:9", "row:1:1", "row:2:6", "row:3:2", "reserve:1",
    "waste:1", "waste:2", "stock:1", "up:1", "up:2", "stack:1", "store:1:1", "store:2:4",
    "store:1:5", "hand:1", "hand:2", "zone:1", "pattern:1:1", "pattern:1:4", "pattern:2:2",
    "discard", "draw", "unseen",
]
seats = st.integers(min_value=1, max_value=7)


def event_dicts() -> st.SearchStrategy[dict[str, Any]]:
    card = st.sampled_from(CARDS)
    place = st.sampled_from(PLACES)
    return st.one_of(
        st.builds(lambda c, p, s, f: {"kind": "card", "card": c, "to": p, "seat": s, "from": f},
                  card, place, seats, st.one_of(st.none(), place)),
        st.builds(lambda c, p, s: {"kind": "reveal", "card": c, "at": p, "seat": s}, card, place, seats),
        st.builds(lambda c, p, s: {"kind": "take_back", "card": c, "at": p, "seat": s},
                  card, place, seats),
        st.builds(lambda s: {"kind": "press", "seat": s}, seats),
        st.builds(lambda s: {"kind": "turn_end", "seat": s}, seats),
        st.builds(lambda s: {"kind": "round_start", "seat": s}, seats),
        st.just({"kind": "round_stop"}),
        st.just({"kind": "clock"}),
        st.builds(lambda m: {"kind": "tilt", "magnitude": m}, st.floats(0, 5)),
        st.builds(lambda c, z: {"kind": "block", "colour": c, "size": z},
                  st.sampled_from(["red", "blue", "green", "yellow", "any", "x"]),
                  st.sampled_from(["S", "M", "L", "small", "large", "x"])),
        st.builds(lambda n: {"kind": "tower_fell", "blocks_left": n}, st.integers(0, 9)),
        st.builds(
            lambda a, s, v: {"kind": "manual", "action": a, "seat": s, "value": v},
            st.sampled_from(["hand_count", "confirm", "tie_round", "give_card", "go", "void",
                             "amend", "overrule", "draw", "stuck", "x"]),
            seats,
            st.one_of(st.none(), st.integers(-2, 12), st.text(max_size=3),
                      st.fixed_dictionaries({"event": st.integers(0, 30)}),
                      st.dictionaries(st.sampled_from(["event", "ruling", "with", "seat"]),
                                      st.integers(0, 9), max_size=3)),
        ),
        st.builds(
            lambda r, s: {"kind": "deal", "layout": r, "counts": s},
            st.dictionaries(st.sampled_from(PLACES), st.lists(card, max_size=3), max_size=8),
            st.dictionaries(st.sampled_from(PLACES), st.integers(0, 40), max_size=8),
        ),
    )


def timed(draws: list[tuple[float, dict[str, Any]]]) -> list[dict[str, Any]]:
    t = 0.0
    out = []
    for dt, d in draws:
        t += dt
        out.append({"t": round(t, 3), **d})
    return out


event_lists = st.lists(st.tuples(st.floats(0, 4), event_dicts()), max_size=60).map(timed)


def run_match(game: str, n_seats: int, dicts: list[dict[str, Any]]) -> Match:
    header = MatchHeader(game, tuple(Seat(i, f"P{i}", "red") for i in range(1, n_seats + 1)), {})
    m = Match(header)
    for d in dicts:
        out = m.apply(event_from_dict(d))
        assert isinstance(out, list) and all(isinstance(v, Verdict) for v in out)
        if d["kind"] != "clock":
            assert out, f"no verdict for {d}"
    st_ = m.standings()
    assert set(st_["totals"]) == set(range(1, n_seats + 1))
    json.dumps(m.summary())  # the dashboard's state is always JSON-able
    return m


SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SETTINGS
@given(dicts=event_lists, n_seats=st.integers(2, 6))
def test_no_sequence_of_events_crashes_wackee_six(dicts: list[dict[str, Any]], n_seats: int) -> None:
    run_match("wackee-six", n_seats, dicts)


@SETTINGS
@given(dicts=event_lists, n_seats=st.integers(2, 6))
def test_no_sequence_of_events_crashes_slap_wacky(dicts: list[dict[str, Any]], n_seats: int) -> None:
    run_match("slap-wacky", n_seats, dicts)


@SETTINGS
@given(dicts=event_lists, n_seats=st.integers(2, 6))
def test_no_sequence_of_events_crashes_wig_out(dicts: list[dict[str, Any]], n_seats: int) -> None:
    run_match("wig-out", n_seats, dicts)


@SETTINGS
@given(dicts=event_lists, n_seats=st.integers(2, 6))
def test_no_sequence_of_events_crashes_spite_and_malice(
    dicts: list[dict[str, Any]], n_seats: int
) -> None:
    run_match("spite-and-malice", n_seats, dicts)


@SETTINGS
@given(dicts=event_lists, n_seats=st.integers(2, 6))
def test_no_sequence_of_events_crashes_wonky(dicts: list[dict[str, Any]], n_seats: int) -> None:
    run_match("wonky", n_seats, dicts)


def test_every_game_is_covered_by_a_property_test() -> None:
    covered = {name.removeprefix("test_no_sequence_of_events_crashes_").replace("_", "-")
               for name in globals() if name.startswith("test_no_sequence")}
    assert covered == set(game_names())


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(st.one_of(
    st.text(max_size=40),
    event_dicts().map(lambda d: json.dumps({"t": 1.0, **d})),
    st.dictionaries(st.text(max_size=5), st.one_of(st.integers(), st.text(max_size=5)),
                    max_size=4).map(json.dumps),
), max_size=8))
def test_no_log_line_crashes_the_reader(lines: list[str]) -> None:
    header = json.dumps({"format": "referee-table-log", "version": 1, "game": "wig-out",
                         "seats": [{"seat": 1}, {"seat": 2}]})
    text = "\n".join([header, *lines]) + "\n"
    try:
        _h, events = read_log_stream(io.StringIO(text))
        list(events)
    except LogError as err:
        assert "line " in str(err)
    except RefereeError:
        raise AssertionError("log errors must be LogError naming the line") from None


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(st.one_of(
    st.text(max_size=30),
    event_dicts().map(lambda d: json.dumps({"t": 1.0, **d})),
), max_size=6), final_newline=st.booleans())
def test_the_fast_whole_file_reader_agrees_with_the_line_reader(lines: list[str],
                                                                final_newline: bool) -> None:
    text = "\n".join(lines) + ("\n" if final_newline else "")

    def outcome(read: Any) -> Any:
        try:
            return [e.to_dict() for e in read()]
        except LogError as err:
            return str(err)

    slow = outcome(lambda: list(iter_events(io.StringIO(text))))
    fast = outcome(lambda: parse_events(text))
    assert fast == slow
