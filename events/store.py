"""The store contract: what every event-store backend guarantees, and its value types.

`events.log.EventLog` is the one implementation of the contract's rules; the backends are its
recorders (`events.recorders`). This module imports no polars: the frame schemas
(`BULK_COLUMNS`, `EVENT_COLUMNS` ...) live in `events.columns` and are handed out from here
when first asked for, so `from events.store import BULK_COLUMNS` keeps working.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Protocol, Self

from events.errors import ArbiterError, RetryableError, UserError
from events.schema import Event, EventBase, decode, encode, type_name

__all__ = [
    "ARCHIVE_COLUMNS",
    "BULK_COLUMNS",
    "CHAINED_EVENT_COLUMNS",
    "COUNTERS",
    "EVENT_COLUMNS",
    "HASH_COLUMNS",
    "SCAN_COLUMNS",
    "TRUNCATION_COLUMNS",
    "AppendResult",
    "EventIdConflict",
    "LogImage",
    "NewEvent",
    "RecordedEvent",
    "RestoreRefused",
    "Store",
    "StoreBusy",
    "StoreError",
    "StoreNotInitialized",
    "StoreUnavailable",
    "Truncation",
    "WrongExpectedVersion",
]

if TYPE_CHECKING:
    import polars as pl

    from events.cache import TableCache
    from events.chain import ChainScan
    from events.columns import (
        ARCHIVE_COLUMNS,
        BULK_COLUMNS,
        CHAINED_EVENT_COLUMNS,
        EVENT_COLUMNS,
        HASH_COLUMNS,
        SCAN_COLUMNS,
        TRUNCATION_COLUMNS,
    )
    from events.hashes import ChainHead
else:

    def __getattr__(name: str) -> object:
        """The frame schemas of `events.columns`, imported (with polars) when first asked for."""
        if name in _COLUMN_SCHEMAS:
            from events import columns

            return getattr(columns, name)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_COLUMN_SCHEMAS = frozenset(name for name in __all__ if name.endswith("_COLUMNS"))


class StoreError(ArbiterError):
    """Base of the store's errors; every one has a one-line message fit for a user."""


class WrongExpectedVersion(StoreError, RetryableError):
    """The stream moved on since the caller read it (optimistic concurrency)."""

    def __init__(self, stream_id: str, expected: int, actual: int) -> None:
        super().__init__(
            f"stream {stream_id} changed meanwhile (expected version {expected}, "
            f"found {actual}); re-run the command"
        )
        self.stream_id = stream_id
        self.expected = expected
        self.actual = actual


class StoreBusy(StoreError, RetryableError):
    """Another process holds the store's write lock."""

    def __init__(self, path: str, pid: int | None) -> None:
        holder = f"held by pid {pid}" if pid is not None else "held by another process"
        super().__init__(f"store is busy ({holder}); retry: {path}")
        self.pid = pid


class StoreUnavailable(StoreError, RetryableError):
    """The store's server cannot be reached, or the connection to it was lost mid-command.

    Nothing half-done stays behind: the transaction that was open is rolled back by the server.
    """


class StoreNotInitialized(StoreError, UserError):
    """The store has no arbiter schema yet, or an older one: `arbiter store init` creates it."""


class EventIdConflict(StoreError, UserError):
    """An event id is already in the log with a different payload, or only part of a batch is."""


class RestoreRefused(StoreError, UserError):
    """A truncation cannot be restored (nothing to restore, or the stream moved on)."""


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append, with its idempotency key and metadata."""

    event: EventBase
    event_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def event_type(self) -> str:
        return type_name(self.event)

    def payload(self) -> str:
        return encode(self.event)

    def metadata_text(self) -> str:
        """The metadata as stored: JSON with sorted keys."""
        return json.dumps(self.metadata, sort_keys=True)


@dataclass(frozen=True)
class RecordedEvent:
    """An event as stored: its position in the log and in its stream, and its payload."""

    position: int
    stream_id: str
    version: int
    event_id: str
    event_type: str
    schema_version: int
    payload: str
    metadata: str
    recorded_at: dt.datetime

    @cached_property
    def event(self) -> Event:
        return decode(self.event_type, self.schema_version, self.payload)

    @property
    def meta(self) -> dict[str, Any]:
        value: dict[str, Any] = json.loads(self.metadata)
        return value


@dataclass(frozen=True, slots=True)
class AppendResult:
    """Positions given to appended events; `duplicate` when the batch was already in the log."""

    stream_id: str
    first_version: int
    last_version: int
    positions: tuple[int, ...]
    duplicate: bool = False


@dataclass(frozen=True, slots=True)
class Truncation:
    """The record of one truncation: which tail was archived, by whom and why."""

    truncation_id: int
    stream_id: str
    from_version: int
    to_version: int
    from_position: int
    to_position: int
    event_count: int
    actor: str
    reason: str
    truncated_at: dt.datetime
    restored_at: dt.datetime | None
    restored_by: str | None


COUNTERS = ("next_position", "epoch", "next_truncation")
"""The log's counters: the next global position, the epoch, the next truncation id."""


@dataclass(frozen=True)
class LogImage:
    """A whole store, read in one snapshot: what `store copy` and `store backup` move.

    Positions, truncation ids and counters travel unchanged, so the copy is the same log. The
    rows of the imported rating lists (`events.imported_lists`) travel with it: they are written
    beside their ``RatingListImported`` events and are part of the store.
    """

    events: pl.DataFrame
    """CHAINED_EVENT_COLUMNS, ordered by position."""
    archive: pl.DataFrame
    """ARCHIVE_COLUMNS, ordered by truncation id and stream version."""
    truncations: pl.DataFrame
    """TRUNCATION_COLUMNS, ordered by truncation id."""
    counters: dict[str, int]
    """COUNTERS."""
    list_rows: pl.DataFrame | None = None
    """The imported rating lists' rows (``events.columns.LIST_ROW_COLUMNS``), ordered by list,
    date and player; None from a caller that built an image without them (read as none)."""


class Store(Protocol):
    """An append-only event log with per-stream optimistic concurrency and an archive.

    Positions are unique, increase in commit order and are never reused: a reader that has
    seen position p and later reads `after_position=p` misses nothing.
    """

    url: str
    """Where the store is, fit to print (a server URL without its password)."""

    def append(
        self, stream_id: str, events: Sequence[NewEvent], expected_version: int
    ) -> AppendResult:
        """Append after `expected_version` (-1 for a new stream) in one transaction."""
        ...

    def append_frame(self, frame: pl.DataFrame) -> int:
        """Bulk-append pre-versioned rows (BULK_COLUMNS) of any streams in one transaction.

        Each stream's rows must continue its current version; returns the number appended.
        """
        ...

    def append_with_list_rows(
        self,
        stream_id: str,
        events: Sequence[NewEvent],
        expected_version: int,
        rows: pl.DataFrame,
        replace: Sequence[tuple[str, dt.date]] = (),
    ) -> AppendResult:
        """Append ``events`` as `append` does and, in the same transaction, write rating-list
        rows (``events.columns.LIST_ROW_COLUMNS``), first deleting the rows of each (list,
        date) of ``replace``. When the events are a duplicate (their ids are in the log with the
        same payloads), nothing is written; when they are refused, nothing either."""
        ...

    def list_rows(self, list_name: str, list_date: dt.date) -> pl.DataFrame:
        """The rows of one imported list (LIST_ROW_COLUMNS), ordered by player id."""
        ...

    def list_row(self, list_name: str, list_date: dt.date, player_id: str) -> dict[str, Any] | None:
        """One player's row of an imported list (LIST_ROW_COLUMNS' names), or None."""
        ...

    def stream_version(self, stream_id: str) -> int: ...

    def read_stream(self, stream_id: str, to_version: int | None = None) -> list[RecordedEvent]: ...

    def read_all(
        self, after_position: int = 0, limit: int | None = None
    ) -> list[RecordedEvent]: ...

    def read_frame(self, after_position: int = 0, stream_prefix: str | None = None) -> pl.DataFrame:
        """Events as a polars frame (for projections that need speed), ordered by position."""
        ...

    def streams(self, prefix: str = "") -> list[str]: ...

    def type_counts(self, prefix: str) -> list[tuple[str, str, int]]:
        """(stream, event type, events) of the streams whose id starts with ``prefix``: a
        summary counted by the database, without reading a payload."""
        ...

    def payloads(self, prefix: str, types: Sequence[str]) -> list[tuple[str, str, str]]:
        """(stream, event type, stored payload) of the events of ``types`` in the streams whose
        id starts with ``prefix``, in log order."""
        ...

    def truncate(
        self, stream_id: str, keep_through: int, expected_version: int, actor: str, reason: str
    ) -> Truncation:
        """Move versions > keep_through of a stream into the archive (one transaction)."""
        ...

    def restore(self, stream_id: str, actor: str, truncation_id: int | None = None) -> Truncation:
        """Re-append a truncation of a stream (default: the latest unrestored one) when the
        stream is back at that truncation's cut point."""
        ...

    def truncations(self, stream_id: str | None = None) -> list[Truncation]: ...

    def archived(self, truncation_id: int) -> list[RecordedEvent]: ...

    def log_epoch(self) -> int:
        """Changes whenever a truncation or restore changes history; projections rebuild."""
        ...

    def head_position(self) -> int:
        """The position of the last event in the log (0 when empty)."""
        ...

    def deciding(self, stream_id: str) -> AbstractContextManager[None]:
        """Hold `stream_id` while a command reads it, decides and appends: the other writers
        of that stream, in any process, wait (`pipelines.commands.base.decided_again`)."""
        ...

    def wait_for_events(self, after_position: int, timeout: float) -> bool:
        """Block until the log has an event after `after_position` or `timeout` seconds pass;
        True when it has. PostgreSQL is told by NOTIFY; DuckDB polls."""
        ...

    def open_cache(self, name: str, tables: Mapping[str, Mapping[str, pl.DataType]]) -> TableCache:
        """The projection cache `name` of this store (see `events.cache`)."""
        ...

    def export_image(self) -> LogImage:
        """The whole store (events, archive, truncations, counters) in one consistent read."""
        ...

    def chain_head(self) -> ChainHead:
        """The last position given out and its log hash (see `events.chain`)."""
        ...

    def chain_scan(self, batch: int) -> AbstractContextManager[ChainScan]:
        """The log and its archive for `events.chain.verify_scan`, read in one snapshot, in
        frames of at most ``batch`` positions (SCAN_COLUMNS), fetched as they are consumed."""
        ...

    def chain_at(self, position: int) -> ChainHead:
        """The log hash at ``position``: what a list computed from the log up to it records."""
        ...

    def import_image(self, image: LogImage) -> None:
        """Load a `LogImage` into this store, which must be empty (one transaction)."""
        ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(self, *exc: object) -> None: ...
