"""The DuckDB store's storage primitives: `DuckDBSession`, the DuckDB half of
`events.recorder.Session` (the shared SQL is `events.recorders.sql`).

Every primitive is one statement or a few on the connection it is given; which transaction it
runs in, and under which lock, is the recorder's (`events.recorders.duckdb`). Frames come from
DuckDB's own polars export; polars and pyarrow are imported only by the primitives that take
or give frames, so single appends and reads load neither (several rows go in as one list
parameter per column, zipped by ``unnest``).
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import duckdb

from events.recorder import EventRow
from events.recorders.list_rows import DELETE_QUERY, LIST_ROWS_SQL, ROW_QUERY, ListRows
from events.recorders.session import CHAINED_SQL, EVENT_COLUMNS_SQL, Params, Session

if TYPE_CHECKING:
    import polars as pl

__all__ = ["DuckDBSession", "transaction", "utc_now"]

# `scan_window`: a window of positions of the log and the archive.
_SCAN_WINDOW = (
    f"SELECT {CHAINED_SQL}, 0 AS archived FROM events "
    "WHERE global_position >= $lo AND global_position < $hi UNION ALL "
    f"SELECT {CHAINED_SQL}, 1 AS archived FROM events_archive "
    "WHERE global_position >= $lo AND global_position < $hi"
)

_ROW_INSERT = f"INSERT INTO events ({CHAINED_SQL}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
_ROWS_INSERT = f"INSERT INTO events ({CHAINED_SQL}) SELECT " + ", ".join(
    ["unnest(?)"] * len(CHAINED_SQL.split(", "))
)
"""Several rows in one statement: a list parameter per column, zipped by ``unnest``."""

_RESTORE = (
    f"INSERT INTO events ({CHAINED_SQL}) "
    "SELECT c.position, a.stream_id, a.stream_version, a.event_id, a.event_type, "
    "a.schema_version, a.payload, a.metadata, a.recorded_at, a.stream_hash, c.hash "
    "FROM events_archive a JOIN (SELECT unnest(?::BIGINT[]) AS version, "
    "unnest(?::BIGINT[]) AS position, unnest(?::VARCHAR[]) AS hash) c "
    "ON a.stream_version = c.version WHERE a.truncation_id = ?"
)


def utc_now() -> dt.datetime:
    """Now in UTC, naive, as the DuckDB store records times."""
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


@contextlib.contextmanager
def transaction(con: duckdb.DuckDBPyConnection) -> Iterator[duckdb.DuckDBPyConnection]:
    """One DuckDB transaction: committed when the block ends, rolled back if it raises."""
    con.begin()
    try:
        yield con
    except BaseException:
        con.rollback()
        raise
    con.commit()


class DuckDBSession(Session):
    """`events.recorders.session.Session` on a DuckDB connection."""

    bulk_part_rows = None
    """DuckDB takes a bulk append's rows in one insert."""
    event_select = EVENT_COLUMNS_SQL
    truncation_select = "*"
    ids_match = "list_contains(?, event_id)"

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self._con = con
        self.lists = DuckDBListRows(con)

    def _rows(self, query: str, params: Params = ()) -> list[tuple[Any, ...]]:
        return self._con.execute(query, params).fetchall()

    def _run(self, query: str, params: Params = ()) -> None:
        self._con.execute(query, params).fetchall()

    def _stamp(self) -> object:
        return utc_now()

    @contextlib.contextmanager
    def _registered(self, name: str, frame: pl.DataFrame) -> Iterator[None]:
        """``frame`` visible to SQL as ``name`` for the block (through Arrow)."""
        self._con.register(name, frame.to_arrow())
        try:
            yield
        finally:
            with contextlib.suppress(duckdb.Error):  # an aborted transaction refuses it
                self._con.unregister(name)

    # ---------------------------------------------------------------- reads

    def stream_heads(self, streams: pl.Series) -> pl.DataFrame:
        # Only the streams' current versions are asked of DuckDB, with a plain join. (A single
        # query grouping the batch in a CTE and semi-joining the events on it never finished
        # in DuckDB 2.0 once the batch held ~64k streams and the store was not empty: the
        # executor waited at 0 % CPU for a task nobody scheduled, with the store's lock held.)
        with self._registered("_spans", streams.to_frame("stream_id")):
            frame: pl.DataFrame = self._con.sql(
                "SELECT e.stream_id, max(e.stream_version) AS actual, "
                "arg_max(e.stream_hash, e.stream_version) AS head FROM events e "
                "JOIN _spans s ON e.stream_id = s.stream_id GROUP BY e.stream_id"
            ).pl()
        return frame

    def read_frame(self, after_position: int, stream_prefix: str | None) -> pl.DataFrame:
        frame: pl.DataFrame = self._con.sql(
            f"SELECT {EVENT_COLUMNS_SQL} FROM events WHERE global_position > $after "
            "AND starts_with(stream_id, $prefix) ORDER BY global_position",
            params={"after": after_position, "prefix": stream_prefix or ""},
        ).pl()
        return frame

    def streams(self, prefix: str) -> list[str]:
        rows = self._rows(
            "SELECT DISTINCT stream_id FROM events WHERE starts_with(stream_id, ?) "
            "ORDER BY stream_id",
            [prefix],
        )
        return [str(r[0]) for r in rows]

    def table_frame(
        self, table: str, columns: Mapping[str, pl.DataType], order_by: str
    ) -> pl.DataFrame:
        import polars as pl

        select = ", ".join(columns)
        frame: pl.DataFrame = self._con.sql(
            f"SELECT {select} FROM {table} ORDER BY {order_by}"
        ).pl()
        return frame.cast(pl.Schema(columns))

    def scan_window(self, lo: int, hi: int) -> pl.DataFrame:
        import polars as pl

        from events.columns import SCAN_COLUMNS

        frame: pl.DataFrame = self._con.sql(_SCAN_WINDOW, params={"lo": lo, "hi": hi}).pl()
        return frame.cast(pl.Schema(SCAN_COLUMNS))

    # ---------------------------------------------------------------- writes

    def now(self) -> dt.datetime:
        return utc_now()

    def take(self, counter: str, count: int) -> int:
        first = self.counter(counter)
        self._run("UPDATE log_meta SET value = ? WHERE key = ?", [first + count, counter])
        return first

    def insert_events(self, rows: Sequence[EventRow]) -> None:
        if len(rows) == 1:  # the common case, a little cheaper as VALUES
            self._run(_ROW_INSERT, rows[0].values())
            return
        columns = [list(column) for column in zip(*(row.values() for row in rows), strict=True)]
        self._run(_ROWS_INSERT, columns)

    def insert_frames(self, parts: Iterable[pl.DataFrame]) -> None:
        for part in parts:
            with self._registered("_bulk", part):
                self._run(f"INSERT INTO events ({CHAINED_SQL}) SELECT {CHAINED_SQL} FROM _bulk")

    def restore_rows(self, truncation_id: int, rows: Sequence[tuple[int, int, str]]) -> None:
        versions, positions, hashes = (list(column) for column in zip(*rows, strict=True))
        self._run(_RESTORE, [versions, positions, hashes, truncation_id])

    def load_table(
        self, table: str, frame: pl.DataFrame, columns: Mapping[str, pl.DataType]
    ) -> None:
        names = ", ".join(columns)
        with self._registered("_image", frame):
            self._run(f"INSERT INTO {table} ({names}) SELECT {names} FROM _image")


class DuckDBListRows(ListRows):
    """`events.recorders.list_rows.ListRows` on a DuckDB connection."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self._con = con

    def insert(self, frame: pl.DataFrame) -> None:
        self._con.register("_list_rows", frame.to_arrow())
        try:
            self._con.execute(
                f"INSERT INTO rating_list_rows ({LIST_ROWS_SQL}) SELECT {LIST_ROWS_SQL} "
                "FROM _list_rows"
            ).fetchall()
        finally:
            with contextlib.suppress(duckdb.Error):  # an aborted transaction refuses it
                self._con.unregister("_list_rows")

    def delete(self, list_name: str, list_date: dt.date) -> None:
        self._con.execute(DELETE_QUERY, [list_name, list_date]).fetchall()

    def rows(self, list_name: str, list_date: dt.date) -> pl.DataFrame:
        import polars as pl

        from events.columns import LIST_ROW_COLUMNS

        frame: pl.DataFrame = self._con.sql(
            f"SELECT {LIST_ROWS_SQL} FROM rating_list_rows WHERE list_name = $name "
            "AND list_date = $date ORDER BY player_id",
            params={"name": list_name, "date": list_date},
        ).pl()
        return frame.cast(pl.Schema(LIST_ROW_COLUMNS))

    def row(self, list_name: str, list_date: dt.date, player_id: str) -> tuple[Any, ...] | None:
        return self._con.execute(ROW_QUERY, [list_name, list_date, player_id]).fetchone()
