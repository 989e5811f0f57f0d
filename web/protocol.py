"""What the web layer needs from the running table: the `TableView` protocol.

The lead's table service (referee/table.py) implements this; web/ only reads state and sends
commands through it, so the dashboard can be built and tested against `web.fake.FakeTable`.
Every shape here is documented, with examples, in docs/web.md.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol, TypedDict, runtime_checkable

State = Literal["idle", "setup", "running", "paused", "stopped", "finished"]
VerdictKind = Literal["legal", "illegal", "late", "ignored", "info"]
MessageType = Literal["event", "verdict", "state"]

STATES: tuple[str, ...] = ("idle", "setup", "running", "paused", "stopped", "finished")
VERDICT_KINDS: tuple[str, ...] = ("legal", "illegal", "late", "ignored", "info")
COMMANDS: tuple[str, ...] = ("start", "go", "pause", "resume", "stop", "correct", "manual", "add")


class SeatDict(TypedDict):
    """One seat on the scoreboard; `colour` is the deck colour, always shown as a word too."""

    seat: int
    name: str
    colour: str
    score: int
    round_score: int
    info: dict[str, Any]


class VerdictDict(TypedDict):
    """One ruling in plain words, as a phone shows it."""

    id: int
    t: float
    seat: int | None
    verdict: VerdictKind
    text: str
    reason: str | None
    consequence: str | None
    event_id: int | None


class SnapshotDict(TypedDict):
    """The whole scoreboard at one instant (GET /api/match, SSE `state` messages)."""

    match_id: int | None
    game: str | None
    state: State
    round: int
    turn: int | None
    direction: int | None
    seats: list[SeatDict]
    recent: list[VerdictDict]
    options: dict[str, Any]
    winner: int | None
    clock: float  # seconds on the table's monotonic clock (not wall time)
    t0: float  # the table clock when the match was set up: the pages show times from here


class MessageDict(TypedDict):
    """One published message; `data` is an event dict, a verdict dict or a snapshot."""

    id: int
    type: MessageType
    data: dict[str, Any]


@runtime_checkable
class Subscription(Protocol):
    """One subscriber's own bounded queue of messages.

    `get` returns None on timeout. A slow subscriber must never block the publisher: the table
    drops that subscriber's oldest messages and counts them in `dropped` (the web layer then
    re-sends a fresh snapshot), or closes it. `close` is idempotent.
    """

    def get(self, timeout: float) -> dict[str, Any] | None: ...

    def close(self) -> None: ...


@runtime_checkable
class TableView(Protocol):
    """The running table as the dashboard sees it. Methods are called from many threads."""

    def snapshot(self) -> dict[str, Any]:
        """The current SnapshotDict."""
        ...

    def subscribe(self) -> Subscription:
        """A new Subscription receiving every later MessageDict."""
        ...

    def events(self, since_id: int = 0, limit: int = 200) -> list[dict[str, Any]]:
        """Table events with id > since_id, oldest first, at most `limit`."""
        ...

    def frame_jpeg(self) -> bytes | None:
        """The latest annotated table picture as JPEG, or None before the first frame."""
        ...

    def games(self) -> list[dict[str, Any]]:
        """[{"name", "title", "seats": [min, max], "options": {name: {"default", "help"}}}]."""
        ...

    def setup(self, game: str, seats: list[dict[str, Any]], options: dict[str, Any]) -> None:
        """Prepare a match; raises ValueError with a clear message for bad input."""
        ...

    def command(self, action: str, **args: Any) -> dict[str, Any]:
        """Run one of COMMANDS; raises ValueError with a clear message for bad input."""
        ...

    def history(self) -> list[dict[str, Any]]:
        """Past matches: [{"id", "game", "seats", "started", "finished", "winner"}]."""
        ...

    def match_record(self, match_id: int) -> dict[str, Any]:
        """{"header", "rounds": [{"round", "scores": {seat: points}}], "standings", "verdicts"}.

        Raises KeyError (or ValueError) for an unknown match id.
        """
        ...

    def export_log(self, match_id: int) -> str:
        """The match's log as JSON Lines; raises KeyError (or ValueError) when unknown."""
        ...
