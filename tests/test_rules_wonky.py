"""Wonky: one test per rulings.md row, plus scoring, card codes and the example log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.rules import Match, MatchHeader, Seat
from referee.rules.events import (
    BlockAdded,
    CardPlaced,
    CardTakenBack,
    Clock,
    Deal,
    ManualEntry,
    RoundStart,
    Tilt,
    TowerFell,
)
from referee.rules.log import read_log
from referee.rules.places import Place
from referee.rules.verdicts import Verdict

EXAMPLE = Path(__file__).resolve().parent.parent / "referee" / "examples" / "wonky.jsonl"
D = Place("discard")


class Table:
    def __init__(self, seats: int = 3, hands: int = 7, **options: Any) -> None:
        self.m = Match(MatchHeader("wonky", tuple(Seat(i, f"P{i}", "") for i in
                                                  range(1, seats + 1)), options))
        self.t = 0.0
        self.m.apply(Deal(0.0, counts={f"hand:{s}": hands for s in range(1, seats + 1)}))

    def _t(self, dt: float = 1.0) -> float:
        self.t = round(self.t + dt, 3)
        return self.t

    def card(self, seat: int, card: str) -> list[Verdict]:
        return self.m.apply(CardPlaced(self._t(), seat=seat, card=card, to=D))

    def block(self, seat: int, colour: str, size: str) -> list[Verdict]:
        return self.m.apply(BlockAdded(self._t(), seat=seat, colour=colour, size=size))

    def count(self) -> list[Verdict]:
        """The table clock runs past the count of three."""
        return self.m.apply(Clock(self._t(3.5)))

    def turn(self, seat: int, card: str, colour: str, size: str) -> list[Verdict]:
        return self.card(seat, card) + self.block(seat, colour, size) + self.count()

    @property
    def g(self) -> Any:
        return self.m.game


def last(vs: list[Verdict]) -> Verdict:
    return vs[-1]


# --- a block card requires a matching free block --------------------------------------------


def test_a_block_must_match_the_card_played() -> None:
    tb = Table()
    assert last(tb.card(1, "RS")).ruling == "legal"
    v = last(tb.block(1, "blue", "small"))
    assert (v.ruling, v.reason) == ("illegal", "block-mismatch")
    assert last(tb.block(1, "red", "small")).ruling == "legal"


def test_colour_only_size_only_and_any_cards() -> None:
    tb = Table()
    tb.turn(1, "RX", "red", "large")
    tb.turn(2, "XM", "green", "medium")
    tb.turn(3, "ANY", "blue", "S")
    assert [(b["colour"], b["size"]) for b in tb.g.status()["tower"]] == [
        ("red", "large"), ("green", "medium"), ("blue", "small")]


def test_a_card_with_no_free_matching_block_is_illegal() -> None:
    tb = Table()
    tb.turn(1, "RS", "red", "small")
    v = last(tb.card(2, "RS"))
    assert (v.ruling, v.reason) == ("illegal", "no-free-block")
    assert last(tb.m.apply(CardTakenBack(tb._t(), seat=2, card="RS", at=D))).ruling == "legal"
    assert tb.g.hands[2] == 7  # an illegal card does not leave the hand
    assert last(tb.card(2, "RX")).ruling == "legal"  # another red is free


def test_a_block_already_in_the_tower_is_illegal() -> None:
    tb = Table()
    tb.turn(1, "RS", "red", "small")
    tb.card(2, "XS")
    v = last(tb.block(2, "red", "small"))
    assert (v.ruling, v.reason) == ("illegal", "block-in-tower")


# --- count to three -------------------------------------------------------------------------


def test_the_buzzer_counts_1_2_3_from_the_moment_the_block_is_still() -> None:
    tb = Table()
    tb.card(1, "GM")
    tb.block(1, "green", "medium")
    block_t = tb.t
    vs = tb.m.apply(Clock(block_t + 3.0))
    assert [(v.ruling, v.text.split(": ", 1)[1]) for v in vs[:4]] == [
        ("info", "1"), ("info", "2"), ("info", "3"), ("legal", "tower stands (1 blocks)")]
    assert [v.t for v in vs[:3]] == [block_t + 1, block_t + 2, block_t + 3]
    assert tb.g.turn() == 2


def test_a_card_before_the_count_ends_is_illegal() -> None:
    tb = Table()
    tb.card(1, "GM")
    tb.block(1, "green", "medium")
    v = last(tb.card(2, "RS"))  # 1 s later: the count is still running
    assert (v.ruling, v.reason) == ("illegal", "not-your-turn")


# --- a fall ---------------------------------------------------------------------------------


def test_a_fall_draws_3_and_the_player_starts_a_new_tower() -> None:
    tb = Table()
    tb.turn(1, "RS", "red", "small")
    tb.card(2, "GL")
    tb.block(2, "green", "large")
    v = last(tb.m.apply(Tilt(tb._t(0.5), magnitude=2.0)))
    assert (v.ruling, v.reason, v.seat) == ("info", "fall", 2)
    assert tb.g.hands[2] == 7 - 1 + 3 and tb.g.status()["tower"] == []
    assert last(tb.m.apply(TowerFell(tb._t(0.2), blocks_left=0))).ruling == "ignored"  # same fall
    assert tb.g.turn() == 2
    v = last(tb.card(2, "PASS"))
    assert (v.ruling, v.reason) == ("illegal", "start-tower")
    tb.m.apply(CardTakenBack(tb._t(), seat=2, card="PASS", at=D))
    tb.turn(2, "RS", "red", "small")  # the red small block is free again
    assert tb.g.turn() == 3 and len(tb.g.status()["tower"]) == 1


def test_a_block_seen_before_the_tilt_fell_with_the_tower() -> None:
    tb = Table()
    tb.turn(1, "RS", "red", "small")
    tb.card(2, "GL")
    t_block = tb._t()
    tb.m.apply(Tilt(t_block + 0.05))  # the sensor reports first
    v = last(tb.m.apply(BlockAdded(t_block, seat=2, colour="green", size="large")))
    assert v.ruling == "ignored" and tb.g.status()["tower"] == []


# --- pass, reverse, draw --------------------------------------------------------------------


def test_pass_reverse_and_combos_keep_turn_order_and_direction() -> None:
    tb = Table(seats=4)
    tb.card(1, "PASS")
    assert tb.g.turn() == 2
    tb.card(2, "REVERSE")
    assert tb.g.turn() == 1 and tb.g.status()["direction"] == "counterclockwise"
    tb.turn(1, "XX+REVERSE", "blue", "large")
    assert tb.g.turn() == 2 and tb.g.status()["direction"] == "clockwise"
    tb.turn(2, "XX+DRAW", "blue", "medium")
    assert tb.g.turn() == 3 and tb.g.hands[3] == 8
    tb.m.apply(ManualEntry(tb._t(), action="draw", seat=3, value=2))
    assert tb.g.hands[3] == 10


def test_the_tallest_player_named_at_the_start_goes_first() -> None:
    tb = Table()
    tb.m.apply(RoundStart(tb._t(), seat=3))
    assert tb.g.turn() == 3


# --- the last card ----------------------------------------------------------------------------


def test_the_last_card_cannot_be_an_action_card() -> None:
    tb = Table(hands=1)
    v = last(tb.card(1, "REVERSE"))
    assert (v.ruling, v.reason) == ("illegal", "last-card-action")


def test_the_last_card_standing_wins_the_game() -> None:
    tb = Table(hands=1, games_to_win=2)
    vs = tb.turn(1, "BL", "blue", "large")
    assert any(v.reason == "win" and v.seat == 1 for v in vs)
    s = tb.m.standings()
    assert s["rounds"] == [{1: 1, 2: 0, 3: 0}] and not s["over"]


# --- the ninth block ------------------------------------------------------------------------


def test_the_ninth_block_standing_through_the_count_wins_at_once() -> None:
    tb = Table(games_to_win=1)
    blocks = [(c, s) for c in ("red", "green", "blue") for s in ("small", "medium", "large")]
    seat = 1
    for i, (c, s) in enumerate(blocks):
        vs = tb.turn(seat, "XX", c, s)
        if i < 8:
            assert not any(v.reason == "win" for v in vs)
        seat = seat % 3 + 1
    assert any(v.reason == "win" and v.seat == 3 for v in vs)
    st = tb.m.standings()
    assert st["totals"] == {1: 0, 2: 0, 3: 1} and st["over"] and st["winner"] == 3


# --- codes, robustness, example ---------------------------------------------------------------


def test_unknown_cards_and_wrong_seats_are_judged_not_crashed() -> None:
    tb = Table()
    assert last(tb.card(1, "7S")).reason == "unknown-card"
    assert last(tb.card(2, "RS")).reason == "not-your-turn"
    assert last(tb.card(9, "RS")).ruling == "ignored"
    assert last(tb.block(1, "purple", "huge")).ruling == "ignored"


def test_colours_are_an_option() -> None:
    tb = Table(colours="orange,purple,green")
    tb.card(1, "OS")
    assert last(tb.block(1, "orange", "small")).ruling == "legal"


def test_the_example_log_replays() -> None:
    header, events = read_log(EXAMPLE)
    m = Match(header)
    for e in events:
        m.apply(e)
    s = m.standings()
    assert s["over"] and s["winner"] == 2
    assert {v.ruling for v in m.verdicts} >= {"legal", "illegal", "info"}

