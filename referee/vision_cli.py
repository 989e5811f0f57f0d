"""`referee identify`: the cards in photos, for a person or as JSON."""

from __future__ import annotations

import json
import sys
from typing import Any


def identify_images(paths: list[str], deck_name: str, as_json: bool) -> int:
    from vision.decks import get_deck
    from vision.identify import identify, read_image

    deck = get_deck(deck_name)
    images = [(path, read_image(path)) for path in paths]  # every file checked before any work
    for path, image in images:
        cards = identify(image, deck)
        if as_json:
            record: dict[str, Any] = {"image": path, "deck": deck.name, "cards": [
                {"code": c.code, "corners": [[round(x, 1), round(y, 1)] for x, y in c.corners],
                 "confidence": round(c.confidence, 3), "face_up": c.face_up, "back": c.back}
                for c in cards]}
            sys.stdout.write(json.dumps(record) + "\n")
            continue
        print(f"{path}: {len(cards)} card(s), deck {deck.name}")
        for c in cards:
            corners = " ".join(f"({x:.0f},{y:.0f})" for x, y in c.corners)
            what = c.code if c.face_up else f"face down, back {c.back or 'unknown'}"
            if c.code == "?" and c.face_up:
                what = "unknown (could not be read)"
            print(f"  {what:<28} confidence {c.confidence:.2f}  corners {corners}")
    return 0
