"""Reading the corner index (rank + suit) of an ordinary standard deck (placeholder)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class IndexRead:
    code: str
    confidence: float
    rot: int


def read_index(image: np.ndarray, corners: np.ndarray) -> IndexRead | None:
    return None
