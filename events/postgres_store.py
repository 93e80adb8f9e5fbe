"""The shared event store: PostgreSQL, for a federation whose officers and directors share a log.

Ordering. Every transaction that adds or removes events (append, bulk append, truncate,
restore) first takes one transaction-level advisory lock (``pg_advisory_xact_lock``) and
holds it until it commits. Positions come from a counter row (``log_meta.next_position``)
updated under that lock, so they are gapless, never reused (a truncation does not lower the
counter) and, because the next writer gets the lock only after the previous commit is visible,
they become visible in increasing order: a follower that has read up to position p and asks for
``global_position > p`` can never skip an event committed later with a lower position. (A
plain sequence or identity column does not give that: two transactions take numbers in one
order and may commit in the other.) This is the design of eventsourcing's PostgreSQL recorder
(a table lock) and of Message DB (an advisory lock, there per category). The price is that
appends are serialised; a single append is one statement (the ``arbiter_append`` function: lock,
idempotency check, expected-version check, insert, NOTIFY), so the lock is held for
microseconds plus the commit.

Integrity. ``UNIQUE (stream_id, stream_version)`` and ``UNIQUE (event_id)`` are constraints, the
backstop behind the version check. Triggers refuse UPDATE, DELETE and TRUNCATE of the log and
its archive; the only DELETE allowed is the truncation's own, which sets a transaction-local
flag the trigger checks. Payloads are stored as text, byte for byte as written, so the same
log in DuckDB and PostgreSQL has the same payload hashes.

Followers. Every transaction that changes the log sends ``NOTIFY arbiter_events`` (delivered at
commit); ``wait_for_events`` LISTENs instead of polling.

Schema. ``arbiter_schema`` records the applied migrations; ``init_schema`` (``arbiter store
init``) creates and migrates. Opening a store whose schema is missing or older says so.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
import time
import urllib.parse
from collections.abc import Iterator, Mapping, Sequence
from io import BytesIO
from typing import Any

import polars as pl
import psycopg
import psycopg.errors
from psycopg import sql
from psycopg.copy import QueuedLibpqWriter
from psycopg_pool import ConnectionPool, PoolTimeout

from events import chain
from events.cache import TableCache, cache_folder
from events.schema import schema_version
from events.store import (
    ARCHIVE_COLUMNS,
    BULK_COLUMNS,
    CHAINED_EVENT_COLUMNS,
    COUNTERS,
    EVENT_COLUMNS,
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
    StoreUnavailable,
    Truncation,
    WrongExpectedVersion,
)

__all__ = ["SCHEMA_VERSION", "PostgresStore", "display_url", "init_schema"]

APPEND_LOCK = 0x6172_6269_7465_72  # 'arbiter': the one advisory lock every log writer takes
CHANNEL = "arbiter_events"

_MIGRATIONS: tuple[tuple[int, str, str], ...] = (
    (
        1,
        "events, counters, truncations, archive, append function, immutability triggers",
        f"""
CREATE TABLE log_meta (key text PRIMARY KEY, value bigint NOT NULL);
INSERT INTO log_meta VALUES ('next_position', 1), ('epoch', 0), ('next_truncation', 1);

CREATE TABLE events (
    global_position bigint PRIMARY KEY,
    stream_id text COLLATE "C" NOT NULL,
    stream_version bigint NOT NULL CHECK (stream_version >= 0),
    event_id text COLLATE "C" NOT NULL,
    event_type text NOT NULL,
    schema_version integer NOT NULL,
    payload text NOT NULL,
    metadata text NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT events_stream_version_key UNIQUE (stream_id, stream_version),
    CONSTRAINT events_event_id_key UNIQUE (event_id)
);

CREATE TABLE truncations (
    truncation_id bigint PRIMARY KEY,
    stream_id text COLLATE "C" NOT NULL,
    from_version bigint NOT NULL,
    to_version bigint NOT NULL,
    from_position bigint NOT NULL,
    to_position bigint NOT NULL,
    event_count bigint NOT NULL,
    actor text NOT NULL,
    reason text NOT NULL,
    truncated_at timestamptz NOT NULL,
    restored_at timestamptz,
    restored_by text
);

CREATE TABLE events_archive (
    truncation_id bigint NOT NULL,
    global_position bigint NOT NULL,
    stream_id text COLLATE "C" NOT NULL,
    stream_version bigint NOT NULL,
    event_id text COLLATE "C" NOT NULL,
    event_type text NOT NULL,
    schema_version integer NOT NULL,
    payload text NOT NULL,
    metadata text NOT NULL,
    recorded_at timestamptz NOT NULL,
    PRIMARY KEY (truncation_id, stream_version)
);

CREATE FUNCTION arbiter_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' AND TG_TABLE_NAME = 'events'
       AND current_setting('arbiter.truncating', true) = 'on' THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'arbiter: % of % refused: the log is append-only (undo is a truncation)',
        TG_OP, TG_TABLE_NAME;
END $$;

CREATE TRIGGER events_immutable BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION arbiter_immutable();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION arbiter_immutable();
CREATE TRIGGER archive_immutable BEFORE UPDATE OR DELETE ON events_archive
    FOR EACH ROW EXECUTE FUNCTION arbiter_immutable();
CREATE TRIGGER archive_no_truncate BEFORE TRUNCATE ON events_archive
    FOR EACH STATEMENT EXECUTE FUNCTION arbiter_immutable();
CREATE TRIGGER truncations_kept BEFORE DELETE ON truncations
    FOR EACH ROW EXECUTE FUNCTION arbiter_immutable();
CREATE TRIGGER truncations_no_truncate BEFORE TRUNCATE ON truncations
    FOR EACH STATEMENT EXECUTE FUNCTION arbiter_immutable();

-- One append in one statement: lock, idempotency, expected version, insert, notify.
-- outcome: ok | duplicate | partial | conflict | wrong_version.
CREATE FUNCTION arbiter_append(
    p_stream text, p_expected bigint, p_ids text[], p_types text[], p_schema integer[],
    p_payloads text[], p_metadata text[],
    OUT outcome text, OUT version bigint, OUT positions bigint[], OUT detail text
) LANGUAGE plpgsql AS $$
DECLARE
    v_found integer;
    v_same integer;
    v_other text;
    v_first bigint;
    v_next bigint;
    v_count integer := cardinality(p_ids);
BEGIN
    PERFORM pg_advisory_xact_lock({APPEND_LOCK});
    SELECT count(*), count(*) FILTER (WHERE e.payload = n.payload),
           min(n.id) FILTER (WHERE e.payload <> n.payload), min(e.stream_version),
           array_agg(e.global_position ORDER BY e.stream_version)
      INTO v_found, v_same, v_other, v_first, positions
      FROM unnest(p_ids, p_payloads) AS n(id, payload)
      JOIN events e ON e.event_id = n.id;
    IF v_found > 0 THEN
        IF v_found <> v_count THEN
            outcome := 'partial'; version := v_found; positions := NULL; RETURN;
        END IF;
        IF v_same <> v_found THEN
            outcome := 'conflict'; detail := v_other; positions := NULL; RETURN;
        END IF;
        outcome := 'duplicate'; version := v_first; RETURN;
    END IF;
    SELECT coalesce(max(stream_version), -1) INTO version FROM events WHERE stream_id = p_stream;
    IF version <> p_expected THEN
        outcome := 'wrong_version'; RETURN;
    END IF;
    UPDATE log_meta SET value = value + v_count WHERE key = 'next_position'
        RETURNING value - v_count INTO v_next;
    INSERT INTO events (global_position, stream_id, stream_version, event_id, event_type,
                        schema_version, payload, metadata)
        SELECT v_next + n - 1, p_stream, p_expected + n, id, typ, sv, pl, md
          FROM unnest(p_ids, p_types, p_schema, p_payloads, p_metadata)
               WITH ORDINALITY AS u(id, typ, sv, pl, md, n);
    positions := ARRAY(SELECT generate_series(v_next, v_next + v_count - 1));
    PERFORM pg_notify('{CHANNEL}', (v_next + v_count - 1)::text);
    outcome := 'ok';
END $$;
""",
    ),
)

_MIGRATIONS += (
    (
        2,
        "hash chains: stream_hash and log_hash on every event (tamper-evident log)",
        f"""
ALTER TABLE events ADD COLUMN stream_hash text, ADD COLUMN log_hash text;
ALTER TABLE events_archive ADD COLUMN stream_hash text, ADD COLUMN log_hash text;

-- As version 1, and each event's hashes (events.chain: the same formula as the Python side).
CREATE OR REPLACE FUNCTION arbiter_append(
    p_stream text, p_expected bigint, p_ids text[], p_types text[], p_schema integer[],
    p_payloads text[], p_metadata text[],
    OUT outcome text, OUT version bigint, OUT positions bigint[], OUT detail text
) LANGUAGE plpgsql AS $$
DECLARE
    v_found integer;
    v_same integer;
    v_other text;
    v_first bigint;
    v_next bigint;
    v_count integer := cardinality(p_ids);
    v_now timestamptz := now();
    v_when text;
    v_stream text;
    v_log text;
    v_sh text[];
    v_lh text[];
BEGIN
    PERFORM pg_advisory_xact_lock({APPEND_LOCK});
    SELECT count(*), count(*) FILTER (WHERE e.payload = n.payload),
           min(n.id) FILTER (WHERE e.payload <> n.payload), min(e.stream_version),
           array_agg(e.global_position ORDER BY e.stream_version)
      INTO v_found, v_same, v_other, v_first, positions
      FROM unnest(p_ids, p_payloads) AS n(id, payload)
      JOIN events e ON e.event_id = n.id;
    IF v_found > 0 THEN
        IF v_found <> v_count THEN
            outcome := 'partial'; version := v_found; positions := NULL; RETURN;
        END IF;
        IF v_same <> v_found THEN
            outcome := 'conflict'; detail := v_other; positions := NULL; RETURN;
        END IF;
        outcome := 'duplicate'; version := v_first; RETURN;
    END IF;
    SELECT e.stream_version, e.stream_hash INTO version, v_stream FROM events e
        WHERE e.stream_id = p_stream ORDER BY e.stream_version DESC LIMIT 1;
    IF NOT FOUND THEN
        version := -1;
    END IF;
    IF version <> p_expected THEN
        outcome := 'wrong_version'; RETURN;
    END IF;
    UPDATE log_meta SET value = value + v_count WHERE key = 'next_position'
        RETURNING value - v_count INTO v_next;
    SELECT e.log_hash INTO v_log FROM events e WHERE e.global_position = v_next - 1;
    IF NOT FOUND THEN
        SELECT a.log_hash INTO v_log FROM events_archive a
            WHERE a.global_position = v_next - 1 LIMIT 1;
    END IF;
    v_stream := coalesce(v_stream, '');
    v_log := coalesce(v_log, '');
    v_when := to_char(v_now AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US');
    FOR i IN 1..v_count LOOP
        v_stream := encode(sha256(convert_to(
            v_stream || '|' || char_length(p_stream) || ':' || p_stream || '|'
            || (p_expected + i) || '|' || char_length(p_ids[i]) || ':' || p_ids[i] || '|'
            || char_length(p_types[i]) || ':' || p_types[i] || '|' || p_schema[i] || '|'
            || v_when || '|' || char_length(p_payloads[i]) || ':' || p_payloads[i] || '|'
            || char_length(p_metadata[i]) || ':' || p_metadata[i], 'UTF8')), 'hex');
        v_log := encode(sha256(convert_to(
            v_log || '|' || (v_next + i - 1) || '|' || v_stream, 'UTF8')), 'hex');
        v_sh[i] := v_stream;
        v_lh[i] := v_log;
    END LOOP;
    INSERT INTO events (global_position, stream_id, stream_version, event_id, event_type,
                        schema_version, payload, metadata, recorded_at, stream_hash, log_hash)
        SELECT v_next + n - 1, p_stream, p_expected + n, id, typ, sv, pl, md, v_now,
               v_sh[n], v_lh[n]
          FROM unnest(p_ids, p_types, p_schema, p_payloads, p_metadata)
               WITH ORDINALITY AS u(id, typ, sv, pl, md, n);
    positions := ARRAY(SELECT generate_series(v_next, v_next + v_count - 1));
    PERFORM pg_notify('{CHANNEL}', (v_next + v_count - 1)::text);
    outcome := 'ok';
END $$;
""",
    ),
)

SCHEMA_VERSION = _MIGRATIONS[-1][0]

_EVENT_SELECT = (
    "global_position, stream_id, stream_version, event_id, event_type, schema_version, "
    "payload, metadata, recorded_at AT TIME ZONE 'UTC'"
)
_TRUNCATION_SELECT = (
    "truncation_id, stream_id, from_version, to_version, from_position, to_position, "
    "event_count, actor, reason, truncated_at AT TIME ZONE 'UTC', "
    "restored_at AT TIME ZONE 'UTC', restored_by"
)
_EVENT_INSERT = (
    "global_position, stream_id, stream_version, event_id, event_type, schema_version, "
    "payload, metadata, recorded_at"
)
_CHAINED = f"{_EVENT_INSERT}, stream_hash, log_hash"
"""Inserts name their columns, so that a migration may add one (e.g. a hash chain)."""
_COPY_CHUNK = 10_000
"""Rows per part of a bulk append: hashed, formatted and sent while the server takes in the
one before. Small parts start the server sooner and leave it a short tail after the last
(measured on 1,000,000 events: 100,000-row parts 99-103k events/s, 10,000-row parts
113-119k; 2,000 or 5,000 no better)."""


def display_url(url: str) -> str:
    """The URL without its password, fit for messages and logs."""
    parts = urllib.parse.urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, host = netloc.rsplit("@", 1)
        netloc = f"{userinfo.split(':', 1)[0]}@{host}"
    query = urllib.parse.urlencode(
        [(k, v) for k, v in urllib.parse.parse_qsl(parts.query) if k != "password"], safe="/"
    )
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]


@contextlib.contextmanager
def _errors(url: str) -> Iterator[None]:
    """Server and connection errors as store errors with one line for the user."""
    try:
        yield
    except PoolTimeout as exc:
        raise StoreUnavailable(f"cannot connect to the store {url}: {_first_line(exc)}") from exc
    except psycopg.errors.LockNotAvailable as exc:
        raise StoreBusy(url, None) from exc
    except (psycopg.errors.SerializationFailure, psycopg.errors.DeadlockDetected) as exc:
        raise StoreBusy(url, None) from exc
    except psycopg.errors.InsufficientPrivilege as exc:
        raise StoreError(f"store {url}: {_first_line(exc)}") from exc
    except psycopg.errors.UndefinedTable as exc:
        raise StoreNotInitialized(
            f"store {url} has no arbiter schema; run `arbiter store init`"
        ) from exc
    except psycopg.OperationalError as exc:
        raise StoreUnavailable(
            f"lost the connection to the store {url} ({_first_line(exc)}); nothing half-done "
            "was kept; retry"
        ) from exc


def _connect_kwargs() -> dict[str, Any]:
    return {"autocommit": True, "application_name": f"arbiter[{os.getpid()}]"}


def init_schema(url: str) -> tuple[int, int]:
    """Create or migrate the arbiter schema; returns (version before, version after)."""
    shown = display_url(url)
    with _errors(shown):
        try:
            con = psycopg.connect(url, connect_timeout=10, **_connect_kwargs())
        except psycopg.OperationalError as exc:
            raise StoreUnavailable(
                f"cannot connect to the store {shown}: {_first_line(exc)}"
            ) from exc
        with con, con.transaction():
            # One migrator at a time; a second `store init` waits, then finds nothing to do.
            con.execute("SELECT pg_advisory_xact_lock(%s)", [APPEND_LOCK + 1])
            con.execute(
                "CREATE TABLE IF NOT EXISTS arbiter_schema (version integer PRIMARY KEY, "
                "description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            row = con.execute("SELECT coalesce(max(version), 0) FROM arbiter_schema").fetchone()
            found = int(row[0]) if row else 0
            if found > SCHEMA_VERSION:
                raise StoreNotInitialized(
                    f"store {shown} has schema version {found}, newer than this arbiter's "
                    f"{SCHEMA_VERSION}; upgrade arbiter"
                )
            for version, description, ddl in _MIGRATIONS:
                if version > found:
                    con.execute(sql.SQL(ddl))
                    if version == 2:
                        _backfill_chains(con)
                    con.execute(
                        "INSERT INTO arbiter_schema (version, description) VALUES (%s, %s)",
                        [version, description],
                    )
    return found, SCHEMA_VERSION


def _backfill_chains(con: psycopg.Connection[Any]) -> None:
    """Compute the hash chains of the events a store held before it had them."""
    columns = PostgresStore._select(EVENT_COLUMNS)
    query = sql.SQL(
        f"SELECT {columns}, NULL::bigint AS truncation_id FROM events UNION ALL "
        f"SELECT {columns}, truncation_id FROM events_archive "
        "ORDER BY global_position, truncation_id NULLS FIRST"
    )
    history = PostgresStore._frame(
        _copy_out(con, query), {**EVENT_COLUMNS, "truncation_id": pl.Int64()}
    )
    if history.height == 0:
        return
    chained = chain.chain_rows(history, {}, chain.GENESIS)
    con.execute(
        "CREATE TEMP TABLE _chains (global_position bigint, truncation_id bigint, "
        "stream_hash text, log_hash text) ON COMMIT DROP"
    )
    schema = {
        "global_position": pl.Int64(),
        "truncation_id": pl.Int64(),
        "stream_hash": pl.String(),
        "log_hash": pl.String(),
    }
    with con.cursor().copy(
        "COPY _chains (global_position, truncation_id, stream_hash, log_hash) FROM STDIN"
    ) as copy:
        for chunk in _copy_lines(chained.select(list(schema)), schema):
            copy.write(chunk)
    con.execute("ALTER TABLE events DISABLE TRIGGER events_immutable")
    con.execute("ALTER TABLE events_archive DISABLE TRIGGER archive_immutable")
    con.execute(
        "UPDATE events e SET stream_hash = c.stream_hash, log_hash = c.log_hash FROM _chains c "
        "WHERE c.truncation_id IS NULL AND e.global_position = c.global_position"
    )
    con.execute(
        "UPDATE events_archive a SET stream_hash = c.stream_hash, log_hash = c.log_hash "
        "FROM _chains c WHERE a.truncation_id = c.truncation_id "
        "AND a.global_position = c.global_position"
    )
    con.execute("ALTER TABLE events ENABLE TRIGGER events_immutable")
    con.execute("ALTER TABLE events_archive ENABLE TRIGGER archive_immutable")


def _log_hash_at(con: psycopg.Connection[Any], position: int) -> str:
    """The log hash at ``position``, in the log or (after a truncation) the archive."""
    if position <= 0:
        return chain.GENESIS
    row = con.execute(
        "SELECT log_hash FROM events WHERE global_position = %s UNION ALL "
        "(SELECT log_hash FROM events_archive WHERE global_position = %s LIMIT 1) LIMIT 1",
        [position, position],
    ).fetchone()
    return str(row[0]) if row is not None and row[0] is not None else chain.GENESIS


def _copy_out(con: psycopg.Connection[Any], query: sql.Composable) -> bytes:
    buffer = BytesIO()
    with con.cursor().copy(
        sql.SQL("COPY ({}) TO STDOUT (FORMAT csv, HEADER)").format(query)
    ) as copy:
        for data in copy:
            buffer.write(data)
    return buffer.getvalue()


def _escape(column: str) -> pl.Expr:
    """A text column in COPY's text format (backslash, tab, newline, carriage return)."""
    return (
        pl.col(column)
        .str.replace_all("\\", "\\\\", literal=True)
        .str.replace_all("\t", "\\t", literal=True)
        .str.replace_all("\n", "\\n", literal=True)
        .str.replace_all("\r", "\\r", literal=True)
    )


def _copy_lines(frame: pl.DataFrame, schema: Mapping[str, pl.DataType]) -> Iterator[bytes]:
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
    for start in range(0, frame.height, _COPY_CHUNK):
        chunk = frame.slice(start, _COPY_CHUNK).select(line.alias("line"))
        yield (chunk.get_column("line").str.join("\n").item() + "\n").encode()


class PostgresStore:
    """`Store` on a PostgreSQL database (any libpq URI, a unix socket included)."""

    def __init__(
        self,
        url: str,
        *,
        pool_size: int = 4,
        connect_timeout: float = 10.0,
        busy_timeout: float | None = None,
    ) -> None:
        self.dsn = url
        self.url = display_url(url)
        if busy_timeout is None:
            busy_timeout = float(os.environ.get("ARBITER_STORE_TIMEOUT", "10"))
        lock_ms = max(1, int(busy_timeout * 1000))

        def configure(con: psycopg.Connection[Any]) -> None:
            con.execute(f"SET lock_timeout = {lock_ms}")

        self._pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
            url,
            min_size=1,
            max_size=pool_size,
            kwargs=_connect_kwargs(),
            configure=configure,
            open=False,
            timeout=connect_timeout,
            name="arbiter-store",
        )
        self._listener: psycopg.Connection[Any] | None = None
        self._listening = threading.Lock()  # one waiter at a time on the LISTEN connection
        with self._errors():
            # A first connection of our own: its error says what is wrong (no such database,
            # no server on that socket, authentication), where the pool would only time out.
            try:
                probe = psycopg.connect(
                    url, connect_timeout=max(1, int(connect_timeout)), **_connect_kwargs()
                )
            except psycopg.OperationalError as exc:
                raise StoreUnavailable(
                    f"cannot connect to the store {self.url}: {_first_line(exc)}"
                ) from exc
            with probe:
                self._check_schema(probe)
            try:
                self._pool.open(wait=True, timeout=connect_timeout)
            except PoolTimeout as exc:
                self._pool.close()
                raise StoreUnavailable(f"cannot connect to the store {self.url}") from exc

    def _errors(self) -> contextlib.AbstractContextManager[None]:
        return _errors(self.url)

    def _check_schema(self, con: psycopg.Connection[Any]) -> None:
        row = con.execute("SELECT to_regclass('arbiter_schema') IS NOT NULL").fetchone()
        found = 0
        if row and row[0]:
            v = con.execute("SELECT coalesce(max(version), 0) FROM arbiter_schema").fetchone()
            found = int(v[0]) if v else 0
        if found == SCHEMA_VERSION:
            return
        if found == 0:
            raise StoreNotInitialized(
                f"store {self.url} has no arbiter schema; run `arbiter store init`"
            )
        if found < SCHEMA_VERSION:
            raise StoreNotInitialized(
                f"store {self.url} has schema version {found}, this arbiter needs "
                f"{SCHEMA_VERSION}; run `arbiter store init` to migrate it"
            )
        raise StoreNotInitialized(
            f"store {self.url} has schema version {found}, newer than this arbiter's "
            f"{SCHEMA_VERSION}; upgrade arbiter"
        )

    def __enter__(self) -> PostgresStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._listener is not None:
            with contextlib.suppress(psycopg.Error):
                self._listener.close()
            self._listener = None
        self._pool.close()

    @contextlib.contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        with self._errors(), self._pool.connection() as con:
            yield con

    @contextlib.contextmanager
    def _writing(self) -> Iterator[psycopg.Connection[Any]]:
        """A transaction holding the append lock (see the module's ordering note)."""
        with self._connection() as con, con.transaction():
            con.execute("SELECT pg_advisory_xact_lock(%s)", [APPEND_LOCK])
            yield con

    @staticmethod
    def _take(con: psycopg.Connection[Any], key: str, count: int) -> int:
        row = con.execute(
            "UPDATE log_meta SET value = value + %s WHERE key = %s RETURNING value - %s",
            [count, key, count],
        ).fetchone()
        assert row is not None
        return int(row[0])

    @staticmethod
    def _version(con: psycopg.Connection[Any], stream_id: str) -> int:
        row = con.execute(
            "SELECT coalesce(max(stream_version), -1) FROM events WHERE stream_id = %s",
            [stream_id],
        ).fetchone()
        assert row is not None
        return int(row[0])

    # ---------------------------------------------------------------- appends

    def append(
        self, stream_id: str, events: Sequence[NewEvent], expected_version: int
    ) -> AppendResult:
        if not events:
            return AppendResult(stream_id, expected_version + 1, expected_version, ())
        payloads = [e.payload() for e in events]
        with self._connection() as con:
            row = con.execute(
                "SELECT * FROM arbiter_append(%s, %s, %s, %s, %s, %s, %s)",
                [
                    stream_id,
                    expected_version,
                    [e.event_id for e in events],
                    [e.event_type for e in events],
                    [schema_version(e.event_type) for e in events],
                    payloads,
                    [json.dumps(e.metadata, sort_keys=True) for e in events],
                ],
            ).fetchone()
        assert row is not None
        outcome, version, positions, detail = row
        if outcome == "ok":
            return AppendResult(
                stream_id,
                expected_version + 1,
                expected_version + len(events),
                tuple(int(p) for p in positions),
            )
        if outcome == "wrong_version":
            raise WrongExpectedVersion(stream_id, expected_version, int(version))
        if outcome == "partial":
            raise EventIdConflict(
                f"stream {stream_id}: {version} of {len(events)} event ids are already "
                "in the log; a batch is appended whole or not at all"
            )
        if outcome == "conflict":
            raise EventIdConflict(f"event id {detail} is already in the log with another payload")
        return AppendResult(
            stream_id,
            int(version),
            int(version) + len(events) - 1,
            tuple(int(p) for p in positions),
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
            with self._writing() as con:
                heads = self._check_bulk_versions(con, spans)
                first = self._take(con, "next_position", frame.height)
                now = con.execute("SELECT now() AT TIME ZONE 'UTC'").fetchone()
                assert now is not None
                rows = frame.select(
                    pl.int_range(first, first + frame.height, dtype=pl.Int64).alias(
                        "global_position"
                    ),
                    *BULK_COLUMNS,
                    pl.lit(now[0], dtype=pl.Datetime("us")).alias("recorded_at"),
                )
                parts = chain.chained_parts(rows, heads, _log_hash_at(con, first - 1), _COPY_CHUNK)
                # recorded_at is left to the column's default, now(): the transaction's start,
                # the very time the chains hashed (the server parses no timestamp per row).
                columns = [c for c in CHAINED_EVENT_COLUMNS if c != "recorded_at"]
                cursor = con.cursor()
                # A queued writer sends each part from a second thread, so that the server
                # takes in one part while this thread hashes the next.
                with cursor.copy(
                    sql.SQL("COPY events ({}) FROM STDIN").format(
                        sql.SQL(", ").join(map(sql.Identifier, columns))
                    ),
                    writer=QueuedLibpqWriter(cursor),
                ) as copy:
                    for part in parts:
                        for chunk in _copy_lines(part, {c: part.schema[c] for c in columns}):
                            copy.write(chunk)
                con.execute("SELECT pg_notify(%s, %s)", [CHANNEL, str(first + frame.height - 1)])
        except psycopg.errors.UniqueViolation as exc:
            raise EventIdConflict(
                f"bulk append rejected, nothing appended: {_first_line(exc)}"
            ) from exc
        return frame.height

    @staticmethod
    def _check_bulk_versions(con: psycopg.Connection[Any], spans: pl.DataFrame) -> dict[str, str]:
        """Every stream in the batch must continue its stored version without gaps; the
        stream hash of each existing stream's last version."""
        streams = spans.get_column("stream_id").to_list()
        found = con.execute(
            "SELECT DISTINCT ON (stream_id) stream_id, stream_version, stream_hash FROM events "
            "WHERE stream_id = ANY(%s) ORDER BY stream_id, stream_version DESC",
            [streams],
        ).fetchall()
        current = {str(r[0]): int(r[1]) for r in found}
        heads = {str(r[0]): str(r[2] or chain.GENESIS) for r in found}
        for stream, lo, hi, n in spans.sort("stream_id").iter_rows():
            actual = int(current.get(stream, -1))
            if lo != actual + 1:
                raise WrongExpectedVersion(str(stream), int(lo) - 1, actual)
            if hi - lo + 1 != n:
                raise StoreError(
                    f"bulk append: stream {stream} has {n} rows for versions {lo}..{hi}"
                )
        return heads

    # ---------------------------------------------------------------- reads

    def stream_version(self, stream_id: str) -> int:
        with self._connection() as con:
            return self._version(con, stream_id)

    def read_stream(self, stream_id: str, to_version: int | None = None) -> list[RecordedEvent]:
        limit = to_version if to_version is not None else 2**62
        with self._connection() as con:
            rows = con.execute(
                f"SELECT {_EVENT_SELECT} FROM events WHERE stream_id = %s "
                "AND stream_version <= %s ORDER BY stream_version",
                [stream_id, limit],
            ).fetchall()
        return [RecordedEvent(*r) for r in rows]

    def read_all(self, after_position: int = 0, limit: int | None = None) -> list[RecordedEvent]:
        with self._connection() as con:
            rows = con.execute(
                f"SELECT {_EVENT_SELECT} FROM events WHERE global_position > %s "
                "ORDER BY global_position LIMIT %s",
                [after_position, limit],
            ).fetchall()
        return [RecordedEvent(*r) for r in rows]

    def _copy_out(self, con: psycopg.Connection[Any], query: sql.Composable) -> bytes:
        return _copy_out(con, query)

    @staticmethod
    def _frame(data: bytes, schema: Mapping[str, pl.DataType]) -> pl.DataFrame:
        """A CSV read back with the given schema; timestamps travel as epoch microseconds."""
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

    @staticmethod
    def _select(columns: Mapping[str, pl.DataType]) -> str:
        out = []
        for name, dtype in columns.items():
            if isinstance(dtype, pl.Datetime):
                out.append(f"(extract(epoch FROM {name}) * 1000000)::bigint AS {name}")
            else:
                out.append(name)
        return ", ".join(out)

    def read_frame(self, after_position: int = 0, stream_prefix: str | None = None) -> pl.DataFrame:
        where = sql.SQL("global_position > {}").format(sql.Literal(after_position))
        if stream_prefix:
            pattern = (
                stream_prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            )
            where = sql.SQL("{} AND stream_id LIKE {}").format(where, sql.Literal(pattern))
        query = sql.SQL("SELECT {} FROM events WHERE {} ORDER BY global_position").format(
            sql.SQL(self._select(EVENT_COLUMNS)), where
        )
        with self._connection() as con:
            data = self._copy_out(con, query)
        return self._frame(data, EVENT_COLUMNS)

    def streams(self, prefix: str = "") -> list[str]:
        pattern = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        with self._connection() as con:
            rows = con.execute(
                "SELECT DISTINCT stream_id FROM events WHERE stream_id LIKE %s ORDER BY stream_id",
                [pattern],
            ).fetchall()
        return [str(r[0]) for r in rows]

    def log_epoch(self) -> int:
        with self._connection() as con:
            row = con.execute("SELECT value FROM log_meta WHERE key = 'epoch'").fetchone()
        assert row is not None
        return int(row[0])

    def head_position(self) -> int:
        with self._connection() as con:
            row = con.execute("SELECT coalesce(max(global_position), 0) FROM events").fetchone()
        assert row is not None
        return int(row[0])

    def chain_head(self) -> chain.ChainHead:
        with self._connection() as con, con.transaction():
            con.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            row = con.execute("SELECT value FROM log_meta WHERE key = 'next_position'").fetchone()
            assert row is not None
            position = int(row[0]) - 1
            return chain.ChainHead(position, _log_hash_at(con, position))

    @contextlib.contextmanager
    def chain_scan(self, batch: int = chain.VERIFY_BATCH) -> Iterator[chain.ChainScan]:
        with self._connection() as con, con.transaction():
            con.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            row = con.execute(
                "SELECT (SELECT value FROM log_meta WHERE key = 'next_position'), "
                "(SELECT count(*) FROM events), (SELECT count(*) FROM events_archive)"
            ).fetchone()
            assert row is not None
            columns = self._select(CHAINED_EVENT_COLUMNS)

            def read(lo: int, hi: int) -> pl.DataFrame:
                window = sql.SQL(
                    f"SELECT {columns}, 0 AS archived FROM events "
                    "WHERE global_position >= {lo} AND global_position < {hi} UNION ALL "
                    f"SELECT {columns}, 1 AS archived FROM events_archive "
                    "WHERE global_position >= {lo} AND global_position < {hi}"
                ).format(lo=sql.Literal(lo), hi=sql.Literal(hi))
                return self._frame(self._copy_out(con, window), SCAN_COLUMNS)

            def first_from(position: int) -> int | None:
                found = con.execute(
                    "SELECT least((SELECT min(global_position) FROM events "
                    "WHERE global_position >= %(p)s), (SELECT min(global_position) "
                    "FROM events_archive WHERE global_position >= %(p)s))",
                    {"p": position},
                ).fetchone()
                return None if found is None or found[0] is None else int(found[0])

            repeated = con.execute(
                "SELECT DISTINCT stream_id, stream_version FROM events_archive"
            ).fetchall()
            yield chain.ChainScan(
                next_position=int(row[0]),
                events=int(row[1]),
                archived=int(row[2]),
                repeated=frozenset((str(s), int(v)) for s, v in repeated),
                batches=chain.position_windows(read, first_from, batch),
            )

    def chain_at(self, position: int) -> chain.ChainHead:
        with self._connection() as con:
            return chain.ChainHead(position, _log_hash_at(con, position))

    # ---------------------------------------------------------------- truncation

    def truncate(
        self, stream_id: str, keep_through: int, expected_version: int, actor: str, reason: str
    ) -> Truncation:
        with self._writing() as con:
            actual = self._version(con, stream_id)
            if actual != expected_version:
                raise WrongExpectedVersion(stream_id, expected_version, actual)
            span = con.execute(
                "SELECT count(*), min(global_position), max(global_position) FROM events "
                "WHERE stream_id = %s AND stream_version > %s",
                [stream_id, keep_through],
            ).fetchone()
            assert span is not None
            count, lo_pos, hi_pos = span
            if not count:
                raise RestoreRefused(
                    f"stream {stream_id} has nothing after version {keep_through} to truncate"
                )
            tid = self._take(con, "next_truncation", 1)
            con.execute(
                "INSERT INTO truncations (truncation_id, stream_id, from_version, to_version, "
                "from_position, to_position, event_count, actor, reason, truncated_at) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, now())",
                [tid, stream_id, keep_through + 1, actual, lo_pos, hi_pos, count, actor, reason],
            )
            con.execute(
                f"INSERT INTO events_archive (truncation_id, {_CHAINED}) "
                f"SELECT %s, {_CHAINED} FROM events WHERE stream_id = %s AND stream_version > %s",
                [tid, stream_id, keep_through],
            )
            con.execute("SELECT set_config('arbiter.truncating', 'on', true)")
            con.execute(
                "DELETE FROM events WHERE stream_id = %s AND stream_version > %s",
                [stream_id, keep_through],
            )
            con.execute("SELECT set_config('arbiter.truncating', 'off', true)")
            self._take(con, "epoch", 1)
            con.execute("SELECT pg_notify(%s, 'epoch')", [CHANNEL])
        return self._truncation(tid)

    def restore(self, stream_id: str, actor: str, truncation_id: int | None = None) -> Truncation:
        with self._writing() as con:
            row = con.execute(
                "SELECT truncation_id, from_version FROM truncations WHERE stream_id = %s "
                "AND restored_at IS NULL AND (%s::bigint IS NULL OR truncation_id = %s) "
                "ORDER BY truncation_id DESC LIMIT 1",
                [stream_id, truncation_id, truncation_id],
            ).fetchone()
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
            n_row = con.execute(
                "SELECT count(*) FROM events_archive WHERE truncation_id = %s", [tid]
            ).fetchone()
            assert n_row is not None
            count = int(n_row[0])
            first = self._take(con, "next_position", count)
            hashes = con.execute(
                "SELECT stream_version, stream_hash FROM events_archive WHERE truncation_id = %s "
                "ORDER BY stream_version",
                [tid],
            ).fetchall()
            # The same events again, at new positions: their stream hashes stay, the log
            # chain goes on from the head.
            prev_log = _log_hash_at(con, first - 1)
            chained = []
            for i, (version, stream_hash) in enumerate(hashes):
                prev_log = chain.log_hash(prev_log, first + i, str(stream_hash))
                chained.append((int(version), first + i, prev_log))
            con.execute(
                f"INSERT INTO events ({_CHAINED}) "
                "SELECT c.position, a.stream_id, a.stream_version, a.event_id, a.event_type, "
                "a.schema_version, a.payload, a.metadata, a.recorded_at, a.stream_hash, c.hash "
                "FROM events_archive a JOIN unnest(%s::bigint[], %s::bigint[], %s::text[]) "
                "AS c(version, position, hash) ON a.stream_version = c.version "
                "WHERE a.truncation_id = %s",
                [[c[0] for c in chained], [c[1] for c in chained], [c[2] for c in chained], tid],
            )
            con.execute(
                "UPDATE truncations SET restored_at = now(), restored_by = %s "
                "WHERE truncation_id = %s",
                [actor, tid],
            )
            self._take(con, "epoch", 1)
            con.execute("SELECT pg_notify(%s, %s)", [CHANNEL, str(first + count - 1)])
        return self._truncation(tid)

    def truncations(self, stream_id: str | None = None) -> list[Truncation]:
        with self._connection() as con:
            rows = con.execute(
                f"SELECT {_TRUNCATION_SELECT} FROM truncations "
                "WHERE %s::text IS NULL OR stream_id = %s ORDER BY truncation_id",
                [stream_id, stream_id],
            ).fetchall()
        return [Truncation(*r) for r in rows]

    def _truncation(self, tid: int) -> Truncation:
        with self._connection() as con:
            row = con.execute(
                f"SELECT {_TRUNCATION_SELECT} FROM truncations WHERE truncation_id = %s", [tid]
            ).fetchone()
        assert row is not None
        return Truncation(*row)

    def archived(self, truncation_id: int) -> list[RecordedEvent]:
        with self._connection() as con:
            rows = con.execute(
                f"SELECT {_EVENT_SELECT} FROM events_archive WHERE truncation_id = %s "
                "ORDER BY stream_version",
                [truncation_id],
            ).fetchall()
        return [RecordedEvent(*r) for r in rows]

    # ---------------------------------------------------------------- followers, caches, images

    def _listen(self) -> psycopg.Connection[Any]:
        if self._listener is None or self._listener.closed:
            self._listener = psycopg.connect(self.dsn, **_connect_kwargs())
            self._listener.execute(f"LISTEN {CHANNEL}")
        return self._listener

    def wait_for_events(self, after_position: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self._listening, self._errors():
            listener = self._listen()  # listening before looking: no wake-up is lost
            while True:
                if self.head_position() > after_position:
                    return True
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                for _ in listener.notifies(timeout=remaining, stop_after=1):
                    pass

    def open_cache(self, name: str, tables: Mapping[str, Mapping[str, pl.DataType]]) -> TableCache:
        """In the user's cache folder, named after the server and database; the cache checks
        its checkpoint against the log, so a recreated database is noticed and rebuilt."""
        key = hashlib.sha256(self.url.encode()).hexdigest()[:16]
        return TableCache(str(cache_folder() / f"pg-{key}.{name}.duckdb"), tables, name=name)

    def export_image(self) -> LogImage:
        with self._connection() as con, con.transaction():
            con.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            events = self._frame(
                self._copy_out(
                    con,
                    sql.SQL(
                        f"SELECT {self._select(CHAINED_EVENT_COLUMNS)} FROM events "
                        "ORDER BY global_position"
                    ),
                ),
                CHAINED_EVENT_COLUMNS,
            )
            archive = self._frame(
                self._copy_out(
                    con,
                    sql.SQL(
                        f"SELECT {self._select(ARCHIVE_COLUMNS)} FROM events_archive "
                        "ORDER BY truncation_id, stream_version"
                    ),
                ),
                ARCHIVE_COLUMNS,
            )
            truncations = self._frame(
                self._copy_out(
                    con,
                    sql.SQL(
                        f"SELECT {self._select(TRUNCATION_COLUMNS)} FROM truncations "
                        "ORDER BY truncation_id"
                    ),
                ),
                TRUNCATION_COLUMNS,
            )
            counters = dict(con.execute("SELECT key, value FROM log_meta").fetchall())
        return LogImage(events, archive, truncations, {k: int(counters[k]) for k in COUNTERS})

    def import_image(self, image: LogImage) -> None:
        tables = {
            "events": (image.events, CHAINED_EVENT_COLUMNS),
            "events_archive": (image.archive, ARCHIVE_COLUMNS),
            "truncations": (image.truncations, TRUNCATION_COLUMNS),
        }
        with self._writing() as con:
            row = con.execute(
                "SELECT (SELECT count(*) FROM events) + (SELECT count(*) FROM events_archive) "
                "+ (SELECT count(*) FROM truncations), "
                "(SELECT value FROM log_meta WHERE key = 'next_position')"
            ).fetchone()
            assert row is not None
            if row[0] or row[1] != 1:
                raise StoreError(f"store {self.url} is not empty; copy into an empty store")
            for table, (frame, schema) in tables.items():
                if frame.height == 0:
                    continue
                statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
                    sql.Identifier(table), sql.SQL(", ").join(map(sql.Identifier, schema))
                )
                with con.cursor().copy(statement) as copy:
                    for chunk in _copy_lines(frame.select(list(schema)), schema):
                        copy.write(chunk)
            for key in COUNTERS:
                con.execute(
                    "UPDATE log_meta SET value = %s WHERE key = %s", [image.counters[key], key]
                )
            con.execute("SELECT pg_notify(%s, 'epoch')", [CHANNEL])
