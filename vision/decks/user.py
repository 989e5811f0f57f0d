"""Enrolled (user) decks: rectified photos of each card stored under the data directory.

Layout: DATA/decks/NAME/deck.json ({"name", "codes", "back_colours"}) and DATA/decks/NAME/faces/
CODE.png, backs/COLOUR.png (rectified, portrait). DATA is $REFEREE_DATA, else
~/.local/share/referee.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from vision.decks.base import Canvas, Deck, card_size_px

STORE_PX_PER_MM = 5.0


def data_dir() -> Path:
    root = os.environ.get("REFEREE_DATA")
    return Path(root) if root else Path.home() / ".local" / "share" / "referee"


def decks_dir() -> Path:
    return data_dir() / "decks"


def safe_code(code: str) -> str:
    """File-name form of a code (codes are letters, digits, '-' and '*')."""
    return code.replace("*", "_any_")


def enrolled_names() -> list[str]:
    d = decks_dir()
    if not d.is_dir():
        return []
    return sorted(p.name for p in d.iterdir() if (p / "deck.json").is_file())


def _painter(images: dict[str, np.ndarray]):
    def paint(c: Canvas, key: str) -> None:
        img = images[key]
        resized = cv2.resize(img, (c.w, c.h), interpolation=cv2.INTER_AREA if c.w < img.shape[1]
                             else cv2.INTER_LINEAR)
        c.img.paste(Image.fromarray(np.ascontiguousarray(resized[:, :, ::-1])))
    return paint


def _read(path: Path) -> np.ndarray:
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise ValueError(f"enrolled deck file {path} cannot be read; enrol the deck again")
    return img


def load_enrolled(name: str) -> Deck:
    """The enrolled deck NAME (raises FileNotFoundError when there is none)."""
    root = decks_dir() / name
    meta_path = root / "deck.json"
    if not meta_path.is_file():
        raise FileNotFoundError(meta_path)
    meta = json.loads(meta_path.read_text())
    codes = tuple(meta["codes"])
    backs = tuple(meta.get("back_colours", ()))
    faces = {c: _read(root / "faces" / f"{safe_code(c)}.png") for c in codes}
    back_imgs = {b: _read(root / "backs" / f"{b}.png") for b in backs}
    deck = Deck(name, codes, backs, _painter(faces), _painter(back_imgs), kind="enrolled",
                title=meta.get("title", name))
    deck.base = meta.get("base")  # type: ignore[attr-defined]
    return deck


def save_enrolled(name: str, faces: dict[str, np.ndarray], backs: dict[str, np.ndarray],
                  base: str | None = None) -> Path:
    """Write rectified faces/backs (any size, portrait BGR) as an enrolled deck; returns its dir."""
    root = decks_dir() / name
    (root / "faces").mkdir(parents=True, exist_ok=True)
    (root / "backs").mkdir(parents=True, exist_ok=True)
    w, h = card_size_px(STORE_PX_PER_MM)
    for sub, imgs in (("faces", faces), ("backs", backs)):
        for key, img in imgs.items():
            out = cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)
            cv2.imwrite(str(root / sub / f"{safe_code(key)}.png"), out)
    meta = {"name": name, "codes": list(faces), "back_colours": list(backs), "base": base}
    (root / "deck.json").write_text(json.dumps(meta, indent=1))
    return root
