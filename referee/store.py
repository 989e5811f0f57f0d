"""The match store: every match, event, verdict and score in one SQLite file.

Why SQLite in WAL mode: the table loop writes an event and its verdicts *before* it shows them
(so a crash never loses something a player saw), while dashboard threads read history at the
same time. WAL lets readers run while the writer commits; ``synchronous=NORMAL`` makes a commit
cost tens of microseconds (a commit survives a crash of the process; after a power cut the last
commits may be lost, but the file stays consistent).

Each thread gets its own connection (SQLite connections must not be shared between threads
mid-statement); every write is its own transaction, committed before the call returns.
Records are plain JSON-able dicts (``event.to_dict()``, ``verdict.to_dict()``).

>>> store = MatchStore(":memory:")
>>> mid = store.start_match({"format": "referee-table-log", "game": "wonky", "seats": []})
>>> store.append_event(mid, 0, {"t": 0.0, "kind": "round_start"})
>>> store.export_log(mid).splitlines()[1]
'{"t": 0.0, "kind": "round_start"}'
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    seats TEXT NOT NULL,            -- JSON list, from the header
    header TEXT NOT NULL,           -- JSON object, exactly as given
    started_at REAL NOT NULL,       -- wall clock, seconds since the epoch
    finished_at REAL,
    result TEXT,                    -- JSON object given to finish_match
    winner TEXT,                    -- JSON value of result["winner"], if any
    round_scores TEXT NOT NULL DEFAULT '[]',
    standings TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS events (
    match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS verdicts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS verdicts_by_match ON verdicts (match_id, seq, id);
"""


class StoreError(ValueError):
    """A store operation that cannot be done as asked; the message says why and what to do."""


class MatchNotFoundError(StoreError):
    """No match with that id (never stored, or deleted)."""

    def __init__(self, match_id: int) -> None:
        self.match_id = match_id
        super().__init__(f"no match {match_id} in the store; list_matches() shows the ids")


class StoreUnavailableError(StoreError):
    """The database file cannot be opened or created (folder missing, no permission, corrupt)."""


def _dumps(value: Any, what: str) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise StoreError(f"{what} is not plain JSON ({exc}); store to_dict() values") from None


class MatchStore:
    """SQLite match store, safe to use from the table loop thread and web threads at once.

    ``path`` is a file (its folder is created) or ``":memory:"`` (tests; one connection shared
    under a lock, since an in-memory database is private to its connection).
    """

    def __init__(self, path: Path | str, *, timeout_s: float = 5.0) -> None:
        self.path = path if str(path) == ":memory:" else Path(path).expanduser()
        self._timeout_s = timeout_s
        self._local = threading.local()
        self._lock = threading.RLock()
        # (thread, connection): connections of threads that have ended are closed on the next open
        self._connections: list[tuple[threading.Thread, sqlite3.Connection]] = []
        self._closed = False
        self._memory = str(path) == ":memory:"
        self._shared: sqlite3.Connection | None = None
        if not self._memory:
            folder = Path(self.path).parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreUnavailableError(
                    f"cannot create the store's folder {folder} ({exc.strerror}); "
                    "set [store] path to a writable place"
                ) from None
        conn = self._conn()
        try:
            conn.executescript(_SCHEMA)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.DatabaseError as exc:
            raise StoreUnavailableError(
                f"{self.path} is not a usable match store ({exc}); move it aside to start afresh"
            ) from None

    # connections ---------------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = None
        try:
            conn = sqlite3.connect(
                str(self.path),
                timeout=self._timeout_s,
                isolation_level=None,  # autocommit: each statement commits before returning
                check_same_thread=False,  # closed from close(); used by one thread otherwise
            )
            if not self._memory:
                mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                if str(mode).lower() != "wal":
                    raise sqlite3.OperationalError(f"journal_mode is {mode}, WAL unavailable")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as exc:
            if conn is not None:
                conn.close()
            raise StoreUnavailableError(
                f"cannot open the match store {self.path} ({exc}); check the [store] path and "
                "that the referee user may write to its folder"
            ) from None
        with self._lock:
            alive = []
            for thread, other in self._connections:
                if thread.is_alive():
                    alive.append((thread, other))
                else:
                    other.close()  # its thread is gone (a finished request thread)
            alive.append((threading.current_thread(), conn))
            self._connections = alive
        return conn

    def _conn(self) -> sqlite3.Connection:
        if self._closed:
            raise StoreError("the match store is closed")
        if self._memory:
            if self._shared is None:
                self._shared = self._open()
            return self._shared
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._open()
            self._local.conn = conn
        return conn

    def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> sqlite3.Cursor:
        if self._memory:
            with self._lock:
                return self._conn().execute(sql, params)
        return self._conn().execute(sql, params)

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        if self._memory:
            with self._lock:
                return self._conn().execute(sql, params).fetchall()
        return self._conn().execute(sql, params).fetchall()

    @property
    def journal_mode(self) -> str:
        return str(self._query("PRAGMA journal_mode")[0][0]).lower()

    # writes ----------------------------------------------------------------------------------

    def start_match(self, header: dict[str, Any]) -> int:
        """Store a new match's header (``game``, ``seats``, ``options``, ``format`` ...); its id."""
        if not isinstance(header, dict) or not isinstance(header.get("game"), str):
            raise StoreError("the match header must be a dict with a 'game' name")
        cur = self._execute(
            "INSERT INTO matches (game, seats, header, started_at) VALUES (?, ?, ?, ?)",
            (
                header["game"],
                _dumps(header.get("seats", []), "the header's seats"),
                _dumps(header, "the match header"),
                time.time(),
            ),
        )
        assert cur.lastrowid is not None
        return int(cur.lastrowid)

    def append_event(self, match_id: int, seq: int, event: dict[str, Any]) -> None:
        """Store event number ``seq`` of the match; committed on return. A seq is stored once."""
        data = _dumps(event, f"event {seq}")
        try:
            self._execute(
                "INSERT INTO events (match_id, seq, data) VALUES (?, ?, ?)", (match_id, seq, data)
            )
        except sqlite3.IntegrityError as exc:
            self._integrity(exc, match_id, f"event {seq} of match {match_id} is already stored")

    def append_verdict(self, match_id: int, seq: int, verdict: dict[str, Any]) -> None:
        """Store a verdict on event ``seq`` (an event may have several); committed on return."""
        data = _dumps(verdict, f"a verdict on event {seq}")
        try:
            self._execute(
                "INSERT INTO verdicts (match_id, seq, data) VALUES (?, ?, ?)", (match_id, seq, data)
            )
        except sqlite3.IntegrityError as exc:
            self._integrity(exc, match_id, "verdict rejected")

    def set_scores(
        self, match_id: int, round_scores: list[dict[str, Any]], standings: dict[str, Any]
    ) -> None:
        """Replace the match's score sheet (per-round scores and the standings)."""
        cur = self._execute(
            "UPDATE matches SET round_scores = ?, standings = ? WHERE id = ?",
            (_dumps(round_scores, "round scores"), _dumps(standings, "standings"), match_id),
        )
        if cur.rowcount == 0:
            raise MatchNotFoundError(match_id)

    def finish_match(self, match_id: int, result: dict[str, Any]) -> None:
        """Mark the match finished with its result (``result["winner"]`` is listed if present)."""
        winner = result.get("winner") if isinstance(result, dict) else None
        cur = self._execute(
            "UPDATE matches SET finished_at = ?, result = ?, winner = ? WHERE id = ?",
            (
                time.time(),
                _dumps(result, "the match result"),
                None if winner is None else _dumps(winner, "the winner"),
                match_id,
            ),
        )
        if cur.rowcount == 0:
            raise MatchNotFoundError(match_id)

    def delete_match(self, match_id: int) -> None:
        """Delete a match with its events, verdicts and scores."""
        cur = self._execute("DELETE FROM matches WHERE id = ?", (match_id,))
        if cur.rowcount == 0:
            raise MatchNotFoundError(match_id)

    def _integrity(self, exc: sqlite3.IntegrityError, match_id: int, duplicate: str) -> None:
        if "FOREIGN KEY" in str(exc):
            raise MatchNotFoundError(match_id) from None
        raise StoreError(f"{duplicate}; each seq is written once ({exc})") from None

    # reads -----------------------------------------------------------------------------------

    def list_matches(self) -> list[dict[str, Any]]:
        """Newest first: ``id, game, seats, started, finished, winner, events`` per match.

        ``started``/``finished`` are wall-clock seconds since the epoch (``finished`` None while
        the match runs); ``winner`` is ``result["winner"]`` as given to finish_match, or None.
        """
        rows = self._query(
            "SELECT m.id, m.game, m.seats, m.started_at, m.finished_at, m.winner,"
            " (SELECT COUNT(*) FROM events e WHERE e.match_id = m.id)"
            " FROM matches m ORDER BY m.id DESC"
        )
        return [
            {
                "id": mid,
                "game": game,
                "seats": json.loads(seats),
                "started": started,
                "finished": finished,
                "winner": None if winner is None else json.loads(winner),
                "events": n_events,
            }
            for mid, game, seats, started, finished, winner, n_events in rows
        ]

    def load_match(self, match_id: int) -> dict[str, Any]:
        """Everything about one match: header, events, verdicts, scores, result, times."""
        if self._memory:
            with self._lock:
                return self._load(match_id)
        conn = self._conn()
        # One read transaction: a consistent snapshot even while the table loop appends.
        conn.execute("BEGIN")
        try:
            return self._load(match_id)
        finally:
            conn.execute("COMMIT")

    def _load(self, match_id: int) -> dict[str, Any]:
        conn = self._conn()
        row = conn.execute(
            "SELECT header, started_at, finished_at, result, round_scores, standings"
            " FROM matches WHERE id = ?",
            (match_id,),
        ).fetchone()
        if row is None:
            raise MatchNotFoundError(match_id)
        header, started, finished, result, round_scores, standings = row
        events = conn.execute(
            "SELECT data FROM events WHERE match_id = ? ORDER BY seq", (match_id,)
        ).fetchall()
        verdicts = conn.execute(
            "SELECT seq, data FROM verdicts WHERE match_id = ? ORDER BY seq, id", (match_id,)
        ).fetchall()
        return {
            "id": match_id,
            "header": json.loads(header),
            "started": started,
            "finished": finished,
            "result": None if result is None else json.loads(result),
            "events": [json.loads(d) for (d,) in events],
            "verdicts": [json.loads(d) for _seq, d in verdicts],
            "verdict_seqs": [seq for seq, _d in verdicts],
            "scores": {"rounds": json.loads(round_scores), "standings": json.loads(standings)},
        }

    def export_log(self, match_id: int) -> str:
        """The table log as JSON Lines: the header as stored, then one event per line by seq."""
        data = self.load_match(match_id)
        lines = [json.dumps(data["header"], ensure_ascii=False)]
        lines.extend(json.dumps(e, ensure_ascii=False) for e in data["events"])
        return "\n".join(lines) + "\n"

    # lifetime --------------------------------------------------------------------------------

    def close(self) -> None:
        """Close every connection this store opened; safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            conns, self._connections = self._connections, []
        for _thread, conn in conns:
            try:
                conn.close()
            except sqlite3.Error:
                pass

    def __enter__(self) -> MatchStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<MatchStore {self.path}{' closed' if self._closed else ''}>"
