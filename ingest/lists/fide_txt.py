"""FIDE's fixed-width TXT lists: the combined ``players_list_foa.txt`` (standard, rapid and
blitz) and the one-type files (``standard_nov25frl.txt``, ``rapid_...``, ``blitz_...``).

The first line is the header; each field of a player's line lies under its header word, from
that word's column to the next word's (the header's positions, never fixed offsets: FIDE has
widened the name column before). The combined file's header::

    ID Number  Name ... Fed Sex Tit WTit OTit FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag

A one-type file names its rating column after the month (``NOV25``), which gives the list's
date; its games and K columns are ``Gms`` (or ``Gm``) and ``K``. The type is in the file's
name (``standard_``/``rapid_``/``blitz_``); a file named otherwise gives a list without a name
(``--list`` names it). A value that does not fit its column (a line shifted by a character or
two leaves digits in the neighbour's column) is refused at its line and column.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import polars as pl

from ingest.errors import IngestError
from ingest.lists.check import check
from ingest.lists.fide import RATING_FIELDS, SPECS, fide_lists
from ingest.lists.lines import Rows, numbered_lines, open_list
from ingest.lists.records import ListFile, Progress, SourceFormat

__all__ = ["HEADER_FIELDS", "list_month", "read_fide_txt"]

HEADER_FIELDS = {
    "ID Number": "fideid",
    "Name": "name",
    "Fed": "country",
    "Sex": "sex",
    "Tit": "title",
    "WTit": "w_title",
    "OTit": "o_title",
    "FOA": "foa_title",
    "SRtng": "rating",
    "SGm": "games",
    "SK": "k",
    "RRtng": "rapid_rating",
    "RGm": "rapid_games",
    "Rk": "rapid_k",
    "BRtng": "blitz_rating",
    "BGm": "blitz_games",
    "BK": "blitz_k",
    "B-day": "birthday",
    "Flag": "flag",
}
"""The combined file's header words, and the fields (`ingest.lists.fide.SPECS`) they head."""

_ONE_TYPE = {"Gms": "games", "Gm": "games", "K": "k"}
_MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
_MONTH = re.compile(r"^(" + "|".join(_MONTHS) + r")([0-9]{2})$", re.IGNORECASE)
_WORD = re.compile(r"ID Number|\S+")
_TYPE = re.compile(r"^(standard|rapid|blitz)_", re.IGNORECASE)
_FILE_MONTH = re.compile(r"(" + "|".join(_MONTHS) + r")([0-9]{2})", re.IGNORECASE)


def list_month(word: str) -> dt.date | None:
    """The first day of the month a word like ``NOV25`` names, else None."""
    match = _MONTH.match(word)
    if match is None:
        return None
    return dt.date(2000 + int(match.group(2)), _MONTHS.index(match.group(1).upper()) + 1, 1)


def looks_like(first_line: str) -> bool:
    """Whether a file's first line is a FIDE TXT list's header."""
    return first_line.startswith("ID Number") and " Fed " in first_line


def read_fide_txt(
    path: Path,
    shown: str | None = None,
    *,
    skip_bad_lines: bool = False,
    progress: Progress | None = None,
) -> ListFile:
    """A FIDE TXT list at ``path``: the combined file's three lists, or a one-type file's one.

    :raises IngestError: the header is not a FIDE list's; (`ListRowError`) a player's value
        breaks its rule, unless ``skip_bad_lines``.
    """
    shown = shown if shown is not None else str(path)
    lines = numbered_lines(open_list(path, shown), progress)
    header = next(lines, (1, ""))[1]
    if not looks_like(header):
        raise IngestError(
            shown, 1, 1, "not a FIDE TXT list", header[:40], "a header 'ID Number  Name ...'"
        )
    cuts: list[tuple[str, int]] = []
    month: dt.date | None = None
    for word in _WORD.finditer(header):
        name = HEADER_FIELDS.get(word.group()) or _ONE_TYPE.get(word.group())
        if name is None and (found := list_month(word.group())) is not None:
            name, month = "rating", found
        if name is None:
            raise IngestError(
                shown,
                1,
                word.start() + 1,
                "unknown column in the header",
                word.group(),
                "FIDE's columns (ID Number, Name, Fed, ..., SRtng, ..., B-day, Flag)",
            )
        cuts.append((name, word.start()))
    names = [n for n, _ in cuts]
    for needed in ("fideid", "name", "rating"):
        if needed not in names:
            raise IngestError(shown, 1, 1, f"the header has no {SPECS[needed].label} column")
    specs = [SPECS[n] for n in names]
    rows = Rows(shown, specs, skip_bad_lines)
    ends = [start for _, start in cuts[1:]] + [None]
    for number, line in lines:
        if not line.strip():
            continue
        fields: dict[str, tuple[str | None, int]] = {}
        for (name, start), end in zip(cuts, ends, strict=True):
            fields[name] = (line[start:end], start + 1)
        rows.add(number, fields)
    typed, skipped = rows.finish("fideid")
    schema = check(pl.DataFrame(schema=dict.fromkeys(SPECS, pl.String())), list(SPECS.values()))[
        0
    ].schema
    typed = typed.with_columns(
        pl.lit(None, dtype=schema[n]).alias(n) for n in SPECS if n not in typed.columns
    )
    if month is None:
        types, named = list(RATING_FIELDS), True
        date, date_source = None, None
    else:
        kind = _TYPE.match(path.name)
        types = [kind.group(1).lower()] if kind else ["standard"]
        named = kind is not None
        date, date_source = month, "the header's rating column"
    if date is None and (in_name := _FILE_MONTH.search(path.name)) is not None:
        date = list_month(in_name.group())
        date_source = "the file name"
    lists = fide_lists(typed, types, named=named)
    return ListFile(shown, SourceFormat.FIDE_TXT, tuple(lists), date, date_source, tuple(skipped))
