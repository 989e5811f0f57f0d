"""FakeTable: an in-memory TableView for tests and for previewing the dashboard without a table.

`simulate_step()` advances a made-up match (cards played, verdicts, scores, rounds) so pages and
the SSE stream have something live to show. Run `python -m web.fake` for a standalone preview.
"""

from __future__ import annotations

import copy
import io
import json
import random
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from .broadcast import Broadcaster, BroadcastSubscription

COLOURS: tuple[str, ...] = ("blue", "orange", "green", "yellow", "purple", "red", "black", "white")
CARD_COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow")

GAMES: list[dict[str, Any]] = [
    {
        "name": "wackee-six",
        "title": "Wackee Six",
        "seats": [2, 6],
        "options": {
            "target_score": {"default": 100, "help": "points that win the match"},
            "false_call_penalty": {"default": 0, "help": "points lost for a false call"},
            "grace_s": {"default": 0.15, "help": "camera grace window, seconds"},
        },
    },
    {
        "name": "slap-wacky",
        "title": "Slap Wacky",
        "seats": [2, 6],
        "options": {
            "wrong_slap_penalty": {"default": 0, "help": "points lost for a wrong slap"},
            "grace_s": {"default": 0.15, "help": "camera grace window, seconds"},
        },
    },
    {
        "name": "wig-out",
        "title": "Wig Out",
        "seats": [2, 6],
        "options": {
            "rounds": {"default": 5, "help": "rounds in a match"},
            "grace_s": {"default": 0.15, "help": "camera grace window, seconds"},
        },
    },
    {
        "name": "spite-and-malice",
        "title": "Spite and Malice",
        "seats": [2, 4],
        "options": {
            "pay_off_size": {"default": 20, "help": "cards in each pay-off pile"},
            "teams": {"default": False, "help": "four players in two partnerships"},
        },
    },
    {
        "name": "wonky",
        "title": "Wonky",
        "seats": [2, 4],
        "options": {
            "tilt_sensitivity": {"default": 0.5, "help": "tower tilt that counts as a fall, 0-1"},
            "house_rule": {"default": "", "help": "a note shown on the scoreboard"},
        },
    },
]


class FakeTable:
    """An in-memory table implementing web.protocol.TableView."""

    _match_id: int | None
    _game: str | None
    _state: str
    _round: int
    _turn: int | None
    _direction: int | None
    _seats: list[dict[str, Any]]
    _options: dict[str, Any]
    _winner: int | None
    _rounds: list[dict[str, Any]]
    _steps: int
    _started: float

    def __init__(
        self,
        seed: int = 0,
        demo: bool = True,
        queue_size: int = 256,
        clock: Callable[[], float] = time.time,
        rounds_to_win: int = 3,
        steps_per_round: int = 8,
    ) -> None:
        self._rng = random.Random(seed)
        self._clock = clock
        self._lock = threading.RLock()
        self.hub = Broadcaster(queue_size)
        self.rounds_to_win = rounds_to_win
        self.steps_per_round = steps_per_round
        self._events: deque[dict[str, Any]] = deque(maxlen=2000)
        self._verdicts: list[dict[str, Any]] = []
        self._next_event = 1
        self._next_verdict = 1
        self._matches: dict[int, dict[str, Any]] = {}
        self._next_match = 1
        self._frame: bytes | None = None
        self._frame_version = -1
        self._version = 0
        self._reset_match()
        if demo:
            self._play_demo_history()
            self.setup(
                "wackee-six",
                [
                    {"name": "Ann", "colour": "blue"},
                    {"name": "Ben", "colour": "orange"},
                    {"name": "Cleo", "colour": "green"},
                    {"name": "Dev", "colour": "yellow"},
                ],
                {},
            )
            self.command("start")

    # ----- TableView -------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            return {
                "match_id": self._match_id,
                "game": self._game,
                "state": self._state,
                "round": self._round,
                "turn": self._turn,
                "direction": self._direction,
                "seats": copy.deepcopy(self._seats),
                "recent": copy.deepcopy(self._verdicts[-20:]),
                "options": dict(self._options),
                "winner": self._winner,
                "clock": self._clock(),
                "t0": self._started,
            }

    def subscribe(self) -> BroadcastSubscription:
        return self.hub.subscribe()

    def events(self, since_id: int = 0, limit: int = 200) -> list[dict[str, Any]]:
        with self._lock:
            out = [dict(e) for e in self._events if e["id"] > since_id]
        return out[: max(0, limit)]

    def frame_jpeg(self) -> bytes | None:
        with self._lock:
            if self._frame_version != self._version:
                self._frame = _render_frame(self.snapshot())
                self._frame_version = self._version
            return self._frame

    def games(self) -> list[dict[str, Any]]:
        return copy.deepcopy(GAMES)

    def setup(self, game: str, seats: list[dict[str, Any]], options: dict[str, Any]) -> None:
        spec = next((g for g in GAMES if g["name"] == game), None)
        if spec is None:
            known = ", ".join(g["name"] for g in GAMES)
            raise ValueError(f"unknown game {game!r}; choose one of: {known}")
        lo, hi = spec["seats"]
        if not isinstance(seats, list) or not lo <= len(seats) <= hi:
            n = len(seats) if isinstance(seats, list) else 0
            raise ValueError(f"{spec['title']} needs {lo} to {hi} seats, got {n}")
        clean: list[dict[str, Any]] = []
        for i, seat in enumerate(seats, start=1):
            if not isinstance(seat, dict):
                raise ValueError(f"seat {i} must be an object with a name and a colour")
            name = str(seat.get("name", "")).strip()
            colour = str(seat.get("colour", "")).strip().lower()
            if not name or len(name) > 24:
                raise ValueError(f"seat {i} needs a name of 1 to 24 characters")
            if colour not in COLOURS:
                raise ValueError(f"seat {i}: unknown deck colour {colour!r}; use one of: {', '.join(COLOURS)}")
            if any(c["colour"] == colour for c in clean):
                raise ValueError(f"seat {i}: deck colour {colour} is already taken")
            clean.append({"seat": i, "name": name, "colour": colour, "score": 0,
                          "round_score": 0, "info": {"hand": 0, "played": 0}})
        if not isinstance(options, dict):
            raise ValueError("options must be an object of option name to value")
        resolved = {k: v["default"] for k, v in spec["options"].items()}
        for key, value in options.items():
            if key not in spec["options"]:
                known = ", ".join(sorted(spec["options"]))
                raise ValueError(f"unknown option {key!r}; {spec['title']} options: {known}")
            default = spec["options"][key]["default"]
            if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            if type(value) is not type(default):
                raise ValueError(f"option {key!r} must be {type(default).__name__} like {default!r}, not {value!r}")
            resolved[key] = value
        with self._lock:
            if self._state in ("running", "paused"):
                raise ValueError("a match is in progress; stop it before setting up another")
            self._reset_match()
            self._game = game
            self._seats = clean
            self._options = resolved
            self._state = "setup"
            self._match_id = self._next_match
            self._next_match += 1
            self._started = self._clock()
        self._publish_state()

    def command(self, action: str, **args: Any) -> dict[str, Any]:
        with self._lock:
            handler = {
                "start": self._cmd_start, "go": self._cmd_go, "pause": self._cmd_pause,
                "resume": self._cmd_resume, "stop": self._cmd_stop,
                "correct": self._cmd_correct, "manual": self._cmd_manual, "add": self._cmd_add,
            }.get(action)
            if handler is None:
                raise ValueError(
                    f"unknown command {action!r}; use start, go, pause, resume, stop, correct, "
                    "manual or add"
                )
            result = handler(**args)
        self._publish_state()
        return result

    def history(self) -> list[dict[str, Any]]:
        with self._lock:
            return [copy.deepcopy(m["summary"]) for m in sorted(
                self._matches.values(), key=lambda m: m["summary"]["id"], reverse=True)]

    def match_record(self, match_id: int) -> dict[str, Any]:
        with self._lock:
            if match_id not in self._matches:
                raise KeyError(f"no match with id {match_id}")
            return copy.deepcopy(self._matches[match_id]["record"])

    def export_log(self, match_id: int) -> str:
        with self._lock:
            if match_id not in self._matches:
                raise KeyError(f"no match with id {match_id}")
            lines = self._matches[match_id]["log"]
        return "".join(json.dumps(line, sort_keys=True) + "\n" for line in lines)

    # ----- simulation ------------------------------------------------------------------------

    def simulate_step(self) -> None:
        """Advance the fake match by one play: an event, a verdict, new scores; rounds end."""
        with self._lock:
            if self._state == "setup":
                self._cmd_start()
            if self._state != "running" or not self._seats:
                return
            seat = self._turn or 1
            card = f"{self._rng.choice(CARD_COLOURS)} {self._rng.randint(1, 13)}"
            pile = self._rng.randint(1, 4)
            event = self._add_event("card_played", seat, card=card, pile=pile)
            info = self._seats[seat - 1]
            info["info"]["played"] += 1
            info["info"]["hand"] = max(0, info["info"]["hand"] - 1)
            roll = self._rng.random()
            name = f"{info['colour'].capitalize()} ({info['name']})"
            if roll < 0.75:
                points = self._rng.randint(1, 4)
                info["score"] += points
                info["round_score"] += points
                verdict = self._add_verdict(seat, "legal", f"{name}: {card} on pile {pile}, +{points}",
                                            None, f"+{points} points", event["id"])
            elif roll < 0.9:
                verdict = self._add_verdict(
                    seat, "illegal", f"{name}: take back the {card} on pile {pile}, a "
                    f"{card.split()[1]} was already there", "same rank already on the pile",
                    "take the card back", event["id"])
            else:
                verdict = self._add_verdict(seat, "late", f"{name}: {card} came after the round closed",
                                            "played after the call", "card ignored", event["id"])
            self._steps += 1
            self._turn = (seat - 1 + (self._direction or 1)) % len(self._seats) + 1
            self._version += 1
            round_over = self._steps % self.steps_per_round == 0
        self.hub.publish("event", event)
        self.hub.publish("verdict", verdict)
        if round_over:
            self._end_round()
        self._publish_state()

    def publish_state(self) -> dict[str, Any]:
        """Publish a fresh snapshot (used by the SSE benchmark as a pure update)."""
        return self._publish_state()

    # ----- internals -------------------------------------------------------------------------

    def _reset_match(self) -> None:
        self._match_id = None
        self._game = None
        self._state = "idle"
        self._round = 0
        self._turn = None
        self._direction = None
        self._seats = []
        self._options = {}
        self._winner = None
        self._rounds = []
        self._steps = 0
        self._started = 0.0
        self._verdicts = []
        self._version += 1

    def _publish_state(self) -> dict[str, Any]:
        return self.hub.publish("state", self.snapshot())

    def _add_event(self, kind: str, seat: int | None, **extra: Any) -> dict[str, Any]:
        event = {"id": self._next_event, "t": self._clock(), "kind": kind, "seat": seat, **extra}
        self._next_event += 1
        self._events.append(event)
        return event

    def _add_verdict(self, seat: int | None, kind: str, text: str, reason: str | None,
                     consequence: str | None, event_id: int | None) -> dict[str, Any]:
        verdict = {"id": self._next_verdict, "t": self._clock(), "seat": seat, "verdict": kind,
                   "text": text, "reason": reason, "consequence": consequence, "event_id": event_id}
        self._next_verdict += 1
        self._verdicts.append(verdict)
        return verdict

    def _cmd_start(self) -> dict[str, Any]:
        if self._state != "setup":
            raise ValueError(f"cannot start: the table is {self._state}; set up a match first")
        self._state = "running"
        self._round = 1
        self._turn = 1
        self._direction = 1
        for s in self._seats:
            s["info"]["hand"] = 7
        self._started = self._clock()
        return {"state": self._state}

    def _cmd_go(self) -> dict[str, Any]:
        if self._state == "setup":
            return self._cmd_start()
        if self._state != "running":
            raise ValueError(f"cannot go: the table is {self._state}")
        return {"state": self._state, "round": self._round}

    def _cmd_pause(self) -> dict[str, Any]:
        if self._state != "running":
            raise ValueError(f"cannot pause: the table is {self._state}, not running")
        self._state = "paused"
        return {"state": self._state}

    def _cmd_resume(self) -> dict[str, Any]:
        if self._state != "paused":
            raise ValueError(f"cannot resume: the table is {self._state}, not paused")
        self._state = "running"
        return {"state": self._state}

    def _cmd_stop(self) -> dict[str, Any]:
        if self._state not in ("setup", "running", "paused"):
            raise ValueError(f"cannot stop: the table is {self._state}")
        self._state = "stopped"
        self._archive()
        return {"state": self._state}

    def _cmd_correct(self, verdict_id: Any = None, ruling: Any = None, note: Any = "") -> dict[str, Any]:
        if not isinstance(verdict_id, int) or isinstance(verdict_id, bool):
            raise ValueError("correct needs verdict_id, the number of the verdict to change")
        if ruling not in ("legal", "illegal"):
            raise ValueError("correct needs ruling 'legal' or 'illegal'")
        target = next((v for v in self._verdicts if v["id"] == verdict_id), None)
        if target is None:
            raise ValueError(f"no verdict {verdict_id} in this match")
        old = target["verdict"]
        target["verdict"] = ruling
        target["consequence"] = f"corrected by the referee from {old}" + (f": {note}" if note else "")
        text = f"Verdict {verdict_id} corrected: now {ruling}" + (f" ({note})" if note else "")
        v = self._add_verdict(target["seat"], "info", text, note or None, "re-judged", target["event_id"])
        self._version += 1
        self.hub.publish("verdict", v)
        return {"corrected": verdict_id, "ruling": ruling, "was": old}

    def _cmd_manual(self, seat: Any = None, what: Any = None, value: Any = None) -> dict[str, Any]:
        if not isinstance(seat, int) or not 1 <= seat <= len(self._seats):
            raise ValueError(f"manual needs seat, a number from 1 to {len(self._seats)}")
        if what not in ("hand_count", "score"):
            raise ValueError("manual needs what: 'hand_count' or 'score'")
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError("manual needs value, a whole number of 0 or more")
        key = "hand" if what == "hand_count" else "score"
        if key == "hand":
            self._seats[seat - 1]["info"]["hand"] = value
        else:
            self._seats[seat - 1]["score"] = value
        event = self._add_event("manual", seat, what=what, value=value)
        self._version += 1
        self.hub.publish("event", event)
        return {"seat": seat, "what": what, "value": value}

    def _cmd_add(self, event: Any = None) -> dict[str, Any]:
        """What the camera missed, in the table log's JSON form (checked like the real table)."""
        from referee.table import missed_event

        ev = missed_event(event, self._clock())
        seat = getattr(ev, "seat", None)
        added = self._add_event(ev.kind, seat if isinstance(seat, int) else None)
        self._version += 1
        self.hub.publish("event", added)
        return {"added": ev.kind}

    def _end_round(self) -> None:
        with self._lock:
            self._rounds.append({"round": self._round,
                                 "scores": {s["seat"]: s["round_score"] for s in self._seats}})
            event = self._add_event("round_over", None, round=self._round)
            lead = max(self._seats, key=lambda s: s["score"])
            text = f"Round {self._round} over: {lead['name']} ({lead['colour']}) leads with {lead['score']}"
            verdict = self._add_verdict(None, "info", text, None, None, event["id"])
            if self._round >= self.rounds_to_win:
                self._state = "finished"
                self._winner = lead["seat"]
                self._archive()
            else:
                self._round += 1
                for s in self._seats:
                    s["round_score"] = 0
                    s["info"]["hand"] = 7
                self._direction = -(self._direction or 1)
            self._version += 1
        self.hub.publish("event", event)
        self.hub.publish("verdict", verdict)

    def _archive(self) -> None:
        if self._match_id is None:
            return
        rounds = list(self._rounds)
        if self._state == "stopped" and any(s["round_score"] for s in self._seats):
            rounds.append({"round": self._round,
                           "scores": {s["seat"]: s["round_score"] for s in self._seats}})
        seats = [{"seat": s["seat"], "name": s["name"], "colour": s["colour"]} for s in self._seats]
        standings = sorted(
            ({"seat": s["seat"], "name": s["name"], "score": s["score"]} for s in self._seats),
            key=lambda r: -r["score"])
        summary: dict[str, Any] = {"id": self._match_id, "game": self._game, "seats": seats,
                   "started": self._started, "finished": self._clock(), "winner": self._winner}
        record: dict[str, Any] = {"header": {**summary, "options": dict(self._options), "state": self._state},
                  "rounds": rounds, "standings": standings, "verdicts": list(self._verdicts)}
        log: list[dict[str, Any]] = [{"type": "header", **record["header"]}]
        log += [{"type": "event", **e} for e in self._events]
        log += [{"type": "verdict", **v} for v in self._verdicts]
        self._matches[self._match_id] = {"summary": summary, "record": record, "log": log}

    def _play_demo_history(self) -> None:
        self.setup("wig-out", [{"name": "Ann", "colour": "blue"}, {"name": "Ben", "colour": "orange"},
                               {"name": "Cleo", "colour": "green"}], {"rounds": 3})
        self.command("start")
        keep = self.rounds_to_win, self.steps_per_round
        self.rounds_to_win, self.steps_per_round = 3, 6
        try:
            while self._state == "running":
                self.simulate_step()
        finally:
            self.rounds_to_win, self.steps_per_round = keep


def _render_frame(snap: dict[str, Any]) -> bytes | None:
    """A cartoon of the table (green felt, one card per seat) as JPEG; None without Pillow."""
    try:
        from PIL import Image, ImageDraw
    except ImportError:  # pragma: no cover - Pillow is a project dependency
        return None
    img = Image.new("RGB", (640, 360), (20, 90, 50))
    draw = ImageDraw.Draw(img)
    draw.text((12, 10), f"FAKE TABLE  {snap['game'] or '-'}  round {snap['round']}  {snap['state']}",
              fill=(255, 255, 255))
    for i, seat in enumerate(snap["seats"]):
        x = 30 + i * 100
        draw.rectangle((x, 120, x + 70, 220), fill=(250, 250, 245), outline=(255, 210, 0), width=3)
        draw.text((x + 6, 130), seat["colour"], fill=(0, 0, 0))
        draw.text((x + 6, 150), str(seat["score"]), fill=(0, 0, 0))
        draw.text((x, 230), seat["name"], fill=(255, 255, 255))
    if snap["recent"]:
        draw.text((12, 330), snap["recent"][-1]["text"][:90], fill=(255, 255, 0))
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=70)
    return buf.getvalue()


def main() -> None:  # pragma: no cover - manual preview
    """Serve the dashboard on a FakeTable that plays itself: `python -m web.fake [port]`."""
    import sys

    from . import create_app
    from .server import serve

    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8080
    table = FakeTable(seed=1)
    app = create_app(table, {"admin_pin": "1234"})
    handle = serve(app, "0.0.0.0", port)
    print(f"fake table on http://127.0.0.1:{handle.port}/  (admin PIN 1234, Ctrl-C to quit)")
    try:
        while True:
            time.sleep(1.5)
            if table.snapshot()["state"] in ("finished", "stopped"):
                time.sleep(5)
                snap = table.snapshot()
                table.setup(snap["game"] or "wackee-six",
                            [{"name": s["name"], "colour": s["colour"]} for s in snap["seats"]], {})
            table.simulate_step()
    except KeyboardInterrupt:
        handle.stop()


if __name__ == "__main__":  # pragma: no cover
    main()
