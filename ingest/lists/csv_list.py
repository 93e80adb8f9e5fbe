"""A national list as CSV: a header naming the columns, then one player a row.

Columns (``id``, ``name`` and ``rating`` required, the others optional, any order)::

    id,name,federation,rating,sex,title,birth_year,games,k,flag,club

``rating`` is 0 .. 4000 (empty: unrated); ``sex`` M or F; ``birth_year`` four digits. The list
has no name of its own: ``--list NAME`` gives it (``NOR-elo``); nor a date: ``--date``.
"""

from __future__ import annotations

import csv
from pathlib import Path

from events.imported_lists import Kind
from ingest.errors import IngestError
from ingest.lists.check import Spec
from ingest.lists.errors import ListRowError
from ingest.lists.limits import BIRTH_YEARS, MAX_GAMES, MAX_K, MAX_RATING
from ingest.lists.lines import Rows, numbered_lines, open_list
from ingest.lists.records import ListFile, Progress, ReadList, SourceFormat, as_kind

__all__ = ["COLUMNS", "looks_like", "read_csv_list"]

COLUMNS = (
    Spec("id", "id", "id", required=True, pattern=r"^[A-Za-z0-9-]{1,16}$", expected="an id"),
    Spec("name", "text", "name", required=True),
    Spec("federation", "code", "federation", pattern=r"^[A-Z]{2,3}$", expected="NOR"),
    Spec("rating", "int", "rating", low=0, high=MAX_RATING),
    Spec("sex", "code", "sex", pattern=r"^[MFmf]$", expected="M or F"),
    Spec("title", "code", "title", pattern=r"^[A-Za-z]{1,4}$", expected="GM, IM ..."),
    Spec("birth_year", "year", "birth year", low=BIRTH_YEARS[0], high=BIRTH_YEARS[1]),
    Spec("games", "int", "games", low=0, high=MAX_GAMES),
    Spec("k", "int", "K", low=0, high=MAX_K),
    Spec("flag", "text", "flag"),
    Spec("club", "text", "club"),
)
"""The columns a national list may have, with their rules."""

_BY_NAME = {c.name: c for c in COLUMNS}


def looks_like(first_line: str) -> bool:
    """Whether a file's first line is a national list's CSV header."""
    names = {n.strip().lower() for n in first_line.split(",")}
    return {"id", "name", "rating"} <= names


def _cells(shown: str, number: int, line: str) -> list[str]:
    """The cells of one line (a list's row is one line: a quoted cell holds no line end).

    :raises ListRowError: a line the csv module cannot cut into cells.
    """
    try:
        return next(csv.reader([line]), [])
    except csv.Error as exc:
        raise ListRowError(shown, number, 1, f"not a CSV row ({exc})", line) from None


def read_csv_list(
    path: Path,
    shown: str | None = None,
    *,
    skip_bad_lines: bool = False,
    progress: Progress | None = None,
) -> ListFile:
    """The national CSV list at ``path`` (a list without a name: ``--list`` names it).

    :raises IngestError: the header lacks a required column or names an unknown one;
        (`ListRowError`) a row is wrong, unless ``skip_bad_lines``.
    """
    shown = shown if shown is not None else str(path)
    lines = numbered_lines(open_list(path, shown), progress)
    _, header_line = next(lines, (1, ""))
    header = [h.strip().lower() for h in _cells(shown, 1, header_line)]
    at = 1
    for name in header:
        if name not in _BY_NAME:
            raise IngestError(
                shown, 1, at, "unknown column", name, ", ".join(c.name for c in COLUMNS)
            )
        at += len(name) + 1
    for needed in ("id", "name", "rating"):
        if needed not in header:
            raise IngestError(shown, 1, 1, f"the header has no {needed} column", header_line)
    rows = Rows(shown, COLUMNS, skip_bad_lines)
    for number, line in lines:
        if not line.strip():
            continue
        values = _cells(shown, number, line)
        if len(values) != len(header):
            rows.refuse(
                number, len(line) + 1, f"{len(values)} fields", line, f"{len(header)} fields"
            )
            continue
        fields: dict[str, tuple[str | None, int]] = {}
        at = 1
        for name, value in zip(header, values, strict=True):
            fields[name] = (value, at)
            at += len(value) + 1
        rows.add(number, fields)
    typed, skipped = rows.finish("id")
    frame = typed.rename({"id": "player_id"}).with_columns(
        typed.get_column("sex").str.to_uppercase(), typed.get_column("title").str.to_uppercase()
    )
    read = ReadList(None, Kind.NATIONAL, as_kind(Kind.NATIONAL, frame))
    return ListFile(shown, SourceFormat.CSV, (read,), skipped=tuple(skipped))
