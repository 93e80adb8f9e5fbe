"""CSV cells that a spreadsheet cannot run: formula injection neutralised as OWASP advises.

A text cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is read by
Excel, LibreOffice and Google Sheets as a formula (``=HYPERLINK(...)``, ``@SUM(...)``), so such a
cell gets a leading ``'``, which every spreadsheet shows as text. Numbers stay numbers: a cell
that is a plain number (``-12``, ``+1.5``, ``-3e2``) cannot be a formula and is left as it is,
so negative rating changes in ``diff.csv`` still sort as numbers. Every CSV that arbiter writes
goes through :func:`csv_cell` (text rows) or :func:`neutralise_frame` (polars frames).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import polars as pl

__all__ = ["DANGEROUS_START", "csv_cell", "neutralise_frame"]

DANGEROUS_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
_IS_NUMBER = re.compile(_NUMBER)
_DANGER = r"^[=+\-@\t\r]"


def csv_cell(value: str) -> str:
    """``value`` safe as a CSV cell.

    >>> csv_cell("=HYPERLINK(1)"), csv_cell("@SUM(A1)"), csv_cell("-12"), csv_cell("-2+3")
    ("'=HYPERLINK(1)", "'@SUM(A1)", '-12', "'-2+3")
    >>> csv_cell("Smith, John"), csv_cell("")
    ('Smith, John', '')
    """
    if value.startswith(DANGEROUS_START) and not _IS_NUMBER.fullmatch(value):
        return "'" + value
    return value


def neutralise_frame(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with every text column's cells passed through the rule of :func:`csv_cell`;
    numeric columns are untouched."""
    import polars as pl  # only the writers of frames need it: a text row's CSV does not

    text = [
        name
        for name, dtype in frame.schema.items()
        if dtype == pl.String and frame.get_column(name).str.contains(_DANGER).any()
    ]  # most columns of a million rows have no such cell: they are not copied
    if not text:
        return frame
    return frame.with_columns(
        pl.when(pl.col(name).str.contains(_DANGER) & ~pl.col(name).str.contains(f"^{_NUMBER}$"))
        .then(pl.lit("'") + pl.col(name))
        .otherwise(pl.col(name))
        .alias(name)
        for name in text
    )
