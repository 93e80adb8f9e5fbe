"""Projection caches: polars tables kept in a local DuckDB file, with integer checkpoints.

A cache is never the truth: it holds what a projection computed from the log up to a
checkpoint, and is rebuilt from the log whenever it is missing, stale or of another version.
Each store says where its caches live (``Store.open_cache``): beside a DuckDB file, in memory
for an in-memory store, in the user's cache folder for a server. Projections use this module
and never open a database themselves.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import duckdb
import polars as pl

from events.errors import RetryableError

__all__ = ["CacheBusy", "TableCache", "cache_folder"]

Schema = Mapping[str, pl.DataType]


class CacheBusy(RetryableError):
    """Another process holds the cache file."""


_SQL_TYPES = {
    pl.Date(): "DATE",
    pl.Utf8(): "VARCHAR",
    pl.Float64(): "DOUBLE",
    pl.Int64(): "BIGINT",
    pl.Boolean(): "BOOLEAN",
}


def cache_folder() -> Path:
    """Where caches of server stores live: ``$ARBITER_CACHE_DIR``, else the XDG cache folder."""
    explicit = os.environ.get("ARBITER_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "arbiter"


def _connect(path: str, name: str, timeout: float) -> duckdb.DuckDBPyConnection:
    deadline = time.monotonic() + timeout
    while True:
        try:
            return duckdb.connect(path)
        except duckdb.IOException as exc:
            locked = "lock" in str(exc).lower()
            if not locked or time.monotonic() >= deadline:
                why = "held by another process" if locked else str(exc).splitlines()[0][:200]
                raise CacheBusy(
                    f"{path}: {name} cache is busy or unreadable: {why}; retry"
                ) from exc
            time.sleep(0.05)


class TableCache:
    """Named tables of fixed schemas plus an integer ``meta`` map, in one DuckDB file.

    >>> cache = TableCache(":memory:", {"t": {"a": pl.Int64()}})
    >>> cache.write(inserts={"t": pl.DataFrame({"a": [1, 2]})}, meta={"checkpoint": 2})
    >>> cache.read("t", ["a"], order_by=["a"])["a"].to_list(), cache.meta()
    ([1, 2], {'checkpoint': 2})
    """

    def __init__(
        self,
        path: str,
        tables: Mapping[str, Schema],
        *,
        name: str = "projection",
        timeout: float = 10.0,
    ) -> None:
        self.path = path
        self.name = name
        """What the cache holds, for messages (``games`` → "games cache is busy")."""
        self.tables = dict(tables)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._con = _connect(path, name, timeout)
        # Freed pages back to the system in DuckDB's own thread, as the store does
        # (`events.recorders.duckdb.DuckDBRecorder`).
        self._con.execute("SET allocator_background_threads = true")
        self._con.execute("CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value BIGINT)")
        self._create_tables()

    def _create_tables(self) -> None:
        for name, schema in self.tables.items():
            columns = ", ".join(f'"{c}" {_SQL_TYPES[dtype]}' for c, dtype in schema.items())
            self._con.execute(f"CREATE TABLE IF NOT EXISTS {name} ({columns})")

    def recreate(self) -> None:
        """Drop every table and the meta map and create them afresh (a cache of another
        projection version may have other columns)."""
        with self._transaction() as con:
            for name in self.tables:
                con.execute(f"DROP TABLE IF EXISTS {name}")
            con.execute("DELETE FROM meta")
        self._create_tables()

    def close(self) -> None:
        self._con.close()

    def __enter__(self) -> TableCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def meta(self) -> dict[str, int]:
        rows = self._con.execute("SELECT key, value FROM meta").fetchall()
        return {str(k): int(v) for k, v in rows}

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[duckdb.DuckDBPyConnection]:
        self._con.begin()
        try:
            yield self._con
        except BaseException:
            self._con.rollback()
            raise
        self._con.commit()

    def write(
        self,
        *,
        clear: bool = False,
        delete: Mapping[str, tuple[str, Sequence[str]]] | None = None,
        inserts: Mapping[str, pl.DataFrame] | None = None,
        meta: Mapping[str, int] | None = None,
    ) -> None:
        """In one transaction: empty every table (``clear``), delete rows whose ``column`` is
        in ``values`` (``delete={table: (column, values)}``), insert frames, set meta keys."""
        with self._transaction() as con:
            if clear:
                for name in self.tables:
                    con.execute(f"DELETE FROM {name}")
            for name, (column, values) in (delete or {}).items():
                if values:
                    con.execute(
                        f'DELETE FROM {name} WHERE list_contains(?, "{column}")', [list(values)]
                    )
            for name, frame in (inserts or {}).items():
                if frame.height == 0:
                    continue
                con.register("_rows", frame.to_arrow())
                try:
                    columns = ", ".join(f'"{c}"' for c in frame.columns)
                    con.execute(f"INSERT INTO {name} ({columns}) SELECT {columns} FROM _rows")
                finally:
                    con.unregister("_rows")
            for key, value in (meta or {}).items():
                con.execute(
                    "INSERT INTO meta VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = ?",
                    [key, value, value],
                )

    def read(
        self,
        table: str,
        columns: Sequence[str] | None = None,
        order_by: Sequence[str] = (),
        *,
        where: str = "",
        params: Mapping[str, object] | None = None,
    ) -> pl.DataFrame:
        """A table (or some of its columns) with the table's schema, optionally sorted; only
        the rows of the SQL condition ``where`` (its ``$name`` parameters in ``params``)."""
        schema = self.tables[table]
        wanted = list(columns) if columns is not None else list(schema)
        select = ", ".join(f'"{c}"' for c in wanted)
        order = f" ORDER BY {', '.join(order_by)}" if order_by else ""
        condition = f" WHERE {where}" if where else ""
        frame: pl.DataFrame = self._con.sql(
            f"SELECT {select} FROM {table}{condition}{order}", params=dict(params or {})
        ).pl()
        return frame.cast(pl.Schema({c: schema[c] for c in wanted}))

    def count(self, table: str) -> int:
        return int(self._con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0])
