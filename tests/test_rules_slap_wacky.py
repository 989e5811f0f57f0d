"""Slap Wacky: one test per ruling in /work/shared/rulings.md, plus scoring by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.rules import Match, MatchHeader, Seat, event_from_dict
from referee.rules.log import read_log
from referee.rules.verdicts import Verdict

EXAMPLE = Path(__file__).resolve().parent.parent / "referee" / "examples" / "slap-wacky.jsonl"


def match(seats: int = 3, **options: Any) -> Match:
    m = Match(MatchHeader("slap-wacky", tuple(Seat(i, f"P{i}", "") for i in range(1, seats + 1)),
                          options))
    ev(m, 0, "deal", counts={"hand:1": 5, "hand:2": 5, "hand:3": 5, "draw": 69})
    ev(m, 1, "round_start")
    return m


def ev(m: Match, t: float, kind: str, **kw: Any) -> list[Verdict]:
    return m.apply(event_from_dict({"t": t, "kind": kind, **kw}))


def card(m: Match, t: float, seat: int, code: str, place: str) -> list[Verdict]:
    return ev(m, t, "card", seat=seat, card=code, to=place)


def ruling(vs: list[Verdict]) -> tuple[str, str | None]:
    """The ruling and reason of the verdict about the event itself (not info notes)."""
    main = [v for v in vs if v.ruling != "info"] or vs
    return main[0].ruling, main[0].reason


def build(m: Match, seat_last: int = 2, t: float = 2.0, g: int = 1) -> None:
    """Pattern 1 in group g: positions 1-3 by seat 1, the fourth card by seat_last."""
    card(m, t, 1, "P1-1W", f"pattern:{g}:1")
    card(m, t + 1, 1, "P1-2F", f"pattern:{g}:2")
    card(m, t + 2, 1, "P1-3W", f"pattern:{g}:3")
    card(m, t + 3, seat_last, "P1-4F", f"pattern:{g}:4")


def test_only_one_of_each_pattern_in_play() -> None:
    m = match()
    assert ruling(card(m, 2, 1, "P1-1W", "pattern:1:1")) == ("legal", None)
    assert ruling(card(m, 3, 2, "P1-2W", "pattern:2:2")) == ("illegal", "pattern-in-play")
    assert ruling(card(m, 4, 2, "P2-2W", "pattern:2:2")) == ("legal", None)


def test_a_card_goes_in_its_patterns_position() -> None:
    m = match()
    card(m, 2, 1, "P1-1W", "pattern:1:1")
    assert ruling(card(m, 3, 2, "P1-3W", "pattern:1:2")) == ("illegal", "wrong-position")
    assert ruling(card(m, 4, 2, "P2-2W", "pattern:1:2")) == ("illegal", "wrong-pattern")
    assert ruling(card(m, 5, 2, "P3-1F", "pattern:4:2")) == ("illegal", "wrong-position")
    assert ruling(card(m, 6, 3, "P1-1F", "pattern:1:1")) == ("illegal", "position-taken")


def test_a_block_goes_on_a_card_never_on_an_empty_space() -> None:
    m = match()
    card(m, 2, 1, "P1-1W", "pattern:1:1")
    assert ruling(card(m, 3, 2, "BLOCK", "pattern:1:2")) == ("illegal", "block-on-empty")
    assert ruling(card(m, 3.5, 2, "BLOCK", "pattern:7:1")) == ("illegal", "block-on-empty")
    assert ruling(card(m, 4, 2, "BLOCK", "pattern:1:1")) == ("legal", None)


def test_only_one_block_visible_per_pattern() -> None:
    m = match()
    card(m, 2, 1, "P1-1W", "pattern:1:1")
    card(m, 3, 1, "P1-2W", "pattern:1:2")
    card(m, 4, 2, "BLOCK", "pattern:1:1")
    assert ruling(card(m, 5, 3, "BLOCK", "pattern:1:2")) == ("illegal", "second-block")
    assert ruling(card(m, 6, 3, "BLOCK", "pattern:1:1")) == ("illegal", "block-on-block")


def test_a_wild_goes_in_an_empty_position_or_on_a_block_one_visible() -> None:
    m = match()
    card(m, 2, 1, "P1-1W", "pattern:1:1")
    assert ruling(card(m, 3, 2, "WILD", "pattern:1:2")) == ("legal", None)
    assert ruling(card(m, 4, 3, "WILD", "pattern:1:3")) == ("illegal", "second-wild")
    assert ruling(card(m, 5, 3, "WILD", "pattern:1:1")) == ("illegal", "position-taken")
    assert ruling(card(m, 6, 3, "WILD", "pattern:5:1")) == ("illegal", "start-with-shape")


def test_unblock_with_a_wild_or_the_right_card_by_any_seat() -> None:
    m = match()
    card(m, 2, 1, "P1-1W", "pattern:1:1")
    card(m, 3, 1, "P1-2W", "pattern:1:2")
    card(m, 4, 2, "BLOCK", "pattern:1:1")
    assert ruling(card(m, 5, 3, "P1-1F", "pattern:1:1")) == ("legal", None)  # right shape card
    card(m, 6, 2, "BLOCK", "pattern:1:2")
    assert ruling(card(m, 7, 1, "WILD", "pattern:1:2")) == ("legal", None)
    assert m.game.status()["groups"][0]["positions"][:2] == ["P1-1F", "WILD"]


def test_the_seat_that_placed_the_fourth_unblocked_card_owns_the_slap() -> None:
    m = match()
    build(m, seat_last=2)
    assert ruling(ev(m, 5.3, "press", seat=2)) == ("legal", "slap")
    assert m.game.won[2] == 1 + 2 + 1 + 2


def test_a_press_by_another_seat_is_illegal() -> None:
    m = match()
    build(m, seat_last=2)
    assert [v.reason for v in ev(m, 5.2, "press", seat=1)] == ["slap-pending"]
    out = ev(m, 6.0, "clock")
    assert [(v.ruling, v.reason, v.event) for v in out] == [("illegal", "slap-not-yours", 6)]
    assert ruling(ev(m, 6.1, "press", seat=2)) == ("legal", "slap")


def test_a_press_on_an_incomplete_or_blocked_pattern_is_illegal() -> None:
    m = match()
    card(m, 2, 1, "P1-1W", "pattern:1:1")
    ev(m, 2.5, "press", seat=1)
    assert ruling(ev(m, 3.0, "clock")) == ("illegal", "slap-incomplete")
    build(m, seat_last=2, t=4.0, g=1)  # position 1 is taken: the rest completes it
    card(m, 8.0, 3, "BLOCK", "pattern:1:4")
    ev(m, 9.0, "press", seat=2)
    assert ruling(ev(m, 10.0, "clock")) == ("illegal", "slap-blocked")


def test_a_wrong_slap_penalty_is_a_match_option() -> None:
    m = match(false_slap_penalty=3)
    ev(m, 2.0, "press", seat=3)
    (v,) = ev(m, 3.0, "clock")
    assert (v.ruling, v.points, v.consequence) == ("illegal", -3, "penalty")
    ev(m, 4.0, "manual", action="confirm")
    assert m.standings()["rounds"][0][3] == -3


def test_a_press_before_the_camera_sees_the_fourth_card_counts() -> None:
    m = match()
    card(m, 2, 1, "P1-1W", "pattern:1:1")
    card(m, 3, 1, "P1-2F", "pattern:1:2")
    card(m, 4, 1, "P1-3W", "pattern:1:3")
    assert [v.reason for v in ev(m, 5.3, "press", seat=2)] == ["slap-pending"]
    out = card(m, 5.0, 2, "P1-4W", "pattern:1:4")  # captured before the press, arrives after
    slap = [v for v in out if v.reason == "slap"]
    assert slap and slap[0].event == 5 and slap[0].ruling == "legal"


def test_a_block_after_the_press_minus_grace_is_late() -> None:
    m = match()
    build(m, seat_last=2)
    ev(m, 5.5, "press", seat=2)
    assert ruling(card(m, 5.4, 3, "BLOCK", "pattern:1:1")) == ("late", "late")
    assert ruling(ev(m, 6.0, "take_back", seat=3, card="BLOCK", at="pattern:1:1")) == ("legal",
                                                                                         None)
    assert m.game.won[2] == 6


def test_a_block_before_the_press_that_arrives_after_it_overturns_the_slap() -> None:
    m = match()
    build(m, seat_last=2)
    assert ruling(ev(m, 5.6, "press", seat=2)) == ("legal", "slap")
    assert m.game.won[2] == 6
    out = card(m, 5.3, 3, "BLOCK", "pattern:1:1")  # 5.3 <= 5.6 - 0.15: it counts
    assert [(v.ruling, v.reason) for v in out] == [("legal", None), ("info", "slap-overturned")]
    assert m.game.won[2] == 0
    assert m.game.status()["groups"][0]["complete"] is False


def test_a_block_arriving_before_an_earlier_press_is_late() -> None:
    m = match()
    build(m, seat_last=2)
    card(m, 5.5, 3, "BLOCK", "pattern:1:1")  # seen first, but after the press minus grace
    out = ev(m, 5.6, "press", seat=2)
    assert [(v.ruling, v.seat) for v in out] == [("legal", 2), ("late", 3)]
    assert m.game.won[2] == 6


def test_scoring_wacky_1_face_2_block_minus_2_wild_0() -> None:
    m = match()
    card(m, 2, 1, "P1-1W", "pattern:1:1")  # +1
    card(m, 3, 1, "P1-2F", "pattern:1:2")  # +2
    card(m, 4, 2, "BLOCK", "pattern:1:2")  # -2
    card(m, 5, 3, "WILD", "pattern:1:2")  # 0 (unblocks)
    card(m, 6, 1, "P1-3F", "pattern:1:3")  # +2
    card(m, 7, 1, "P1-4W", "pattern:1:4")  # +1
    ev(m, 7.5, "press", seat=1)
    ev(m, 9, "manual", action="confirm")
    assert m.standings()["rounds"] == [{1: 4, 2: 0, 3: 0}]


def test_game_end_is_confirmed_on_the_dashboard_best_of_three() -> None:
    m = match(rounds=3)
    for r in range(2):
        base = 100.0 * r + 2
        if r:
            ev(m, base - 1, "deal", counts={"draw": 69})
            ev(m, base - 0.5, "round_start")
        build(m, seat_last=3, t=base)
        ev(m, base + 3.5, "press", seat=3)
        ev(m, base + 10, "manual", action="confirm")
    st = m.standings()
    assert st["wins"] == {1: 0, 2: 0, 3: 2} and st["winner"] == 3 and st["over"] is True
    assert st["totals"][3] == 12


def test_unknown_cards_and_strange_seats_never_crash() -> None:
    m = match()
    assert ruling(card(m, 2, 1, "ZZ", "pattern:1:1")) == ("illegal", "unknown-card")
    assert ruling(card(m, 3, 9, "P1-1W", "pattern:1:1"))[0] == "ignored"
    assert ruling(ev(m, 4, "press", seat=9))[0] == "ignored"
    assert ruling(card(m, 5, 1, "AS", "pattern:1:1")) == ("legal", None)  # standard deck


def test_the_example_match_replays() -> None:
    header, events = read_log(EXAMPLE)
    m = Match(header)
    for e in events:
        m.apply(e)
    st = m.standings()
    assert st["over"] is True and st["winner"] == 1
    assert {v.ruling for v in m.verdicts} >= {"legal", "illegal", "late"}
