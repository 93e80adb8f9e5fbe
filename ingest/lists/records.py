"""What a list reader gives: the lists one file holds, with their rows, and what it left out."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

import polars as pl

from events.imported_lists import Kind, kind_schema
from ingest.errors import IngestError

__all__ = ["ListFile", "Progress", "ReadList", "SourceFormat", "as_kind"]

Progress = Callable[[int], None]
"""Told the bytes read so far, as a big file is read."""


class SourceFormat(StrEnum):
    """The file formats a list is read from (`ingest.lists.detect`)."""

    FIDE_XML = "fide-xml"
    FIDE_TXT = "fide-txt"
    EGD_TXT = "egd-txt"
    EGD_HTML = "egd-html"
    AGA = "aga-tdlist"
    CSV = "csv"


@dataclass(frozen=True)
class ReadList:
    """One list of a file: its name (None when the file cannot say: a FIDE monthly list named
    without its rating type, a CSV; ``--list`` names it), its kind and rows (the kind's
    columns, `events.imported_lists.kind_schema`)."""

    name: str | None
    kind: Kind
    rows: pl.DataFrame


@dataclass(frozen=True)
class ListFile:
    """A list file read: its format, its lists (FIDE's combined files hold three), the date it
    states (None when it states none) and where it states it, and the rows left out
    (``--skip-bad-lines``), each a ``FILE:LINE:COL`` error."""

    path: str
    format: SourceFormat
    lists: tuple[ReadList, ...]
    date: dt.date | None = None
    date_source: str | None = None
    skipped: tuple[IngestError, ...] = ()
    sha256: str | None = None
    """The file's SHA-256 when the reader hashed its bytes as it read them (None: not)."""


def as_kind(kind: Kind, frame: pl.DataFrame) -> pl.DataFrame:
    """``frame``'s columns of ``kind``, in its order and types."""
    return frame.select(pl.col(n).cast(t) for n, t in kind_schema(kind).items())
