"""Slap Wacky: players race to build 4-card shape patterns and slap the ones they complete.

Cards land at ``pattern:G:P`` (G: a pattern group, numbered by the camera as groups appear;
P: position 1-4). The seat that placed the fourth unblocked card owns the slap; a slap (pad
press) wins the group's cards. Blocks race slaps on the events' times: a block counts only if it
landed at or before the owner's press minus the grace window. Conventions and the rulings this
module had to decide are in docs/games/slap-wacky.md.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..events import CardPlaced, CardTakenBack, Deal, ManualEntry, PadPress, RoundStart, RoundStop
from ..game import Game
from ..options import Option
from ..verdicts import Verdict

SHAPE, WILD, BLOCK = 0, 1, 2
POSITIONS = 4
PATTERNS = 6

# code -> (kind, pattern, position, points); built once, looked up per event.
CARDS: dict[str, tuple[int, int, int, int]] = {"WILD": (WILD, 0, 0, 0), "BLOCK": (BLOCK, 0, 0, -2)}
for _p in range(1, PATTERNS + 1):
    for _q in range(1, POSITIONS + 1):
        CARDS[f"P{_p}-{_q}W"] = (SHAPE, _p, _q, 1)
        CARDS[f"P{_p}-{_q}F"] = (SHAPE, _p, _q, 2)
# A standard deck (docs/games/slap-wacky.md): A..6 are patterns 1..6 "wacky" (+1), 7..Q are
# patterns 1..6 "face" (+2); the suit is the position (S=1, H=2, D=3, C=4); K is a BLOCK, JK a WILD.
_SUITS = {"S": 1, "H": 2, "D": 3, "C": 4}
for _s, _q in _SUITS.items():
    for _i, _r in enumerate(("A", "2", "3", "4", "5", "6"), start=1):
        CARDS[_r + _s] = (SHAPE, _i, _q, 1)
    for _i, _r in enumerate(("7", "8", "9", "10", "J", "Q"), start=1):
        CARDS[_r + _s] = (SHAPE, _i, _q, 2)
    CARDS["K" + _s] = (BLOCK, 0, 0, -2)
CARDS["JK"] = (WILD, 0, 0, 0)

# A card code the camera prints for a face-down card (a draw into a hand).
BACK = "?"


def card_name(code: str) -> str:
    info = CARDS.get(code)
    if info is None:
        return code
    if info[0] == SHAPE:
        return f"{code} (pattern {info[1]}, position {info[2]})"
    return "WILD" if info[0] == WILD else "BLOCK"


class Group:
    """One pattern group on the table: 4 position stacks of (code, kind, points, seat, t)."""

    __slots__ = ("number", "pattern", "stacks", "owner", "complete_t", "last_block", "slapper",
                 "press_t", "points", "collected")

    def __init__(self, number: int, pattern: int) -> None:
        self.number = number
        self.pattern = pattern
        self.stacks: list[list[tuple[str, int, int, int | None, float]]] = [[] for _ in range(4)]
        self.owner: int | None = None  # the seat that completed it (None: not complete/unknown)
        self.complete_t: float | None = None
        # The last block: (t, seat, position, owner before, complete_t before); cleared by any
        # later card on the group. Lets a press that was earlier than the block win the race.
        self.last_block: tuple[float, int | None, int, int | None, float | None] | None = None
        self.slapper: int | None = None
        self.press_t = 0.0
        self.points = 0
        self.collected = 0

    def top_kind(self, pos: int) -> int | None:
        stack = self.stacks[pos - 1]
        return stack[-1][1] if stack else None

    def visible(self, kind: int) -> int:
        n = 0
        for stack in self.stacks:
            if stack and stack[-1][1] == kind:
                n += 1
        return n

    def is_complete(self) -> bool:
        for stack in self.stacks:
            if not stack or stack[-1][1] == BLOCK:
                return False
        return True

    def score(self) -> int:
        return sum(c[2] for stack in self.stacks for c in stack)

    def cards(self) -> int:
        return sum(len(s) for s in self.stacks)

    def to_dict(self) -> dict[str, Any]:
        return {
            "group": self.number,
            "pattern": self.pattern,
            "positions": [s[-1][0] if s else None for s in self.stacks],
            "cards": self.cards(),
            "complete": self.is_complete(),
            "owner": self.owner,
            "slapped_by": self.slapper,
        }


class SlapWacky(Game):
    name = "slap-wacky"
    title = "Slap Wacky"
    min_seats = 2
    max_seats = 6
    turn_based = False
    game_options: ClassVar[dict[str, Option]] = {
        "rounds": Option(5, "best of this many rounds (3 or 5 in the rulebook)", 1, 15),
        "false_slap_penalty": Option(0, "points taken off for a wrong slap", 0, 50),
    }
    manual_actions: ClassVar[dict[str, str]] = {
        "confirm": "the round is over: the draw pile is empty and no one can play a card",
    }

    def __init__(self, seats: Any, options: dict[str, Any] | None = None) -> None:
        super().__init__(seats, options)
        self.playing = False
        self.round_over = False  # between a round's end and the next deal: cards are late
        self.groups: dict[int, Group] = {}  # active (not slapped) groups by number
        self.slapped: dict[int, Group] = {}  # slapped groups this round by number
        self.in_play: dict[int, int] = {}  # pattern -> active group number
        self.completed: dict[int, list[Group]] = {}  # seat -> groups it completed, in order
        self.won: dict[int, int] = {s: 0 for s in self.seat_numbers}
        self.pending_press: dict[str, tuple[int, float, int | None]] = {}
        self.draw_pile: int | None = None
        self.wins: dict[int, int] = {s: 0 for s in self.seat_numbers}
        self.round_winners: list[int | None] = []
        self._seats = frozenset(self.seat_numbers)
        self._penalty = -int(self.opts["false_slap_penalty"])

    # --- rounds ----------------------------------------------------------------------------

    def _reset_round(self) -> None:
        self.playing = False
        self.round_over = False
        self.groups = {}
        self.slapped = {}
        self.in_play = {}
        self.completed = {}
        self.won = {s: 0 for s in self.seat_numbers}
        self.owed_take_backs = {}
        self.pending_press = {}
        self.cancel_all()

    def on_deal(self, e: Deal) -> list[Verdict]:
        if self.over:
            return [self.ignored(e, None, "the match is over")]
        if self.playing:
            return [self.ignored(e, None, "a deal during a round: stop the round first")]
        self._reset_round()
        self.draw_pile = e.counts.get("draw")
        return [self.info(e.t, None, f"cards dealt for round {self.round + 1}")]

    def on_round_start(self, e: RoundStart) -> list[Verdict]:
        if self.over:
            return [self.ignored(e, e.seat, "the match is over")]
        if self.playing:
            return [self.ignored(e, e.seat, "the round is already going")]
        self._reset_round()
        self.playing = True
        self.round += 1
        return [self.info(e.t, e.seat, f"round {self.round}: go!")]

    def on_round_stop(self, e: RoundStop) -> list[Verdict]:
        return self._end_round(e, None)

    def on_manual(self, e: ManualEntry) -> list[Verdict]:
        if e.action == "confirm":
            if e.value is False:
                return [self.ignored(e, e.seat, "round end not confirmed: play goes on")]
            return self._end_round(e, e.seat)
        return super().on_manual(e)

    def _end_round(self, e: Any, seat: int | None) -> list[Verdict]:
        if not self.playing:
            return [self.ignored(e, seat, "no round is going")]
        index = self.event_index
        out = self.fire_due(float("inf"))  # presses still waiting for the camera are judged now
        self.event_index = index
        self.playing = False
        self.round_over = True
        self.cancel_all()
        scores = dict(self.won)
        self.end_round(scores)
        best = max(scores.values())
        leaders = [s for s, p in scores.items() if p == best]
        winner = leaders[0] if len(leaders) == 1 else None
        self.round_winners.append(winner)
        if winner is not None:
            self.wins[winner] += 1
        text = ", ".join(f"{self.who(s)} {p:+d}" for s, p in scores.items())
        who = self.who(winner) + " wins the round" if winner else "the round is drawn"
        out.append(self.info(e.t, seat, f"round {self.round} over: {text}; {who}",
                             reason="round-over"))
        self._check_match_over(e.t, out)
        return out

    def _check_match_over(self, t: float, out: list[Verdict]) -> None:
        rounds = int(self.opts["rounds"])
        need = rounds // 2 + 1
        best = max(self.wins.values())
        leaders = [s for s, w in self.wins.items() if w == best]
        if best >= need or (len(self.round_scores) >= rounds and len(leaders) == 1):
            self.over = True
            self.winner = leaders[0]
            out.append(self.info(t, self.winner, f"wins the match ({best} rounds)",
                                 reason="match-over"))

    def standings(self) -> dict[str, Any]:
        out = super().standings()
        out["wins"] = dict(self.wins)
        out["round_winners"] = list(self.round_winners)
        return out

    def status(self) -> dict[str, Any]:
        return {
            "playing": self.playing,
            "draw_pile": self.draw_pile,
            "groups": [g.to_dict() for g in self.groups.values()],
            "won_this_round": dict(self.won),
            "round_wins": dict(self.wins),
        }

    # --- cards -----------------------------------------------------------------------------

    def on_card(self, e: CardPlaced) -> list[Verdict]:
        seat = e.seat
        if seat is not None and seat not in self._seats:
            return [self.ignored(e, seat, "is not a seat at this table")]
        area = e.to.area
        if area == "hand":
            return self._draw(e)
        if area != "pattern":
            return [self.ignored(e, seat, f"a card at {e.to} has no meaning in Slap Wacky")]
        code = e.card
        info = CARDS.get(code)
        place = str(e.to)
        if info is None:
            return [self._illegal(e, "unknown-card", f"take back the {code}: not a Slap Wacky card",
                                  place)]
        if not self.playing:
            if self.round_over:
                return [self._late(e, place, "the round is over")]
            return [self._illegal(e, "not-started", f"take back the {card_name(code)}: "
                                  "no round is going", place)]
        gnum = e.to.seat or 0
        pos = e.to.index or 0
        if not 1 <= pos <= POSITIONS:
            return [self._illegal(e, "no-such-position", f"take back the {card_name(code)}: "
                                  "a pattern has positions 1 to 4", place)]
        kind = info[0]
        old = self.slapped.get(gnum)
        if old is not None and kind == BLOCK and (gnum not in self.groups or e.t <= old.press_t):
            return self._block_on_slapped(e, old, pos, place)
        group = self.groups.get(gnum)
        if group is None:
            return self._new_group(e, gnum, pos, info, place)
        top = group.top_kind(pos)
        if kind == BLOCK:
            if top is None:
                return [self._illegal(e, "block-on-empty", "take back the BLOCK: a block goes on "
                                      "top of a card, never in an empty space", place)]
            if top == BLOCK:
                return [self._illegal(e, "block-on-block", "take back the BLOCK: that card is "
                                      "already blocked", place)]
            if group.visible(BLOCK):
                return [self._illegal(e, "second-block", "take back the BLOCK: only one block "
                                      f"can show on pattern {group.pattern}", place)]
            owner, ctime = group.owner, group.complete_t
            self._push(group, pos, e, info)
            group.last_block = (e.t, seat, pos, owner, ctime)
            text = f"blocks position {pos} of pattern {group.pattern}"
            if owner is not None or ctime is not None:
                text += f" before {self.who(owner)}'s slap"
            return [self.legal(e, seat, text, card=code, place=place)]
        if kind == WILD:
            if top is not None and top != BLOCK:
                return [self._illegal(e, "position-taken", f"take back the WILD: position {pos} "
                                      f"of pattern {group.pattern} is taken", place)]
            if group.visible(WILD):
                return [self._illegal(e, "second-wild", "take back the WILD: only one wild can "
                                      f"show on pattern {group.pattern}", place)]
        else:
            if info[1] != group.pattern:
                return [self._illegal(e, "wrong-pattern", f"take back the {card_name(code)}: "
                                      f"this is pattern {group.pattern}", place)]
            if info[2] != pos:
                return [self._illegal(e, "wrong-position", f"take back the {card_name(code)}: "
                                      f"it goes in position {info[2]}", place)]
            if top is not None and top != BLOCK:
                return [self._illegal(e, "position-taken", f"take back the {card_name(code)}: "
                                      f"position {pos} is taken", place)]
        unblock = top == BLOCK
        self._push(group, pos, e, info)
        what = "unblocks" if unblock else "plays"
        out = [self.legal(e, seat, f"{what} {card_name(code)} on pattern {group.pattern}",
                          card=code, place=place)]
        self._after_change(e.t, group, seat, out)
        return out

    def _new_group(self, e: CardPlaced, gnum: int, pos: int, info: tuple[int, int, int, int],
                   place: str) -> list[Verdict]:
        kind, pattern, cpos, _pts = info
        code = e.card
        if kind == BLOCK:
            return [self._illegal(e, "block-on-empty", "take back the BLOCK: a block goes on top "
                                  "of a card, never in an empty space", place)]
        if kind == WILD:
            return [self._illegal(e, "start-with-shape", "take back the WILD: start a pattern "
                                  "with a shape card", place)]
        if pattern in self.in_play:
            return [self._illegal(e, "pattern-in-play", f"take back the {card_name(code)}: "
                                  f"pattern {pattern} is already in play", place)]
        if cpos != pos:
            return [self._illegal(e, "wrong-position", f"take back the {card_name(code)}: it "
                                  f"goes in position {cpos}", place)]
        group = Group(gnum, pattern)
        self.groups[gnum] = group
        self.in_play[pattern] = gnum
        self._push(group, pos, e, info)
        return [self.legal(e, e.seat, f"starts pattern {pattern} with {card_name(code)}",
                           card=code, place=place)]

    def _push(self, group: Group, pos: int, e: CardPlaced, info: tuple[int, int, int, int]) -> None:
        group.stacks[pos - 1].append((e.card, info[0], info[3], e.seat, e.t))
        group.last_block = None
        if info[0] == BLOCK:
            group.owner = None
            group.complete_t = None

    def _after_change(self, t: float, group: Group, seat: int | None, out: list[Verdict]) -> None:
        """After a legal non-block card: is the group complete now, and whose slap is it?"""
        if group.complete_t is not None or not group.is_complete():
            return
        group.owner = seat
        group.complete_t = t
        if seat is not None:
            self.completed.setdefault(seat, []).append(group)
        out.append(self.info(t, seat, f"completes pattern {group.pattern}: slap it!",
                             reason="complete"))
        # A press that reached us before the camera saw this card.
        for key, (pseat, pt, pidx) in list(self.pending_press.items()):
            if (seat is None or pseat == seat) and t <= pt + self.grace:
                del self.pending_press[key]
                self.cancel(key)
                out.extend(self._slap(group, pseat, pt, pidx))
                return

    def _block_on_slapped(self, e: CardPlaced, g: Group, pos: int, place: str) -> list[Verdict]:
        """A block for a group already slapped: before press - grace it overturns the slap."""
        seat = e.seat
        if e.t > g.press_t - self.grace:
            return [self._late(e, place, f"{self.who(g.slapper)} slapped pattern {g.pattern} first")]
        if g.top_kind(pos) in (None, BLOCK) or g.visible(BLOCK) or g.collected:
            return [self._illegal(e, "block-on-empty", "take back the BLOCK: nothing to block "
                                  "there", place)]
        # The block came first: the slap did not count. Undo it and put the group back.
        slapper = g.slapper
        if slapper is not None:
            self.won[slapper] -= g.points
        g.slapper = None
        g.points = 0
        del self.slapped[g.number]
        owner, ctime = g.owner, g.complete_t
        self._push(g, pos, e, CARDS[e.card])
        g.last_block = (e.t, seat, pos, owner, ctime)
        self.groups.setdefault(g.number, g)
        self.in_play.setdefault(g.pattern, g.number)
        return [
            self.legal(e, seat, f"blocks position {pos} of pattern {g.pattern} before the slap",
                       card=e.card, place=place),
            self.info(e.t, slapper, f"the slap on pattern {g.pattern} is cancelled: a block "
                      "landed before it; the cards stay on the table", reason="slap-overturned"),
        ]

    def _draw(self, e: CardPlaced) -> list[Verdict]:
        if self.draw_pile is not None:
            if self.draw_pile > 0:
                self.draw_pile -= 1
            if self.draw_pile == 0:
                return [self.legal(e, e.seat, "draws the last card: confirm the end on the "
                                   "dashboard when no one can play")]
        return [self.legal(e, e.seat, "draws a card")]

    def _illegal(self, e: CardPlaced, reason: str, text: str, place: str) -> Verdict:
        self.owe_take_back(place, e.card)
        return self.illegal(e, e.seat, reason, text, card=e.card, place=place)

    def _late(self, e: CardPlaced, place: str, why: str) -> Verdict:
        self.owe_take_back(place, e.card)
        return self.late(e, e.seat, f"take back the {card_name(e.card)}: {why}",
                         card=e.card, place=place)

    # --- take-backs ------------------------------------------------------------------------

    def on_take_back(self, e: CardTakenBack) -> list[Verdict]:
        seat = e.seat
        if seat is not None and seat not in self._seats:
            return [self.ignored(e, seat, "is not a seat at this table")]
        place = str(e.at)
        if self.settle_take_back(place, e.card):
            return [self.legal(e, seat, f"took back the {card_name(e.card)}", card=e.card,
                               place=place)]
        if e.at.area != "pattern":
            return [self.ignored(e, seat, f"no card to take back at {place}")]
        gnum, pos = e.at.seat or 0, e.at.index or 0
        g = self.slapped.get(gnum)
        if g is not None and g.cards() > g.collected:
            g.collected += 1
            return [self.legal(e, seat, f"collects the {card_name(e.card)} of pattern {g.pattern}",
                               card=e.card, place=place)]
        g = self.groups.get(gnum)
        if g is None or not 1 <= pos <= POSITIONS:
            return [self.ignored(e, seat, f"no card to take back at {place}")]
        stack = g.stacks[pos - 1]
        if not stack or stack[-1][0] != e.card:
            return [self.ignored(e, seat, f"the {e.card} is not on top at {place}")]
        # A legal card taken back: the position goes back to what lay under it.
        stack.pop()
        g.last_block = None
        if not g.cards():
            del self.groups[gnum]
            if self.in_play.get(g.pattern) == gnum:
                del self.in_play[g.pattern]
        elif g.complete_t is not None and not g.is_complete():
            g.owner = None
            g.complete_t = None
        return [self.legal(e, seat, f"took back the {card_name(e.card)}", card=e.card,
                           place=place)]

    # --- slaps -----------------------------------------------------------------------------

    def on_press(self, e: PadPress) -> list[Verdict]:
        seat = e.seat
        if seat not in self._seats:
            return [self.ignored(e, seat, "is not a seat at this table")]
        if not self.playing:
            return [self.ignored(e, seat, "no round is going")]
        found = self._find_slap(seat, e.t)
        if found is not None:
            group, late_block = found
            out: list[Verdict] = []
            if late_block:
                out.append(self._undo_block(e, group))
            return self._slap(group, seat, e.t, self.event_index) + out
        # The camera may not have reported the completing card yet: judge at the deadline.
        key = f"press:{seat}:{e.t!r}:{self.event_index}"
        self.pending_press[key] = (seat, e.t, self.event_index)
        self.schedule(key, e.t, None)
        return [self.info(e.t, seat, "slap: checking the table", reason="slap-pending")]

    def _find_slap(self, seat: int, t: float) -> tuple[Group, bool] | None:
        """The group ``seat`` completed most recently and may slap at ``t``.

        The bool says the group's last block landed after t - grace and so is late."""
        limit = t + self.grace
        best: tuple[Group, bool] | None = None
        best_t = -1.0
        for g in self.completed.get(seat, ()):
            if g.slapper is not None or self.groups.get(g.number) is not g:
                continue
            if g.owner == seat and g.complete_t is not None and g.complete_t <= limit:
                if g.complete_t >= best_t:
                    best, best_t = (g, False), g.complete_t
                continue
            lb = g.last_block
            if (lb is not None and lb[3] == seat and lb[4] is not None and lb[4] <= limit
                    and lb[0] > t - self.grace and lb[4] >= best_t):
                best, best_t = (g, True), lb[4]
        if best is None:
            # A group completed by a seat the camera could not name: the first press owns it.
            for g in self.groups.values():
                if g.owner is None and g.complete_t is not None and g.complete_t <= limit:
                    return g, False
        return best

    def _undo_block(self, e: PadPress, g: Group) -> Verdict:
        lb = g.last_block
        assert lb is not None
        bt, bseat, pos, owner, ctime = lb
        code = g.stacks[pos - 1].pop()[0]
        g.owner, g.complete_t, g.last_block = owner, ctime, None
        place = f"pattern:{g.number}:{pos}"
        self.owe_take_back(place, code)
        v = self.late(e, bseat, f"take back the BLOCK: {self.who(e.seat)} slapped pattern "
                      f"{g.pattern} first", card=code, place=place)
        return v

    def _slap(self, g: Group, seat: int, t: float, index: int | None) -> list[Verdict]:
        pts = g.score()
        g.slapper = seat
        g.press_t = t
        g.points = pts
        self.won[seat] += pts
        del self.groups[g.number]
        if self.in_play.get(g.pattern) == g.number:
            del self.in_play[g.pattern]
        self.slapped[g.number] = g
        return [self._at(index, self.legal, t, seat, f"slaps pattern {g.pattern} and wins "
                         f"{g.cards()} cards ({pts:+d} points)", reason="slap")]

    def _at(self, index: int | None, fn: Any, t: float, seat: int | None, text: str,
            **kw: Any) -> Verdict:
        """A verdict about the event at ``index`` (a press judged later, at its deadline)."""
        saved = self.event_index
        self.event_index = index
        try:
            return fn(PadPress(t, seat or 0), seat, text, **kw)  # type: ignore[no-any-return]
        finally:
            self.event_index = saved

    def on_deadline(self, key: str, payload: Any, t: float) -> list[Verdict]:
        pending = self.pending_press.pop(key, None)
        if pending is None:
            return []
        seat, pt, index = pending
        found = self._find_slap(seat, pt)
        if found is not None:
            out = []
            if found[1]:
                out.append(self._undo_block(PadPress(pt, seat), found[0]))
            return self._slap(found[0], seat, pt, index) + out
        reason, text = self._why_not(seat)
        saved = self.event_index
        self.event_index = index
        try:
            v = self.penalty(PadPress(pt, seat), seat, reason, text, self._penalty)
        finally:
            self.event_index = saved
        if v.points:
            self.won[seat] += v.points
        return [v]

    def _why_not(self, seat: int) -> tuple[str, str]:
        for g in self.groups.values():
            if g.complete_t is not None and g.owner is not None and g.owner != seat:
                return "slap-not-yours", (f"wrong slap: only {self.who(g.owner)} may slap "
                                          f"pattern {g.pattern}, they completed it")
        for g in self.completed.get(seat, ()):
            if self.groups.get(g.number) is g and not g.is_complete():
                return "slap-blocked", f"wrong slap: pattern {g.pattern} is blocked"
        return "slap-incomplete", "wrong slap: no pattern you completed is ready to slap"


GAME = SlapWacky
