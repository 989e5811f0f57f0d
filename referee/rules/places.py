"""Where a card lies or came from, as a small value with a compact text form.

The text form is what the table log stores: ``pile:3``, ``row:2:4`` (seat 2, slot 4),
``store:1:2`` (seat 1, store pile 2), ``pattern:5:3`` (pattern group 5, position 3).

>>> Place.parse("row:2:4")
Place(area='row', seat=2, index=4)
>>> str(Place("pile", index=3))
'pile:3'
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import EventError

# Areas that belong to one seat: written area:seat[:index].
SEAT_AREAS = frozenset(
    {
        "row",  # Wackee Six: the 6 face-up row slots
        "reserve",  # Wackee Six: the 6 face-down reserve pile
        "waste",  # Wackee Six: the three-card turn's face-up waste
        "stock",  # Wackee Six: the rest of the deck, in hand
        "up",  # Spite and Malice: the UP card on the card stack
        "stack",  # Spite and Malice: the card stack (face down)
        "store",  # Spite and Malice: store piles 1..4
        "hand",  # a player's hand (never seen)
        "zone",  # the seat's zone in general (face-down cards laid out to be counted)
    }
)
# Areas shared by the table: written area[:index[:sub]].
TABLE_AREAS = frozenset(
    {
        "pile",  # a centre pile (Wackee Six, Wig Out, Spite and Malice build piles)
        "pattern",  # Slap Wacky: pattern group G, position P
        "discard",  # the discard pile (Spite and Malice, Wonky)
        "draw",  # the draw pile / deck
        "unseen",  # the camera did not see where it came from (or, as `to`, where it went)
    }
)
AREAS = SEAT_AREAS | TABLE_AREAS


@dataclass(frozen=True, slots=True)
class Place:
    area: str
    seat: int | None = None
    index: int | None = None

    def __str__(self) -> str:
        parts = [self.area]
        if self.seat is not None:
            parts.append(str(self.seat))
        if self.index is not None:
            parts.append(str(self.index))
        return ":".join(parts)

    @classmethod
    def parse(cls, text: str) -> Place:
        return _parse_cached(text)

    @property
    def sub(self) -> int | None:
        """For table areas with two numbers (pattern:G:P) the second one."""
        return self.index if self.area == "pattern" else None

    @property
    def group(self) -> int | None:
        return self.seat if self.area == "pattern" else None


_CACHE: dict[str, Place] = {}


def _parse_cached(text: str) -> Place:
    place = _CACHE.get(text)
    if place is None:
        place = _parse(text)
        if len(_CACHE) < 10_000:
            _CACHE[text] = place
    return place


def _parse(text: str) -> Place:
    if not isinstance(text, str) or not text:
        raise EventError(f"a place must be text like 'pile:3' or 'row:2:4', not {text!r}")
    area, *nums = text.split(":")
    if area not in AREAS:
        known = ", ".join(sorted(AREAS))
        raise EventError(f"unknown place area {area!r} in {text!r}; known areas: {known}")
    try:
        numbers = [int(n) for n in nums]
    except ValueError:
        raise EventError(f"place {text!r}: the parts after the area must be whole numbers") from None
    if any(n < 1 for n in numbers) or len(numbers) > 2:
        raise EventError(f"place {text!r}: at most two numbers, each 1 or more")
    if area in SEAT_AREAS:
        if not numbers:
            raise EventError(f"place {text!r}: a seat area needs the seat, like '{area}:1'")
        return Place(area, numbers[0], numbers[1] if len(numbers) > 1 else None)
    if area == "pattern":
        if len(numbers) != 2:
            raise EventError(f"place {text!r}: a pattern place is 'pattern:GROUP:POSITION'")
        return Place(area, numbers[0], numbers[1])
    if len(numbers) > 1:
        raise EventError(f"place {text!r}: '{area}' takes at most one number")
    return Place(area, None, numbers[0] if numbers else None)
