"""The table service: judge, buzz, store before show, clock deadlines, commands, pads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FakeClock
from gpiozero.pins.mock import MockFactory

from hardware.buzzer import RecordingBuzzer
from hardware.pads import SlapPads
from referee.rules import CardPlaced, Match, MatchHeader, PadPress, Place, RefereeError
from referee.rules.log import header_line, iter_events
from referee.store import MatchStore
from referee.table import Table

SEATS = [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(100.0)


@pytest.fixture
def table(tmp_path: Path, clock: FakeClock, echo_game: type) -> Table:
    t = Table(store=MatchStore(tmp_path / "m.sqlite3"), buzzer=RecordingBuzzer(clock=clock),
              clock=clock)
    t.setup("echo", SEATS, {})
    t.start()
    return t


def card(t: float, seat: int, code: str) -> CardPlaced:
    return CardPlaced(t, seat, code, Place("pile", None, 1), None)


def test_an_event_is_judged_buzzed_stored_and_then_published(table: Table) -> None:
    sub = table.subscribe()
    verdicts = table.submit(card(100.0, 1, "BAD"))
    assert [v.ruling for v in verdicts] == ["illegal"]
    assert table.buzzer.names == ["illegal"]  # type: ignore[attr-defined]
    assert table.store is not None and table.match_id is not None
    stored = table.store.load_match(table.match_id)
    assert stored["events"][0]["card"] == "BAD"
    assert stored["verdicts"][0]["verdict"] == "illegal"
    kinds = []
    while (msg := sub.get(0.01)) is not None:
        kinds.append(msg["type"])
    assert kinds == ["event", "verdict", "state"]


def test_a_legal_call_buzzes_call_accepted_and_the_round_end_buzzes_round_over(table: Table) -> None:
    for i in range(3):
        table.submit(card(100.0 + i, 1, "X"))
    table.submit(PadPress(104.0, 1))
    assert table.buzzer.names == ["round_over"]  # type: ignore[attr-defined]
    snap = table.snapshot()
    assert snap["seats"][0]["score"] == 3 and snap["rounds"] == [{"1": 3, "2": 0}]


def test_the_ticker_fires_deadlines_and_logs_a_clock_line(table: Table, clock: FakeClock) -> None:
    table.submit(PadPress(100.0, 2))
    clock.now = 101.2  # deadline 101.0, but settle 0.3 s: not yet
    assert table.tick() == []
    clock.now = 101.4
    fired = table.tick()
    assert [v.reason for v in fired] == ["timeout"]
    assert json.loads(table.log_lines[-1])["kind"] == "clock"


def test_the_live_log_replays_to_the_same_verdicts(table: Table, clock: FakeClock) -> None:
    table.submit(PadPress(100.0, 2))
    table.submit(card(100.5, 1, "BAD"))
    clock.now = 102.0
    table.tick()
    table.submit(card(102.1, 2, "X"))
    assert table.match is not None
    live = [v.to_dict() for v in table.match.verdicts]
    replay = Match(MatchHeader.from_dict(json.loads(table.log_lines[0])))
    for ev in iter_events(line + "\n" for line in table.log_lines[1:]):
        replay.apply(ev)
    assert [v.to_dict() for v in replay.verdicts] == live


def test_the_store_exports_the_same_table_log(table: Table) -> None:
    table.submit(card(100.0, 1, "A"))
    table.submit(PadPress(100.2, 2))
    assert table.match_id is not None
    exported = table.export_log(table.match_id).splitlines()
    assert json.loads(exported[0]) == json.loads(header_line(table.match.header))  # type: ignore[union-attr]
    assert [json.loads(x) for x in exported[1:]] == [json.loads(x) for x in table.log_lines[1:]]


def test_paused_tables_do_not_judge(table: Table) -> None:
    table.command("pause")
    assert table.submit(card(100.0, 1, "A")) == []
    table.command("resume")
    assert len(table.submit(card(100.0, 1, "A"))) == 1


def test_correcting_a_verdict_rejudges(table: Table) -> None:
    table.submit(card(100.0, 1, "BAD"))
    table.command("correct", verdict_id=0, ruling="legal")
    assert table.match is not None
    assert table.match.verdicts[0].text == "Ann: allowed by the referee"
    with pytest.raises(RefereeError, match="no verdict 99"):
        table.command("correct", verdict_id=99, ruling="legal")


def test_what_the_camera_missed_is_added_from_the_dashboard(table: Table, clock: FakeClock) -> None:
    clock.now = 104.0
    table.command("add", event={"kind": "card", "seat": 2, "card": "R6", "to": "pile:1"})
    assert table.match is not None
    added = table.match.events[-1]
    assert isinstance(added, CardPlaced)
    assert (added.t, added.seat, added.card, str(added.to)) == (104.0, 2, "R6", "pile:1")
    assert table.match.verdicts[-1].event == len(table.match.events) - 1  # judged
    with pytest.raises(RefereeError, match="not 'round_stop'"):
        table.command("add", event={"kind": "round_stop"})
    with pytest.raises(RefereeError, match="missing the field 'to'"):
        table.command("add", event={"kind": "card", "seat": 1, "card": "R6"})
    with pytest.raises(RefereeError, match="add needs the event"):
        table.command("add", event="R6")


def test_bad_setup_and_commands_are_clear_errors(table: Table) -> None:
    with pytest.raises(RefereeError, match="unknown game 'chess'"):
        table.setup("chess", SEATS, {})
    with pytest.raises(RefereeError, match="unknown command 'dance'"):
        table.command("dance")
    with pytest.raises(RefereeError, match="unknown option"):
        table.setup("echo", SEATS, {"speed": 3})


def test_a_mock_pad_press_reaches_its_verdict_and_the_buzzer(
    table: Table, clock: FakeClock, factory: MockFactory
) -> None:
    with SlapPads({1: 17, 2: 27}, lambda seat, t: table.submit(PadPress(t, seat)),
                  clock=clock) as _pads:
        for i in range(3):
            table.submit(card(100.0 + i, 1, "X"))
        clock.now = 105.0
        factory.pin(17).drive_low()
        assert table.buzzer.names == ["round_over"]  # type: ignore[attr-defined]
        assert table.match is not None
        press = table.match.events[-1]
        assert isinstance(press, PadPress) and press.seat == 1


def test_seat_info_shows_plain_counts_per_seat() -> None:
    from referee.table import seat_info

    status = {"seats": {"1": {"row": {"1": "R5"}, "reserve": 3, "calling": False}},
              "hands": {"1": 4, "2": 0}, "piles": {"1": 5}, "up": {"1": "9", "2": None}}
    assert seat_info(status) == {"1": {"reserve": 3, "in hand": 4, "UP card": "9"},
                                 "2": {"in hand": 0}}


@pytest.mark.parametrize("played_on", [False, True])
def test_a_wackee_six_skip_of_one_buzzes_only_once_its_wait_is_over(
        tmp_path: Path, clock: FakeClock, played_on: bool) -> None:
    """The call on a card one past its pile's top waits gap_call_wait_s (1 s) for the table to
    play on from it (the camera may have missed the card between): no buzz when the card lands,
    the illegal buzz once the wait (and the settle time) has passed; none at all when the next
    card follows it meanwhile."""
    from referee.rules import Deal, RoundStart

    t = Table(store=MatchStore(tmp_path / "m.sqlite3"), buzzer=RecordingBuzzer(clock=clock),
              clock=clock)
    t.setup("wackee-six", SEATS, {})
    t.start()
    rows = {"row:1:1": ("R1",), "row:1:2": ("R3",), "row:2:1": ("R4",)}
    t.submit(Deal(100.0, rows, {"reserve:1": 6, "reserve:2": 6}))
    t.submit(RoundStart(100.5, 1))
    pile = Place("pile", None, 1)
    t.submit(CardPlaced(101.0, 1, "R1", pile, Place.parse("row:1:1")))
    clock.now = 102.0
    held = t.submit(CardPlaced(102.0, 1, "R3", pile, Place.parse("row:1:2")))
    assert [v.reason for v in held] == ["gap-held"] and t.buzzer.names == []  # type: ignore[attr-defined]
    if played_on:
        clock.now = 102.6
        got = t.submit(CardPlaced(102.6, 2, "R4", pile, Place.parse("row:2:1")))
        assert [(v.ruling, v.reason) for v in got] == [("legal", "played-on"), ("legal", None)]
    clock.now = 103.2  # the wait ends at 103.0, but the settle time (0.3 s) has not passed
    assert t.tick() == []
    clock.now = 103.4
    fired = t.tick()
    if played_on:
        assert fired == [] and t.buzzer.names == []  # type: ignore[attr-defined]
    else:
        assert [(v.ruling, v.reason) for v in fired] == [("illegal", "wrong-number")]
        assert t.buzzer.names == ["illegal"]  # type: ignore[attr-defined]
