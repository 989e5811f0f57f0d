"""Table tracking: from frames to table observations (cards at rest, reveals, take-backs, row
cards gone where the camera did not see them land, hands).

How it stays cheap: every frame is shrunk to a small picture (about 320 px wide) and compared
with the previous one and with a reference picture of the table as last understood. A still
table costs one resize and one difference. Where the table differs from the reference, the
changes are split into arms (changes connected to the world outside the marked table area, or to
the picture's border) and the rest. A changed region that no arm touches and that has been still
for `settle` frames (0.1 s of the camera's frames) is read again at full resolution
(identify_region on that card only), the table model is updated and the reference picture is
refreshed there. When everyone plays at once, arms may never leave a pile before the next card
covers it: so where arms touch a changed region, a card read surely while it settled, or a
still card-sized patch read surely with no moving thing on it, is taken as come to rest too.

Reading is kept off the frame that reports a card: regions still waiting out their settle
frames are read ahead (read_ahead(), which the caller runs after handing on what update()
returned), so the settling frame has only bookkeeping left. A card-shaped change that no read
can name yet (glare, a shadow, blur) is read again a few times before it joins the reference;
what joins it so, or in pieces too small to read (a hand lifting off a card a little at a time),
is looked at once more where it adds up to a good part of a card, once its place is still. A
model card an arm lay over is read again on any change the arm left on it, even specks too
small to be regions of their own (a look-alike laid squarely on a pile changes a pip); a
model card that cannot be read but still shows its remembered picture is kept. A card read
where its place, clear of the model's cards, is coloured like the cloth around it is not told:
bare cloth where a card was taken reads as a card of the cloth's colour. Arms are traced
to the world outside the table at half the threshold, since a sleeve may look much like the
cloth or the floor. The place of a card found elsewhere that left it while a hand hid it is
read again once free: the reference there still shows the card that left, and a look-alike
laid in its place (the next card into a row's slot) may not change the small grey picture
enough to be noticed. When everyone plays at once, a card may be covered by the next one a
frame or two after it landed, a hand still over part of it, and never be read: the camera's
pictures of the last LOOK_BACK_S are kept, and where a new card is told, they are searched for
a moment in which another card lay still at its place; read there, it is told first. A card read
surely beside arms with a hand on too much of it is read again on its outline when its region
settles. A told card whose place still shows its colours as they were when it was told is not
read again: a read asked of its outline gives the read it was told by (an arm passing over the
table asks for many such reads, 10 to 90 ms each).

Times: a card's rest time is the capture time of the first frame in which it lay as it lies now
(one that has lain so for fewer than `settle` frames is read again later: a card carried home
may be held still a moment over the table). A short history of half-width grey pictures is kept;
going back from the frame that settled it, each picture is compared with the current one over
the card's footprint: broad changes (hands, shadows) are left out; what is left means it was
still sliding when it is explained, far beyond the sensor noise, as the card's own edges and
print moved by a small shift and turn, unless it lies in one corner only (fingers lifting off
it). Frames in which a hand hides most of it are skipped, and so are those in which, an arm
over the card, it changed as an arm's rim does (a weak slide, its edges changed one way). A
read of a card's own code where it lies is that card again, unless an arm lay over it and the
outline now lies elsewhere with the card below still showing beside it, or its own picture as
it showed when told, turned or shifted a few mm, fits the place far better than as it lay: then
it is a copy laid on it (a Wig Out pile), where that picture moved to. (A copy laid at the very
pose of the one below shows only while it slides in: not told.) A card a hand lies over while
its region is read keeps its place out of the reference until the hand has gone, and a card on
top again as the card over it leaves is asked at once whether it went too (a gathered pattern).
Seats: a card that was seen in a seat zone before carries that zone (from_zone) and seat (when
it can be that card: players' decks repeat codes, and no card moves into another seat's zone,
nor from the middle of the table into one); otherwise the seat of the arm whose blob covered it
most in the frames up to its rest.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, replace
from itertools import chain

import cv2
import numpy as np

from vision.arm_split import split_arms
from vision.calibrate import MARKER_MARGIN, Calibration
from vision.detect import cloth_share, field_seeds
from vision.identify import settle
from vision.layout import TableLayout
from vision.markers import DEFAULT_MARKER_MM, MARKER_IDS, MarkerGeometry
from vision.types import (
    CARD_H_MM,
    CARD_W_MM,
    UNKNOWN,
    CardRestObs,
    CardSeen,
    DealObs,
    Detection,
    Frame,
    HandOverTableObs,
    LeftUnseenObs,
    RevealObs,
    TableObservation,
    TakeBackObs,
)

ONE_PLACE = 0.35  # two reads whose outlines overlap more than this are of one card
SAME_PICTURE = 0.8  # correlation with the remembered picture: the card is still there
MIN_ARM_PX = 8  # small-picture px: a change linked to outside only faintly must be this big
MIN_REGION_PX = 3  # small-picture px: a change smaller than this is a speck, not a region to read ...
# ... except on a card an arm lay over (_specks_on_touched)
RETRY_FRAMES = (2, 4, 8, 16)  # frames to wait before each new read of a card not read yet
LEFT_MEMORY_S = 10.0  # a card that left a seat zone is matched with an arrival this long
LEFT_UNSEEN_S = 1.0  # a row card gone this long without being seen to land is told gone
SETTLE_S = 0.1  # a change must be still this long before it is read (2 frames at least)
READ_THERE = 0.8  # share of an outline lying on a card read fully surely: a hypothesis of that card
SURE = 0.9  # a read this sure settles a new card: its other outline hypotheses are not read
HAND_ON_CARD = 0.15  # share of a card still read beside arms that moving things may cover
HELD_FRAMES = 60  # a card read surely beside arms with a hand on it is read again on its outline
# by a settling region within this many frames (_held_reads)
STILL_RETRY_FRAMES = 6  # a still patch beside arms that read as no card is read again after
HAND_OVER_READ = 0.5  # share of a card read surely while settling that an arm may cover now
GONE_SHOWS = 0.15  # share of a card a hand leaves showing that still tells whether it lay as before
TAKER_SHOWS = 0.3  # ... and as much of it, where the hand over it then is the one taking it
NOTHING_THERE = 0.3  # a read this unsure where a card was: no card shows there
SLIDE_FIT = 150.0  # a slide's fit must explain this many times the noise of a frame difference
SLIDE_PX = 0.15  # ... and move the card's edge by this much (mid-resolution px) somewhere (a card
# slows as it lands, and in its last frames moves by a tenth or two of a pixel: a revealed 8 of
# spades 0.17 px, explained 724 times the noise, which at 0.2 was taken for rest two frames early)
STRONG_SLIDE_FIT = 1000.0  # a slide fitted this far beyond the noise, ...
STRONG_SLIDE_PX = 0.5  # ... moving the card this far (mid-resolution px), ...
STRONG_SLIDE_THIN = 20  # ... along this many edge pixels changed one way, is a slide though none
# changed the other way (fingers on a card's far side as it lands hide the edges that change so)
ARM_OVER = 0.25  # share of a card's footprint under an arm's mask from which a frame where the card
# seems to lie elsewhere may be the arm carrying something over it (a card, white on white, reaching
# beyond the mask): the rest walk looks on back, and if the card lay as now before (a still picture,
# no move fitted beyond SLIDE_PX where an arm is over it too), it was hidden there
ARM_TOUCHES = 0.05  # share of a card's footprint under an arm's mask from which a slide fitted on
# the rest of it less than STRONG_SLIDE_FIT times beyond the noise, its edges changed mostly one way
# (the other way fewer than ONE_SIDED as many), does not tell either: an arm's rim and shadow moving
# along the card's edges are fitted so (a six of hearts at rest, three quarters under the next
# player's arm: a slide of 0.46 px fitted 207 times the noise on its last quarter, its edges 15
# pixels brighter and 3 darker, told 21 frames late, from that arm's seat; a four of spades, an
# arm leaving over a seventh of it: 0.21 px fitted 692 times, 3 brighter and 19 darker, told 4
# frames late); a card sliding in under the hand that lays it changes them both ways
ONE_SIDED = 0.25
BROAD_UNHIDDEN = 0.2  # share of a card's footprint changed broadly, no hand over it, from which ...
OUTLINE_KEPT = 0.3  # ... the card's outline must show in the past picture this strongly (or it lay elsewhere)
LINE_TIE = 0.1  # arms whose lines to a card stay inside their blob this nearly alike: the one ending there laid it
TIP_NEAR_PX = 7  # small px (a card is about 9 wide at 1920 px) an arm's hand may end off a card it laid
SHADE_SIGMA = 2.0  # px (mid resolution) of the blur that separates a shadow from the card's detail
DETAIL_CELLS = 4  # cells across and down a footprint in which the detail is matched ...
SHADED_SAME = 0.5  # ... unmatched by less than this share once the shading is out ...
DETAIL_SHOWS = 0.4  # ... over this share of the card's detail: it lay as now (in a shadow, partly covered)
BARE = 0.4  # a place whose picture varies this much less than the card's did shows bare cloth
COVERED_DETAIL = 0.7  # ... and one whose picture varies at least this much of it shows a card
CLOTH_LIKE = 0.9  # share of a read card's place coloured like the cloth around it: bare cloth, no card
CLOTH_ASKED = 0.25  # ... judged only where this share of the card's place lies clear of model cards
CLOTH_RING = (1.15, 1.5)  # the cloth around a place: between the card's outline grown by these factors
SHOWS_FROM_BELOW = 2  # known cards below a pile's top that may show when cards are taken off it (a
# hand takes one or two at a time): deeper ones cannot, and on a waste pile turned over and over,
# the model's cards of earlier passes lie deep under it; a new card of one of their codes, taken
# for one of them showing, went untold
SQUARELY_UNDER = 0.8  # share of a card that the one on it covers: it would show were it there
COVERS = 0.05  # a card laid over this share of another's place covers it: it is no top card
BESIDE = 0.5  # a card covering less of another's place than this lies beside it, not under it
STALE_OVERLAP = 0.5  # a card that moved less than this far off its old place (overlap) left no place to read
STALE_FRAMES = 300  # a place a card left under a hand is read again within this many frames, or not at all
UNEXPLAINED_CARD = 0.2  # share of a card's place taken into the reference with no read explaining it ...
UNEXPLAINED_FRAMES = 90  # ... from which it is looked at again once nothing moves there, within this many frames
UNEXPLAINED_ON_KNOWN = 0.8  # ... not where this share of it lies on a top card that still reads as itself
UNEXPLAINED_READS = 32  # ... the outlines read there before kept, at most (the latest)
WIDE_TRIES = 3  # ... there, the outlines searched widely around, at most
SEVERAL_CARDS = 1.3  # a change this much longer (or wider) than a card is of several cards
PRINT_CHANGED = 0.05  # share of a top card's print changed (in pieces, no card's shape) ...
PRINT_INSIDE = 0.8  # ... (its outline shrunk by this factor): a card may lie on it, much like it
FIT_APART_DEG, FIT_APART_MM = 4.0, 3.0  # outline fits this far apart in turn or place are other poses
NEW_FIT_APART_MM = 6.0  # an outline by the new edges this far from every other fit is another card's
ONE_HAND_S = 0.3  # s: a copy of a card's face seen under it this shortly before, by its arm: itself
SAME_POSE_MM = 4.0  # a card read again lies within this of its outline: further off, a copy laid on it
TOP_PX_MM = 2.0  # px per mm of the top-down pictures a card's outline or print is compared in
TURN_PATCH_MM = 60.0  # ... and half the size of the one a card's print is aligned in (_shows_turned)
TURNED_MM = 2.5  # a card's own picture moved this far (at a corner) shows it moved: the print's
# alignment is finer than an outline read on the camera's picture (SAME_POSE_MM)
TURNED_FIT = 0.85  # the card's own picture, turned or shifted, fits its place now this well ...
TURNED_GAIN = 0.05  # ... and this much better than as it lay: a copy laid on it askew ...
TURNED_RESIDUAL = 0.5  # ... or leaving at most this share of what as it lay left unexplained
# (a copy turned a few degrees on its centre fits its place as it lay well already: 0.91, and
# turned 0.98)
LOOK_BACK_S = 0.8  # the camera's pictures of this last while are kept: a card covered by the next
# one before it was ever read may be read in them (_seen_under)
UNDER_STILL = 0.5  # share of a new card's footprint still between two past pictures, ...
UNDER_NEW = 0.3  # ... this share of it unlike the table as last understood, showing not the new
# card: another card lay there at rest, ...
UNDER_SHARP = 0.5  # ... its picture there as sharp as kn's is at least this much (a card's print)
TOLD_CHANGED = 0.005  # share of a told card's outline whose colours changed: it shows as told no more
# (on 14 of the tracking benchmark's 18 runs, 403 reads of a card still there changed no more,
# none of 558 that read another card or nothing did; a queen of hearts laid squarely on the queen
# of diamonds changed 0.027)
TOLD_UNDER = 0.5  # share of an outline lying on a card that shows as told: it is no card on top
TOLD_MEMORY = 100  # cards told lately: one read in past pictures is not told again (_seen_under)
READ_AGAIN_PX = 1.5  # an outline whose corners all lie within this of one read lately, ...
READ_KEPT_FRAMES = 30  # ... within this many frames, where its picture shows as it did (within
# TOLD_CHANGED, its outline grown by READ_AROUND_PX), reads as it did then (_read_before)
READ_AROUND_PX = 4
QUICK_ANSWERS_COVERED = 0.1  # a sure quick read of a card less covered than this answers a full read


def _default_readers(deck) -> tuple[Callable, Callable, Callable, Callable]:
    """identify_region, identify, a quick identify_region (no slow pose search: for reads
    only a sure answer counts from) and a wide one (an unsure card also looked for up to a
    third of its width off its outline) for this deck: the real recogniser, or the stand-in's."""
    from vision import sim_standin

    def ident_all(img, d, known=None, **_):
        return [sim_standin.identify_region(img, q, d) for q in sim_standin.find_cards(img)]

    if isinstance(deck, sim_standin.StandInDeck):
        return sim_standin.identify_region, ident_all, sim_standin.identify_region, sim_standin.identify_region
    try:
        from vision.identify import identify, identify_region
    except ImportError:  # recogniser not there yet: the stand-in reader works for any deck
        return sim_standin.identify_region, ident_all, sim_standin.identify_region, sim_standin.identify_region

    def read_on_top(img, q, d):  # a card come to rest on top: one showing from under another is not it
        return identify_region(img, q, d, strict=True)

    def read_on_top_quick(img, q, d):
        return identify_region(img, q, d, strict=True, quick=True)

    def read_on_top_wide(img, q, d):
        return identify_region(img, q, d, strict=True, wide=True)
    return read_on_top, identify, read_on_top_quick, read_on_top_wide


def _mask_up(mask: np.ndarray, shape: tuple[int, int], y0: int, y1: int, x0: int, x1: int) -> np.ndarray:
    """The box [y0:y1, x0:x1] of a small-picture mask scaled up to a full picture of `shape`,
    pixel for pixel as cv2.resize(INTER_NEAREST) would give it: scaling the whole mask up cost
    about 1.6 ms a call, for a box of a card or two."""
    h, w = mask.shape[:2]
    ys = np.minimum(np.floor(np.arange(y0, y1) * (1.0 / (shape[0] / h))).astype(np.intp), h - 1)
    xs = np.minimum(np.floor(np.arange(x0, x1) * (1.0 / (shape[1] / w))).astype(np.intp), w - 1)
    return mask[np.ix_(ys, xs)]


def _far_flatter(then: np.ndarray, now: np.ndarray) -> bool:
    """Does a place now show far less detail than it did (BARE: bare cloth where a card lay)?"""
    return float(now.std()) < BARE * float(then.std())


def _corners(quad: np.ndarray) -> tuple[tuple[float, float], ...]:
    """A quad's corners as a Detection keeps them."""
    return tuple((float(x), float(y)) for x, y in np.asarray(quad).reshape(4, 2))


def _correlation(a: np.ndarray, b: np.ndarray) -> float:
    """Normalised correlation of two pictures of one place (1: alike up to light and shadow)."""
    a, b = a - a.mean(), b - b.mean()
    return float((a * b).sum() / (np.sqrt((a * a).sum() * (b * b).sum()) + 1e-6))


def _turn_apart(a: float, b: float) -> float:
    """Degrees between two rectangle turns (a rectangle turned 180 degrees is itself)."""
    d = abs(a - b) % 180.0
    return min(d, 180.0 - d)


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    union = int(np.count_nonzero(a | b))
    return int(np.count_nonzero(a & b)) / union if union else 0.0


@dataclass(eq=False)
class _Ahead:
    """Reads of a region made while it settled (the frame index k after its last change)."""

    k: int
    last: int
    reg: np.ndarray
    dets: list[Detection]
    card_shaped: bool  # a card-sized change was found there
    model: dict[int, tuple[np.ndarray, Detection]]  # id(model card) -> (its quad, its read)


@dataclass(eq=False)
class _Unread:
    """A settled, card-shaped change that no read could name yet: read again later."""

    reg: np.ndarray
    tries: int
    next_k: int


@dataclass(frozen=True, eq=False)
class _KeptRead:
    """A read of an outline, with its place's picture then (Tracker._read_before)."""
    kind: str
    quad: np.ndarray  # 4 x 2, image px
    box: tuple[int, int, int, int]  # x0, y0, x1, y1 of pixels
    pixels: np.ndarray
    mask: np.ndarray  # the outline grown by READ_AROUND_PX, over the box
    read: Detection
    k: int  # the frame it was read in


@dataclass(eq=False)  # model cards are told apart by identity (the same code may lie twice)
class _Known:
    """A card of the table model."""

    code: str
    quad: np.ndarray  # image corners (4x2)
    x: float
    y: float
    angle: float
    zone: str
    face_up: bool = True
    back: str | None = None
    top: bool = True
    touched: int = -1  # last frame an arm lay over it since it was last read (-1: none)
    own_outline: bool = True  # False: read on the outline of the card it was laid on
    rest_k: int = -1  # the frame it came to rest in (-1: it lay there from the start)
    hidden_k: int | None = None  # the first of the frames just before rest_k hands hid it in
    told_gone: bool = False  # it left a row slot unseen, and that was told (LeftUnseenObs)
    # its print's picture (image box, crop) when it was last read as itself there: the reference
    # takes a card just laid in piece by piece, and meanwhile its print differs from it
    print_seen: tuple[tuple[int, int, int, int], np.ndarray] | None = None
    # the table around it seen from above (_top_down) when it was told there: the reference takes
    # in a copy laid on it piece by piece as the arm that lays it leaves, and then shows the copy
    seen_top: np.ndarray | None = None
    # its outline's box and the camera's colour picture there when it was told, and that read:
    # a card still showing so is that card still (_told_read)
    seen_px: tuple[tuple[int, int, int, int], np.ndarray] | None = None
    read: Detection | None = None


class Tracker:
    """Turns frames into TableObservations; see the module docstring.

    calibration: a Calibration, or a 3x3 image->table homography (table size from layout).
    """

    def __init__(self, deck, layout: TableLayout, calibration: Calibration | np.ndarray,
                 *, settle: int | None = None, small_width: int = 320, diff_threshold: int = 22,
                 identify_region: Callable | None = None, identify: Callable | None = None,
                 min_confidence: float = 0.5, history: int = 120) -> None:
        if not isinstance(calibration, Calibration):
            calibration = Calibration(np.asarray(calibration, np.float64), layout.table_w,
                                      layout.table_h, (0, 0))
        self.deck, self.layout, self.cal = deck, layout, calibration
        ir, ia, iq, iw = _default_readers(deck)
        self._read = self._once_a_frame(identify_region or ir, "read")
        self._read_wide = self._once_a_frame(identify_region or iw, "wide")
        self._read_all = identify or ia
        self._read_quick = self._once_a_frame(identify_region or iq, "quick")
        self._this_frame: dict[tuple, tuple[np.ndarray, Detection]] = {}
        self._reads_kept: deque[_KeptRead] = deque(maxlen=64)
        # frames a change must be still before it is read: SETTLE_S of the camera's frames
        # (worked out from the first two frames' times) unless given
        self.settle = settle or 3
        self._settle_given = settle is not None
        self.small_width, self.thr = small_width, diff_threshold
        self.min_conf = min_confidence
        self.model: list[_Known] = []
        self.started = False
        self._prev: np.ndarray | None = None
        self._ref: np.ndarray | None = None
        self._ref_full: np.ndarray | None = None
        self._ref_mid: np.ndarray | None = None
        self._mid: np.ndarray | None = None
        self._mid_now: np.ndarray | None = None
        # per frame: (index, mid-res grey picture or None when nothing moved, hand mask (small),
        # arm blobs [([(seat, crossing)...], mask)] or None, fg or None, the arms shared out of
        # the blobs, one crossing each (split_arms), or None)
        self._hist: deque = deque(maxlen=history)
        self._pictures: deque = deque()  # (index, capture time, picture) of the last LOOK_BACK_S
        self._card_work: dict[tuple[str, int], object] = {}  # (what, id(card)) -> _card_once's result
        self._card_work_k = -1  # ... for the latest picture, of this frame
        self._told: deque = deque(maxlen=TOLD_MEMORY)  # the cards told last (_Known)
        self.rest_threshold = 12  # grey levels at mid resolution: a 1 px card-edge step shows
        self._times: dict[int, float] = {}
        self._still = 0
        self._dirty = False
        self._hand_seats: tuple[int, ...] = ()
        self._arms_before: list = []  # the last frame's arms, one crossing each (split_arms)
        self._prev_hand = None
        self._last_change: np.ndarray | None = None
        self._fg_now: np.ndarray | None = None
        self._fg_since: np.ndarray | None = None  # frame since which each pixel differs from the reference
        self._n = 0
        self.f = 1.0
        self.debug = False
        # cards that left a seat zone, by code: (zone, capture time), until they arrive elsewhere
        self._left: dict[str, list[tuple[str, float, _Known]]] = {}
        # places of model cards that moved while a hand hid them: the reference there still
        # shows the card that left (k: the frame it was found gone)
        self._stale: list[tuple[_Known, int]] = []
        # model cards taken for the source of a new card where arms hid their place, with the
        # new card's rest time: looked at again as the arms leave (_back_from_taken)
        self._taken: deque = deque(maxlen=TOLD_MEMORY)
        # ... and those of them whose place showed changed as the arms left (_never_moved)
        self._seen_off: deque = deque(maxlen=TOLD_MEMORY)
        self._foot_n = 0
        self._slid_there = False  # _moved_thin found the card sliding where it lies now
        self._arm_over = 0.0  # _moved_thin's share of the card's footprint under an arm's mask
        self._broad_move = False  # _moved_thin's move was a broad change (not the card seen sliding)
        self._slide_px = 0.0  # the move _slid fitted last (mid-resolution px), whether or not a slide
        self._slide_fit = 0.0  # ... and how far beyond the noise it explained the difference
        self._thin_signs = (0, 0)  # _moved_thin's edge pixels changed brighter, darker
        self._noise = 0.0
        self._edges = np.zeros((1, 1), bool)
        self._rim = np.zeros((1, 1), bool)
        self._now_gx = self._now_gy = np.zeros((1, 1), np.float32)
        self._k3 = np.ones((3, 3), np.uint8)
        self._k5 = np.ones((5, 5), np.uint8)
        self.stats = {"frames": 0, "fast": 0, "reads": 0, "told": 0, "cloth": 0, "recalled": 0}
        self._ahead: list[_Ahead] = []
        self._unread: list[_Unread] = []
        self._queued: list[tuple] = []  # regions to read ahead when the caller has time
        self._feet: dict[bytes, tuple[tuple[slice, slice], np.ndarray]] = {}
        self._still_tried: dict[tuple, int] = {}  # still patches beside arms: place -> next read
        self._held: deque = deque(maxlen=8)  # (frame, outline) of sure reads a hand lay over (_held_reads)
        # per small-picture pixel, the frame in which a change there was taken into the reference
        # with nothing read explaining it (-1: none): looked at again once still (_look_again)
        self._unexplained: np.ndarray | None = None
        # ... and the outlines that named a card there, unsurely, before it was taken in
        self._unexplained_reads: list[tuple[np.ndarray, float]] = []

    def _once_a_frame(self, reader: Callable, kind: str) -> Callable:
        """reader, read once per quad in a frame: a card's outline is often read by more than
        one step of a frame (the region that settles it, a model card it touches, read ahead),
        and a read costs 5 to 60 ms. (The same picture and quad give the same read.) Not read
        at all where a told card shows as it was (_told_read) or the place shows the bare cloth
        (_shows_bare_cloth, also where a model card lay: a place a card was taken from, beside an
        arm, read as nothing at 10 to 55 ms a read, about an eighth of the speed benchmark's
        time under a lamp's glare)."""
        def read(img: np.ndarray, quad, deck) -> Detection:
            q = np.asarray(quad, np.float64).reshape(4, 2)
            key = (kind, id(img), q.tobytes())
            hit = self._this_frame.get(key)
            if hit is None:
                unread = self._told_read(img, q)
                if unread is not None:
                    self.stats["told"] += 1
                elif self._shows_bare_cloth(img, q, own_place=True):
                    self.stats["cloth"] += 1
                    unread = Detection(UNKNOWN, _corners(q), 0.0)
                else:
                    unread = self._read_before(img, kind, q)
                    self.stats["recalled" if unread is not None else "reads"] += 1
                if unread is None:
                    unread = reader(img, quad, deck)
                    self._keep_read(img, kind, q, unread)
                # the picture is kept with its read, so that its id names no other while the entry lives
                hit = self._this_frame[key] = (img, unread)
            return hit[1]
        return read

    def _read_before(self, img: np.ndarray, kind: str, q: np.ndarray) -> Detection | None:
        """The read of an outline read lately, where it lies within READ_AGAIN_PX and its
        place shows as it did then: the same picture reads the same. (A card is read ahead
        while it waits out its settle frames, beside an arm, and again where its region
        settles, and two outline hypotheses of one card often lie a pixel apart: the speed
        benchmark under a lamp's glare read such twice-read cards at 10 to 80 ms a read.)"""
        while self._reads_kept and self._n - self._reads_kept[0].k > READ_KEPT_FRAMES:
            self._reads_kept.popleft()
        for kept in self._reads_kept:
            if (self._answers(kept, kind) and np.abs(kept.quad - q).max() <= READ_AGAIN_PX
                    and kept.pixels.shape == img[kept.box[1]:kept.box[3], kept.box[0]:kept.box[2]].shape
                    and self._changed_share(img, kept.box, kept.pixels, kept.mask) <= TOLD_CHANGED):
                return kept.read
        return None

    @staticmethod
    def _answers(kept: _KeptRead, kind: str) -> bool:
        """Does a read of this kind answer a read of that kind on the same picture? Its own kind
        does, and a quick read sure of a card not covered answers a full one, which would add
        only a pose search where the templates alone were unsure, and read no shadow out
        (SHADE_RETRY): a card at rest beside an arm, read quickly, was read again in full a frame
        later, at 45 ms. (Not the other way: tried, a full read of a jack of hearts' outline fitted
        onto the card below it, the jack of diamonds at 0.92, answered the quick reads of outlines
        within a pixel of it, and a jack of diamonds that was not there was told; reading those
        outlines itself, the tracker told none.)"""
        return kept.kind == kind or ((kept.kind, kind) == ("quick", "read") and kept.read.confidence >= SURE
                                     and kept.read.covered < QUICK_ANSWERS_COVERED)

    def _keep_read(self, img: np.ndarray, kind: str, q: np.ndarray, read: Detection) -> None:
        """Keep a read with its outline's picture (grown by READ_AROUND_PX: a read looks a
        little beyond the outline) for _read_before."""
        lo = np.floor(q.min(axis=0)) - READ_AROUND_PX
        hi = np.ceil(q.max(axis=0)) + READ_AROUND_PX + 1
        h, w = img.shape[:2]
        x0, y0 = (int(v) for v in np.clip(lo, 0, [w, h]))
        x1, y1 = (int(v) for v in np.clip(hi, 0, [w, h]))
        if x1 <= x0 or y1 <= y0:
            return
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(mask, np.round(q - [x0, y0]).astype(np.int32), 1)
        mask = cv2.dilate(mask, np.ones((2 * READ_AROUND_PX + 1,) * 2, np.uint8)) > 0
        self._reads_kept.append(_KeptRead(kind, q.copy(), (x0, y0, x1, y1),
                                          img[y0:y1, x0:x1].copy(), mask, read, self._n))

    def _told_read(self, img: np.ndarray, quad: np.ndarray) -> Detection | None:
        """What a read of this outline on the latest picture gives where it lies mostly on a
        top model card that shows exactly as it did when told (_told_changed): that card's read
        where the outline is the card's (within SAME_POSE_MM), nothing where it is another
        (a card on it would have changed its picture; one under it shows too little to be read
        as the card on top); None where no such card lies there: read it. (An arm passing over
        a told card, or its shadow leaving, asks for reads of its place, 10 to 90 ms each.)"""
        if not self._pictures or img is not self._pictures[-1][2]:
            return None
        mid = quad.mean(axis=0)
        for kn in self.model:
            if (not kn.top or not kn.own_outline or kn.read is None or kn.seen_px is None
                    or np.linalg.norm(kn.quad.mean(axis=0) - mid) > np.ptp(kn.quad, axis=0).max()
                    or self._overlap(quad, kn.quad) < TOLD_UNDER
                    or self._told_changed_now(kn) > TOLD_CHANGED):
                continue
            if self._pose_apart_mm(quad, kn.quad) <= SAME_POSE_MM:
                return replace(kn.read, corners=_corners(kn.quad))
            return Detection(UNKNOWN, _corners(quad), 0.0)
        return None

    def _told_changed_now(self, kn: _Known) -> float:
        """_told_changed on the latest picture, worked out once a frame."""
        return self._card_once("told", kn, lambda: self._told_changed(self._pictures[-1][2], kn))

    def _card_once(self, what: str, kn: _Known, work: Callable[[], object]):
        """work() for a model card on the latest picture, done once a frame (a card is asked
        about by several steps of a frame, and the work takes milliseconds)."""
        if self._card_work_k != self._pictures[-1][0]:
            self._card_work, self._card_work_k = {}, self._pictures[-1][0]
        key = (what, id(kn))
        if key not in self._card_work:
            self._card_work[key] = work()
        return self._card_work[key]

    # ------------------------------------------------------------------ geometry helpers

    def _setup(self, image: np.ndarray) -> None:
        h, w = image.shape[:2]
        self.f = self.small_width / w
        self.size = (self.small_width, max(1, round(h * self.f)))
        sw, sh = self.size
        table = np.array([[0, 0], [self.layout.table_w, 0],
                          [self.layout.table_w, self.layout.table_h], [0, self.layout.table_h]])
        corners = self.cal.to_image(table)
        self._table_px = corners.astype(np.float32)  # the play area in full-size px
        poly = corners * self.f
        inside = np.zeros((sh, sw), np.uint8)
        cv2.fillConvexPoly(inside, np.round(poly).astype(np.int32), 255)
        # "outside": beyond the table edge by a few px, or the picture border
        outside = cv2.bitwise_not(cv2.dilate(inside, np.ones((7, 7), np.uint8)))
        outside[:2, :] = outside[-2:, :] = 255
        outside[:, :2] = outside[:, -2:] = 255
        self._outside = outside > 0
        self._px_mm = self.cal.px_per_mm() if self.cal.image_size != (0, 0) else self._px_per_mm()

    def _px_per_mm(self) -> float:
        c = np.array([[self.layout.table_w / 2, self.layout.table_h / 2],
                      [self.layout.table_w / 2 + 10, self.layout.table_h / 2]])
        p = self.cal.to_image(c)
        return float(np.hypot(*(p[1] - p[0])) / 10)

    def _small(self, image: np.ndarray) -> np.ndarray:
        # bilinear to twice the size, then area: ~6x cheaper than one INTER_AREA pass; the
        # twice-size picture is kept (self._mid) for the rest-time test
        sw, sh = self.size
        mid = cv2.resize(image, (2 * sw, 2 * sh), interpolation=cv2.INTER_LINEAR)
        self._mid = mid
        return cv2.resize(mid, self.size, interpolation=cv2.INTER_AREA)

    def _mid_grey(self) -> np.ndarray:
        assert self._mid is not None
        return cv2.cvtColor(self._mid, cv2.COLOR_BGR2GRAY)

    @staticmethod
    def _absmax(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Per-pixel largest channel difference (uint8)."""
        c = cv2.split(cv2.absdiff(a, b))
        return cv2.max(cv2.max(c[0], c[1]), c[2])

    def _diff(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return self._absmax(a, b) > self.thr

    # ------------------------------------------------------------------ the loop

    def update(self, frame: Frame) -> list[TableObservation]:
        """Observations that this frame completes (usually none)."""
        img = frame.image
        if self._prev is None:
            self._setup(img)
        self._queued = []  # read-ahead jobs of an earlier frame are stale now
        self._this_frame = {}
        self.stats["frames"] += 1
        k = self._n
        self._n += 1
        self._times[k] = frame.t
        if k == 1 and not self._settle_given and frame.t > self._times[0]:
            self.settle = max(2, round(SETTLE_S / (frame.t - self._times[0])))
        if len(self._times) > 400:
            for old in list(self._times)[:100]:
                del self._times[old]
        small = self._small(img)
        prev = self._prev if self._prev is not None else small
        self._prev = small
        dmax = self._absmax(small, prev)
        any_moving = cv2.countNonZero(cv2.threshold(dmax, self.thr, 255, cv2.THRESH_BINARY)[1]) > 0
        moving = dmax > self.thr
        if not self.started:
            return self._try_start(frame, small, any_moving and self._beyond_specks(moving))
        if not any_moving and not self._dirty and not self._stale and self._unexplained is None:
            self.stats["fast"] += 1
            self._hist.append((k, None, None, None, None, None))
            return self._unseen_departures(frame.t)
        assert self._ref is not None
        out: list[TableObservation] = []
        grey = self._mid_grey()
        self._mid_now = grey
        dref = self._absmax(small, self._ref)
        fg = dref > self.thr
        self._fg_now = fg
        if self._fg_since is None:
            self._fg_since = np.full(fg.shape, -1, np.int32)
        self._fg_since[fg & (self._fg_since < 0)] = k
        self._fg_since[~fg] = -1
        fg_u8 = fg.astype(np.uint8)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(fg_u8, connectivity=8)
        # arms: changes connected to the world outside the table; the connection may be faint
        # (a sleeve much like the cloth or the floor), so it is traced at half the threshold
        weak = (dref > self.thr // 2).astype(np.uint8)
        nw, wlab = cv2.connectedComponents(weak, connectivity=8)
        reaches = np.zeros(nw, bool)
        reaches[wlab[self._outside & (weak > 0)]] = True
        reaches[0] = False
        arm_ids = np.unique(labels[reaches[wlab] & fg])
        direct = np.unique(labels[self._outside & fg])
        # a speck linked to outside only faintly is noise, not an arm
        arm_ids = np.array([i for i in arm_ids if i > 0 and (
            stats[i, cv2.CC_STAT_AREA] >= MIN_ARM_PX or i in direct)], np.int32)
        arm = np.isin(labels, arm_ids) if len(arm_ids) else np.zeros_like(fg)
        # skin and coloured sleeves of arms; not the cards they carry nor shadows on white cards
        hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
        skin = arm & (hsv[..., 1] >= 50)
        entries = self._arm_entries(labels, arm_ids, wlab)
        if len(arm_ids):
            for kn in self.model:  # a hand at a pile may have laid a look-alike card on it
                if kn.top:
                    sl, m = self._foot_small(kn.quad)
                    if (arm[sl] & m).any():
                        kn.touched = k
        seats = tuple(sorted({s for es in entries for s, _ in es}))
        if seats != self._hand_seats:
            self._hand_seats = seats
            out.append(HandOverTableObs(seats, frame.t))
        self._pictures.append((k, frame.t, img))
        while self._pictures and self._pictures[0][1] < frame.t - LOOK_BACK_S:
            self._pictures.popleft()
        blobs = [(es, labels == i) for es, i in zip(entries, arm_ids, strict=True)]
        arms = split_arms(blobs, self._arms_before, ~moving)
        self._arms_before = arms
        self._hist.append((k, grey, skin, blobs, fg, arms))
        self._back_from_taken()
        if self._last_change is None:
            self._last_change = np.zeros(fg.shape, np.int32)
        self._last_change[moving] = k
        # regions: changed, not touched by an arm (dilated), still for `settle` frames
        self._dirty = bool(fg.any())
        if n > 1:
            arm_near = cv2.dilate(arm.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
            blocked = set(np.unique(labels[arm_near & fg]).tolist())
            for i in range(1, n):
                if i in blocked or stats[i, cv2.CC_STAT_AREA] < MIN_REGION_PX:
                    continue
                reg = labels == i
                last = int(self._last_change[reg].max())
                if last >= k:
                    continue  # still moving
                if last > k - self.settle:
                    self._queued.append((frame, reg, stats[i], k, last))
                    continue
                unread = self._unread_at(reg)
                if unread is not None and k < unread.next_k:
                    if k == unread.next_k - 1:  # read it again off the frame path
                        self._queued.append((frame, reg, stats[i], k, last))
                    continue  # not readable a moment ago: wait before reading it again
                out.extend(self._process(frame, small, reg, stats[i], k))
            out.extend(self._specks_on_touched(frame, small, k, labels, stats, blocked))
            if blocked:
                out.extend(self._rest_beside_arms(frame, small, k, np.isin(labels, list(blocked))))
        if self._stale:
            out.extend(self._read_stale(frame, small, k, arm))
        if self._unexplained is not None:
            out.extend(self._look_again(frame, k, arm))
        self._ahead = [a for a in self._ahead if a.k > k - 4 * self.settle]
        self._unread = [u for u in self._unread if u.next_k > k - 2 * RETRY_FRAMES[-1]]
        return out + self._unseen_departures(frame.t)

    def _specks_on_touched(self, frame: Frame, small: np.ndarray, k: int, labels: np.ndarray,
                           stats: np.ndarray, blocked: Collection[int]) -> list[TableObservation]:
        """Read again a top card an arm lay over where, the arm gone, the table differs from the
        reference only in specks too small to be regions of their own: a look-alike turned
        squarely onto a waste pile (a 5 of spades onto the 4) changes one pip, a pixel or two
        of the small picture, and went untold. The specks on the card are taken as one region."""
        out: list[TableObservation] = []
        specks = {i for i in np.flatnonzero(stats[:, cv2.CC_STAT_AREA] < MIN_REGION_PX).tolist()
                  if i > 0 and i not in blocked}
        if not specks:
            return out
        for kn in list(self.model):
            if not kn.top or kn.touched < 0 or kn.touched == k or kn not in self.model:
                continue
            sl, m = self._foot_small(kn.quad)
            ids = [i for i in np.unique(labels[sl][m]).tolist() if i in specks]
            if not ids:
                continue
            reg = np.isin(labels, ids)
            if int(self._last_change[reg].max()) > k - self.settle:
                continue  # not still long enough yet
            ys, xs = np.nonzero(reg)
            st = np.array([xs.min(), ys.min(), xs.max() - xs.min() + 1, ys.max() - ys.min() + 1, len(xs)])
            out.extend(self._process(frame, small, reg, st, k))
        return out

    def _read_stale(self, frame: Frame, small: np.ndarray, k: int,
                    arm: np.ndarray) -> list[TableObservation]:
        """Read again the places that cards left while a hand hid them, once no arm is near and
        nothing has moved there for `settle` frames. The reference there still shows the card
        that left, so a card laid in its place at once (the next card into a row's slot, of
        another colour but as bright) changes too little of the grey picture to be noticed."""
        out: list[TableObservation] = []
        assert self._last_change is not None
        near = cv2.dilate(arm.astype(np.uint8), self._k5).astype(bool)
        for entry in list(self._stale):
            gone, k_gone = entry
            if k - k_gone > STALE_FRAMES:
                self._stale.remove(entry)  # never seen free again: the next change there tells
                continue
            sl, m = self._foot_small(gone.quad)
            if not m.any():
                self._stale.remove(entry)
                continue
            if (near[sl] & m).any() or int(self._last_change[sl][m].max()) > k - self.settle:
                continue  # a hand there still, or something moved there a moment ago
            self._stale.remove(entry)
            read = self._read(frame.image, gone.quad, self.deck)
            if not self._sure(read):
                own = self._best_of(frame.image, self._fit_card(frame.image, gone.x, gone.y), k)
                if own is not None and own.confidence > read.confidence:
                    read = own
            if self.debug:
                print("  stale place of", gone.code, "reads", read.code, round(read.confidence, 2))
            reg = np.zeros(small.shape[:2], bool)
            reg[sl] = m
            st = (sl[1].start, sl[0].start, sl[1].stop - sl[1].start, sl[0].stop - sl[0].start)
            if not self._sure(read):
                if read.confidence < NOTHING_THERE and self._bare_now(gone.quad):
                    # bare cloth where the reference still shows the card that left: nothing
                    # new lies there, so the place is taken in as it is now (else the card-shaped
                    # change it leaves is read again and again as a card not readable yet)
                    self._refresh(frame.image, small, reg, st)
                continue  # unreadable: what differs from the reference there tells
            out.extend(self._arrivals(frame, [read], k))
            self._refresh(frame.image, small, reg, st)  # the card that lies there now
        return out

    def _unseen_departures(self, t: float, zone: str | None = None) -> list[TableObservation]:
        """Row cards gone from their slot LEFT_UNSEEN_S ago (or any, from this zone: another
        card arrives there) that were not seen to land: told once, so that the referee knows the
        slot is empty. (Played onto a pile under a hand and covered by the next card at once.)
        Should one be seen landing later, it is still reported as come from its slot."""
        out: list[TableObservation] = []
        for code in [c for c, es in self._left.items() if any(t - e[1] > LEFT_MEMORY_S for e in es)]:
            self._left[code] = [e for e in self._left[code] if t - e[1] <= LEFT_MEMORY_S]
            if not self._left[code]:
                del self._left[code]  # too long ago to be matched with an arrival
        for entries in self._left.values():
            for z, t_left, kn in entries:
                if (kn.told_gone or not z.startswith("row:")
                        or (z != zone if zone is not None else t - t_left < LEFT_UNSEEN_S)):
                    continue
                kn.told_gone = True
                out.append(LeftUnseenObs(kn.code, kn.x, kn.y, z, t_left,
                                         self.layout.seat_of_zone(z)))
        return out

    def _rest_beside_arms(self, frame: Frame, small: np.ndarray, k: int,
                          busy: np.ndarray) -> list[TableObservation]:
        """Cards that came to rest while arms are still over the table beside them.

        When everyone plays at once an arm is nearly always near the centre, and a card laid on
        a pile may be covered by the next one before the arms ever leave it. So two more kinds
        of read count where arms touch a changed region:
          - a card read surely while its region settled (read ahead), which an arm now reaches,
            of which no more than half has changed since (the arm's part);
          - the still part of the region: a card-sized patch unchanged for `settle` frames,
            whose surest read is sure and which no moving thing touches. (A still hand reads as
            no card; a card still held has fingers on it.)"""
        assert self._last_change is not None
        recent = (self._last_change > k - self.settle) & busy
        near = cv2.dilate(recent.astype(np.uint8), self._k5).astype(bool)
        out: list[TableObservation] = []
        for a in [a for a in self._ahead if (a.reg & busy).any()]:
            self._ahead.remove(a)  # its region is an arm's now: its reads are used here or never
            for d in a.dets:
                sl, m = self._foot_small(np.asarray(d.corners, np.float64))
                since = int(np.count_nonzero((self._last_change[sl] > a.k) & m))
                if self._sure(d) and since <= HAND_OVER_READ * int(np.count_nonzero(m)):
                    out.extend(self._arrive_beside_arms(frame, small, k, d, near, read_k=a.k))
        still = cv2.morphologyEx((busy & ~near).astype(np.uint8), cv2.MORPH_OPEN, self._k3)
        n, lab, st, _ = cv2.connectedComponentsWithStats(still, connectivity=4)
        card = CARD_W_MM * CARD_H_MM * (self._px_mm * self.f) ** 2
        # the patch closest to a card's size first; one read a frame, and a place whose read
        # found no card waits a few frames (the still inside of a moving sleeve looks like one)
        order = sorted(range(1, n), key=lambda i: abs(st[i, cv2.CC_STAT_AREA] - card))
        for i in order:
            if not 0.4 * card <= st[i, cv2.CC_STAT_AREA] <= 1.6 * card:
                continue
            reg = lab == i
            if (reg & self._outside).any() or not self._card_shaped(reg, st[i]):
                continue  # an arm's still part, not a card
            cx, cy = st[i, 0] + st[i, 2] // 2, st[i, 1] + st[i, 3] // 2
            key = (int(cx) // 6, int(cy) // 6)
            if self._still_tried.get(key, -1) > k:
                continue
            changed = int(self._last_change[reg].max())
            if any(kn.top and kn.rest_k >= changed - self.settle
                   and self._share_over(kn.quad, reg) > 0.5 for kn in self.model):
                continue  # the card reported there since it last changed
            self._still_tried[key] = k + STILL_RETRY_FRAMES
            if self._flatter_than_before(reg, st[i]):
                continue  # bare cloth where a card lay: a card left, none came (no read needed)
            dets, _shaped = self._new_reads(frame, reg, st[i], k, quick=True)
            if self.debug:
                print("  still patch", st[i].tolist(), [(d.code, round(d.confidence, 2)) for d in dets])
            for d in dets:
                if not self._sure(d):
                    continue
                if self._share_over(np.asarray(d.corners, np.float64), recent) > HAND_ON_CARD:
                    self._still_tried[key] = k + 1  # a hand on it: look again soon
                    self._held.append((k, np.asarray(d.corners, np.float64)))
                    continue
                out.extend(self._arrive_beside_arms(frame, small, k, d, near))
            break
        if len(self._still_tried) > 400:
            self._still_tried = {kk: v for kk, v in self._still_tried.items() if v > k}
        return out

    def _flatter_than_before(self, reg: np.ndarray, st) -> bool:
        """Does a changed patch now show far less detail than the reference did (bare cloth
        where a card lay, as _bare_now for a card's place)?"""
        x, y, w, h = (2 * int(v) for v in st[:4])
        m = np.repeat(np.repeat(reg[y // 2:(y + h) // 2, x // 2:(x + w) // 2], 2, axis=0), 2, axis=1)
        pics = self._mid_then_and_now((slice(y, y + h), slice(x, x + w)), m)
        return pics is not None and _far_flatter(*pics)

    def _card_shaped(self, reg: np.ndarray, st) -> bool:
        """Is this patch of the small picture about a card's rectangle on the table (most of
        one: sides 0.6 to 1.25 of a card's, filling most of its box)?"""
        x, y, w, h = (int(v) for v in st[:4])
        sub = reg[y:y + h, x:x + w].astype(np.uint8)
        cnts, _ = cv2.findContours(sub, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not cnts:
            return False
        pts = max(cnts, key=cv2.contourArea).reshape(-1, 2).astype(np.float64) + [x, y]
        mm = self.cal.to_table(pts / self.f).astype(np.float32)
        (_, _), (a, b), _ = cv2.minAreaRect(mm)
        short, long_ = sorted((a, b))
        area = cv2.contourArea(mm)
        return (0.6 * CARD_W_MM <= short <= 1.25 * CARD_W_MM
                and 0.6 * CARD_H_MM <= long_ <= 1.25 * CARD_H_MM and area >= 0.6 * a * b)

    @staticmethod
    def _sure(d: Detection) -> bool:
        return d.confidence >= SURE and not (d.code == UNKNOWN and d.face_up)

    def _arrive_beside_arms(self, frame: Frame, small: np.ndarray, k: int, d: Detection,
                            near: np.ndarray, read_k: int | None = None) -> list[TableObservation]:
        """Report a card read at rest beside arms; take the part of it no arm is near into the
        reference (the rest is read again, and found known, once the arms have gone).
        A copy laid on a top card of its code is a new card, not that card read again (on a
        Wig Out pile every card is the pile's character, and the arms never leave the middle).
        read_k: the frame d was read in, where before this one (read ahead)."""
        laid_on = {id(d): o for o in self.model if self._is_copy(d, o)}
        out = self._arrivals(frame, [d], k, laid_on=laid_on, read_k=read_k)
        sl, m = self._foot_small(np.asarray(d.corners, np.float64))
        foot = np.zeros(near.shape, bool)
        foot[sl] = m
        foot &= ~near
        ys, xs = np.nonzero(foot)
        if len(xs):
            box = (xs.min(), ys.min(), xs.max() - xs.min() + 1, ys.max() - ys.min() + 1)
            self._refresh(frame.image, small, foot, box)
        return out

    def _unread_at(self, reg: np.ndarray) -> _Unread | None:
        return next((u for u in self._unread if _iou(u.reg, reg) > 0.5), None)

    def read_ahead(self) -> None:
        """Read the regions that are still waiting out their settle frames, once each. Call it
        after handing on what update() returned: the frame that settles a region then has only
        bookkeeping left, and its verdict comes that much sooner. (Without it, regions are read
        when they settle.)"""
        queued, self._queued = self._queued, []
        for job in queued:
            self._read_region_ahead(*job)

    def _read_region_ahead(self, frame: Frame, reg: np.ndarray, st, k: int, last: int) -> None:
        if any(a.last == last and _iou(a.reg, reg) > 0.8 for a in self._ahead):
            return
        dets, card_shaped = self._new_reads(frame, reg, st, k)
        model = {id(kn): (kn.quad.copy(), self._read(frame.image, kn.quad, self.deck))
                 for kn in self.model if self._needs_read(kn, reg, dets) == "read"}
        self._ahead.append(_Ahead(k, last, reg, dets, card_shaped, model))

    def _new_reads(self, frame: Frame, reg: np.ndarray, st, k: int,
                   quick: bool = False) -> tuple[list[Detection], bool]:
        """The surest read of each new card in a changed region, and whether the change had
        a card's shape at all. quick: reads that count only when sure (no slow pose search)."""
        groups = self._card_quads(frame, reg, st)
        first = next(groups, None)
        if first is None:
            # no card's shape: where the reads find nothing, the change is taken in as it is
            return self._one_per_place(self._print_change_reads(frame.image, reg, k, quick)), False
        # the patch read quickly is one card at most: its first outlines
        dets: list[Detection] = []
        for outlines in [first] if quick else chain([first], groups):
            group = outlines[1:3] + outlines[:1]  # edge fit, edge fit turned, diff box
            if any(d.confidence >= 1.0 and all(self._overlap(q, np.asarray(d.corners, np.float64)) > READ_THERE
                                               for q in group) for d in dets):
                continue  # on a card read fully surely: its read would not stand (_one_per_place)
            best = self._best_of(frame.image, group, k, quick, unsure=True)
            if best is not None:
                dets.append(best)
        dets = [d for d in self._one_per_place(dets, settled=True) if self._counts(d)]
        if not quick:
            dets.extend(self._held_reads(frame, reg, k, dets))
        return self._one_per_place(dets), True

    def _held_reads(self, frame: Frame, reg: np.ndarray, k: int,
                    dets: list[Detection]) -> list[Detection]:
        """Sure reads, on their outlines, of the cards read surely beside arms lately that a hand
        lay over too much of to be told (HAND_ON_CARD), where this settled region touches them
        and no read of it lies there: the region the hand leaves may join the card to the next
        one laid beside it, and no outline fitted to it is the card's own (a Wig Out card read
        surely with fingers on a fifth of it, then another laid against it, never told)."""
        out: list[Detection] = []
        kept = []  # (entries are rebuilt, not removed: deque.remove compares outlines with ==)
        for k0, q in self._held:
            if k - k0 > HELD_FRAMES:
                continue
            if not self._touches(q, reg) or any(
                    self._overlap(q, np.asarray(d.corners, np.float64)) > ONE_PLACE for d in dets + out):
                kept.append((k0, q))
                continue
            if any(kn.top and self._overlap(q, kn.quad) > ONE_PLACE for kn in self.model):
                continue  # told since, or another card lies on it
            d = self._best_of(frame.image, [q], k)
            if d is not None and self._sure(d):
                out.append(d)
        self._held = deque(kept, maxlen=self._held.maxlen)
        return out

    def _print_change_reads(self, image: np.ndarray, reg: np.ndarray, k: int,
                            quick: bool = False) -> list[Detection]:
        """The reads of the cards that may lie squarely on a pile whose print changed (each
        outline read quickly, and fully only where that read is unsure but not of nothing, and
        the caller takes more than sure reads: such a card shows whole, and the pieces of its
        print that settle later ask again). Where the pile's top card reads as itself, its print
        is remembered as it shows now, so that those pieces do not ask again for it."""
        dets: list[Detection] = []
        for kn, outlines in self._print_change_quads(image, reg):
            for q in outlines:
                if any(d.confidence >= 1.0 and self._overlap(q, np.asarray(d.corners, np.float64)) > READ_THERE
                       for d in dets):
                    continue  # on a card read fully surely (another pile's fits, as in _new_reads)
                first = self._read_quick(image, q, self.deck)
                d = self._best_of(image, [q], k, quick=quick or not NOTHING_THERE <= first.confidence < SURE)
                if d is None:
                    continue
                dets.append(d)
                if d.confidence < SURE:
                    continue
                if self._same_place(d, kn):
                    self._remember_print(image, kn)
                break  # the pile's top card, read surely: the other fits are of the cards below
        return dets

    def _one_per_place(self, dets: list[Detection], settled: bool = False) -> list[Detection]:
        """Outline hypotheses of one card may read as two (a sure read and a look-alike at an
        outline a little off): one place holds one top card, the surest read. settled: the
        reads include unsure ones, and two at one place are settled as two reads of one card
        (identify.settle: of two cards named, the better fit stands, no surer than the other is
        unsure; a Wig Out 1 on a waste pile, read unsurely on its own outline, and as the 2 on an
        outline across it and the row card beside it that fitted twice as badly, was told as a 2)."""
        kept: list[Detection] = []
        for d in sorted(dets, key=lambda d: -d.confidence):
            q = np.asarray(d.corners, np.float64)
            i = next((i for i, o in enumerate(kept)
                      if self._overlap(q, np.asarray(o.corners, np.float64)) > ONE_PLACE), None)
            if i is None:
                kept.append(d)
            elif settled:
                kept[i] = settle(kept[i], d)
        return kept

    def _needs_read(self, kn: _Known, reg: np.ndarray, new_dets: list[Detection],
                    copies: Collection[int] = ()) -> str:
        """What a changed region means for a model card: "away" (not in the region), "same"
        (read again where it was), "covered", "keep" (nothing to read) or "read".
        copies: the new reads (ids) that are copies laid on a top card of their code."""
        if not self._touches(kn.quad, reg):
            return "away"
        if any(self._same_place(d, kn) and id(d) not in copies for d in new_dets) \
                and not self._copy_over(kn):
            return "same"
        if any(self._overlap(kn.quad, np.array(d.corners)) > 0.2 for d in new_dets):
            return "covered"
        if not kn.top:
            return "keep"  # under another card (a pile): nothing of it to read
        if kn.touched < 0 and not self._changed_at(kn.quad, 0.3):
            # its picture is as it was: still there, no need to read it again (but where an arm
            # lay over it, any change left may be a look-alike laid on it: a pip or two)
            return "keep"
        return "read"

    def _same_place(self, d: Detection, kn: _Known) -> bool:
        """Is the read of the model card's code, where it lies (it, or a copy laid on it)?"""
        return (d.code == kn.code and d.face_up == kn.face_up
                and bool(np.linalg.norm(self._centre_mm(d) - [kn.x, kn.y]) < 25))

    def _is_copy(self, d: Detection, kn: _Known) -> bool:
        """Is the read a copy of the top card kn laid on it by an arm (not kn read again)?"""
        return (kn.top and kn.touched >= 0 and self._same_place(d, kn)
                and self._copy_laid_on(np.asarray(d.corners, np.float64), kn))

    def _copy_on(self, img: np.ndarray, kn: _Known, k: int) -> Detection | None:
        """The read of a copy of a model card laid on it by the arm that lay over it, which
        reads as the card on its outline; None where the card itself lies there still."""
        turned = self._turned_quad(kn)
        if turned is not None:
            # the print moved: the copy lies where it moved to (the outlines fitted to the edges
            # there follow the card below as well, showing at the copy's corners: a wonky card
            # turned 12 degrees on its copy on a waste pile, fitted and read 1.5 mm off the card
            # below)
            if self._shows_beside(kn.quad, turned) is False and not self._turned_half_round(kn):
                return None  # where it lay shows what it did not: the card itself was pushed
            if self._like_below_shows(kn):
                return None  # the cards above its like were taken off
            own = self._best_of(img, [turned], k)
            if own is not None and own.code == kn.code and own.face_up == kn.face_up:
                return replace(own, corners=_corners(turned))
            return None
        if self._looks_as_before(kn.quad):
            return None
        own = self._best_of(img, self._fit_card(img, kn.x, kn.y), k)
        if (own is None or own.code != kn.code or own.face_up != kn.face_up
                or not self._copy_laid_on(np.asarray(own.corners, np.float64), kn)):
            return None
        return own

    def _copy_laid_on(self, quad: np.ndarray, kn: _Known) -> bool:
        """Has a card with the model card's code been laid on it? Its outline lies at another
        angle or place, and the place no longer shows the picture it did. (On a Wig Out pile
        every card has the pile's character; a card read again lies where it lay.)"""
        if not kn.own_outline:
            return False  # its outline is the card's below: where it lies is not known
        if self._like_below_shows(kn):
            return False  # the cards above its like were taken off
        if self._turned_half_round(kn):
            return True  # its print shows turned half round: a card lying there does not turn so
        shift = self._pose_apart_mm(quad, kn.quad)
        if shift <= SAME_POSE_MM:
            return False
        if self._looks_as_before(kn.quad):
            # a copy laid a few degrees off the card, on its centre, still correlates with it
            # (a spite-and-malice 4 turned 4.7 degrees on a waste pile: 0.89): only its print's
            # having moved tells (and the card itself, pushed, would leave its place showing
            # what it did not beside it)
            return self._shows_turned(kn) and self._shows_beside(kn.quad, quad) is not False
        beside = self._shows_beside(kn.quad, quad)
        # where too little of the old outline is left uncovered to tell, an outline only a few
        # mm off is the card itself read on a looser outline (a slap-wacky card first read
        # beside the arms, 2 degrees off, was told again as a copy of itself 4.2 mm off),
        # unless the card's own picture, turned, fits the place far better than as it lay
        return beside is True or (beside is None and (shift > 2 * SAME_POSE_MM
                                                      or self._shows_turned(kn)))

    def _top_down(self, image: np.ndarray, cx: float, cy: float, r: float) -> np.ndarray:
        """The table around (cx, cy) mm, r mm each way, seen from straight above at TOP_PX_MM
        (grey levels)."""
        s = TOP_PX_MM
        t = np.array([[s, 0, -(cx - r) * s], [0, s, -(cy - r) * s], [0, 0, 1.0]])
        n = int(2 * r * s)
        top = cv2.warpPerspective(image, t @ self.cal.image_to_table, (n, n), flags=cv2.INTER_LINEAR)
        return cv2.cvtColor(top, cv2.COLOR_BGR2GRAY).astype(np.float32)

    def _shows_turned(self, kn: _Known) -> bool:
        """Does the model card's place now show its own picture turned or shifted, far better
        than as it lay? (_turned_quad)"""
        return self._turned_quad(kn) is not None

    def _turned_quad(self, kn: _Known) -> np.ndarray | None:
        """The outline (image corners) of the model card's own picture where its place now shows
        it turned or shifted by more than TURNED_MM, far better than as it lay; else None.
        (A Wig Out card thrown onto the pile's centre ten degrees askew: its outline read on a
        small camera picture is only a few mm off the card's below, but its face's print has
        turned.) Its picture as it was told (seen_top; else the reference's) is aligned with the
        picture now (ECC, a rotation and a shift) on the table plane."""
        got = self._print_moved(kn)
        return None if got is None else got[0]

    def _turned_half_round(self, kn: _Known) -> bool:
        """Does the model card's place show its own picture turned half round (_turned_quad),
        another card of its face laid on it upside down?"""
        got = self._print_moved(kn)
        return got is not None and got[1]

    def _print_moved(self, kn: _Known) -> tuple[np.ndarray, bool] | None:
        """_align_print of the model card, worked out once a frame."""
        if self._ref_full is None or not self._pictures:
            return None
        return self._card_once("turned", kn, lambda: self._align_print(kn))

    def _print_then_now(self, kn: _Known) -> tuple[np.ndarray, ...] | None:
        """The model card's picture as it was told (seen_top; else the reference's) and its place
        now, seen from above, with the mask of its outline and the outline's corners (patch px);
        None where too little of it falls in the patch."""
        assert self._ref_full is not None
        s, r = TOP_PX_MM, TURN_PATCH_MM
        then = kn.seen_top.astype(np.float32) if kn.seen_top is not None \
            else self._top_down(self._ref_full, kn.x, kn.y, r)
        now = self._top_down(self._pictures[-1][2], kn.x, kn.y, r)
        corners = (self.cal.to_table(kn.quad.reshape(4, 2)) - [kn.x - r, kn.y - r]) * s
        mask = np.zeros(then.shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 1)
        mask = cv2.erode(mask, self._k5)
        return None if np.count_nonzero(mask) < 100 else (then, now, mask, corners)

    def _like_below_shows(self, kn: _Known) -> bool:
        """Does a card of the top card's face, known below it, show at its place as it did when
        told? Then the cards above it were taken off (a copy laid on its like upside down, and
        taken back, leaves its print showing turned half round: that is the like showing again)."""
        laid_before = self.model[:self.model.index(kn)] if kn in self.model else []
        for o in laid_before:
            if (o.code, o.face_up) == (kn.code, kn.face_up) and o.seen_top is not None \
                    and self._overlap(o.quad, kn.quad) > 0.2:
                pics = self._print_then_now(o)
                if pics is not None:
                    then, now, mask, _ = pics
                    if _correlation(then[mask > 0], now[mask > 0]) >= TURNED_FIT:
                        return True
        return False

    def _align_print(self, kn: _Known) -> tuple[np.ndarray, bool] | None:
        """_turned_quad, worked out, and whether the print shows turned half round (ECC takes a
        few ms: once a frame per card). The print is also aligned turned half round, where as it
        lay it fits its place poorly: a card's outline is the same so, its print mostly not (a
        Wig Out copy thrown onto its like upside down and eight degrees askew fitted nothing as it
        lay, and ECC from there found no alignment); the copy's outline then starts at the old
        one's opposite corner."""
        s, r = TOP_PX_MM, TURN_PATCH_MM
        pics = self._print_then_now(kn)
        if pics is None:
            return None
        then, now, mask, corners = pics
        as_it_lay = _correlation(then[mask > 0], now[mask > 0])
        tries = [(then, mask, corners, corners)]
        if as_it_lay < TURNED_FIT:  # (ECC started from a half turn finds nothing: turned first)
            cx, cy = corners.mean(axis=0)
            half = np.float32([[-1, 0, 2 * cx], [0, -1, 2 * cy]])
            tries.append((cv2.warpAffine(then, half, then.shape[::-1], borderMode=cv2.BORDER_REPLICATE),
                          cv2.warpAffine(mask, half, mask.shape[::-1], flags=cv2.INTER_NEAREST),
                          np.column_stack([corners, np.ones(4)]) @ half.T, np.roll(corners, 2, axis=0)))
        for told, inside, at, outline in tries:
            try:
                fit, warp = cv2.findTransformECC(
                    told, now, np.eye(2, 3, dtype=np.float32), cv2.MOTION_EUCLIDEAN,
                    (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 50, 1e-4), inside, 3)
            except cv2.error:
                continue  # no alignment converged: nothing shows turned so
            moved = np.column_stack([at, np.ones(4)]) @ warp.T
            shift = float(np.max(np.hypot(*(moved - outline).T))) / s
            gain = fit - as_it_lay >= TURNED_GAIN or 1.0 - fit <= TURNED_RESIDUAL * (1.0 - as_it_lay)
            # (turned half round, the print moved though the outline may not have: a card does
            # not turn so where it lies)
            if fit >= TURNED_FIT and gain and (shift > TURNED_MM or outline is not corners):
                return self.cal.to_image(moved / s + [kn.x - r, kn.y - r]), outline is not corners
        return None

    def _shows_beside(self, old: np.ndarray, new: np.ndarray) -> bool | None:
        """Does the old card still show where the new outline leaves it uncovered (a copy laid
        on it at another angle), or not (the card itself was pushed there)? None: too little of
        it is left uncovered to tell."""
        if self._ref_mid is None or self._mid_now is None:
            return None
        foot, box = self._footprint_mid(old, grow=0)
        on = np.zeros(foot.shape, np.uint8)
        cv2.fillConvexPoly(on, np.round(new * self.f * 2 - [box[1].start, box[0].start])
                           .astype(np.int32), 1)
        # clear of the new card's edge, and of the old one's (an outline a pixel wide of the
        # card: a card pushed a centimetre uncovers a sliver that is mostly its old edge, where
        # cloth showed then and shows now)
        inner = cv2.erode(foot.astype(np.uint8), self._k3).astype(bool)
        side = inner & ~cv2.dilate(on, self._k3).astype(bool)
        if np.count_nonzero(side) < 12:
            return None
        then, now = self._ref_mid[box][side], self._mid_now[box][side]
        return float(np.median(cv2.absdiff(then, now))) < self.rest_threshold

    @staticmethod
    def _beyond_specks(moving: np.ndarray) -> bool:
        """Does anything larger than a speck change? A noisy sensor flips a pixel or two of the
        small picture past the threshold now and then: waiting for frames with none at all, the
        start could wait until the players' arms were over the table, and miss the first plays
        (a dim table at high gain: 1 or 2 px in every other frame)."""
        n, _, stats, _ = cv2.connectedComponentsWithStats(moving.astype(np.uint8), connectivity=8)
        return bool(n > 1 and stats[1:, cv2.CC_STAT_AREA].max() >= MIN_REGION_PX)

    def _try_start(self, frame: Frame, small: np.ndarray, moving: bool) -> list[TableObservation]:
        self._still = 0 if moving else self._still + 1
        grey = self._mid_grey()
        if self._still and self._mid_now is not None:
            # sensor noise of a still table decides the rest test's threshold
            d = cv2.absdiff(grey, self._mid_now)
            self._noise = max(self._noise, 1.48 * float(np.median(d)) / 1.41)
        self._mid_now = grey
        if self._still < self.settle:
            return []
        # the layout's spots first (quick, and sure where cards lie close in rows), then the
        # rest of the picture, leaving out the cards read at the spots
        at_spots = self._spot_reads(frame.image)
        spots = [d for d in at_spots if d.confidence >= SURE]
        dets = self._read_all(frame.image, self.deck,
                              known=[np.asarray(d.corners, np.float32) for d in spots]
                              + self._marker_quads(), area=self._table_px, markers=False)
        cards = []
        dets = [self._reread(frame.image, d) if d.code == UNKNOWN or d.confidence < self.min_conf
                else d for d in dets]
        # an unsure spot read counts where the whole picture read nothing sure
        sure = [self._centre_mm(d) for d in dets + spots
                if (d.code != UNKNOWN or not d.face_up) and d.confidence >= SURE]
        more = spots + [d for d in at_spots if d.confidence < SURE and all(
            math.hypot(*(self._centre_mm(d) - c)) >= 30 for c in sure)]
        if more:  # a spot read replaces an unread or less sure detection there
            at = [(self._centre_mm(d), d) for d in more]

            def replaced(d: Detection) -> bool:
                c = self._centre_mm(d)
                return any(math.hypot(*(c - cm)) <= 30 and (
                    (d.code == UNKNOWN and d.face_up) or d.confidence <= m.confidence)
                    for cm, m in at)
            dets = [d for d in dets if not replaced(d)] + more
        for d in self._one_per_place([d for d in dets
                                      if d.confidence >= self.min_conf or not d.face_up]):
            kn = self._known_from(d)
            self._remember_as_told(frame.image, kn)
            self.model.append(kn)
            cards.append(CardSeen(kn.code, kn.x, kn.y, kn.angle, kn.zone,
                                  self.layout.seat_of_zone(kn.zone), kn.face_up, kn.back))
        self._ref = small.copy()
        self._ref_full = frame.image.copy()
        self._ref_mid = self._mid_grey()
        self.started = True
        return [DealObs(tuple(cards), frame.t)]

    def _marker_quads(self) -> list[np.ndarray]:
        """The corner markers with their white margin (image corners): no card lies there."""
        geo = MarkerGeometry(self.layout.table_w, self.layout.table_h, DEFAULT_MARKER_MM)
        out = []
        for m in MARKER_IDS:
            mm = geo.corners_mm(m)
            c = mm.mean(axis=0)
            out.append(self.cal.to_image(c + MARKER_MARGIN * (mm - c)).astype(np.float32))
        return out

    def _reread(self, image: np.ndarray, d: Detection) -> Detection:
        """A card the whole-picture reader could not name, read again on its own: at its
        corners and on the outline fitted to the picture's edges there."""
        q = np.asarray(d.corners, np.float64).reshape(4, 2)
        c = self.cal.to_table(q).mean(axis=0)
        best = d
        cands = [q] if d.confidence > 0 else []  # (a spot's guess has no corners of its own)
        for cand in [*cands, *self._fit_card(image, float(c[0]), float(c[1]))]:
            r = self._read(image, cand, self.deck)
            if r.code == UNKNOWN and (r.back is None or r.face_up):
                continue
            # a face seen through a turned outline can read as a back of its colour; a back
            # never reads as one face surely, so a sure face read wins over a back read
            unread = best.code == UNKNOWN and best.face_up
            face_over_back = (r.face_up and r.code != UNKNOWN and r.confidence >= SURE
                              and not best.face_up)
            if unread or face_over_back or r.confidence > best.confidence + 0.05:
                best = r
            if best.confidence >= SURE and best.face_up:
                break  # (a sure back is checked on the other outlines too)
        return best

    def _centre_mm(self, d: Detection) -> np.ndarray:
        return self.cal.to_table(np.asarray(d.corners, np.float64).reshape(4, 2)).mean(axis=0)

    def _spot_reads(self, image: np.ndarray) -> list[Detection]:
        """The cards at the layout's spots, each read on its own (where cards lie close in rows
        the whole-picture reader may miss them; a card's outline found turned can read as a
        back of its colour)."""
        have: list[np.ndarray] = []
        out: list[Detection] = []
        for box in self.layout.spots.values():
            if any(math.hypot(c[0] - box.cx, c[1] - box.cy) < 30 for c in have):
                continue
            q = self.cal.to_image(np.array([[box.cx, box.cy]] * 4, np.float64))
            d = self._reread(image, Detection(UNKNOWN, tuple(map(tuple, q)), 0.0))
            if (d.code != UNKNOWN or not d.face_up) and d.confidence >= self.min_conf:
                out.append(d)
                have.append(self._centre_mm(d))
        return out

    def _arm_entries(self, labels: np.ndarray, arm_ids: np.ndarray,
                     weak: np.ndarray) -> list[list[tuple[int, tuple[float, float]]]]:
        """Where each arm blob crosses the table edge: [(seat, point in small px)] per blob.

        Arms that touch over the table make one blob with several crossings. weak: the labels
        of the faint changes (half the threshold) through which a blob reaches outside."""
        out: list[list[tuple[int, tuple[float, float]]]] = []
        if not len(arm_ids):
            return out
        outside_weak = np.where(self._outside, weak, 0)
        # the crossings of all arms at once: weak labels are 8-connected, so no two touch, and
        # a blob's crossings are the pieces that carry its labels
        crossing = outside_weak > 0
        n, lab, st, _ = cv2.connectedComponentsWithStats(crossing.astype(np.uint8), connectivity=8)
        piece_label = np.zeros(n, outside_weak.dtype)
        piece_label[lab[crossing]] = outside_weak[crossing]
        # the weak labels each blob's pixels carry, for all blobs at once: (blob, weak label) pairs
        nw = int(weak.max()) + 1
        both = (labels > 0) & (weak > 0)
        pairs = np.unique(labels[both].astype(np.int64) * nw + weak[both])
        blob_of, weak_of = pairs // nw, pairs % nw
        # every crossing pixel in table mm and its distance from the table centre, at once, in
        # runs by piece (each run in the picture's row order, as the piece's own pixels are)
        ys, xs = np.nonzero(crossing)
        piece = lab[ys, xs]
        by_piece = np.argsort(piece, kind="stable")
        ys, xs = ys[by_piece], xs[by_piece]
        run = np.searchsorted(piece[by_piece], np.arange(n + 1))  # piece j: run[j]:run[j + 1]
        pts = np.column_stack([xs, ys]).astype(np.float64) / self.f
        mm = self.cal.to_table(pts) if len(pts) else np.zeros((0, 2))  # (none: OpenCV gives None)
        cx, cy = self.layout.centre
        off_centre = np.hypot(mm[:, 0] - cx, mm[:, 1] - cy)
        for i in arm_ids:
            carried = np.zeros(nw, bool)
            carried[weak_of[blob_of == i]] = True
            pieces = np.flatnonzero(carried[piece_label[1:]]) + 1
            es = []
            for j in pieces:
                if st[j, cv2.CC_STAT_AREA] < 4 and len(pieces) > 1:
                    continue
                # the crossing's pixel nearest the table centre
                q = run[j] + int(np.argmin(off_centre[run[j]:run[j + 1]]))
                es.append((int(self.layout.seat_for_edge_point(*mm[q]) or 0),
                           (float(xs[q]), float(ys[q]))))
            out.append(es or [(0, (0.0, 0.0))])
        return out

    def _arm_seat_at(self, entries: list, mask: np.ndarray, target: np.ndarray) -> int:
        """The seat of the arm (of a blob with these edge crossings) that reaches target (small
        px): an arm runs roughly straight from its crossing to its hand, so the crossing whose
        straight line to the target stays inside the blob; of lines inside about as well, the
        one that does not go on beyond the target (that is an arm passing over it on its way
        further)."""
        if len(entries) == 1:
            return entries[0][0]
        h, w = mask.shape
        u = np.linspace(0.0, 1.0, 40)
        beyond = CARD_H_MM * self._px_mm * self.f  # a card's length on, in small px
        scored = []
        for s, (ex, ey) in entries:
            xs = np.clip(np.round(ex + (target[0] - ex) * u).astype(int), 0, w - 1)
            ys = np.clip(np.round(ey + (target[1] - ey) * u).astype(int), 0, h - 1)
            f = float(mask[ys, xs].mean())
            d = np.asarray(target, float) - (ex, ey)
            d = d / max(float(np.hypot(*d)), 1e-6) * beyond
            on_x = np.round(target[0] + d[0] * u).astype(int)
            on_y = np.round(target[1] + d[1] * u).astype(int)
            inside = (on_x >= 0) & (on_x < w) & (on_y >= 0) & (on_y < h)
            g = float(mask[on_y[inside], on_x[inside]].mean()) if inside.any() else 0.0
            if self.debug:
                print("   arm entry", s, "line", round(f, 2), "beyond", round(g, 2))
            scored.append((f, g, s))
        top = max(f for f, _, _ in scored)
        # of the lines that stay inside about as well, the one that ends at the target
        return min((g, -f, s) for f, g, s in scored if f >= top - LINE_TIE)[2]

    # ------------------------------------------------------------------ a settled region

    def _known_from(self, d: Detection) -> _Known:
        q = np.asarray(d.corners, np.float64).reshape(4, 2)
        mm = self.cal.to_table(q)
        c = mm.mean(axis=0)
        v = mm[1] - mm[0]
        ang = math.degrees(math.atan2(v[1], v[0]))
        zone = self.layout.zone_at(float(c[0]), float(c[1]))
        return _Known(d.code, q, float(c[0]), float(c[1]), ang, zone, d.face_up, d.back, read=d)

    def _card_quads(self, frame: Frame, reg: np.ndarray, st) -> Iterator[list[np.ndarray]]:
        """Card-sized rectangles (image corners) fitted to where the table changed, in groups of
        three outlines of one card: the difference's box, the edge fit and it turned; the fits
        in from each end of a change several cards long (SEVERAL_CARDS); the fit at a pile or
        seat spot near it; the fit by the edges new since; a field's outline.
        Each group is fitted when asked for (a fit costs milliseconds, and a card read surely on
        its first outlines needs no other: _new_reads)."""
        assert self._ref_full is not None
        x, y, w, h = (int(v) for v in st[:4])
        f = self.f
        pad = 3
        X0, Y0 = int(max(0, (x - pad) / f)), int(max(0, (y - pad) / f))
        H, W = frame.image.shape[:2]
        X1, Y1 = int(min(W, (x + w + pad) / f)), int(min(H, (y + h + pad) / f))
        cur = frame.image[Y0:Y1, X0:X1]
        ref = self._ref_full[Y0:Y1, X0:X1]
        d = np.max(cv2.absdiff(cur, ref), axis=2)
        mask = (d > self.thr + 8).astype(np.uint8)
        regmask = _mask_up(reg.astype(np.uint8), (H, W), Y0, Y1, X0, X1)
        mask &= cv2.dilate(regmask, np.ones((9, 9), np.uint8))
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        # to table mm at 1 px/mm
        corners = np.array([[X0, Y0], [X1, Y0], [X1, Y1], [X0, Y1]], np.float64)
        mm = self.cal.to_table(corners)
        mx0, my0 = np.floor(mm.min(axis=0)) - 5
        mx1, my1 = np.ceil(mm.max(axis=0)) + 5
        t = np.array([[1, 0, -mx0], [0, 1, -my0], [0, 0, 1.0]])
        o = np.array([[1, 0, X0], [0, 1, Y0], [0, 0, 1.0]])
        hm = t @ self.cal.image_to_table @ o
        size = (int(mx1 - mx0), int(my1 - my0))
        if size[0] <= 0 or size[1] <= 0 or size[0] * size[1] > 4e6:
            return
        top = cv2.warpPerspective(mask * 255, hm, size, flags=cv2.INTER_NEAREST)
        cnts, _ = cv2.findContours(top, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        shaped = False
        area = CARD_W_MM * CARD_H_MM
        for cnt in cnts:
            if cv2.contourArea(cnt) < 0.25 * area:
                continue
            (cx, cy), (rw, rh), ang = cv2.minAreaRect(cnt)
            if rw > rh:
                rw, rh, ang = rh, rw, ang + 90
            a = math.radians(ang)
            ux, uy, vx, vy = math.cos(a), math.sin(a), -math.sin(a), math.cos(a)
            pts = np.array([[cx + su * CARD_W_MM / 2 * ux + sv * CARD_H_MM / 2 * vx,
                             cy + su * CARD_W_MM / 2 * uy + sv * CARD_H_MM / 2 * vy]
                            for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
            pts += [mx0, my0]
            c = pts.mean(axis=0)
            shaped = True
            these = [self.cal.to_image(pts), *self._fit_card(frame.image, float(c[0]), float(c[1]))]
            yield list(these)
            if rh > SEVERAL_CARDS * CARD_H_MM or rw > SEVERAL_CARDS * CARD_W_MM:
                # several cards changed together (two laid side by side at once): the box about
                # the middle lies across both, so a card is fitted in from each end of the change
                # (at half a card's width from the end and at half its length: it may lie either way)
                for end, half in ((-1, CARD_W_MM / 2), (1, CARD_W_MM / 2), (-1, CARD_H_MM / 2), (1, CARD_H_MM / 2)):
                    along = end * max(rh / 2 - half, 0.0)
                    fit = self._fit_card(frame.image, float(c[0] + along * vx), float(c[1] + along * vy))
                    these += [fit[0], fit[0], fit[1]]
                    yield these[-3:]
            # a card laid on a pile or a seat spot lies close to the old top card or the spot:
            # fit there too (the difference's outline misleads when two cards overlap)
            touched = self._touched_near(reg, float(c[0]), float(c[1]))
            for px, py in self._anchors(reg, float(c[0]), float(c[1]), touched):
                fit = self._fit_card(frame.image, px, py)
                these += [fit[0], fit[0], fit[1]]
                yield these[-3:]
            for kn in touched:
                if kn.top:  # a card laid askew on it: its outline by the edges new since (a
                    # group of three, as the others, of that one outline)
                    new = self._fit_by_new_edges(frame.image, kn, these)
                    if new:
                        these += 3 * new
                        yield these[-3:]
        if shaped:
            for fq in self._field_quads(frame.image, (X0, Y0, X1, Y1)):
                yield [fq, fq, fq]

    def _print_change_quads(self, image: np.ndarray, reg: np.ndarray) -> list[tuple[_Known, list[np.ndarray]]]:
        """Outlines (image corners) of a card laid squarely on one much like it (a 6 of hearts
        on the 5), where only the print changed, in pieces each smaller than a card: the best
        fits on each pile whose print changed (not on one whose rim alone did: the last card
        laid there, a little askew), with the pile's top card; last, the fit by the edges new
        since the reference (a joker laid across a three at a right angle, its ends alone on
        the cloth, changed no card-sized piece of the picture; the fits followed the three, and
        read on them the joker's star was the ace of spades)."""
        out: list[tuple[_Known, list[np.ndarray]]] = []
        for kn in self.model:
            if kn.top and self._touches(kn.quad, reg) and self._print_changed(image, kn) >= PRINT_CHANGED:
                fit = self._fit_card(image, kn.x, kn.y, others=2)
                fits = [fit[0], *fit[2:]]
                out.append((kn, fits + self._fit_by_new_edges(image, kn, fits)))
        return out

    def _fit_by_new_edges(self, image: np.ndarray, kn: _Known, fits: list[np.ndarray]) -> list[np.ndarray]:
        """The outline fitted at a model card's place by the edges new since the reference, where
        it lies apart from all these outlines (NEW_FIT_APART_MM), as a list of one; else none: a
        card laid squarely on a pile fits there as the pile does, and one more read of it is
        only one more chance to misread it (a 6 of hearts, its hand just gone, read as the 7).
        (Not that fit turned: the new edges place a card laid across another as it lies, and
        where they place none, the turned outline only cost a read.)"""
        new = self._fit_card(image, kn.x, kn.y, since=self._ref_full)[0]
        return [new] if all(self._pose_apart_mm(new, f) > NEW_FIT_APART_MM for f in fits) else []

    def _print_box(self, image: np.ndarray, kn: _Known) -> tuple[tuple[int, int, int, int], np.ndarray] | None:
        """The image box of a model card's print (its outline less its white margin), and the
        print's pixels in it."""
        mid = kn.quad.mean(axis=0)
        inner = mid + PRINT_INSIDE * (kn.quad - mid)
        h, w = image.shape[:2]
        x0, y0 = (int(v) for v in np.clip(np.floor(inner.min(axis=0)), 0, [w, h]))
        x1, y1 = (int(v) for v in np.clip(np.ceil(inner.max(axis=0)) + 1, 0, [w, h]))
        if x1 <= x0 or y1 <= y0:
            return None
        m = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(m, np.round(inner - [x0, y0]).astype(np.int32), 1)
        return (x0, y0, x1, y1), m > 0

    def _remember_as_told(self, image: np.ndarray, kn: _Known) -> None:
        """Keep the pictures of a model card's place as it shows when told (seen_top, seen_px)."""
        kn.seen_top = self._top_down(image, kn.x, kn.y, TURN_PATCH_MM).astype(np.uint8)
        x0, y0, x1, y1 = self._box_around(kn.quad, image, grow=0.0)
        kn.seen_px = ((x0, y0, x1, y1), image[y0:y1, x0:x1].copy())

    def _told_changed(self, image: np.ndarray, kn: _Known) -> float:
        """The share of a model card's outline whose colours differ from its picture when told
        (1.0 where that picture is not kept)."""
        if kn.seen_px is None:
            return 1.0
        box, then = kn.seen_px
        m = np.zeros(then.shape[:2], np.uint8)
        cv2.fillConvexPoly(m, np.round(kn.quad - box[:2]).astype(np.int32), 1)
        m = cv2.erode(m, self._k3) > 0
        if not m.any():
            return 1.0  # none of it in the picture: nothing shows as told
        return self._changed_share(image, box, then, m)

    def _remember_print(self, image: np.ndarray, kn: _Known) -> None:
        """Keep a model card's print as it shows now, where it was read as itself (print_seen)."""
        at = self._print_box(image, kn)
        if at is not None:
            x0, y0, x1, y1 = at[0]
            kn.print_seen = (at[0], image[y0:y1, x0:x1].copy())

    def _print_changed(self, image: np.ndarray, kn: _Known) -> float:
        """The share of a model card's print that differs from the reference picture (or from
        its picture when last read as itself there, if later): all of it, not only the changed
        region at hand (a new card's pips differ from the old one's in pieces, each a region of
        its own)."""
        assert self._ref_full is not None
        at = self._print_box(image, kn)
        if at is None:
            return 0.0
        (x0, y0, x1, y1), inside = at
        base = kn.print_seen[1] if kn.print_seen is not None and kn.print_seen[0] == at[0] \
            else self._ref_full[y0:y1, x0:x1]
        return self._changed_share(image, at[0], base, inside)

    def _changed_share(self, image: np.ndarray, box: tuple[int, int, int, int], then: np.ndarray,
                       inside: np.ndarray) -> float:
        """The share of the mask inside (over the image box) whose colours differ from the picture
        then by more than the frame difference's threshold, and a little (sensor noise)."""
        x0, y0, x1, y1 = box
        d = np.max(cv2.absdiff(image[y0:y1, x0:x1], then), axis=2) > self.thr + 8
        return float(np.count_nonzero(d & inside)) / max(1, int(np.count_nonzero(inside)))

    @staticmethod
    def _box_around(quad: np.ndarray, image: np.ndarray, grow: float = 0.5) -> tuple[int, int, int, int]:
        """The image box of a card's outline, grown by this share of its size each way."""
        lo, hi = quad.min(axis=0), quad.max(axis=0)
        d = grow * (hi - lo)
        h, w = image.shape[:2]
        return (int(max(0, lo[0] - d[0])), int(max(0, lo[1] - d[1])),
                int(min(w, hi[0] + d[0])), int(min(h, hi[1] + d[1])))

    def _field_quads(self, image: np.ndarray, box: tuple[int, int, int, int]) -> list[np.ndarray]:
        """Outlines of the cards whose printed field shows whole in a box of the image (x0, y0,
        x1, y1): a card laid on one of its colour (G11 on G5) differs from it little, and the
        edges there lead an outline fit astray, but the top card's field, inside its white
        margin, places it (the project decks; detect.field_seeds)."""
        x0, y0, x1, y1 = box
        outline = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.int32).reshape(-1, 1, 2)
        return field_seeds(image, outline, 1.0, CARD_W_MM / 2 * self._px_mm, CARD_H_MM / 2 * self._px_mm)

    def _anchors(self, reg: np.ndarray, cx: float, cy: float, touched: list[_Known]) -> list[tuple[float, float]]:
        """Table points (mm) near (cx, cy) where a new card may lie: the model cards the changed
        region touches there (touched: _touched_near's), the layout spot there, and any spot
        further off that the change covers."""
        out = [(kn.x, kn.y) for kn in touched]
        spots: list[tuple[float, float]] = []
        for box in self.layout.spots.values():
            if box.contains(cx, cy) or math.hypot(box.cx - cx, box.cy - cy) < 30:
                out.append((box.cx, box.cy))
            elif math.hypot(box.cx - cx, box.cy - cy) < 80 and self._changed_centre(reg, box.cx, box.cy):
                # the change reaches over the spot: a card laid there, its change joined to its
                # neighbour's in the row (a 6 turned onto a waste pile beside the row, its
                # change's box centred between the two, was fitted on neither and never told)
                spots.append((box.cx, box.cy))
        keep: list[tuple[float, float]] = []
        for p in out:
            if all(math.hypot(p[0] - q[0], p[1] - q[1]) > 6 for q in keep) and \
                    math.hypot(p[0] - cx, p[1] - cy) > 4:
                keep.append(p)
        keep = keep[:3]
        for p in spots:
            if all(math.hypot(p[0] - q[0], p[1] - q[1]) > 6 for q in keep):
                keep.append(p)
        return keep

    def _touched_near(self, reg: np.ndarray, cx: float, cy: float) -> list[_Known]:
        """Model cards within 45 mm of (cx, cy) that the changed region touches: a new card may
        lie on one."""
        return [kn for kn in self.model if math.hypot(kn.x - cx, kn.y - cy) <= 45
                and self._touches(kn.quad, reg)]

    def _changed_centre(self, reg: np.ndarray, x_mm: float, y_mm: float) -> bool:
        """Does the changed region cover this table point (on the small picture)?"""
        px = self.cal.to_image(np.array([[x_mm, y_mm]], np.float64))[0] * self.f
        i, j = int(round(px[1])), int(round(px[0]))
        return 0 <= i < reg.shape[0] and 0 <= j < reg.shape[1] and bool(reg[i, j])

    def _fit_card(self, image: np.ndarray, cx: float, cy: float, others: int = 0,
                  since: np.ndarray | None = None) -> list[np.ndarray]:
        """Card rectangles (table mm) whose outline best follows the picture's edges near (cx, cy).

        The top card of a pile shows its whole outline: search angle and position for the
        card-sized rectangle with the strongest edges along it (coarse, then fine). Returns the
        best fit and the best one turned 90 degrees from it, as image quads, then the next
        best fits of other poses (others of them: a card laid a little askew on one like it
        shows its outline white on white where it lies on it, and the outline of the card below,
        showing at its corners, may fit as well). since: a picture of the table before: the
        pose is searched by the edges that are new since (a card laid askew on another, its
        sides white on white where it lies on it, fitted the outline of the card below).
        """
        s = TOP_PX_MM
        r = 75.0
        n = int(2 * r * s)

        def edges(picture: np.ndarray) -> np.ndarray:
            g = cv2.GaussianBlur(self._top_down(picture, cx, cy, r), (3, 3), 0)
            mag = cv2.magnitude(cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1))
            return cv2.GaussianBlur(mag, (5, 5), 0)
        fine = edges(image)
        # the pose searched by the edges new since, if asked, and refined on all the picture's
        # edges (fitted on the new ones alone, an outline lay 3 to 5 px off the card)
        mag = fine if since is None else np.maximum(fine - edges(since), 0.0)
        # outline samples of a card centred at 0 (mm), away from the rounded corners
        hw, hh = CARD_W_MM / 2, CARD_H_MM / 2
        us = np.linspace(-hw + 4, hw - 4, 14)
        vs = np.linspace(-hh + 4, hh - 4, 20)
        pts = np.concatenate([np.column_stack([us, np.full_like(us, -hh)]),
                              np.column_stack([us, np.full_like(us, hh)]),
                              np.column_stack([np.full_like(vs, -hw), vs]),
                              np.column_stack([np.full_like(vs, hw), vs])])

        def scores(angles, dxs, dys, mag=mag):
            a = np.radians(angles)[:, None, None, None]
            px, py = pts[:, 0], pts[:, 1]
            X = (r + dxs[None, :, None, None] + px * np.cos(a) - py * np.sin(a)) * s
            Y = (r + dys[None, None, :, None] + px * np.sin(a) + py * np.cos(a)) * s
            X = np.clip(X.round().astype(int), 0, n - 1)
            Y = np.clip(Y.round().astype(int), 0, n - 1)
            v = mag.reshape(-1).take(Y * mag.shape[1] + X)  # (mag[Y, X], in a quarter of the time)
            # every side must show: the weakest quarter of the samples decides
            return np.sort(v, axis=-1)[..., len(pts) // 4: len(pts) // 2].mean(axis=-1)

        def refined(a0: float, x0_: float, y0_: float) -> tuple[float, float, float]:
            fa = a0 + np.arange(-4, 4.1, 1.0)
            fs = np.arange(-2, 2.1, 0.5)
            sc2 = scores(fa, x0_ + fs, y0_ + fs, fine)
            i, j, k = np.unravel_index(int(np.argmax(sc2)), sc2.shape)
            return fa[i], x0_ + fs[j], y0_ + fs[k]

        def quad(a_deg: float, fx: float, fy: float) -> np.ndarray:
            a = math.radians(a_deg)
            ux, uy, vx, vy = math.cos(a), math.sin(a), -math.sin(a), math.cos(a)
            c = np.array([cx + fx, cy + fy])
            q = np.array([c + su * hw * np.array([ux, uy]) + sv * hh * np.array([vx, vy])
                          for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
            return self.cal.to_image(q)

        angles = np.arange(0, 180, 5.0)
        sh = np.arange(-14, 14.1, 2.0)
        sc = scores(angles, sh, sh)
        # (a full sort only where other poses are asked for; stable: the first of equals, as argmax)
        order = np.argsort(-sc, axis=None, kind="stable") if others else [int(np.argmax(sc))]
        poses: list[tuple[float, float, float]] = []
        for flat in order:
            i, j, k = np.unravel_index(int(flat), sc.shape)
            if all(_turn_apart(angles[i], p[0]) > FIT_APART_DEG or
                   math.hypot(sh[j] - p[1], sh[k] - p[2]) > FIT_APART_MM for p in poses):
                poses.append(refined(angles[i], sh[j], sh[k]))
                if len(poses) > others:
                    break
        best = poses[0]
        return [quad(*best), quad(best[0] + 90, best[1], best[2])] + [quad(*p) for p in poses[1:]]

    def _history(self) -> list[tuple]:
        """The history with still frames filled in: (index, grey, hand, arms, fg), oldest first.

        A frame in which nothing moved looks like the one before it, hands included."""
        out = []
        last = None
        for e in self._hist:
            if e[1] is None:
                if last is not None:
                    out.append((e[0],) + last[1:])
                continue
            last = e
            out.append(e)
        return out

    def _footprint_mid(self, quad: np.ndarray, grow: int = 3) -> tuple[np.ndarray, tuple]:
        """The card's footprint at mid resolution (a small margin round it) and its crop box."""
        q = quad * self.f * 2
        sw, sh = self.size
        x0, y0 = np.maximum(np.floor(q.min(axis=0)).astype(int) - 4, 0)
        x1, y1 = np.minimum(np.ceil(q.max(axis=0)).astype(int) + 5, (2 * sw, 2 * sh))
        m = np.zeros((max(1, y1 - y0), max(1, x1 - x0)), np.uint8)
        cv2.fillConvexPoly(m, np.round(q - [x0, y0]).astype(np.int32), 1)
        if grow:
            m = cv2.dilate(m, np.ones((grow, grow), np.uint8))
        return m.astype(bool), (slice(y0, y1), slice(x0, x1))

    def _hand_mid(self, hand: np.ndarray | None, box: tuple) -> np.ndarray | None:
        """The small hand mask grown and scaled up to the mid-resolution crop box."""
        if hand is None or not hand.any():
            return None
        ys, xs = box
        sy = slice(ys.start // 2, (ys.stop + 1) // 2 + 1)
        sx = slice(xs.start // 2, (xs.stop + 1) // 2 + 1)
        h = cv2.dilate(hand[sy, sx].astype(np.uint8), np.ones((3, 3), np.uint8))
        h = np.repeat(np.repeat(h, 2, axis=0), 2, axis=1)
        oy, ox = ys.start - sy.start * 2, xs.start - sx.start * 2
        return h[oy:oy + ys.stop - ys.start, ox:ox + xs.stop - xs.start].astype(bool)

    def _differs(self, a: np.ndarray, b: np.ndarray, m: np.ndarray, both: bool,
                 shows: float = 0.3) -> bool | None:
        """Did the card move between two pictures (its visible part m)? None: less than `shows`
        of it shows.

        both: a moved card shows pixels brighter AND darker than before (edges, print); a hand's
        shadow only darkens."""
        nv = int(m.sum())
        if nv < shows * self._foot_n:
            return None
        d = a.astype(np.int16) - b.astype(np.int16)
        thr = max(self.rest_threshold, 4.0 * math.sqrt(2.0) * self._noise)  # 4 sigma of a frame difference
        need = max(3, int(0.006 * nv))
        up = int(np.count_nonzero((d > thr) & m))
        dn = int(np.count_nonzero((d < -thr) & m))
        if self.debug:
            print("   differs", nv, self._foot_n, need, up, dn, int(np.abs(d[m]).max()))
        if both:
            return up >= need and dn >= need
        return up >= need or dn >= max(need, int(0.5 * nv))

    def _moved_thin(self, a: np.ndarray, b: np.ndarray, foot: np.ndarray,
                    hand: np.ndarray | None) -> bool | None:
        """Did the card move between two pictures? None: too little of it shows.

        A card that slid shows as thin lines along its edges and print in the difference; hands
        and their shadows are broad blobs, left out (with a margin) whatever they cover. A broad
        change that no hand explains, along which the card's outline does not show in the past
        picture, is the card lying elsewhere then (many pixels away, still on its way).
        Sets _slid_there: whether a move found was the card sliding a little where it lies now,
        _broad_move: whether it was a broad change instead, _arm_over: the share of the
        footprint under the hand mask, _slide_px and _slide_fit: the move _slid fitted and how
        far beyond the noise, if it was asked, and _thin_signs: how many of the card's edge
        pixels changed brighter and darker, where a slide was fitted."""
        self._slid_there = False
        self._broad_move = True
        self._slide_px = 0.0
        self._slide_fit = 0.0
        self._thin_signs = (0, 0)
        self._arm_over = 0.0 if hand is None else np.count_nonzero(foot & hand) / max(1, self._foot_n)
        d = cv2.absdiff(a, b)
        big = (d > max(self.rest_threshold, 4.0 * self._noise)).astype(np.uint8)
        blob = cv2.morphologyEx(big, cv2.MORPH_OPEN, self._k3)
        blob = cv2.dilate(blob, self._k5).astype(bool)
        valid = foot & ~blob
        nv = int(valid.sum())
        broad = foot & blob if hand is None else foot & blob & ~hand
        if np.count_nonzero(broad) >= BROAD_UNHIDDEN * self._foot_n and self._outline_gone(a, broad):
            return True
        if nv < 0.2 * self._foot_n:
            # mostly a broad change: a shadow (the card's own detail still shows, only shaded), a
            # hand over part of it (the part beside it, often in its shadow, tells), a hand over
            # all of it, or the card not yet there (a hand's mask counts only where the picture
            # changed: a card's saturated field joined to the arm that brought it reads as skin)
            matched = self._detail_matched(a, b, foot)
            if self.debug:
                print("   detail matched", round(matched, 2))
            if matched >= DETAIL_SHOWS:
                return False
            if hand is not None and np.count_nonzero(foot & blob & hand) >= 0.3 * self._foot_n:
                return None
            return True
        # a card that slid: the difference is that of its own edges and print moved a little (a
        # shift and a turn), well beyond sensor noise; a hand's rim or noise is not
        self._broad_move = False
        slid, strong = self._slid(a, b, valid)
        if not slid:
            return False
        # a slid card brightens some of its edges and darkens others (a shadow's rim, fitted as
        # a shift of the edge it lies along, only darkens), all round (fingers lifting off a
        # card at rest change one corner of it only), unless the slide is strong (STRONG_SLIDE_*)
        thin = big.astype(bool) & valid & self._edges
        signs = (np.count_nonzero(thin & (a > b)), np.count_nonzero(thin & (a < b)))
        self._thin_signs = signs
        if self.debug:
            print("   thin up", signs[0], "down", signs[1])
        if min(signs) < 2 and not (strong and max(signs) >= STRONG_SLIDE_THIN):
            return False
        ys, xs = np.nonzero(thin)
        fy, fx = np.nonzero(foot)
        self._slid_there = len(set(zip((ys > fy.mean()).tolist(), (xs > fx.mean()).tolist(), strict=True))) >= 2
        return self._slid_there

    def _arm_rim_like(self) -> bool:
        """Was the slide _moved_thin found a weak one, an arm over the card, its edges changed
        mostly one way? An arm's rim and shadow are fitted so too (ARM_TOUCHES)."""
        up, down = self._thin_signs
        return (self._arm_over >= ARM_TOUCHES and self._slide_fit < STRONG_SLIDE_FIT
                and min(up, down) < ONE_SIDED * max(up, down))

    def _detail_matched(self, a: np.ndarray, b: np.ndarray, foot: np.ndarray) -> float:
        """The share of the card's fine detail (the picture now, b, less its blur) that the past
        picture a shows in place once a smooth shading (a shadow: the ratio of the two blurred)
        is taken out, in cells of the footprint: near 1 for the same card in a shadow, about
        the share that shows for one partly under a hand, near 0 where it lay elsewhere."""
        if not foot.any():
            return 0.0
        fa, fb = a.astype(np.float32) + 1.0, b.astype(np.float32) + 1.0
        ba = cv2.GaussianBlur(fa, (0, 0), SHADE_SIGMA)
        bb = cv2.GaussianBlur(fb, (0, 0), SHADE_SIGMA)
        shade = ba / bb
        res = np.where(foot, (fa - fb * shade) ** 2, 0.0)
        detail = np.where(foot, ((fb - bb) * shade) ** 2, 0.0)
        ys, xs = np.nonzero(foot)
        y0, x0 = ys.min(), xs.min()
        h, w = ys.max() + 1 - y0, xs.max() + 1 - x0
        cuts_y = np.linspace(0, h, DETAIL_CELLS + 1).astype(int)
        cuts_x = np.linspace(0, w, DETAIL_CELLS + 1).astype(int)
        r = np.add.reduceat(np.add.reduceat(res[y0:y0 + h, x0:x0 + w], cuts_y[:-1], axis=0), cuts_x[:-1], axis=1)
        d = np.add.reduceat(np.add.reduceat(detail[y0:y0 + h, x0:x0 + w], cuts_y[:-1], axis=0), cuts_x[:-1], axis=1)
        use = d >= 0.25 * d.mean()
        if not use.any() or d.sum() <= 0:
            return 0.0
        same = use & (r < SHADED_SAME ** 2 * d)
        return float(d[same].sum() / d[use].sum())

    def _outline_gone(self, a: np.ndarray, broad: np.ndarray) -> bool:
        """Is the card's outline as it lies now missing from the past picture a, along the part
        of it where a broad change that no hand explains lies? Then the card lay elsewhere (a
        slide of many pixels, which _slid does not fit); a shadow darkens the outline but keeps it."""
        sel = self._rim & broad
        if np.count_nonzero(sel) < 20:
            return False
        gx, gy = cv2.Sobel(a, cv2.CV_32F, 1, 0), cv2.Sobel(a, cv2.CV_32F, 0, 1)
        was = np.abs(gx[sel]) + np.abs(gy[sel])
        now = np.abs(self._now_gx[sel]) + np.abs(self._now_gy[sel])
        return float(np.percentile(was, 75)) < OUTLINE_KEPT * float(np.percentile(now, 75))

    def _slid(self, a: np.ndarray, b: np.ndarray, valid: np.ndarray) -> tuple[bool, bool]:
        """Is the difference a - b over the valid pixels that of b's picture (the card now, as
        given to _look_at) moved a little, and is it so far beyond the noise (STRONG_SLIDE_*)
        that no edge need change both ways?

        Fitted as the flow of b's own gradients under a small shift and turn (least squares,
        three numbers): a card that slid, even by a fraction of a pixel, is explained far beyond
        the noise; a finger's rim, a shadow's edge or noise on a textured cloth, which a count
        of changed pixels takes for a slide, is not."""
        ys, xs = np.nonzero(valid)
        if len(ys) < 30:
            return False, False
        gx, gy = self._now_gx[ys, xs] / 8, self._now_gy[ys, xs] / 8  # b's gradients (_look_at)
        d = a[ys, xs].astype(np.float32) - b[ys, xs].astype(np.float32)
        x = (xs - xs.mean()).astype(np.float32)
        y = (ys - ys.mean()).astype(np.float32)
        m = np.stack([gx, gy, gy * x - gx * y], axis=1)  # shift across, down; turn about the middle
        sol = np.linalg.lstsq(m, d, rcond=None)[0]
        gain = float((d * d).sum() - ((d - m @ sol) ** 2).sum())
        noise = 2.0 * max(self._noise, 1.0) ** 2  # variance of the difference of two noisy frames
        move = float(np.hypot(sol[0], sol[1])) + float(np.hypot(x, y).max()) * abs(float(sol[2]))
        self._slide_px = move
        self._slide_fit = gain / noise
        if self.debug:
            print("   slide fit", round(gain / noise, 1), "noise, moved px", round(move, 2))
        return (gain > SLIDE_FIT * noise and move > SLIDE_PX,
                gain > STRONG_SLIDE_FIT * noise and move > STRONG_SLIDE_PX)

    def _look_at(self, now: np.ndarray, foot: np.ndarray) -> None:
        """Set the card whose past pictures _moved_thin compares with now: its footprint's size,
        its picture's gradients now (once, not once per past picture), where it shows an edge
        (a slide changes pixels there) and its outline's band (_outline_gone)."""
        self._foot_n = int(foot.sum())
        self._rim = foot & ~cv2.erode(foot.astype(np.uint8), self._k5).astype(bool)
        self._now_gx = cv2.Sobel(now, cv2.CV_32F, 1, 0)
        self._now_gy = cv2.Sobel(now, cv2.CV_32F, 0, 1)
        grad = (np.abs(self._now_gx) + np.abs(self._now_gy)) / 4  # grey levels a pixel, about
        self._edges = cv2.dilate((grad > max(self.rest_threshold, 4.0 * self._noise))
                                 .astype(np.uint8), self._k3).astype(bool)

    def _rest_index(self, quad: np.ndarray, k_now: int, picture: np.ndarray | None = None) -> int:
        """First frame in which the card lay as it lies now (as far as no hand covered it), or
        as it lay in frame k_now's mid-size grey picture, where given (a card seen only in past
        pictures, _seen_under)."""
        return self._rest_and_hidden(quad, k_now, picture)[0]

    def _rest_and_hidden(self, quad: np.ndarray, k_now: int,
                         picture: np.ndarray | None = None) -> tuple[int, int | None]:
        """(_rest_index, the first of the frames just before it in which hands hid its place,
        or None where none did): it came to rest somewhere in those frames, unseen.

        Walks back from now to the first frame in which the card lay elsewhere; one in which it
        seemed to, an arm over it (ARM_OVER), is taken for hidden where a still picture before
        it shows the card lying as now: something was carried over it."""
        foot, box = self._footprint_mid(quad)
        hist = self._history()
        picture = self._mid_now if picture is None else picture
        if not hist or picture is None:
            return k_now, None
        now = picture[box]
        self._look_at(now, foot)
        first = k_now
        unknown_since: int | None = None
        held_back: tuple[int, int | None] | None = None  # the answer at a move seen under an arm
        for k, grey, hand, *_ in reversed(hist):
            if k >= k_now:
                continue
            moved = self._moved_thin(grey[box], now, foot, self._hand_mid(hand, box))
            if self.debug:
                print("  k", k, moved, round(self._arm_over, 2))
            if moved and ((self._arm_over >= ARM_OVER and self._broad_move) or self._arm_rim_like()):
                # a broad change, an arm over part of it: the card on its way in the hand that
                # lays it, or something carried over it as it lay; so too a weak one-sided slide,
                # an arm over the card; earlier frames tell (ARM_OVER, ARM_TOUCHES)
                if held_back is None:
                    held_back = self._walk_answer(first, unknown_since)
                moved = None
            elif (moved is False and held_back is not None and self._arm_over >= ARM_OVER
                  and self._slide_px > SLIDE_PX):
                # beside an arm, a picture fitted as a move (too weakly to be told a slide) may
                # be the card held still in the hand on its way: it does not tell it lay as now
                moved = None
            if moved is None:
                if unknown_since is None:
                    unknown_since = first
                first = k
                continue
            if moved:
                return held_back or self._walk_answer(first, unknown_since)
            held_back = None
            unknown_since = None
            first = k
        return held_back or (first, None)

    def _walk_answer(self, first: int, unknown_since: int | None) -> tuple[int, int | None]:
        """_rest_and_hidden's answer where its walk back met the card lying elsewhere."""
        # hidden frames between: the card may have slid under the hand; the first frame in which
        # it showed as it lies now is the best known (the hidden frames tell of its arrival only
        # where it was seen sliding into place before them, in the hand that laid it: a place
        # hidden before the card came there was hidden by arms passing, the one that laid it
        # came later)
        hidden = first if unknown_since is not None and self._slid_there else None
        return (first if unknown_since is None else unknown_since), hidden

    def _fresh(self, d: Detection, k: int) -> bool:
        """Has the card read lain as it lies now (its place changed by then) for fewer than the
        settle frames?"""
        q = np.asarray(d.corners, np.float64)
        return k - max(self._rest_index(q, k), self._arrived_index(q, k)) < self.settle - 1

    def _arrived_index(self, quad: np.ndarray, k_now: int) -> int:
        """The frame by which the card's place had changed from the reference picture (a
        quarter of the part that changed at all): it cannot have come to rest there before. (A
        card laid squarely on one much like it changes little, which the rest test alone may
        take for a card lying there all along.) A quarter, not half: where a hand lay over the
        card, parts of the reference may have been taken afresh since it landed."""
        if self._fg_since is None or self._last_change is None:
            return 0
        sl, m = self._foot_small(quad)
        # (not where something moves now: a hand over it changes the picture there anew)
        m = m & (self._last_change[sl] <= k_now - self.settle)
        since = self._fg_since[sl][m]
        since = since[since >= 0]
        return int(np.percentile(since, 25)) if since.size else 0

    def _seat_of_arm_over(self, quad: np.ndarray, before: int | None = None,
                          span: int = 3) -> int | None:
        """Seat of the arm over the card at frame `before` (and a few frames earlier): the arm
        whose blob covers most of it; else the last arm seen over it before then.

        Where arms have joined over the card, the seat is that of the one arm shared out of
        their blob (split_arms) that ends at it, where just one does; else _arm_seat_at's guess.
        (The shared-out arms alone, the one covering most of the card, named the wrong seat
        more often than the guess: 27 against 24 of 588 cards told on the tracking benchmark's
        18 runs; a hand that comes onto another arm's pixels is taken for that arm.) Asking instead
        which arm alone had ended at the card earlier in the stretch of frames arms covered it
        (not counting one that also lay over it alone going on beyond it) was tried: on the
        tracking benchmark's five runs it was worked out on it gave 3 wrong seats where this
        gives 6, but on four other runs 5 where this gives 3: an arm reaching over a card to a
        place beyond ends at it alone on its way as often as the arm that lays it does."""
        sw, sh = self.size
        m = np.zeros((sh, sw), np.uint8)
        cv2.fillConvexPoly(m, np.round(quad * self.f).astype(np.int32), 1)
        m = cv2.dilate(m, np.ones((5, 5), np.uint8)).astype(bool)
        near = cv2.dilate(m.astype(np.uint8), np.ones((TIP_NEAR_PX, TIP_NEAR_PX), np.uint8)).astype(bool)
        centre = quad.mean(axis=0) * self.f
        votes: dict[int, int] = {}
        for _k, _grey, _hand, hands, _fg, arms in reversed(self._history()):
            if hands is None or (before is not None and _k > before):
                continue
            best = None
            joined = False
            for es, hm in hands:
                c = int((hm & m).sum())
                if c == 0:
                    continue
                joined = joined or len(es) > 1
                key = (self._ends_at(es, hm, near), c)  # an arm ending at it before one passing
                if best is None or key > best[0]:
                    s = self._arm_seat_at(es, hm, centre)
                    if s:
                        best = (key, s)
            if joined:
                # arms joined over it: of the arms shared out of their blob (split_arms), the
                # one that alone ends at it, if one does
                ending: dict[int, int] = {}
                for es, hm in arms:
                    c = int((hm & m).sum())
                    if c and es[0][0] and self._ends_at(es, hm, near):
                        ending[es[0][0]] = ending.get(es[0][0], 0) + c
                if len(ending) == 1:
                    (seat, c), = ending.items()
                    best = ((True, c), seat)
            if best is not None:
                votes[best[1]] = votes.get(best[1], 0) + best[0][1]
            if before is None or _k <= before - span:
                if votes:
                    break
        if votes:
            return max(votes, key=lambda s: votes[s])
        return None

    @staticmethod
    def _ends_at(entries: list, arm: np.ndarray, near: np.ndarray) -> bool:
        """Does the arm end at the card (near: its footprint grown)? Its hand is the arm's
        point farthest from where it crosses the table's edge: the arm that laid a card ends at
        it, one passing over it on its way to another place ends beyond it. (An arm blob with
        several crossings, arms joined over the table, tells nothing.)"""
        if len(entries) != 1:
            return False
        ys, xs = np.nonzero(arm)
        ex, ey = entries[0][1]
        i = int(np.argmax((xs - ex) ** 2 + (ys - ey) ** 2))
        return bool(near[ys[i], xs[i]])

    def _gone_index(self, quad: np.ndarray, k_now: int, shows: float = GONE_SHOWS) -> int:
        """First frame in which the card no longer lay as it had (its parts no hand covered),
        judged in every frame where `shows` of it or more shows (_differs)."""
        foot, box = self._footprint_mid(quad, grow=0)
        self._foot_n = int(foot.sum())
        if self._ref_mid is None:
            return k_now
        ref = self._ref_mid[box]
        first = k_now
        for k, grey, hand, *_ in reversed(self._history()):
            hm = self._hand_mid(hand, box)
            m = foot if hm is None else foot & ~hm
            moved = self._differs(grey[box], ref, m, both=False, shows=shows)
            if moved is False:
                return first
            first = k
        return first

    def _process(self, frame: Frame, small: np.ndarray, reg: np.ndarray, st,
                 k: int) -> list[TableObservation]:
        assert self._ref is not None and self._ref_full is not None
        out: list[TableObservation] = []
        img = frame.image
        ahead = next((a for a in self._ahead if a.k >= int(self._last_change[reg].max())
                      and _iou(a.reg, reg) > 0.8), None)  # read since the region last changed
        if ahead is not None:
            self._ahead.remove(ahead)
            new_dets, card_shaped = list(ahead.dets), ahead.card_shaped
        else:
            new_dets, card_shaped = self._new_reads(frame, reg, st, k)
        unread = self._unread_at(reg)
        may_retry = unread is None or unread.tries + 1 < len(RETRY_FRAMES)
        # a card that lay as now only a frame ago may still be on its way (a card carried back
        # to its seat, held still a moment over a row card, was told laid there): read again a
        # little later (its rest frame is found again then), or, out of tries, once its place,
        # kept out of the reference, settles again
        fresh = [d for d in new_dets if self._fresh(d, k)]
        new_dets = [d for d in new_dets if all(d is not f for f in fresh)]
        explained = bool(new_dets)  # does what was read account for the change?
        borrowed: set[int] = set()  # reads on a model card's outline, not the new card's own
        # reads of copies laid on a top card of their code: new cards, not it read again
        laid_on = {id(d): o for d in new_dets for o in self.model if self._is_copy(d, o)}
        # model cards in this region: still there, covered, or gone?
        unsure = bool(fresh)  # a card perhaps on its way, or another card read at a model card's
        # place, not yet surely
        held = np.zeros_like(reg)  # places of top cards a hand lies over now: read once it leaves
        for d in fresh:  # ... and of cards perhaps still on their way
            self._hold(held, np.asarray(d.corners, np.float64))
        todo = list(self.model)
        revealed: set[int] = set()  # cards on top again as the card on them left, this pass
        while todo:
            kn = todo.pop(0)
            if id(kn) in revealed and not self._bare_now(kn.quad, kn):
                continue  # it shows still: what it reads is asked when its place next changes
            need = self._needs_read(kn, reg, new_dets, laid_on)
            explained |= need not in ("away", "keep")
            if need == "same":
                again = [d for d in new_dets if self._same_place(d, kn) and id(d) not in laid_on]
                if not kn.own_outline:  # it was read on the outline of the card below it
                    kn.quad = np.asarray(again[0].corners, np.float64).reshape(4, 2)
                    kn.own_outline = True
                    kn.seen_top = kn.seen_px = None  # (seen on the card below's outline)
                new_dets = [d for d in new_dets if all(d is not a for a in again)]
                continue
            if need == "covered":
                kn.top = False
                continue
            if need != "read":
                continue
            if kn.touched == k:
                # a hand lies over it now (a change beside the arm, too small to join it, was
                # still a moment): read once the hand has left (read under the fingers, a waste
                # pile's top card was taken for gone, and the card turned onto it never told).
                # Its place stays out of the reference, so that it is a change still when the
                # hand has gone (taken in, a card the hand took away lay in the model for good)
                self._hold(held, kn.quad)
                continue
            early = ahead.model.get(id(kn)) if ahead is not None else None
            if early is not None and np.array_equal(early[0], kn.quad):
                still = early[1]
            else:
                still = self._read(img, kn.quad, self.deck)
            touched, kn.touched = kn.touched, -1
            if still.code == kn.code and still.face_up == kn.face_up:
                copy = self._copy_on(img, kn, k) if touched >= 0 else None
                if copy is not None:
                    kn.top = False
                    new_dets.append(copy)
                    laid_on[id(copy)] = kn
                continue
            if still.confidence < SURE and (still.confidence >= self.min_conf
                                            or not new_dets and not self._bare_now(kn.quad, kn)):
                # another card, read on the old card's outline: read it on its own outline
                # (a card laid squarely on a pile changes little of the picture, so no new
                # card shape was found for it; one laid across it at another angle reads as
                # nothing on the old outline)
                own = self._best_of(img, self._fit_card(img, kn.x, kn.y)
                                    + self._field_quads(img, self._box_around(kn.quad, img)), k)
                if own is not None and own.code == kn.code and own.face_up == kn.face_up:
                    continue  # it lies there still; its outline was a little off
                if own is not None and own.confidence > still.confidence:
                    still = own
            if (may_retry and still.confidence < SURE
                    and (still.code, still.face_up) != (kn.code, kn.face_up)
                    and (still.confidence >= self.min_conf
                         or (self.layout.seat_of_zone(kn.zone) is None
                             and not (self._bare_now(kn.quad, kn) or self._looks_as_before(kn.quad))))):
                # a card on it read not yet surely (fingers just left it), or, on a pile in the
                # middle, not read at all where the place is neither bare nor as it was (a card
                # laid across it that one frame read surely and the next could not): again,
                # before telling it taken back (in a seat's zone, where none is told, a card
                # read again later was taken for a copy laid on it, or hid the next one's reveal)
                unsure = True
                continue
            if self._laid_over(kn, still):
                if self._fresh(still, k):
                    unsure = True  # a card on it that may still be on its way (as above)
                    self._hold(held, np.asarray(still.corners, np.float64))
                    continue
                kn.top = False  # another card now lies on it: covered, not gone
                new_dets.append(still)
                borrowed.add(id(still))
                continue
            if still.confidence < self.min_conf and self._looks_as_before(kn.quad):
                continue  # unreadable for now (a shadow, glare), but its picture is still there
            if still.confidence < self.min_conf and self._covered_unread(kn):
                # a card no read could name lies on it: covered, not taken back. In the middle it
                # is no longer the top card; on a seat's pile it stays the card watched there,
                # so that the next card laid squarely on the pile is read as its print changes
                if self.layout.seat_of_zone(kn.zone) is None:
                    kn.top = False
                continue
            self.model.remove(kn)
            if self.layout.seat_of_zone(kn.zone) is not None and kn.code != UNKNOWN:
                # it left a seat zone: remember it until it lands
                self._left[kn.code] = [e for e in self._left.get(kn.code, [])
                                       if frame.t - e[1] <= LEFT_MEMORY_S] + [(kn.zone, frame.t, kn)]
            if kn.zone in ("centre",) or self.layout.seat_of_zone(kn.zone) is None:
                if kn.top and kn.code != UNKNOWN:
                    gi = max(self._gone_index(kn.quad, k), kn.rest_k + 1)
                    # the seat of the arm that came over it to take it (as a third of it still
                    # showed), not of one passing later: the frames a sixth of it still showed in
                    # tell when it went (GONE_SHOWS), and other arms may reach over it by then
                    # (three take-backs on the tracking benchmark went to the seat beside)
                    came = max(self._gone_index(kn.quad, k, TAKER_SHOWS), kn.rest_k + 1)
                    if self.debug:
                        print("gone", kn.code, still)
                    out.append(TakeBackObs(kn.code, kn.x, kn.y, kn.zone,
                                           self._times.get(gi, frame.t),
                                           self._seat_of_arm_over(kn.quad, came)
                                           or self._seat_of_arm_over(kn.quad)))
            if still.confidence < NOTHING_THERE:
                # no card shows where it lay: the cards squarely under it went with it (a
                # waste pile picked up to be turned over)
                self.model = [o for o in self.model
                              if o.top or self._overlap(o.quad, kn.quad) <= SQUARELY_UNDER]
            for below in self._reveal_below(kn):
                if below not in todo:
                    # on top now, it is asked again where its own part of the place is bare:
                    # it went too (a pattern gathered, the card a neighbour overlapped last)
                    revealed.add(id(below))
                    todo.append(below)
        out.extend(self._arrivals(frame, new_dets, k, borrowed, laid_on,
                                  read_k=ahead.k if ahead is not None else None))
        if (card_shaped and not explained) or unsure:
            # a card-shaped change that nothing explains: a card not readable yet (a hand's
            # shadow on it, glare, blur): read it again a few times before giving up on it
            tries = unread.tries + 1 if unread is not None else 0
            if tries < len(RETRY_FRAMES):
                if unread is None:
                    unread = _Unread(reg, tries, 0)
                    self._unread.append(unread)
                unread.reg, unread.tries, unread.next_k = reg, tries, k + RETRY_FRAMES[tries]
                return out
        if unread is not None:
            self._unread.remove(unread)
        if not explained and not out:
            self._note_unexplained(reg & ~held, k)
        self._refresh(img, small, reg & ~held, st)
        return out

    def _note_unexplained(self, reg: np.ndarray, k: int) -> None:
        """Remember a change taken into the reference that no read explained: a card that came
        to rest beside a hand lifting off it shows in pieces, each too small to be read as a card,
        and taken in piece by piece it would never be told (an eight of spades slid into a row's
        slot on a glaring cloth)."""
        if self._unexplained is None:
            self._unexplained = np.full(reg.shape, -1, np.int32)
        self._unexplained[reg] = k
        self._unexplained_reads = (self._unexplained_reads + [
            (kr.quad, kr.read.confidence) for kr in self._reads_kept
            if kr.read.confidence > 0 and self._on(reg, kr.quad)])[-UNEXPLAINED_READS:]

    def _look_again(self, frame: Frame, k: int, arm: np.ndarray) -> list[TableObservation]:
        """Read the places where changes were taken in unexplained (_note_unexplained), once
        they add up to a good part of a card (UNEXPLAINED_CARD, the pieces near each other taken
        together), no arm is near, and nothing has moved there or been taken in for `settle`
        frames (a hand lifting off a card leaves it in pieces over several frames); not where a
        known top card over the place still reads as itself (the change was its own). The card
        is read on the outlines fitted there and on those that named a card there before, and
        where none reads surely, looked for around them (_wide_of); a sure read is told as any
        new card is (_arrivals: not where it is known already, nor on bare cloth). Each place
        is looked at once."""
        assert self._unexplained is not None and self._last_change is not None
        marked = self._unexplained >= 0
        if not marked.any():
            self._unexplained, self._unexplained_reads = None, []
            return []
        out: list[TableObservation] = []
        near = cv2.dilate(arm.astype(np.uint8), self._k5).astype(bool)
        joined = cv2.dilate(marked.astype(np.uint8), self._k5)
        n, lab, _st, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
        card = CARD_W_MM * CARD_H_MM * (self._px_mm * self.f) ** 2
        for i in range(1, n):
            reg = lab == i
            place = reg & marked
            if k - int(self._unexplained[place].max()) > UNEXPLAINED_FRAMES:
                # never still long enough, or never enough of a card: the next change there tells
                self._unexplained[place] = -1
                self._unexplained_reads = [r for r in self._unexplained_reads if not self._on(reg, r[0])]
                continue
            if (near & reg).any() or int(self._last_change[reg].max()) > k - self.settle \
                    or int(self._unexplained[place].max()) > k - self.settle \
                    or int(place.sum()) < UNEXPLAINED_CARD * card:
                # an arm there still, something moved there or was taken in a moment ago, or too
                # little of a card yet (a shadow's edge; or the first pieces of a card, the rest
                # taken in as a second hand leaves it)
                continue
            self._unexplained[place] = -1
            if any(kn.top and self._inside_share(place, kn.quad) >= UNEXPLAINED_ON_KNOWN
                   and self._still_reads_as(frame.image, kn) for kn in self.model):
                continue  # the change was a known card's own (a hand leaving it after it was told)
            ys, xs = np.nonzero(place)
            cx, cy = self.cal.to_table(np.array([[xs.mean(), ys.mean()]], np.float64) / self.f)[0]
            outlines = self._fit_card(frame.image, float(cx), float(cy))
            for px, py in self._anchors(reg, float(cx), float(cy), self._touched_near(reg, float(cx), float(cy))):
                outlines += self._fit_card(frame.image, px, py)[:1]
            # and the outlines that named a card there, unsurely, before it was taken in (a two of
            # spades turned onto a waste pile read 0.1 under the fingers, 1.0 once they had left)
            before = [r for r in self._unexplained_reads if self._on(reg, r[0])]
            self._unexplained_reads = [r for r in self._unexplained_reads if not self._on(reg, r[0])]
            outlines += [q for q, _c in sorted(before, key=lambda r: -r[1])[:2]]
            read = self._best_of(frame.image, outlines, k)
            if read is None or not self._sure(read):
                read = self._wide_of(frame.image, outlines) or read
            if self.debug:
                print("  look again at", [round(float(cx)), round(float(cy))], "px", int(place.sum()),
                      read and (read.code, round(read.confidence, 2)))
            if read is not None and self._sure(read):
                out.extend(self._arrivals(frame, [read], k))
        return out

    def _still_reads_as(self, img: np.ndarray, kn: _Known) -> bool:
        """Does the model card's outline still read surely as that card (the quick reader)?"""
        d = self._read_quick(img, kn.quad, self.deck)
        return self._sure(d) and (d.code, d.face_up) == (kn.code, kn.face_up)

    def _inside_share(self, place: np.ndarray, quad: np.ndarray) -> float:
        """Share of a small-picture place that lies inside the card's footprint."""
        sl, m = self._foot_small(quad)
        n = int(np.count_nonzero(place))
        return int(np.count_nonzero(place[sl] & m)) / n if n else 0.0

    def _on(self, reg: np.ndarray, quad: np.ndarray) -> bool:
        """Does the outline's middle lie in the small picture's region?"""
        x, y = (int(round(v)) for v in np.asarray(quad, np.float64).reshape(4, 2).mean(axis=0) * self.f)
        return 0 <= y < reg.shape[0] and 0 <= x < reg.shape[1] and bool(reg[y, x])

    def _wide_of(self, img: np.ndarray, outlines: list[np.ndarray]) -> Detection | None:
        """A sure read of a card that the reads of these outlines named unsurely (0 to SURE),
        looked for up to a third of its width off each outline (the wide reader), the surest
        named first (WIDE_TRIES of them): fitted to a pile's edges, an outline may lie a
        quarter of a card off its top card (a four of hearts laid on a waste pile, read at 0.44
        on its fits, at 1.0 so; another fit there read a two of hearts at 0.75). None where none
        is."""
        reads = [(self._read(img, q, self.deck), np.asarray(q, np.float64)) for q in outlines]
        named = sorted(((d, q) for d, q in reads if 0.0 < d.confidence < SURE), key=lambda r: -r[0].confidence)
        tried: list[np.ndarray] = []
        for _d, q in named:
            if any(np.abs(q - t).max() <= READ_AGAIN_PX for t in tried):
                continue
            tried.append(q)
            wide = self._read_wide(img, q, self.deck)
            if self._sure(wide):
                return wide
            if len(tried) == WIDE_TRIES:
                break
        return None

    def _arrivals(self, frame: Frame, new_dets: list[Detection], k: int,
                  borrowed: Collection[int] = (),
                  laid_on: dict[int, _Known] | None = None,
                  read_k: int | None = None) -> list[TableObservation]:
        """Observations for cards newly read at rest, and the model updated with them.
        borrowed: the reads (ids) made on another card's outline; laid_on: those of copies
        laid on a card of their code (not that card read again), with that card. read_k: the
        frame the reads were made in, where before this one (read_ahead)."""
        laid_on = laid_on or {}
        out: list[TableObservation] = []
        for d in new_dets:
            kn = self._known_from(d)
            if self._shows_bare_cloth(frame.image, kn.quad):
                if self.debug:
                    print("  bare cloth where", kn.code, "was read")
                continue
            kn.own_outline = id(d) not in borrowed
            q = kn.quad
            arrived = self._arrived_index(q, k)
            rest, hidden = self._rest_and_hidden(q, k)
            if read_k is not None and max(rest, arrived) > read_k:
                # read at rest in frame read_k, it lay so by then: what lies over part of it now
                # (the next card, in the hand laying it beside) hid it in this frame's picture,
                # so its rest is looked for from the picture it was read in (a Wackee Six card
                # told 4 frames late, the next card's hand over its end); the earlier rest stands
                then = next((g for kk, g, *_ in self._history() if kk == read_k and g is not None), None)
                if then is not None:
                    rest, hidden = min((rest, hidden), self._rest_and_hidden(q, read_k, then),
                                       key=lambda r: r[0])
            ri = max(rest, arrived)
            kn.rest_k = ri
            kn.hidden_k = hidden if ri == rest else None
            under = laid_on.get(id(d))
            if under is not None and ri < under.rest_k + self.settle:
                under.top = True  # it came to rest with the card: that card, on another outline
                continue
            there = [o for o in self.model if math.hypot(o.x - kn.x, o.y - kn.y) < 25]
            if id(d) not in laid_on and any(o.code == kn.code and o.face_up == kn.face_up
                                            and not self._copy_over(o)
                                            for o in there[-(SHOWS_FROM_BELOW + 1):]):
                # already known there: never report a card twice
                if self.debug:
                    print("  known there already:", kn.code)
                continue
            if self._never_moved(kn, self._times.get(ri, frame.t)):
                self.model.append(kn)
                continue
            seen = self._seen_under(kn, arrived, ri, k, there)
            if seen is not None:
                d_under, k_seen, picture = seen
                below = self._known_from(d_under)
                below.rest_k = k_under = self._rest_index(below.quad, k_seen, picture)
                if self.debug:
                    print("  seen under", kn.code, ":", below.code, self._times.get(k_under))
                out.extend(self._tell(frame, below, k_under, k, covered=True))
            out.extend(self._tell(frame, kn, ri, k))
        return out

    def _copy_over(self, o: _Known) -> bool:
        """Is a card of o's face, read where o lies under other cards, a copy laid over them
        rather than o showing as they were taken off it? It is where o's own picture, as it
        showed when told, shows turned or shifted (_turned_quad: a wonky card laid 8.6 degrees
        off its copy two below on a waste pile was taken for that copy, the card between taken
        away, and went untold); o as it lay, or a copy laid at its very pose, is o."""
        return o.seen_top is not None and not o.top and self._shows_turned(o)

    def _tell(self, frame: Frame, kn: _Known, ri: int, k: int,
              covered: bool = False) -> list[TableObservation]:
        """Observations for a new card read at rest (came to rest in frame ri), and the model
        updated with it. covered: another card lies on it now (_seen_under)."""
        out: list[TableObservation] = []
        q = kn.quad
        t_rest = self._times.get(ri, frame.t)
        arm_seat = None
        if kn.hidden_k is not None:
            # hands hid its place before it showed at rest: the arm that laid it was over it in
            # the last frame it was seen on its way (an arm passing over it later hid it until
            # ri: a ten of hearts was told from the arm that reached past it to the next pile)
            arm_seat = self._seat_of_arm_over(q, kn.hidden_k - 1)
        if arm_seat is None:
            arm_seat = self._seat_of_arm_over(q, ri)
        src = self._source(kn, arm_seat, t_rest)
        from_zone = None
        seat = None
        if isinstance(src, tuple):  # it left a seat zone a moment ago
            self._left[kn.code].remove(src)
            from_zone, _t, gone = src
            if (math.hypot(gone.x - kn.x, gone.y - kn.y) < 25 and gone.face_up == kn.face_up
                    and gone.zone == kn.zone):
                self.model.append(kn)  # an arm hid it for a while: it never moved
                return out
            seat = self.layout.seat_of_zone(from_zone)
        elif src is not None:  # a model card moved here
            self.model.remove(src)
            if src.top and self._still_lies(src.quad) is None:
                # taken while arms hid it (not a card dug from under another: the top card left
                # lying as it was would tell nothing of it)
                self._taken.append((src, t_rest))
            self._reveal_below(src)
            if self._overlap(src.quad, q) < STALE_OVERLAP:
                self._stale.append((src, k))
            if self.layout.seat_of_zone(src.zone) is not None:
                from_zone = src.zone
                seat = self.layout.seat_of_zone(src.zone)
        if seat is None:
            seat = arm_seat
        for o in self.model:
            if self._overlap(o.quad, q) > COVERS:
                o.top = False
        self.model.append(kn)
        if covered:
            kn.top = False
        else:
            # its print as it shows now, read as itself: the rest of its change, settling in
            # pieces a frame or two later, is then no print change to read again
            self._remember_print(frame.image, kn)
            self._remember_as_told(frame.image, kn)
            # (a card deeper in a pile than any that may show again is never asked: _copy_over;
            # its picture goes, so that a long game's piles keep a few each)
            there = [o for o in self.model if math.hypot(o.x - kn.x, o.y - kn.y) < 25]
            for o in there[:-(SHOWS_FROM_BELOW + 2)]:
                o.seen_top = o.seen_px = None
        self._told.append(kn)
        zone_seat = self.layout.seat_of_zone(kn.zone)
        out.extend(self._unseen_departures(frame.t, zone=kn.zone))  # its slot was emptied
        if zone_seat is not None and from_zone is None and kn.face_up and kn.code != UNKNOWN:
            out.append(RevealObs(kn.code, kn.x, kn.y, kn.zone, zone_seat, t_rest))
        else:
            out.append(CardRestObs(kn.code, kn.x, kn.y, kn.angle, kn.zone, t_rest, seat,
                                   from_zone, kn.face_up, kn.back))
        return out

    def _seen_under(self, kn: _Known, start: int, ri: int, k: int,
                    there: list[_Known]) -> tuple[Detection, int, np.ndarray] | None:
        """A card that lay at rest where kn lies now, in the moments before kn covered it, read
        in the pictures of those moments: (its read, the frame it was read in and that frame's
        mid-size grey picture), or None.

        When everyone plays at once a card laid on a pile may be covered by the next one a frame
        or two after it landed, with a hand still over part of it: never read, and the next
        card would be judged without it. Looked for between the frame the place first changed
        and the frame kn came to rest: two pictures in a row in which most of kn's footprint
        lay still, showing neither kn nor the table as last understood."""
        if self._ref_mid is None or self._mid_now is None:
            return None
        pictures = {kk: img for kk, _t, img in self._pictures}
        foot, box = self._footprint_mid(kn.quad, grow=0)
        n = int(foot.sum())
        self._foot_n = n
        now, ref = self._mid_now[box], self._ref_mid[box]
        thr = max(self.rest_threshold, 4.0 * math.sqrt(2.0) * self._noise)
        hist = [h for h in self._history() if start <= h[0] < ri]
        now_grad: np.ndarray | None = None  # kn's picture's gradients, once a picture gets that far
        best: tuple | None = None  # (still pixels, then (frame, grey picture) of the two, first first)
        for (k0, g0, *_), (k1, g1, *_) in zip(hist, hist[1:], strict=False):
            if k1 not in pictures or g1 is g0:
                continue
            a, b = g0[box], g1[box]
            still = foot & (cv2.absdiff(a, b) <= thr)
            ns = int(still.sum())
            # (much of it unlike the table as it was: a card there, not the cloth beside one held near)
            if ns < UNDER_STILL * n or int((still & (cv2.absdiff(b, ref) > thr)).sum()) < UNDER_NEW * n:
                continue
            if not (self._differs(b, now, still, both=True)
                    and self._differs(b, ref, still, both=True)):
                continue
            self._look_at(b, foot)
            if self._moved_thin(a, b, foot, None):
                continue  # a card sliding to rest slowly (kn itself, most often), not at rest
            if now_grad is None:
                now_grad = (np.abs(cv2.Sobel(now, cv2.CV_32F, 1, 0))
                            + np.abs(cv2.Sobel(now, cv2.CV_32F, 0, 1)))
            sharp = float(np.mean(np.abs(self._now_gx[still]) + np.abs(self._now_gy[still])))
            if sharp < UNDER_SHARP * float(np.mean(now_grad[still])):
                continue  # a sleeve, a hand, the cloth, or a card blurred in a moving hand
            if best is None or ns > best[0]:
                best = (ns, (k0, g0), (k1, g1))
        if best is None:
            return None
        d, seen = None, best[1]
        for seen in best[1:]:  # the first: the next card's hand was farther off
            img = pictures.get(seen[0])
            if img is None:
                continue
            fits = self._fit_card(img, kn.x, kn.y)  # the best fit, and it turned: hands mislead it
            # (the reader of any card come to rest on top, which counts covered parts against
            # the card: one that does not read a slap-wacky card held in a hand surely as
            # another of its pattern)
            d = self._best_of(img, [fits[0], kn.quad, fits[1]], k)
            if self.debug:
                print("  under", kn.code, "at", self._times.get(seen[0]), "reads",
                      d and (d.code, round(d.confidence, 2)))
            if d is not None and self._sure(d):
                break
        if d is None or not self._sure(d):
            return None
        q = np.asarray(d.corners, np.float64).reshape(4, 2)

        def alike(o: _Known, far: float = 0.0) -> bool:  # o's code, and (far > 0) within far mm of it
            return (o.code == d.code and o.face_up == d.face_up
                    and (far <= 0 or self._pose_apart_mm(o.quad, q) <= far))
        # a read of kn's own code is another copy only where it lay clearly elsewhere (Wig Out's
        # piles are of one character): else it is kn, a moment before it came to rest
        copy = alike(kn)
        if copy and alike(kn, 2 * SAME_POSE_MM):
            return None
        if copy and self._times.get(ri, 0.0) - self._times.get(seen[0], 0.0) < ONE_HAND_S:
            # a hand lays one card at a time: a copy laid by the arm that laid kn, a moment
            # before, is kn pausing on its way (Spite and Malice: an 11 told twice, 0.1 s apart)
            if self._seat_of_arm_over(q, seen[0]) in (None, self._seat_of_arm_over(kn.quad, ri)):
                return None
        near = [o for o in self._told if math.hypot(o.x - kn.x, o.y - kn.y) < 25]
        if any(alike(o, 2 * SAME_POSE_MM if copy else 0.0)
               for o in there[-(SHOWS_FROM_BELOW + 1):] + near):
            return None  # the card known there already, or told there (and since lost track of)
        return d, *seen

    def _pose_apart_mm(self, a: np.ndarray, b: np.ndarray) -> float:
        """How far apart two outlines (image corners) lie on the table: the farthest any corner
        of one lies from the nearest corner of the other (corner order aside), in mm."""
        ta, tb = self.cal.to_table(a.reshape(4, 2)), self.cal.to_table(b.reshape(4, 2))
        return max(float(np.min(np.hypot(*(tb - p).T))) for p in ta)

    def _source(self, kn: _Known, arm_seat: int | None,
                t: float) -> _Known | tuple[str, float, _Known] | None:
        """Where the new card kn came from: a model card with its code whose old place no
        longer shows it as it was (_seen_gone; else the old one was misread, or the deck has
        two alike), or one that left a seat zone a moment ago (an entry of _left), or else one
        with its code lying under another in the zone of the seat whose arm brought it (a waste
        pile's top taken and the card below showing looks like a card laid on it; a card dug
        out).

        Decks of several players repeat codes: of several candidates, the one in the zone of
        the seat whose arm brought it is taken first, then one seen gone before one arms hide,
        then a pile's top before a card under it, then the latest. A card under another is
        taken only from that seat's own zone. A card never moves into another seat's zone, nor
        from the middle into one (_may_move)."""
        if kn.code == UNKNOWN:
            return None
        # (not one where it lies: the cards that can show there were asked first (_arrivals), and
        # one deeper in that pile is of an earlier pass through a waste pile, not this card)
        elsewhere = [o for o in self.model if math.hypot(o.x - kn.x, o.y - kn.y) >= 25]
        moved = []
        for i, o in enumerate(elsewhere):
            if (o.code == kn.code and self._changed_at(o.quad) and self._may_move(o.zone, kn.zone)
                    and (o.top or self._mine(o.zone, arm_seat))):
                gone = self._seen_gone(o, kn, arm_seat)
                if gone is not None:
                    moved.append((gone, o.zone, o.top, 1, i, o))
        left = [(True, e[0], True, 0, e[1], e) for e in self._left.get(kn.code, [])
                if t - e[1] <= LEFT_MEMORY_S and self._may_move(e[0], kn.zone)]
        found = moved + left
        if found:
            return max(found, key=lambda c: (self._mine(c[1], arm_seat), c[0], c[2], c[3], c[4]))[5]
        under = [o for o in elsewhere if o.code == kn.code and not o.top
                 and o.face_up == kn.face_up and o.zone != kn.zone and self._mine(o.zone, arm_seat)]
        return under[-1] if under else None

    def _back_from_taken(self) -> None:
        """Cards taken for a source while arms hid them (_taken), looked at again as the arms
        leave them: one that shows as it lay never moved and is a model card again (read
        later as a new card, it was told a second time); one that shows gone did move."""
        for e in list(self._taken):
            still = self._still_lies(e[0].quad)
            if still is None:
                continue
            self._taken.remove(e)
            if not still:
                self._seen_off.append(e)
            elif all(self._overlap(o.quad, e[0].quad) < ONE_PLACE or not o.top
                     for o in self.model):
                self.model.append(e[0])

    def _never_moved(self, kn: _Known, t_rest: float) -> bool:
        """Is kn a card taken for the source of another while arms hid it (_taken), read again
        where it lay, at rest there since before that card came to rest? Then it never moved:
        told again, it was a reveal of a card that had lain there all along. (So also where its
        place looked changed as the arms left it, _seen_off: a hand's shadow, or the reference
        taken in there while it was out of the model; a Wig Out C3 was told twice, 2 s apart.)"""
        for memory in (self._taken, self._seen_off):
            for e in memory:
                o, t_then = e
                if (o.code == kn.code and o.face_up == kn.face_up and t_rest < t_then
                        and self._pose_apart_mm(o.quad, kn.quad) <= 2 * SAME_POSE_MM):
                    memory.remove(e)
                    return True
        return False

    def _seen_gone(self, o: _Known, kn: _Known, arm_seat: int | None) -> bool | None:
        """Model card o as the source of the new card kn of its code: True where its place,
        where no arm covers it now, no longer shows it as it lay; False where arms hide too
        much of it to tell; None where it is not the source.

        A copy of kn's face under an arm passing over it differs from the reference, but not
        where the arm leaves it bare: taken for the source, it went out of the model, was read
        again once the arm had gone and told a second time (a Wig Out deck holds five of each
        face). One that arms hide in a seat's zone, with another seat's arm over kn as it came
        to rest, is the source only if its place had changed before kn's did (a card is picked
        up before it lands): an arm passing over a row card covers it at any time, and the arm
        over a card coming to rest is now and then another seat's, reaching past. (Asked of
        every hidden card, that lost row cards played in the demo's crowded middle, where other
        arms had covered the new card's place before its own arm lifted it.)"""
        if self._ref_mid is None:
            return False  # no picture of the table yet to tell by
        still = self._still_lies(o.quad)
        if still is not None:
            return None if still else True
        seat = self.layout.seat_of_zone(o.zone)
        if seat is None or arm_seat is None or seat == arm_seat:
            return False
        k = self._n - 1
        keep = self._foot_n
        gone = self._gone_index(o.quad, k)
        self._foot_n = keep
        return False if gone <= self._arrived_index(kn.quad, k) else None

    def _still_lies(self, quad: np.ndarray) -> bool | None:
        """Does a card lie as the reference shows it, where no arm covers it now? None: too
        little of it shows to tell."""
        if self._ref_mid is None or self._mid_now is None or not self._hist:
            return None
        foot, box = self._footprint_mid(quad, grow=0)
        cover = self._hist[-1][2]
        for _es, m in self._hist[-1][3] or []:
            cover = m if cover is None else cover | m
        hm = self._hand_mid(cover, box)
        shows = foot if hm is None else foot & ~hm
        keep, self._foot_n = self._foot_n, int(foot.sum())
        moved = self._differs(self._mid_now[box], self._ref_mid[box], shows, both=False)
        self._foot_n = keep
        return None if moved is None else not moved

    def _mine(self, zone: str, seat: int | None) -> bool:
        return seat is not None and self.layout.seat_of_zone(zone) == seat

    def _refresh(self, img: np.ndarray, small: np.ndarray, reg: np.ndarray, st) -> None:
        """The table is understood in this region again: take it into the reference."""
        assert self._ref is not None and self._ref_full is not None
        x, y, w, h = (int(v) for v in st[:4])
        sl = (slice(max(0, y - 1), y + h + 1), slice(max(0, x - 1), x + w + 1))
        regd = cv2.dilate(reg.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        self._ref[regd] = small[regd]
        f = self.f
        Y0, Y1 = int(sl[0].start / f), int(min(img.shape[0], sl[0].stop / f + 1))
        X0, X1 = int(sl[1].start / f), int(min(img.shape[1], sl[1].stop / f + 1))
        full = _mask_up(regd, img.shape[:2], Y0, Y1, X0, X1)
        self._ref_full[Y0:Y1, X0:X1][full] = img[Y0:Y1, X0:X1][full]
        if self._ref_mid is not None and self._mid_now is not None:
            rm = np.repeat(np.repeat(regd, 2, axis=0), 2, axis=1)
            self._ref_mid[rm] = self._mid_now[rm]

    def _may_move(self, src: str, dst: str) -> bool:
        """Can a card move from zone src to zone dst? Never into another seat's zone, nor from
        the middle of the table into a seat's zone: a card turned up on a waste pile with the
        code of one on a pile in the middle is another player's copy (taken for that one, the
        pile's card left the model, was read there again and told twice), and a card taken
        back from the middle is told taken back where it leaves."""
        seat = self.layout.seat_of_zone(dst)
        return seat is None or self.layout.seat_of_zone(src) == seat

    def _place_then_and_now(self, quad: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """The card's footprint as the reference showed it and as it shows now (grey levels),
        None where there is too little of it to compare."""
        foot, box = self._footprint_mid(quad, grow=0)
        return self._mid_then_and_now(box, foot)

    def _mid_then_and_now(self, box: tuple, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """The masked pixels of a box of the mid-size picture, in the reference and now (grey
        levels); None where there are too few of them to compare."""
        if self._ref_mid is None or self._mid_now is None:
            return None
        a = self._ref_mid[box][mask].astype(np.float32)
        if a.size < 20:
            return None
        return a, self._mid_now[box][mask].astype(np.float32)

    def _looks_as_before(self, quad: np.ndarray) -> bool:
        """Does the card's place still show the picture it showed (up to light and shadow)?"""
        pics = self._place_then_and_now(quad)
        if pics is None:
            return False
        return _correlation(*pics) > SAME_PICTURE

    def _bare_now(self, quad: np.ndarray, kn: _Known | None = None) -> bool:
        """Does the card's place now show far less detail than it did (bare cloth: the card
        was taken away, not covered by another)? Given the model card kn, only the part of its
        place where no other model card lies beside it is asked (a card laid across a corner of
        the next pattern's card, taken away, leaves that card's corner showing beside bare
        cloth; the cards it lies on squarely are asked with it, as the model may keep one that
        went unseen)."""
        if kn is None:
            pics = self._place_then_and_now(quad)
        else:
            foot, box = self._footprint_mid(quad, grow=0)
            others = np.zeros(foot.shape, np.uint8)
            corner = np.array([box[1].start, box[0].start], np.float64)
            for o in self.model:
                if o is not kn and self._may_overlap(o, kn) and self._overlap(quad, o.quad) < BESIDE:
                    at = np.round(o.quad * self.f * 2 - corner).astype(np.int32)
                    cv2.fillConvexPoly(others, at, 1)
            others = cv2.dilate(others, self._k5).astype(bool)
            pics = self._mid_then_and_now(box, foot & ~others)
        return pics is not None and _far_flatter(*pics)

    def _shows_bare_cloth(self, image: np.ndarray, quad: np.ndarray, own_place: bool = False) -> bool:
        """Is a read card's place, where no model card lies, coloured like the cloth around it
        (CLOTH_LIKE)? A card shows its white margin and its print, even on a cloth of its own
        colour; bare cloth where a card was taken can read as a card of that colour: a Wonky
        green card taken from its row left green felt that read as the small green card (the
        ends of the cards beside it, inside the outline, taken for what covered its block). Asked
        of every outline before it is read (_once_a_frame), and of every read's own outline before
        it is told (_arrivals). Not judged where little of the place or of the cloth around it
        lies clear of model cards (CLOTH_ASKED). own_place: asked before a read, the place of a
        model card the outline lies on (ONE_PLACE) is judged with it, and only the cards beside
        it are left out: a card still there shows its margin and print, and one just taken away
        (the model keeps it until its place is read) leaves the cloth. The speed benchmark read
        such places, a hand beside them, at 12 to 21 ms each, and found nothing; over the 18
        tracking runs, the 1,011 reads so left out would have found no card at 0.6 or over."""
        q = np.asarray(quad, np.float32).reshape(4, 2)
        mid = q.mean(axis=0)
        grown = mid + CLOTH_RING[1] * (q - mid)
        H, W = image.shape[:2]
        x0, y0 = np.maximum(np.floor(grown.min(axis=0)).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(grown.max(axis=0)).astype(int) + 1, (W, H))
        if x1 - x0 < 4 or y1 - y0 < 4:
            return False
        sub = image[y0:y1, x0:x1]
        corner = np.array([x0, y0], np.float32)

        def inside(outline: np.ndarray) -> np.ndarray:
            m = np.zeros(sub.shape[:2], np.uint8)
            cv2.fillConvexPoly(m, np.round(outline - corner).astype(np.int32), 1)
            return m.astype(bool)
        place = inside(q)
        own_share = ONE_PLACE * int(place.sum())
        known = np.zeros(sub.shape[:2], np.uint8)
        beside = np.zeros(sub.shape[:2], np.uint8)
        for o in self.model:
            at = np.round(np.asarray(o.quad, np.float32) - corner).astype(np.int32)
            if (at.max(axis=0) < 0).any() or (at.min(axis=0) >= sub.shape[1::-1]).any():
                continue  # wholly beside the picture asked about (most of the table's cards)
            cv2.fillConvexPoly(known, at, 1)
            if own_place and int((inside(o.quad) & place).sum()) > own_share:
                continue  # the outline's own card: judged with its place
            cv2.fillConvexPoly(beside, at, 1)
        clear = ~cv2.dilate(known, self._k5).astype(bool)
        ring = inside(grown) & ~inside(mid + CLOTH_RING[0] * (q - mid))
        asked, around = place & ~cv2.dilate(beside, self._k5).astype(bool), ring & clear
        if not (asked.any() and around.any()) or asked.sum() < CLOTH_ASKED * place.sum() \
                or around.sum() < CLOTH_ASKED * ring.sum():
            return False
        return cloth_share(sub[asked], sub[around]) >= CLOTH_LIKE

    def _covered_unread(self, kn: _Known) -> bool:
        """Does a card no read could name lie where a model card lay on the cloth? Taken away,
        such a card leaves bare cloth; one laid across it (a small black card whose suit stays
        unsure, a queen washed out by a lamp's glare) leaves as much detail as a card shows.
        (Where the model knows cards below it, a card taken away shows them: that is left to the
        reads.)"""
        if any(o is not kn and self._overlap(o.quad, kn.quad) > 0.2 for o in self.model):
            return False
        pics = self._place_then_and_now(kn.quad)
        return pics is not None and float(pics[1].std()) >= COVERED_DETAIL * float(pics[0].std())

    def _laid_over(self, kn: _Known, read: Detection) -> bool:
        """Is the sure read at a model card's place a new card on top of it? (Not when it is
        one of the SHOWS_FROM_BELOW cards known right below it (the model lists cards in the
        order they were laid): then the cards above it were taken away.)"""
        if read.confidence < SURE or (read.code == UNKNOWN and read.face_up):
            return False
        laid_before = self.model[:self.model.index(kn)] if kn in self.model else self.model
        below = [o for o in laid_before if o is not kn and self._overlap(o.quad, kn.quad) > 0.2]
        return not any(o.code == read.code and o.face_up == read.face_up for o in below[-SHOWS_FROM_BELOW:])

    def _best_of(self, img: np.ndarray, outlines: list[np.ndarray], k: int,
                 quick: bool = False, unsure: bool = False) -> Detection | None:
        """The read of one card that stands among its outline hypotheses (identify.settle: where
        two outlines read as two cards, the better fit, no surer than the other is unsure; a
        pale 3 read unsurely on its own outline and as a 7 on an outline 12 px off is no 7).
        unsure: also a read that does not count (_counts), for the caller to settle with others."""
        best: Detection | None = None
        read = self._read_quick if quick else self._read
        for i, q in enumerate(outlines):
            d = read(img, q, self.deck)
            if self.debug:
                print("read", k, d.code, d.face_up, round(d.confidence, 3), d.best_fit, d.fit_error,
                      q.round(1).tolist())
            best = d if best is None else settle(best, d)
            if best.confidence >= SURE and not (best.code == UNKNOWN and best.face_up):
                break  # read surely: the other outlines of this card need no read
            if quick and i == 0 and d.confidence < NOTHING_THERE:
                # next to nothing read on the first outline of a patch that counts only when sure:
                # the others lie on the same patch (in the tracking benchmark, none of 123 such
                # patches that read as nothing at all read surely on another outline, nor any of
                # 16 whose first read was above 0 and below NOTHING_THERE)
                break
        if best is None or unsure:
            return best
        return best if self._counts(best) else None

    def _counts(self, d: Detection) -> bool:
        """Does the read name a card (a face, or a back of a known colour) surely enough?"""
        return not (d.code == UNKNOWN and (d.back is None or d.face_up)) and d.confidence >= self.min_conf

    def _hold(self, held: np.ndarray, quad: np.ndarray) -> None:
        """Mark a card's footprint in held (small picture): kept out of the reference now."""
        sl, m = self._foot_small(quad)
        held[sl] |= m

    def _foot_small(self, quad: np.ndarray) -> tuple[tuple[slice, slice], np.ndarray]:
        """A card's footprint on the small picture, cropped to its box (cached: model cards
        are tested against every changed region of every frame)."""
        key = quad.tobytes()
        hit = self._feet.get(key)
        if hit is not None:
            return hit
        sw, sh = self.size
        pts = np.round(quad * self.f).astype(np.int32)
        x0, y0 = np.clip(pts.min(axis=0), 0, [sw, sh])
        x1, y1 = np.clip(pts.max(axis=0) + 1, 0, [sw, sh])
        m = np.zeros((max(0, y1 - y0), max(0, x1 - x0)), np.uint8)
        if m.size:
            cv2.fillConvexPoly(m, (pts - [x0, y0]).astype(np.int32), 1)
        if len(self._feet) > 500:
            self._feet.clear()
        self._feet[key] = ((slice(y0, y1), slice(x0, x1)), m.astype(bool))
        return self._feet[key]

    def _share_over(self, quad: np.ndarray, mask: np.ndarray) -> float:
        """Share of the card's footprint (small picture) that the mask covers."""
        sl, m = self._foot_small(quad)
        n = int(np.count_nonzero(m))
        return int(np.count_nonzero(mask[sl] & m)) / n if n else 1.0

    def _touches(self, quad: np.ndarray, reg: np.ndarray) -> bool:
        sl, m = self._foot_small(quad)
        return bool((reg[sl] & m).any())

    def _changed_at(self, quad: np.ndarray, share: float = 0.3) -> bool:
        """Does the table differ from its reference picture over this share of the card?"""
        return self._fg_now is None or self._share_over(quad, self._fg_now) >= share

    def _overlap(self, a: np.ndarray, b: np.ndarray) -> float:
        """Fraction of quad a (image px) that quad b covers, measured on a small mask."""
        pts = np.concatenate([a, b])
        o = pts.min(axis=0)
        sc = 0.5
        size = np.ceil((pts.max(axis=0) - o) * sc).astype(int) + 2
        ma = np.zeros((size[1], size[0]), np.uint8)
        mb = np.zeros_like(ma)
        cv2.fillConvexPoly(ma, np.round((a - o) * sc).astype(np.int32), 1)
        cv2.fillConvexPoly(mb, np.round((b - o) * sc).astype(np.int32), 1)
        na = int(ma.sum())
        return float((ma & mb).sum()) / na if na else 0.0

    @staticmethod
    def _may_overlap(a: _Known, b: _Known) -> bool:
        """Do two model cards lie near enough to overlap at all? (A cheap test before _overlap.)"""
        return math.hypot(a.x - b.x, a.y - b.y) < math.hypot(CARD_W_MM, CARD_H_MM) + 10

    def _reveal_below(self, gone: _Known) -> list[_Known]:
        """After a card left, the cards it covered that no card laid later covers (the model
        lists cards in the order they were laid) are on top again: those returned."""
        shown = []
        for i, o in enumerate(self.model):
            if (not o.top and self._may_overlap(o, gone) and self._overlap(o.quad, gone.quad) > 0
                    and all(not self._may_overlap(o, p) or self._overlap(o.quad, p.quad) <= COVERS
                            for p in self.model[i + 1:])):
                o.top = True
                shown.append(o)
        return shown
