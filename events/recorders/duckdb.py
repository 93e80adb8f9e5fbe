"""The embedded recorder: one DuckDB file, one writing process at a time.

DuckDB locks the file per process, so commands open the store, do their work and close it; a
second process retries the open with backoff for a bounded time and then gets `StoreBusy`.
Processes that want the file queue for it in arrival order (`events.ticket_lock`), and a
long-running command gives way to them between two of its store operations (`_turn`), once
it has had the file for `TURN` seconds: a command's read, check and append (a few tens of
milliseconds) happen in one turn, so eight writers queued on one tournament do not each lose
the race between their read and their append.
Inside the process one lock serialises every session, so a writing transaction is the only
statement stream on the file while it runs: positions come from a counter kept in the same
transaction as the append, so they are never reused, not even after a truncation, and they
become visible in increasing order.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

from events import ticket_lock
from events.recorder import AppendOutcome, Batch, RecordConflict, wait_for_head
from events.recorders.duckdb_schema import migrate
from events.recorders.duckdb_sql import DuckDBSession, transaction
from events.store import StoreBusy, StoreError

if TYPE_CHECKING:
    import polars as pl

    from events.cache import TableCache

__all__ = ["DEFAULT_STORE", "DuckDBRecorder", "default_store_path"]

_LOCK_PID = re.compile(r"PID (\d+)")

DEFAULT_STORE = "arbiter.duckdb"
TURN = 0.5
"""Seconds a process keeps the file before it gives way to processes queued meanwhile."""

LONG_WAL = 32 * 1024
"""Bytes of write-ahead log beyond which closing the file checkpoints it. Every open replays
the WAL, index entries and all: 80 KB of it (a 40-player event's set-up, ~85 commits) cost a
light command 0.013 s of CPU, so DuckDB's own threshold (1 MB, ~1,100 commits) would let a
read cost 0.15 s more late in an event; the checkpoint costs ~0.004 s of CPU (and an fsync),
once in ~35 small writes."""


def default_store_path() -> str:
    return os.environ.get("ARBITER_STORE", DEFAULT_STORE)


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


class DuckDBRecorder:
    """`events.recorders.Recorder` on a DuckDB file (or ``:memory:``).

    ``busy_timeout`` (default ``$ARBITER_STORE_TIMEOUT``, else 10 s) bounds the wait for the
    file; ``$ARBITER_STORE_QUEUE=0`` turns the arrival-order queue off.
    """

    migrated: tuple[int, int]
    """The schema version before and after opening (`events.stores.init_store`)."""

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
        self._holding = False  # the file is this process's, and up to date: set below
        self._turn_began = time.monotonic()
        self._lock = threading.Lock()
        self._configure()
        try:
            self.migrated = migrate(self._con, self.path)
        except BaseException:
            self.close()
            raise
        self._holding = self.path != ":memory:"

    def _leave_queue(self) -> None:
        if self._queued:
            self._queued = False
            ticket_lock.leave(self.path)

    def close(self) -> None:
        try:
            self._checkpoint_long_wal()
            self._con.close()
        finally:
            self._leave_queue()

    def _checkpoint_long_wal(self) -> None:
        """Checkpoint a WAL longer than `LONG_WAL`, so that the next open (every command's)
        does not replay it. Everything in it is committed already: a checkpoint that fails
        (a transaction left open, a full disk) leaves the WAL to be replayed, as before."""
        if not self._holding:
            return
        try:
            if os.path.getsize(self.path + ".wal") <= LONG_WAL:
                return
        except OSError:
            return  # no WAL
        with contextlib.suppress(duckdb.Error):
            self._con.execute("CHECKPOINT")

    def deciding(self, stream_id: str) -> AbstractContextManager[None]:  # noqa: ARG002
        """Nothing to hold: one process at a time has the file open."""
        return contextlib.nullcontext()

    def checkpoint(self) -> None:
        """Write everything into the file itself (no WAL beside it), e.g. for a backup."""
        with self._turn():
            self._con.execute("FORCE CHECKPOINT")

    def _configure(self) -> None:
        # Commands open and close the file each time; a checkpoint at every close would cost
        # more than the command. Commits are still fsynced to the WAL, and a small threshold
        # keeps the WAL (replayed at open) short.
        self._con.execute("PRAGMA disable_checkpoint_on_shutdown")
        self._con.execute("SET checkpoint_threshold = '1MB'")
        # DuckDB's allocator returns the pages of freed results to the system in a thread of
        # its own; without it a command keeps what a big read freed (a rating run over a
        # million-player list and a month of games: 1.8 GB peak instead of 1.55).
        self._con.execute("SET allocator_background_threads = true")

    # ---------------------------------------------------------------- turns and sessions

    @contextlib.contextmanager
    def _turn(self) -> Iterator[None]:
        """This store's lock, after giving way to any process queued for the file meanwhile:
        a long-running command (an ingest, a rating run) lets a director's `standings` or
        `result` in between two of its store operations instead of holding the file for its
        whole run. It then queues again, behind them. A turn lasts `TURN` seconds at least, so
        a command's read and its append are not split by other writers."""
        with self._lock:
            if (
                self._queued
                and time.monotonic() - self._turn_began >= TURN
                and ticket_lock.others_waiting(self.path)
            ):
                self._give_way()
            yield

    def _give_way(self) -> None:
        self._con.close()
        self._holding = False
        self._queued = False
        ticket_lock.leave(self.path)
        holder = ticket_lock.enter(self.path, self._busy_timeout)
        if holder is not None:
            self._con = duckdb.connect(":memory:")  # closed by close(); the file is not ours
            raise StoreBusy(self.path, holder or None)
        self._queued = True
        self._con = _connect(self.path, self._busy_timeout)
        self._holding = True
        self._turn_began = time.monotonic()
        self._configure()

    @contextlib.contextmanager
    def reading(self) -> Iterator[DuckDBSession]:
        with self._turn():
            yield DuckDBSession(self._con)

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[DuckDBSession]:
        """A read transaction, rolled back at the end."""
        with self._turn():
            self._con.begin()
            try:
                yield DuckDBSession(self._con)
            finally:
                self._con.rollback()

    @contextlib.contextmanager
    def writing(self) -> Iterator[DuckDBSession]:
        """A transaction in this store's turn: the file is this process's, and the lock keeps
        its other threads out. DuckDB finds a duplicate key at the statement or at COMMIT."""
        try:
            with self._turn(), transaction(self._con) as con:
                yield DuckDBSession(con)
        except duckdb.ConstraintException as exc:
            raise RecordConflict(str(exc).splitlines()[0]) from exc

    def append_in_one_statement(self, batch: Batch) -> AppendOutcome | None:  # noqa: ARG002
        """None: DuckDB runs the log's steps in `writing`."""
        return None

    # ---------------------------------------------------------------- followers, caches

    def wait_for_events(self, after_position: int, timeout: float) -> bool:
        """Polls: a DuckDB file has one process at a time, so only this process's own
        threads can append meanwhile."""
        delay = 0.01

        def pause(remaining: float) -> None:
            nonlocal delay
            time.sleep(min(delay, remaining))
            delay = min(delay * 2, 0.2)

        return wait_for_head(self._head_position, after_position, timeout, pause)

    def _head_position(self) -> int:
        with self.reading() as session:
            return session.head_position()

    def open_cache(self, name: str, tables: Mapping[str, Mapping[str, pl.DataType]]) -> TableCache:
        """Beside the file (``arbiter.duckdb`` → ``arbiter.games.duckdb``); in memory for an
        in-memory store."""
        from events.cache import TableCache

        if self.path == ":memory:":
            return TableCache(":memory:", tables, name=name)
        path = Path(self.path)
        return TableCache(str(path.with_name(f"{path.stem}.{name}.duckdb")), tables, name=name)
