"""The event log: every rule of the store contract, once, over a backend's recorder.

`EventLog` is the `events.store.Store` that `events.stores.open_store` returns, whatever the
backend; the backend is a `events.recorders.Recorder` that only stores and selects. The rules:

Appends. A batch whose event ids are all in the log already, each with the same payload, is a
duplicate: nothing is appended and the stored positions are returned, whatever the expected
version (a retried command, a re-ingested file). Some ids known and some not, or a known id
with another payload, is an `EventIdConflict`. Otherwise the stream must be at the expected
version (-1 for a new stream), else `WrongExpectedVersion`; the events then take the next
positions of the log's counter, in one transaction with the check, under the write lock.
PostgreSQL runs these same steps in one statement (``arbiter_append``, see
`events.recorders.postgres_schema`); its outcome comes back as an `AppendOutcome`, and
`_settled` turns every outcome into a result or an error, for both ways alike.

Bulk appends. Every stream of the frame must continue its stored version (its lowest version
is the stored one + 1, else `WrongExpectedVersion`) without gaps or repeats (else
`StoreError`); a unique key met on the way (an event id already in the log) refuses the
whole frame (`EventIdConflict`). Nothing is appended unless everything is.

The hash chains. Every new row gets its ``stream_hash`` (chained to its stream's previous
version) and ``log_hash`` (chained to the previous position, in the log or the archive) here,
before it is written (formulas: `events.hashes`, on frames `events.chain`).

Truncation. The stream must be at the expected version and have events after the cut;
they move to the archive under a new truncation id, with a truncation record, and the epoch
advances. Positions are never given out again.

Restore. The truncation (the stream's latest unrestored one, or the one named) must exist and
be unrestored, and the stream must be back at its cut (nothing appended since), else
`RestoreRefused`. Its events come back with their versions, ids and stream hashes, at new
positions whose log hashes continue the chain; the epoch advances.

Images. An image loads only into an empty store (no events, archive or truncation, no
position given out); positions, truncation ids and counters travel unchanged, and so do the
rows of the imported rating lists.

Rating-list rows. An imported list's rows go into their own table, in the transaction that
appends its ``RatingListImported`` event and only when that append is new (a duplicate batch
writes nothing): the log says which list a row belongs to, the table holds it
(`events.imported_lists`).
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Self

from events import hashes
from events.hashes import GENESIS, ChainHead
from events.recorder import (
    Appended,
    AppendOutcome,
    Batch,
    Conflict,
    Duplicate,
    EventRow,
    KnownEvent,
    NewTruncation,
    PartlyKnown,
    PendingEvent,
    RecordConflict,
    StaleVersion,
)
from events.recorders import Recorder
from events.schema import schema_version
from events.store import (
    COUNTERS,
    AppendResult,
    EventIdConflict,
    LogImage,
    NewEvent,
    RecordedEvent,
    RestoreRefused,
    StoreError,
    Truncation,
    WrongExpectedVersion,
)

if TYPE_CHECKING:
    import polars as pl

    from events.cache import TableCache
    from events.chain import ChainScan
    from events.recorders.session import Session

__all__ = ["EventLog"]


class EventLog:
    """`events.store.Store` over a `Recorder`: the log's rules (see the module's note)."""

    def __init__(self, recorder: Recorder) -> None:
        self._recorder = recorder
        self.url = recorder.url

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._recorder.close()

    # ---------------------------------------------------------------- appends

    def append(
        self, stream_id: str, events: Sequence[NewEvent], expected_version: int
    ) -> AppendResult:
        if not events:
            return AppendResult(stream_id, expected_version + 1, expected_version, ())
        batch = Batch(stream_id, expected_version, tuple(_pending(e) for e in events))
        outcome = self._recorder.append_in_one_statement(batch)
        if outcome is None:
            with self._recorder.writing() as session:
                outcome = _append(session, batch)
        return _settled(batch, outcome)

    def append_frame(self, frame: pl.DataFrame) -> int:
        if frame.height == 0:
            return 0
        import polars as pl

        from events import chain
        from events.columns import BULK_COLUMNS

        frame = frame.select([pl.col(name).cast(dtype) for name, dtype in BULK_COLUMNS.items()])
        spans = frame.group_by("stream_id").agg(
            pl.col("stream_version").min().alias("lo"),
            pl.col("stream_version").max().alias("hi"),
            pl.len().alias("n"),
        )
        try:
            with self._recorder.writing() as session:
                heads = _continued(spans, session.stream_heads(spans.get_column("stream_id")))
                first = session.take("next_position", frame.height)
                rows = frame.select(
                    pl.int_range(first, first + frame.height, dtype=pl.Int64).alias(
                        "global_position"
                    ),
                    *BULK_COLUMNS,
                    pl.lit(session.now(), dtype=pl.Datetime("us")).alias("recorded_at"),
                )
                part_rows = session.bulk_part_rows or frame.height
                log_head = _log_hash_at(session, first - 1)
                session.insert_frames(chain.chained_parts(rows, heads, log_head, part_rows))
        except RecordConflict as exc:
            raise EventIdConflict(f"bulk append rejected, nothing appended: {exc}") from exc
        return frame.height

    def append_with_list_rows(
        self,
        stream_id: str,
        events: Sequence[NewEvent],
        expected_version: int,
        rows: pl.DataFrame,
        replace: Sequence[tuple[str, dt.date]] = (),
    ) -> AppendResult:
        if not events:
            raise ValueError("rating-list rows are written with the events that record them")
        import polars as pl

        from events.columns import LIST_ROW_COLUMNS

        rows = rows.select([pl.col(n).cast(t) for n, t in LIST_ROW_COLUMNS.items()])
        batch = Batch(stream_id, expected_version, tuple(_pending(e) for e in events))
        try:
            with self._recorder.writing() as session:
                outcome = _append(session, batch)
                if isinstance(outcome, Appended):
                    for list_name, list_date in replace:
                        session.lists.delete(list_name, list_date)
                    if rows.height:
                        session.lists.insert(rows)
        except RecordConflict as exc:
            raise EventIdConflict(f"rating-list rows rejected, nothing written: {exc}") from exc
        return _settled(batch, outcome)

    # ---------------------------------------------------------------- reads

    def list_rows(self, list_name: str, list_date: dt.date) -> pl.DataFrame:
        with self._recorder.reading() as session:
            return session.lists.rows(list_name, list_date)

    def list_row(self, list_name: str, list_date: dt.date, player_id: str) -> dict[str, Any] | None:
        from events.recorders.list_rows import LIST_ROWS_SQL

        with self._recorder.reading() as session:
            row = session.lists.row(list_name, list_date, player_id)
        return None if row is None else dict(zip(LIST_ROWS_SQL.split(", "), row, strict=True))

    def stream_version(self, stream_id: str) -> int:
        with self._recorder.reading() as session:
            return session.stream_version(stream_id)

    def read_stream(self, stream_id: str, to_version: int | None = None) -> list[RecordedEvent]:
        with self._recorder.reading() as session:
            return session.read_stream(stream_id, to_version)

    def read_all(self, after_position: int = 0, limit: int | None = None) -> list[RecordedEvent]:
        with self._recorder.reading() as session:
            return session.read_all(after_position, limit)

    def read_frame(self, after_position: int = 0, stream_prefix: str | None = None) -> pl.DataFrame:
        with self._recorder.reading() as session:
            return session.read_frame(after_position, stream_prefix)

    def streams(self, prefix: str = "") -> list[str]:
        with self._recorder.reading() as session:
            return session.streams(prefix)

    def type_counts(self, prefix: str) -> list[tuple[str, str, int]]:
        with self._recorder.reading() as session:
            return session.type_counts(prefix)

    def payloads(self, prefix: str, types: Sequence[str]) -> list[tuple[str, str, str]]:
        with self._recorder.reading() as session:
            return session.payloads(prefix, types)

    def log_epoch(self) -> int:
        with self._recorder.reading() as session:
            return session.counter("epoch")

    def head_position(self) -> int:
        with self._recorder.reading() as session:
            return session.head_position()

    def truncations(self, stream_id: str | None = None) -> list[Truncation]:
        with self._recorder.reading() as session:
            return session.truncations(stream_id)

    def archived(self, truncation_id: int) -> list[RecordedEvent]:
        with self._recorder.reading() as session:
            return session.archived(truncation_id)

    def deciding(self, stream_id: str) -> AbstractContextManager[None]:
        return self._recorder.deciding(stream_id)

    def wait_for_events(self, after_position: int, timeout: float) -> bool:
        return self._recorder.wait_for_events(after_position, timeout)

    def open_cache(self, name: str, tables: Mapping[str, Mapping[str, pl.DataType]]) -> TableCache:
        return self._recorder.open_cache(name, tables)

    # ---------------------------------------------------------------- truncation

    def truncate(
        self, stream_id: str, keep_through: int, expected_version: int, actor: str, reason: str
    ) -> Truncation:
        with self._recorder.writing() as session:
            actual = session.stream_version(stream_id)
            if actual != expected_version:
                raise WrongExpectedVersion(stream_id, expected_version, actual)
            span = session.tail_span(stream_id, keep_through)
            if not span.count:
                raise RestoreRefused(
                    f"stream {stream_id} has nothing after version {keep_through} to truncate"
                )
            tid = session.take("next_truncation", 1)
            session.move_tail(tid, stream_id, keep_through)
            session.record_truncation(
                NewTruncation(tid, stream_id, keep_through + 1, actual, span, actor, reason)
            )
            session.next_epoch()
        return self._truncation(tid)

    def restore(self, stream_id: str, actor: str, truncation_id: int | None = None) -> Truncation:
        with self._recorder.writing() as session:
            found = session.unrestored_truncation(stream_id, truncation_id)
            if found is None and truncation_id is not None:
                raise RestoreRefused(
                    f"stream {stream_id} has no unrestored truncation {truncation_id}"
                )
            if found is None:
                raise RestoreRefused(f"stream {stream_id} has no truncated events to restore")
            tid, from_version = found
            actual = session.stream_version(stream_id)
            if actual != from_version - 1:
                raise RestoreRefused(
                    f"cannot restore truncation {tid} of {stream_id}: {actual - from_version + 1} "
                    "event(s) were appended since; undo them first"
                )
            archived = session.archived_hashes(tid)
            first = session.take("next_position", len(archived))
            # The same events again, at new positions: their stream hashes stay, the log
            # chain goes on from the head.
            prev_log = _log_hash_at(session, first - 1)
            rows = []
            for position, (version, stream_hash_) in enumerate(archived, start=first):
                prev_log = hashes.log_hash(prev_log, position, stream_hash_)
                rows.append((version, position, prev_log))
            session.restore_rows(tid, rows)
            session.mark_restored(tid, actor)
            session.next_epoch()
        return self._truncation(tid)

    def _truncation(self, truncation_id: int) -> Truncation:
        with self._recorder.reading() as session:
            return session.truncation(truncation_id)

    # ---------------------------------------------------------------- chains and images

    def chain_head(self) -> ChainHead:
        with self._recorder.snapshot() as session:
            position = session.counter("next_position") - 1
            return ChainHead(position, _log_hash_at(session, position))

    def chain_at(self, position: int) -> ChainHead:
        with self._recorder.reading() as session:
            return ChainHead(position, _log_hash_at(session, position))

    @contextlib.contextmanager
    def chain_scan(self, batch: int = hashes.VERIFY_BATCH) -> Iterator[ChainScan]:
        from events import chain

        with self._recorder.snapshot() as session:
            yield chain.ChainScan(
                next_position=session.counter("next_position"),
                events=session.count("events"),
                archived=session.count("events_archive"),
                repeated=session.archived_versions(),
                batches=chain.position_windows(
                    session.scan_window, session.first_position_from, batch
                ),
            )

    def export_image(self) -> LogImage:
        from events.columns import IMAGE_TABLES, LIST_ROW_COLUMNS, LIST_ROWS_ORDER

        with self._recorder.snapshot() as session:
            events, archive, truncations = (
                session.table_frame(table, columns, order_by)
                for table, columns, order_by in IMAGE_TABLES
            )
            counters = session.counters()
            list_rows = session.table_frame("rating_list_rows", LIST_ROW_COLUMNS, LIST_ROWS_ORDER)
        return LogImage(events, archive, truncations, {k: counters[k] for k in COUNTERS}, list_rows)

    def import_image(self, image: LogImage) -> None:
        from events.columns import IMAGE_TABLES, LIST_ROW_COLUMNS

        frames = (image.events, image.archive, image.truncations)
        with self._recorder.writing() as session:
            if not session.is_empty():
                raise StoreError(f"store {self.url} is not empty; copy into an empty store")
            for (table, columns, _), frame in zip(IMAGE_TABLES, frames, strict=True):
                if frame.height:
                    session.load_table(table, frame.select(list(columns)), columns)
            if image.list_rows is not None and image.list_rows.height:
                rows = image.list_rows.select(list(LIST_ROW_COLUMNS))
                session.load_table("rating_list_rows", rows, LIST_ROW_COLUMNS)
            session.set_counters({key: image.counters[key] for key in COUNTERS})


# -------------------------------------------------------------------- the append's steps


def _pending(event: NewEvent) -> PendingEvent:
    return PendingEvent(
        event.event_id,
        event.event_type,
        schema_version(event.event_type),
        event.payload(),
        event.metadata_text(),
    )


def _append(session: Session, batch: Batch) -> AppendOutcome:
    """The append's steps (the module's note), in a writing session."""
    known = session.known_events([e.event_id for e in batch.events])
    if known:
        return _known(batch, known)
    found = session.stream_head(batch.stream_id)
    version, prev_stream = (-1, None) if found is None else found
    if version != batch.expected_version:
        return StaleVersion(version)
    first = session.take("next_position", len(batch.events))
    prev_log = _log_hash_at(session, first - 1)
    rows = _chained(batch, first, prev_stream or GENESIS, prev_log, session.now())
    session.insert_events(rows)
    return Appended(tuple(row.global_position for row in rows))


def _known(batch: Batch, known: list[KnownEvent]) -> AppendOutcome:
    """A batch some of whose ids are in the log: a duplicate, or refused."""
    if len(known) != len(batch.events):
        return PartlyKnown(len(known))
    stored = {k.event_id: k.payload for k in known}
    others = sorted(e.event_id for e in batch.events if stored[e.event_id] != e.payload)
    if others:
        return Conflict(others[0])
    return Duplicate(known[0].stream_version, tuple(k.global_position for k in known))


def _chained(
    batch: Batch, first: int, prev_stream: str, prev_log: str, now: dt.datetime
) -> list[EventRow]:
    """The batch's rows at positions from ``first``, recorded ``now``, each hashed into both
    chains (``prev_stream``: the stream's last hash; ``prev_log``: the one at ``first - 1``)."""
    when = hashes.time_text(now)
    rows: list[EventRow] = []
    for version, e in enumerate(batch.events, start=batch.expected_version + 1):
        record = hashes.record_text(
            batch.stream_id,
            version,
            e.event_id,
            e.event_type,
            e.schema_version,
            when,
            e.payload,
            e.metadata,
        )
        position = first + len(rows)
        prev_stream = hashes.stream_hash(prev_stream, record)
        prev_log = hashes.log_hash(prev_log, position, prev_stream)
        rows.append(EventRow(position, batch.stream_id, version, e, now, prev_stream, prev_log))
    return rows


def _settled(batch: Batch, outcome: AppendOutcome) -> AppendResult:
    """What the caller gets for an append's outcome: a result, or the error of its rule."""
    stream_id, expected, count = batch.stream_id, batch.expected_version, len(batch.events)
    match outcome:
        case Appended(positions):
            return AppendResult(stream_id, expected + 1, expected + count, positions)
        case Duplicate(first_version, positions):
            last = first_version + count - 1
            return AppendResult(stream_id, first_version, last, positions, duplicate=True)
        case StaleVersion(actual):
            raise WrongExpectedVersion(stream_id, expected, actual)
        case PartlyKnown(known):
            raise EventIdConflict(
                f"stream {stream_id}: {known} of {count} event ids are already "
                "in the log; a batch is appended whole or not at all"
            )
        case Conflict(event_id):
            raise EventIdConflict(f"event id {event_id} is already in the log with another payload")


# -------------------------------------------------------------------- chains


def _log_hash_at(session: Session, position: int) -> str:
    """The log hash at ``position`` (`GENESIS` before the first)."""
    if position <= 0:
        return GENESIS
    return session.log_hash_at(position) or GENESIS


def _continued(spans: pl.DataFrame, current: pl.DataFrame) -> dict[str, str]:
    """Check that every stream of a bulk append continues its stored version without gaps
    (``spans``: the frame's ``stream_id``, ``lo``, ``hi`` and ``n`` rows; ``current``: the
    stored ``stream_id``, ``actual`` and ``head``); the stream hash of each stored stream's
    last version. The first stream by id that fails names the error."""
    import polars as pl

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
        str(stream): str(head or GENESIS)
        for stream, head in current.select("stream_id", "head").iter_rows()
    }
