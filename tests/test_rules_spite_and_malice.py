"""Spite and Malice: one test per rulings.md row, plus scoring and the example log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.rules import Match, MatchHeader, Seat
from referee.rules.events import (
    CardPlaced,
    CardRevealed,
    CardTakenBack,
    Deal,
    Event,
    ManualEntry,
    TurnEnd,
)
from referee.rules.log import read_log
from referee.rules.places import Place
from referee.rules.verdicts import Verdict

EXAMPLE = Path(__file__).resolve().parent.parent / "referee" / "examples" / "spite-and-malice.jsonl"


def match(seats: int = 2, **options: Any) -> Match:
    return Match(MatchHeader("spite-and-malice",
                             tuple(Seat(i, f"P{i}", "") for i in range(1, seats + 1)), options))


def deal(m: Match, ups: dict[int, str], stacks: dict[int, int] | None = None,
         dealer: int | None = None, t: float = 0.0) -> list[Verdict]:
    counts = {f"stack:{s}": n for s, n in (stacks or {}).items()}
    return m.apply(Deal(t, layout={f"up:{s}": (c,) for s, c in ups.items()}, counts=counts,
                        dealer=dealer))


class Table:
    """Events with increasing times, built tersely."""

    def __init__(self, m: Match) -> None:
        self.m = m
        self.t = 1.0

    def ev(self, e: Event) -> list[Verdict]:
        return self.m.apply(e)

    def _t(self) -> float:
        self.t += 1.0
        return self.t

    def card(self, seat: int, card: str, to: str, src: str | None = None) -> Verdict:
        source = Place.parse(src) if src else Place("hand", seat)
        return self.ev(CardPlaced(self._t(), seat=seat, card=card, to=Place.parse(to),
                                  source=source))[-1]

    def end(self, seat: int) -> Verdict:
        return self.ev(TurnEnd(self._t(), seat=seat))[-1]

    def back(self, seat: int, card: str, at: str) -> Verdict:
        return self.ev(CardTakenBack(self._t(), seat=seat, card=card, at=Place.parse(at)))[-1]

    def reveal(self, seat: int, card: str) -> Verdict:
        return self.ev(CardRevealed(self._t(), seat=seat, card=card, at=Place("up", seat)))[-1]


def started(ups: dict[int, str] | None = None, stacks: dict[int, int] | None = None,
            seats: int = 2, **options: Any) -> Table:
    m = match(seats, **options)
    deal(m, ups or {1: "9", 2: "5"}, stacks, dealer=seats)
    return Table(m)


def assert_illegal(v: Verdict, reason: str) -> None:
    assert (v.ruling, v.reason) == ("illegal", reason), v


# --- first player ---------------------------------------------------------------------------


def test_first_player_is_the_highest_up_card() -> None:
    m = match(3)
    v = deal(m, {1: "4", 2: "12", 3: "7"}, dealer=3)[0]
    assert v.ruling == "legal" and m.game.turn() == 2
    assert "P2 goes first" in v.text


def test_first_player_tie_goes_to_the_dealers_left() -> None:
    m = match(4)
    deal(m, {1: "10", 2: "3", 3: "10", 4: "10"}, dealer=3)  # left of seat 3: 4, 1, 2, 3
    assert m.game.turn() == 4
    m2 = match(4)
    deal(m2, {1: "10", 2: "3", 3: "10", 4: "10"}, dealer=4)
    assert m2.game.turn() == 1


# --- build piles ----------------------------------------------------------------------------


def test_a_build_pile_starts_only_with_a_1() -> None:
    tb = started()
    assert_illegal(tb.card(1, "2", "pile:1"), "pile-needs-1")
    assert tb.back(1, "2", "pile:1").ruling == "legal"
    assert tb.card(1, "1", "pile:1").ruling == "legal"


def test_build_piles_go_up_by_one_to_13() -> None:
    tb = started()
    tb.card(1, "1", "pile:1")
    assert tb.card(1, "2", "pile:1").ruling == "legal"
    assert_illegal(tb.card(1, "4", "pile:1"), "wrong-number")
    assert tb.card(1, "3", "pile:1").ruling == "legal"
    assert tb.m.game.status()["piles"]["1"]["next"] == 4


def test_the_table_played_on_from_a_card_ruled_off_for_a_skipped_number() -> None:
    """The camera missed the 3: the 4 is called, and when the 5 lands on it the call on the 4 is
    withdrawn, the 3 counted as not seen, and the 5 judged on the 4 (docs/games/
    spite-and-malice.md: "The table played on")."""
    tb = started()
    tb.card(1, "1", "pile:1")
    tb.card(1, "2", "pile:1")
    assert_illegal(tb.card(1, "4", "pile:1"), "wrong-number")
    out = tb.ev(CardPlaced(tb._t(), seat=1, card="5", to=Place.parse("pile:1"),
                           source=Place("hand", 1)))
    assert [(v.ruling, v.reason, v.card) for v in out] == [("legal", "played-on", "4"),
                                                           ("legal", None, "5")]
    assert "not seen" in out[0].text
    assert tb.m.game.status()["piles"]["1"] == {"count": 5, "top": "5", "next": 6}
    assert tb.m.game.pending_back == []  # nothing left to take back


def test_only_the_next_number_on_the_card_ruled_off_last_withdraws_its_call() -> None:
    tb = started()
    tb.card(1, "1", "pile:1")
    assert_illegal(tb.card(1, "4", "pile:1"), "wrong-number")
    assert_illegal(tb.card(1, "6", "pile:1"), "wrong-number")  # follows no card ruled off
    out = tb.ev(CardPlaced(tb._t(), seat=1, card="7", to=Place.parse("pile:1"),
                           source=Place("hand", 1)))
    assert [(v.ruling, v.reason, v.card) for v in out] == [("legal", "played-on", "6"),
                                                           ("legal", None, "7")]
    assert tb.m.game.status()["piles"]["1"]["next"] == 8
    assert_illegal(tb.card(1, "5", "pile:1"), "wrong-number")  # the 4's call stands


def test_a_card_ruled_off_and_taken_back_is_not_played_on() -> None:
    tb = started()
    tb.card(1, "1", "pile:1")
    assert_illegal(tb.card(1, "3", "pile:1"), "wrong-number")
    assert tb.back(1, "3", "pile:1").ruling == "legal"
    assert_illegal(tb.card(1, "4", "pile:1"), "wrong-number")


def test_the_table_played_on_from_a_card_that_started_a_pile_without_its_1() -> None:
    tb = started()
    assert_illegal(tb.card(1, "2", "pile:2"), "pile-needs-1")
    out = tb.ev(CardPlaced(tb._t(), seat=1, card="3", to=Place.parse("pile:2"),
                           source=Place("hand", 1)))
    assert [(v.ruling, v.reason) for v in out] == [("legal", "played-on"), ("legal", None)]
    assert tb.m.game.status()["piles"]["2"]["next"] == 4


# --- 13 caps --------------------------------------------------------------------------------


def test_a_13_caps_the_pile_and_the_given_card_goes_under_a_stack() -> None:
    tb = started(stacks={1: 7, 2: 7})
    for v in range(1, 13):
        assert tb.card(1, str(v), "pile:2").ruling == "legal"
    capped = tb.card(1, "KS", "pile:2")
    assert capped.ruling == "legal" and "caps pile 2" in capped.text
    st = tb.m.game.status()
    assert "2" not in st["piles"] and st["capped"] == [2] and st["gives_owed"] == {"1": 1}
    assert tb.back(1, "KS", "pile:2").ruling == "legal"  # the camera sees the pile cleared
    give = tb.ev(ManualEntry(tb._t(), action="give_card", seat=1, value=2))[-1]
    assert give.ruling == "legal"
    assert tb.m.game.status()["stack"]["2"] == 8
    again = tb.ev(ManualEntry(tb._t(), action="give_card", seat=1, value=2))[-1]
    assert again.ruling == "ignored"  # nothing more is owed
    assert tb.card(1, "1", "pile:2").ruling == "legal"  # the spot starts a new pile


# --- WILD -----------------------------------------------------------------------------------


def test_wild_may_not_be_1_2_7_or_13() -> None:
    tb = started()
    assert_illegal(tb.card(1, "WILD", "pile:1"), "wild-value")  # would start a pile
    tb.card(1, "1", "pile:1")
    assert_illegal(tb.card(1, "JK", "pile:1"), "wild-value")  # would be a 2
    for v in range(2, 7):
        tb.card(1, str(v), "pile:1")
    assert_illegal(tb.card(1, "WILDB", "pile:1"), "wild-value")  # would be a 7
    tb.card(1, "7", "pile:1")
    assert tb.card(1, "WILD", "pile:1").ruling == "legal"  # an 8


def test_wild_not_on_another_wild() -> None:
    tb = started()
    for v in ("1", "2"):
        tb.card(1, v, "pile:1")
    assert tb.card(1, "WILD", "pile:1").ruling == "legal"
    assert_illegal(tb.card(1, "WILD", "pile:1"), "wild-on-wild")
    assert tb.card(1, "4", "pile:1").ruling == "legal"


def test_wild_not_left_on_top_at_the_end_of_a_turn() -> None:
    tb = started()
    for v in ("1", "2", "WILD"):
        tb.card(1, v, "pile:1")
    v = tb.end(1)
    assert_illegal(v, "wild-on-top")
    assert tb.m.game.turn() == 1
    assert tb.back(1, "WILD", "pile:1").ruling == "legal"
    assert tb.end(1).ruling == "legal" and tb.m.game.turn() == 2


def test_wild_is_never_stored() -> None:
    tb = started()
    assert_illegal(tb.card(1, "WILD", "store:1:1"), "store-wild")


# --- a 1 cannot be kept ---------------------------------------------------------------------


def test_an_up_card_1_must_be_played_this_turn() -> None:
    tb = started({1: "1", 2: "9"})  # seat 2 starts; seat 1 has a 1 up
    assert tb.end(2).ruling == "legal"
    assert_illegal(tb.end(1), "keep-1")
    assert tb.card(1, "1", "pile:1", "up:1").ruling == "legal"
    assert tb.reveal(1, "6").ruling == "legal"
    assert tb.end(1).ruling == "legal"


# --- store piles ----------------------------------------------------------------------------


def test_store_one_card_per_turn_on_at_most_4_piles_no_2s_no_wilds() -> None:
    tb = started()
    assert_illegal(tb.card(1, "2", "store:1:1"), "store-2")
    assert_illegal(tb.card(1, "9", "store:1:5"), "fifth-store")
    assert tb.card(1, "9", "store:1:1").ruling == "legal"
    assert_illegal(tb.card(1, "8", "store:1:2"), "one-store")
    assert tb.back(1, "8", "store:1:2").ruling == "legal"
    assert tb.m.game.status()["stores"]["1"] == [[9], [], [], []]


def test_only_the_top_card_of_a_store_pile_is_playable() -> None:
    tb = started()
    tb.card(1, "2", "store:1:1")  # illegal, taken back
    tb.back(1, "2", "store:1:1")
    tb.card(1, "3", "store:1:1")
    tb.end(1)
    tb.end(2)
    tb.card(1, "9", "store:1:1")  # seat 1's store pile 1: 3 then 9
    tb.end(1)
    tb.end(2)
    tb.card(1, "1", "pile:1")
    tb.card(1, "2", "pile:1")
    assert_illegal(tb.card(1, "3", "pile:1", "store:1:1"), "store-under-top")
    assert tb.card(1, "3", "pile:1").ruling == "legal"  # the same value from the hand is fine


# --- playing out of turn and SPITE ----------------------------------------------------------


def test_a_card_out_of_turn_is_illegal() -> None:
    tb = started()
    assert_illegal(tb.card(2, "1", "pile:1"), "not-your-turn")
    assert_illegal(tb.end(2), "not-your-turn")


def test_a_spite_card_out_of_turn_right_after_a_build_pile_play_is_legal() -> None:
    tb = started()
    assert_illegal(tb.card(2, "WILD", "discard"), "spite-timing")  # nothing was played yet
    tb.back(2, "WILD", "discard")
    tb.card(1, "1", "pile:1")
    v = tb.card(2, "WILD", "discard")
    assert v.ruling == "legal" and "SPITE" in v.text
    assert_illegal(tb.card(2, "5", "discard"), "not-your-turn")


def test_a_spite_card_stamped_just_before_the_play_it_answers_counts_within_grace() -> None:
    tb = started()
    tb.card(1, "1", "pile:1")
    play_t = tb.t
    v = tb.ev(CardPlaced(play_t - 0.1, seat=2, card="WILDB", to=Place("discard")))[-1]
    assert v.ruling == "legal"


def test_the_referee_records_spite_cards() -> None:
    tb = started()
    tb.card(1, "1", "pile:1")
    tb.card(2, "WILD", "discard")
    assert tb.m.game.status()["spites"][0]["seat"] == 2


# --- winning and scoring --------------------------------------------------------------------


def test_the_last_card_of_the_stack_played_to_a_build_pile_wins() -> None:
    tb = started({1: "1", 2: "9"}, stacks={1: 1, 2: 7}, games_to_win=2)
    tb.end(2)
    assert "turn over your next UP card" in tb.card(1, "1", "pile:1", "up:1").text
    tb.reveal(1, "2")
    v = tb.card(1, "2", "pile:1", "up:1")
    assert v.ruling == "legal" and "wins game 1" in v.text
    s = tb.m.standings()
    assert s["rounds"] == [{1: 1, 2: 0}] and s["totals"] == {1: 1, 2: 0} and not s["over"]
    assert tb.m.game.turn() is None
    assert tb.card(2, "1", "pile:2").ruling == "ignored"  # no game until the next deal


def test_the_match_goes_to_the_first_to_win_games_to_win_games() -> None:
    m = match(2, games_to_win=2)
    for g, winner in enumerate((2, 2)):
        tb = Table(m)
        tb.t = 100.0 * (g + 1)
        ups = {1: "WILD", 2: "1"}  # a WILD UP card counts as nothing when choosing
        deal(m, ups, {1: 5, 2: 0}, dealer=1, t=tb.t)
        assert m.game.turn() == 2
        tb.card(winner, "1", "pile:1", f"up:{winner}")
    s = m.standings()
    assert s["totals"] == {1: 0, 2: 2} and s["over"] and s["winner"] == 2


# --- robustness -----------------------------------------------------------------------------


def test_unknown_cards_and_events_before_a_deal_do_not_crash() -> None:
    m = match()
    tb = Table(m)
    assert tb.card(1, "1", "pile:1").ruling == "ignored"
    deal(m, {1: "9", 2: "5"})
    assert_illegal(tb.card(1, "R7", "pile:1"), "unknown-card")
    assert tb.back(1, "R7", "pile:1").ruling == "legal"
    assert tb.card(9, "1", "pile:1").ruling == "ignored"


def test_standard_deck_codes_play_the_same() -> None:
    tb = started()
    for code in ("AS", "2H", "3D", "4C"):
        assert tb.card(1, code, "pile:1").ruling == "legal"


def test_the_example_log_replays() -> None:
    header, events = read_log(EXAMPLE)
    m = Match(header)
    for e in events:
        m.apply(e)
    assert m.standings()["over"] and m.standings()["winner"] == 1
    assert {v.ruling for v in m.verdicts} >= {"legal", "illegal"}
