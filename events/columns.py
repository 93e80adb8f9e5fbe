"""The polars schemas of the store's frames: bulk appends, reads, images, chain scans.

Importing this module imports polars; `events.store` hands these names out lazily (its module
``__getattr__``), so that the store's single-event paths never load polars.
"""

from __future__ import annotations

import polars as pl

__all__ = [
    "ARCHIVE_COLUMNS",
    "BULK_COLUMNS",
    "CHAINED_EVENT_COLUMNS",
    "EVENT_COLUMNS",
    "HASH_COLUMNS",
    "IMAGE_TABLES",
    "LIST_ROWS_ORDER",
    "LIST_ROW_COLUMNS",
    "SCAN_COLUMNS",
    "TRUNCATION_COLUMNS",
]

BULK_COLUMNS: dict[str, pl.DataType] = {
    "stream_id": pl.String(),
    "stream_version": pl.Int64(),
    "event_id": pl.String(),
    "event_type": pl.String(),
    "schema_version": pl.Int64(),
    "payload": pl.String(),
    "metadata": pl.String(),
}
"""Columns of a bulk-append frame, in order; `recorded_at` is filled by the store."""

EVENT_COLUMNS: dict[str, pl.DataType] = {
    "global_position": pl.Int64(),
    **BULK_COLUMNS,
    "recorded_at": pl.Datetime("us"),
}
"""Columns of `read_frame` and of a `LogImage`'s events, in order (`recorded_at` in UTC)."""

HASH_COLUMNS: dict[str, pl.DataType] = {"stream_hash": pl.String(), "log_hash": pl.String()}
"""The hash chains of the tamper-evident log (see `events.chain`)."""

CHAINED_EVENT_COLUMNS: dict[str, pl.DataType] = {**EVENT_COLUMNS, **HASH_COLUMNS}
"""Columns of a `LogImage`'s events: EVENT_COLUMNS and the chains."""

ARCHIVE_COLUMNS: dict[str, pl.DataType] = {"truncation_id": pl.Int64(), **CHAINED_EVENT_COLUMNS}

SCAN_COLUMNS: dict[str, pl.DataType] = {**CHAINED_EVENT_COLUMNS, "archived": pl.Int8()}
"""Columns of a `Store.chain_scan` frame: the log's and the archive's rows together, with
``archived`` 0 for a row of the log and 1 for one of the archive."""

TRUNCATION_COLUMNS: dict[str, pl.DataType] = {
    "truncation_id": pl.Int64(),
    "stream_id": pl.String(),
    "from_version": pl.Int64(),
    "to_version": pl.Int64(),
    "from_position": pl.Int64(),
    "to_position": pl.Int64(),
    "event_count": pl.Int64(),
    "actor": pl.String(),
    "reason": pl.String(),
    "truncated_at": pl.Datetime("us"),
    "restored_at": pl.Datetime("us"),
    "restored_by": pl.String(),
}

IMAGE_TABLES: tuple[tuple[str, dict[str, pl.DataType], str], ...] = (
    ("events", CHAINED_EVENT_COLUMNS, "global_position"),
    ("events_archive", ARCHIVE_COLUMNS, "truncation_id, stream_version"),
    ("truncations", TRUNCATION_COLUMNS, "truncation_id"),
)
"""The tables a `LogImage` carries, in its field order: (table, columns, order of rows)."""

LIST_ROW_COLUMNS: dict[str, pl.DataType] = {
    "list_name": pl.String(),
    "list_date": pl.Date(),
    "player_id": pl.String(),
    "name": pl.String(),
    "country": pl.String(),
    "sex": pl.String(),
    "title": pl.String(),
    "birth_year": pl.Int32(),
    "rating": pl.Float64(),
    "games": pl.Int32(),
    "k": pl.Int32(),
    "flag": pl.String(),
    "club": pl.String(),
    "grade": pl.String(),
    "expires": pl.Date(),
}
"""The ``rating_list_rows`` table: every imported list's players, one row per (list, date,
player), in this order. Each kind of list uses some of the columns under its own names
(`events.imported_lists.KINDS`: a FIDE list's ``federation`` is ``country``, an EGD list's
``gor`` is ``rating``, an AGA list's ``membership`` and ``state`` are ``flag`` and
``country``)."""

LIST_ROWS_ORDER = "list_name, list_date, player_id"
"""The order of the rows in an image, and of their digests."""
