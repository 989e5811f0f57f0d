"""Camera sources: increasing capture times, clear errors for missing things."""

import sys

import cv2
import numpy as np
import pytest

from vision.sources import (
    CameraUnavailableError,
    FolderSource,
    PicameraSource,
    SourceError,
    open_source,
)


def _pic(i: int) -> np.ndarray:
    img = np.zeros((48, 64, 3), np.uint8)
    img[:, : 4 * (i + 1)] = 200
    return img


def test_folder_source_sorted_with_increasing_times(tmp_path):
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"f{i:02d}.png"), _pic(i))
    (tmp_path / "notes.txt").write_text("not a picture")
    with open_source(f"folder:{tmp_path}", fps=10) as src:
        frames = list(src)
    assert [f.index for f in frames] == [0, 1, 2]
    assert [round(f.t, 3) for f in frames] == [0.0, 0.1, 0.2]
    # sorted by name: the white band widens frame by frame
    widths = [int((f.image[0, :, 0] > 100).sum()) for f in frames]
    assert widths == sorted(widths) and widths[0] < widths[-1]


def test_video_file_source_stamps_increasing_times(tmp_path):
    path = tmp_path / "clip.avi"
    w = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 15, (64, 48))
    if not w.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG AVI")
    for i in range(6):
        w.write(_pic(i))
    w.release()
    with open_source(f"file:{path}") as src:
        frames = list(src)
    assert len(frames) == 6
    ts = [f.t for f in frames]
    assert all(b > a for a, b in zip(ts, ts[1:], strict=False))
    assert frames[0].image.shape == (48, 64, 3)


def test_missing_paths_give_clear_errors(tmp_path):
    with pytest.raises(SourceError, match="does not exist"):
        open_source(f"folder:{tmp_path / 'nope'}")
    with pytest.raises(SourceError, match="does not exist"):
        open_source(f"file:{tmp_path / 'nope.mp4'}")
    with pytest.raises(SourceError, match="holds no pictures"):
        FolderSource(tmp_path)
    with pytest.raises(SourceError, match="not known"):
        open_source("webcam")


def test_picamera_missing_gives_install_hint(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import picamera2 -> ImportError
    with pytest.raises(CameraUnavailableError, match="sudo apt install python3-picamera2"):
        PicameraSource()
    with pytest.raises(CameraUnavailableError, match="--system-site-packages"):
        open_source("picamera")


def test_sim_source_gives_frames_on_virtual_clock():
    with open_source("sim", seconds=0.2, size=(320, 180)) as src:
        frames = list(src)
    assert len(frames) == 7 and frames[-1].t == pytest.approx(0.2)
    assert frames[0].image.shape == (180, 320, 3)
