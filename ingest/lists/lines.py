"""What the line-based list readers (FIDE TXT, EGD, AGA, CSV) share: the file read as numbered
lines, the raw values of each row with where each value starts, and the check of them.

A reader cuts each data line into raw text fields (`Rows.add`) and says where each field starts
(1-based column); `Rows.finish` checks every column (`ingest.lists.check`) and turns a refused
value into a `ListRowError` at its line and column, in line order. Without
``skip_bad_lines`` the first is raised and nothing is read; with it the bad rows are left out
and listed.
"""

from __future__ import annotations

import codecs
import os
import re
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import polars as pl

from ingest.errors import IngestError
from ingest.limits import file_kind
from ingest.lists.check import Spec, check
from ingest.lists.errors import ListRowError
from ingest.lists.limits import MAX_LINE_BYTES, MAX_LIST_BYTES, MAX_LIST_PLAYERS
from ingest.lists.records import Progress
from ingest.textio import FALLBACK_ENCODING

__all__ = ["ListText", "Rows", "numbered_lines", "open_list"]


@dataclass(frozen=True, slots=True)
class ListText:
    """A list file checked in a first pass over its bytes (`open_list`): a regular file of at
    most `MAX_LIST_BYTES`, no line longer than `MAX_LINE_BYTES`, and the encoding its lines
    are read in (UTF-8, else ISO-8859-15: FIDE's and the EGD's older files)."""

    path: Path
    shown: str
    encoding: str
    size: int


_TOO_LARGE = f"larger than {MAX_LIST_BYTES // 2**30} GiB: not a rating list"
_BLOCK = 1 << 20
"""Bytes read at a time: a list is read as a stream, never whole (FIDE's are ~100 MB)."""


def _open(path: Path, shown: str) -> BinaryIO:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as exc:
        raise IngestError(shown, 0, 0, f"cannot open: {exc.strerror}") from None
    handle = os.fdopen(fd, "rb")
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        handle.close()
        raise IngestError(shown, 0, 0, f"not a regular file ({file_kind(info.st_mode)})")
    if info.st_size > MAX_LIST_BYTES:
        handle.close()
        raise IngestError(shown, 0, 0, _TOO_LARGE)
    return handle


def open_list(path: Path, shown: str) -> ListText:
    """A list file checked in blocks (`ListText`): memory stays bounded whatever the file
    holds (a gigabyte without a line end is refused at its line, past the limit).

    :raises IngestError: not a regular file, too large, or a line longer than
        `MAX_LINE_BYTES`.
    """
    utf8 = codecs.getincrementaldecoder("utf-8")()
    valid = True
    line, length, size = 1, 0, 0
    after_cr = False
    with _open(path, shown) as handle:
        while block := handle.read(_BLOCK):
            if size == 0 and block.startswith(codecs.BOM_UTF8):
                block = block[3:]
            size += len(block)
            if valid:
                try:
                    utf8.decode(block)
                except UnicodeDecodeError:
                    valid = False
            if after_cr and block.startswith(b"\n"):  # the LF of a CRLF cut by the block
                block = block[1:]
            first = _LINE_BREAK.search(block)
            if first is None:
                length += len(block)
                if length > MAX_LINE_BYTES:
                    raise _too_long(shown, line)
                after_cr = False
                continue
            if length + first.start() > MAX_LINE_BYTES:
                raise _too_long(shown, line)
            last = max(block.rfind(b"\n"), block.rfind(b"\r")) + 1
            inner = block[first.start() : last]
            if max(map(len, inner.splitlines())) > MAX_LINE_BYTES:
                for n, piece in enumerate(inner.splitlines()):
                    if len(piece) > MAX_LINE_BYTES:
                        raise _too_long(shown, line + n)
            line += inner.count(b"\n") + inner.count(b"\r") - inner.count(b"\r\n")
            length = len(block) - last
            if length > MAX_LINE_BYTES:
                raise _too_long(shown, line)
            after_cr = block.endswith(b"\r")
        if valid:
            try:
                utf8.decode(b"", final=True)
            except UnicodeDecodeError:
                valid = False
    return ListText(path, shown, "utf-8" if valid else FALLBACK_ENCODING, size)


def _too_long(shown: str, line: int) -> IngestError:
    return IngestError(
        shown,
        line,
        MAX_LINE_BYTES + 1,
        f"a line longer than {MAX_LINE_BYTES // 1024} KiB: no row of a rating list",
        expected=f"one player a line, at most {MAX_LINE_BYTES} bytes",
    )


_LINE_BREAK = re.compile(rb"[\r\n]")


def numbered_lines(text: ListText, progress: Progress | None = None) -> Iterator[tuple[int, str]]:
    """(1-based number, text) of each line of a checked list file (`open_list`), read again
    in blocks and decoded in its encoding; CR, LF or CRLF alike."""
    decoder = codecs.getincrementaldecoder(text.encoding)()
    number = 0
    done = 0
    tail = ""
    with _open(text.path, text.shown) as handle:
        first = True
        while True:
            block = handle.read(_BLOCK)
            final = not block
            if first and block.startswith(codecs.BOM_UTF8):
                block = block[3:]
            first = False
            done += len(block)
            chunk = tail + decoder.decode(block, final=final)
            if not final and chunk.endswith("\r"):  # perhaps the first half of a CRLF
                tail, chunk = "\r", chunk[:-1]
            else:
                tail = ""
            if "\r" in chunk:
                chunk = chunk.replace("\r\n", "\n").replace("\r", "\n")
            lines = chunk.split("\n")
            if not final:
                tail = lines.pop() + tail
                if len(tail) > MAX_LINE_BYTES:  # the file grew since `open_list`
                    raise _too_long(text.shown, number + 1)
            for line in lines:
                number += 1
                if progress is not None and number % 200_000 == 0:
                    progress(done)
                yield number, line
            if final:
                break
    if progress is not None:
        progress(text.size)


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
