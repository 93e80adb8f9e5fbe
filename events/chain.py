"""The tamper-evident log: two hash chains over the events, the same on every backend.

Stream chain. Each event's ``stream_hash`` is ``sha256(prev | record)`` in hex, where ``prev``
is the ``stream_hash`` of the stream's previous version ("" for version 0) and ``record`` is
the event's stream, version, id, type, schema version, recording time (UTC, µs) and payload
and metadata bytes, each text field prefixed by its length so that no two events share a
record. Rewriting an event, deleting one from the middle of a stream or swapping two versions
breaks the chain at that event.

Log chain. Each event's ``log_hash`` is ``sha256(prev | position | stream_hash)``, where
``prev`` is the ``log_hash`` at the previous global position, wherever that event is now (the
log, or the archive after a truncation: positions are never reused, so every position from 1
to the head is held by exactly one row of the log or the archive). Moving an event to another
position breaks it there; deleting the last events leaves positions the counter says were
given out. The hash at the head position (`chain head`) summarises the whole history: a
published list records it, and the same log gives the same head on DuckDB and PostgreSQL.

`verify_scan` recomputes both chains from a store's rows read in frames of positions, carrying
only the chain state from one frame to the next, and names the first broken position;
`verify` does the same over frames held in memory (a `LogImage`).
The formulas, row by row, are `events.hashes` (polars-free, for appends); this module applies
them to frames. PostgreSQL computes the same hashes in SQL for single appends
(``arbiter_append``); the formula is written once more there, and the contract tests compare
the two.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Container, Iterator, Mapping
from dataclasses import dataclass, field

import polars as pl

from events.hashes import (
    GENESIS,
    TIME_FORMAT,
    VERIFY_BATCH,
    ChainHead,
    log_hash,
    record_text,
    stream_hash,
    time_text,
)

__all__ = [
    "GENESIS",
    "TIME_FORMAT",
    "VERIFY_BATCH",
    "Break",
    "ChainHead",
    "ChainScan",
    "ChainState",
    "chain_rows",
    "chained_parts",
    "log_hash",
    "position_windows",
    "record_text",
    "record_texts",
    "stream_hash",
    "time_text",
    "verify",
    "verify_scan",
]


@dataclass(frozen=True, slots=True)
class Break:
    """The first place where the stored chains and the recomputed ones part."""

    position: int
    reason: str

    def __str__(self) -> str:
        return f"log broken at position {self.position}: {self.reason}"


def _length_prefixed(column: str) -> pl.Expr:
    return pl.format("{}:{}", pl.col(column).str.len_chars(), pl.col(column))


def record_texts(frame: pl.DataFrame) -> list[str]:
    """`record_text` of every row of an events frame (EVENT_COLUMNS), computed by polars."""
    return (
        frame.select(
            pl.concat_str(
                [
                    _length_prefixed("stream_id"),
                    pl.col("stream_version").cast(pl.String),
                    _length_prefixed("event_id"),
                    _length_prefixed("event_type"),
                    pl.col("schema_version").cast(pl.String),
                    pl.col("recorded_at").dt.strftime("%Y-%m-%d %H:%M:%S%.6f"),
                    _length_prefixed("payload"),
                    _length_prefixed("metadata"),
                ],
                separator="|",
            ).alias("record")
        )
        .get_column("record")
        .to_list()
    )


def chain_rows(frame: pl.DataFrame, stream_heads: Mapping[str, str], log_head: str) -> pl.DataFrame:
    """``frame`` (EVENT_COLUMNS, positions increasing, each stream continuing ``stream_heads``)
    with its ``stream_hash`` and ``log_hash`` columns.

    ``stream_heads`` maps a stream to the hash of its current last version (streams absent
    start from `GENESIS`); ``log_head`` is the hash at the position before the first row. A
    frame may also be a whole history (a log and its archive, by position, for a migration):
    each event then chains to the latest earlier row of its stream's previous version.
    """
    if _in_stream_order(frame):
        return _chain_part(frame, dict(stream_heads), log_head)
    streams = frame.get_column("stream_id").to_list()
    positions = frame.get_column("global_position").to_list()
    records = record_texts(frame)
    versions = frame.get_column("stream_version").to_list()
    # (stream, version) -> [(position, hash)] in position order
    earlier: dict[tuple[str, int], list[tuple[int, str]]] = {}
    lowest: dict[str, int] = {}
    for stream, version in zip(streams, versions, strict=True):
        if version < lowest.get(stream, version + 1):
            lowest[stream] = version
    for stream, head_hash in stream_heads.items():
        if stream in lowest:
            earlier[(stream, lowest[stream] - 1)] = [(-1, head_hash)]
    stream_hashes = [""] * len(streams)
    for i in sorted(range(len(streams)), key=lambda i: (versions[i], positions[i])):
        stream, version, position = streams[i], versions[i], positions[i]
        prev = GENESIS
        if version > 0:
            candidates = earlier.get((stream, version - 1), [])
            k = bisect.bisect_left(candidates, (position, "")) - 1
            prev = candidates[k][1] if k >= 0 else GENESIS
        stream_hashes[i] = stream_hash(prev, records[i])
        bisect.insort(earlier.setdefault((stream, version), []), (position, stream_hashes[i]))
    log_hashes = []
    prev_log = log_head
    for position, s in zip(positions, stream_hashes, strict=True):
        prev_log = log_hash(prev_log, position, s)
        log_hashes.append(prev_log)
    return frame.with_columns(
        pl.Series("stream_hash", stream_hashes, dtype=pl.String),
        pl.Series("log_hash", log_hashes, dtype=pl.String),
    )


def _in_stream_order(frame: pl.DataFrame) -> bool:
    """Whether each stream's rows follow each other version by version in frame order (an
    append; a history with truncations does not)."""
    step = pl.col("stream_version").diff().over("stream_id")
    return bool(frame.select((step.is_null() | (step == 1)).all()).item())


def chained_parts(
    frame: pl.DataFrame, stream_heads: Mapping[str, str], log_head: str, part_rows: int
) -> Iterator[pl.DataFrame]:
    """`chain_rows` of ``frame`` given out in consecutive parts of at most ``part_rows`` rows,
    each hashed only when asked for: a bulk append sends one part to the server while the
    next is hashed. A frame not in stream order (a history), or of one part only, comes as
    `chain_rows` gives it: no stream hashes are carried over while the caller writes it (those
    few strings, scattered among the hashing's freed ones, kept their memory from going back
    to the system: 1,000,000 rows into DuckDB peaked at 1,326 MB instead of 1,117 MB)."""
    if frame.height <= part_rows or not _in_stream_order(frame):
        yield chain_rows(frame, stream_heads, log_head)
        return
    heads = dict(stream_heads)
    for start in range(0, frame.height, part_rows):
        part = _chain_part(frame.slice(start, part_rows), heads, log_head)
        log_head = part.item(part.height - 1, "log_hash")
        yield part


def _chain_part(frame: pl.DataFrame, heads: dict[str, str], log_head: str) -> pl.DataFrame:
    """`chain_rows` when every row continues its stream's previous row (the fast path);
    ``heads`` is left holding each stream's last hash, for the next part."""
    streams = frame.get_column("stream_id").to_list()
    positions = frame.get_column("global_position").to_list()
    stream_hashes = []
    log_hashes = []
    prev_log = log_head
    for stream, position, record in zip(streams, positions, record_texts(frame), strict=True):
        s = stream_hash(heads.get(stream, GENESIS), record)
        heads[stream] = s
        prev_log = log_hash(prev_log, position, s)
        stream_hashes.append(s)
        log_hashes.append(prev_log)
    return frame.with_columns(
        pl.Series("stream_hash", stream_hashes, dtype=pl.String),
        pl.Series("log_hash", log_hashes, dtype=pl.String),
    )


_CHAINED = (
    "global_position",
    "stream_id",
    "stream_version",
    "event_id",
    "event_type",
    "schema_version",
    "payload",
    "metadata",
    "recorded_at",
    "stream_hash",
    "log_hash",
)


@dataclass(frozen=True)
class ChainScan:
    """A store's log as `verify_scan` reads it, from one snapshot."""

    next_position: int
    """The position counter: every position below it was given out."""
    events: int
    """Rows in the log."""
    archived: int
    """Rows in the archive."""
    repeated: frozenset[tuple[str, int]]
    """The (stream, version)s of the archive: the only ones a second row may hold (appended
    again after a truncation, or restored), so the only ones whose previous version's hashes
    the chain state keeps once they are checked. (A second row of a version in the log alone
    is refused as out of order before its hash is looked at.)"""
    batches: Iterator[pl.DataFrame]
    """Frames of the log and the archive together (``events.store.SCAN_COLUMNS``), by
    position then archived last, each a range of positions following the previous one."""


POSITION_FLOOR = -(2**63)
"""Below every position a store can hold: where a scan starts looking for the first one."""


def position_windows(
    read: Callable[[int, int], pl.DataFrame],
    first_from: Callable[[int], int | None],
    size: int,
) -> Iterator[pl.DataFrame]:
    """The rows of positions ``[lo, lo + size)``, window after window, as ``read(lo, hi)``
    gives them (sorted here by position, archived last); ``first_from(p)`` is the lowest
    position held at or above ``p`` (None past the last), to skip a gap or find the end."""
    lo = first_from(POSITION_FLOOR)
    while lo is not None:
        frame = read(lo, lo + size)
        if frame.height:
            yield frame.sort("global_position", "archived")
            lo += size
        else:
            lo = first_from(lo + size)


@dataclass
class ChainState:
    """What `verify_scan` carries from one frame to the next: the next position expected,
    the last log hash, each stream's last live version, and the stream hashes a later row
    may chain to."""

    repeated: Container[tuple[str, int]]
    expected_position: int = 1
    prev_log: str = GENESIS
    live_version: dict[str, int] = field(default_factory=dict)
    seen: dict[tuple[str, int], set[str]] = field(default_factory=dict)
    """Every hash a (stream, version) has had, in position order: a restored event is the
    archived one again, so either may be the previous version of the next. A version's hashes
    are dropped once its next version, when not in ``repeated``, has been checked."""


def _check_frame(rows: pl.DataFrame, state: ChainState) -> Break | None:
    """Recompute both chains over one frame (``events.store.SCAN_COLUMNS``), continuing
    ``state``."""
    records = record_texts(rows)
    positions = rows.get_column("global_position").to_list()
    streams = rows.get_column("stream_id").to_list()
    versions = rows.get_column("stream_version").to_list()
    stored_stream = rows.get_column("stream_hash").to_list()
    stored_log = rows.get_column("log_hash").to_list()
    archived = rows.get_column("archived").to_list()
    seen, live_version, repeated = state.seen, state.live_version, state.repeated
    expected_position, prev_log = state.expected_position, state.prev_log
    for i, position in enumerate(positions):
        stream, version = streams[i], versions[i]
        if position != expected_position:
            where = f"(stream {stream} version {version})"
            if position < expected_position:
                return Break(position, f"position held twice {where}")
            return Break(expected_position, "event missing (deleted?)")
        expected_position += 1
        if not archived[i]:
            if version <= live_version.get(stream, -1):
                where = f"(stream {stream} version {version})"
                return Break(position, f"version out of order {where}")
            live_version[stream] = version
        prevs = {GENESIS} if version == 0 else seen.get((stream, version - 1), set())
        s = stored_stream[i]
        record = records[i]
        if not any(stream_hash(p, record) == s for p in prevs):
            why = "event rewritten" if prevs else "previous version missing or after it"
            return Break(position, f"{why} (stream {stream} version {version})")
        seen.setdefault((stream, version), set()).add(s)
        if version > 0 and (stream, version) not in repeated:
            del seen[(stream, version - 1)]
        if log_hash(prev_log, position, s) != stored_log[i]:
            where = f"(stream {stream} version {version})"
            return Break(position, f"log chain broken (moved or reordered?) {where}")
        prev_log = stored_log[i]
    state.expected_position, state.prev_log = expected_position, prev_log
    return None


def verify_scan(scan: ChainScan) -> Break | None:
    """Recompute both chains of a log read frame by frame (see `ChainScan`); the first broken
    position, or None when the log is intact. Memory: one frame and the `ChainState`."""
    state = ChainState(scan.repeated)
    for frame in scan.batches:
        broken = _check_frame(frame, state)
        if broken is not None:
            return broken
    if state.expected_position < scan.next_position:
        span = f"{state.expected_position}..{scan.next_position - 1}"
        return Break(state.expected_position, f"events {span} missing (deleted?)")
    return None


def verify(events: pl.DataFrame, archive: pl.DataFrame, next_position: int) -> Break | None:
    """Recompute both chains of a log held in memory (its events, its archive, its position
    counter); the first broken position, or None when the log is intact."""
    rows = pl.concat(
        [
            events.select(*_CHAINED).with_columns(pl.lit(0, pl.Int8).alias("archived")),
            archive.select(*_CHAINED).with_columns(pl.lit(1, pl.Int8).alias("archived")),
        ]
    ).sort("global_position", "archived")
    scan = ChainScan(
        next_position=next_position,
        events=events.height,
        archived=archive.height,
        repeated=frozenset(archive.select("stream_id", "stream_version").iter_rows()),
        batches=iter([rows]),
    )
    return verify_scan(scan)


def head(events: pl.DataFrame) -> ChainHead:
    """The chain head of an events frame ordered by position (0 and "" when empty)."""
    if events.height == 0:
        return ChainHead(0, GENESIS)
    last = events.tail(1)
    return ChainHead(int(last.item(0, "global_position")), str(last.item(0, "log_hash")))
