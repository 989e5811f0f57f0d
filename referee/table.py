"""The table service: one clock, one judge, everything joined.

Sensors (the camera's tracker through :mod:`referee.observe`, the slap pads, the tilt sensor) and
the dashboard all hand events to :meth:`Table.submit`. It judges them with the rules core under
one lock, sounds the buzzer, writes the event and its verdicts to the match store, and only then
publishes them to the dashboard. A ticker applies :class:`Clock` events so that verdicts that come
from time passing (a WILD's window, Wonky's count) fire in live play exactly as in a replay.

The web layer sees this object through the small interface documented in ``web/protocol.py``.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from referee.rules import (
    Clock,
    Event,
    ManualEntry,
    Match,
    MatchHeader,
    PadPress,
    RoundStart,
    RoundStop,
    Seat,
    TurnEnd,
    Verdict,
    event_from_dict,
    find_game,
    game_names,
)
from referee.rules.errors import RefereeError
from referee.rules.log import event_line, header_line
from web.broadcast import Broadcaster, BroadcastSubscription

Clockfn = Callable[[], float]


class Buzzer(Protocol):
    def play(self, name: str) -> None: ...


class Store(Protocol):
    def start_match(self, header: dict[str, Any]) -> int: ...
    def append_event(self, match_id: int, seq: int, event: dict[str, Any]) -> None: ...
    def append_verdict(self, match_id: int, seq: int, verdict: dict[str, Any]) -> None: ...
    def set_scores(self, match_id: int, round_scores: list[dict[str, Any]], standings: dict[str, Any]) -> None: ...
    def finish_match(self, match_id: int, result: dict[str, Any]) -> None: ...
    def list_matches(self) -> list[dict[str, Any]]: ...
    def load_match(self, match_id: int) -> dict[str, Any]: ...
    def export_log(self, match_id: int) -> str: ...


class _NoBuzzer:
    def play(self, name: str) -> None:
        pass


def buzz_pattern(event: Event, verdicts: list[Verdict], round_over: bool) -> str | None:
    """Which buzzer pattern answers an event: one short pattern, the most important one."""
    if round_over:
        return "round_over"
    rulings = {v.ruling for v in verdicts}
    if "illegal" in rulings or "late" in rulings:
        return "illegal"
    if any(v.reason == "count" for v in verdicts):
        return "count"
    if isinstance(event, PadPress) and "legal" in rulings:
        return "call_accepted"
    if isinstance(event, TurnEnd) and "legal" in rulings:
        return "legal"
    return None


# What the dashboard may add by hand: what the camera (or a pad, the tilt sensor) missed.
ADDABLE = ("card", "reveal", "take_back", "block", "tower_fell", "press", "tilt")


def missed_event(data: Any, now: float) -> Event:
    """A table event the camera missed, entered on the dashboard in the table log's JSON form
    (docs/table-log.md), stamped now unless it says when."""
    if not isinstance(data, dict):
        raise RefereeError('add needs the event, like {"kind": "block", "colour": "green", '
                           '"size": "small"}')
    if data.get("kind") not in ADDABLE:
        raise RefereeError(f"add takes what the camera, a pad or the tilt sensor missed: one of "
                           f"{', '.join(ADDABLE)}; not {data.get('kind')!r}")
    return event_from_dict({"t": now, **data})


class Table:
    """The running referee. Thread-safe: submit() may be called from any sensor thread."""

    def __init__(
        self,
        store: Store | None = None,
        buzzer: Buzzer | None = None,
        clock: Clockfn = time.monotonic,
        recent: int = 20,
    ) -> None:
        self.store = store
        self.buzzer: Buzzer = buzzer or _NoBuzzer()
        self.clock = clock
        self.hub = Broadcaster(queue_size=2000)
        self.match: Match | None = None
        self.match_id: int | None = None
        self.state = "idle"
        self._lock = threading.RLock()
        self._recent: deque[dict[str, Any]] = deque(maxlen=recent)
        self._feed: deque[dict[str, Any]] = deque(maxlen=2000)
        self._frame: bytes | None = None
        self._t0 = 0.0  # the table clock when the match was set up: the dashboard's 0:00
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        self.log_lines: list[str] = []  # the table log of the current match, as written
        self.latencies: list[float] = []  # submit-to-buzzer seconds, for the benchmark

    # --- match lifecycle -------------------------------------------------------------------

    def setup(self, game: str, seats: list[dict[str, Any]], options: dict[str, Any] | None = None) -> None:
        cls = find_game(game)
        if not cls.min_seats <= len(seats) <= cls.max_seats:
            raise RefereeError(f"{cls.title} needs {cls.min_seats} to {cls.max_seats} seats, "
                               f"not {len(seats)}")
        seat_values = []
        for i, s in enumerate(seats, start=1):
            name = str(s.get("name") or f"Seat {i}").strip()[:24]
            colour = str(s.get("colour") or "").strip()[:16]
            seat_values.append(Seat(i, name, colour))
        header = MatchHeader(game, tuple(seat_values), dict(options or {}))
        match = Match(header)  # checks the options
        with self._lock:
            self.match = match
            self.match_id = self.store.start_match(header.to_dict()) if self.store else None
            self.state = "setup"
            self._recent.clear()
            self._feed.clear()
            self.log_lines = [header_line(header)]
            self._t0 = self.clock()
        self.hub.publish("state", self.snapshot())

    def start(self) -> None:
        with self._lock:
            if self.match is None:
                raise RefereeError("set up a match first (game, seats, options)")
            self.state = "running"
        self.hub.publish("state", self.snapshot())

    def pause(self) -> None:
        with self._lock:
            if self.state == "running":
                self.state = "paused"
        self.hub.publish("state", self.snapshot())

    def resume(self) -> None:
        with self._lock:
            if self.state == "paused":
                self.state = "running"
        self.hub.publish("state", self.snapshot())

    def stop(self) -> None:
        with self._lock:
            if self.match is None:
                return
            self.state = "finished" if self.match.game.over else "stopped"
            if self.store and self.match_id is not None:
                st = self.match.standings()
                self.store.finish_match(self.match_id, _jsonable(st))
        self.hub.publish("state", self.snapshot())

    # --- the spine ---------------------------------------------------------------------------

    def submit(self, event: Event) -> list[Verdict]:
        """Judge one event, buzz, store, then publish. Returns the verdicts."""
        start = time.perf_counter()
        with self._lock:
            match = self.match
            if match is None or self.state not in ("running", "setup"):
                return []
            if self.state == "setup" and not isinstance(event, ManualEntry):
                self.state = "running"
            rounds_before = len(match.game.round_scores)
            verdicts = match.apply(event)
            round_over = len(match.game.round_scores) > rounds_before
            pattern = buzz_pattern(event, verdicts, round_over)
            if pattern:
                self.buzzer.play(pattern)
            self.latencies.append(time.perf_counter() - start)
            seq = len(match.events) - 1
            event_dict = {"id": seq, **event.to_dict()}
            base = len(match.verdicts) - len(verdicts)
            verdict_dicts = [_verdict_dict(v, base + i) for i, v in enumerate(verdicts)]
            if self.store and self.match_id is not None:
                self.store.append_event(self.match_id, seq, event.to_dict())
                for v in verdicts:
                    self.store.append_verdict(self.match_id, seq, v.to_dict())
                if round_over or match.game.over:
                    st = match.standings()
                    self.store.set_scores(self.match_id, _jsonable(st["rounds"]), _jsonable(st))
            self.log_lines.append(event_line(event))
            if match.game.over and self.state == "running":
                self.state = "finished"
                if self.store and self.match_id is not None:
                    self.store.finish_match(self.match_id, _jsonable(match.standings()))
            if not isinstance(event, Clock):
                self._feed.append(event_dict)
            self._recent.extend(verdict_dicts)
        if not isinstance(event, Clock):
            self.hub.publish("event", event_dict)
        for vd in verdict_dicts:
            self.hub.publish("verdict", vd)
        if verdict_dicts or round_over:
            self.hub.publish("state", self.snapshot())
        return verdicts

    def tick(self) -> list[Verdict]:
        """Fire the verdicts whose deadline the clock has passed (call often, e.g. every 20 ms)."""
        with self._lock:
            if self.match is None or self.state != "running":
                return []
            event = self.match.clock_event(self.clock())
        return self.submit(event) if event is not None else []

    def start_ticker(self, period_s: float = 0.02) -> None:
        def loop() -> None:
            while not self._stop.wait(period_s):
                self.tick()

        self._ticker = threading.Thread(target=loop, name="referee-clock", daemon=True)
        self._ticker.start()

    def close(self) -> None:
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join(timeout=1)

    # --- the view the dashboard reads (web/protocol.py) -------------------------------------

    def set_frame(self, jpeg: bytes) -> None:
        self._frame = jpeg

    def frame_jpeg(self) -> bytes | None:
        return self._frame

    def subscribe(self) -> BroadcastSubscription:
        return self.hub.subscribe()

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            match = self.match
            if match is None:
                return {"match_id": None, "game": None, "state": self.state, "round": 0,
                        "turn": None, "direction": None, "seats": [], "recent": [], "options": {},
                        "winner": None, "clock": self.clock(), "title": None, "status": {}}
            game = match.game
            st = game.standings()
            last_round = st["rounds"][-1] if st["rounds"] else {}
            status = _jsonable(game.status())
            per_seat = seat_info(status)
            seats = [
                {"seat": s.number, "name": s.name, "colour": s.colour,
                 "score": st["totals"].get(s.number, 0),
                 "round_score": last_round.get(s.number, 0),
                 "info": per_seat.get(str(s.number), {})}
                for s in match.header.seats
            ]
            return {
                "match_id": self.match_id,
                "game": match.header.game,
                "title": game.title,
                "state": self.state,
                "round": game.round,
                "turn": game.turn(),
                "direction": _direction(status.get("direction")),
                "seats": seats,
                "recent": list(self._recent),
                "options": dict(game.opts),
                "winner": st.get("winner"),
                "rounds": _jsonable(st["rounds"]),
                "status": status,
                "clock": self.clock(),
                "t0": self._t0,
            }

    def events(self, since_id: int = 0, limit: int = 200) -> list[dict[str, Any]]:
        with self._lock:
            return [e for e in self._feed if e["id"] >= since_id][:limit]

    def games(self) -> list[dict[str, Any]]:
        return [find_game(n).describe() for n in game_names()]

    def command(self, action: str, **args: Any) -> dict[str, Any]:
        now = self.clock()
        if action == "start":
            self.start()
        elif action == "go":
            self.start()
            self.submit(RoundStart(now, args.get("seat")))
        elif action == "pause":
            self.pause()
        elif action == "resume":
            self.resume()
        elif action == "stop":
            if self.match is not None and self.state == "running":
                self.submit(RoundStop(now, str(args.get("reason", "stopped from the dashboard"))))
            self.stop()
        elif action == "correct":
            verdict_id = args.get("verdict_id")
            ruling = args.get("ruling")
            with self._lock:
                if self.match is None:
                    raise RefereeError("no match is running")
                verdicts = self.match.verdicts
                if not isinstance(verdict_id, int) or not 0 <= verdict_id < len(verdicts):
                    raise RefereeError(f"no verdict {verdict_id!r} to correct")
                target = verdicts[verdict_id].event
            if target is None:
                raise RefereeError("that verdict came from the clock, not from an event: "
                                   "correct the event that started it")
            if ruling not in ("legal", "illegal", "void"):
                raise RefereeError("ruling must be 'legal', 'illegal' or 'void'")
            value: dict[str, Any] = {"event": target}
            if ruling == "void":
                self.submit(ManualEntry(now, "void", None, value))
            else:
                self.submit(ManualEntry(now, "overrule", None, {**value, "ruling": ruling}))
        elif action == "add":
            self.submit(missed_event(args.get("event"), now))
        elif action == "manual":
            what = args.get("what")
            if not isinstance(what, str) or not what:
                raise RefereeError("a manual entry needs 'what' (e.g. hand_count)")
            seat = args.get("seat")
            if seat is not None and not isinstance(seat, int):
                raise RefereeError("'seat' must be a seat number")
            self.submit(ManualEntry(now, what, seat, args.get("value")))
        else:
            raise RefereeError(f"unknown command {action!r}; commands: start, go, pause, "
                               "resume, stop, correct, manual, add")
        return self.snapshot()

    def history(self) -> list[dict[str, Any]]:
        return self.store.list_matches() if self.store else []

    def match_record(self, match_id: int) -> dict[str, Any]:
        if not self.store:
            raise RefereeError("no match store is configured")
        rec = self.store.load_match(match_id)
        scores = rec.get("scores") or {}
        rounds = scores.get("rounds") if isinstance(scores, dict) else None
        rec.setdefault("rounds", [{"round": i + 1, "scores": r} for i, r in enumerate(rounds or [])])
        rec.setdefault("standings", scores.get("standings", scores) if isinstance(scores, dict) else {})
        return rec

    def export_log(self, match_id: int) -> str:
        if not self.store:
            raise RefereeError("no match store is configured")
        return self.store.export_log(match_id)


# Words for the per-seat counts games report in status(); others get their key, spaced out.
INFO_LABELS = {
    "hands": "in hand", "hand": "in hand", "stack": "stack", "up": "UP card",
    "won_this_round": "won this round", "round_wins": "rounds won", "reserve": "reserve",
    "main_left": "main cards left", "played": "played", "waste_top": "waste top",
}


def seat_info(status: Any) -> dict[str, dict[str, Any]]:
    """Per seat, the game's plain counts worth showing on a phone: {"1": {"in hand": 5}}."""
    out: dict[str, dict[str, Any]] = {}
    if not isinstance(status, dict):
        return out

    def put(seat: str, key: str, value: Any) -> None:
        if isinstance(value, bool) or value is None or not isinstance(value, int | str):
            return
        out.setdefault(seat, {})[INFO_LABELS.get(key, key.replace("_", " "))] = value

    seats = status.get("seats")
    if isinstance(seats, dict):
        for seat, values in seats.items():
            if isinstance(values, dict):
                for key, value in values.items():
                    put(str(seat), key, value)
    for key, values in status.items():
        if key != "seats" and isinstance(values, dict) and values and all(
                str(k).isdigit() for k in values):
            scalars = all(v is None or isinstance(v, int | str) and not isinstance(v, bool)
                          for v in values.values())
            if scalars and key != "piles":
                for seat, value in values.items():
                    put(str(seat), key, value)
    return out


def _direction(value: Any) -> int | None:
    """The play direction as the dashboard wants it: 1 clockwise, -1 anticlockwise."""
    if value in (1, -1):
        return int(value)
    if isinstance(value, str):
        return -1 if "anti" in value or "counter" in value else 1
    return None


def _verdict_dict(v: Verdict, verdict_id: int) -> dict[str, Any]:
    d = v.to_dict()
    d["id"] = verdict_id
    d["event_id"] = v.event
    return d


def _jsonable(value: Any) -> Any:
    """Int dict keys to strings, tuples to lists: what JSON and SQLite JSON columns hold."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value
