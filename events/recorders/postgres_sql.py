"""The PostgreSQL store's storage primitives: `PostgresSession`, the PostgreSQL half of
`events.recorder.Session` (the shared SQL is `events.recorders.sql`).

Every primitive is one statement or a few on the connection it is given; the transaction, its
isolation and the append lock are the recorder's (`events.recorders.postgres`). Every primitive
that adds rows or changes the epoch also sends ``NOTIFY arbiter_events``, delivered at commit.
Frames travel through COPY (`events.recorders.pg_copy`, imported with polars only by the
primitives that move frames).
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg import sql
from psycopg.copy import QueuedLibpqWriter

from events.recorder import EventRow
from events.recorders.list_rows import DELETE_QUERY, ROW_QUERY, ListRows
from events.recorders.postgres_schema import CHANNEL
from events.recorders.session import CHAINED_SQL, Params, Session

if TYPE_CHECKING:
    import polars as pl

__all__ = ["PostgresSession"]

_EVENT_SELECT = (
    "global_position, stream_id, stream_version, event_id, event_type, schema_version, "
    "payload, metadata, recorded_at AT TIME ZONE 'UTC'"
)
_TRUNCATION_SELECT = (
    "truncation_id, stream_id, from_version, to_version, from_position, to_position, "
    "event_count, actor, reason, truncated_at AT TIME ZONE 'UTC', "
    "restored_at AT TIME ZONE 'UTC', restored_by"
)

_ROWS_INSERT = (
    f"INSERT INTO events ({CHAINED_SQL}) SELECT * FROM unnest(%s::bigint[], %s::text[], "
    "%s::bigint[], %s::text[], %s::text[], %s::integer[], %s::text[], %s::text[], "
    "%s::timestamptz[], %s::text[], %s::text[])"
)

_RECORDED_AT = CHAINED_SQL.split(", ").index("recorded_at")


@functools.lru_cache(maxsize=256)
def _pyformat(query: str) -> str:
    """A statement of `events.recorders.sql` (``?`` parameters) in psycopg's ``%s`` style."""
    return query.replace("%", "%%").replace("?", "%s")


def _like_prefix(prefix: str) -> str:
    """A LIKE pattern matching ``prefix`` literally, then anything."""
    return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


_LoadTable = Callable[[str, "pl.DataFrame", Mapping[str, "pl.DataType"]], None]
"""`PostgresSession.load_table`: a frame's rows into a table, by COPY."""


class PostgresSession(Session):
    """`events.recorders.session.Session` on a PostgreSQL connection."""

    bulk_part_rows = 10_000
    """See `events.recorders.pg_copy.COPY_CHUNK`."""
    event_select = _EVENT_SELECT
    truncation_select = _TRUNCATION_SELECT
    ids_match = "event_id = ANY(?)"

    def __init__(self, con: psycopg.Connection[Any]) -> None:
        self._con = con
        self.lists = PostgresListRows(con, self.load_table)

    def _rows(self, query: str, params: Params = ()) -> list[tuple[Any, ...]]:
        return self._con.execute(_pyformat(query), params).fetchall()

    def _run(self, query: str, params: Params = ()) -> None:
        self._con.execute(_pyformat(query), params)

    def _changed(self, what: object) -> None:
        self._con.execute("SELECT pg_notify(%s, %s)", [CHANNEL, str(what)])

    def _stamp(self) -> object:
        """The transaction's start, ``now()``, as SQL's own ``now()`` would write it."""
        return self.now().replace(tzinfo=dt.UTC)

    def _frame(self, query: sql.Composable, columns: Mapping[str, pl.DataType]) -> pl.DataFrame:
        from events.recorders.pg_copy import copy_out, read_csv

        return read_csv(copy_out(self._con, query), columns)

    # ---------------------------------------------------------------- reads

    def stream_heads(self, streams: pl.Series) -> pl.DataFrame:
        import polars as pl

        rows = self._con.execute(
            "SELECT DISTINCT ON (stream_id) stream_id, stream_version, stream_hash FROM events "
            "WHERE stream_id = ANY(%s) ORDER BY stream_id, stream_version DESC",
            [streams.to_list()],
        ).fetchall()
        schema = {"stream_id": pl.String(), "actual": pl.Int64(), "head": pl.String()}
        return pl.DataFrame(rows, schema=schema, orient="row")

    def read_frame(self, after_position: int, stream_prefix: str | None) -> pl.DataFrame:
        from events.columns import EVENT_COLUMNS
        from events.recorders.pg_copy import select_list

        where = sql.SQL("global_position > {}").format(sql.Literal(after_position))
        if stream_prefix:
            pattern = sql.Literal(_like_prefix(stream_prefix))
            where = sql.SQL("{} AND stream_id LIKE {}").format(where, pattern)
        query = sql.SQL("SELECT {} FROM events WHERE {} ORDER BY global_position").format(
            sql.SQL(select_list(EVENT_COLUMNS)), where
        )
        return self._frame(query, EVENT_COLUMNS)

    def streams(self, prefix: str) -> list[str]:
        rows = self._con.execute(
            "SELECT DISTINCT stream_id FROM events WHERE stream_id LIKE %s ORDER BY stream_id",
            [_like_prefix(prefix)],
        ).fetchall()
        return [str(r[0]) for r in rows]

    def table_frame(
        self, table: str, columns: Mapping[str, pl.DataType], order_by: str
    ) -> pl.DataFrame:
        from events.recorders.pg_copy import select_list

        query = f"SELECT {select_list(columns)} FROM {table} ORDER BY {order_by}"
        return self._frame(sql.SQL(query), columns)

    def scan_window(self, lo: int, hi: int) -> pl.DataFrame:
        from events.columns import CHAINED_EVENT_COLUMNS, SCAN_COLUMNS
        from events.recorders.pg_copy import select_list

        columns = select_list(CHAINED_EVENT_COLUMNS)
        window = sql.SQL(
            f"SELECT {columns}, 0 AS archived FROM events "
            "WHERE global_position >= {lo} AND global_position < {hi} UNION ALL "
            f"SELECT {columns}, 1 AS archived FROM events_archive "
            "WHERE global_position >= {lo} AND global_position < {hi}"
        ).format(lo=sql.Literal(lo), hi=sql.Literal(hi))
        return self._frame(window, SCAN_COLUMNS)

    # ---------------------------------------------------------------- writes

    def now(self) -> dt.datetime:
        """The transaction's start, ``now()``: what every row it writes records."""
        value: dt.datetime = self._value("SELECT now() AT TIME ZONE 'UTC'")
        return value

    def take(self, counter: str, count: int) -> int:
        return int(
            self._value(
                "UPDATE log_meta SET value = value + ? WHERE key = ? RETURNING value - ?",
                [count, counter, count],
            )
        )

    def insert_events(self, rows: Sequence[EventRow]) -> None:
        columns = [list(column) for column in zip(*(row.values() for row in rows), strict=True)]
        columns[_RECORDED_AT] = [row.recorded_at.replace(tzinfo=dt.UTC) for row in rows]
        self._con.execute(_ROWS_INSERT, columns)
        self._changed(rows[-1].global_position)

    def insert_frames(self, parts: Iterable[pl.DataFrame]) -> None:
        from events.columns import CHAINED_EVENT_COLUMNS
        from events.recorders.pg_copy import copy_lines

        # recorded_at is left to the column's default, now(): the transaction's start, the
        # very time the chains hashed (the server parses no timestamp per row).
        columns = [c for c in CHAINED_EVENT_COLUMNS if c != "recorded_at"]
        cursor = self._con.cursor()
        last = None
        # A queued writer sends each part from a second thread, so that the server takes in
        # one part while this thread hashes the next.
        with cursor.copy(
            sql.SQL("COPY events ({}) FROM STDIN").format(
                sql.SQL(", ").join(map(sql.Identifier, columns))
            ),
            writer=QueuedLibpqWriter(cursor),
        ) as copy:
            for part in parts:
                for chunk in copy_lines(part, {c: part.schema[c] for c in columns}):
                    copy.write(chunk)
                last = part.item(part.height - 1, "global_position")
        if last is not None:
            self._changed(last)

    def _delete_tail(self, stream_id: str, keep_through: int) -> None:
        # The one DELETE the append-only trigger lets through (see postgres_schema).
        self._con.execute("SELECT set_config('arbiter.truncating', 'on', true)")
        super()._delete_tail(stream_id, keep_through)
        self._con.execute("SELECT set_config('arbiter.truncating', 'off', true)")

    def restore_rows(self, truncation_id: int, rows: Sequence[tuple[int, int, str]]) -> None:
        versions, positions, hashes = (list(column) for column in zip(*rows, strict=True))
        self._con.execute(
            f"INSERT INTO events ({CHAINED_SQL}) "
            "SELECT c.position, a.stream_id, a.stream_version, a.event_id, a.event_type, "
            "a.schema_version, a.payload, a.metadata, a.recorded_at, a.stream_hash, c.hash "
            "FROM events_archive a JOIN unnest(%s::bigint[], %s::bigint[], %s::text[]) "
            "AS c(version, position, hash) ON a.stream_version = c.version "
            "WHERE a.truncation_id = %s",
            [versions, positions, hashes, truncation_id],
        )
        self._changed(max(positions))

    def load_table(
        self, table: str, frame: pl.DataFrame, columns: Mapping[str, pl.DataType]
    ) -> None:
        from events.recorders.pg_copy import copy_lines

        statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
            sql.Identifier(table), sql.SQL(", ").join(map(sql.Identifier, columns))
        )
        with self._con.cursor().copy(statement) as copy:
            for chunk in copy_lines(frame, columns):
                copy.write(chunk)


class PostgresListRows(ListRows):
    """`events.recorders.list_rows.ListRows` on a PostgreSQL session's connection (its COPY
    writes a list's rows, as an image's tables)."""

    def __init__(self, con: psycopg.Connection[Any], load_table: _LoadTable) -> None:
        self._con = con
        self._load_table = load_table

    def insert(self, frame: pl.DataFrame) -> None:
        from events.columns import LIST_ROW_COLUMNS

        self._load_table("rating_list_rows", frame, LIST_ROW_COLUMNS)

    def delete(self, list_name: str, list_date: dt.date) -> None:
        # The one DELETE the rows' trigger lets through (see postgres_schema): a --replace.
        self._con.execute("SELECT set_config('arbiter.replacing_list', 'on', true)")
        self._con.execute(_pyformat(DELETE_QUERY), [list_name, list_date])
        self._con.execute("SELECT set_config('arbiter.replacing_list', 'off', true)")

    def rows(self, list_name: str, list_date: dt.date) -> pl.DataFrame:
        from events.columns import LIST_ROW_COLUMNS
        from events.recorders.pg_copy import copy_out, read_csv, select_list

        query = sql.SQL(
            "SELECT {} FROM rating_list_rows WHERE list_name = {} AND list_date = {} "
            "ORDER BY player_id"
        ).format(
            sql.SQL(select_list(LIST_ROW_COLUMNS)), sql.Literal(list_name), sql.Literal(list_date)
        )
        return read_csv(copy_out(self._con, query), LIST_ROW_COLUMNS)

    def row(self, list_name: str, list_date: dt.date, player_id: str) -> tuple[Any, ...] | None:
        found: tuple[Any, ...] | None = self._con.execute(
            _pyformat(ROW_QUERY), [list_name, list_date, player_id]
        ).fetchone()
        return found
