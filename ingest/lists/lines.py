"""What the line-based list readers (FIDE TXT, EGD, AGA, CSV) share: the file read as numbered
lines, the raw values of each row with where each value starts, and the check of them.

A reader cuts each data line into raw text fields (`Rows.add`) and says where each field starts
(1-based column); `Rows.finish` checks every column (`ingest.lists.check`) and turns a refused
value into a `ListRowError` at its line and column, in line order. Without
``skip_bad_lines`` the first is raised and nothing is read; with it the bad rows are left out
and listed.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from ingest.errors import IngestError
from ingest.limits import file_kind
from ingest.lists.check import Spec, check
from ingest.lists.errors import ListRowError
from ingest.lists.limits import MAX_LIST_BYTES, MAX_LIST_PLAYERS
from ingest.lists.records import Progress
from ingest.textio import FALLBACK_ENCODING

__all__ = ["Rows", "numbered_lines", "open_list"]


def open_list(path: Path, shown: str) -> bytes:
    """The bytes of a list file (a regular file, at most `MAX_LIST_BYTES`)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as exc:
        raise IngestError(shown, 0, 0, f"cannot open: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise IngestError(shown, 0, 0, f"not a regular file ({file_kind(info.st_mode)})")
        if info.st_size > MAX_LIST_BYTES:
            raise IngestError(shown, 0, 0, "larger than 4 GiB: not a rating list")
        return handle.read()


def numbered_lines(data: bytes, progress: Progress | None = None) -> Iterator[tuple[int, str]]:
    """(1-based number, text) of each line of ``data``: UTF-8, else ISO-8859-15 (FIDE's and
    the EGD's older files); CR, LF or CRLF alike."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode(FALLBACK_ENCODING)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    done = 0
    for number, line in enumerate(text.split("\n"), start=1):
        done += len(line) + 1
        if progress is not None and number % 200_000 == 0:
            progress(done)
        yield number, line
    if progress is not None:
        progress(len(data))


@dataclass
class Rows:
    """The raw rows of a line-based list: values, line numbers and columns of each field."""

    shown: str
    specs: Sequence[Spec]
    skip_bad_lines: bool
    values: dict[str, list[str | None]] = field(default_factory=dict)
    columns: dict[str, list[int]] = field(default_factory=dict)
    lines: list[int] = field(default_factory=list)
    errors: list[ListRowError] = field(default_factory=list)
    """Lines that could not even be cut into fields (`refuse`)."""

    def __post_init__(self) -> None:
        for spec in self.specs:
            self.values[spec.name] = []
            self.columns[spec.name] = []

    def add(self, line: int, fields: dict[str, tuple[str | None, int]]) -> None:
        """One row: each field's raw value and 1-based column (a field not given is None)."""
        if len(self.lines) >= MAX_LIST_PLAYERS:
            raise IngestError(self.shown, line, 1, f"more than {MAX_LIST_PLAYERS} players")
        self.lines.append(line)
        for spec in self.specs:
            value, column = fields.get(spec.name, (None, 1))
            self.values[spec.name].append(value)
            self.columns[spec.name].append(column)

    def refuse(
        self, line: int, column: int, message: str, found: str | None, expected: str | None
    ) -> None:
        """A line that is no row of the list (too few fields, a shifted line)."""
        error = ListRowError(self.shown, line, column, message, found, expected)
        if not self.skip_bad_lines:
            raise error
        self.errors.append(error)

    def finish(self, id_field: str) -> tuple[pl.DataFrame, list[ListRowError]]:
        """The checked rows (one typed column per spec) and the rows left out, in line order;
        without ``skip_bad_lines`` the first problem is raised instead. A repeated
        ``id_field`` is refused on its later lines."""
        raw = pl.DataFrame(
            [pl.Series(s.name, self.values[s.name], dtype=pl.String) for s in self.specs]
        )
        typed, bad = check(raw, self.specs)
        errors = list(self.errors)
        for b in bad:
            errors.append(
                ListRowError(
                    self.shown,
                    self.lines[b.row],
                    self.columns[b.spec.name][b.row],
                    b.message,
                    b.found,
                    b.expected,
                )
            )
        refused = {b.row for b in bad}
        ids = typed.get_column(id_field).to_list()
        seen: set[object] = set()
        for row, value in enumerate(ids):
            if value is None or row in refused:
                continue
            if value in seen:
                refused.add(row)
                errors.append(
                    ListRowError(
                        self.shown,
                        self.lines[row],
                        self.columns[id_field][row],
                        f"{next(s.label for s in self.specs if s.name == id_field)} given twice",
                        str(value),
                        "one row per player",
                    )
                )
            seen.add(value)
        errors.sort(key=lambda e: (e.line, e.column))
        if errors and not self.skip_bad_lines:
            raise errors[0]
        if refused:
            keep = pl.Series([row not in refused for row in range(typed.height)])
            typed = typed.filter(keep)
        return typed, errors
