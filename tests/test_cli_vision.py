"""`referee identify`, `print-deck` and `markers` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.cli import main
from vision.decks import get_deck


def scene(tmp_path: Path) -> Path:
    """Two cards of the Wackee Six deck, upright and turned, on a green cloth."""
    deck = get_deck("wackee-six")
    image = np.full((900, 1200, 3), (40, 110, 40), np.uint8)
    for code, (x, y), angle in (("R7", (350, 450), 0), ("B12", (800, 450), 30)):
        face = deck.render_face(code, px_per_mm=4.0)
        h, w = face.shape[:2]
        m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
        m[:, 2] += (x - w / 2, y - h / 2)
        mask = cv2.warpAffine(np.full((h, w), 255, np.uint8), m, (1200, 900))
        warped = cv2.warpAffine(face, m, (1200, 900))
        image[mask > 0] = warped[mask > 0]
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), image)
    return path


def test_identify_prints_codes_corners_and_confidence(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = scene(tmp_path)
    assert main(["identify", str(path), "--deck", "wackee-six", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    codes = sorted(c["code"] for c in record["cards"])
    assert codes == ["B12", "R7"]
    for card in record["cards"]:
        assert len(card["corners"]) == 4 and 0.0 <= card["confidence"] <= 1.0
    assert main(["identify", str(path), "--deck", "wackee-six"]) == 0
    assert "R7" in capsys.readouterr().out


@pytest.mark.parametrize(("args", "message"), [
    (["identify", "/nope/photo.jpg"], "/nope/photo.jpg does not exist"),
    (["identify", "README.md", "--deck", "standard"], "cannot be read as an image"),
    (["identify", "README.md", "--deck", "tarot"], "tarot"),
])
def test_identify_errors_are_one_clear_line(args: list[str], message: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_print_deck_and_markers_write_pdfs(tmp_path: Path) -> None:
    out = tmp_path / "wonky.pdf"
    assert main(["print-deck", "wonky", "-o", str(out)]) == 0
    assert out.read_bytes().startswith(b"%PDF")
    sheet = tmp_path / "markers.pdf"
    assert main(["markers", "-o", str(sheet)]) == 0
    assert sheet.read_bytes().startswith(b"%PDF")
