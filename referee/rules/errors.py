"""Errors of the rules core, each by cause; all subclass ValueError (a user's input was wrong)."""

from __future__ import annotations


class RefereeError(ValueError):
    """Root of the rules core's errors."""


class UnknownGameError(RefereeError):
    """A game name that is not in the registry."""


class OptionError(RefereeError):
    """A match option that the game does not have, or of the wrong type."""


class EventError(RefereeError):
    """An event that is malformed: a missing field, a wrong type, an unknown kind."""


class LogError(RefereeError):
    """A table log line that cannot be read; names the line."""

    def __init__(self, line_no: int, problem: str, path: str | None = None) -> None:
        self.line_no = line_no
        self.problem = problem
        self.path = path
        where = f"{path}, line {line_no}" if path else f"line {line_no}"
        super().__init__(f"{where}: {problem}")
