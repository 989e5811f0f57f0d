"""The demo's camera path: the simulated table rendered, calibrated from its corner markers,
tracked and recognised, its observations judged by the table service, the live view drawn."""

from __future__ import annotations

import threading
import time

import cv2
import numpy as np

from referee.demo import Demo, DemoClock
from referee.rules import CardPlaced, CardRevealed, Deal
from referee.table import Table


class LockstepClock(DemoClock):
    """The demo's clock, moved only by the demo's own waits: every frame is processed on time
    however slow this machine is, so what this test sees does not depend on the CPU (the real
    clock would make the demo drop the frames it falls behind on, as a camera would)."""

    def __init__(self) -> None:
        super().__init__(speed=1.0)
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep_until(self, t: float, stop: threading.Event) -> bool:
        self.now = max(self.now, t)
        return not stop.is_set()


def test_the_demo_referees_what_the_camera_sees() -> None:
    clock = LockstepClock()
    table = Table(clock=clock)
    demo = Demo(table, "wackee-six", 2, seed=5, speed=1.0, vision=True, clock=clock,
                camera_size=(1920, 1080), fps=10.0)
    runner = threading.Thread(target=demo.run, daemon=True)
    runner.start()
    deadline = time.monotonic() + 120
    while clock() < 9.0 and runner.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    demo.close()
    runner.join(30)
    assert not runner.is_alive()
    assert clock() >= 9.0, f"the demo reached only {clock():.1f} s of table time in 120 s"
    assert demo.dropped == 0
    assert table.match is not None
    events = table.match.events
    deals = [e for e in events if isinstance(e, Deal)]
    assert deals, "the camera's view of the deal reached the referee"
    # (how many of the dealt cards are read is a recognition figure: bench/vision_identify.py)
    seen = [e for e in events if isinstance(e, CardPlaced | CardRevealed)]
    assert seen, "cards the camera saw land reached the referee"
    # a seat is one of the table's, or unknown where no arm was seen; with every frame
    # processed nearly every card is attributed
    seats = [e.seat for e in seen]
    assert all(s in (None, 1, 2) for s in seats), seats
    assert sum(s in (1, 2) for s in seats) >= 0.8 * len(seats), seats
    jpeg = table.frame_jpeg()
    assert jpeg is not None
    picture = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape[:2] == (1080, 1920)


def test_the_demo_players_answer_for_the_wig_out_hands_the_camera_cannot_count() -> None:
    """Through the camera the deal carries no Wig Out hand counts (draws off the face-down pile
    do not show), so the referee asks the table to confirm calls and for the hands left. The
    simulated players' answers must let such a referee score every round as one that saw every
    event does; and a referee with neither counts nor answers scores none of the counted rounds."""
    import dataclasses

    from referee.demo import camera_answers
    from referee.rules import Match, MatchHeader, Seat
    from referee.sim import make_simulator

    header = MatchHeader("wig-out", tuple(Seat(i, n, "") for i, n in enumerate("ABC", 1)))
    for seed in (1, 2, 3):
        events = list(make_simulator(header, seed).events())
        direct = Match(header)
        for ev in events:
            direct.apply(ev)
        uncounted = [dataclasses.replace(e, counts={k: v for k, v in e.counts.items()
                                                    if not k.startswith("hand:")})
                     if isinstance(e, Deal) else e for e in events]
        answers = camera_answers(header, events)
        assert answers, "the simulated players were asked nothing"
        camera = Match(header)
        for ev in sorted(uncounted + answers, key=lambda e: e.t):
            camera.apply(ev)
        assert camera.game.round_scores == direct.game.round_scores, seed
        unanswered = Match(header)
        for ev in uncounted:
            unanswered.apply(ev)
        assert len(unanswered.game.round_scores) < len(direct.game.round_scores), seed


def test_the_camera_thread_builds_the_card_reader_before_the_first_frame() -> None:
    from referee.vision_loop import run_camera

    calls: list[str] = []

    class Loop:
        calibration_error = None

        def prepare(self) -> None:
            calls.append("prepare")

        def process(self, frame) -> int:
            calls.append(f"frame {frame}")
            return 0

    run_camera(Loop(), iter([1, 2]), threading.Event())
    assert calls == ["prepare", "frame 1", "frame 2"]


def test_preparing_an_ordinary_deck_says_which_fonts_its_index_reader_lacks(monkeypatch, capsys) -> None:
    """The corner-index reader draws its rank glyphs in the DejaVu and Liberation fonts: where
    some are missing, an ordinary deck is read less well, and the service says which and how to
    install them (once, when the reader is built); a deck read by its own faces says nothing."""
    import vision.identify
    from referee.vision_loop import VisionLoop
    from vision.decks import get_deck, index_reader
    from vision.layout import make_layout

    monkeypatch.setattr(vision.identify, "prepare", lambda deck: None)
    monkeypatch.setattr(index_reader, "missing_fonts", lambda: ("LiberationSans-Bold.ttf",))
    VisionLoop(Table(), "wackee-six", 4, get_deck("standard"), make_layout(4)).prepare()
    said = capsys.readouterr().out
    assert "LiberationSans-Bold.ttf" in said and "apt-get install fonts-dejavu-core fonts-liberation" in said
    VisionLoop(Table(), "wackee-six", 4, get_deck("wackee-six"), make_layout(4)).prepare()
    assert capsys.readouterr().out == ""
    monkeypatch.setattr(index_reader, "missing_fonts", lambda: ())
    VisionLoop(Table(), "wackee-six", 4, get_deck("standard"), make_layout(4)).prepare()
    assert capsys.readouterr().out == ""
