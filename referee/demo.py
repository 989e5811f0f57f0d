"""`referee demo`: a simulated table refereed live, with the dashboard. No Pi, no camera.

Seeded simulated players (referee/sim) play a whole match. Their card moves are acted out on the
simulated table (vision/sim_table.py): arms reach in, cards slide and land askew, and the frames
go through the real vision pipeline (calibration from the corner markers, tracking, recognition),
whose observations become table events (referee/observe.py). Pad presses go through gpiozero
mock pins into the real slap-pad code. Everything meets in the real table service, which judges,
buzzes (a recording buzzer), stores and serves the dashboard.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.rules import (
    BlockAdded,
    CardPlaced,
    CardRevealed,
    CardTakenBack,
    Clock,
    Deal,
    Event,
    ManualEntry,
    Match,
    MatchHeader,
    PadPress,
    Place,
    Seat,
    Tilt,
    TowerFell,
)
from referee.sim import make_simulator
from referee.table import Table

SEAT_NAMES = ["Ann", "Ben", "Cleo", "Dev", "Eli", "Fay"]
COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"]
VISION_KINDS = (CardPlaced, CardRevealed, CardTakenBack, BlockAdded, TowerFell)
PAD_PINS = [17, 27, 22, 23, 5, 6]
HAND_SPEED_MM_S = 1400.0  # vision/sim_table.py's arm speed: used to time the arm's start
DEMO_HFOV_DEG = 70.0  # the simulated camera's lens
MAX_LAG_S = 0.15  # frames older than this when their turn comes are dropped, as a camera would


class DemoClock:
    """The table's clock for the demo: seconds since the demo began, times the speed."""

    def __init__(self, speed: float) -> None:
        self.speed = speed
        self.origin = time.monotonic()
        self.offset = 0.0

    def __call__(self) -> float:
        return (time.monotonic() - self.origin) * self.speed + self.offset

    def sleep_until(self, t: float, stop: threading.Event) -> bool:
        """Wait until the clock reads t; False if stopped meanwhile."""
        delay = (t - self()) / self.speed
        return not stop.wait(delay) if delay > 0 else not stop.is_set()


@dataclass
class RoundPlan:
    deal: Deal
    events: list[Event] = field(default_factory=list)

    @property
    def end(self) -> float:
        return self.events[-1].t if self.events else self.deal.t


def split_rounds(events: list[Event]) -> list[RoundPlan]:
    """The match's events cut at each deal (events before the first deal join the first round)."""
    rounds: list[RoundPlan] = []
    before: list[Event] = []
    for ev in events:
        if isinstance(ev, Deal):
            rounds.append(RoundPlan(ev))
        elif rounds:
            rounds[-1].events.append(ev)
        else:
            before.append(ev)
    if rounds:
        rounds[0].events[:0] = before
    return rounds


def camera_answers(header: MatchHeader, events: list[Event]) -> list[Event]:
    """What the players tap on the dashboard when the referee sees the cards only through the
    camera. In Wig Out it cannot count the hands (cards drawn off the face-down pile do not
    show: referee/observe.py), so it asks the table to confirm each "Wig Out!" and, after a good
    one, for the cards left in the other hands. The simulated players answer truly: as a referee
    that saw every event (the simulator's) judged the call. Rounds the simulator plays without
    counts already carry these entries."""
    if header.game != "wig-out":
        return []
    shadow = Match(header)
    out: list[Event] = []
    counted = False
    presses: dict[int, float] = {}
    for ev in events:
        if isinstance(ev, Deal):
            counted = any(k.startswith("hand:") for k in ev.counts)
            presses.clear()  # a call never judged (another's came first) asks nothing
        if isinstance(ev, PadPress) and counted:
            presses.setdefault(ev.seat, ev.t)
        for v in shadow.apply(ev):
            if v.reason not in ("wig-out", "false-call") or v.seat not in presses:
                continue
            t = presses.pop(v.seat) + 1.0
            out.append(ManualEntry(t, "confirm", None, v.reason == "wig-out"))
            if v.reason == "wig-out":
                hands = shadow.game.status()["hands"]
                out.extend(ManualEntry(t + 1.0, "hand_count", s, max(0, hands.get(s) or 0))
                           for s in sorted(hands) if s != v.seat)
    return out


def add_answers(rounds: list[RoundPlan], answers: list[Event]) -> None:
    """Put dashboard entries into the rounds they fall in, in time order."""
    touched = set()
    for a in answers:
        i = next((i for i in range(len(rounds) - 1, -1, -1) if rounds[i].deal.t <= a.t), None)
        if i is not None:
            rounds[i].events.append(a)
            touched.add(i)
    for i in touched:
        rounds[i].events.sort(key=lambda e: e.t)


def seats_for(n: int) -> list[dict[str, str]]:
    return [{"name": SEAT_NAMES[i], "colour": COLOURS[i]} for i in range(n)]


# --- acting the moves out on the simulated table -------------------------------------------------


class PileSpots:
    """Where pile N lies in the centre of the simulated table: a grid avoiding named spots."""

    def __init__(self, layout: Any) -> None:
        box = layout.centre_box
        pitch_x, pitch_y = 100.0, 125.0
        cols = max(1, int((box.w - 40) // pitch_x))
        rows = max(1, int((box.h - 40) // pitch_y))
        spots = []
        for r in range(rows):
            for c in range(cols):
                x = box.cx + (c - (cols - 1) / 2) * pitch_x
                y = box.cy + (r - (rows - 1) / 2) * pitch_y
                if all(math.hypot(x - s.cx, y - s.cy) > 90 for s in layout.spots.values()):
                    spots.append((x, y))
        spots.sort(key=lambda p: math.hypot(p[0] - box.cx, p[1] - box.cy))
        self.spots = spots or [(box.cx, box.cy)]

    def __call__(self, number: int) -> tuple[float, float]:
        return self.spots[(number - 1) % len(self.spots)]


def _target(place: Place, layout: Any, piles: PileSpots) -> tuple[float, float] | None:
    name = str(place)
    if name in layout.spots:
        box = layout.spots[name]
        return box.cx, box.cy
    if place.area == "pile" and place.index is not None:
        return piles(place.index)
    return None


def _lead(layout: Any, seat: int, start: tuple[float, float] | None,
          target: tuple[float, float]) -> float:
    """Seconds from an arm starting to reach in until its card lands (as vision/sim_table.py)."""
    s = layout.seat(seat)
    edge = s.point(0.0, -40.0)
    pick = start or edge
    reach = 0.05 + math.dist(edge, pick) / HAND_SPEED_MM_S if start else 0.0
    return reach + 0.12 + math.dist(pick, target) / HAND_SPEED_MM_S * 1.6


def table_script(plan: RoundPlan, layout: Any, deck: Any, seats: int,
                 back_colours: list[str]) -> tuple[list[Any], list[Any]]:
    """(initial card poses, timed actions) that act out one round's card events."""
    from vision.render import CardPose
    from vision.sim_table import TableAction

    piles = PileSpots(layout)
    initial: list[Any] = []
    for place_text, cards in plan.deal.layout.items():
        place = Place.parse(place_text)
        spot = _target(place, layout, piles)
        if spot is None:
            continue
        angle = layout.seat(place.seat).card_angle_deg if place.seat else 0.0
        for k, code in enumerate(cards):
            initial.append(CardPose(deck, code, spot[0] + 2 * k, spot[1] - 2 * k, angle, z=k))
    for place_text, n in plan.deal.counts.items():
        place = Place.parse(place_text)
        spot = _target(place, layout, piles)
        if spot is None or place.seat is None or n <= 0 or place.seat > seats:
            continue
        back = back_colours[(place.seat - 1) % len(back_colours)]
        angle = layout.seat(place.seat).card_angle_deg
        initial.append(CardPose(deck, deck.codes[0], spot[0], spot[1], angle, face_up=False,
                                back=back, z=0))
    on_table: dict[str, int] = {}  # cards the simulated table holds, by code
    landed: dict[str, float] = {}  # when each card last landed
    for pose in initial:
        if pose.face_up:
            on_table[pose.code] = on_table.get(pose.code, 0) + 1
    actions = []
    stacks: dict[str, list[str]] = {}  # face-up cards on each seat spot, bottom first
    for pose in initial:
        spot = layout.zone_at(pose.x_mm, pose.y_mm)
        if pose.face_up and spot in layout.spots:
            stacks.setdefault(spot, []).append(pose.code)
    lifted: tuple[Any, str] | None = None  # the last card taken off a seat spot, and the spot
    for ev in plan.events:
        just_lifted, lifted = lifted, None
        seat = getattr(ev, "seat", None)
        if (not isinstance(ev, VISION_KINDS) or isinstance(ev, BlockAdded | TowerFell)
                or seat is None or not 1 <= seat <= seats):
            continue
        if isinstance(ev, CardPlaced):
            target = _target(ev.to, layout, piles)
            if target is None:
                continue
            src = str(ev.source) if ev.source is not None else None
            from_zone = src if src in layout.spots and on_table.get(ev.card, 0) else None
            start = _target(ev.source, layout, piles) if from_zone and ev.source else None
            t0 = ev.t - _lead(layout, seat, start, target)
            if from_zone is not None:  # its card must have landed there first
                t0 = max(t0, landed.get(ev.card, t0) + 0.05)
            actions.append(TableAction(t0, "place", seat, ev.card, deck, from_zone=from_zone,
                                       to_mm=target, land_t=ev.t))
            if from_zone is not None:
                stack = stacks.get(from_zone, [])
                if ev.card in stack:
                    stack.remove(ev.card)
                lifted = (ev, from_zone)
            if str(ev.to) in layout.spots:
                stacks.setdefault(str(ev.to), []).append(ev.card)
            if from_zone is None:
                on_table[ev.card] = on_table.get(ev.card, 0) + 1
            landed[ev.card] = ev.t
        elif isinstance(ev, CardRevealed):
            target = _target(ev.at, layout, piles)
            name = str(ev.at)
            if target is None or name not in layout.spots:
                continue
            stack = stacks.setdefault(name, [])
            if just_lifted is not None and just_lifted[1] == name and just_lifted[0].t == ev.t:
                # the card under the one just played from this spot shows (the next card of
                # a three-card turn, or one turned earlier): no hand lays it there
                if not stack or stack[-1] != ev.card:
                    actions.append(TableAction(actions[-1].t, "expose", seat, ev.card, deck,
                                               zone=name))
                    stack.append(ev.card)
                    on_table[ev.card] = on_table.get(ev.card, 0) + 1
                continue
            t0 = ev.t - _lead(layout, seat, None, target)
            if ev.card in stack and ev.at.area == "waste":
                # its card lies in this waste already: the waste was turned over to be the
                # stock again (the rules core logs no event for it): pick the pile up first
                t_gather = max(t0 - 0.7, max(landed.get(c, 0.0) for c in stack) + 0.3)
                actions.append(TableAction(t_gather, "gather", seat, stack[-1], deck, zone=name))
                t0 = max(t0, t_gather + 0.7)
                for c in stack:
                    on_table[c] = max(0, on_table.get(c, 0) - 1)
                stack.clear()
            actions.append(TableAction(t0, "reveal", seat, ev.card, deck, zone=name, land_t=ev.t))
            stack.append(ev.card)
            on_table[ev.card] = on_table.get(ev.card, 0) + 1
            landed[ev.card] = ev.t
        else:
            start = _target(ev.at, layout, piles)
            if start is None or not on_table.get(ev.card, 0):
                continue  # a card the simulated table never showed cannot be lifted off it
            on_table[ev.card] -= 1
            t0 = ev.t - 0.05 - math.dist(layout.seat(seat).point(0.0, -40.0), start) / HAND_SPEED_MM_S
            t0 = max(t0, landed.get(ev.card, t0) + 0.2)  # the card must have landed first
            actions.append(TableAction(t0, "take_back", seat, ev.card, deck))
    actions.sort(key=lambda a: a.t)
    return initial, actions


def demo_look(game: str) -> Any:
    """The simulated room: green felt, but a wooden table for Wonky (its green blocks would be
    hard to see on green felt: docs/games/wonky.md)."""
    from vision.render import Look

    return Look(cloth="wood", cloth_bgr=(60, 95, 140)) if game == "wonky" else Look()


def round_table(plan: RoundPlan, game: str, seats: int, seed: int, *,
                size: tuple[int, int] = (1280, 720), fps: float = 15.0,
                duration: float | None = None,
                tower_actions: list[Any] | None = None) -> tuple[Any, Any, Any]:
    """One round's card events acted out on the simulated table and filmed as the demo films
    them: (the SimTable, its deck, its layout). The camera starts a second before the deal (so
    the tracker sees the table still) and runs `duration` seconds (default: until 2 s after the
    round's end)."""
    import numpy as np

    from vision.decks import get_deck
    from vision.layout import make_layout
    from vision.render import CameraSpec
    from vision.sim_table import SimTable

    deck = get_deck(game)
    layout = make_layout(seats, game=game)
    backs = list(getattr(deck, "back_colours", COLOURS)) or COLOURS
    initial, actions = table_script(plan, layout, deck, seats, backs)
    start = plan.deal.t - 1.0
    tower = None
    if "tower" in layout.spots:
        from vision.sim_tower import SimTower

        spot = layout.spots["tower"]
        tower = SimTower(layout, (spot.cx, spot.cy), tower_actions or [],
                         np.random.default_rng(seed + 1))
    sim = SimTable(layout, deck, actions, initial=initial,
                   camera=CameraSpec(width=size[0], height=size[1], hfov_deg=DEMO_HFOV_DEG,
                                     tilt_deg=8.0),
                   look=demo_look(game), fps=fps, t0=start,
                   duration=plan.end - start + 2.0 if duration is None else duration,
                   rng=np.random.default_rng(seed), tower=tower)
    return sim, deck, layout


def tower_script(plan: RoundPlan, refused: set[tuple]) -> list[Any]:
    """Wonky: the blocks the players bring to the tower, take off again and knock over.

    refused: the (t, seat, colour, size) of blocks the referee does not accept: their players
    take them off again a moment later, as the referee tells them to."""
    from vision.sim_tower import TowerAction

    actions: list[Any] = []
    standing = 0
    for ev in plan.events:
        if isinstance(ev, BlockAdded):
            actions.append(TowerAction(ev.t, "add", ev.seat or 1, ev.colour, ev.size))
            if (ev.t, ev.seat, ev.colour, ev.size) in refused:
                actions.append(TowerAction(ev.t + 0.9, "take_off", ev.seat or 1))
            else:
                standing += 1
        elif isinstance(ev, Tilt) and standing:
            actions.append(TowerAction(ev.t, "fall"))
            standing = 0
    return actions


def refused_blocks(header: MatchHeader, events: list[Event]) -> set[tuple]:
    """The blocks the rules core does not add to the tower (judged once, before the match)."""
    from referee.rules.match import Match

    match = Match(header)
    refused: set[tuple] = set()
    for ev in events:
        index = len(match.events)
        verdicts = match.apply(ev)
        if isinstance(ev, BlockAdded) and not any(v.ruling == "legal" and v.event == index
                                                  for v in verdicts):
            refused.add((ev.t, ev.seat, ev.colour, ev.size))
    return refused


# --- the demo ------------------------------------------------------------------------------------


class Demo:
    """Runs simulated matches on a table service until stopped."""

    def __init__(self, table: Table, game: str, seats: int, seed: int, speed: float,
                 vision: bool, clock: DemoClock, camera_size: tuple[int, int] = (1280, 720),
                 fps: float = 15.0, on_frame: Callable[[float], None] | None = None) -> None:
        self.table, self.game, self.seats, self.seed = table, game, seats, seed
        self.speed, self.vision, self.clock = speed, vision, clock
        self.camera_size, self.fps = camera_size, fps
        self.on_frame = on_frame
        self.stop_event = threading.Event()
        self.frames = 0
        self.dropped = 0
        self._mock: Any = None
        self._pads: Any = None
        self._refused: set[tuple] = set()

    # pads through gpiozero's mock pins, like the real appliance's pads
    def _open_pads(self) -> None:
        from gpiozero.pins.mock import MockFactory

        from hardware.pads import SlapPads

        self._mock = MockFactory()
        pins = {s: PAD_PINS[s - 1] for s in range(1, self.seats + 1)}

        def on_press(seat: int, t: float) -> None:
            self.table.submit(PadPress(t, seat))

        self._pads = SlapPads(pins, on_press, clock=self.clock, pin_factory=self._mock)

    def _press(self, seat: int) -> None:
        pin = self._mock.pin(PAD_PINS[seat - 1])
        pin.drive_low()
        threading.Timer(0.08 / self.speed, pin.drive_high).start()

    def close(self) -> None:
        self.stop_event.set()
        if self._pads is not None:
            self._pads.close()
            self._mock.close()

    def run(self, duration: float | None = None) -> None:
        self._open_pads()
        match_no = 0
        end = None if duration is None else self.clock() + duration
        if duration is not None:  # stop mid-round when the time is up
            timer = threading.Timer(duration / self.speed, self.stop_event.set)
            timer.daemon = True
            timer.start()
        while not self.stop_event.is_set() and (end is None or self.clock() < end):
            self.play_match(self.seed + match_no, end)
            match_no += 1
            self.stop_event.wait(3.0 / self.speed)

    def play_match(self, seed: int, end: float | None) -> None:
        seats = seats_for(self.seats)
        header = MatchHeader(self.game, tuple(Seat(i + 1, s["name"], s["colour"])
                                               for i, s in enumerate(seats)))
        events = list(make_simulator(header, seed).events())
        # Wonky: the blocks the referee will refuse are taken off again on the simulated table
        self._refused = refused_blocks(header, events) if self.game == "wonky" else set()
        self.table.setup(self.game, seats, {})
        self.table.start()
        rounds = split_rounds(events)
        if self.vision:
            add_answers(rounds, camera_answers(header, events))
        # the simulated match starts now on the table's clock
        shift = self.clock() + 1.0 - (rounds[0].deal.t if rounds else 0.0)
        for plan in rounds:
            if self.stop_event.is_set() or (end is not None and self.clock() >= end):
                break
            self.play_round(plan, shift)
        if not self.stop_event.is_set():
            self.table.stop()

    def play_round(self, plan: RoundPlan, shift: float) -> None:
        tower = [dataclasses.replace(a, t=a.t + shift) for a in tower_script(plan, self._refused)]
        plan = RoundPlan(_shifted(plan.deal, shift), [_shifted(e, shift) for e in plan.events])
        # The simulator's own clock lines are left out: the table's ticker keeps the live clock.
        direct = [e for e in plan.events if not isinstance(e, Clock)
                  and not (self.vision and isinstance(e, VISION_KINDS))]
        if self.vision:
            self._play_with_vision(plan, direct, tower)
        else:
            self.table.submit(plan.deal)
            self._dispatch(direct, math.inf)

    def _dispatch(self, pending: list[Event], upto: float) -> list[Event]:
        """Submit the events due by `upto` (waiting for each one's time); return the rest."""
        while pending and pending[0].t <= upto:
            ev = pending.pop(0)
            if not self.clock.sleep_until(ev.t, self.stop_event):
                return []
            if isinstance(ev, PadPress):
                self._press(ev.seat)
            else:
                self.table.submit(ev)
        return pending

    def _play_with_vision(self, plan: RoundPlan, direct: list[Event], tower_actions: list[Any]) -> None:
        from referee.vision_loop import VisionLoop

        sim, deck, layout = round_table(plan, self.game, self.seats, self.seed,
                                        size=self.camera_size, fps=self.fps,
                                        tower_actions=tower_actions)
        loop = VisionLoop(self.table, self.game, self.seats, deck, layout, hfov_deg=DEMO_HFOV_DEG,
                          first_dealer=plan.deal.dealer or 1)  # a new camera view each round
        loop.prepare()  # (built once: later rounds find it built)
        pending = list(direct)
        frames = iter(sim)
        while True:
            try:
                frame, _truth = next(frames)
            except StopIteration:
                break
            except ValueError as err:  # a move the simulated table cannot act out
                print(f"referee demo: the simulated table skipped the rest of a round: {err}",
                      flush=True)
                break
            if not self.clock.sleep_until(frame.t, self.stop_event):
                return
            pending = self._dispatch(pending, frame.t)
            if self.clock() - frame.t > MAX_LAG_S:
                self.dropped += 1  # behind: a camera would hand over only its newest frame
                continue
            loop.process(frame)
            self.frames += 1
            if self.on_frame is not None:
                self.on_frame(frame.t)
        self._dispatch(pending, math.inf)


def _shifted(ev: Event, shift: float) -> Any:
    import dataclasses

    return dataclasses.replace(ev, t=round(ev.t + shift, 4))


def run_demo(args: argparse.Namespace) -> int:
    from hardware.buzzer import RecordingBuzzer
    from referee.rules.registry import find_game
    from referee.store import MatchStore
    from web import create_app
    from web.server import serve

    cls = find_game(args.game)
    if not cls.min_seats <= args.seats <= cls.max_seats:
        raise ValueError(f"{cls.title} is for {cls.min_seats} to {cls.max_seats} seats, "
                         f"not {args.seats}")
    clock = DemoClock(args.speed)
    data = Path.home() / ".local" / "share" / "referee"
    data.mkdir(parents=True, exist_ok=True)
    store = MatchStore(data / "demo.sqlite3")
    table = Table(store=store, buzzer=RecordingBuzzer(clock=clock), clock=clock)
    table.start_ticker()
    app = create_app(table, {"admin_pin": "1234"})
    handle = serve(app, host=args.host, port=args.port)
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    print(f"Referee demo: {cls.title}, {args.seats} simulated players. Dashboard: "
          f"http://{shown}:{args.port}/  (admin PIN 1234, Ctrl-C to stop)", flush=True)
    demo = Demo(table, args.game, args.seats, args.seed, args.speed, not args.no_vision, clock)
    try:
        demo.run(args.duration)
    except KeyboardInterrupt:
        pass
    finally:
        demo.close()
        table.close()
        handle.stop()
    return 0
