"""`Session`: the storage primitives the log works through, and the SQL both backends share.

A session is one connection in one of a recorder's three modes (`events.recorder`): it stores
and selects, and decides nothing; "no such row" is None, and the defaults (a new stream's
version -1, a chain's `GENESIS`) are the log's. Both backends hold the same tables
(``events``, ``events_archive``, ``truncations``, ``log_meta``), so the statements that read
and write them alike are written here once, with ``?`` parameters, and each backend runs them
on its connection (`_rows`, `_run`). The abstract primitives are those that differ: frames,
bulk and batch inserts, clocks, counters, the append-only trigger's permit, NOTIFY.
"""

from __future__ import annotations

import abc
import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from events.recorder import EventRow, KnownEvent, NewTruncation, TailSpan
from events.recorders.list_rows import ListRows
from events.store import RecordedEvent, Truncation

if TYPE_CHECKING:
    import polars as pl

__all__ = ["CHAINED_SQL", "EVENT_COLUMNS_SQL", "Params", "Session"]

EVENT_COLUMNS_SQL = (
    "global_position, stream_id, stream_version, event_id, event_type, schema_version, "
    "payload, metadata, recorded_at"
)
CHAINED_SQL = f"{EVENT_COLUMNS_SQL}, stream_hash, log_hash"
"""The events table's columns in `EventRow` order. Inserts name their columns, so that a
migration may add one (e.g. a hash chain)."""

_TRUNCATION_INSERT = (
    "truncation_id, stream_id, from_version, to_version, from_position, to_position, "
    "event_count, actor, reason, truncated_at"
)

Params = Sequence[object]


class Session(abc.ABC):
    """The storage primitives on one connection (see the module's note)."""

    bulk_part_rows: ClassVar[int | None]
    """Rows per part of a bulk append's chained rows (hashed while the part before is sent);
    None: the whole batch at once."""
    event_select: ClassVar[str]
    """The select list of a `RecordedEvent` (times as naive UTC)."""
    truncation_select: ClassVar[str]
    """The select list of a `Truncation` (times as naive UTC)."""
    ids_match: ClassVar[str]
    """An expression true for an ``event_id`` in the list parameter ``?``."""
    lists: ListRows
    """The imported rating lists' rows on this session's connection (their own store: the
    log's primitives below never touch them)."""

    @abc.abstractmethod
    def _rows(self, query: str, params: Params = ()) -> list[tuple[Any, ...]]:
        """The rows of a statement with ``?`` parameters."""

    @abc.abstractmethod
    def _run(self, query: str, params: Params = ()) -> None:
        """Run a statement with ``?`` parameters that returns no rows."""

    @abc.abstractmethod
    def _stamp(self) -> object:
        """This transaction's time as a parameter for a timestamp column (truncation records)."""

    def _changed(self, what: object) -> None:  # noqa: B027  (a hook: most backends need none)
        """The log changed (``what``: its new head position, or ``"epoch"``); a backend may
        tell followers."""

    def _one(self, query: str, params: Params = ()) -> tuple[Any, ...] | None:
        rows = self._rows(query, params)
        return rows[0] if rows else None

    def _value(self, query: str, params: Params = ()) -> Any:
        """The first value of a statement that always returns a row (an aggregate)."""
        row = self._one(query, params)
        assert row is not None
        return row[0]

    # ---------------------------------------------------------------- reads

    def stream_version(self, stream_id: str) -> int:
        """The stream's last version; -1 when it has none."""
        return int(
            self._value(
                "SELECT coalesce(max(stream_version), -1) FROM events WHERE stream_id = ?",
                [stream_id],
            )
        )

    def stream_head(self, stream_id: str) -> tuple[int, str | None] | None:
        """The stream's last version and its stream hash; None for a new stream."""
        row = self._one(
            "SELECT stream_version, stream_hash FROM events WHERE stream_id = ? "
            "ORDER BY stream_version DESC LIMIT 1",
            [stream_id],
        )
        return None if row is None else (int(row[0]), row[1])

    @abc.abstractmethod
    def stream_heads(self, streams: pl.Series) -> pl.DataFrame:
        """For those of ``streams`` the log holds: ``stream_id``, ``actual`` (the last
        version) and ``head`` (its stream hash)."""

    def read_stream(self, stream_id: str, to_version: int | None) -> list[RecordedEvent]:
        rows = self._rows(
            f"SELECT {self.event_select} FROM events WHERE stream_id = ? "
            "AND stream_version <= ? ORDER BY stream_version",
            [stream_id, to_version if to_version is not None else 2**62],
        )
        return [RecordedEvent(*r) for r in rows]

    def read_all(self, after_position: int, limit: int | None) -> list[RecordedEvent]:
        rows = self._rows(
            f"SELECT {self.event_select} FROM events WHERE global_position > ? "
            "ORDER BY global_position LIMIT ?",
            [after_position, limit if limit is not None else 2**62],
        )
        return [RecordedEvent(*r) for r in rows]

    @abc.abstractmethod
    def read_frame(self, after_position: int, stream_prefix: str | None) -> pl.DataFrame:
        """`events.store.Store.read_frame` (`events.columns.EVENT_COLUMNS`)."""

    @abc.abstractmethod
    def streams(self, prefix: str) -> list[str]:
        """The streams whose id starts with ``prefix`` (literally), in byte order."""

    def type_counts(self, prefix: str) -> list[tuple[str, str, int]]:
        """(stream, event type, events) of the streams whose id starts with ``prefix``."""
        rows = self._rows(
            "SELECT stream_id, event_type, count(*) FROM events WHERE left(stream_id, ?) = ? "
            "GROUP BY stream_id, event_type",
            [len(prefix), prefix],
        )
        return [(str(s), str(t), int(n)) for s, t, n in rows]

    def payloads(self, prefix: str, types: Sequence[str]) -> list[tuple[str, str, str]]:
        """(stream, event type, payload) of the events of ``types`` in the streams whose id
        starts with ``prefix``, in log order."""
        marks = ", ".join("?" * len(types))
        rows = self._rows(
            "SELECT stream_id, event_type, payload FROM events WHERE left(stream_id, ?) = ? "
            f"AND event_type IN ({marks}) ORDER BY global_position",
            [len(prefix), prefix, *types],
        )
        return [(str(s), str(t), str(p)) for s, t, p in rows]

    def head_position(self) -> int:
        """The highest position in the log (0 when empty)."""
        return int(self._value("SELECT coalesce(max(global_position), 0) FROM events"))

    def counter(self, key: str) -> int:
        """One of the log's counters (`events.store.COUNTERS`)."""
        return int(self._value("SELECT value FROM log_meta WHERE key = ?", [key]))

    def counters(self) -> dict[str, int]:
        return {str(k): int(v) for k, v in self._rows("SELECT key, value FROM log_meta")}

    def count(self, table: str) -> int:
        """Rows in ``events`` or ``events_archive``."""
        return int(self._value(f"SELECT count(*) FROM {table}"))

    def truncations(self, stream_id: str | None) -> list[Truncation]:
        rows = self._rows(
            f"SELECT {self.truncation_select} FROM truncations "
            "WHERE ?::varchar IS NULL OR stream_id = ? ORDER BY truncation_id",
            [stream_id, stream_id],
        )
        return [Truncation(*r) for r in rows]

    def truncation(self, truncation_id: int) -> Truncation:
        row = self._one(
            f"SELECT {self.truncation_select} FROM truncations WHERE truncation_id = ?",
            [truncation_id],
        )
        assert row is not None
        return Truncation(*row)

    def archived(self, truncation_id: int) -> list[RecordedEvent]:
        rows = self._rows(
            f"SELECT {self.event_select} FROM events_archive WHERE truncation_id = ? "
            "ORDER BY stream_version",
            [truncation_id],
        )
        return [RecordedEvent(*r) for r in rows]

    def log_hash_at(self, position: int) -> str | None:
        """The log hash of the row at ``position``, in the log or the archive."""
        row = self._one(
            "SELECT log_hash FROM events WHERE global_position = ? UNION ALL "
            "(SELECT log_hash FROM events_archive WHERE global_position = ? LIMIT 1) LIMIT 1",
            [position, position],
        )
        return None if row is None or row[0] is None else str(row[0])

    @abc.abstractmethod
    def table_frame(
        self, table: str, columns: Mapping[str, pl.DataType], order_by: str
    ) -> pl.DataFrame:
        """A whole table (``columns``, in that order and with those types), sorted."""

    def archived_versions(self) -> frozenset[tuple[str, int]]:
        """The (stream, version)s in the archive."""
        rows = self._rows("SELECT DISTINCT stream_id, stream_version FROM events_archive")
        return frozenset((str(s), int(v)) for s, v in rows)

    @abc.abstractmethod
    def scan_window(self, lo: int, hi: int) -> pl.DataFrame:
        """The rows of the log and the archive at positions ``[lo, hi)``
        (`events.columns.SCAN_COLUMNS`)."""

    def first_position_from(self, position: int) -> int | None:
        """The lowest position held, in the log or the archive, at or above ``position``."""
        found = self._value(
            "SELECT least((SELECT min(global_position) FROM events WHERE global_position >= ?), "
            "(SELECT min(global_position) FROM events_archive WHERE global_position >= ?))",
            [position, position],
        )
        return None if found is None else int(found)

    # ---------------------------------------------------------------- writes (in `writing`)

    @abc.abstractmethod
    def now(self) -> dt.datetime:
        """The recording time of what this transaction appends (UTC, naive)."""

    @abc.abstractmethod
    def take(self, counter: str, count: int) -> int:
        """Reserve ``count`` numbers of a counter; the first."""

    def next_epoch(self) -> None:
        """Advance the log's epoch (history changed; followers are told)."""
        self.take("epoch", 1)
        self._changed("epoch")

    def known_events(self, event_ids: Sequence[str]) -> list[KnownEvent]:
        """The stored events with one of these ids, by stream version."""
        rows = self._rows(
            "SELECT event_id, payload, stream_version, global_position FROM events "
            f"WHERE {self.ids_match} ORDER BY stream_version",
            [list(event_ids)],
        )
        return [KnownEvent(str(i), str(p), int(v), int(g)) for i, p, v, g in rows]

    @abc.abstractmethod
    def insert_events(self, rows: Sequence[EventRow]) -> None:
        """Write rows of the events table (recorded this transaction's `now`)."""

    @abc.abstractmethod
    def insert_frames(self, parts: Iterable[pl.DataFrame]) -> None:
        """Write frames of rows (`events.columns.CHAINED_EVENT_COLUMNS`, recorded this
        transaction's `now`), part after part as they come."""

    def tail_span(self, stream_id: str, keep_through: int) -> TailSpan:
        """The stream's events after ``keep_through``."""
        row = self._one(
            "SELECT count(*), min(global_position), max(global_position) FROM events "
            "WHERE stream_id = ? AND stream_version > ?",
            [stream_id, keep_through],
        )
        assert row is not None
        return TailSpan(int(row[0]), row[1], row[2])

    def move_tail(self, truncation_id: int, stream_id: str, keep_through: int) -> None:
        """Copy the stream's versions after ``keep_through`` into the archive under
        ``truncation_id``, then delete them from the log."""
        self._run(
            f"INSERT INTO events_archive (truncation_id, {CHAINED_SQL}) "
            f"SELECT ?, {CHAINED_SQL} FROM events WHERE stream_id = ? AND stream_version > ?",
            [truncation_id, stream_id, keep_through],
        )
        self._delete_tail(stream_id, keep_through)

    def _delete_tail(self, stream_id: str, keep_through: int) -> None:
        self._run(
            "DELETE FROM events WHERE stream_id = ? AND stream_version > ?",
            [stream_id, keep_through],
        )

    def record_truncation(self, truncation: NewTruncation) -> None:
        """Write a truncation record (truncated now, not restored)."""
        t = truncation
        self._run(
            f"INSERT INTO truncations ({_TRUNCATION_INSERT}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                t.truncation_id,
                t.stream_id,
                t.from_version,
                t.to_version,
                t.span.from_position,
                t.span.to_position,
                t.span.count,
                t.actor,
                t.reason,
                self._stamp(),
            ],
        )

    def unrestored_truncation(
        self, stream_id: str, truncation_id: int | None
    ) -> tuple[int, int] | None:
        """The stream's latest unrestored truncation (or ``truncation_id`` if it is one): its
        id and first version."""
        row = self._one(
            "SELECT truncation_id, from_version FROM truncations WHERE stream_id = ? "
            "AND restored_at IS NULL AND (?::bigint IS NULL OR truncation_id = ?) "
            "ORDER BY truncation_id DESC LIMIT 1",
            [stream_id, truncation_id, truncation_id],
        )
        return None if row is None else (int(row[0]), int(row[1]))

    def archived_hashes(self, truncation_id: int) -> list[tuple[int, str]]:
        """(stream version, stream hash) of a truncation's archived events, by version."""
        rows = self._rows(
            "SELECT stream_version, stream_hash FROM events_archive WHERE truncation_id = ? "
            "ORDER BY stream_version",
            [truncation_id],
        )
        return [(int(v), str(h)) for v, h in rows]

    @abc.abstractmethod
    def restore_rows(self, truncation_id: int, rows: Sequence[tuple[int, int, str]]) -> None:
        """Copy a truncation's archived events back into the log: each (stream version,
        new position, new log hash) of ``rows``."""

    def mark_restored(self, truncation_id: int, actor: str) -> None:
        self._run(
            "UPDATE truncations SET restored_at = ?, restored_by = ? WHERE truncation_id = ?",
            [self._stamp(), actor, truncation_id],
        )

    def is_empty(self) -> bool:
        """No events, archive or truncations, and no position given out yet."""
        row = self._one(
            "SELECT (SELECT count(*) FROM events) + (SELECT count(*) FROM events_archive) "
            "+ (SELECT count(*) FROM truncations), "
            "(SELECT value FROM log_meta WHERE key = 'next_position')"
        )
        assert row is not None
        return not row[0] and row[1] == 1

    # ---------------------------------------------------------------- image import

    @abc.abstractmethod
    def load_table(
        self, table: str, frame: pl.DataFrame, columns: Mapping[str, pl.DataType]
    ) -> None:
        """Write a frame's rows (``columns``, in that order) into a table."""

    def set_counters(self, counters: Mapping[str, int]) -> None:
        for key, value in counters.items():
            self._run("UPDATE log_meta SET value = ? WHERE key = ?", [value, key])
        self._changed("epoch")
