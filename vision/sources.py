"""Camera sources behind one small interface: iterate for Frames; close(); use as a context.

Every frame carries its capture time on one monotonic clock: time.monotonic() for live cameras
(the Pi camera's sensor timestamp is CLOCK_MONOTONIC-based, the same clock), a virtual clock for
files, folders and the simulator.

>>> with open_source("sim", seconds=0.1) as src:
...     frames = list(src)
>>> len(frames) > 0 and frames[0].image.shape[2] == 3
True
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.types import Frame

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")


class SourceError(ValueError):
    """A source spec, file or folder that cannot be used."""


class CameraUnavailableError(RuntimeError):
    """The camera (or its driver) is missing or cannot be opened."""


class Source:
    """Base of all sources: an iterator of Frames that can be closed (idempotently)."""

    closed = False

    def __iter__(self) -> Iterator[Frame]:
        return self

    def __next__(self) -> Frame:
        if self.closed:
            raise StopIteration
        f = self.read()
        if f is None:
            raise StopIteration
        return f

    def read(self) -> Frame | None:  # pragma: no cover - overridden
        raise NotImplementedError

    def close(self) -> None:
        self.closed = True

    def __enter__(self) -> Source:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class PicameraSource(Source):
    """The Raspberry Pi camera through Picamera2 (libcamera), frames stamped at the sensor.

    SensorTimestamp (ns, CLOCK_MONOTONIC-based) becomes seconds on time.monotonic()'s clock.
    """

    INSTALL_HINT = ("picamera2 is not installed: on Raspberry Pi OS run `sudo apt install "
                    "python3-picamera2` and create the venv with --system-site-packages")

    def __init__(self, size: tuple[int, int] = (1920, 1080), fps: float = 30.0,
                 camera_num: int = 0, controls: dict[str, Any] | None = None) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError:
            raise CameraUnavailableError(self.INSTALL_HINT) from None
        try:
            self._cam = Picamera2(camera_num)
            ctl = {"FrameRate": float(fps), **(controls or {})}
            # RGB888 is stored B, G, R per pixel: OpenCV's BGR, no conversion needed.
            cfg = self._cam.create_video_configuration(
                main={"size": tuple(size), "format": "RGB888"}, controls=ctl, buffer_count=4)
            self._cam.configure(cfg)
            self._cam.start()
        except (IndexError, RuntimeError, OSError) as e:
            raise CameraUnavailableError(
                f"Pi camera {camera_num} cannot be opened ({e}); check the ribbon cable and that "
                "no other program (rpicam-hello, another referee) uses the camera") from None
        self._index = 0

    def read(self) -> Frame | None:
        req = self._cam.capture_request()
        try:
            image = req.make_array("main")
            meta = req.get_metadata()
        finally:
            req.release()
        ts = meta.get("SensorTimestamp")
        t = ts / 1e9 if ts else time.monotonic()
        f = Frame(np.ascontiguousarray(image[:, :, :3]), float(t), self._index)
        self._index += 1
        return f

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            try:
                self._cam.stop()
                self._cam.close()
            except Exception:  # noqa: BLE001 - closing a broken camera must not raise
                pass


class VideoCaptureSource(Source):
    """A USB camera (by index) or a video file through OpenCV's VideoCapture.

    Live cameras are stamped with time.monotonic() when the frame is grabbed; files with
    t0 + position in the file (their own clock), so replays are deterministic.
    """

    def __init__(self, target: int | str, size: tuple[int, int] | None = None,
                 fps: float | None = None, t0: float = 0.0) -> None:
        self.live = isinstance(target, int)
        if not self.live and not Path(str(target)).is_file():
            raise SourceError(f"video file {target} does not exist; give the path of a video "
                              "(file:PATH) or a camera number (usb:0)")
        self._cap = cv2.VideoCapture(target)
        if not self._cap.isOpened():
            self._cap.release()
            if self.live:
                raise CameraUnavailableError(
                    f"USB camera {target} cannot be opened; check it is plugged in, try another "
                    "number (usb:1) and that no other program uses it")
            raise SourceError(f"video file {target} cannot be read by OpenCV; convert it to MP4 "
                              "(H.264) or AVI (MJPG)")
        if size is not None:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        if fps is not None and self.live:
            self._cap.set(cv2.CAP_PROP_FPS, fps)
        file_fps = self._cap.get(cv2.CAP_PROP_FPS)
        self.fps = float(fps or (file_fps if file_fps and file_fps > 0 else 30.0))
        self.t0 = t0
        self._index = 0

    def read(self) -> Frame | None:
        ok = self._cap.grab()
        t = time.monotonic()
        if not ok:
            return None
        ok, image = self._cap.retrieve()
        if not ok or image is None:
            return None
        if not self.live:
            t = self.t0 + self._index / self.fps
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        f = Frame(image, t, self._index)
        self._index += 1
        return f

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._cap.release()


class FolderSource(Source):
    """The pictures of a folder in name order, stamped t0 + i / fps."""

    def __init__(self, folder: str | Path, fps: float = 30.0, t0: float = 0.0,
                 loop: bool = False) -> None:
        folder = Path(folder)
        if not folder.is_dir():
            raise SourceError(f"image folder {folder} does not exist; give a folder of "
                              f"pictures ({', '.join(IMAGE_SUFFIXES)}) as folder:DIR")
        self.paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.paths:
            raise SourceError(f"image folder {folder} holds no pictures "
                              f"({', '.join(IMAGE_SUFFIXES)})")
        if fps <= 0:
            raise SourceError(f"frame rate {fps} must be positive")
        self.fps, self.t0, self.loop = float(fps), t0, loop
        self._index = 0

    def read(self) -> Frame | None:
        n = len(self.paths)
        if self._index >= n and not self.loop:
            return None
        path = self.paths[self._index % n]
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise SourceError(f"picture {path} is unreadable; remove it from the folder")
        f = Frame(image, self.t0 + self._index / self.fps, self._index)
        self._index += 1
        return f


class SimSource(Source):
    """Frames of the simulated table (vision.sim_table.SimTable) on its virtual clock.

    With no table given, a still table with a few cards for `seconds` (a smoke test source).
    The truth events of the last frame are in .events.
    """

    def __init__(self, table: Any = None, seconds: float = 2.0, fps: float = 30.0,
                 size: tuple[int, int] = (1920, 1080), seed: int = 0) -> None:
        if table is None:
            from vision.layout import make_layout
            from vision.render import CameraSpec, CardPose, Look
            from vision.sim_standin import StandInDeck
            from vision.sim_table import SimTable

            deck, lay = StandInDeck(), make_layout(4)
            cards = [CardPose(deck, c, lay.spots[z].cx, lay.spots[z].cy, lay.spots[z].angle_deg)
                     for c, z in zip(deck.codes, sorted(lay.spots)[:8], strict=False)]
            table = SimTable(lay, deck, [], initial=cards, camera=CameraSpec(*size), look=Look(),
                             fps=fps, duration=seconds, rng=np.random.default_rng(seed))
        self.table = table
        self._it = iter(table)
        self.events: list = []

    def read(self) -> Frame | None:
        try:
            frame, self.events = next(self._it)
        except StopIteration:
            return None
        return frame


def open_source(spec: str, **kw: Any) -> Source:
    """A source from its text form: "picamera", "usb:N", "file:PATH", "folder:DIR", "sim".

    Keyword arguments go to the source's class (size, fps, ...).
    """
    kind, _, arg = spec.partition(":")
    kind = kind.strip().lower()
    if kind in ("picamera", "pi", "picamera2"):
        return PicameraSource(**kw)
    if kind == "usb":
        try:
            index = int(arg or "0")
        except ValueError:
            raise SourceError(f"camera source {spec!r}: usb needs a camera number, e.g. usb:0") \
                from None
        return VideoCaptureSource(index, **kw)
    if kind == "file":
        if not arg:
            raise SourceError(f"camera source {spec!r}: give the video path, e.g. file:game.mp4")
        return VideoCaptureSource(arg, **kw)
    if kind == "folder":
        if not arg:
            raise SourceError(f"camera source {spec!r}: give the folder, e.g. folder:frames/")
        return FolderSource(arg, **kw)
    if kind == "sim":
        return SimSource(**kw)
    raise SourceError(f"camera source {spec!r} is not known; use picamera, usb:N, file:PATH, "
                      "folder:DIR or sim")
