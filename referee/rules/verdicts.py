"""What the referee says about an event: legal, illegal (with reason and consequence), late,
ignored, or plain information. Always names the seat when there is one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

LEGAL = "legal"
ILLEGAL = "illegal"
LATE = "late"
IGNORED = "ignored"
INFO = "info"
RULINGS = (LEGAL, ILLEGAL, LATE, IGNORED, INFO)

# Consequences
TAKE_BACK = "take back"
PENALTY = "penalty"
NONE = None


@dataclass(frozen=True, slots=True)
class Verdict:
    t: float
    ruling: str
    seat: int | None
    text: str  # plain words for the dashboard: "Blue: take back the 6 on pile 3, ..."
    reason: str | None = None  # the rule broken, a short stable code (e.g. "pile-not-started")
    consequence: str | None = None  # TAKE_BACK, PENALTY, or None
    event: int | None = None  # index of the event in the match (None: a deadline fired)
    card: str | None = None
    place: str | None = None
    points: int = 0  # a points penalty (negative) where a match option sets one

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": self.t, "verdict": self.ruling, "seat": self.seat}
        out["text"] = self.text
        if self.reason is not None:
            out["reason"] = self.reason
        if self.consequence is not None:
            out["consequence"] = self.consequence
        if self.event is not None:
            out["event"] = self.event
        if self.card is not None:
            out["card"] = self.card
        if self.place is not None:
            out["place"] = self.place
        if self.points:
            out["points"] = self.points
        return out
