"""The shared recorder: PostgreSQL, for a federation whose officers and directors share a log.

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
idempotency check, expected-version check, insert, NOTIFY; see
`events.recorders.postgres_schema`), so the lock is held for microseconds plus the commit.

Deciders. A command reads a stream, decides, and appends after the version it read; two
servers deciding on one stream at once would make one of them decide again. `deciding` holds a
transaction-level advisory lock on the stream (``pg_advisory_xact_lock(DECIDE_LOCK,
hashtext(stream))``, a key space apart from the append lock) on a connection of its own while
the command reads, decides and appends, so the writers of one stream take turns across every
process on the database; the threads of one process wait for the stream in the process first,
so each holds at most one connection per stream.

Followers. Every transaction that changes the log sends ``NOTIFY arbiter_events`` (delivered at
commit); ``wait_for_events`` LISTENs instead of polling.

Errors. Server and connection errors become store errors with one line for the user
(`StoreUnavailable`, `StoreBusy`, `StoreNotInitialized`); nothing half-done stays behind, as
the server rolls back the open transaction.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
import urllib.parse
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

import psycopg
import psycopg.errors
from psycopg_pool import ConnectionPool, PoolTimeout

from events.recorder import (
    Appended,
    AppendOutcome,
    Batch,
    Conflict,
    Duplicate,
    PartlyKnown,
    RecordConflict,
    StaleVersion,
    wait_for_head,
)
from events.recorders import postgres_schema
from events.recorders.postgres_schema import APPEND_LOCK, CHANNEL
from events.recorders.postgres_sql import PostgresSession
from events.store import StoreBusy, StoreError, StoreNotInitialized, StoreUnavailable

if TYPE_CHECKING:
    import polars as pl

    from events.cache import TableCache

DECIDE_LOCK = 0x6172_6269  # 'arbi': the first key of every stream's decision lock
_DECIDERS = 16
"""Connections at most that hold decision locks (one per stream being written at once)."""

__all__ = ["PostgresOptions", "PostgresRecorder", "display_url", "init_schema"]


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


def _connect(url: str, shown: str, timeout: float) -> psycopg.Connection[Any]:
    """A connection of our own: its error says what is wrong (no such database, no server on
    that socket, authentication), where a pool would only time out."""
    try:
        return psycopg.connect(url, connect_timeout=max(1, int(timeout)), **_connect_kwargs())
    except psycopg.OperationalError as exc:
        raise StoreUnavailable(f"cannot connect to the store {shown}: {_first_line(exc)}") from exc


def init_schema(url: str) -> tuple[int, int]:
    """Create or migrate the arbiter schema; returns (version before, version after)."""
    shown = display_url(url)
    with _errors(shown):
        con = _connect(url, shown, 10)
        with con:
            return postgres_schema.migrate(con, shown)


_OUTCOMES = frozenset({"ok", "duplicate", "partial", "conflict", "wrong_version"})


def _outcome(row: tuple[Any, ...]) -> AppendOutcome:
    """``arbiter_append``'s answer (outcome, version, positions, detail) as an `AppendOutcome`."""
    outcome, version, positions, detail = row
    assert outcome in _OUTCOMES, outcome
    if outcome == "ok":
        return Appended(tuple(int(p) for p in positions))
    if outcome == "duplicate":
        return Duplicate(int(version), tuple(int(p) for p in positions))
    if outcome == "partial":
        return PartlyKnown(int(version))
    if outcome == "conflict":
        return Conflict(str(detail))
    return StaleVersion(int(version))


class PostgresOptions(TypedDict, total=False):
    """How a `PostgresRecorder` connects and appends."""

    pool_size: int
    """Connections at most (default 4)."""
    connect_timeout: float
    """Seconds to wait for a connection (default 10)."""
    busy_timeout: float | None
    """The server's ``lock_timeout`` in seconds (default ``$ARBITER_STORE_TIMEOUT``, else 10)."""
    one_statement_append: bool
    """False: appends run the log's steps instead of ``arbiter_append`` (default True; the
    contract tests compare the two)."""


class PostgresRecorder:
    """`events.recorders.Recorder` on a PostgreSQL database (any libpq URI, a unix socket
    included), with `PostgresOptions`."""

    def __init__(self, url: str, **options: Unpack[PostgresOptions]) -> None:
        pool_size = options.get("pool_size", 4)
        connect_timeout = options.get("connect_timeout", 10.0)
        busy_timeout = options.get("busy_timeout")
        one_statement_append = options.get("one_statement_append", True)
        self.dsn = url
        self.url = display_url(url)
        self._one_statement_append = one_statement_append
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
        self._deciders: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
            url,
            min_size=0,
            max_size=_DECIDERS,
            kwargs=_connect_kwargs(),
            configure=configure,
            open=False,
            timeout=connect_timeout,
            name="arbiter-deciders",
        )
        self._streams: dict[str, threading.RLock] = {}
        self._streams_lock = threading.Lock()
        self._held = threading.local()
        self._listening = threading.Lock()  # one waiter at a time on the LISTEN connection
        with _errors(self.url):
            with _connect(url, self.url, connect_timeout) as probe:
                postgres_schema.check(probe, self.url)
            try:
                self._pool.open(wait=True, timeout=connect_timeout)
            except PoolTimeout as exc:
                self._pool.close()
                raise StoreUnavailable(f"cannot connect to the store {self.url}") from exc

    def close(self) -> None:
        if self._listener is not None:
            with contextlib.suppress(psycopg.Error):
                self._listener.close()
            self._listener = None
        if not self._deciders.closed:
            self._deciders.close()
        self._pool.close()

    # ---------------------------------------------------------------- sessions

    @contextlib.contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        with _errors(self.url), self._pool.connection() as con:
            yield con

    @contextlib.contextmanager
    def reading(self) -> Iterator[PostgresSession]:
        with self._connection() as con:
            yield PostgresSession(con)

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[PostgresSession]:
        with self._connection() as con, con.transaction():
            con.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield PostgresSession(con)

    @contextlib.contextmanager
    def writing(self) -> Iterator[PostgresSession]:
        """A transaction holding the append lock (see the module's ordering note)."""
        try:
            with self._connection() as con, con.transaction():
                con.execute("SELECT pg_advisory_xact_lock(%s)", [APPEND_LOCK])
                yield PostgresSession(con)
        except psycopg.errors.UniqueViolation as exc:
            raise RecordConflict(_first_line(exc)) from exc

    @contextlib.contextmanager
    def deciding(self, stream_id: str) -> Iterator[None]:
        """The stream's decision lock, across processes (see the module's note); re-entrant
        in a thread. A wait past the ``lock_timeout`` is `StoreBusy`."""
        held: set[str] = self._held.__dict__.setdefault("streams", set())
        if stream_id in held:
            yield
            return
        with self._streams_lock:
            local = self._streams.setdefault(stream_id, threading.RLock())
        pool = self._decider_pool()
        with local, _errors(self.url), pool.connection() as con, con.transaction():
            con.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [DECIDE_LOCK, stream_id])
            held.add(stream_id)
            try:
                yield
            finally:
                held.discard(stream_id)

    def _decider_pool(self) -> ConnectionPool[psycopg.Connection[Any]]:
        """The decision locks' pool, opened at its first use (a CLI that only reads opens
        no second pool)."""
        with self._streams_lock:
            if self._deciders.closed:
                self._deciders.open()
        return self._deciders

    def append_in_one_statement(self, batch: Batch) -> AppendOutcome | None:
        """``arbiter_append``: lock, idempotency, version check, hashes, insert and NOTIFY in
        one statement (None when this recorder was made to run the log's steps instead)."""
        if not self._one_statement_append:
            return None
        events = batch.events
        with self._connection() as con:
            row = con.execute(
                "SELECT * FROM arbiter_append(%s, %s, %s, %s, %s, %s, %s)",
                [
                    batch.stream_id,
                    batch.expected_version,
                    [e.event_id for e in events],
                    [e.event_type for e in events],
                    [e.schema_version for e in events],
                    [e.payload for e in events],
                    [e.metadata for e in events],
                ],
            ).fetchone()
        assert row is not None
        return _outcome(row)

    # ---------------------------------------------------------------- followers, caches

    def _listen(self) -> psycopg.Connection[Any]:
        if self._listener is None or self._listener.closed:
            self._listener = psycopg.connect(self.dsn, **_connect_kwargs())
            self._listener.execute(f"LISTEN {CHANNEL}")
        return self._listener

    def wait_for_events(self, after_position: int, timeout: float) -> bool:
        with self._listening, _errors(self.url):
            listener = self._listen()  # listening before looking: no wake-up is lost

            def pause(remaining: float) -> None:
                for _ in listener.notifies(timeout=remaining, stop_after=1):
                    pass

            return wait_for_head(self._head_position, after_position, timeout, pause)

    def _head_position(self) -> int:
        with self.reading() as session:
            return session.head_position()

    def open_cache(self, name: str, tables: Mapping[str, Mapping[str, pl.DataType]]) -> TableCache:
        """In the user's cache folder, named after the server and database; the cache checks
        its checkpoint against the log, so a recreated database is noticed and rebuilt."""
        from events.cache import TableCache, cache_folder

        key = hashlib.sha256(self.url.encode()).hexdigest()[:16]
        return TableCache(str(cache_folder() / f"pg-{key}.{name}.duckdb"), tables, name=name)
