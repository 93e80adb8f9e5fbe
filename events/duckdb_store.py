"""The embedded event store: one DuckDB file, one writing process at a time.

DuckDB locks the file per process, so commands open the store, do their work and close it; a
second process retries the open with backoff for a bounded time and then gets `StoreBusy`.
Positions come from a counter kept in the same transaction as the append, so they are never
reused, not even after a truncation.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import random
import re
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Self

import duckdb
import polars as pl

from events import chain, ticket_lock
from events.cache import TableCache
from events.schema import schema_version
from events.store import (
    ARCHIVE_COLUMNS,
    BULK_COLUMNS,
    CHAINED_EVENT_COLUMNS,
    COUNTERS,
    SCAN_COLUMNS,
    TRUNCATION_COLUMNS,
    AppendResult,
    EventIdConflict,
    LogImage,
    NewEvent,
    RecordedEvent,
    RestoreRefused,
    StoreBusy,
    StoreError,
    StoreNotInitialized,
    Truncation,
    WrongExpectedVersion,
)

_EVENT_COLUMNS = (
    "global_position, stream_id, stream_version, event_id, event_type, schema_version, "
    "payload, metadata, recorded_at"
)

# Versioned schema: migration n brings a store from version n-1 to n. Version 1 is the layout
# of the first release (files made before the version table existed are at version 1).
_MIGRATIONS: tuple[tuple[int, str, str], ...] = (
    (
        1,
        "events, counters, truncations, archive",
        """
CREATE TABLE IF NOT EXISTS log_meta (key VARCHAR PRIMARY KEY, value BIGINT NOT NULL);
INSERT INTO log_meta VALUES ('next_position', 1), ('epoch', 0), ('next_truncation', 1)
    ON CONFLICT DO NOTHING;
CREATE TABLE IF NOT EXISTS events (
    global_position BIGINT NOT NULL,
    stream_id VARCHAR NOT NULL,
    stream_version BIGINT NOT NULL,
    event_id VARCHAR NOT NULL UNIQUE,
    event_type VARCHAR NOT NULL,
    schema_version BIGINT NOT NULL,
    payload VARCHAR NOT NULL,
    metadata VARCHAR NOT NULL,
    recorded_at TIMESTAMP NOT NULL,
    PRIMARY KEY (stream_id, stream_version)
);
CREATE TABLE IF NOT EXISTS truncations (
    truncation_id BIGINT PRIMARY KEY,
    stream_id VARCHAR NOT NULL,
    from_version BIGINT NOT NULL,
    to_version BIGINT NOT NULL,
    from_position BIGINT NOT NULL,
    to_position BIGINT NOT NULL,
    event_count BIGINT NOT NULL,
    actor VARCHAR NOT NULL,
    reason VARCHAR NOT NULL,
    truncated_at TIMESTAMP NOT NULL,
    restored_at TIMESTAMP,
    restored_by VARCHAR
);
CREATE TABLE IF NOT EXISTS events_archive (
    truncation_id BIGINT NOT NULL,
    global_position BIGINT NOT NULL,
    stream_id VARCHAR NOT NULL,
    stream_version BIGINT NOT NULL,
    event_id VARCHAR NOT NULL,
    event_type VARCHAR NOT NULL,
    schema_version BIGINT NOT NULL,
    payload VARCHAR NOT NULL,
    metadata VARCHAR NOT NULL,
    recorded_at TIMESTAMP NOT NULL
);
""",
    ),
)

_MIGRATIONS += (
    (
        2,
        "hash chains: stream_hash and log_hash on every event (tamper-evident log)",
        """
ALTER TABLE events ADD COLUMN stream_hash VARCHAR;
ALTER TABLE events ADD COLUMN log_hash VARCHAR;
ALTER TABLE events_archive ADD COLUMN stream_hash VARCHAR;
ALTER TABLE events_archive ADD COLUMN log_hash VARCHAR;
""",
    ),
)

SCHEMA_VERSION = _MIGRATIONS[-1][0]

_CHAINED_COLUMNS = f"{_EVENT_COLUMNS}, stream_hash, log_hash"

# `chain_scan`: a window of positions of the log and the archive, the lowest position held at
# or above $p, and the (stream, version)s that two rows may hold.
_SCAN_WINDOW = (
    f"SELECT {_CHAINED_COLUMNS}, 0 AS archived FROM events "
    "WHERE global_position >= $lo AND global_position < $hi UNION ALL "
    f"SELECT {_CHAINED_COLUMNS}, 1 AS archived FROM events_archive "
    "WHERE global_position >= $lo AND global_position < $hi"
)
_SCAN_FIRST = (
    "SELECT least((SELECT min(global_position) FROM events WHERE global_position >= $p), "
    "(SELECT min(global_position) FROM events_archive WHERE global_position >= $p))"
)
_SCAN_REPEATED = "SELECT DISTINCT stream_id, stream_version FROM events_archive"

# Inserts name their columns, so that a migration may add one (e.g. a hash chain).
_TRUNCATION_INSERT = (
    "truncation_id, stream_id, from_version, to_version, from_position, to_position, "
    "event_count, actor, reason, truncated_at"
)

_LOCK_PID = re.compile(r"PID (\d+)")

DEFAULT_STORE = "arbiter.duckdb"


def default_store_path() -> str:
    return os.environ.get("ARBITER_STORE", DEFAULT_STORE)


def _now() -> dt.datetime:
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


def _first(rows: list[tuple[Any, ...]]) -> tuple[Any, ...] | None:
    """The first row, having consumed the whole result (DuckDB 2 results stream)."""
    return rows[0] if rows else None


def _row_to_event(row: tuple[Any, ...]) -> RecordedEvent:
    return RecordedEvent(*row)


def _connect(path: str, timeout: float) -> duckdb.DuckDBPyConnection:
    """Open the file, retrying while another process holds its lock."""
    deadline = time.monotonic() + timeout
    delay = 0.01
    while True:
        try:
            return duckdb.connect(path)
        except duckdb.IOException as exc:
            text = str(exc)
            if "lock" not in text.lower():
                raise StoreError(f"cannot open store {path}: {text.splitlines()[0]}") from exc
            if time.monotonic() >= deadline:
                match = _LOCK_PID.search(text)
                raise StoreBusy(path, int(match.group(1)) if match else None) from exc
            time.sleep(delay * (1 + random.random()))
            delay = min(delay * 2, 0.25)


def _backfill_chains(con: duckdb.DuckDBPyConnection) -> None:
    """Compute the hash chains of the events a store held before it had them."""
    history = con.sql(
        f"SELECT {_EVENT_COLUMNS}, NULL::BIGINT AS truncation_id FROM events UNION ALL "
        f"SELECT {_EVENT_COLUMNS}, truncation_id FROM events_archive "
        "ORDER BY global_position, truncation_id NULLS FIRST"
    ).pl()
    if history.height == 0:
        return
    chained = chain.chain_rows(history, {}, chain.GENESIS)
    con.register(
        "_chains",
        chained.select("global_position", "truncation_id", "stream_hash", "log_hash").to_arrow(),
    )
    try:
        con.execute(
            "UPDATE events SET stream_hash = c.stream_hash, log_hash = c.log_hash FROM _chains c "
            "WHERE c.truncation_id IS NULL AND events.global_position = c.global_position"
        )
        con.execute(
            "UPDATE events_archive SET stream_hash = c.stream_hash, log_hash = c.log_hash "
            "FROM _chains c WHERE events_archive.truncation_id = c.truncation_id "
            "AND events_archive.global_position = c.global_position"
        )
    finally:
        con.unregister("_chains")


def _log_hash_at(con: duckdb.DuckDBPyConnection, position: int) -> str:
    """The log hash at ``position``, in the log or (after a truncation) the archive."""
    if position <= 0:
        return chain.GENESIS
    row = _first(
        con.execute(
            "SELECT log_hash FROM events WHERE global_position = $p UNION ALL "
            "SELECT log_hash FROM events_archive WHERE global_position = $p LIMIT 1",
            {"p": position},
        ).fetchall()
    )
    return str(row[0]) if row is not None and row[0] is not None else chain.GENESIS


class DuckDBStore:
    """`Store` on a DuckDB file (or `:memory:`)."""

    def __init__(self, path: str | Path | None = None, *, busy_timeout: float | None = None):
        self.path = str(path) if path is not None else default_store_path()
        self.url = self.path
        if busy_timeout is None:
            busy_timeout = float(os.environ.get("ARBITER_STORE_TIMEOUT", "10"))
        self._busy_timeout = busy_timeout
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._queued = False
        if self.path != ":memory:" and os.environ.get("ARBITER_STORE_QUEUE", "1") != "0":
            # Processes wait for the file in arrival order (events.ticket_lock), then open it.
            # ARBITER_STORE_QUEUE=0 turns the queue off (the benchmark's "before").
            started = time.monotonic()
            holder = ticket_lock.enter(self.path, busy_timeout)
            if holder is not None:
                raise StoreBusy(self.path, holder or None)
            self._queued = True
            busy_timeout = max(0.0, busy_timeout - (time.monotonic() - started))
        try:
            self._con = _connect(self.path, busy_timeout)
        except BaseException:
            self._leave_queue()
            raise
        self._lock = threading.Lock()
        self._configure()
        try:
            self.migrated = self._migrate()
        except BaseException:
            self.close()
            raise

    def _migrate(self) -> tuple[int, int]:
        """Create or bring the schema up to date; (version before, version now)."""
        tables = {
            str(r[0])
            for r in self._con.execute("SELECT table_name FROM duckdb_tables()").fetchall()
        }
        if "schema_migrations" in tables:
            rows = self._con.execute("SELECT max(version) FROM schema_migrations").fetchall()
            found = int(rows[0][0] or 0)
        else:
            found = 1 if "truncations" in tables else 0
            columns = self._con.execute(
                "SELECT count(*) FROM duckdb_columns() WHERE table_name = 'events' "
                "AND column_name = 'log_hash'"
            ).fetchall()
            if found and columns[0][0]:
                found = 2
        if found > SCHEMA_VERSION:
            raise StoreNotInitialized(
                f"store {self.path} has schema version {found}, newer than this arbiter's "
                f"{SCHEMA_VERSION}; upgrade arbiter"
            )
        if found == SCHEMA_VERSION and "schema_migrations" in tables:
            return found, found
        legacy = "schema_migrations" not in tables
        with transaction(self._con) as con:
            con.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, "
                "description VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)"
            )
            for version, description, sql in _MIGRATIONS:
                if version > found:
                    con.execute(sql)
                    if version == 2:
                        _backfill_chains(con)
                elif not legacy:
                    continue
                con.execute(
                    "INSERT INTO schema_migrations VALUES (?, ?, ?)",
                    [version, description, _now()],
                )
        return found, SCHEMA_VERSION

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _leave_queue(self) -> None:
        if self._queued:
            self._queued = False
            ticket_lock.leave(self.path)

    def close(self) -> None:
        try:
            self._con.close()
        finally:
            self._leave_queue()

    def checkpoint(self) -> None:
        """Write everything into the file itself (no WAL beside it), e.g. for a backup."""
        with self._turn():
            self._con.execute("FORCE CHECKPOINT")

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[duckdb.DuckDBPyConnection]:
        with self._turn(), transaction(self._con) as con:
            yield con

    @contextlib.contextmanager
    def _turn(self) -> Iterator[None]:
        """This store's lock, after giving way to any process queued for the file meanwhile:
        a long-running command (an ingest, a rating run) lets a director's `standings` or
        `result` in between two of its store operations instead of holding the file for its
        whole run. It then queues again, behind them."""
        with self._lock:
            if self._queued and ticket_lock.others_waiting(self.path):
                self._give_way()
            yield

    def _give_way(self) -> None:
        self._con.close()
        self._queued = False
        ticket_lock.leave(self.path)
        holder = ticket_lock.enter(self.path, self._busy_timeout)
        if holder is not None:
            self._con = duckdb.connect(":memory:")  # closed by close(); the file is not ours
            raise StoreBusy(self.path, holder or None)
        self._queued = True
        self._con = _connect(self.path, self._busy_timeout)
        self._configure()

    def _configure(self) -> None:
        # Commands open and close the file each time; a checkpoint at every close would cost
        # more than the command. Commits are still fsynced to the WAL, and a small threshold
        # keeps the WAL (replayed at open) short.
        self._con.execute("PRAGMA disable_checkpoint_on_shutdown")
        self._con.execute("SET checkpoint_threshold = '1MB'")

    def _meta(self, con: duckdb.DuckDBPyConnection, key: str) -> int:
        row = _first(con.execute("SELECT value FROM log_meta WHERE key = ?", [key]).fetchall())
        assert row is not None
        return int(row[0])

    def _take(self, con: duckdb.DuckDBPyConnection, key: str, count: int) -> int:
        """Reserve `count` numbers of a counter; returns the first."""
        first = self._meta(con, key)
        con.execute("UPDATE log_meta SET value = ? WHERE key = ?", [first + count, key])
        return first

    def _stream_head(self, con: duckdb.DuckDBPyConnection, stream_id: str) -> tuple[int, str]:
        """The stream's last version (-1 when new) and its stream hash."""
        row = _first(
            con.execute(
                "SELECT stream_version, stream_hash FROM events WHERE stream_id = ? "
                "ORDER BY stream_version DESC LIMIT 1",
                [stream_id],
            ).fetchall()
        )
        if row is None:
            return -1, chain.GENESIS
        return int(row[0]), str(row[1] or chain.GENESIS)

    def _version(self, con: duckdb.DuckDBPyConnection, stream_id: str) -> int:
        row = _first(
            con.execute(
                "SELECT coalesce(max(stream_version), -1) FROM events WHERE stream_id = ?",
                [stream_id],
            ).fetchall()
        )
        assert row is not None
        return int(row[0])

    # ---------------------------------------------------------------- appends

    def append(
        self, stream_id: str, events: Sequence[NewEvent], expected_version: int
    ) -> AppendResult:
        if not events:
            return AppendResult(stream_id, expected_version + 1, expected_version, ())
        with self._transaction() as con:
            ids = [e.event_id for e in events]
            existing = con.execute(
                "SELECT event_id, payload, stream_version, global_position FROM events "
                "WHERE list_contains(?, event_id) ORDER BY stream_version",
                [ids],
            ).fetchall()
            if existing:
                return self._duplicate(stream_id, events, existing)
            actual, prev_stream = self._stream_head(con, stream_id)
            if actual != expected_version:
                raise WrongExpectedVersion(stream_id, expected_version, actual)
            first = self._take(con, "next_position", len(events))
            prev_log = _log_hash_at(con, first - 1)
            now = _now()
            when = chain.time_text(now)
            rows = []
            for i, e in enumerate(events):
                version = expected_version + 1 + i
                payload = e.payload()
                meta = json.dumps(e.metadata, sort_keys=True)
                sv = schema_version(e.event_type)
                record = chain.record_text(
                    stream_id, version, e.event_id, e.event_type, sv, when, payload, meta
                )
                prev_stream = chain.stream_hash(prev_stream, record)
                prev_log = chain.log_hash(prev_log, first + i, prev_stream)
                rows.append(
                    (
                        first + i,
                        stream_id,
                        version,
                        e.event_id,
                        e.event_type,
                        sv,
                        payload,
                        meta,
                        now,
                        prev_stream,
                        prev_log,
                    )
                )
            if len(rows) == 1:
                con.execute(
                    f"INSERT INTO events ({_CHAINED_COLUMNS}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    rows[0],
                )
            else:
                import pyarrow as pa  # only batches need it; single events skip the import

                table = pa.Table.from_pylist(
                    [dict(zip(_CHAINED_COLUMNS.split(", "), r, strict=True)) for r in rows]
                )
                con.register("_batch", table)
                try:
                    con.execute(
                        f"INSERT INTO events ({_CHAINED_COLUMNS}) "
                        f"SELECT {_CHAINED_COLUMNS} FROM _batch"
                    )
                finally:
                    with contextlib.suppress(duckdb.Error):  # an aborted transaction refuses it
                        con.unregister("_batch")
        return AppendResult(
            stream_id,
            expected_version + 1,
            expected_version + len(events),
            tuple(r[0] for r in rows),
        )

    @staticmethod
    def _duplicate(
        stream_id: str, events: Sequence[NewEvent], existing: list[tuple[Any, ...]]
    ) -> AppendResult:
        stored = {row[0]: row[1] for row in existing}
        if len(stored) != len(events):
            raise EventIdConflict(
                f"stream {stream_id}: {len(stored)} of {len(events)} event ids are already "
                "in the log; a batch is appended whole or not at all"
            )
        for e in events:
            if stored[e.event_id] != e.payload():
                raise EventIdConflict(
                    f"event id {e.event_id} is already in the log with another payload"
                )
        return AppendResult(
            stream_id,
            int(existing[0][2]),
            int(existing[-1][2]),
            tuple(int(r[3]) for r in existing),
            duplicate=True,
        )

    def append_frame(self, frame: pl.DataFrame) -> int:
        if frame.height == 0:
            return 0
        frame = frame.select([pl.col(name).cast(dtype) for name, dtype in BULK_COLUMNS.items()])
        spans = frame.group_by("stream_id").agg(
            pl.col("stream_version").min().alias("lo"),
            pl.col("stream_version").max().alias("hi"),
            pl.len().alias("n"),
        )
        try:
            with self._transaction() as con:
                con.register("_spans", spans.select("stream_id").to_arrow())
                heads = self._check_bulk_versions(con, spans)
                first = self._take(con, "next_position", frame.height)
                rows = frame.select(
                    pl.int_range(first, first + frame.height, dtype=pl.Int64).alias(
                        "global_position"
                    ),
                    *BULK_COLUMNS,
                    pl.lit(_now(), dtype=pl.Datetime("us")).alias("recorded_at"),
                )
                rows = chain.chain_rows(rows, heads, _log_hash_at(con, first - 1))
                con.register("_bulk", rows.to_arrow())
                con.execute(
                    f"INSERT INTO events ({_CHAINED_COLUMNS}) SELECT {_CHAINED_COLUMNS} FROM _bulk"
                )
        except duckdb.ConstraintException as exc:
            raise EventIdConflict(
                f"bulk append rejected, nothing appended: {str(exc).splitlines()[0]}"
            ) from exc
        finally:
            for name in ("_bulk", "_spans"):
                with contextlib.suppress(duckdb.Error):
                    self._con.unregister(name)
        return frame.height

    @staticmethod
    def _check_bulk_versions(con: duckdb.DuckDBPyConnection, spans: pl.DataFrame) -> dict[str, str]:
        """Every stream in the batch must continue its stored version without gaps.

        The batch's spans are computed by polars and only the streams' current versions are
        asked of DuckDB, with a plain join. (The earlier single query, a CTE grouping the batch
        and a SEMI JOIN of the events on it, never finished in DuckDB 2.0 once the batch held
        ~64k streams and the store was not empty: the executor waited at 0 % CPU for a task
        nobody scheduled, with the store's lock held.)

        Returns the stream hash of each existing stream's last version.
        """
        current: pl.DataFrame = con.sql(
            "SELECT e.stream_id, max(e.stream_version) AS actual, "
            "arg_max(e.stream_hash, e.stream_version) AS head FROM events e "
            "JOIN _spans s ON e.stream_id = s.stream_id GROUP BY e.stream_id"
        ).pl()
        joined = spans.join(
            current.select("stream_id", "actual").cast(
                {"stream_id": pl.String(), "actual": pl.Int64()}
            ),
            on="stream_id",
            how="left",
        ).with_columns(pl.col("actual").fill_null(-1))
        gap = pl.col("lo") != pl.col("actual") + 1
        holes = pl.col("hi") - pl.col("lo") + 1 != pl.col("n")
        bad = joined.filter(gap | holes).sort("stream_id")
        if bad.height:
            stream, lo, hi, n, actual = bad.select("stream_id", "lo", "hi", "n", "actual").row(0)
            if lo != actual + 1:
                raise WrongExpectedVersion(str(stream), int(lo) - 1, int(actual))
            raise StoreError(f"bulk append: stream {stream} has {n} rows for versions {lo}..{hi}")
        return {
            str(stream): str(head or chain.GENESIS)
            for stream, head in current.select("stream_id", "head").iter_rows()
        }

    # ---------------------------------------------------------------- reads

    def stream_version(self, stream_id: str) -> int:
        with self._turn():
            return self._version(self._con, stream_id)

    def read_stream(self, stream_id: str, to_version: int | None = None) -> list[RecordedEvent]:
        limit = to_version if to_version is not None else 2**62
        with self._turn():
            rows = self._con.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream_id = ? "
                "AND stream_version <= ? ORDER BY stream_version",
                [stream_id, limit],
            ).fetchall()
        return [_row_to_event(r) for r in rows]

    def read_all(self, after_position: int = 0, limit: int | None = None) -> list[RecordedEvent]:
        with self._turn():
            rows = self._con.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE global_position > ? "
                "ORDER BY global_position LIMIT ?",
                [after_position, limit if limit is not None else 2**62],
            ).fetchall()
        return [_row_to_event(r) for r in rows]

    def read_frame(self, after_position: int = 0, stream_prefix: str | None = None) -> pl.DataFrame:
        with self._turn():
            rel = self._con.sql(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE global_position > $after "
                "AND starts_with(stream_id, $prefix) ORDER BY global_position",
                params={"after": after_position, "prefix": stream_prefix or ""},
            )
            frame: pl.DataFrame = rel.pl()
            return frame

    def streams(self, prefix: str = "") -> list[str]:
        with self._turn():
            rows = self._con.execute(
                "SELECT DISTINCT stream_id FROM events WHERE starts_with(stream_id, ?) "
                "ORDER BY stream_id",
                [prefix],
            ).fetchall()
        return [str(r[0]) for r in rows]

    def log_epoch(self) -> int:
        with self._turn():
            return self._meta(self._con, "epoch")

    # ---------------------------------------------------------------- truncation

    def truncate(
        self, stream_id: str, keep_through: int, expected_version: int, actor: str, reason: str
    ) -> Truncation:
        with self._transaction() as con:
            actual = self._version(con, stream_id)
            if actual != expected_version:
                raise WrongExpectedVersion(stream_id, expected_version, actual)
            span = _first(
                con.execute(
                    "SELECT count(*), min(global_position), max(global_position) FROM events "
                    "WHERE stream_id = ? AND stream_version > ?",
                    [stream_id, keep_through],
                ).fetchall()
            )
            assert span is not None
            count, lo_pos, hi_pos = span
            if not count:
                raise RestoreRefused(
                    f"stream {stream_id} has nothing after version {keep_through} to truncate"
                )
            tid = self._take(con, "next_truncation", 1)
            con.execute(
                f"INSERT INTO events_archive (truncation_id, {_CHAINED_COLUMNS}) "
                f"SELECT ?, {_CHAINED_COLUMNS} FROM events "
                "WHERE stream_id = ? AND stream_version > ?",
                [tid, stream_id, keep_through],
            )
            con.execute(
                f"INSERT INTO truncations ({_TRUNCATION_INSERT}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    tid,
                    stream_id,
                    keep_through + 1,
                    actual,
                    lo_pos,
                    hi_pos,
                    count,
                    actor,
                    reason,
                    _now(),
                ],
            )
            con.execute(
                "DELETE FROM events WHERE stream_id = ? AND stream_version > ?",
                [stream_id, keep_through],
            )
            self._take(con, "epoch", 1)
        return self._truncation(tid)

    def restore(self, stream_id: str, actor: str, truncation_id: int | None = None) -> Truncation:
        with self._transaction() as con:
            row = _first(
                con.execute(
                    "SELECT truncation_id, from_version FROM truncations WHERE stream_id = ? "
                    "AND restored_at IS NULL AND (?::BIGINT IS NULL OR truncation_id = ?) "
                    "ORDER BY truncation_id DESC LIMIT 1",
                    [stream_id, truncation_id, truncation_id],
                ).fetchall()
            )
            if row is None and truncation_id is not None:
                raise RestoreRefused(
                    f"stream {stream_id} has no unrestored truncation {truncation_id}"
                )
            if row is None:
                raise RestoreRefused(f"stream {stream_id} has no truncated events to restore")
            tid, from_version = int(row[0]), int(row[1])
            actual = self._version(con, stream_id)
            if actual != from_version - 1:
                raise RestoreRefused(
                    f"cannot restore truncation {tid} of {stream_id}: {actual - from_version + 1} "
                    "event(s) were appended since; undo them first"
                )
            n_row = _first(
                con.execute(
                    "SELECT count(*) FROM events_archive WHERE truncation_id = ?", [tid]
                ).fetchall()
            )
            assert n_row is not None
            count = int(n_row[0])
            first = self._take(con, "next_position", count)
            archived: pl.DataFrame = con.sql(
                f"SELECT {_CHAINED_COLUMNS} FROM events_archive WHERE truncation_id = $t "
                "ORDER BY stream_version",
                params={"t": tid},
            ).pl()
            # The same events again, at new positions: their stream hashes stay, the log
            # chain goes on from the head.
            prev_log = _log_hash_at(con, first - 1)
            logs = []
            for i, s in enumerate(archived.get_column("stream_hash").to_list()):
                prev_log = chain.log_hash(prev_log, first + i, s)
                logs.append(prev_log)
            again = archived.with_columns(
                pl.int_range(first, first + count, dtype=pl.Int64).alias("global_position"),
                pl.Series("log_hash", logs, dtype=pl.String),
            )
            con.register("_restored", again.to_arrow())
            try:
                con.execute(
                    f"INSERT INTO events ({_CHAINED_COLUMNS}) "
                    f"SELECT {_CHAINED_COLUMNS} FROM _restored"
                )
            finally:
                with contextlib.suppress(duckdb.Error):
                    con.unregister("_restored")
            con.execute(
                "UPDATE truncations SET restored_at = ?, restored_by = ? WHERE truncation_id = ?",
                [_now(), actor, tid],
            )
            self._take(con, "epoch", 1)
        return self._truncation(tid)

    def truncations(self, stream_id: str | None = None) -> list[Truncation]:
        with self._turn():
            rows = self._con.execute(
                "SELECT * FROM truncations WHERE ? IS NULL OR stream_id = ? ORDER BY truncation_id",
                [stream_id, stream_id],
            ).fetchall()
        return [Truncation(*r) for r in rows]

    def _truncation(self, tid: int) -> Truncation:
        with self._turn():
            row = _first(
                self._con.execute(
                    "SELECT * FROM truncations WHERE truncation_id = ?", [tid]
                ).fetchall()
            )
        assert row is not None
        return Truncation(*row)

    def archived(self, truncation_id: int) -> list[RecordedEvent]:
        with self._turn():
            rows = self._con.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events_archive WHERE truncation_id = ? "
                "ORDER BY stream_version",
                [truncation_id],
            ).fetchall()
        return [_row_to_event(r) for r in rows]

    # ---------------------------------------------------------------- followers, caches, images

    def head_position(self) -> int:
        with self._turn():
            rows = self._con.execute(
                "SELECT coalesce(max(global_position), 0) FROM events"
            ).fetchall()
        return int(rows[0][0])

    def chain_head(self) -> chain.ChainHead:
        with self._turn():
            position = self._meta(self._con, "next_position") - 1
            return chain.ChainHead(position, _log_hash_at(self._con, position))

    @contextlib.contextmanager
    def chain_scan(self, batch: int = chain.VERIFY_BATCH) -> Iterator[chain.ChainScan]:
        with self._turn():
            con = self._con
            con.begin()
            try:
                counts = con.execute(
                    "SELECT (SELECT count(*) FROM events), (SELECT count(*) FROM events_archive)"
                ).fetchall()[0]

                def read(lo: int, hi: int) -> pl.DataFrame:
                    frame: pl.DataFrame = con.sql(_SCAN_WINDOW, params={"lo": lo, "hi": hi}).pl()
                    return frame.cast(pl.Schema(SCAN_COLUMNS))

                def first_from(position: int) -> int | None:
                    row = con.execute(_SCAN_FIRST, {"p": position}).fetchall()[0]
                    return None if row[0] is None else int(row[0])

                yield chain.ChainScan(
                    next_position=self._meta(con, "next_position"),
                    events=int(counts[0]),
                    archived=int(counts[1]),
                    repeated=frozenset(
                        (str(s), int(v)) for s, v in con.execute(_SCAN_REPEATED).fetchall()
                    ),
                    batches=chain.position_windows(read, first_from, batch),
                )
            finally:
                con.rollback()

    def chain_at(self, position: int) -> chain.ChainHead:
        with self._turn():
            return chain.ChainHead(position, _log_hash_at(self._con, position))

    def wait_for_events(self, after_position: int, timeout: float) -> bool:
        """Polls: a DuckDB file has one process at a time, so only this process's own
        threads can append meanwhile."""
        deadline = time.monotonic() + timeout
        delay = 0.01
        while True:
            if self.head_position() > after_position:
                return True
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            time.sleep(min(delay, remaining))
            delay = min(delay * 2, 0.2)

    def open_cache(self, name: str, tables: Mapping[str, Mapping[str, pl.DataType]]) -> TableCache:
        """Beside the file (``arbiter.duckdb`` → ``arbiter.games.duckdb``); in memory for an
        in-memory store."""
        if self.path == ":memory:":
            return TableCache(":memory:", tables, name=name)
        path = Path(self.path)
        return TableCache(str(path.with_name(f"{path.stem}.{name}.duckdb")), tables, name=name)

    def export_image(self) -> LogImage:
        with self._turn():
            self._con.begin()
            try:
                events = self._con.sql(
                    f"SELECT {_CHAINED_COLUMNS} FROM events ORDER BY global_position"
                ).pl()
                archive = self._con.sql(
                    f"SELECT truncation_id, {_CHAINED_COLUMNS} FROM events_archive "
                    "ORDER BY truncation_id, stream_version"
                ).pl()
                truncations = self._con.sql("SELECT * FROM truncations ORDER BY truncation_id").pl()
                counters = dict(self._con.execute("SELECT key, value FROM log_meta").fetchall())
            finally:
                self._con.rollback()
        return LogImage(
            events=events.cast(pl.Schema(CHAINED_EVENT_COLUMNS)),
            archive=archive.cast(pl.Schema(ARCHIVE_COLUMNS)),
            truncations=truncations.cast(pl.Schema(TRUNCATION_COLUMNS)),
            counters={k: int(counters[k]) for k in COUNTERS},
        )

    def import_image(self, image: LogImage) -> None:
        tables = {
            "events": (image.events, CHAINED_EVENT_COLUMNS),
            "events_archive": (image.archive, ARCHIVE_COLUMNS),
            "truncations": (image.truncations, TRUNCATION_COLUMNS),
        }
        with self._transaction() as con:
            present = sum(
                int(con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0]) for t in tables
            )
            if present or self._meta(con, "next_position") != 1:
                raise StoreError(f"store {self.path} is not empty; copy into an empty store")
            for table, (frame, schema) in tables.items():
                if frame.height == 0:
                    continue
                con.register("_image", frame.select(list(schema)).to_arrow())
                try:
                    columns = ", ".join(schema)
                    con.execute(f"INSERT INTO {table} ({columns}) SELECT {columns} FROM _image")
                finally:
                    with contextlib.suppress(duckdb.Error):
                        con.unregister("_image")
            for key in COUNTERS:
                con.execute(
                    "UPDATE log_meta SET value = ? WHERE key = ?", [image.counters[key], key]
                )
