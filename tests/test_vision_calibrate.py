"""Calibration finds the four markers of a rendered table and recovers its homography."""

import numpy as np
import pytest

from vision.calibrate import Calibration, CalibrationError, calibrate
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
    import cv2

    from vision.calibrate import detect_markers
    found = detect_markers(cv2.imread(str(png)))
    assert sorted(found) == [0, 1, 2, 3]
