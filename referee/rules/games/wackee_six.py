"""Wackee Six: everyone plays at once onto shared colour piles built 1 to 13.

The referee follows each seat's row (6 face-up main cards), reserve (6 face-down main cards) and
the cards its waste has shown, and every centre pile. Rulings (docs/games/wackee-six.md):
a pile starts only with a 1 and builds up by one in its colour to 13; a WILD stands for the next
number and must be covered by its owner's next number within the wild window; only a card once
shown on top of the seat's waste may leave the stock ("dig" otherwise); two seats' cards on one
pile within the grace window are a tie (the later one goes back; the same frame: both); a
"Wackee Six!" pad press is valid only with row and reserve empty; cards landing later than the
call plus grace are late. A round scores +1 per card played to the centre, -2 per main card left
and +10 for going out; the match goes to a target score, highest total wins.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from referee.rules.errors import RefereeError
from referee.rules.events import (
    CardPlaced,
    CardRevealed,
    CardTakenBack,
    Deal,
    Event,
    ManualEntry,
    PadPress,
    RoundStart,
    RoundStop,
)
from referee.rules.game import Game
from referee.rules.options import Option
from referee.rules.places import Place
from referee.rules.verdicts import ILLEGAL, LEGAL, PENALTY, TAKE_BACK, Verdict

COLOUR_NAMES = {"R": "red", "B": "blue", "G": "green", "Y": "yellow"}
MAIN_ROW = 6  # face-up row slots dealt
MAIN_RESERVE = 6  # face-down reserve cards dealt
DECK_SIZE = 54  # 52 numbered cards and 2 WILDs
WILD = 0  # the number a WILD card carries before it is played


def _card_table() -> dict[str, tuple[str, int]]:
    """Every accepted code -> (colour letter, number); a WILD is ("", 0). Built once."""
    cards: dict[str, tuple[str, int]] = {}
    for colour in COLOUR_NAMES:
        for n in range(1, 14):
            cards[f"{colour}{n}"] = (colour, n)
    cards["WILD"] = ("", WILD)
    # A standard deck plays the same game: H=red, D=yellow, C=green, S=blue, jokers are WILD.
    suits = {"H": "R", "D": "Y", "C": "G", "S": "B"}
    ranks = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}}
    for rank, n in ranks.items():
        for suit, colour in suits.items():
            cards[f"{rank}{suit}"] = (colour, n)
    cards["JK"] = ("", WILD)
    return cards


CARDS: dict[str, tuple[str, int]] = _card_table()
# Faults of a card ruled off a pile that the table may play on from: the pile then goes on from
# it (docs/games/wackee-six.md: "The table played on").
_PLAYED_ON_FAULTS = frozenset({"pile-needs-1", "wrong-number"})

# Codes printed on more than one card of a deck: their origin cannot be told by the code.
AMBIGUOUS = frozenset({"WILD", "JK"})


def parse_card(code: str) -> tuple[str, int] | None:
    """(colour letter, number) of a card code, WILD = ("", 0); None for an unknown code.

    >>> parse_card("B13"), parse_card("QH"), parse_card("JK"), parse_card("P3-2W")
    (('B', 13), ('R', 12), ('', 0), None)
    """
    found = CARDS.get(code)
    if found is None and isinstance(code, str):
        found = CARDS.get(code.upper())
    return found


_NAMES: dict[str, str] = {}


def card_name(code: str) -> str:
    """Plain words for a card: 'red 5', 'WILD'; an unknown code is quoted."""
    name = _NAMES.get(code)
    if name is None:
        parsed = parse_card(code)
        if parsed is None:
            name = f"card {code!r}"
        elif parsed[1] == WILD:
            name = "WILD"
        else:
            name = f"{COLOUR_NAMES[parsed[0]]} {parsed[1]}"
        if len(_NAMES) < 10_000:
            _NAMES[code] = name
    return name


class _Played:
    """One card that reached the centre (or a row slot), with where it came from."""

    __slots__ = (
        "card",
        "seat",
        "t",
        "value",
        "wild",
        "source",
        "main",
        "revealed",
        "pile",
        "place",
        "fault",
        "held",
    )

    def __init__(
        self,
        card: str,
        seat: int,
        t: float,
        value: int,
        source: Place | None,
        main: bool,
        revealed: bool,
        pile: int | None,
        place: str,
    ) -> None:
        self.card = card
        self.seat = seat
        self.t = t
        self.value = value  # the number it stands for on the pile (a WILD: the one it replaces)
        self.wild = False
        self.source = source
        self.main = main  # it left the row or reserve (a main card)
        self.revealed = revealed  # it left the waste after being shown on top there
        self.pile = pile
        self.place = place
        self.fault: str | None = None  # why it may not follow the pile's top (ruled off it)
        # while its call waits (gap_call_wait_s): the call's text and the index of its event
        self.held: tuple[str, int | None] | None = None


class _Pile:
    __slots__ = ("colour", "cards", "tie_t")

    def __init__(self, colour: str) -> None:
        self.colour = colour
        self.cards: list[_Played] = []
        self.tie_t: float | None = None  # time of the last same-frame tie on this pile


class _SeatState:
    __slots__ = (
        "row",
        "reserve",
        "stock",
        "revealed",
        "played",
        "owed_main",
        "empty_t",
        "penalty",
        "waste_top",
    )

    def __init__(self) -> None:
        self.row: dict[int, str] = {}  # slot -> card code (filled slots only)
        self.reserve = MAIN_RESERVE
        self.stock = DECK_SIZE - MAIN_ROW - MAIN_RESERVE
        self.revealed: dict[str, int] = {}  # codes shown on top of the waste, not yet played
        self.played = 0  # cards of this seat lying legally in the centre
        self.owed_main = 0  # main cards judged illegal and not yet taken back
        self.empty_t: float | None = None  # when row, reserve and owed main cards reached 0
        self.penalty = 0  # points taken off this round (false calls)
        self.waste_top: str | None = None

    def main_left(self) -> int:
        return len(self.row) + self.reserve + self.owed_main


# Round phases
IDLE = "waiting for the deal"
DEALT = "dealt"
PLAYING = "playing"
ENDING = "called"  # a call was accepted; the round is scored at call + grace
SCORED = "scored"

_PILE_PLACES: dict[int, str] = {}


def _gap_key(entry: _Played) -> str:
    """The deadline of the call that waits on a card one past its pile's top."""
    return f"gap:{entry.pile}:{entry.t}:{entry.seat}:{entry.card}"


def _pile_place(index: int) -> str:
    text = _PILE_PLACES.get(index)
    if text is None:
        text = f"pile:{index}"
        if len(_PILE_PLACES) < 10_000:
            _PILE_PLACES[index] = text
    return text


class WackeeSix(Game):
    """Wackee Six: piles 1-13 by colour, WILDs with their owner's follow-up, race to go out."""

    name: ClassVar[str] = "wackee-six"
    title: ClassVar[str] = "Wackee Six"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 6
    turn_based: ClassVar[bool] = False
    game_options: ClassVar[dict[str, Option]] = {
        "wild_window_s": Option(
            3.0, "seconds a WILD may wait for its owner's next number before it is illegal", 0.1, 60
        ),
        "target_score": Option(
            300, "the match ends after the round where a total reaches this", 1, 100_000
        ),
        "false_call_penalty": Option(
            0, "points taken off for a false 'Wackee Six!' call (rulings: default 0)", 0, 1000
        ),
        "gap_call_wait_s": Option(
            1.0,
            "seconds the call on a card one number past its pile's top (or a 2 starting a pile) "
            "waits: the camera can miss the card between, covered at once by this one, and the "
            "table playing on from it shows that",
            0,
            10,
        ),
    }
    manual_actions: ClassVar[dict[str, str]] = {
        "call": "a 'Wackee Six!' call for the entry's seat, when its pad was not pressed",
        "reserve_count": "value: the number of face-down cards left in the seat's reserve",
    }

    def __init__(self, seats: Any, options: dict[str, Any] | None = None) -> None:
        super().__init__(seats, options)
        self.window = float(self.opts["wild_window_s"])
        self.target = int(self.opts["target_score"])
        self.false_call_points = int(self.opts["false_call_penalty"])
        self.gap_wait = float(self.opts["gap_call_wait_s"])
        self.phase = IDLE
        self._states: dict[int, _SeatState] = {}
        self._piles: dict[int, _Pile] = {}
        self._owed: list[_Played] = []
        self._calls: dict[int, float] = {}  # seat -> time of a call being checked
        self._call_t: float | None = None  # time of the accepted call
        self._callers: list[int] = []
        self._end_t: float | None = None  # cards landing after this are late
        self._unseen: list[_Played] = []  # row cards that left unseen and were not seen since

    # --- helpers -------------------------------------------------------------------------

    def _seat_of(self, seat: int | None, place: Place | None) -> int | None:
        if seat is None and place is not None and place.area in _SEAT_AREAS_OF_A_CARD:
            return place.seat
        return seat

    def _catch_up(self, t: float) -> list[Verdict]:
        """Fire this game's deadlines due before a camera event at ``t``: camera events arrive in
        capture order, so every earlier observation is already in (a race decided on t)."""
        nxt = self.next_deadline()
        if nxt is None or nxt >= t:
            return []
        index = self.event_index
        out: list[Verdict] = []
        while nxt is not None and nxt < t:
            out.extend(self.fire_due(nxt))
            nxt = self.next_deadline()
        self.event_index = index
        return out

    def _touch_empty(self, st: _SeatState, t: float) -> None:
        if st.main_left() == 0:
            if st.empty_t is None:
                st.empty_t = t
        else:
            st.empty_t = None

    def _after_play(self, t: float) -> bool:
        """Play has stopped for an observation at t: the round is scored, or t is past the
        call plus grace (a camera frame captured before that still counts)."""
        return self.phase == SCORED or (self._end_t is not None and t > self._end_t)

    def _no_round(self, e: Event, seat: int | None) -> Verdict:
        if self.over:
            return self.ignored(e, seat, "the match is over")
        if self.phase == SCORED:
            return self.ignored(e, seat, f"round {self.round} is over; waiting for the next deal")
        return self.ignored(e, seat, "no round in play: waiting for the deal")

    # --- deal and round --------------------------------------------------------------------

    def on_deal(self, e: Deal) -> list[Verdict]:
        if self.over:
            return [self.ignored(e, None, "the match is over")]
        out: list[Verdict] = []
        if self.phase in (PLAYING, ENDING):
            out.extend(self._score_round(e.t, stopped=True, why="a new deal came"))
            if self.over:
                return out
        if self.phase != DEALT:
            self.round += 1
        self.cancel_all()
        self.phase = DEALT
        self._piles = {}
        self._owed = []
        self._unseen = []
        self._calls = {}
        self._call_t = None
        self._callers = []
        self._end_t = None
        states = {s: _SeatState() for s in self.seat_numbers}
        for key, cards in e.layout.items():
            place = _parse_place(key)
            if place is None or place.area != "row" or place.index is None or not cards:
                continue
            st = states.get(place.seat)  # type: ignore[arg-type]
            if st is not None:
                st.row[place.index] = cards[-1]
        for key, n in e.counts.items():
            place = _parse_place(key)
            if place is None or place.seat not in states:
                continue
            if place.area == "reserve":
                states[place.seat].reserve = n  # type: ignore[index]
            elif place.area == "stock":
                states[place.seat].stock = n  # type: ignore[index]
        for st in states.values():
            self._touch_empty(st, e.t)
        self._states = states
        counts = ", ".join(
            f"{self.who(s)} {len(st.row)} up + {st.reserve} down" for s, st in states.items()
        )
        out.append(self.info(e.t, None, f"round {self.round} dealt ({counts}); waiting for the go"))
        return out

    def on_round_start(self, e: RoundStart) -> list[Verdict]:
        if self.phase != DEALT:
            if self.phase == PLAYING:
                return [self.ignored(e, e.seat, f"round {self.round} is already under way")]
            return [self._no_round(e, e.seat)]
        self.phase = PLAYING
        return [self.legal(e, e.seat, f"Let's get Wackee! round {self.round} starts")]

    def on_round_stop(self, e: RoundStop) -> list[Verdict]:
        if self.phase not in (PLAYING, ENDING, DEALT):
            return [self._no_round(e, None)]
        if self.phase == DEALT:
            self.phase = SCORED if self.round_scores else IDLE
            self.cancel_all()
            return [
                self.info(e.t, None, f"round {self.round} called off before the go; not scored")
            ]
        why = f"stopped from the dashboard ({e.reason})" if e.reason else "stopped"
        return self._score_round(e.t, stopped=True, why=why)

    def _score_round(self, t: float, stopped: bool, why: str) -> list[Verdict]:
        """Score the round as it lies on the table at ``t`` (rulebook: SCORING)."""
        out: list[Verdict] = []
        for key in list(self._calls):
            self.cancel(f"call:{key}")
        self._calls = {}
        self.cancel("end")
        # calls still waiting when play stops are made (the cards do not count)
        for entry in list(self._owed):
            out.extend(self._call_held(entry, t))
        # A WILD still waiting for its follow-up when play stops was played alone: illegal.
        for index, pile in list(self._piles.items()):
            if pile.cards and pile.cards[-1].wild:
                out.append(self._wild_alone(index, pile, pile.cards[-1], t, "play stopped"))
        if stopped and self._end_t is None:
            self._end_t = t
        callers = set(self._callers)
        scores: dict[int, int] = {}
        for seat, st in self._states.items():
            scores[seat] = (
                st.played - 2 * st.main_left() + (10 if seat in callers else 0) - st.penalty
            )
        self.end_round(scores)
        self.phase = SCORED
        totals = self.standings()["totals"]
        parts = ", ".join(f"{self.who(s)} {p:+d} (total {totals[s]})" for s, p in scores.items())
        out.append(self.info(t, None, f"round {self.round} over, {why}: {parts}"))
        best = max(totals.values())
        if best >= self.target:
            leaders = [s for s, v in totals.items() if v == best]
            if len(leaders) == 1:
                self.over = True
                self.winner = leaders[0]
                out.append(self.info(t, leaders[0], f"wins the match with {best} points"))
            else:
                names = " and ".join(self.who(s) for s in leaders)
                out.append(
                    self.info(
                        t, None, f"{names} tie on {best} past the target: another round decides"
                    )
                )
        return out

    # --- cards -----------------------------------------------------------------------------

    def on_card(self, e: CardPlaced) -> list[Verdict]:
        out = self._catch_up(e.t) if self._deadlines else []
        seat = self._seat_of(e.seat, e.source)
        if seat is None:
            out.append(
                self.ignored(
                    e,
                    None,
                    f"cannot tell whose {card_name(e.card)} reached "
                    f"{e.to}; correct it on the dashboard",
                )
            )
            return out
        st = self._states.get(seat)
        if seat not in self._names:
            out.append(self.ignored(e, seat, f"there is no seat {seat} at this table"))
            return out
        to = e.to
        if to.area == "pile" and to.index is not None:
            if st is None or self.phase == IDLE:
                out.append(self._no_round(e, seat))
            else:
                out.extend(self._pile_card(e, seat, st, to.index))
            return out
        if to.area == "row" and to.seat is not None:
            if st is None or self.phase == IDLE or self.over:
                out.append(self._no_round(e, seat))
            else:
                out.extend(self._row_card(e, seat, st, to, e.source))
            return out
        if to.area == "unseen" and e.source is not None and e.source.area == "row":
            if st is None or self.phase == IDLE or self.over:
                out.append(self._no_round(e, seat))
            else:
                out.extend(self._left_unseen(e, seat, st, e.source))
            return out
        out.append(
            self.ignored(e, seat, f"a {card_name(e.card)} at {to} is not judged in Wackee Six")
        )
        return out

    def _left_unseen(self, e: CardPlaced, seat: int, st: _SeatState, src: Place) -> list[Verdict]:
        """A row card left its slot and the camera did not see it land: the slot is empty (a
        refill there is no card laid on another), and the card scores once seen on a pile, or
        once a card on a pile shows that it lies under it (_gap_filler)."""
        name = card_name(e.card)
        if self._after_play(e.t):
            return [
                self.ignored(e, seat, f"the {name} left the row after play stopped: not judged")
            ]
        slot = src.index if st.row.get(src.index or 0) == e.card else next(
            (i for i, held in st.row.items() if held == e.card), None)
        if slot is None:
            return [self.ignored(e, seat, f"the {name} was not seen in the row")]
        del st.row[slot]
        self._touch_empty(st, e.t)
        out = [self.info(
            e.t,
            seat,
            f"the {name} left row slot {slot} and was not seen to land: it scores once seen on "
            "a pile",
            reason="left-unseen",
            card=e.card,
            place=f"row:{seat}:{slot}",
        )]
        parsed = parse_card(e.card)
        if parsed is not None and parsed[1] != WILD:
            gone = _Played(
                e.card, seat, e.t, parsed[1], src, True, False, None, f"row:{seat}:{slot}"
            )
            self._unseen.append(gone)
            # a call waiting on a card one past its pile's top that this card fills
            for entry in self._owed:
                if entry.held is None or entry.pile is None:
                    continue
                pile = self._piles.get(entry.pile)
                p_colour, p_number = parse_card(entry.card)  # type: ignore[misc]
                top, pile_colour = (pile.cards[-1], pile.colour) if pile else (None, p_colour)
                if self._gap_filler(top, pile_colour, p_colour, p_number) is gone:
                    out.append(self._under(e, entry.pile, gone, top))
                    out.append(self._withdraw(e, entry.pile, entry, "unseen-under"))
                    break
        return out

    def _gap_filler(
        self, top: _Played | None, pile_colour: str, colour: str, number: int
    ) -> _Played | None:
        """The card that left a row unseen and would fill the one number between a pile's top
        and a card laid on it (the 1 under a 2 starting a pile), else None."""
        if not self._one_past(top, pile_colour, colour, number):
            return None
        need = (colour, 1) if top is None else (pile_colour, top.value + 1)
        return next((g for g in reversed(self._unseen) if parse_card(g.card) == need), None)

    def _under(self, e: Event, index: int, gone: _Played, top: _Played | None) -> Verdict:
        """A card that left a row unseen lies on the pile, under the card laid on it: it counts."""
        self._unseen.remove(gone)
        gone.pile = index
        gone.place = _pile_place(index)
        self._place(e, index, gone, parse_card(gone.card)[0], top)  # type: ignore[index]
        return self.legal(
            e,
            gone.seat,
            f"the {card_name(gone.card)} that left the row unseen lies under the next card on "
            f"pile {index}: it counts",
            reason="unseen-under",
            card=gone.card,
            place=gone.place,
        )

    def _lift(
        self, st: _SeatState, seat: int, code: str, src: Place | None
    ) -> tuple[str | None, str, bool, bool]:
        """Take ``code`` off its source: (reason it may not leave, text, main card, was shown)."""
        if src is None:
            return None, "", False, False
        area = src.area
        if src.seat is not None and src.seat != seat and area in _SEAT_AREAS_OF_A_CARD:
            return ("not-your-card", f"it came from {self.who(src.seat)}'s {area}", False, False)
        if area == "row":
            slot = src.index
            if slot is not None and st.row.get(slot) == code:
                del st.row[slot]
                return None, "", True, False
            for other, held in st.row.items():
                if held == code:
                    del st.row[other]
                    return None, "", True, False
            return None, "", False, False  # not a card the referee saw in the row
        if area == "reserve":
            if st.reserve <= 0:
                return "reserve-empty", "the reserve is already empty", False, False
            st.reserve -= 1
            return None, "", True, False
        if area in ("waste", "stock", "hand"):
            shown = st.revealed.get(code, 0)
            if shown <= 0:
                return ("dig", "it was never the top card of the waste: no digging", False, False)
            st.revealed[code] = shown - 1
            if st.waste_top == code:
                st.waste_top = None
            if st.stock > 0:
                st.stock -= 1
            return None, "", False, True
        if area == "pile":
            return "from-pile", "cards in the centre stay where they land", False, False
        return None, "", False, False

    def _owe(self, entry: _Played) -> None:
        self._owed.append(entry)
        if entry.main:
            st = self._states.get(entry.seat)
            if st is not None:
                st.owed_main += 1
                st.empty_t = None

    def _pile_card(self, e: CardPlaced, seat: int, st: _SeatState, index: int) -> list[Verdict]:
        code = e.card
        name = card_name(code)
        where = _pile_place(index)
        parsed = parse_card(code)
        if parsed is None:
            self._owed.append(_Played(code, seat, e.t, 0, None, False, False, index, where))
            return [
                self.illegal(
                    e,
                    seat,
                    "unknown-card",
                    f"take back the card on pile {index}: {code!r} is not a Wackee Six card",
                    card=code,
                    place=where,
                )
            ]
        colour, number = parsed
        seen = next((g for g in self._unseen if g.card == code and g.seat == seat), None)
        if seen is not None:
            self._unseen.remove(seen)  # the card that left the row unseen, seen now
        reason, why, main, shown = self._lift(st, seat, code, e.source)
        entry = _Played(code, seat, e.t, number, e.source, main, shown, index, where)
        if reason is not None:
            self._owed.append(entry)  # nothing was taken off a source
            return [
                self.illegal(
                    e,
                    seat,
                    reason,
                    f"take back the {name} on pile {index}: {why}",
                    card=code,
                    place=where,
                )
            ]
        if self.phase == DEALT:
            self._owe(entry)
            return [
                self.illegal(
                    e,
                    seat,
                    "not-started",
                    f"take back the {name}: the round has not started yet",
                    card=code,
                    place=where,
                )
            ]
        if self._after_play(e.t):
            self._owe(entry)
            return [
                self.late(
                    e,
                    seat,
                    f"take back the {name} on pile {index}: it landed after "
                    "Wackee Six! was called; it does not count",
                    card=code,
                    place=where,
                )
            ]
        pile = self._piles.get(index)
        out: list[Verdict] = []
        if pile is not None:
            grace = self.grace
            if pile.tie_t is not None and abs(e.t - pile.tie_t) <= grace:
                self._owe(entry)
                return [
                    self.illegal(
                        e,
                        seat,
                        "tie",
                        f"take back the {name} on pile {index}: it landed in a tie",
                        card=code,
                        place=where,
                    )
                ]
            if pile.cards:
                top = pile.cards[-1]
                if top.seat != seat and abs(e.t - top.t) <= grace:
                    if e.t > top.t:
                        self._owe(entry)
                        return [
                            self.illegal(
                                e,
                                seat,
                                "tie",
                                f"take back the {name} on pile {index}: "
                                f"{self.who(top.seat)}'s {card_name(top.card)} is under it "
                                f"({e.t - top.t:.2f} s earlier)",
                                card=code,
                                place=where,
                            )
                        ]
                    if e.t == top.t:
                        out.append(
                            self._unplace(
                                index, pile, top, e.t, "tie-same-frame", "both cards landed at once"
                            )
                        )
                        pile.tie_t = e.t
                        self._owe(entry)
                        out.append(
                            self.illegal(
                                e,
                                seat,
                                "tie-same-frame",
                                f"take back the {name} on pile {index}: "
                                f"it landed at the same moment as {self.who(top.seat)}'s "
                                f"{card_name(top.card)}; both go back",
                                card=code,
                                place=where,
                            )
                        )
                        return out
                    # This card is the lower one: the one judged before it lost the tie.
                    under = pile.cards[-2] if len(pile.cards) > 1 else None
                    fault = self._rule(
                        under, pile.colour if under else colour, colour, number, seat, index
                    )
                    if fault is None:
                        out.append(
                            self._unplace(
                                index,
                                pile,
                                top,
                                e.t,
                                "tie",
                                f"{self.who(seat)}'s {name} is under it",
                            )
                        )
                        pile = self._piles.get(index)
        now: _Played | None = None
        pile_colour = colour
        if pile is not None and pile.cards:
            now = pile.cards[-1]
            pile_colour = pile.colour
        fault = self._rule(now, pile_colour, colour, number, seat, index)
        if fault is not None and fault[0] in _PLAYED_ON_FAULTS:
            gone = self._gap_filler(now, pile_colour, colour, number)
            if gone is not None:  # the card between left a row unseen: it lies under this one
                out.append(self._under(e, index, gone, now))
                return [*out, self._place(e, index, entry, colour, gone)]
        if fault is not None:
            kept = self._played_on(index, colour, number, seat)
            if kept is not None:
                out.append(self._withdraw(e, index, kept))
                return [*out, self._place(e, index, entry, colour, kept)]
            self._owe(entry)
            reason, why = fault
            entry.fault = reason
            one_past = self._one_past(now, pile_colour, colour, number)
            if reason in _PLAYED_ON_FAULTS and self.gap_wait > 0 and one_past:
                # the camera may have missed the card between, covered at once by this one: the
                # call waits for the table to play on from it (docs/games/wackee-six.md)
                entry.held = (why, self.event_index)
                self.schedule(_gap_key(entry), e.t + self.gap_wait, entry)
                out.append(
                    self.info(
                        e.t,
                        seat,
                        f"the {name} on pile {index}: {why}; called in {self.gap_wait:g} s unless "
                        "the table plays on from it",
                        reason="gap-held",
                        card=code,
                        place=where,
                    )
                )
                return out
            out.append(
                self.illegal(
                    e,
                    seat,
                    reason,
                    f"take back the {name} on pile {index}: {why}",
                    card=code,
                    place=where,
                )
            )
            return out
        out.append(self._place(e, index, entry, colour, now))
        out.extend(self._held_follows(e, index))
        return out

    def _held_follows(self, e: Event, index: int) -> list[Verdict]:
        """A card whose call waits, that follows the card now on top of its pile and was laid
        after it: the card between was seen late (it came to rest first, under it)."""
        pile = self._piles.get(index)
        if pile is None or not pile.cards or pile.cards[-1].wild:
            return []
        top = pile.cards[-1]
        for entry in self._owed:
            if entry.held is not None and entry.pile == index and entry.t >= top.t and parse_card(
                    entry.card) == (pile.colour, top.value + 1):
                return [self._withdraw(e, index, entry, "seen-under")]
        return []

    @staticmethod
    def _one_past(top: _Played | None, pile_colour: str, colour: str, number: int) -> bool:
        """Is the card one number past the pile's top (a 2 where a pile has no card)?"""
        if number == WILD:
            return False
        if top is None:
            return number == 2
        return not top.wild and colour == pile_colour and number == top.value + 2

    def _played_on(self, index: int, colour: str, number: int, seat: int) -> _Played | None:
        """The card ruled off this pile, still lying on it, that this card follows: the table
        played on from it (docs/games/wackee-six.md: "The table played on")."""
        for o in reversed(self._owed):
            if o.pile != index:
                continue
            if o.fault not in _PLAYED_ON_FAULTS:
                return None  # the card on top lies there for another reason
            pile = self._piles.get(index)
            o_colour = parse_card(o.card)[0]  # type: ignore[index]
            if pile is not None and pile.colour != o_colour:
                return None
            return o if self._rule(o, o_colour, colour, number, seat, index) is None else None
        return None

    def _withdraw(self, e: Event, index: int, kept: _Played, reason: str = "played-on") -> Verdict:
        """The call on a card the table played on is withdrawn (or, still waiting, never made):
        it lies on the pile and counts."""
        held = kept.held is not None
        self._owed.remove(kept)
        st = self._states.get(kept.seat)
        if st is not None and kept.main:
            st.owed_main -= 1
        pile = self._piles.get(index)
        if pile is None:
            pile = self._piles[index] = _Pile(parse_card(kept.card)[0])  # type: ignore[index]
        pile.cards.append(kept)
        if st is not None:
            st.played += 1
            if kept.main:
                self._touch_empty(st, e.t)
        if held:
            kept.held = None
            self.cancel(_gap_key(kept))
            text = f"the {card_name(kept.card)} on pile {index} counts: " + (
                "the table played on from it (the camera missed the card under it)"
                if reason == "played-on" else "the card it follows lies under it")
        else:
            text = (f"the table played on from the {card_name(kept.card)} on pile {index}: "
                    "the call on it is withdrawn and it counts")
        return self.legal(
            e,
            kept.seat,
            text,
            reason=reason,
            card=kept.card,
            place=kept.place,
        )

    def _rule(
        self, top: _Played | None, pile_colour: str, colour: str, number: int, seat: int, index: int
    ) -> tuple[str, str] | None:
        """Why this card may not go on this pile top, or None when it may."""
        if top is None:
            if number == WILD:
                return "wild-starts-pile", "a WILD cannot start a pile: only a 1 can"
            if number != 1:
                return "pile-needs-1", "a new pile can only be started by a 1"
            return None
        if top.value >= 13:
            return "pile-closed", f"pile {index} is closed (it reached 13)"
        if top.wild and top.seat != seat:
            return "not-your-wild", (
                f"only {self.who(top.seat)} may play on their WILD until its next number covers it"
            )
        want = top.value + 1
        pname = COLOUR_NAMES.get(pile_colour, pile_colour)
        if number == WILD:
            if top.wild:
                return "wild-on-wild", "a WILD must be followed by a number card, not a WILD"
            if want >= 13:
                return "wild-no-next", ("a WILD cannot be the 13: no next number could follow it")
            return None
        if number == 1:
            return "wrong-number", f"a 1 starts a new pile; pile {index} needs the {pname} {want}"
        if colour != pile_colour:
            return "wrong-colour", f"pile {index} is {pname}"
        if number != want:
            return "wrong-number", f"pile {index} needs the {pname} {want}"
        return None

    def _place(
        self, e: Event, index: int, entry: _Played, colour: str, top: _Played | None
    ) -> Verdict:
        pile = self._piles.get(index)
        if pile is None:
            pile = self._piles[index] = _Pile(colour)
        pname = COLOUR_NAMES.get(pile.colour, pile.colour)
        if entry.value == WILD:
            entry.value = top.value + 1 if top is not None else 1
            entry.wild = True
        pile.cards.append(entry)
        st = self._states[entry.seat]
        st.played += 1
        if entry.main:
            self._touch_empty(st, entry.t)
        code = entry.card
        where = entry.place
        if entry.wild:
            self.schedule(f"wild:{index}", entry.t + self.window, entry)
            return self.legal(
                e,
                entry.seat,
                f"WILD as the {pname} {entry.value} on pile {index}: "
                f"cover it with the {pname} {entry.value + 1} within "
                f"{self.window:g} s",
                card=code,
                place=where,
            )
        if top is not None and top.wild:
            self.cancel(f"wild:{index}")
        if entry.value == 13:
            text = f"{card_name(code)} closes pile {index}: Wacked!"
        elif top is None:
            text = f"{card_name(code)} starts pile {index}"
        else:
            text = f"{card_name(code)} on pile {index}"
        return self.legal(e, entry.seat, text, card=code, place=where)

    def _pop(self, index: int, pile: _Pile, entry: _Played) -> None:
        """Lift a card judged legal off its pile: it no longer scores; a WILD under it waits."""
        pile.cards.remove(entry)
        st = self._states.get(entry.seat)
        if st is not None:
            st.played -= 1
        if entry.wild:
            self.cancel(f"wild:{index}")
        if not pile.cards:
            del self._piles[index]
        elif pile.cards[-1].wild:
            below = pile.cards[-1]
            self.schedule(f"wild:{index}", below.t + self.window, below)

    def _unplace(
        self, index: int, pile: _Pile, entry: _Played, t: float, reason: str, why: str
    ) -> Verdict:
        """A card judged legal turns out illegal (a tie, a lone WILD): it is owed back."""
        self._pop(index, pile, entry)
        self._owe(entry)
        return self._verdict(
            t,
            ILLEGAL,
            entry.seat,
            f"take back the {card_name(entry.card)} on pile {index}: {why}",
            reason,
            "take back",
            card=entry.card,
            place=entry.place,
        )

    def _wild_alone(self, index: int, pile: _Pile, entry: _Played, t: float, why: str) -> Verdict:
        pname = COLOUR_NAMES.get(pile.colour, pile.colour)
        return self._unplace(
            index, pile, entry, t, "wild-alone", f"no {pname} {entry.value + 1} covered it ({why})"
        )

    def _row_card(
        self, e: CardPlaced, seat: int, st: _SeatState, to: Place, src: Place | None
    ) -> list[Verdict]:
        if to.seat != seat:
            return [
                self.illegal(
                    e,
                    seat,
                    "not-your-row",
                    f"take back the {card_name(e.card)}: it lies in {self.who(to.seat)}'s row",
                    card=e.card,
                    place=str(to),
                )
            ]
        if src is not None and src.area == "row" and src.seat == seat:
            if to.index is None or src.index == to.index:
                return [self.ignored(e, seat, f"the {card_name(e.card)} stays in the row")]
            if to.index in st.row:
                return [
                    self.ignored(e, seat, f"row slot {to.index} is taken; the move is not followed")
                ]
            for slot, held in list(st.row.items()):
                if held == e.card:
                    del st.row[slot]
                    st.row[to.index] = e.card
                    return [self.legal(e, seat, f"moved the {card_name(e.card)} within the row")]
            return [self.ignored(e, seat, f"the {card_name(e.card)} was not seen in the row")]
        if src is not None and src.area in ("waste", "stock", "hand"):
            return self._refill(e, seat, st, to.index, e.card, from_waste=True)
        return self._refill(e, seat, st, to.index, e.card, from_waste=False)

    def _refill(
        self, e: Event, seat: int, st: _SeatState, slot: int | None, code: str, from_waste: bool
    ) -> list[Verdict]:
        """A card appeared in a row slot: a refill from the reserve is the only legal way."""
        name = card_name(code)
        if self._after_play(e.t):
            return [self.ignored(e, seat, f"{name} in the row after play stopped: not judged")]
        if slot is None:
            return [self.ignored(e, seat, f"the {name} was seen in the row but not its slot")]
        where = f"row:{seat}:{slot}"
        if st.row.get(slot) == code:
            return [self.ignored(e, seat, f"the {name} was already in row slot {slot}")]
        shown = st.revealed.get(code, 0)
        if from_waste or (shown > 0 and code not in AMBIGUOUS):
            was_shown = shown > 0
            if was_shown:
                st.revealed[code] = shown - 1
            self._owed.append(_Played(code, seat, e.t, 0, None, False, was_shown, None, where))
            return [
                self.illegal(
                    e,
                    seat,
                    "row-from-waste",
                    f"take back the {name} from row slot "
                    f"{slot}: row gaps are filled from the reserve, not the waste",
                    card=code,
                    place=where,
                )
            ]
        if st.reserve <= 0:
            self._owed.append(_Played(code, seat, e.t, 0, None, False, False, None, where))
            return [
                self.illegal(
                    e,
                    seat,
                    "reserve-empty",
                    f"take back the {name} from row slot "
                    f"{slot}: the reserve is empty, so it cannot be a refill",
                    card=code,
                    place=where,
                )
            ]
        st.reserve -= 1
        if slot in st.row:
            self._owe(_Played(code, seat, e.t, 0, Place("reserve", seat), True, False, None, where))
            return [
                self.illegal(
                    e,
                    seat,
                    "row-slot-full",
                    f"take back the {name} from row slot "
                    f"{slot}: it already holds the {card_name(st.row[slot])}",
                    card=code,
                    place=where,
                )
            ]
        st.row[slot] = code
        return [
            self.legal(
                e,
                seat,
                f"{name} refills row slot {slot} ({st.reserve} left in the reserve)",
                card=code,
                place=where,
            )
        ]

    # --- reveals and take-backs ----------------------------------------------------------

    def on_reveal(self, e: CardRevealed) -> list[Verdict]:
        out = self._catch_up(e.t) if self._deadlines else []
        seat = self._seat_of(e.seat, e.at)
        if seat is None or seat not in self._names:
            out.append(
                self.ignored(
                    e, seat, f"a {card_name(e.card)} at {e.at} belongs to no seat at this table"
                )
            )
            return out
        st = self._states.get(seat)
        if st is None or self.phase == IDLE or self.over:
            out.append(self._no_round(e, seat))
            return out
        if e.at.seat is not None and e.at.seat != seat:
            out.append(
                self.ignored(e, seat, f"a {card_name(e.card)} at {e.at} is not in this seat's zone")
            )
            return out
        if parse_card(e.card) is None:
            out.append(self.ignored(e, seat, f"unknown card {e.card!r} at {e.at}"))
            return out
        area = e.at.area
        if area == "waste":
            if self._after_play(e.t):
                out.append(self.ignored(e, seat, "turned up after play stopped: not judged"))
                return out
            st.revealed[e.card] = st.revealed.get(e.card, 0) + 1
            st.waste_top = e.card
            out.append(
                self.info(
                    e.t,
                    seat,
                    f"turned up the {card_name(e.card)}",
                    card=e.card,
                    place=f"waste:{seat}",
                )
            )
            return out
        if area == "row":
            out.extend(self._refill(e, seat, st, e.at.index, e.card, from_waste=False))
            return out
        out.append(self.ignored(e, seat, f"a {card_name(e.card)} shown at {e.at} is not judged"))
        return out

    def on_take_back(self, e: CardTakenBack) -> list[Verdict]:
        out = self._catch_up(e.t) if self._deadlines else []
        at = e.at
        where = str(at)
        seat = e.seat
        found: _Played | None = None
        for entry in reversed(self._owed):
            if entry.card == e.card and entry.place == where:
                if seat is None or entry.seat == seat:
                    found = entry
                    break
                if found is None:
                    found = entry
        if found is not None:
            # a card whose call was waiting, taken back: the call is made now (the record shows
            # the card was not playable there)
            out.extend(self._call_held(found, e.t))
            self._owed.remove(found)
            self._restore(found)
            out.append(
                self.legal(
                    e,
                    found.seat,
                    f"took back the {card_name(e.card)} from {_place_words(at)}",
                    card=e.card,
                    place=where,
                )
            )
            return out
        if at.area == "pile" and at.index is not None and self.phase in (PLAYING, ENDING):
            pile = self._piles.get(at.index)
            if pile is not None and pile.cards:
                top = pile.cards[-1]
                if top.card == e.card and (seat is None or seat == top.seat):
                    self._pop(at.index, pile, top)
                    if top.main:  # _restore gives back a main card as owed
                        self._states[top.seat].owed_main += 1
                    self._restore(top)
                    out.append(
                        self.info(
                            e.t,
                            top.seat,
                            f"took the {card_name(e.card)} back off "
                            f"pile {at.index}; it no longer counts",
                            card=e.card,
                            place=where,
                        )
                    )
                    return out
        out.append(
            self.ignored(e, seat, f"nothing owed to take back: a {card_name(e.card)} at {where}")
        )
        return out

    def _restore(self, entry: _Played) -> None:
        """A card taken back goes back where it came from."""
        st = self._states.get(entry.seat)
        if st is None:
            return
        src = entry.source
        if entry.main:
            st.owed_main -= 1
            if src is not None and src.area == "reserve":
                st.reserve += 1
            else:
                slot = src.index if src is not None and src.area == "row" else None
                if slot is None or slot in st.row:
                    slot = next((i for i in range(1, 64) if i not in st.row), 64)
                st.row[slot] = entry.card
            self._touch_empty(st, entry.t)
        elif entry.revealed:
            st.revealed[entry.card] = st.revealed.get(entry.card, 0) + 1

    # --- calls -----------------------------------------------------------------------------

    def on_press(self, e: PadPress) -> list[Verdict]:
        return self._call(e, e.seat)

    def _call(self, e: Event, seat: int) -> list[Verdict]:
        if seat not in self._names:
            return [self.ignored(e, seat, f"there is no seat {seat} at this table")]
        if self.phase in (SCORED, ENDING):
            first = " and ".join(self.who(s) for s in self._callers) or "the table"
            return [self.ignored(e, seat, f"the round is already over ({first} went out)")]
        if self.phase != PLAYING:
            return [
                self._no_round(e, seat)
                if self.phase != DEALT
                else self.ignored(e, seat, "the round has not started yet")
            ]
        if seat in self._calls:
            return [self.ignored(e, seat, "Wackee Six! already called; being checked")]
        st = self._states[seat]
        earlier = any(t <= e.t for s, t in self._calls.items() if s != seat)
        if not earlier and self._out(st, e.t):
            return self._accept(e.t, seat, e)
        self._calls[seat] = e.t
        self.schedule(f"call:{seat}", e.t + self.grace, (seat, e.t))
        return [self.info(e.t, seat, "Wackee Six! called: checking the last cards")]

    def _out(self, st: _SeatState, t: float) -> bool:
        return st.main_left() == 0 and st.empty_t is not None and st.empty_t <= t + self.grace

    def _accept(self, t: float, seat: int, e: Event | None) -> list[Verdict]:
        self.phase = ENDING
        self._call_t = t
        self._callers = [seat]
        self._end_t = t + self.grace
        self.schedule("end", t + self.grace)
        text = "Wackee Six! accepted: play stops"
        if e is not None:
            return [self.legal(e, seat, text)]
        return [self._verdict(t + self.grace, LEGAL, seat, text)]

    def on_deadline(self, key: str, payload: Any, t: float) -> list[Verdict]:
        if key == "end":
            if self.phase != ENDING:
                return []
            return self._score_round(t, stopped=False, why="Wackee Six!")
        if key.startswith("gap:"):
            return self._call_held(payload, t)
        if key.startswith("wild:"):
            index = int(key[5:])
            pile = self._piles.get(index)
            if pile is None or not pile.cards or pile.cards[-1] is not payload:
                return []
            return [self._wild_alone(index, pile, payload, t, f"not within {self.window:g} s")]
        if key.startswith("call:"):
            seat, call_t = payload
            self._calls.pop(seat, None)
            st = self._states.get(seat)
            if st is None:
                return []
            if self.phase == ENDING:
                if call_t == self._call_t and self._out(st, call_t):
                    self._callers.append(seat)
                    return [
                        self._verdict(
                            t, LEGAL, seat, "Wackee Six! at the same moment: also out first"
                        )
                    ]
                first = " and ".join(self.who(s) for s in self._callers)
                return [self.info(t, seat, f"Wackee Six! came after {first}'s")]
            if self.phase != PLAYING:
                return []
            if self._out(st, call_t):
                return self._accept(call_t, seat, None)
            st.penalty += self.false_call_points
            left = st.main_left()
            text = (
                f"false Wackee Six!: {left} main card{'s' if left != 1 else ''} left "
                f"({len(st.row) + st.owed_main} in the row, {st.reserve} in the reserve); "
                "play on"
            )
            points = -self.false_call_points
            if points:
                return [
                    self._verdict(
                        t,
                        ILLEGAL,
                        seat,
                        f"{text} ({points:+d} points)",
                        "false-call",
                        PENALTY,
                        points=points,
                    )
                ]
            return [self._verdict(t, ILLEGAL, seat, text, "false-call", None)]
        return []

    def _call_held(self, entry: _Played, t: float) -> list[Verdict]:
        """The call that waited on a card one past its pile's top, made now: its wait is over
        and it still lies there, play stopped, or it is being taken back (a card whose call
        waits is owed until then: the table playing on from it ends the wait, _withdraw)."""
        if entry.held is None:
            return []
        why, event = entry.held
        entry.held = None
        self.cancel(_gap_key(entry))
        call = self._verdict(
            t,
            ILLEGAL,
            entry.seat,
            f"take back the {card_name(entry.card)} on pile {entry.pile}: {why}",
            entry.fault,
            TAKE_BACK,
            card=entry.card,
            place=entry.place,
        )
        return [replace(call, event=event)]  # the call on that event, made now

    # --- dashboard -------------------------------------------------------------------------

    def on_manual(self, e: ManualEntry) -> list[Verdict]:
        if e.action == "call":
            if e.seat is None:
                return [self.ignored(e, None, "a call entry needs the seat that called")]
            return self._call(e, e.seat)
        if e.action == "reserve_count":
            if e.seat is None or e.seat not in self._names:
                return [self.ignored(e, e.seat, "reserve_count needs a seat at this table")]
            value = e.value
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 54:
                return [
                    self.ignored(e, e.seat, f"reserve_count needs a number 0-54, not {value!r}")
                ]
            st = self._states.get(e.seat)
            if st is None or self.phase in (IDLE, SCORED):
                return [self._no_round(e, e.seat)]
            st.reserve = value
            self._touch_empty(st, e.t)
            return [self.info(e.t, e.seat, f"reserve set to {value} from the dashboard")]
        return super().on_manual(e)

    def force_legal(self, e: Event) -> list[Verdict] | None:
        if not isinstance(e, CardPlaced) or e.to.area != "pile" or e.to.index is None:
            return None
        seat = self._seat_of(e.seat, e.source)
        parsed = parse_card(e.card)
        st = self._states.get(seat) if seat is not None else None
        if st is None or parsed is None or self.phase not in (PLAYING, ENDING):
            return None
        seat_n: int = seat  # type: ignore[assignment]
        _reason, _why, main, shown = self._lift(st, seat_n, e.card, e.source)
        index = e.to.index
        pile = self._piles.get(index)
        top = pile.cards[-1] if pile is not None and pile.cards else None
        entry = _Played(
            e.card, seat_n, e.t, parsed[1], e.source, main, shown, index, _pile_place(index)
        )
        verdict = self._place(e, index, entry, parsed[0], top)
        return [verdict]

    def status(self) -> dict[str, Any]:
        piles = {}
        for index, pile in self._piles.items():
            top = pile.cards[-1] if pile.cards else None
            piles[str(index)] = {
                "colour": COLOUR_NAMES.get(pile.colour, pile.colour),
                "top": top.value if top else 0,
                "top_card": top.card if top else None,
                "cards": len(pile.cards),
                "closed": bool(top and top.value >= 13),
                "wild_owner": top.seat if top and top.wild else None,
            }
        seats = {}
        for seat, st in self._states.items():
            seats[str(seat)] = {
                "row": {str(k): v for k, v in sorted(st.row.items())},
                "reserve": st.reserve,
                "main_left": st.main_left(),
                "played": st.played,
                "waste_top": st.waste_top,
                "calling": seat in self._calls,
            }
        return {
            "round": self.round,
            "phase": self.phase,
            "piles": piles,
            "seats": seats,
            "owed": [{"seat": o.seat, "card": o.card, "place": o.place,
                      "call_waits": o.held is not None} for o in self._owed],
            "went_out": list(self._callers),
            "call_t": self._call_t,
            "target_score": self.target,
        }


_SEAT_AREAS_OF_A_CARD = frozenset({"row", "reserve", "waste", "stock", "hand", "zone"})


def _parse_place(key: str) -> Place | None:
    try:
        return Place.parse(key)
    except RefereeError:
        return None


def _place_words(at: Place) -> str:
    if at.area == "pile":
        return f"pile {at.index}"
    if at.area == "row":
        return f"row slot {at.index}"
    return str(at)


GAME = WackeeSix
