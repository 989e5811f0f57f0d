"""FakeTable and the Broadcaster: the in-memory table that tests and previews run on."""

from __future__ import annotations

import threading
import time

import pytest

from web.broadcast import Broadcaster
from web.fake import FakeTable
from web.protocol import STATES, Subscription, TableView


def test_fake_table_implements_the_protocol() -> None:
    table = FakeTable(demo=False)
    assert isinstance(table, TableView)
    assert isinstance(table.subscribe(), Subscription)
    assert table.snapshot()["state"] == "idle" and table.history() == []


def test_simulated_match_runs_rounds_to_a_winner_and_history() -> None:
    table = FakeTable(seed=2, rounds_to_win=2, steps_per_round=4)
    before = len(table.history())
    states = set()
    for _ in range(20):
        table.simulate_step()
        states.add(table.snapshot()["state"])
    snap = table.snapshot()
    assert states <= set(STATES) and snap["state"] == "finished"
    assert snap["winner"] == max(snap["seats"], key=lambda s: s["score"])["seat"]
    assert len(table.history()) == before + 1
    rec = table.match_record(snap["match_id"])
    assert [r["round"] for r in rec["rounds"]] == [1, 2]
    totals = {s["seat"]: 0 for s in snap["seats"]}
    for r in rec["rounds"]:
        for seat, pts in r["scores"].items():
            totals[seat] += pts
    assert totals == {s["seat"]: s["score"] for s in snap["seats"]}


def test_step_publishes_event_verdict_and_state_in_order() -> None:
    table = FakeTable(seed=1)
    sub = table.subscribe()
    table.simulate_step()
    msgs = [sub.get(0.1) for _ in range(3)]
    assert [m["type"] for m in msgs if m] == ["event", "verdict", "state"]
    assert msgs[1] and msgs[0] and msgs[1]["data"]["event_id"] == msgs[0]["data"]["id"]
    assert sub.get(0.01) is None


def test_broadcaster_drops_oldest_for_a_slow_subscriber_without_blocking() -> None:
    hub = Broadcaster(queue_size=5)
    slow, fast = hub.subscribe(), hub.subscribe()
    for i in range(12):
        hub.publish("state", {"n": i})
        assert fast.get(0) is not None
    assert slow.dropped == 7
    assert [slow.get(0)["data"]["n"] for _ in range(5)] == [7, 8, 9, 10, 11]  # type: ignore[index]


def test_subscription_close_wakes_a_waiting_get_and_unsubscribes() -> None:
    hub = Broadcaster()
    sub = hub.subscribe()
    got: list[object] = []
    t = threading.Thread(target=lambda: got.append(sub.get(5.0)))
    t.start()
    time.sleep(0.05)
    sub.close()
    t.join(2.0)
    assert not t.is_alive() and got == [None]
    assert hub.subscriber_count == 0
    sub.close()  # idempotent


def test_setup_validation_messages() -> None:
    table = FakeTable(demo=False)
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        table.setup("chess", [], {})
    with pytest.raises(ValueError, match="unknown command 'fly'"):
        table.command("fly")
    with pytest.raises(ValueError, match="set up a match first"):
        table.command("start")


def test_frame_is_a_jpeg_rendered_once_per_change() -> None:
    table = FakeTable(seed=1)
    a = table.frame_jpeg()
    assert a is not None and a[:2] == b"\xff\xd8"
    assert table.frame_jpeg() is a
    table.simulate_step()
    assert table.frame_jpeg() is not a
