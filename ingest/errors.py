"""The typed error and warning records shared by every ingest reader."""

from __future__ import annotations

from dataclasses import dataclass

from events.errors import UserError
from events.text import MAX_EXCERPT, excerpt

__all__ = [
    "MAX_EXCERPT",
    "Accepted",
    "DecisionRefused",
    "IngestError",
    "IngestWarning",
    "ResultRecordError",
    "excerpt",
    "format_location",
    "one_line",
]


def format_location(path: str, line: int, column: int) -> str:
    """``FILE:LINE:COL`` as editors and compilers print it (1-based line and column)."""
    return f"{path}:{line}:{column}"


def _describe(message: str, found: str | None, expected: str | None) -> str:
    parts: list[str] = []
    if found is not None:
        parts.append(f"found {excerpt(found)}")
    if expected is not None:
        parts.append(f"expected {expected}")
    if len(message) > _MAX_MESSAGE:
        message = message[:_MAX_MESSAGE] + "..."
    text = message if not parts else f"{message} ({', '.join(parts)})"
    # One line, always: a user error is printed as a single line by the CLI.
    return one_line(text)


_MAX_MESSAGE = 300


def one_line(text: str) -> str:
    """``text`` as one printable line: line breaks become spaces, other control characters
    (a terminal's escape sequences) ``\\xNN``.

    >>> one_line("a\\nb\\x1b[31m")
    'a b\\\\x1b[31m'
    """
    text = " ".join(text.splitlines())
    if not any(ord(c) < 32 or ord(c) == 127 for c in text):
        return text
    return "".join(f"\\x{ord(c):02x}" if ord(c) < 32 or ord(c) == 127 else c for c in text)


_ErrorArgs = tuple[str, int, int, str, str | None, str | None]


class IngestError(UserError):
    """A file that cannot be read as its format says.

    The message is one line: ``FILE:LINE:COL: what is wrong (found 'X', expected Y)``.
    ``line`` and ``column`` are 1-based; 0 means "the whole file" or "the whole line".
    """

    def __init__(
        self,
        path: str,
        line: int,
        column: int,
        message: str,
        found: str | None = None,
        expected: str | None = None,
    ) -> None:
        self.path = path
        self.line = line
        self.column = column
        self.reason = message
        self.found = found
        self.expected = expected
        super().__init__(
            one_line(
                f"{format_location(path, line, column)}: {_describe(message, found, expected)}"
            )
        )

    def __reduce__(self) -> tuple[type[IngestError], _ErrorArgs]:
        return (
            type(self),
            (self.path, self.line, self.column, self.reason, self.found, self.expected),
        )


class ResultRecordError(IngestError):
    """An error in one result record: a game line of an .ELO file, a result cell of an h9 or
    .tou table. ``arbiter ingest --skip-bad-lines`` leaves such records out and takes the rest
    of the file; an error anywhere else refuses the file whole."""


class DecisionRefused(IngestError):
    """A record of the file that the write side's decider refuses (a second player of the same
    name, an id another player holds, a field out of its rule, a result a live event would
    refuse): ``arbiter ingest --lenient`` takes it as the file wrote it and says so
    (`Accepted`)."""


@dataclass(frozen=True, slots=True)
class Accepted:
    """A record a lenient ingest took as the file wrote it, which the strict decider refuses."""

    path: str
    line: int
    column: int
    reason: str

    def __str__(self) -> str:
        where = format_location(self.path, self.line, self.column)
        return one_line(f"{where}: accepted as written: {self.reason}")


@dataclass(frozen=True, slots=True)
class IngestWarning:
    """A non-fatal finding: the file was read, but something deserves the officer's eye."""

    path: str
    line: int
    column: int
    message: str
    found: str | None = None
    expected: str | None = None

    def __str__(self) -> str:
        location = format_location(self.path, self.line, self.column)
        return f"{location}: {_describe(self.message, self.found, self.expected)}"
