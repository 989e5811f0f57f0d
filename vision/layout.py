"""Where things lie on the table, in table millimetres: seat zones, the centre and the spots.

Table coordinates: origin at the top-left corner of the marked play area (marker 0), x to the
right, y towards seat 1's edge (the bottom of a straight-down picture). Seats are numbered 1..N
clockwise as seen from above, starting at the bottom edge. Each seat has a zone along its table
edge, a rectangle whose local u axis runs along the edge from the player's left to right and
whose v axis points from the edge towards the centre.

Zone names use the rules core's place text where one exists ("row:2:4", "waste:2", "up:1",
"store:1:3", "discard", "pattern:5:3"), "zone:N" for the rest of seat N's zone and "centre".

>>> lay = make_layout(4)
>>> lay.zone_at(550.0, 450.0)
'centre'
>>> lay.seat_for_edge_point(550.0, 910.0)
1
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from vision.types import CARD_H_MM, CARD_W_MM


class LayoutError(ValueError):
    """A layout that cannot be built (seat count, table too small)."""


GAMES = ("wackee-six", "spite-and-malice", "slap-wacky", "wig-out", "wonky")

ZONE_DEPTH_MM = 120.0  # a seat zone reaches this far in from its edge
SLOT_PITCH_MM = 72.0  # distance between neighbouring card spots in a seat zone


@dataclass(frozen=True)
class Box:
    """An oriented rectangle: centre, size along its own axes, angle of its u axis (degrees)."""

    cx: float
    cy: float
    w: float
    h: float
    angle_deg: float = 0.0

    def local(self, x: float, y: float) -> tuple[float, float]:
        a = math.radians(self.angle_deg)
        dx, dy = x - self.cx, y - self.cy
        return dx * math.cos(a) + dy * math.sin(a), -dx * math.sin(a) + dy * math.cos(a)

    def contains(self, x: float, y: float) -> bool:
        u, v = self.local(x, y)
        return abs(u) <= self.w / 2 and abs(v) <= self.h / 2

    def corners(self) -> list[tuple[float, float]]:
        a = math.radians(self.angle_deg)
        ux, uy = math.cos(a), math.sin(a)
        vx, vy = -math.sin(a), math.cos(a)
        out = []
        for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            out.append((self.cx + su * self.w / 2 * ux + sv * self.h / 2 * vx,
                        self.cy + su * self.w / 2 * uy + sv * self.h / 2 * vy))
        return out


@dataclass(frozen=True)
class Seat:
    """One seat: its number, its anchor on the table edge and the inward direction."""

    number: int
    edge: str  # "bottom", "left", "top", "right"
    ax: float  # anchor on the edge (mm)
    ay: float
    nx: float  # unit vector pointing into the table
    ny: float
    span: float  # length of its zone along the edge (mm)

    @property
    def card_angle_deg(self) -> float:
        """Angle (deg) of a card lying upright for this player (card's x axis = player's right)."""
        return math.degrees(math.atan2(self.nx, -self.ny))

    def point(self, u: float, v: float) -> tuple[float, float]:
        """Table point u mm to the player's right of the anchor and v mm in from the edge."""
        rx, ry = -self.ny, self.nx
        return self.ax + u * rx + v * self.nx, self.ay + u * ry + v * self.ny

    def zone_box(self) -> Box:
        cx, cy = self.point(0.0, ZONE_DEPTH_MM / 2)
        return Box(cx, cy, self.span, ZONE_DEPTH_MM, self.card_angle_deg)


# Seats per edge, clockwise from the bottom: (edge, fraction along the edge in clockwise order).
_SEAT_PLAN: dict[int, list[tuple[str, float]]] = {
    2: [("bottom", 0.5), ("top", 0.5)],
    3: [("bottom", 0.5), ("top", 0.25), ("top", 0.75)],
    4: [("bottom", 0.5), ("left", 0.5), ("top", 0.5), ("right", 0.5)],
    5: [("bottom", 0.5), ("left", 0.5), ("top", 0.25), ("top", 0.75), ("right", 0.5)],
    6: [("bottom", 0.25), ("bottom", 0.75), ("left", 0.5), ("top", 0.25), ("top", 0.75),
        ("right", 0.5)],
}


@dataclass
class TableLayout:
    """Seat zones, spots and the centre of one table for one game."""

    table_w: float
    table_h: float
    seats: list[Seat]
    game: str | None
    spots: dict[str, Box] = field(default_factory=dict)
    spot_seat: dict[str, int | None] = field(default_factory=dict)

    @property
    def n_seats(self) -> int:
        return len(self.seats)

    @property
    def centre(self) -> tuple[float, float]:
        return self.table_w / 2, self.table_h / 2

    @property
    def centre_box(self) -> Box:
        d = ZONE_DEPTH_MM
        return Box(self.table_w / 2, self.table_h / 2, self.table_w - 2 * d, self.table_h - 2 * d)

    def seat(self, number: int) -> Seat:
        return self.seats[number - 1]

    def seat_zone(self, x: float, y: float) -> int | None:
        """The seat whose zone holds this point, or None."""
        for s in self.seats:
            if s.zone_box().contains(x, y):
                return s.number
        return None

    def zone_at(self, x: float, y: float) -> str:
        """Most specific zone name for a table point: a spot, a seat zone, 'centre' or 'off'."""
        best: tuple[float, str] | None = None
        for name, box in self.spots.items():
            if box.contains(x, y):
                d = math.hypot(x - box.cx, y - box.cy)
                if best is None or d < best[0]:
                    best = (d, name)
        if best is not None:
            return best[1]
        s = self.seat_zone(x, y)
        if s is not None:
            return f"zone:{s}"
        if 0 <= x <= self.table_w and 0 <= y <= self.table_h:
            return "centre"
        return "off"

    def seat_of_zone(self, zone: str) -> int | None:
        """The seat a zone name belongs to (None for table areas)."""
        if zone in self.spot_seat:
            return self.spot_seat[zone]
        if zone.startswith("zone:"):
            return int(zone.split(":")[1])
        return None

    def seat_for_edge_point(self, x: float, y: float) -> int:
        """The seat whose edge anchor is nearest to a point on (or beyond) the table edge."""
        return min(self.seats, key=lambda s: math.hypot(x - s.ax, y - s.ay)).number

    def spot(self, name: str) -> Box:
        try:
            return self.spots[name]
        except KeyError:
            raise LayoutError(
                f"no spot {name!r} in this {self.game or 'plain'} layout; spots are: "
                f"{', '.join(sorted(self.spots))}") from None


def _seat_spots(lay: TableLayout, s: Seat, names: list[str]) -> None:
    """Spots in a line along the seat's edge, upright for the player, left to right."""
    n = len(names)
    pitch = min(SLOT_PITCH_MM, s.span / n)
    v = ZONE_DEPTH_MM / 2
    for i, name in enumerate(names):
        u = (i - (n - 1) / 2) * pitch
        cx, cy = s.point(u, v)
        lay.spots[name] = Box(cx, cy, min(pitch, CARD_W_MM + 8), CARD_H_MM + 8, s.card_angle_deg)
        lay.spot_seat[name] = s.number


def make_layout(seats: int, table_w: float = 1100.0, table_h: float = 900.0,
                game: str | None = "wackee-six") -> TableLayout:
    """The layout of a table with 2..6 seats for one game (None: seat zones and centre only).

    The default marked area (1100 x 900 mm) gives each of 4 seats room for 8 card spots 72 mm
    apart; with two seats on one edge (5 or 6 seats) spots closer than a card's width overlap:
    mark a longer table (about 1500 mm) for those.
    """
    if seats not in _SEAT_PLAN:
        raise LayoutError(f"{seats} seats: the referee handles 2 to 6 seats")
    if game is not None and game not in GAMES:
        raise LayoutError(f"unknown game {game!r}; games are: {', '.join(GAMES)}")
    if min(table_w, table_h) < 2 * ZONE_DEPTH_MM + CARD_H_MM:
        raise LayoutError(f"table {table_w:g} x {table_h:g} mm is too small for seat zones and a "
                          "centre; measure the marked area again (table size in the config)")
    plan = _SEAT_PLAN[seats]
    per_edge: dict[str, int] = {}
    for edge, _ in plan:
        per_edge[edge] = per_edge.get(edge, 0) + 1
    corner = ZONE_DEPTH_MM + 10.0  # keep spans clear of the corner markers and side zones
    out: list[Seat] = []
    for i, (edge, f) in enumerate(plan, start=1):
        length = table_w if edge in ("bottom", "top") else table_h
        span = (length - 2 * corner) / per_edge[edge]
        # fraction runs clockwise: bottom right->left, left bottom->top, top left->right, ...
        pos = corner + (length - 2 * corner) * f
        if edge == "bottom":
            out.append(Seat(i, edge, table_w - pos, table_h, 0.0, -1.0, span))
        elif edge == "left":
            out.append(Seat(i, edge, 0.0, table_h - pos, 1.0, 0.0, span))
        elif edge == "top":
            out.append(Seat(i, edge, pos, 0.0, 0.0, 1.0, span))
        else:
            out.append(Seat(i, edge, table_w, pos, -1.0, 0.0, span))
    lay = TableLayout(table_w, table_h, out, game)
    cx, cy = lay.centre
    for s in out:
        n = s.number
        if game == "wackee-six":
            _seat_spots(lay, s, [f"reserve:{n}"] + [f"row:{n}:{k}" for k in range(1, 7)]
                        + [f"waste:{n}"])
        elif game == "spite-and-malice":
            _seat_spots(lay, s, [f"up:{n}"] + [f"store:{n}:{k}" for k in range(1, 5)])
    if game in ("spite-and-malice", "wonky", "wig-out"):
        lay.spots["discard"] = Box(cx + 2.2 * SLOT_PITCH_MM, cy, CARD_W_MM + 10, CARD_H_MM + 10)
        lay.spot_seat["discard"] = None
        lay.spots["draw"] = Box(cx - 2.2 * SLOT_PITCH_MM, cy, CARD_W_MM + 10, CARD_H_MM + 10)
        lay.spot_seat["draw"] = None
    if game == "wonky":  # the block tower stands between the draw and discard piles
        lay.spots["tower"] = Box(cx, cy, 90.0, 90.0)
        lay.spot_seat["tower"] = None
    if game == "slap-wacky":
        # 6 pattern areas (3 x 2), each 4 positions in a 2 x 2 block.
        pw, ph = 2 * (CARD_W_MM + 6), 2 * (CARD_H_MM + 6)
        for g in range(6):
            gx = cx + (g % 3 - 1) * (pw + 12)
            gy = cy + (g // 3 - 0.5) * (ph + 12)
            for p in range(4):
                px = gx + (p % 2 - 0.5) * (CARD_W_MM + 6)
                py = gy + (p // 2 - 0.5) * (CARD_H_MM + 6)
                name = f"pattern:{g + 1}:{p + 1}"
                lay.spots[name] = Box(px, py, CARD_W_MM + 6, CARD_H_MM + 6)
                lay.spot_seat[name] = None
    return lay
