"""From camera frames to judged table events, and the annotated live picture.

Used by the appliance (a real camera) and by the demo (the simulated table): calibrate from the
corner markers, track, turn observations into events, hand them to the table service, and now
and then draw the live view (every recognised card outlined and labelled, the latest verdicts).
"""

from __future__ import annotations

import time
from typing import Any

from referee.observe import Observer
from referee.table import Table

LIVE_VIEW_EVERY = 3  # frames between live-view pictures (encoding costs a few ms)


def _verdict_colour(verdict: dict[str, Any]) -> tuple[int, int, int]:
    from vision.annotate import GREEN, RED, WHITE

    if verdict.get("verdict") in ("illegal", "late"):
        return RED
    return GREEN if verdict.get("verdict") == "legal" else WHITE


class VisionLoop:
    """Feeds frames through calibration, tracking and observation into the table."""

    def __init__(self, table: Table, game: str, seats: int, deck: Any, layout: Any,
                 hfov_deg: float = 66.0, block_colours: tuple[str, ...] = ("red", "green", "blue"),
                 first_dealer: int = 1) -> None:
        self.table = table
        self.deck = deck
        self.layout = layout
        self.observer = Observer(game, seats, first_dealer=first_dealer)
        self.tracker: Any = None
        self.tower: Any = None  # Wonky: the block tower's watcher
        self.hfov_deg = hfov_deg
        self.block_colours = block_colours
        self.frames = 0
        self.calibration_error: str | None = None
        self.timings: list[tuple[float, float]] = []  # (frame capture t, done on table clock)

    def prepare(self) -> None:
        """Build the card reader's models for this deck now, before the first card is played
        (vision.identify.prepare: seconds on a Pi, which would otherwise hold up that card)."""
        from vision.sim_standin import StandInDeck

        if not isinstance(self.deck, StandInDeck):  # (the stand-in deck's reader builds nothing)
            from vision.identify import prepare, reads_corner_index

            prepare(self.deck)
            if reads_corner_index(self.deck):
                from vision.decks.index_reader import FONT_PACKAGES, missing_fonts

                missing = missing_fonts()
                if missing:
                    print(f"referee: vision: the fonts {', '.join(missing)} are missing, so an "
                          f"ordinary deck's corner index is read less well; install them with "
                          f"'sudo apt-get install {FONT_PACKAGES}'", flush=True)

    def _calibrate(self, image: Any) -> bool:
        from vision.calibrate import CalibrationError, calibrate
        from vision.track import Tracker

        try:
            cal = calibrate(image, self.layout.table_w, self.layout.table_h)
        except CalibrationError as err:
            self.calibration_error = str(err)
            return False
        self.calibration_error = None
        self.tracker = Tracker(self.deck, self.layout, cal)
        if "tower" in self.layout.spots:
            from vision.tower import TowerWatcher

            spot = self.layout.spots["tower"]
            self.tower = TowerWatcher(cal.table_to_image, cal.image_size, (spot.cx, spot.cy),
                                      self.block_colours, self.hfov_deg)
        return True

    def process(self, frame: Any) -> int:
        """One frame in; returns how many table events it produced."""
        if self.tracker is None and not self._calibrate(frame.image):
            return 0
        n = 0
        observations = list(self.tracker.update(frame))
        if self.tower is not None:
            observations += self.tower.update(frame)
        for obs in observations:
            for ev in self.observer.translate(obs):
                self.table.submit(ev)
                n += 1
        self.tracker.read_ahead()  # after the verdicts: reads of cards still settling
        self.frames += 1
        if self.frames % LIVE_VIEW_EVERY == 0:
            self.table.set_frame(self.live_view(frame.image))
        return n

    def live_view(self, image: Any) -> bytes:
        from vision.annotate import AMBER, GREEN, draw_cards, draw_notes, to_jpeg

        picture = image.copy()
        cards = [(k.quad, k.code if k.face_up else f"back {k.back or '?'}",
                  GREEN if k.face_up else AMBER)
                 for k in getattr(self.tracker, "model", [])]
        draw_cards(picture, cards)
        recent = self.table.snapshot()["recent"][-3:]
        draw_notes(picture, [(v["text"][:90], _verdict_colour(v)) for v in recent])
        return to_jpeg(picture)


def run_camera(loop: VisionLoop, source: Any, stop: Any) -> None:
    """Read frames until stopped; tell the table (and the log) when calibration fails. The
    card reader is built first, while nobody plays yet."""
    loop.prepare()
    last_warning = 0.0
    for frame in source:
        if stop.is_set():
            break
        loop.process(frame)
        if loop.calibration_error and time.monotonic() - last_warning > 10:
            print(f"referee: camera: {loop.calibration_error}", flush=True)
            last_warning = time.monotonic()
