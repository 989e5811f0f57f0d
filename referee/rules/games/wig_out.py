"""Wig Out: everyone plays at once onto piles of matching characters until someone is out.

Cards land on ``pile:N``. A pile with a new N is a new pile: it needs two or more matching cards
from one hand, so its first card opens a short window within which the same seat must add a
match. "Wig Out!" is a pad press; the referee checks it against the cards it counted for that seat
(dealt, drawn, played) or asks the table to confirm. Conventions and decided rulings are in
docs/games/wig-out.md.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..events import (
    CardPlaced,
    CardTakenBack,
    Deal,
    Event,
    ManualEntry,
    PadPress,
    RoundStart,
    RoundStop,
)
from ..game import Game
from ..options import Option
from ..verdicts import Verdict

# code -> character; the Wig Out deck's C1..C12 and a standard deck's ranks (A=1 .. K=13).
CHARACTERS: dict[str, int] = {f"C{i}": i for i in range(1, 13)}
for _i, _r in enumerate(("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"), 1):
    for _s in "SHDC":
        CHARACTERS[_r + _s] = _i


class WigOut(Game):
    name = "wig-out"
    title = "Wig Out"
    min_seats = 2
    max_seats = 6
    turn_based = False
    game_options: ClassVar[dict[str, Option]] = {
        "rounds": Option(5, "rounds in the match; the lowest total wins", 1, 50),
        "new_pile_window_s": Option(
            1.0, "seconds within which a new pile's first card must get a matching second card "
            "from the same seat", 0.1, 10),
        "false_call_penalty": Option(0, "points added for a false \"Wig Out!\"", 0, 50),
    }
    manual_actions: ClassVar[dict[str, str]] = {
        "confirm": "the table confirms (value true) or rejects (false) a \"Wig Out!\" call",
        "hand_count": "cards left in a seat's hand at the round's end (seat + value, or value "
                      "{seat: count})",
        "tie_round": "all players are stuck with one unmatched card: the round ends, no points",
        "draw": "a seat drew value cards (default 1) that the camera did not see",
    }

    def __init__(self, seats: Any, options: dict[str, Any] | None = None) -> None:
        super().__init__(seats, options)
        self._seats = frozenset(self.seat_numbers)
        self.window = float(self.opts["new_pile_window_s"])
        self._penalty = int(self.opts["false_call_penalty"])
        self.playing = False
        self.dealt = False
        self.piles: dict[int, list[int]] = {}  # pile number -> [character, cards]
        # pile number -> (seat, character, t, event index, code) of a new pile's lone first card
        self.waiting: dict[int, tuple[int | None, int, float, int | None, str]] = {}
        # the same for lone first cards ruled illegal and not taken back yet
        self.lone: dict[int, tuple[int | None, int, float, int | None, str]] = {}
        self.hands: dict[int, int | None] = {s: None for s in self.seat_numbers}
        self.draw_pile: int | None = None
        self.call: tuple[int, float, int | None] | None = None  # (seat, t, event index)
        self.call_state = ""  # "checking", "confirm" (asks the table), "" (none)
        self.stop_t: float | None = None  # play stopped at: cards later than this + grace are late
        self.counts: dict[int, int] | None = None  # awaiting hand counts at the round's end
        self.penalties: dict[int, int] = {s: 0 for s in self.seat_numbers}
        self.zone: dict[int, int] = {}  # cards laid face down in each seat zone after the round

    # --- rounds ----------------------------------------------------------------------------

    def _reset(self) -> None:
        self.piles = {}
        self.waiting = {}
        self.lone = {}
        self.hands = {s: None for s in self.seat_numbers}
        self.draw_pile = None
        self.owed_take_backs = {}
        self.call = None
        self.call_state = ""
        self.stop_t = None
        self.counts = None
        self.penalties = {s: 0 for s in self.seat_numbers}
        self.zone = {}
        self.cancel_all()

    def on_deal(self, e: Deal) -> list[Verdict]:
        if self.over:
            return [self.ignored(e, None, "the match is over")]
        if self.playing or self.counts is not None:
            return [self.ignored(e, None, "a deal during a round: finish the round first")]
        self._reset()
        self.dealt = True
        for key, cards in e.layout.items():
            if not key.startswith("pile:") or not cards:
                continue
            chars = {CHARACTERS.get(c) for c in cards}
            n = _pile_number(key)
            if n is None or len(chars) != 1 or None in chars:
                continue
            self.piles[n] = [chars.pop() or 0, len(cards)]
        for key, n in e.counts.items():
            if key.startswith("hand:"):
                seat = _pile_number(key)
                if seat in self._seats:
                    self.hands[seat] = n  # type: ignore[index]
        self.draw_pile = e.counts.get("draw")
        piles = ", ".join(f"pile {n}: C{c}" for n, (c, _k) in sorted(self.piles.items()))
        return [self.info(e.t, None, f"cards dealt for round {self.round + 1}"
                          + (f"; first piles {piles}" if piles else ""))]

    def on_round_start(self, e: RoundStart) -> list[Verdict]:
        if self.over:
            return [self.ignored(e, e.seat, "the match is over")]
        if self.playing or self.counts is not None:
            return [self.ignored(e, e.seat, "the round is already going")]
        if not self.dealt:
            self._reset()
        self.dealt = False
        self.playing = True
        self.stop_t = None
        self.round += 1
        return [self.info(e.t, e.seat, f"round {self.round}: go!")]

    def on_round_stop(self, e: RoundStop) -> list[Verdict]:
        if not self.playing:
            return [self.ignored(e, None, "no round is going")]
        return self._stop_play(e, None)

    def _stop_play(self, e: Event, caller: int | None) -> list[Verdict]:
        """Play is over: pending lone cards go back; score the hands or wait for their counts."""
        self.playing = False
        if self.stop_t is None:
            self.stop_t = e.t
        out: list[Verdict] = []
        for n in list(self.waiting):
            out.extend(self._pile_expired(n, e.t))
        self.cancel_all()
        self.counts = {}
        for s in self.seat_numbers:
            left = 0 if s == caller else self.hands[s]
            if left is not None:
                self.counts[s] = max(0, left)
        out.extend(self._score_if_counted(e.t, e))
        return out

    def _score_if_counted(self, t: float, e: Event) -> list[Verdict]:
        assert self.counts is not None
        missing = [s for s in self.seat_numbers if s not in self.counts]
        if missing:
            names = ", ".join(self.who(s) for s in missing)
            return [self.info(t, None, f"round {self.round} over: enter the cards left in the "
                              f"hands of {names}", reason="need-hand-count")]
        scores = {s: self.counts[s] + self.penalties[s] for s in self.seat_numbers}
        self.counts = None
        return self._record(t, scores, f"round {self.round} over: "
                            + ", ".join(f"{self.who(s)} {p}" for s, p in scores.items()))

    def _record(self, t: float, scores: dict[int, int], text: str) -> list[Verdict]:
        self.end_round(scores)
        self.call = None
        self.call_state = ""
        out = [self.info(t, None, text, reason="round-over")]
        if len(self.round_scores) >= int(self.opts["rounds"]):
            self.over = True
            totals = self.standings()["totals"]
            low = min(totals.values())
            leaders = [s for s, p in totals.items() if p == low]
            self.winner = leaders[0] if len(leaders) == 1 else None
            who = f"{self.who(self.winner)} wins" if self.winner else "a tie for the lowest score"
            out.append(self.info(t, self.winner, f"match over: {who} ({low} points)",
                                 reason="match-over"))
        return out

    def on_manual(self, e: ManualEntry) -> list[Verdict]:
        action = e.action
        if action == "confirm":
            if self.call is None or self.call_state != "confirm":
                return [self.ignored(e, e.seat, "no \"Wig Out!\" call is waiting for the table")]
            seat, t, index = self.call
            if e.value is False:
                return self._false_call(seat, t, index, "the table says you still hold cards")
            return self._accept(e, seat, t, index)
        if action == "hand_count":
            return self._hand_count(e)
        if action == "tie_round":
            if not self.playing and self.counts is None:
                return [self.ignored(e, e.seat, "no round to declare tied")]
            self.playing = False
            self.counts = None
            out = [v for n in list(self.waiting) for v in self._pile_expired(n, e.t)]
            self.cancel_all()
            if self.stop_t is None:
                self.stop_t = e.t
            return out + self._record(e.t, {s: 0 for s in self.seat_numbers},
                                f"round {self.round} is a tie: no points")
        if action == "draw":
            who = e.seat
            if who is None or who not in self._seats:
                return [self.ignored(e, who, "a draw needs the seat")]
            k = e.value if isinstance(e.value, int) and not isinstance(e.value, bool) else 1
            if not 0 < k <= 60:
                return [self.ignored(e, who, "a draw is 1 to 60 cards")]
            self._drew(who, k)
            return [self.legal(e, who, f"drew {k} card(s)")]
        return super().on_manual(e)

    def _hand_count(self, e: ManualEntry) -> list[Verdict]:
        if self.counts is None:
            return [self.ignored(e, e.seat, "hand counts are entered when a round ends")]
        given: dict[int, int] = {}
        v = e.value
        if isinstance(v, dict):
            for k, n in v.items():
                try:
                    s = int(k)
                except (TypeError, ValueError):
                    continue
                if s in self._seats and isinstance(n, int) and not isinstance(n, bool):
                    given[s] = n
        elif isinstance(v, int) and not isinstance(v, bool) and e.seat in self._seats:
            given[e.seat] = v  # type: ignore[index]
        elif v is None and e.seat in self._seats:
            given[e.seat] = self.zone.get(e.seat, 0)  # type: ignore[arg-type]  # camera's count
        given = {s: n for s, n in given.items() if 0 <= n <= 60}
        if not given:
            return [self.ignored(e, e.seat, "a hand count needs a seat and a number 0 to 60")]
        self.counts.update(given)
        text = ", ".join(f"{self.who(s)} holds {n}" for s, n in given.items())
        return [self.legal(e, e.seat, f"hand count: {text}"), *self._score_if_counted(e.t, e)]

    # --- cards -----------------------------------------------------------------------------

    def _drew(self, seat: int, n: int) -> None:
        h = self.hands.get(seat)
        if h is not None:
            self.hands[seat] = h + n
        if self.draw_pile is not None:
            self.draw_pile = max(0, self.draw_pile - n)

    def on_card(self, e: CardPlaced) -> list[Verdict]:
        seat = e.seat
        if seat is not None and seat not in self._seats:
            return [self.ignored(e, seat, "is not a seat at this table")]
        area = e.to.area
        if area == "hand":
            if seat is None or e.to.seat != seat:
                return [self.ignored(e, seat, f"a card to {e.to} from another seat")]
            if not self.playing:
                return [self.ignored(e, seat, "draws count only during a round")]
            self._drew(seat, 1)
            return [self.legal(e, seat, "draws a card")]
        if area == "zone":
            if seat is None or e.to.seat != seat or self.playing or self.round == 0:
                return [self.ignored(e, seat, f"a card at {e.to} is counted only after a round")]
            self.zone[seat] = self.zone.get(seat, 0) + 1
            return [self.legal(e, seat, f"lays a card face down to be counted "
                               f"({self.zone[seat]})")]
        if area != "pile" or e.to.index is None:
            return [self.ignored(e, seat, f"a card at {e.to} has no meaning in Wig Out")]
        code = e.card
        place = str(e.to)
        ch = CHARACTERS.get(code)
        if ch is None:
            return [self._illegal(e, "unknown-card", f"take back the {code}: not a Wig Out card",
                                  place)]
        if self.stop_t is not None and e.t > self.stop_t + self.grace:
            return [self._late(e, place)]
        if not self.playing:
            return [self._illegal(e, "not-started", f"take back the {code}: the round has not "
                                  "started", place)]
        n = e.to.index
        pile = self.piles.get(n)
        if pile is not None:
            if ch != pile[0]:
                return [self._illegal(e, "wrong-character", f"take back the {code}: pile {n} is "
                                      f"character {pile[0]}", place)]
            pile[1] += 1
            self._played(seat, 1)
            return [self.legal(e, seat, f"plays the {code} on pile {n}", card=code, place=place)]
        out: list[Verdict] = []
        first = self.waiting.get(n)
        if first is not None and e.t > first[2] + self.window:
            out.extend(self._pile_expired(n, first[2] + self.window))
            self.cancel(f"pile:{n}")
            first = None
        if first is None and n in self.lone and self.lone[n][1] == ch:
            return out + self._played_on(e, n, seat, code, place)
        if first is not None:
            fseat, fch, ft, findex, fcode = first
            if ch != fch:
                return [self._illegal(e, "wrong-character", f"take back the {code}: the new pile "
                                      f"{n} is character {fch}", place)]
            if seat != fseat:
                return [self._illegal(e, "pile-not-open", f"take back the {code}: a new pile is "
                                      f"started by two matching cards from one hand, and pile {n} "
                                      f"has only {self.who(fseat)}'s first card", place)]
            del self.waiting[n]
            self.cancel(f"pile:{n}")
            self.piles[n] = [ch, 2]
            self._played(seat, 2)
            out.append(self._about(findex, ft, "legal", fseat, f"starts pile {n} with the {fcode}",
                                   code=fcode, place=place))
            out.append(self.legal(e, seat, f"adds the {code}: pile {n} is open", card=code,
                                  place=place))
            return out
        self.waiting[n] = (seat, ch, e.t, self.event_index, code)
        self.schedule(f"pile:{n}", e.t + self.window, n)
        out.append(self.info(e.t, seat, f"new pile {n}: add a matching card within "
                             f"{self.window:g} s", reason="pile-needs-two", card=code,
                             place=place))
        return out

    def _played(self, seat: int | None, n: int) -> None:
        if seat is not None:
            h = self.hands.get(seat)
            if h is not None:
                self.hands[seat] = h - n

    def _pile_expired(self, n: int, t: float) -> list[Verdict]:
        first = self.waiting.pop(n, None)
        if first is None:
            return []
        seat, _ch, ft, index, code = first
        place = f"pile:{n}"
        self.owe_take_back(place, code)
        self.lone[n] = first
        return [self._about(index, ft, "illegal", seat, f"take back the {code}: a new pile needs "
                            "two or more matching cards", code=code, place=place,
                            reason="pile-needs-two")]

    def _played_on(self, e: CardPlaced, n: int, seat: int | None, code: str,
                   place: str) -> list[Verdict]:
        """A matching card on a lone first card ruled illegal that still lies there: the table
        played on from it, so the pile is open (docs/games/wig-out.md: "The table played on")."""
        lseat, ch, _lt, _lindex, lcode = self.lone.pop(n)
        self.settle_take_back(place, lcode)
        self.piles[n] = [ch, 2]
        self._played(lseat, 1)
        self._played(seat, 1)
        return [self.legal(e, lseat, f"the table played on from the {lcode} on pile {n}: the "
                           f"call on it is withdrawn and pile {n} is open",
                           reason="played-on", card=lcode, place=place),
                self.legal(e, seat, f"plays the {code} on pile {n}", card=code, place=place)]

    def _about(self, index: int | None, t: float, ruling: str, seat: int | None, text: str,
               code: str, place: str, reason: str | None = None) -> Verdict:
        """A verdict about an earlier event (a new pile's first card, a call)."""
        saved = self.event_index
        self.event_index = index
        try:
            e = Event(t)
            if ruling == "legal":
                return self.legal(e, seat, text, card=code, place=place)
            return self.illegal(e, seat, reason or "", text, card=code, place=place)
        finally:
            self.event_index = saved

    def on_deadline(self, key: str, payload: Any, t: float) -> list[Verdict]:
        if key.startswith("pile:"):
            return self._pile_expired(int(payload), t)
        if key == "call" and self.call is not None and self.call_state == "checking":
            seat, ct, index = self.call
            left = self.hands.get(seat)
            if left == 0:
                return self._accept(Event(ct), seat, ct, index)
            if left is None or left < 0:
                self.call_state = "confirm"
                return [self._call_verdict(index, ct, "info", seat, "called \"Wig Out!\": the "
                                           "cards do not add up, confirm on the dashboard",
                                           "call-confirm")]
            return self._false_call(seat, ct, index, f"{left} card(s) should still be in "
                                    "your hand")
        return []

    def _illegal(self, e: CardPlaced, reason: str, text: str, place: str) -> Verdict:
        self.owe_take_back(place, e.card)
        return self.illegal(e, e.seat, reason, text, card=e.card, place=place)

    def _late(self, e: CardPlaced, place: str) -> Verdict:
        self.owe_take_back(place, e.card)
        return self.late(e, e.seat, f"take back the {e.card}: play had stopped", card=e.card,
                         place=place)

    def on_take_back(self, e: CardTakenBack) -> list[Verdict]:
        seat = e.seat
        if seat is not None and seat not in self._seats:
            return [self.ignored(e, seat, "is not a seat at this table")]
        place = str(e.at)
        if self.settle_take_back(place, e.card):
            n = e.at.index if e.at.area == "pile" else None
            if n in self.lone and self.lone[n][4] == e.card:
                del self.lone[n]
            return [self.legal(e, seat, f"took back the {e.card}", card=e.card, place=place)]
        if e.at.area == "pile" and e.at.index is not None and self.playing:
            pile = self.piles.get(e.at.index)
            if pile is not None and pile[1] > 0 and CHARACTERS.get(e.card) == pile[0]:
                pile[1] -= 1
                if not pile[1]:
                    del self.piles[e.at.index]
                if seat is not None and self.hands.get(seat) is not None:
                    self.hands[seat] = (self.hands[seat] or 0) + 1
                return [self.legal(e, seat, f"took the {e.card} back into the hand",
                                   card=e.card, place=place)]
        return [self.ignored(e, seat, f"no {e.card} to take back at {place}")]

    # --- "Wig Out!" ------------------------------------------------------------------------

    def on_press(self, e: PadPress) -> list[Verdict]:
        seat = e.seat
        if seat not in self._seats:
            return [self.ignored(e, seat, "is not a seat at this table")]
        if not self.playing:
            return [self.ignored(e, seat, "no round is going")]
        if self.call is not None:
            return [self.ignored(e, seat, f"{self.who(self.call[0])} already called \"Wig Out!\"")]
        self.call = (seat, e.t, self.event_index)
        self.stop_t = e.t
        if self.hands.get(seat) is None:
            self.call_state = "confirm"
            return [self.info(e.t, seat, "calls \"Wig Out!\": the table confirms on the dashboard",
                              reason="call-confirm")]
        self.call_state = "checking"
        self.schedule("call", e.t, None)
        return [self.info(e.t, seat, "calls \"Wig Out!\": play stops, counting the cards",
                          reason="call-pending")]

    def _call_verdict(self, index: int | None, t: float, ruling: str, seat: int, text: str,
                      reason: str | None, points: int = 0) -> Verdict:
        saved = self.event_index
        self.event_index = index
        try:
            e = Event(t)
            if ruling == "legal":
                return self.legal(e, seat, text, reason=reason)
            if ruling == "penalty":
                return self.penalty(PadPress(t, seat), seat, reason or "", text, points)
            return self.info(t, seat, text, reason=reason)
        finally:
            self.event_index = saved

    def _accept(self, e: Event, seat: int, t: float, index: int | None) -> list[Verdict]:
        out = [self._call_verdict(index, t, "legal", seat, "Wig Out! is good: the round is over",
                                  "wig-out")]
        saved = self.event_index
        out.extend(self._stop_play(Event(t), seat))
        self.event_index = saved
        return out

    def _false_call(self, seat: int, t: float, index: int | None, why: str) -> list[Verdict]:
        self.call = None
        self.call_state = ""
        self.stop_t = None
        v = self._call_verdict(index, t, "penalty", seat, f"false \"Wig Out!\": {why}; play on",
                               "false-call", self._penalty)
        self.penalties[seat] += self._penalty
        return [v]

    def status(self) -> dict[str, Any]:
        return {
            "playing": self.playing,
            "piles": {n: {"character": c, "cards": k} for n, (c, k) in sorted(self.piles.items())},
            "new_piles": {n: {"seat": p[0], "card": p[4]} for n, p in self.waiting.items()},
            "hands": dict(self.hands),
            "draw_pile": self.draw_pile,
            "call": None if self.call is None else {"seat": self.call[0], "state": self.call_state},
            "awaiting_counts": None if self.counts is None else
            [s for s in self.seat_numbers if s not in self.counts],
        }


def _pile_number(key: str) -> int | None:
    try:
        return int(key.split(":")[1])
    except (IndexError, ValueError):
        return None


GAME = WigOut
