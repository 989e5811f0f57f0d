"""`referee run`: the appliance on a Raspberry Pi (or any machine with a camera).

Loads the one configuration file, opens the match store, the slap pads, buzzer and tilt sensor,
the camera, and the dashboard, and joins them in the table service. Stops cleanly on Ctrl-C or
SIGTERM (systemd).
"""

from __future__ import annotations

import argparse
import signal
import threading
import time
from pathlib import Path
from typing import Any

from referee.demo import seats_for
from referee.rules import PadPress, Tilt
from referee.table import Table


def run_appliance(args: argparse.Namespace) -> int:
    from hardware.buzzer import NullBuzzer
    from hardware.wiring import build_hardware
    from referee.config import load_config
    from referee.store import MatchStore
    from referee.vision_loop import VisionLoop, run_camera
    from vision.decks import get_deck
    from vision.layout import make_layout
    from vision.sources import open_source
    from web import create_app
    from web.server import serve

    config = load_config(Path(args.config) if args.config else None)
    clock = time.monotonic
    store_path = Path(config.store.path).expanduser()
    store_path.parent.mkdir(parents=True, exist_ok=True)
    table = Table(store=MatchStore(store_path), clock=clock)

    def on_press(seat: int, t: float) -> None:
        table.submit(PadPress(t, seat))

    def on_tilt(t: float, magnitude: float | None = None) -> None:
        table.submit(Tilt(t, magnitude))

    hardware: Any = None
    if config.hardware.enabled:
        hardware = build_hardware(
            config.hardware,
            on_press=on_press,
            on_tilt=on_tilt,
            clock=clock,
            seats=config.table.seats,
        )
        table.buzzer = hardware.buzzer
    else:
        table.buzzer = NullBuzzer()

    game = config.match.game
    seats = config.table.seats
    table.setup(game, seats_for(seats), dict(config.match.options))
    table.start_ticker()

    stop = threading.Event()
    kind = config.camera.source.partition(":")[0]
    options: dict[str, Any] = {"fps": float(config.camera.fps)}
    if kind in ("picamera", "usb"):
        options["size"] = (config.camera.width, config.camera.height)
    elif kind in ("file", "folder"):
        options["t0"] = clock()  # recorded frames are stamped on the table's clock from now
    source = open_source(config.camera.source, **options)
    layout = make_layout(seats, config.table.width_mm, config.table.height_mm, game=game)
    colours = tuple(c.strip() for c in str(table.snapshot()["options"].get(
        "colours", "red,green,blue")).split(","))
    if game == "wonky":
        from vision.blocks import colour_hue

        for colour in colours:  # an unknown colour: one clear error now, not in the camera thread
            colour_hue(colour)
    loop = VisionLoop(table, game, seats, get_deck(game), layout, config.camera.hfov_deg, colours)
    camera = threading.Thread(target=run_camera, args=(loop, source, stop), name="camera",
                              daemon=True)
    camera.start()

    app = create_app(table, config.web.app_config())
    server = serve(app, host=config.web.host, port=config.web.port)
    shown = "127.0.0.1" if config.web.host in ("0.0.0.0", "::") else config.web.host
    print(f"Referee running: {game}, {seats} seats. Dashboard: "
          f"{config.web.public_url or f'http://{shown}:{config.web.port}/'}", flush=True)

    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        table.stop()
        table.close()
        server.stop()
        source.close()
        if hardware is not None:
            hardware.close()
    return 0
