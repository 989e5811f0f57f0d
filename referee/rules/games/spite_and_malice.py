"""Spite and Malice: shared build piles 1..13, a card stack to empty, store piles, WILD/SPITE.

Turn-based: the current seat plays to build piles from its hand, its UP card or the top of a
store pile, stores one card and ends its turn with its pad (or the dashboard). The referee judges
what reaches the table; hands are never seen. Conventions are in docs/games/spite-and-malice.md.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..events import (
    CardPlaced,
    CardRevealed,
    CardTakenBack,
    Deal,
    Event,
    ManualEntry,
    RoundStart,
    RoundStop,
    TurnEnd,
)
from ..game import Game
from ..options import Option
from ..verdicts import Verdict

WILD = 14  # the value a WILD card parses to; what it stands for comes from the pile it is on
STORE_PILES = 4
UNSEEN = "?"  # a build-pile card the camera did not see (under a card the table played on from)
WILD_CANNOT_BE = (1, 2, 7, 13)

_RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}}
_CODES: dict[str, int | None] = {}


def card_value(code: str) -> int | None:
    """1..13 or WILD for a Spite and Malice or standard card code; None: not a card of this game.

    >>> card_value("7B"), card_value("QS"), card_value("JK") == WILD, card_value("X")
    (7, 12, True, None)
    """
    v = _CODES.get(code, -1)
    if v != -1:
        return v
    value = _parse(code)
    if len(_CODES) < 10_000:
        _CODES[code] = value
    return value


def _parse(code: str) -> int | None:
    base = code.upper()
    if base in ("WILD", "WILDB", "JK"):
        return WILD
    if base.endswith("B") and base[:-1].isdigit():
        base = base[:-1]
    if base.isdigit():
        n = int(base)
        return n if 1 <= n <= 13 else None
    if len(base) >= 2 and base[-1] in "SHDC":
        return _RANKS.get(base[:-1])
    return None


def _name(v: int) -> str:
    return "WILD" if v == WILD else str(v)


class BuildCard:
    """One card on a build pile: what it is, what it counts as, who played it from where."""

    __slots__ = ("code", "wild", "seat", "source", "store", "turn")

    def __init__(self, code: str, wild: bool, seat: int, source: str, store: int, turn: int):
        self.code = code
        self.wild = wild
        self.seat = seat
        self.source = source  # "hand", "up" or "store"
        self.store = store  # store pile index when source == "store"
        self.turn = turn


class SpiteAndMalice(Game):
    name: ClassVar[str] = "spite-and-malice"
    title: ClassVar[str] = "Spite and Malice"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 6
    turn_based: ClassVar[bool] = True
    game_options: ClassVar[dict[str, Option]] = {
        "stack_size": Option(
            8, "cards dealt to each card stack, the UP card included (used when the deal does "
            "not count the stacks)", 1, 40,
        ),
        "games_to_win": Option(
            5, "the match goes to the first seat that wins this many games", 1, 99
        ),
    }
    manual_actions: ClassVar[dict[str, str]] = {
        "give_card": "after a 13: seat gave the top draw card to the seat in value (under their "
        "stack: stack +1)",
        "stack_count": "correct the face-down cards in seat's stack to value",
    }

    def __init__(self, seats: Any, options: dict[str, Any] | None = None) -> None:
        super().__init__(seats, options)
        self._seatset = frozenset(self.seat_numbers)
        self.active = False
        self.cur = 0
        self.turn_no = 0
        self.dealer: int | None = None
        self.up: dict[int, int | None] = {}
        self.up_code: dict[int, str] = {}
        self.stack: dict[int, int] = {}
        self.waiting_up: set[int] = set()
        self.stores: dict[int, list[list[int]]] = {}
        self.piles: dict[int, list[BuildCard]] = {}
        self.capped: set[int] = set()
        self.stored: int | None = None  # store pile used this turn
        self.built_t: float | None = None  # time of the last build-pile play this turn
        self.owed: dict[int, int] = {}  # 13s played whose top draw card is still to be given
        self.spites: list[dict[str, Any]] = []
        self.pending_back: list[tuple[str, str]] = []  # illegal cards to be taken back
        # build pile -> the card ruled off it last for skipping numbers, while it may lie there
        # (its code, value, seat): the table may play on from it ("The table played on")
        self.skipped: dict[int, tuple[str, int, int]] = {}

    # --- dealing ---------------------------------------------------------------------------

    def on_deal(self, e: Deal) -> list[Verdict]:
        if self.over:
            return [self.ignored(e, None, "the match is over; start a new match")]
        abandoned = self.active
        default_stack = int(self.opts["stack_size"]) - 1
        self.up, self.up_code, self.stack, self.stores = {}, {}, {}, {}
        self.waiting_up = set()
        self.owed = {s: 0 for s in self.seat_numbers}
        for s in self.seat_numbers:
            cards = e.layout.get(f"up:{s}", ())
            v = card_value(cards[-1]) if cards else None
            self.up[s] = v
            if v is not None:
                self.up_code[s] = cards[-1]
            else:
                self.waiting_up.add(s)
            self.stack[s] = e.counts.get(f"stack:{s}", default_stack)
            self.stores[s] = [[] for _ in range(STORE_PILES)]
        self.piles, self.capped, self.pending_back, self.spites = {}, set(), [], []
        self.skipped = {}
        self.stored, self.built_t = None, None
        self.dealer = e.dealer if e.dealer in self._seatset else None
        self.cur = self._first_seat()
        self.turn_no = 1
        self.round += 1
        self.active = True
        top = self.up[self.cur]
        why = f"highest UP card {_name(top)}" if top is not None else "no UP cards seen"
        note = " (the unfinished game is abandoned, unscored)" if abandoned else ""
        return [self.legal(e, None, f"game {self.round} dealt{note}; {self.who(self.cur)} goes "
                                    f"first ({why})")]

    def _first_seat(self) -> int:
        """Highest UP card; a tie goes to the tied seat closest to the dealer's left."""
        n = len(self.seat_numbers)
        start = self.dealer if self.dealer is not None else self.seat_numbers[-1]
        best, best_v = self.seat_numbers[0], -1
        for k in range(1, n + 1):
            s = (start - 1 + k) % n + 1
            u = self.up.get(s)
            v = 0 if u is None or u == WILD else u
            if v > best_v:
                best, best_v = s, v
        return best

    def on_round_start(self, e: RoundStart) -> list[Verdict]:
        if not self.active:
            return [self.ignored(e, e.seat, "deal first: the deal names who starts")]
        return [self.legal(e, self.cur, "your turn")]

    def on_round_stop(self, e: RoundStop) -> list[Verdict]:
        if not self.active:
            return [self.ignored(e, None, "no game in progress")]
        self.active = False
        return [self.info(e.t, None, "game stopped without a winner: it is not scored",
                          reason="stopped")]

    # --- cards -----------------------------------------------------------------------------

    def on_card(self, e: CardPlaced) -> list[Verdict]:
        if not self.active:
            return [self.ignored(e, e.seat, "no game in progress: deal first")]
        seat = e.seat
        if seat is None:
            src = e.source
            seat = src.seat if src is not None and src.area in ("up", "store", "hand") else self.cur
        if seat not in self._seatset:
            return [self.ignored(e, seat, f"there is no seat {seat} at this table")]
        v = card_value(e.card)
        area = e.to.area
        if v is None:
            return [self._bad(e, seat, "unknown-card",
                              f"take back the {e.card}: not a Spite and Malice card")]
        if area == "pile":
            return self._build(e, seat, v)
        if area == "store":
            return self._store(e, seat, v)
        if area == "discard":
            return self._discard(e, seat, v)
        return [self.ignored(e, seat, f"a {e.card} at {e.to} has no meaning in {self.title}")]

    def _bad(self, e: CardPlaced, seat: int, reason: str, text: str) -> Verdict:
        if len(self.pending_back) < 64:
            self.pending_back.append((e.card, str(e.to)))
        return self.illegal(e, seat, reason, text, card=e.card, place=str(e.to))

    def _source(self, e: CardPlaced, seat: int, v: int) -> tuple[str, int] | str:
        """Where a played card came from: ("up"|"store"|"hand", store index), or an error."""
        src = e.source
        if src is None or src.seat != seat:
            return ("hand", 0)
        if src.area == "up":
            if self.up.get(seat) == v:
                return ("up", 0)
            return ("hand", 0)
        if src.area == "store":
            k = src.index
            if k is None or not 1 <= k <= STORE_PILES:
                return ("hand", 0)
            pile = self.stores[seat][k - 1]
            if pile and pile[-1] == v:
                return ("store", k)
            if v in pile:
                return "store-under-top"
        return ("hand", 0)

    def _build(self, e: CardPlaced, seat: int, v: int) -> list[Verdict]:
        name = e.card
        if seat != self.cur:
            return [self._bad(e, seat, "not-your-turn",
                              f"take back the {name}: it is {self.who(self.cur)}'s turn")]
        if self.stored is not None:
            return [self._bad(e, seat, "after-store",
                              f"take back the {name}: you stored a card, your turn is over")]
        n = e.to.index
        if n is None:
            return [self.ignored(e, seat, f"a {name} on an unnumbered build pile")]
        src = self._source(e, seat, v)
        if isinstance(src, str):
            return [self._bad(e, seat, src, f"take back the {name}: only the top card of a "
                                            "store pile may be played")]
        out: list[Verdict] = []
        skipped = self.skipped.get(n)
        if skipped is not None and v != WILD and v == skipped[1] + 1:
            del self.skipped[n]
            out.append(self._played_on(e, n, *skipped))
        pile = self.piles.get(n)
        need = len(pile) + 1 if pile else 1
        if v == WILD:
            if pile and pile[-1].wild:
                return [self._bad(e, seat, "wild-on-wild",
                                  f"take back the WILD on pile {n}: not on another WILD")]
            if need in WILD_CANNOT_BE:
                what = "start a build pile" if need == 1 else f"be a {need}"
                return [self._bad(e, seat, "wild-value",
                                  f"take back the WILD on pile {n}: a WILD cannot {what}")]
        elif v != need:
            if v > need:
                self.skipped[n] = (name, v, seat)
            if need == 1:
                return [*out, self._bad(e, seat, "pile-needs-1",
                                        f"take back the {name}: a build pile starts with a 1")]
            return [*out, self._bad(e, seat, "wrong-number",
                                    f"take back the {name} on pile {n}: it needs a {need}")]
        kind, k = src
        if pile is None:
            pile = self.piles[n] = []
            self.capped.discard(n)
        pile.append(BuildCard(name, v == WILD, seat, kind, k, self.turn_no))
        self.skipped.pop(n, None)  # (a card ruled off it was taken back, seen or not)
        self.built_t = e.t if self.built_t is None or e.t > self.built_t else self.built_t
        shown = f"WILD as {need}" if v == WILD else name
        text = f"{shown} on pile {n}"
        if kind == "store":
            self.stores[seat][k - 1].pop()
        elif kind == "up":
            self.up[seat] = None
            self.up_code.pop(seat, None)
            if self.stack[seat] <= 0:
                if need == 13:
                    self._cap(n)
                won = self.legal(e, seat, f"{text}: the last card of the stack: wins game "
                                          f"{self.round}!", card=name, place=str(e.to))
                return [won, *self._win(e, seat)]
            self.stack[seat] -= 1
            self.waiting_up.add(seat)
            text += "; turn over your next UP card"
        if need == 13:
            self._cap(n)
            self.owed[seat] = self.owed.get(seat, 0) + 1
            text += (f"; the 13 caps pile {n}: clear it to the discard and give the top draw "
                     "card to a player")
        return [*out, self.legal(e, seat, text, card=name, place=str(e.to))]

    def _played_on(self, e: CardPlaced, n: int, code: str, v: int, seat: int) -> Verdict:
        """The call on a card ruled off pile n for skipping numbers is withdrawn: the next number
        landed on it, so the table played on from it (docs/games/spite-and-malice.md: "The table
        played on"). It joins the pile; the numbers it skipped count as cards not seen."""
        place = f"pile:{n}"
        if (code, place) in self.pending_back:
            self.pending_back.remove((code, place))
        pile = self.piles.setdefault(n, [])
        self.capped.discard(n)
        unseen = v - 1 - len(pile)
        pile.extend(BuildCard(UNSEEN, False, seat, "hand", 0, self.turn_no) for _ in range(unseen))
        pile.append(BuildCard(code, False, seat, "hand", 0, self.turn_no))  # (below 13: one follows)
        missed = ("" if not unseen else "; the card under it was not seen" if unseen == 1
                  else f"; the {unseen} cards under it were not seen")
        return self.legal(e, seat, f"the table played on from the {code} on pile {n}: the call "
                                   f"on it is withdrawn and it counts{missed}",
                          reason="played-on", card=code, place=place)

    def _cap(self, n: int) -> None:
        self.piles.pop(n, None)
        self.capped.add(n)

    def _win(self, e: Event, seat: int) -> list[Verdict]:
        self.active = False
        self.end_round({seat: 1})
        wins = sum(r[seat] for r in self.round_scores)
        if wins >= int(self.opts["games_to_win"]):
            self.over = True
            self.winner = seat
            return [self.info(e.t, seat, f"wins the match with {wins} game{'' if wins == 1 else 's'}", reason="match")]
        return []

    def _store(self, e: CardPlaced, seat: int, v: int) -> list[Verdict]:
        name = e.card
        if seat != self.cur:
            return [self._bad(e, seat, "not-your-turn",
                              f"take back the {name}: it is {self.who(self.cur)}'s turn")]
        if e.to.seat != seat:
            return [self._bad(e, seat, "not-your-store",
                              f"take back the {name}: store cards on your own store piles")]
        k = e.to.index
        if k is None:
            return [self.ignored(e, seat, f"a {name} on an unnumbered store pile")]
        if k > STORE_PILES:
            return [self._bad(e, seat, "fifth-store",
                              f"take back the {name}: at most {STORE_PILES} store piles")]
        if self.stored is not None:
            return [self._bad(e, seat, "one-store",
                              f"take back the {name}: only one card is stored per turn")]
        if v in (2, WILD, 1):
            why = {2: "a 2 is never stored", WILD: "a WILD is never stored",
                   1: "a 1 must be played to a build pile"}[v]
            reason = {2: "store-2", WILD: "store-wild", 1: "store-1"}[v]
            return [self._bad(e, seat, reason, f"take back the {name}: {why}")]
        src = e.source
        if src is not None and src.area in ("up", "store"):
            return [self._bad(e, seat, "store-from-hand",
                              f"take back the {name}: store a card from your hand")]
        self.stores[seat][k - 1].append(v)
        self.stored = k
        return [self.legal(e, seat, f"{name} stored on store pile {k}; end your turn",
                           card=name, place=str(e.to))]

    def _discard(self, e: CardPlaced, seat: int, v: int) -> list[Verdict]:
        name = e.card
        src = e.source
        if src is not None and src.area == "pile" and src.index in self.capped:
            return [self.legal(e, seat, f"capped pile {src.index} cleared to the discard")]
        if v == WILD:
            if src is not None and src.area in ("up", "store"):
                return [self._bad(e, seat, "spite-from-hand",
                                  "take back the WILD: a SPITE card is played from the hand")]
            if seat != self.cur and (self.built_t is None or e.t < self.built_t - self.grace):
                return [self._bad(e, seat, "spite-timing",
                                  "take back the SPITE card: out of turn it may only follow a "
                                  "card played to a build pile")]
            if len(self.spites) < 200:
                self.spites.append({"seat": seat, "t": e.t, "turn": self.cur})
            return [self.legal(e, seat, "SPITE card recorded: do what it says",
                               card=name, place="discard")]
        if seat != self.cur:
            return [self._bad(e, seat, "not-your-turn",
                              f"take back the {name}: it is {self.who(self.cur)}'s turn")]
        return [self.legal(e, seat, f"{name} discarded (a stuck hand: show it to the table)",
                           card=name, place="discard")]

    # --- what the camera sees after a play -------------------------------------------------

    def on_reveal(self, e: CardRevealed) -> list[Verdict]:
        if not self.active:
            return [self.ignored(e, e.seat, "no game in progress")]
        at = e.at
        seat = at.seat if at.area == "up" else None
        if seat not in self._seatset:
            return [self.ignored(e, e.seat, f"a {e.card} shown at {at} has no meaning here")]
        v = card_value(e.card)
        if v is None:
            return [self.ignored(e, seat, f"unknown card {e.card} shown as the UP card")]
        if self.up.get(seat) is not None:
            return [self.ignored(e, seat, f"the UP card {self.up_code.get(seat)} is still "
                                          "showing")]
        self.waiting_up.discard(seat)
        self.up[seat] = v
        self.up_code[seat] = e.card
        text = f"new UP card {e.card}"
        if v == 1:
            text += ": play it to a build pile this turn"
        return [self.legal(e, seat, text, card=e.card, place=str(at))]

    def on_take_back(self, e: CardTakenBack) -> list[Verdict]:
        if not self.active:
            return [self.ignored(e, e.seat, "no game in progress")]
        at = str(e.at)
        for i, (card, place) in enumerate(self.pending_back):
            if card == e.card and place == at:
                del self.pending_back[i]
                if e.at.index is not None and self.skipped.get(e.at.index, ("",))[0] == card:
                    del self.skipped[e.at.index]
                return [self.legal(e, e.seat, f"{e.card} taken back", card=e.card, place=at)]
        area, idx = e.at.area, e.at.index
        if area == "pile" and idx is not None:
            if idx in self.capped and idx not in self.piles:
                return [self.legal(e, e.seat, f"capped pile {idx} cleared")]
            pile = self.piles.get(idx)
            if pile and pile[-1].code == e.card and pile[-1].turn == self.turn_no:
                return [self._undo_build(e, idx, pile)]
        if (area == "store" and e.at.seat == self.cur and idx is not None
                and self.stored == idx and idx <= STORE_PILES):
            store = self.stores[self.cur][idx - 1]
            v = card_value(e.card)
            if store and store[-1] == v:
                store.pop()
                self.stored = None
                return [self.legal(e, self.cur, f"{e.card} taken back from store pile {idx}",
                                   card=e.card, place=at)]
        return [self.ignored(e, e.seat, f"taking back a {e.card} from {at} was not expected")]

    def _undo_build(self, e: CardTakenBack, n: int, pile: list[BuildCard]) -> Verdict:
        top = pile.pop()
        if not pile:
            del self.piles[n]
        seat = top.seat
        if top.source == "store":
            self.stores[seat][top.store - 1].append(WILD if top.wild else len(pile) + 1)
        elif top.source == "up" and self.up.get(seat) is None and seat in self.waiting_up:
            self.waiting_up.discard(seat)
            self.stack[seat] += 1
            self.up[seat] = WILD if top.wild else len(pile) + 1
            self.up_code[seat] = top.code
        return self.legal(e, seat, f"{top.code} taken back from pile {n}", card=top.code,
                          place=str(e.at))

    # --- turns -----------------------------------------------------------------------------

    def on_turn_end(self, e: TurnEnd) -> list[Verdict]:
        if not self.active:
            return [self.ignored(e, e.seat, "no game in progress")]
        seat = e.seat
        if seat not in self._seatset:
            return [self.ignored(e, seat, f"there is no seat {seat} at this table")]
        if seat != self.cur:
            return [self.illegal(e, seat, "not-your-turn",
                                 f"it is {self.who(self.cur)}'s turn, not yours", None)]
        for n, pile in self.piles.items():
            if pile[-1].wild:
                return [self.illegal(e, seat, "wild-on-top",
                                     f"a WILD is on top of pile {n}: cover it or take it back "
                                     "before ending your turn", None)]
        if self.up.get(seat) == 1:
            return [self.illegal(e, seat, "keep-1", "your UP card is a 1: play it to a build "
                                                    "pile before ending your turn", None)]
        note = "" if self.stored is not None else " (no card stored)"
        n = len(self.seat_numbers)
        self.cur = self.cur % n + 1
        self.turn_no += 1
        self.stored, self.built_t = None, None
        return [self.legal(e, seat, f"turn over{note}; {self.who(self.cur)}'s turn")]

    # --- dashboard -------------------------------------------------------------------------

    def on_manual(self, e: ManualEntry) -> list[Verdict]:
        if e.action == "give_card":
            return [self._give(e)]
        if e.action == "stack_count":
            s, v = e.seat, e.value
            if (not self.active or s not in self._seatset or isinstance(v, bool)
                    or not isinstance(v, int) or v < 0):
                return [self.ignored(e, s, "stack_count needs a seat and a count 0 or more, "
                                           "during a game")]
            self.stack[s] = v
            return [self.legal(e, s, f"stack corrected to {v} face-down cards")]
        return super().on_manual(e)

    def _give(self, e: ManualEntry) -> Verdict:
        to = e.value
        if not self.active:
            return self.ignored(e, e.seat, "no game in progress")
        if isinstance(to, bool) or not isinstance(to, int) or to not in self._seatset:
            return self.ignored(e, e.seat, "give_card needs value: the seat that got the card")
        giver = e.seat
        if giver is None or self.owed.get(giver, 0) <= 0:
            giver = next((s for s in self.seat_numbers if self.owed.get(s, 0) > 0), None)
        if giver is None:
            return self.ignored(e, e.seat, "no 13 was played: there is no card to give")
        self.owed[giver] -= 1
        self.stack[to] = self.stack.get(to, 0) + 1
        return self.legal(e, giver, f"gave the top draw card to {self.who(to)}: under their "
                                    f"stack ({self.stack[to]} face down)")

    def turn(self) -> int | None:
        return self.cur if self.active else None

    def status(self) -> dict[str, Any]:
        return {
            "game": self.round,
            "active": self.active,
            "turn": self.turn(),
            "piles": {
                str(n): {"count": len(p), "top": p[-1].code, "next": len(p) + 1}
                for n, p in sorted(self.piles.items())
            },
            "capped": sorted(self.capped),
            "up": {str(s): self.up_code.get(s) for s in self.seat_numbers},
            "stack": {str(s): self.stack.get(s, 0) for s in self.seat_numbers},
            "stores": {
                str(s): [list(p) for p in self.stores.get(s, [])] for s in self.seat_numbers
            },
            "stored_this_turn": self.stored,
            "gives_owed": {str(s): n for s, n in self.owed.items() if n},
            "spites": self.spites[-10:],
        }

    def standings(self) -> dict[str, Any]:
        out = super().standings()
        out["games_to_win"] = int(self.opts["games_to_win"])
        return out

    def force_legal(self, e: Event) -> list[Verdict] | None:
        """An overruled build-pile card: put it on the pile as the next number."""
        if not (isinstance(e, CardPlaced) and e.to.area == "pile" and e.to.index is not None
                and self.active):
            return None
        seat = e.seat if e.seat in self._seatset else self.cur
        pile = self.piles.setdefault(e.to.index, [])
        v = card_value(e.card)
        pile.append(BuildCard(e.card, v == WILD, seat, "hand", 0, self.turn_no))
        if len(pile) >= 13:
            self._cap(e.to.index)
        return [self.legal(e, seat, f"{e.card} on pile {e.to.index} (ruled legal)")]


GAME = SpiteAndMalice
