"""Wonky: play a card to the discard, add the matching block to the tower, survive a count of 3.

Turn-based: the referee keeps the turn order and direction (Pass, Reverse, combo cards), checks
each block the camera sees against the card played, counts 1-2-3 on the buzzer once the new top
block is still, and charges a fall (tilt sensor or camera) to the player whose turn it is.
Card codes and conventions are in docs/games/wonky.md.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..errors import OptionError
from ..events import (
    BlockAdded,
    CardPlaced,
    CardTakenBack,
    Deal,
    Event,
    ManualEntry,
    RoundStart,
    RoundStop,
    Tilt,
    TowerFell,
    TurnEnd,
)
from ..game import Game
from ..options import Option
from ..verdicts import LEGAL, Verdict

SIZES = ("small", "medium", "large")
SIZE_LETTERS = "SML"
ANY = None

# Card kinds
BLOCK, PASS, REVERSE, COMBO_DRAW, COMBO_REVERSE = "block", "pass", "reverse", "draw", "creverse"
ACTIONS = (PASS, REVERSE)
_COUNT_KEYS = ("count1", "count2", "count3")


class WonkyCard:
    """A parsed card: its kind and, for cards that add a block, the colour and size (None: any)."""

    __slots__ = ("kind", "colour", "size")

    def __init__(self, kind: str, colour: int | None = None, size: int | None = None) -> None:
        self.kind = kind
        self.colour = colour
        self.size = size


class Wonky(Game):
    name: ClassVar[str] = "wonky"
    title: ClassVar[str] = "Wonky"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 6
    turn_based: ClassVar[bool] = True
    game_options: ClassVar[dict[str, Option]] = {
        "colours": Option(
            "red,green,blue", "the three block colours, as the camera names them; card codes "
            "use their first letters"
        ),
        "hand_size": Option(7, "cards dealt to each player (when the deal does not count "
                               "hands)", 1, 20),
        "count_s": Option(1.0, "seconds between the buzzer's counts 1, 2, 3", 0.2, 5.0),
        "tilt_min": Option(
            0.0, "a tilt smaller than this is a shake, not a fall (0: every tilt is a fall)", 0,
            100,
        ),
        "games_to_win": Option(5, "the match goes to the first seat that wins this many games",
                               1, 99),
    }
    manual_actions: ClassVar[dict[str, str]] = {
        "draw": "seat drew value cards (default 1) from the deck",
        "hand_count": "correct the number of cards in seat's hand to value",
    }

    def __init__(self, seats: Any, options: dict[str, Any] | None = None) -> None:
        super().__init__(seats, options)
        names = [c.strip().lower() for c in str(self.opts["colours"]).split(",")]
        letters = [c[:1].upper() for c in names]
        if len(names) != 3 or len(set(letters)) != 3 or "X" in letters or "" in letters:
            raise OptionError(
                f"option 'colours' must name three colours with different first letters (not "
                f"X), like 'red,green,blue'; not {self.opts['colours']!r}"
            )
        self.colour_names = tuple(names)
        self._letters = letters
        self._cards: dict[str, WonkyCard | None] = {}
        self._blocks: dict[tuple[str, str], tuple[int, int] | None] = {}
        self._seatset = frozenset(self.seat_numbers)
        self.count_s = float(self.opts["count_s"])
        self.tilt_min = float(self.opts["tilt_min"])
        self.active = False
        self.cur = 0
        self.direction = 1
        self.hands: dict[int, int] = {}
        self.tower: list[tuple[int, int]] = []
        self.phase = "card"  # "card": waiting for a card; "block": for its block; "count"
        self.play: WonkyCard | None = None
        self.play_code = ""
        self.after_fall = False
        self.fall_t = -1.0
        self.count_end = 0.0
        self.count_id = 0
        self.played_any = False
        self.pending_back: list[str] = []

    # --- codes -----------------------------------------------------------------------------

    def card(self, code: str) -> WonkyCard | None:
        """Parse a Wonky card code once (see docs/games/wonky.md); None: not a Wonky card."""
        if code in self._cards:
            return self._cards[code]
        c = code.upper().replace(" ", "")
        out: WonkyCard | None = None
        if c == "PASS":
            out = WonkyCard(PASS)
        elif c in ("REVERSE", "REV"):
            out = WonkyCard(REVERSE)
        elif c in ("XX+DRAW", "ANY+DRAW", "XX-DRAW"):  # XX-DRAW: the printed deck's code
            out = WonkyCard(COMBO_DRAW)
        elif c in ("XX+REVERSE", "ANY+REVERSE", "XX+REV", "ANY+REV", "XX-REV"):
            out = WonkyCard(COMBO_REVERSE)
        elif c in ("ANY", "XX"):
            out = WonkyCard(BLOCK)
        elif len(c) == 2 and (c[0] in self._letters or c[0] == "X") and c[1] in "SMLX":
            colour = None if c[0] == "X" else self._letters.index(c[0])
            size = None if c[1] == "X" else SIZE_LETTERS.index(c[1])
            out = WonkyCard(BLOCK, colour, size)
        if len(self._cards) < 10_000:
            self._cards[code] = out
        return out

    def block(self, colour: str, size: str) -> tuple[int, int] | None:
        """(colour index, size index) of a block as the camera names it; None: unreadable."""
        key = (colour, size)
        if key in self._blocks:
            return self._blocks[key]
        col, sz = colour.strip().lower(), size.strip().lower()
        ci = next((i for i, n in enumerate(self.colour_names)
                   if col == n or col.upper() == self._letters[i]), None)
        si = next((i for i, n in enumerate(SIZES) if sz == n or sz == n[0]), None)
        out = None if ci is None or si is None else (ci, si)
        if len(self._blocks) < 10_000:
            self._blocks[key] = out
        return out

    def describe_block(self, colour: int | None, size: int | None) -> str:
        if colour is None and size is None:
            return "any"
        c = "any-colour" if colour is None else self.colour_names[colour]
        s = "any-size" if size is None else SIZES[size]
        return f"{s} {c}"

    # --- rounds ----------------------------------------------------------------------------

    def on_deal(self, e: Deal) -> list[Verdict]:
        if self.over:
            return [self.ignored(e, None, "the match is over; start a new match")]
        abandoned = self.active
        self.cancel_all()
        size = int(self.opts["hand_size"])
        self.hands = {s: e.counts.get(f"hand:{s}", size) for s in self.seat_numbers}
        n = len(self.seat_numbers)
        dealer = e.dealer if e.dealer in self._seatset else None
        self.cur = dealer % n + 1 if dealer is not None else self.seat_numbers[0]
        self.direction = 1
        self.tower = []
        self.phase, self.play, self.play_code = "card", None, ""
        self.after_fall, self.fall_t, self.played_any = False, -1.0, False
        self.pending_back = []
        self.round += 1
        self.active = True
        note = " (the unfinished game is abandoned, unscored)" if abandoned else ""
        return [self.legal(e, None, f"game {self.round} dealt{note}; {self.who(self.cur)} goes "
                                    "first unless the dashboard names the tallest player")]

    def on_round_start(self, e: RoundStart) -> list[Verdict]:
        if not self.active:
            return [self.ignored(e, e.seat, "deal first")]
        if e.seat is not None and not self.played_any:
            if e.seat not in self._seatset:
                return [self.ignored(e, e.seat, f"there is no seat {e.seat} at this table")]
            self.cur = e.seat
        return [self.legal(e, self.cur, "your turn: play a card")]

    def on_round_stop(self, e: RoundStop) -> list[Verdict]:
        if not self.active:
            return [self.ignored(e, None, "no game in progress")]
        self.active = False
        self.cancel_all()
        return [self.info(e.t, None, "game stopped without a winner: it is not scored",
                          reason="stopped")]

    def _next(self) -> int:
        n = len(self.seat_numbers)
        return (self.cur - 1 + self.direction) % n + 1

    def _catch_up(self, e: Event) -> list[Verdict]:
        """An event after the count's end: the count finished first (decided on event times)."""
        if self.phase != "count" or e.t < self.count_end:
            return []
        index = self.event_index
        out = self.fire_due(e.t)
        self.event_index = index
        return out

    # --- cards -----------------------------------------------------------------------------

    def on_card(self, e: CardPlaced) -> list[Verdict]:
        if not self.active:
            return [self.ignored(e, e.seat, "no game in progress: deal first")]
        pre = self._catch_up(e)
        seat = e.seat if e.seat is not None else self.cur
        if seat not in self._seatset:
            return [*pre, self.ignored(e, seat, f"there is no seat {seat} at this table")]
        if e.to.area != "discard":
            return [*pre, self.ignored(e, seat, f"a {e.card} at {e.to}: Wonky cards are played "
                                                "to the discard pile")]
        return pre + [self._play(e, seat)]

    def _bad(self, e: CardPlaced, seat: int, reason: str, text: str) -> Verdict:
        if len(self.pending_back) < 64:
            self.pending_back.append(e.card)
        return self.illegal(e, seat, reason, text, card=e.card, place="discard")

    def _play(self, e: CardPlaced, seat: int) -> Verdict:
        code = e.card
        c = self.card(code)
        if c is None:
            return self._bad(e, seat, "unknown-card", f"take back the {code}: not a Wonky card")
        if seat != self.cur:
            return self._bad(e, seat, "not-your-turn",
                             f"take back the {code}: it is {self.who(self.cur)}'s turn")
        if self.phase == "block":
            return self._bad(e, seat, "one-card", f"take back the {code}: add the block for "
                                                  f"your {self.play_code} first")
        if self.phase == "count":
            return self._bad(e, seat, "count-running",
                             f"take back the {code}: wait for the count of three")
        hand = self.hands.get(seat, 0)
        if c.kind in ACTIONS:
            if self.after_fall:
                return self._bad(e, seat, "start-tower", f"take back the {code}: after a fall, "
                                                         "play a card that starts a new tower")
            if hand <= 1:
                return self._bad(e, seat, "last-card-action", f"take back the {code}: the "
                                 "last card cannot be an action card")
            self.hands[seat] = hand - 1
            self.played_any = True
            if c.kind == REVERSE:
                self.direction = -self.direction
            self.cur = self._next()
            what = "pass" if c.kind == PASS else "reverse: play changes direction"
            return self.legal(e, seat, f"{what}; {self.who(self.cur)}'s turn", card=code,
                              place="discard")
        if not self._free(c.colour, c.size):
            return self._bad(e, seat, "no-free-block", f"take back the {code}: no "
                             f"{self.describe_block(c.colour, c.size)} block is free")
        self.hands[seat] = max(0, hand - 1)
        self.played_any = True
        self.phase, self.play, self.play_code = "block", c, code
        desc = self.describe_block(c.colour, c.size)
        return self.legal(e, seat, f"{code}: add {'an' if desc[0] in 'aeiou' else 'a'} {desc} "
                                   "block to the tower", card=code, place="discard")

    def _free(self, colour: int | None, size: int | None) -> bool:
        tower = self.tower
        for ci in range(3):
            if colour is not None and ci != colour:
                continue
            for si in range(3):
                if (size is None or si == size) and (ci, si) not in tower:
                    return True
        return False

    def on_take_back(self, e: CardTakenBack) -> list[Verdict]:
        if not self.active:
            return [self.ignored(e, e.seat, "no game in progress")]
        if e.at.area == "discard":
            if e.card in self.pending_back:
                self.pending_back.remove(e.card)
                return [self.legal(e, e.seat, f"{e.card} taken back", card=e.card,
                                   place="discard")]
            if self.phase == "block" and e.card == self.play_code:
                self.hands[self.cur] = self.hands.get(self.cur, 0) + 1
                self.phase, self.play, self.play_code = "card", None, ""
                return [self.legal(e, self.cur, f"{e.card} taken back: play a card",
                                   card=e.card, place="discard")]
        return [self.ignored(e, e.seat, f"taking back a {e.card} from {e.at} was not expected")]

    # --- blocks and the count --------------------------------------------------------------

    def on_block(self, e: BlockAdded) -> list[Verdict]:
        if not self.active:
            return [self.ignored(e, e.seat, "no game in progress")]
        pre = self._catch_up(e)
        seat = e.seat if e.seat is not None else self.cur
        b = self.block(e.colour, e.size)
        if b is None:
            return [*pre, self.ignored(e, seat, f"unreadable block ({e.colour}, {e.size})")]
        desc = self.describe_block(*b)
        if seat != self.cur:
            return [*pre, self.illegal(e, seat, "not-your-turn", f"take the {desc} block off: "
                                       f"it is {self.who(self.cur)}'s turn")]
        if self.phase == "card":
            if self.after_fall and e.t <= self.fall_t + self.grace:
                return [*pre, self.ignored(e, seat, f"the {desc} block fell with the tower")]
            return [*pre, self.illegal(e, seat, "card-first",
                                       f"take the {desc} block off: play a card first")]
        if self.phase == "count":
            return [*pre, self.illegal(e, seat, "one-block",
                                       f"take the {desc} block off: one block per card")]
        c = self.play
        assert c is not None
        if b in self.tower:
            return [*pre, self.illegal(e, seat, "block-in-tower",
                                       f"the {desc} block is already in the tower")]
        if (c.colour is not None and c.colour != b[0]) or (c.size is not None and c.size != b[1]):
            return [*pre, self.illegal(e, seat, "block-mismatch", f"take the {desc} block off: "
                                       f"your {self.play_code} needs a "
                                       f"{self.describe_block(c.colour, c.size)} block")]
        self.tower.append(b)
        self.phase = "count"
        self.count_id += 1
        step = self.count_s
        for k, key in enumerate(_COUNT_KEYS, start=1):
            self.schedule(key, e.t + k * step, self.count_id)
        self.count_end = e.t + 3 * step
        return [*pre, self.legal(e, seat, f"{desc} block on the tower ({len(self.tower)} "
                                          "blocks): count to three")]

    def on_deadline(self, key: str, payload: Any, t: float) -> list[Verdict]:
        if payload != self.count_id or self.phase != "count" or not self.active:
            return []
        seat = self.cur
        if key == "count1":
            return [self.info(t, seat, "1", reason="count")]
        if key == "count2":
            return [self.info(t, seat, "2", reason="count")]
        out = [self.info(t, seat, "3", reason="count"),
               self._verdict(t, LEGAL, seat, f"tower stands ({len(self.tower)} blocks)")]
        return out + self._stood(t)

    def _stood(self, t: float) -> list[Verdict]:
        """The count is over and the tower stands: wins, combo actions, the next turn."""
        seat, c = self.cur, self.play
        self.phase, self.play, self.play_code, self.after_fall = "card", None, "", False
        if len(self.tower) >= 9:
            return self._win(t, seat, "the ninth block stands")
        if self.hands.get(seat, 0) <= 0:
            return self._win(t, seat, "the last card is played")
        text = ""
        if c is not None and c.kind == COMBO_REVERSE:
            self.direction = -self.direction
            text = "play changes direction; "
        self.cur = self._next()
        if c is not None and c.kind == COMBO_DRAW:
            self.hands[self.cur] = self.hands.get(self.cur, 0) + 1
            text += f"{self.who(self.cur)} draws a card; "
        return [self.info(t, self.cur, f"{text}your turn", reason="turn")]

    def _win(self, t: float, seat: int, why: str) -> list[Verdict]:
        self.active = False
        self.cancel_all()
        self.end_round({seat: 1})
        wins = sum(r[seat] for r in self.round_scores)
        out = [self.info(t, seat, f"{why}: wins game {self.round}", reason="win")]
        if wins >= int(self.opts["games_to_win"]):
            self.over = True
            self.winner = seat
            out.append(self.info(t, seat, f"wins the match with {wins} game{'' if wins == 1 else 's'}", reason="match"))
        return out

    # --- falls -----------------------------------------------------------------------------

    def on_tilt(self, e: Tilt) -> list[Verdict]:
        if not self.active:
            return [self.ignored(e, None, "no game in progress")]
        if e.magnitude is not None and e.magnitude < self.tilt_min:
            return [self.ignored(e, self.cur, "the tower shook but stands")]
        return self._fall(e)

    def on_tower_fell(self, e: TowerFell) -> list[Verdict]:
        if not self.active:
            return [self.ignored(e, None, "no game in progress")]
        if e.blocks_left >= len(self.tower) and self.tower:
            return [self.ignored(e, self.cur, "no block fell")]
        return self._fall(e)

    def _fall(self, e: Event) -> list[Verdict]:
        pre = self._catch_up(e)
        if not self.active:
            return [*pre, self.ignored(e, None, "the game is over")]
        seat = self.cur
        if not self.tower:
            return [*pre, self.ignored(e, seat, "no tower is standing")]
        for key in _COUNT_KEYS:
            self.cancel(key)
        self.tower = []
        self.hands[seat] = self.hands.get(seat, 0) + 3
        self.phase, self.play, self.play_code = "card", None, ""
        self.after_fall = True
        self.fall_t = e.t
        return [*pre, self.info(e.t, seat, "the tower fell: draw 3 cards, then play another "
                                           "card and start a new tower", reason="fall")]

    # --- turns and the dashboard -----------------------------------------------------------

    def on_turn_end(self, e: TurnEnd) -> list[Verdict]:
        return [self.ignored(e, e.seat, "Wonky turns end by themselves after the count")]

    def on_manual(self, e: ManualEntry) -> list[Verdict]:
        if e.action not in ("draw", "hand_count"):
            return super().on_manual(e)
        seat, v = e.seat, e.value
        if not self.active or seat not in self._seatset:
            return [self.ignored(e, seat, f"{e.action} needs a seat, during a game")]
        if e.action == "draw":
            if v is None:
                v = 1
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 54:
                return [self.ignored(e, seat, "draw needs value: how many cards (1 or more)")]
            self.hands[seat] = self.hands.get(seat, 0) + v
            return [self.legal(e, seat, f"drew {v}: {self.hands[seat]} cards in hand")]
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 54:
            return [self.ignored(e, seat, "hand_count needs value: a count 0 or more")]
        self.hands[seat] = v
        return [self.legal(e, seat, f"hand corrected to {v} cards")]

    def turn(self) -> int | None:
        return self.cur if self.active else None

    def status(self) -> dict[str, Any]:
        return {
            "game": self.round,
            "active": self.active,
            "turn": self.turn(),
            "direction": "clockwise" if self.direction == 1 else "counterclockwise",
            "phase": self.phase,
            "card": self.play_code or None,
            "tower": [{"colour": self.colour_names[c], "size": SIZES[s]} for c, s in self.tower],
            "hands": {str(s): n for s, n in self.hands.items()},
            "after_fall": self.after_fall,
        }

    def standings(self) -> dict[str, Any]:
        out = super().standings()
        out["games_to_win"] = int(self.opts["games_to_win"])
        return out


GAME = Wonky
