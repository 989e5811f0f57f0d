"""Random Wackee-Six-like timelines for the simulated table (benchmarks and tests).

No rules are checked: this only produces plausible table traffic. Each seat has a dealt row of
six face-up cards; seats play row cards and hand cards onto centre piles (several seats at once),
refill row gaps (reveal), turn waste cards (reveal) and now and then take a card back.
"""

from __future__ import annotations

import math

import numpy as np

from vision.layout import TableLayout
from vision.render import CardPose, DeckLike
from vision.sim_table import TableAction


def random_game(layout: TableLayout, deck: DeckLike, rng: np.random.Generator,
                n_actions: int = 20, pace_s: float = 0.9,
                piles: int = 6) -> tuple[list[CardPose], list[TableAction]]:
    """(initial cards, actions) of a random game on a Wackee Six layout.

    Every printed copy is in play (a deck's counts: Wig Out holds five of each character), so
    that the same face can lie in two places at once, as on a real table."""
    counts = getattr(deck, "counts", {})
    codes = [c for c in deck.codes for _ in range(counts.get(c, 1))]  # type: ignore[attr-defined]
    rng.shuffle(codes)
    initial: list[CardPose] = []
    rows: dict[str, str] = {}
    for s in layout.seats:
        for k in range(1, 7):
            zone = f"row:{s.number}:{k}"
            if not codes or zone not in layout.spots:
                continue
            b = layout.spots[zone]
            code = codes.pop()
            rows[zone] = code
            initial.append(CardPose(deck, code, b.cx + rng.normal(0, 1), b.cy + rng.normal(0, 1),
                                    b.angle_deg + rng.normal(0, 1.5), key=code))
    cx, cy = layout.centre
    cb = layout.centre_box
    cols = math.ceil(piles / 2)
    pile_pts = [(cx + (i % cols - (cols - 1) / 2) * min(110, cb.w / (cols + 0.5)),
                 cy + (i // cols - 0.5) * 130) for i in range(piles)]
    pile_top: dict[int, str] = {}
    actions: list[TableAction] = []
    seat_free = {s.number: 0.3 + rng.uniform(0, 0.5) for s in layout.seats}
    pile_free = {i: 0.0 for i in range(piles)}
    gaps: dict[int, list[str]] = {s.number: [] for s in layout.seats}
    while len(actions) < n_actions and codes:
        seat = int(rng.choice(list(seat_free)))
        t = seat_free[seat]
        r = rng.uniform()
        if gaps[seat] and r < 0.3:
            zone = gaps[seat].pop(0)
            code = codes.pop()
            rows[zone] = code
            actions.append(TableAction(t, "reveal", seat, code, deck, zone=zone))
            seat_free[seat] = t + pace_s * rng.uniform(0.7, 1.3)
            continue
        if r < 0.42 and f"waste:{seat}" in layout.spots:
            code = codes.pop()
            actions.append(TableAction(t, "reveal", seat, code, deck, zone=f"waste:{seat}"))
            seat_free[seat] = t + pace_s * rng.uniform(0.7, 1.3)
            continue
        free = [i for i in range(piles) if pile_free[i] <= t]
        if not free:
            seat_free[seat] = t + 0.3
            continue
        p = int(rng.choice(free))
        if r < 0.5 and p in pile_top:
            actions.append(TableAction(t, "take_back", seat, pile_top.pop(p), deck,
                                       to_mm=pile_pts[p]))
            pile_free[p] = t + 1.4
            seat_free[seat] = t + pace_s * rng.uniform(0.8, 1.4)
            continue
        own = [z for z in rows if z.startswith(f"row:{seat}:")]
        if own and rng.uniform() < 0.6:
            zone = own[int(rng.integers(len(own)))]
            code = rows.pop(zone)
            gaps[seat].append(zone)
            from_zone: str | None = zone
        else:
            code = codes.pop()
            from_zone = None
        jx, jy = rng.normal(0, 6, 2)
        to = (pile_pts[p][0] + jx, pile_pts[p][1] + jy)
        actions.append(TableAction(t, "place", seat, code, deck, from_zone=from_zone, to_mm=to))
        pile_top[p] = code
        pile_free[p] = t + 1.2  # piles are not hit twice within a second (ties are rare)
        seat_free[seat] = t + pace_s * rng.uniform(0.7, 1.3)
    return initial, actions
