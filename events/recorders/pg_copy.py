"""Frames in and out of PostgreSQL through COPY: the PostgreSQL recorder's bulk paths.

Out: ``COPY (query) TO STDOUT`` as CSV, read back by polars with the wanted schema
(timestamps travel as epoch microseconds, so no time zone is parsed). In: rows formatted by
polars as COPY's text format, sent in chunks. Importing this module imports polars; the
recorder imports it only in the primitives that move frames.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from io import BytesIO
from typing import Any

import polars as pl
import psycopg
from psycopg import sql

__all__ = ["COPY_CHUNK", "copy_lines", "copy_out", "read_csv", "select_list"]

COPY_CHUNK = 10_000
"""Rows per part of a bulk append: hashed, formatted and sent while the server takes in the
one before. Small parts start the server sooner and leave it a short tail after the last
(measured on 1,000,000 events: 100,000-row parts 99-103k events/s, 10,000-row parts
113-119k; 2,000 or 5,000 no better)."""


def copy_out(con: psycopg.Connection[Any], query: sql.Composable) -> bytes:
    """The rows of ``query`` as CSV with a header."""
    buffer = BytesIO()
    with con.cursor().copy(
        sql.SQL("COPY ({}) TO STDOUT (FORMAT csv, HEADER)").format(query)
    ) as copy:
        for data in copy:
            buffer.write(data)
    return buffer.getvalue()


def select_list(columns: Mapping[str, pl.DataType]) -> str:
    """The select list that `read_csv` reads back as ``columns``: timestamps as epoch µs."""
    out = []
    for name, dtype in columns.items():
        if isinstance(dtype, pl.Datetime):
            out.append(f"(extract(epoch FROM {name}) * 1000000)::bigint AS {name}")
        else:
            out.append(name)
    return ", ".join(out)


def read_csv(data: bytes, schema: Mapping[str, pl.DataType]) -> pl.DataFrame:
    """A CSV of `copy_out` (selected with `select_list`) read back with the given schema."""
    read_as = {
        name: (pl.Int64() if isinstance(dtype, pl.Datetime) else dtype)
        for name, dtype in schema.items()
    }
    frame = pl.read_csv(BytesIO(data), schema=read_as, infer_schema=False)
    return frame.with_columns(
        pl.from_epoch(name, time_unit="us").alias(name)
        for name, dtype in schema.items()
        if isinstance(dtype, pl.Datetime)
    )


def _escape(column: str) -> pl.Expr:
    """A text column in COPY's text format (backslash, tab, newline, carriage return)."""
    return (
        pl.col(column)
        .str.replace_all("\\", "\\\\", literal=True)
        .str.replace_all("\t", "\\t", literal=True)
        .str.replace_all("\n", "\\n", literal=True)
        .str.replace_all("\r", "\\r", literal=True)
    )


def copy_lines(frame: pl.DataFrame, schema: Mapping[str, pl.DataType]) -> Iterator[bytes]:
    """The rows of ``frame`` as COPY text-format chunks (nulls as ``\\N``)."""
    fields = []
    for name, dtype in schema.items():
        if dtype == pl.String():
            expr = _escape(name)
        elif isinstance(dtype, pl.Datetime):
            expr = pl.col(name).dt.strftime("%Y-%m-%d %H:%M:%S%.6f") + pl.lit("+00")
        else:
            expr = pl.col(name).cast(pl.String)
        fields.append(expr.fill_null("\\N"))
    line = pl.concat_str(fields, separator="\t")
    for start in range(0, frame.height, COPY_CHUNK):
        chunk = frame.slice(start, COPY_CHUNK).select(line.alias("line"))
        yield (chunk.get_column("line").str.join("\n").item() + "\n").encode()
