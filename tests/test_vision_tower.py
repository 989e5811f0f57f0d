"""Wonky's tower through the camera: the camera model from the markers, block colours and sizes
on a growing tower, blocks taken off, falls, hands that rest nearby. Frames rendered in the test
(vision/sim_tower.py); figures on many random towers: bench/vision_blocks.py."""

from __future__ import annotations

import numpy as np
import pytest

from vision.blocks import BlockPose, UnknownBlockColourError, camera_from_homography, colour_hue
from vision.calibrate import calibrate
from vision.layout import make_layout
from vision.render import CameraSpec, HandPose, Look, Renderer
from vision.sim_tower import SimTower, TowerAction
from vision.tower import TowerWatcher
from vision.types import BlockObs, Frame, TowerFellObs

SIZE = (1280, 720)
FPS = 30.0
WOOD = Look(cloth="wood", cloth_bgr=(60, 95, 140))


def _watch(actions: list[TowerAction], duration: float, camera: CameraSpec, look: Look = WOOD,
           seed: int = 3) -> tuple[list, list]:
    """(what the watcher reported, the simulator's truth)."""
    lay = make_layout(4, game="wonky")
    spot = (lay.spots["tower"].cx, lay.spots["tower"].cy)
    sim = SimTower(lay, spot, actions, np.random.default_rng(seed))
    watcher = None
    seen: list = []
    truth: list = []
    for frame, so_far in sim.frames(camera, look, fps=FPS, duration=duration):
        truth = so_far
        if watcher is None:
            cal = calibrate(frame.image, lay.table_w, lay.table_h)
            watcher = TowerWatcher(cal.table_to_image, SIZE, spot, hfov_deg=camera.hfov_deg)
        seen.extend(watcher.update(frame))
    return seen, truth


def test_the_camera_is_placed_from_the_table_markers_and_the_lens() -> None:
    cam = CameraSpec(width=SIZE[0], height=SIZE[1], hfov_deg=66.0, tilt_deg=14.0, yaw_deg=35.0)
    r = Renderer(cam, Look.clean(), 1100.0, 900.0)
    model = camera_from_homography(r.h_table, SIZE, 66.0)
    assert np.allclose(model.c, r.c, atol=1.0)
    top = np.array([[550.0, 450.0, 120.0]])
    assert np.allclose(model.project(top), r.project(top[:, :2], 120.0), atol=0.5)


def test_block_colours_must_be_known() -> None:
    assert colour_hue("red") != colour_hue("green")
    with pytest.raises(UnknownBlockColourError, match="known colours are"):
        colour_hue("mauve")


def test_blocks_are_read_by_colour_and_size_as_the_tower_grows() -> None:
    # a small block on a tall tower looks bigger than a large one on the table: sizes are
    # measured on the plane of each block's own top face
    blocks = [("red", "large"), ("blue", "medium"), ("green", "small"), ("red", "medium"),
              ("blue", "small")]
    actions = [TowerAction(1.0 + 1.4 * k, "add", 1 + k % 4, c, s) for k, (c, s) in enumerate(blocks)]
    cam = CameraSpec(width=SIZE[0], height=SIZE[1], hfov_deg=66.0, tilt_deg=10.0, yaw_deg=20.0)
    seen, truth = _watch(actions, 8.5, cam)
    assert [(o.colour, o.size) for o in seen] == blocks
    assert all(isinstance(o, BlockObs) for o in seen)
    for o, t in zip(seen, truth, strict=True):
        assert abs(o.t - t.t) <= 2 / FPS + 1e-6  # the first frame the block lay still


def test_a_block_taken_off_and_a_fall_are_seen_with_the_blocks_left() -> None:
    actions = [TowerAction(1.0, "add", 1, "red", "large"), TowerAction(2.4, "add", 2, "green", "medium"),
               TowerAction(3.8, "add", 3, "blue", "small"), TowerAction(5.0, "take_off", 3),
               TowerAction(7.0, "fall")]
    cam = CameraSpec(width=SIZE[0], height=SIZE[1], hfov_deg=70.0, tilt_deg=6.0)
    seen, truth = _watch(actions, 8.5, cam)
    fells = [o for o in seen if isinstance(o, TowerFellObs)]
    assert [o.blocks_left for o in fells] == [2, 0]
    want = [t for t in truth if isinstance(t, TowerFellObs)]
    for o, t in zip(fells, want, strict=True):
        assert abs(o.t - t.t) <= 3 / FPS + 1e-6
    assert [(o.colour, o.size) for o in seen if isinstance(o, BlockObs)] == [
        ("red", "large"), ("green", "medium"), ("blue", "small")]


def test_a_hand_resting_by_the_tower_is_not_a_block() -> None:
    lay = make_layout(4, game="wonky")
    spot = (lay.spots["tower"].cx, lay.spots["tower"].cy)
    cam = CameraSpec(width=SIZE[0], height=SIZE[1], hfov_deg=66.0, tilt_deg=8.0)
    rng = np.random.default_rng(1)
    r = Renderer(cam, WOOD, lay.table_w, lay.table_h, rng)
    base = [BlockPose("blue", "large", spot[0], spot[1])]
    watcher = None
    seen: list = []
    for k in range(60):
        t = k / FPS
        hands = []
        if 0.5 <= t < 1.6:  # an arm reaches in and rests by the tower, then leaves
            u = min(1.0, (t - 0.5) / 0.3)
            hand = (spot[0] + 40.0, spot[1] + 300.0 - 230.0 * u)
            hands = [HandPose((spot[0] + 60.0, spot[1] + 600.0), hand, height_mm=70.0)]
        image = r.render([], hands, rng, blocks=base).image
        if watcher is None:
            cal = calibrate(image, lay.table_w, lay.table_h)
            watcher = TowerWatcher(cal.table_to_image, SIZE, spot, hfov_deg=66.0)
        seen.extend(watcher.update(Frame(image, t, k)))
    assert seen == []
