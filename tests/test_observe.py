"""What vision reports becomes the right table events (referee/observe.py)."""

from __future__ import annotations

from referee.observe import Observer
from referee.rules import CardPlaced, CardRevealed, CardTakenBack, Deal, Place
from vision.types import (
    CardRestObs,
    CardSeen,
    DealObs,
    HandOverTableObs,
    LeftUnseenObs,
    RevealObs,
    TakeBackObs,
)


def rest(code: str, x: float, y: float, t: float, seat: int = 1, zone: str = "centre",
         from_zone: str | None = None) -> CardRestObs:
    return CardRestObs(code, x, y, 3.0, zone, t, seat, from_zone)


def test_cards_in_the_centre_are_numbered_as_piles_as_they_appear() -> None:
    obs = Observer("wackee-six", 4)
    (a,) = obs.translate(rest("R1", 500, 400, 1.0, from_zone="row:1:3"))
    (b,) = obs.translate(rest("B1", 650, 400, 1.5, seat=2))
    (c,) = obs.translate(rest("R2", 510, 395, 2.0, seat=3))
    assert isinstance(a, CardPlaced) and a.to == Place("pile", None, 1)
    assert a.source == Place("row", 1, 3) and a.seat == 1 and a.t == 1.0
    assert b.to == Place("pile", None, 2)
    assert c.to == Place("pile", None, 1)  # landed on pile 1 (10 mm off)


def test_a_pile_number_is_never_reused_after_its_cards_are_taken_back() -> None:
    obs = Observer("wackee-six", 2)
    obs.translate(rest("R5", 500, 400, 1.0))
    (tb,) = obs.translate(TakeBackObs("R5", 500, 400, "centre", 2.0, 1))
    assert isinstance(tb, CardTakenBack) and tb.at == Place("pile", None, 1)
    (again,) = obs.translate(rest("R1", 500, 400, 3.0))
    assert again.to == Place("pile", None, 2)


def test_spots_keep_their_place_names() -> None:
    obs = Observer("spite-and-malice", 2)
    (store,) = obs.translate(rest("7", 100, 800, 1.0, zone="store:1:2", from_zone="hand:1"))
    assert store.to == Place("store", 1, 2)
    (rev,) = obs.translate(RevealObs("9", 100, 800, "up:1", 1, 2.0))
    assert isinstance(rev, CardRevealed) and rev.at == Place("up", 1)


def test_a_card_that_appears_on_a_store_pile_was_laid_there_from_the_hand() -> None:
    obs = Observer("spite-and-malice", 2)
    (stored,) = obs.translate(RevealObs("9", 100, 800, "store:1:3", 1, 2.0))
    assert isinstance(stored, CardPlaced) and stored.to == Place("store", 1, 3)
    assert stored.seat == 1 and stored.source is None


def test_a_reveal_outside_any_spot_means_nothing_and_hands_are_not_events() -> None:
    obs = Observer("wackee-six", 2)
    assert obs.translate(RevealObs("R9", 500, 400, "centre", 1, 1.0)) == []
    assert obs.translate(HandOverTableObs((1, 2), 1.0)) == []


def test_the_deal_snapshot_gives_the_layout_and_the_rulebook_counts() -> None:
    obs = Observer("wackee-six", 2)
    cards = (CardSeen("R5", 100, 800, 0, "row:1:1", 1), CardSeen("B7", 170, 800, 0, "row:1:2", 1),
             CardSeen("G2", 100, 100, 180, "row:2:1", 2),
             CardSeen("?", 30, 800, 0, "reserve:1", 1, face_up=False, back="red"))
    (deal,) = obs.translate(DealObs(cards, 0.5))
    assert isinstance(deal, Deal)
    assert deal.layout == {"row:1:1": ("R5",), "row:1:2": ("B7",), "row:2:1": ("G2",)}
    assert deal.counts == {"reserve:1": 6, "reserve:2": 6, "stock:1": 42, "stock:2": 42}
    # who dealt is not seen: seat 1 deals first, then the deal moves one seat each round
    assert deal.dealer == 1
    assert [obs.translate(DealObs(cards, t))[0].dealer for t in (9.0, 19.0)] == [2, 1]


def test_wig_out_starting_cards_become_the_first_piles() -> None:
    obs = Observer("wig-out", 5)
    cards = (CardSeen("C3", 450, 450, 0, "centre"), CardSeen("C7", 650, 450, 0, "centre"))
    (deal,) = obs.translate(DealObs(cards, 0.5))
    assert deal.layout == {"pile:1": ("C3",), "pile:2": ("C7",)}
    # no hand counts: draws off the face-down pile do not show, so the table confirms calls
    assert deal.counts == {}


def test_a_card_laid_on_the_seats_own_waste_or_row_from_hiding_is_a_reveal() -> None:
    obs = Observer("wackee-six", 2)
    (turn,) = obs.translate(rest("B11", 300, 800, 1.0, seat=1, zone="waste:1"))
    assert isinstance(turn, CardRevealed) and turn.at == Place("waste", 1)
    (refill,) = obs.translate(rest("R4", 200, 800, 2.0, seat=1, zone="row:1:2",
                                   from_zone="reserve:1"))
    assert isinstance(refill, CardRevealed) and refill.at == Place("row", 1, 2)
    (moved,) = obs.translate(rest("R4", 200, 800, 3.0, seat=1, zone="row:1:3",
                                  from_zone="waste:1"))
    assert isinstance(moved, CardPlaced)  # from the waste into the row: judged as a play


def test_wonky_blocks_and_falls_seen_by_the_camera_become_table_events() -> None:
    from referee.rules import BlockAdded, TowerFell
    from vision.types import BlockObs, TowerFellObs

    obs = Observer("wonky", 3)
    (block,) = obs.translate(BlockObs("green", "small", 4.2))
    assert isinstance(block, BlockAdded)
    assert (block.t, block.seat, block.colour, block.size) == (4.2, None, "green", "small")
    (fell,) = obs.translate(TowerFellObs(2, 6.0))
    assert isinstance(fell, TowerFell) and (fell.t, fell.blocks_left) == (6.0, 2)


def test_a_row_card_gone_unseen_left_its_slot_for_where_the_camera_did_not_see() -> None:
    obs = Observer("wackee-six", 2)
    (ev,) = obs.translate(LeftUnseenObs("G7", 100, 800, "row:2:1", 21.4, 2))
    assert ev == CardPlaced(21.4, 2, "G7", Place("unseen"), Place.parse("row:2:1"))
    assert obs.translate(LeftUnseenObs("?", 100, 800, "row:2:1", 21.4, 2)) == []
