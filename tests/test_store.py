"""The SQLite match store: round trip, WAL, JSON Lines export, errors, concurrent readers."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

import pytest

from referee.store import MatchNotFoundError, MatchStore, StoreError, StoreUnavailableError

HEADER = {
    "format": "referee-table-log",
    "version": 1,
    "game": "slap-wacky",
    "seats": [{"seat": 1, "name": "Ann", "colour": "red"}, {"seat": 2, "name": "Bo", "colour": ""}],
    "options": {"target_score": 3},
}


@pytest.fixture
def store(tmp_path: Path) -> MatchStore:
    with MatchStore(tmp_path / "sub" / "matches.sqlite3") as s:
        yield s


def test_round_trip(store: MatchStore) -> None:
    mid = store.start_match(HEADER)
    events = [{"t": 0.5 * i, "kind": "pad", "seat": 1 + i % 2} for i in range(5)]
    for seq, event in reversed(list(enumerate(events))):  # stored out of order, read by seq
        store.append_event(mid, seq, event)
    store.append_verdict(mid, 1, {"ruling": "legal", "seat": 2})
    store.append_verdict(mid, 1, {"ruling": "info", "seat": 2})
    store.append_verdict(mid, 0, {"ruling": "illegal", "seat": 1})
    store.set_scores(mid, [{"1": 0, "2": 1}], {"1": 0, "2": 1})
    store.set_scores(mid, [{"1": 0, "2": 1}, {"1": 2, "2": 1}], {"1": 2, "2": 2})
    store.finish_match(mid, {"winner": 2, "standings": {"1": 2, "2": 2}})

    rec = store.load_match(mid)
    assert rec["header"] == HEADER
    assert rec["events"] == events
    assert [v["ruling"] for v in rec["verdicts"]] == ["illegal", "legal", "info"]
    assert rec["verdict_seqs"] == [0, 1, 1]
    assert rec["scores"] == {
        "rounds": [{"1": 0, "2": 1}, {"1": 2, "2": 1}],
        "standings": {"1": 2, "2": 2},
    }
    assert rec["result"]["winner"] == 2
    assert rec["finished"] >= rec["started"] > 1.6e9  # wall clock

    [summary] = store.list_matches()
    assert summary["id"] == mid and summary["game"] == "slap-wacky"
    assert summary["seats"] == HEADER["seats"] and summary["winner"] == 2
    assert summary["finished"] is not None and summary["events"] == 5


def test_list_newest_first_and_unfinished(store: MatchStore) -> None:
    a = store.start_match(HEADER)
    b = store.start_match({**HEADER, "game": "wonky"})
    listed = store.list_matches()
    assert [m["id"] for m in listed] == [b, a]
    assert listed[0]["finished"] is None and listed[0]["winner"] is None


def test_wal_mode_is_on_and_data_survives_reopen(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite3"
    with MatchStore(path) as s:
        assert s.journal_mode == "wal"
        mid = s.start_match(HEADER)
        s.append_event(mid, 0, {"t": 1.0, "kind": "pad", "seat": 1})
        # committed before the call returned: a separate connection sees it now
        other = sqlite3.connect(path)
        assert other.execute("SELECT COUNT(*) FROM events").fetchone() == (1,)
        assert other.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        other.close()
    with MatchStore(path) as again:
        assert again.load_match(mid)["events"] == [{"t": 1.0, "kind": "pad", "seat": 1}]


def test_export_is_json_lines_header_then_events_by_seq(store: MatchStore) -> None:
    mid = store.start_match(HEADER)
    store.append_event(mid, 1, {"t": 2.0, "kind": "pad", "seat": 2})
    store.append_event(mid, 0, {"t": 1.0, "kind": "pad", "seat": 1, "note": "é"})
    text = store.export_log(mid)
    assert text.endswith("\n")
    lines = [json.loads(line) for line in text.splitlines()]
    assert lines[0] == HEADER
    assert [e["t"] for e in lines[1:]] == [1.0, 2.0]
    assert "é" in text


def test_delete_match(store: MatchStore) -> None:
    keep = store.start_match(HEADER)
    gone = store.start_match(HEADER)
    store.append_event(gone, 0, {"t": 0.0, "kind": "pad"})
    store.append_verdict(gone, 0, {"ruling": "legal"})
    store.delete_match(gone)
    assert [m["id"] for m in store.list_matches()] == [keep]
    with pytest.raises(MatchNotFoundError):
        store.load_match(gone)
    with pytest.raises(MatchNotFoundError):
        store.delete_match(gone)


def test_errors_are_clear_value_errors(store: MatchStore) -> None:
    mid = store.start_match(HEADER)
    store.append_event(mid, 0, {"t": 0.0, "kind": "pad"})
    with pytest.raises(StoreError, match="event 0 of match .* already stored"):
        store.append_event(mid, 0, {"t": 0.0, "kind": "pad"})
    with pytest.raises(MatchNotFoundError, match="no match 999"):
        store.append_event(999, 0, {"t": 0.0})
    with pytest.raises(MatchNotFoundError):
        store.append_verdict(999, 0, {"ruling": "legal"})
    with pytest.raises(MatchNotFoundError):
        store.set_scores(999, [], {})
    with pytest.raises(MatchNotFoundError):
        store.finish_match(999, {})
    with pytest.raises(StoreError, match="not plain JSON"):
        store.append_event(mid, 1, {"t": object()})
    with pytest.raises(StoreError, match="'game'"):
        store.start_match({"seats": []})
    assert issubclass(StoreError, ValueError)


def test_unusable_path_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreUnavailableError, match="set \\[store\\] path"):
        MatchStore(blocker / "matches.sqlite3")
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreUnavailableError, match="junk.sqlite3"):
        MatchStore(junk)


def test_concurrent_reads_while_writing(tmp_path: Path) -> None:
    """The table loop appends while web threads list and load; every read is consistent."""
    store = MatchStore(tmp_path / "m.sqlite3")
    mid = store.start_match(HEADER)
    n = 400
    done = threading.Event()
    problems: list[str] = []
    reads = [0]

    def writer() -> None:
        try:
            for seq in range(n):
                store.append_event(mid, seq, {"t": seq / 10, "kind": "pad", "seat": 1})
                store.append_verdict(mid, seq, {"ruling": "legal", "event": seq})
        finally:
            done.set()

    def reader() -> None:
        while not done.is_set() or reads[0] < 5:
            rec = store.load_match(mid)
            seqs = [round(e["t"] * 10) for e in rec["events"]]
            if seqs != list(range(len(seqs))):
                problems.append(f"events out of order or torn: {seqs[:5]}...")
            if len(rec["verdicts"]) not in (len(seqs), len(seqs) - 1):
                problems.append(f"{len(rec['verdicts'])} verdicts for {len(seqs)} events")
            store.list_matches()
            reads[0] += 1

    threads = [threading.Thread(target=writer)] + [
        threading.Thread(target=reader) for _ in range(3)
    ]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    assert not problems, problems[:3]
    assert reads[0] >= 5
    assert len(store.load_match(mid)["events"]) == n
    store.close()
    store.close()  # idempotent
    with pytest.raises(StoreError, match="closed"):
        store.list_matches()


def test_memory_store_for_tests() -> None:
    store = MatchStore(":memory:")
    mid = store.start_match(HEADER)
    store.append_event(mid, 0, {"t": 0.0, "kind": "pad"})
    assert store.load_match(mid)["events"] == [{"t": 0.0, "kind": "pad"}]
