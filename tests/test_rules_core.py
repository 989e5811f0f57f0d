"""The rules core's framework: events, places, the log, deadlines, corrections, the registry."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from referee.rules import (
    CardPlaced,
    Clock,
    EventError,
    LogError,
    ManualEntry,
    Match,
    MatchHeader,
    OptionError,
    PadPress,
    Place,
    Seat,
    UnknownGameError,
    event_from_dict,
    find_game,
    game_names,
)
from referee.rules.log import read_log_stream

SEATS = (Seat(1, "Ann", "red"), Seat(2, "Bob", "blue"))


@pytest.fixture
def echo(echo_game: type) -> MatchHeader:
    return MatchHeader("echo", SEATS, {})


def card(t: float, seat: int, code: str = "X", to: str = "pile:1") -> CardPlaced:
    return CardPlaced(t, seat, code, Place.parse(to), None)


# --- events and places -------------------------------------------------------------------------


def test_every_event_kind_round_trips_through_json() -> None:
    samples = [
        {"t": 0.0, "kind": "deal", "layout": {"row:1:1": ["R5"]}, "counts": {"reserve:1": 6}},
        {"t": 0.5, "kind": "round_start", "seat": 1},
        {"t": 1.0, "kind": "card", "seat": 2, "card": "R1", "to": "pile:1", "from": "row:2:3"},
        {"t": 1.1, "kind": "reveal", "seat": 2, "card": "B4", "at": "waste:2"},
        {"t": 1.2, "kind": "take_back", "seat": 2, "card": "R1", "at": "pile:1"},
        {"t": 1.3, "kind": "press", "seat": 1},
        {"t": 1.4, "kind": "tilt", "magnitude": 0.7},
        {"t": 1.5, "kind": "block", "seat": 1, "colour": "red", "size": "L"},
        {"t": 1.6, "kind": "tower_fell", "blocks_left": 2},
        {"t": 1.7, "kind": "turn_end", "seat": 1},
        {"t": 1.8, "kind": "manual", "action": "hand_count", "seat": 2, "value": 3},
        {"t": 1.9, "kind": "round_stop", "reason": "no playable card"},
        {"t": 2.0, "kind": "clock"},
    ]
    for data in samples:
        ev = event_from_dict(data)
        assert ev.kind == data["kind"]
        assert json.loads(json.dumps(ev.to_dict())) == data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"t": 1, "kind": "slap", "seat": 1}, "unknown event kind 'slap'"),
        ({"t": -1, "kind": "press", "seat": 1}, "'t' must be a time"),
        ({"t": "x", "kind": "press", "seat": 1}, "'t' must be a time"),
        ({"t": 1, "kind": "press"}, "missing the field 'seat'"),
        ({"t": 1, "kind": "press", "seat": 0}, "seat must be a whole number"),
        ({"t": 1, "kind": "press", "seat": 1, "colour": "x"}, "unknown field 'colour'"),
        ({"t": 1, "kind": "card", "card": "R1", "to": "heap:1"}, "unknown place area 'heap'"),
        ({"t": 1, "kind": "card", "card": "R1", "to": "row"}, "needs the seat"),
        ({"t": 1, "kind": "card", "card": "", "to": "pile:1"}, "non-empty text"),
        ([1, 2], "must be a JSON object"),
    ],
)
def test_malformed_events_give_one_clear_error(data: Any, message: str) -> None:
    with pytest.raises(EventError, match=message):
        event_from_dict(data)


def test_place_text_form() -> None:
    assert Place.parse("store:1:2") == Place("store", 1, 2)
    assert str(Place.parse("pattern:5:3")) == "pattern:5:3"
    assert Place.parse("pattern:5:3").group == 5 and Place.parse("pattern:5:3").sub == 3
    assert Place.parse("discard") == Place("discard")
    with pytest.raises(EventError, match="whole numbers"):
        Place.parse("pile:x")


# --- the log -------------------------------------------------------------------------------------

HEADER = {"format": "referee-table-log", "version": 1, "game": "wackee-six",
          "seats": [{"seat": 1, "name": "Ann", "colour": "red"},
                    {"seat": 2, "name": "Bob", "colour": "blue"}], "options": {}}


def read(lines: list[str], final_newline: bool = True) -> list[Any]:
    text = "\n".join([json.dumps(HEADER), *lines]) + ("\n" if final_newline else "")
    _header, events = read_log_stream(io.StringIO(text), "match.jsonl")
    return list(events)


def test_a_malformed_log_line_names_its_line_number() -> None:
    with pytest.raises(LogError, match=r"match.jsonl, line 3: not valid JSON"):
        read(['{"t": 1, "kind": "press", "seat": 1}', '{"t": 2, "kind": press}'])


def test_a_truncated_last_line_is_reported_as_cut_off() -> None:
    with pytest.raises(LogError, match=r"line 3: the last line is cut off"):
        read(['{"t": 1, "kind": "press", "seat": 1}', '{"t": 2, "kind": "pre'], final_newline=False)


def test_an_out_of_order_line_is_an_error_beyond_the_reorder_window() -> None:
    ok = read(['{"t": 5, "kind": "press", "seat": 1}', '{"t": 4.5, "kind": "press", "seat": 2}'])
    assert [e.t for e in ok] == [5, 4.5]
    with pytest.raises(LogError, match=r"line 3: out of order"):
        read(['{"t": 5, "kind": "press", "seat": 1}', '{"t": 1, "kind": "press", "seat": 2}'])


def test_an_event_error_in_the_log_names_the_line() -> None:
    with pytest.raises(LogError, match=r"line 2: 'press' event is missing the field 'seat'"):
        read(['{"t": 1, "kind": "press"}'])


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ("not json", "the header is not valid JSON"),
        ('{"format": "x"}', "not a table log"),
        ('{"format": "referee-table-log", "version": 9}', "version 9 is not supported"),
        ('{"format": "referee-table-log", "version": 1, "game": "x"}', "needs 'seats'"),
    ],
)
def test_a_bad_header_is_reported_on_line_1(header: str, message: str) -> None:
    with pytest.raises(LogError, match=f"line 1: .*{message}"):
        read_log_stream(io.StringIO(header + "\n"))


def test_an_empty_log_file_is_reported() -> None:
    with pytest.raises(LogError, match="the file is empty"):
        read_log_stream(io.StringIO(""))


# --- registry and options ------------------------------------------------------------------------


def test_an_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(UnknownGameError, match="known games: wackee-six, slap-wacky, wig-out"):
        find_game("poker")


def test_every_game_is_found_by_name_and_describes_itself() -> None:
    for name in game_names():
        info = find_game(name).describe()
        assert info["name"] == name
        assert "grace_s" in info["options"]
        assert info["options"]["grace_s"]["default"] == 0.15  # rulings.md: Time


def test_unknown_or_mistyped_options_are_clear_errors(echo: MatchHeader) -> None:
    with pytest.raises(OptionError, match="unknown option 'windw_s'"):
        Match(MatchHeader("echo", SEATS, {"windw_s": 2}))
    with pytest.raises(OptionError, match="must be float"):
        Match(MatchHeader("echo", SEATS, {"window_s": "long"}))


def test_penalties_default_to_zero_in_every_game() -> None:
    # rulings.md "Penalties": a points penalty is a match option that defaults to 0.
    for name in game_names():
        for opt, spec in find_game(name).describe()["options"].items():
            if "penalty" in opt:
                assert spec["default"] == 0, (name, opt)


# --- deadlines: verdicts that come from time passing -------------------------------------------


def test_deadlines_fire_on_clock_events(echo: MatchHeader) -> None:
    m = Match(echo)
    m.apply(PadPress(1.0, 1))
    assert m.apply(Clock(1.9)) == []
    fired = m.apply(Clock(2.0))
    assert [v.reason for v in fired] == ["timeout"]
    assert fired[0].t == 2.0 and fired[0].event is None


def test_deadlines_fire_when_a_later_event_passes_them_by_the_settle_time(echo: MatchHeader) -> None:
    m = Match(echo)
    m.apply(PadPress(1.0, 1))
    # 2.2 - settle 0.3 = 1.9 < 2.0: not yet fired (a late camera frame may still come)
    out = m.apply(PadPress(2.2, 2))
    assert [v.reason for v in out] == ["false-call"]
    out = m.apply(PadPress(2.4, 2))
    assert [v.reason for v in out] == ["timeout", "false-call"]


def test_live_clock_event_only_when_a_deadline_is_due(echo: MatchHeader) -> None:
    m = Match(echo)
    assert m.clock_event(10.0) is None
    m.apply(PadPress(1.0, 1))
    assert m.clock_event(2.2) is None
    tick = m.clock_event(2.5)
    assert tick is not None and tick.t == pytest.approx(2.2)


def test_a_cancelled_deadline_never_fires(echo: MatchHeader) -> None:
    m = Match(echo)
    m.apply(PadPress(1.0, 1))
    m.apply(card(1.5, 1))
    assert m.apply(Clock(5.0)) == []


def test_every_event_gets_a_verdict(echo: MatchHeader) -> None:
    m = Match(echo)
    out = m.apply(ManualEntry(1.0, "nonsense", 1, None))
    assert len(out) == 1 and out[0].ruling == "ignored"
    assert out[0].text.startswith("Ann: ")


# --- corrections ---------------------------------------------------------------------------------


def test_void_strikes_an_event_out_and_rejudges(echo: MatchHeader) -> None:
    m = Match(echo)
    m.apply(card(1.0, 1, "A"))
    m.apply(card(2.0, 1, "B"))
    assert [v.text for v in m.verdicts] == ["Ann: played A", "Ann: played B"]
    note = m.apply(ManualEntry(3.0, "void", None, {"event": 0}))
    assert note[0].ruling == "info"
    assert [v.text for v in m.verdicts if v.ruling != "info"] == ["Ann: played B"]
    assert any("struck out" in v.text for v in m.verdicts)


def test_amend_replaces_a_misread_card(echo: MatchHeader) -> None:
    m = Match(echo)
    m.apply(card(1.0, 1, "BAD"))
    assert m.verdicts[0].ruling == "illegal"
    m.apply(ManualEntry(2.0, "amend", None,
                        {"event": 0, "with": {"kind": "card", "seat": 1, "card": "OK", "to": "pile:1"}}))
    assert m.verdicts[0].ruling == "legal"


def test_overrule_legal_and_illegal(echo: MatchHeader) -> None:
    m = Match(echo)
    m.apply(card(1.0, 1, "BAD"))
    m.apply(ManualEntry(2.0, "overrule", None, {"event": 0, "ruling": "legal"}))
    assert m.verdicts[0].text == "Ann: allowed by the referee"
    m.apply(card(3.0, 1, "C"))
    m.apply(ManualEntry(4.0, "overrule", None, {"event": 2, "ruling": "illegal"}))
    assert [v.ruling for v in m.verdicts if v.event == 2] == ["illegal"]


def test_corrections_replay_identically(echo: MatchHeader) -> None:
    events = [card(1.0, 1, "A"), PadPress(1.5, 2), card(2.0, 1, "BAD"),
              ManualEntry(3.0, "void", None, {"event": 0}), Clock(4.0)]
    runs = []
    for _ in range(2):
        m = Match(echo)
        runs.append([[v.to_dict() for v in m.apply(e)] for e in events])
    assert runs[0] == runs[1]


def test_a_bad_correction_is_ignored_with_a_reason(echo: MatchHeader) -> None:
    m = Match(echo)
    out = m.apply(ManualEntry(1.0, "void", None, {"event": 5}))
    assert out[0].ruling == "ignored" and "earlier event" in out[0].text


def test_an_amend_without_a_replacement_object_is_ignored(echo: MatchHeader) -> None:
    m = Match(echo)
    m.apply(card(1.0, 1, "A"))
    out = m.apply(ManualEntry(2.0, "amend", None, {"event": 0, "with": 1}))
    assert out[0].ruling == "ignored" and "value.with" in out[0].text
