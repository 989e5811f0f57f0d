"""Arms that touch over the table, told apart by where each was a frame before.

Seen from above, two arms that reach over the table at once often touch: the changed picture
then holds one blob that crosses the table's edge in two places. Which of them laid a card is a
question about one arm's hand, so the blob is shared out among its arms. An arm moves only a few
pixels from one frame to the next, so each of the blob's pixels that shows as it did goes to the
arm that held it a frame before; pixels that changed, or no arm held, grow from those and from
the arms' crossings through the blob. A card an arm carries is part of its blob, and so stays
that arm's when another arm comes to touch it; a card an arm let go of, once that arm has drawn
back, is no arm's (NO_ARM), though it touches others.

The tracker asks the shared-out arms only which one alone ends at a card where arms joined
over it (Tracker._seat_of_arm_over): where a hand moves onto another arm's still pixels, those
stay the other arm's, so the arm covering most of a card is a worse guess than the joined blob's.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

# small px (a card is about 9 wide at 1920 px): an arm's crossing of the table's edge moves less
# than this from one frame to the next
CROSSING_MOVES_PX = 12.0
CROSSING_SEED_PX = 2  # the radius of the seed each crossing plants in the blob (small px)
GROW_STEPS = 24  # geodesic growing steps before what is left goes to the nearest arm

Entry = tuple[int, tuple[float, float]]  # (seat, where the arm crosses the table's edge)
NO_ARM: Entry = (0, (0.0, 0.0))  # the entry of what no arm holds (a card an arm let go of)
LEFT = -1  # the label of what an arm left behind
Arm = tuple[list[Entry], np.ndarray]  # ([one entry], its mask); a blob of joined arms has several


def split_arms(blobs: list[Arm], before: list[Arm], still: np.ndarray) -> list[Arm]:
    """The arm blobs of a frame shared out among their arms, one crossing each, and what arms
    drawn back left in them (NO_ARM). before: the previous frame's arms, as this returned them;
    still: where the picture did not change since (only there is a pixel what it was)."""
    # for each arm of a frame before: the blobs now holding its seat's crossing near its own
    now_in = [{b for b, (es, _m) in enumerate(blobs) if _nearest(pes[0], es) is not None}
              if len(pes) == 1 and pes != [NO_ARM] else set() for pes, _pm in before]
    out: list[Arm] = []
    for b, (es, mask) in enumerate(blobs):
        heirs = [_heir(pes, es, b, seen) for (pes, _pm), seen in zip(before, now_in, strict=True)]
        if len(es) == 1 and not any(h == LEFT and (pm & mask & still).any()
                                    for h, (_pes, pm) in zip(heirs, before, strict=True)):
            out.append((es, mask))  # one arm, holding nothing another arm left
            continue
        out.extend(_split_one(es, mask, before, heirs, still))
    return out


def _heir(pes: list[Entry], es: list[Entry], b: int, now_in: set[int]) -> int | None:
    """The label (in _split_one) that what the arm pes held a frame before takes in blob b,
    whose crossings are es: its crossing's here (index + 1); LEFT where it is no arm's now (pes
    held what no arm did, or its arm is now in another blob only); None where it hands nothing
    on here (an arm of joined crossings, or one gone from the table)."""
    if pes == [NO_ARM] or (now_in and b not in now_in):
        return LEFT
    if len(pes) != 1 or b not in now_in:
        return None
    i = _nearest(pes[0], es)
    return None if i is None else i + 1


def _nearest(entry: Entry, es: list[Entry]) -> int | None:
    """The index of the crossing in es that is entry's arm a frame on, or None."""
    ps, (px, py) = entry
    near = [(math.hypot(px - x, py - y), i) for i, (s, (x, y)) in enumerate(es) if s == ps]
    return min(near)[1] if near and min(near)[0] < CROSSING_MOVES_PX else None


def _split_one(es: list[Entry], mask: np.ndarray, before: list[Arm],
               heirs: list[int | None], still: np.ndarray) -> list[Arm]:
    x0, y0, w, h = cv2.boundingRect(mask.astype(np.uint8))
    if not w:
        return [(es, mask)]
    y1, x1 = y0 + h, x0 + w
    blob = mask[y0:y1, x0:x1]
    kept = blob & still[y0:y1, x0:x1]
    lab = np.zeros(blob.shape, np.int32)
    # each arm of a frame before hands its pixels on to the crossing of its seat nearest its own
    # (two arms whose crossings have run together, to the one crossing); an arm now in another
    # blob leaves its pixels here to no arm: an arm that let go of a card and drew back leaves
    # it touching the arms still there, and theirs it is not; nor is what no arm held before
    for (_pes, pm), heir in zip(before, heirs, strict=True):
        if heir is not None:
            lab[pm[y0:y1, x0:x1] & kept & (lab == 0)] = heir
    for i, (_s, (x, y)) in enumerate(es):
        seed = np.zeros(blob.shape, np.uint8)
        cv2.circle(seed, (int(round(x)) - x0, int(round(y)) - y0), CROSSING_SEED_PX, 1, -1)
        lab[(seed > 0) & blob & (lab <= 0)] = i + 1
    # the rest grows through the blob from what is held
    kernel = np.ones((3, 3), np.uint8)
    for _ in range(GROW_STEPS):
        todo = blob & (lab == 0)
        if not todo.any():
            break
        grown = cv2.dilate(lab.astype(np.float32), kernel).astype(np.int32)
        lab[todo] = grown[todo]
    todo = blob & (lab == 0)
    if todo.any() and (lab > 0).any():
        # (cut off within the blob's box: the nearest held pixel, straight)
        _d, near = cv2.distanceTransformWithLabels((lab <= 0).astype(np.uint8), cv2.DIST_L2, 3,
                                                   labelType=cv2.DIST_LABEL_PIXEL)
        held_y, held_x = np.nonzero(lab > 0)
        # distanceTransformWithLabels numbers the pixels it measures from in row order, from 1
        order = np.zeros(int(near.max()) + 1, np.int32)
        order[1:len(held_y) + 1] = lab[held_y, held_x]
        lab[todo] = order[near[todo]]
    out: list[Arm] = []
    for i, e in enumerate(es):
        own = lab == i + 1
        if own.any():
            m = np.zeros_like(mask)
            m[y0:y1, x0:x1] = own
            out.append(([e], m))
    if (lab == LEFT).any():
        m = np.zeros_like(mask)
        m[y0:y1, x0:x1] = lab == LEFT
        out.append(([NO_ARM], m))
    return out or [(es, mask)]
