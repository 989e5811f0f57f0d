"""The table log: a JSON Lines file, a header line then one event per line (docs/table-log.md).

Reading checks every line and raises one :class:`LogError` naming the line and the problem.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from .errors import EventError, LogError, RefereeError
from .events import Event, event_from_dict
from .match import MatchHeader

# How far a line's time may go back behind the latest time seen: camera observations are stamped
# with their frame's capture time and reach the log a little after pad presses.
MAX_REORDER_S = 2.0


def header_line(header: MatchHeader) -> str:
    return json.dumps(header.to_dict(), separators=(",", ":"))


def event_line(event: Event) -> str:
    return json.dumps(event.to_dict(), separators=(",", ":"))


def write_log(path: Path, header: MatchHeader, events: Iterable[Event]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(header_line(header) + "\n")
        for ev in events:
            f.write(event_line(ev) + "\n")


def parse_header(text: str, line_no: int = 1, path: str | None = None) -> MatchHeader:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise LogError(line_no, f"the header is not valid JSON ({err.msg})", path) from None
    try:
        return MatchHeader.from_dict(data)
    except RefereeError as err:
        raise LogError(line_no, str(err), path) from None


def iter_events(
    lines: Iterable[str], first_line_no: int = 2, path: str | None = None
) -> Iterator[Event]:
    """Parse event lines, checking JSON, fields and time order; blank lines are skipped."""
    order = _TimeOrder(path)
    for line_no, raw in enumerate(lines, start=first_line_no):
        text = raw.strip()
        if not text:
            continue
        try:
            data: Any = json.loads(text)
        except json.JSONDecodeError as err:
            if not raw.endswith("\n"):
                problem = "the last line is cut off (truncated file?)"
            else:
                problem = f"not valid JSON ({err.msg}, column {err.colno})"
            raise LogError(line_no, problem, path) from None
        yield order.check(data, line_no)


class _TimeOrder:
    """Builds each event and checks that its time does not go back beyond the reorder window."""

    def __init__(self, path: str | None) -> None:
        self.latest = 0.0
        self.path = path

    def check(self, data: Any, line_no: int) -> Event:
        try:
            event = event_from_dict(data)
        except EventError as err:
            raise LogError(line_no, str(err), self.path) from None
        if event.t < self.latest - MAX_REORDER_S:
            raise LogError(
                line_no,
                f"out of order: t={event.t:g} is more than {MAX_REORDER_S:g} s before "
                f"t={self.latest:g} of an earlier line",
                self.path,
            )
        if event.t > self.latest:
            self.latest = event.t
        return event


def parse_events(text: str, first_line_no: int = 2, path: str | None = None) -> list[Event]:
    """All event lines of a log at once: one JSON parse for the whole file (fast), and the
    line-by-line reading only to name the line of a JSON error."""
    parts = text.split("\n")  # as a file iterates: only "\n" ends a line
    lines = [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    numbered = [(n, raw.strip()) for n, raw in enumerate(lines, start=first_line_no) if raw.strip()]
    try:
        datas = json.loads("[" + ",".join(t for _n, t in numbered) + "]")
    except json.JSONDecodeError:
        return list(iter_events(lines, first_line_no, path))  # raises, naming the line
    if len(datas) != len(numbered):  # a line held two values ("{..},{..}")
        return list(iter_events(lines, first_line_no, path))
    order = _TimeOrder(path)
    return [order.check(data, n) for (n, _t), data in zip(numbered, datas, strict=True)]


def read_log_stream(f: IO[str], path: str | None = None) -> tuple[MatchHeader, Iterator[Event]]:
    first = f.readline()
    if not first.strip():
        raise LogError(1, "the file is empty: a table log starts with a header line", path)
    header = parse_header(first, 1, path)
    return header, iter_events(f, 2, path)


def read_log(path: Path) -> tuple[MatchHeader, list[Event]]:
    """Read a whole log; errors name the file and line."""
    try:
        with open(path, encoding="utf-8") as f:
            first = f.readline()
            rest = f.read()
    except FileNotFoundError:
        raise RefereeError(f"no table log at {path}: check the path") from None
    except UnicodeDecodeError:
        raise RefereeError(f"{path} is not a text file: a table log is UTF-8 JSON Lines") from None
    except IsADirectoryError:
        raise RefereeError(f"{path} is a folder: give the path of a .jsonl table log") from None
    if not first.strip():
        raise LogError(1, "the file is empty: a table log starts with a header line", str(path))
    header = parse_header(first, 1, str(path))
    return header, parse_events(rest, 2, str(path))
