"""Arms joined over the table are shared out by where each was a frame before (vision/arm_split.py)."""

import cv2
import numpy as np

from vision.arm_split import NO_ARM
from vision.arm_split import split_arms as _split

SIZE = (180, 320)  # small px


def _arm(start, end, width=9):
    m = np.zeros(SIZE, np.uint8)
    cv2.line(m, start, end, 1, width)
    return m.astype(bool)


def _card(centre, size=(10, 14)):
    m = np.zeros(SIZE, bool)
    x, y = centre
    m[y - size[1] // 2:y + size[1] // 2, x - size[0] // 2:x + size[0] // 2] = True
    return m


STILL = np.ones(SIZE, bool)


def split_arms(blobs, before, still=STILL):
    return _split(blobs, before, still)


def _owner(arms, where):
    """The seat of the arm whose mask holds most of `where`."""
    held = {es[0][0]: int((m & where).sum()) for es, m in arms}
    return max(held, key=held.get)


RIGHT = (4, (319.0, 90.0))  # seat 4 reaches in from the right edge
TOP = (3, (150.0, 0.0))  # seat 3 from the top edge


def test_a_card_an_arm_carried_stays_its_own_when_another_arm_comes_to_touch_it():
    """Seat 4's hand brings a card in from the right; seat 3's arm comes down past it and
    touches it: one blob, two crossings. The card was seat 4's before they touched, and is
    after, though seat 3's arm lies nearer much of it than seat 4's does."""
    card = _card((160, 90))
    right = _arm((319, 90), (168, 90)) | card
    before = split_arms([([RIGHT], right), ([TOP], _arm((140, 0), (140, 60)))], [])
    top_now = _arm((150, 0), (150, 120))  # down over the card's left side, on to a place below
    joined = right | top_now
    arms = split_arms([([TOP, RIGHT], joined)], before)
    assert sorted(es[0][0] for es, _m in arms) == [3, 4]
    assert _owner(arms, card & ~top_now) == 4
    # every pixel of the blob goes to one arm, and only one
    total = np.zeros(SIZE, int)
    for _es, m in arms:
        total += m
    assert (total[joined] == 1).all() and not total[~joined].any()


def test_arms_first_seen_joined_are_shared_out_from_their_crossings():
    """With no frame before, each arm grows from where it crosses the table's edge."""
    right = _arm((319, 90), (200, 90))
    top = _arm((150, 0), (150, 95))
    arms = split_arms([([RIGHT, TOP], right | top)], [])
    assert _owner(arms, _card((300, 90))) == 4
    assert _owner(arms, _card((150, 20))) == 3


def test_a_card_an_arm_let_go_of_is_no_arms_when_that_arm_has_drawn_back():
    """Seat 4 laid the card against seat 3's arm and drew back: seat 4's arm is a blob of its
    own now, off the card, which still touches seat 3's arm. The card is no arm's, as long as
    it touches arms: it is not seat 3's to have laid."""
    card = _card((160, 90))
    right = _arm((319, 90), (168, 90)) | card
    top = _arm((150, 0), (150, 120))
    before = split_arms([([TOP, RIGHT], right | top)], split_arms([([RIGHT], right), ([TOP], top)], []))
    drawn_back = _arm((319, 90), (230, 90))
    for _frame in range(3):
        before = split_arms([([TOP], top | card), ([RIGHT], drawn_back)], before)
        assert _owner(before, card & ~top) == NO_ARM[0]
        assert _owner(before, top) == 3
    # what no arm holds does not grow: seat 3's hand reaching on past the card is its own
    on = _arm((150, 0), (150, 150))
    arms = split_arms([([TOP], on | card), ([RIGHT], drawn_back)], before)
    assert _owner(arms, on & ~top) == 3
    # nor does it hold what changed there: a hand that comes onto the card
    hand = _card((160, 92), (8, 8))
    arms = split_arms([([TOP], top | card), ([RIGHT], drawn_back)], before, ~hand)
    assert _owner(arms, hand) == 3
    assert _owner(arms, card & ~top & ~hand) == NO_ARM[0]
