"""Calibration finds the four markers of a rendered table and recovers its homography."""

import cv2
import numpy as np
import pytest

from vision.calibrate import Calibration, CalibrationError, calibrate, detect_markers, play_area
from vision.markers import write_marker_sheet
from vision.render import CameraSpec, Look, Renderer


@pytest.mark.parametrize("tilt,yaw", [(0.0, 0.0), (30.0, 15.0)])
def test_calibration_recovers_table_mm(tilt, yaw):
    r = Renderer(CameraSpec(width=1280, height=720, tilt_deg=tilt, yaw_deg=yaw), Look(),
                 1100, 900, np.random.default_rng(3))
    img = r.render([], [], np.random.default_rng(0)).image
    cal = calibrate(img, 1100, 900)
    pts = np.array([[100, 100], [550, 450], [1000, 800], [1050, 100]], float)
    px = r.project(pts)
    back = cal.to_table(px)
    assert np.max(np.linalg.norm(back - pts, axis=1)) < 3.0  # within a few mm
    assert cal.error_mm < 2.0


@pytest.mark.parametrize("width,height,blur,tilt,yaw", [
    (1920, 1080, 2.0, 15.0, -10.0), (1920, 1080, 2.0, 25.0, 10.0), (1280, 720, 1.5, 25.0, 10.0)])
def test_a_blurred_far_marker_is_found(width, height, blur, tilt, yaw):
    """Marker 0, far from a tilted camera and lens-blurred, still reads (lost before: its lone
    bits smear into their neighbours)."""
    r = Renderer(CameraSpec(width=width, height=height, tilt_deg=tilt, yaw_deg=yaw),
                 Look(blur_sigma=blur, glare=0.0), 1100, 900, np.random.default_rng(3))
    img = r.render([], [], np.random.default_rng(0)).image
    cal = calibrate(img, 1100, 900)
    pts = np.array([[60, 60], [550, 450], [1040, 840]], float)
    assert np.max(np.linalg.norm(cal.to_table(r.project(pts)) - pts, axis=1)) < 3.0


def test_a_marker_too_small_at_full_size_is_found_in_the_doubled_picture():
    r = Renderer(CameraSpec(width=1920, height=1080, tilt_deg=20.0), Look(glare=0.0), 1100, 900,
                 np.random.default_rng(3))
    img = r.render([], [], np.random.default_rng(0)).image
    small = cv2.resize(img, (480, 270), interpolation=cv2.INTER_AREA)  # markers ~15 px across
    cal = calibrate(small, 1100, 900)
    pts = np.array([[60, 60], [550, 450], [1040, 840]], float)
    px = r.project(pts) * 0.25 + (0.25 - 1) / 2  # pixel centres of the 4x smaller picture
    assert np.max(np.linalg.norm(cal.to_table(px) - pts, axis=1)) < 4.0  # a pixel is ~4 mm


def test_missing_markers_are_named(tmp_path):
    r = Renderer(CameraSpec(width=960, height=540), Look.clean(), 1100, 900,
                 np.random.default_rng(0))
    img = r.render([], [], np.random.default_rng(0)).image
    img[:, img.shape[1] // 2:] = 80  # hide the right half: markers 1 and 2
    with pytest.raises(CalibrationError, match=r"1 \(top-right\), 2 \(bottom-right\)"):
        calibrate(img, 1100, 900)


def test_calibration_round_trip_and_marker_sheet(tmp_path):
    r = Renderer(CameraSpec(width=960, height=540), Look.clean(), 1100, 900,
                 np.random.default_rng(0))
    cal = calibrate(r.render([], [], np.random.default_rng(0)).image, 1100, 900)
    cal.save(tmp_path / "cal.json")
    again = Calibration.load(tmp_path / "cal.json")
    assert np.allclose(again.image_to_table, cal.image_to_table)
    out = write_marker_sheet(tmp_path / "markers.pdf")
    assert out.read_bytes()[:4] == b"%PDF"
    png = write_marker_sheet(tmp_path / "markers.png")
    found = detect_markers(cv2.imread(str(png)))
    assert sorted(found) == [0, 1, 2, 3]


def test_the_play_area_is_the_markers_outer_corners():
    r = Renderer(CameraSpec(width=1280, height=720, tilt_deg=20.0, yaw_deg=10.0), Look(glare=0.0),
                 1100, 900, np.random.default_rng(3))
    img = r.render([], [], np.random.default_rng(0)).image
    area, margins = play_area(img)
    corners = r.project(np.array([[0, 0], [1100, 0], [1100, 900], [0, 900]], float))
    assert area is not None
    assert np.max(np.linalg.norm(area - corners, axis=1)) < 2.0
    # each marker with its white margin around it, on the black square's centre
    squares = sorted(detect_markers(img).values(), key=lambda q: tuple(q.mean(axis=0)))
    margins = sorted(margins, key=lambda q: tuple(q.mean(axis=0)))
    assert len(margins) == 4
    for m, sq in zip(margins, squares, strict=True):
        assert np.linalg.norm(m.mean(axis=0) - sq.mean(axis=0)) < 1.0
        assert np.linalg.norm(m[0] - m[2]) == pytest.approx(1.6 * np.linalg.norm(sq[0] - sq[2]), rel=0.01)


def test_a_picture_without_all_four_markers_has_no_play_area():
    r = Renderer(CameraSpec(width=960, height=540), Look.clean(), 1100, 900,
                 np.random.default_rng(0))
    img = r.render([], [], np.random.default_rng(0)).image
    img[:, img.shape[1] // 2:] = 80  # markers 1 and 2 hidden
    area, margins = play_area(img)
    assert area is None and len(margins) == 2
    bare = np.full((540, 960, 3), 90, np.uint8)  # no marker at all
    assert play_area(bare) == (None, [])
