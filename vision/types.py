"""Plain values that vision reports. Shared by every vision module and by referee/observe.py.

Vision imports nothing of referee/: it speaks in card codes, pixel corners, table millimetres and
capture times. Everything here is frozen and cheap to copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# Card size in millimetres (poker size); every deck of the project uses it.
CARD_W_MM = 63.5
CARD_H_MM = 88.9

UNKNOWN = "?"


@dataclass(frozen=True)
class Frame:
    """One camera picture with its capture time on the table's monotonic clock (seconds)."""

    image: np.ndarray  # BGR, uint8, HxWx3
    t: float
    index: int = 0


@dataclass(frozen=True)
class Detection:
    """One card seen in one image.

    code is the deck's card code (e.g. "10H", "W6-R7"), or UNKNOWN when it could not be read:
    never a guess. back is the back colour name when the card lies face down, else None.
    corners are the card's four corners in image pixels, clockwise from the top-left of the
    card as printed. confidence is in 0..1.
    """

    code: str
    corners: tuple[tuple[float, float], ...]
    confidence: float
    face_up: bool = True
    back: str | None = None
    covered: float = 0.0  # estimated fraction of the card hidden (another card, a hand)
    # the card whose template fits the picture best (a code, or "back:<colour>") and how far the
    # picture is from it (mean squared residual), also where the read is too unsure to name the
    # card: not a guess to act on, but what lets two reads of one card on two outlines be
    # settled (identify.settle); None where the reader does not measure them
    best_fit: str | None = None
    fit_error: float | None = None


@dataclass(frozen=True)
class CardAtRest:
    """Tracking's output: a card that came to rest, in table millimetres."""

    code: str
    x_mm: float
    y_mm: float
    angle_deg: float
    t: float  # capture time of the first frame in which it rested
    face_up: bool = True
    back: str | None = None
    from_zone: str | None = None  # the zone it left (e.g. "seat2.row3"), if seen
    entry_edge: int | None = None  # seat number whose table edge the arm came from
    extra: dict = field(default_factory=dict)


# --- Tracking observations (vision/track.py). One small frozen value per kind of table change;
# every one carries t, the capture time of the frame that showed it, on the table's clock.
# zone strings use the rules core's place text where one applies ("row:2:4", "waste:1", "up:3",
# "store:1:2", "discard", "pattern:5:3"), "zone:N" for the rest of seat N's zone and "centre".


@dataclass(frozen=True)
class CardSeen:
    """One card of a deal snapshot: where it lies, in table millimetres."""

    code: str
    x_mm: float
    y_mm: float
    angle_deg: float
    zone: str
    seat: int | None = None  # the seat whose zone it lies in
    face_up: bool = True
    back: str | None = None


@dataclass(frozen=True)
class CardRestObs:
    """A card came to rest (and no hand covers it) at a new place.

    t is the capture time of the FIRST frame in which it rested. seat is the seat zone it left
    (from_zone) when that was seen, else the seat whose table edge the arm that brought it came
    from (None when no arm was seen).
    """

    code: str
    x_mm: float
    y_mm: float
    angle_deg: float
    zone: str
    t: float
    seat: int | None = None
    from_zone: str | None = None
    face_up: bool = True
    back: str | None = None
    kind: str = "card_rest"


@dataclass(frozen=True)
class RevealObs:
    """A card face appeared in a seat zone (waste top after a turn, row refill, new UP card)."""

    code: str
    x_mm: float
    y_mm: float
    zone: str
    seat: int | None
    t: float
    kind: str = "reveal"


@dataclass(frozen=True)
class TakeBackObs:
    """A card was removed from a centre place; t is the first frame in which it was gone."""

    code: str
    x_mm: float
    y_mm: float
    zone: str
    t: float
    seat: int | None = None
    kind: str = "take_back"


@dataclass(frozen=True)
class LeftUnseenObs:
    """A card left a seat's row slot and was not seen to land (a hand or the next card hid it
    where it went); t is the first frame in which it was gone from the slot."""

    code: str
    x_mm: float
    y_mm: float
    zone: str
    t: float
    seat: int | None = None
    kind: str = "left_unseen"


@dataclass(frozen=True)
class DealObs:
    """The initial layout, seen once the table was first still and free of hands."""

    cards: tuple[CardSeen, ...]
    t: float
    kind: str = "deal"


@dataclass(frozen=True)
class HandOverTableObs:
    """Hands over the table changed: seats lists the table edges arms come from (empty: none)."""

    seats: tuple[int, ...]
    t: float
    kind: str = "hand_over_table"


@dataclass(frozen=True)
class BlockObs:
    """A block came to rest on top of Wonky's tower (seen from above); t: its first still frame.

    size is "small", "medium" or "large"; confidence in 0..1 says how clearly the top face's
    measured size fitted that size rather than the next one.
    """

    colour: str
    size: str
    t: float
    seat: int | None = None
    confidence: float = 1.0
    kind: str = "block"


@dataclass(frozen=True)
class TowerFellObs:
    """The tower lost blocks (fell, or a block was taken off): blocks_left still stand."""

    blocks_left: int
    t: float
    kind: str = "tower_fell"


TableObservation = (CardRestObs | RevealObs | TakeBackObs | LeftUnseenObs | DealObs
                    | HandOverTableObs | BlockObs | TowerFellObs)
