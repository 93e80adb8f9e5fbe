"""What a storage backend provides to the log: a recorder, and the sessions it opens.

This is the seam of eventsourcing's ``persistence.py``, where an ``AggregateRecorder`` stores
and selects records and the ``EventStore`` above it keeps the rules. Here `events.log.EventLog`
keeps every rule of the log (expected versions, event-id idempotency, truncation and restore
preconditions, the hash chains, bulk version checks, the empty-store rule of an image import);
a recorder only stores and selects, each primitive one statement or a few, and decides
nothing: it answers what is there.

A recorder (`events.recorders.Recorder`) opens three kinds of
`events.recorders.session.Session` (its storage primitives):

* ``reading``: for single reads; each statement sees the latest commit.
* ``snapshot``: several reads that see one consistent state (chain scans, images).
* ``writing``: a transaction that holds the log's one write lock from its first
  statement to its commit, so that writers are serialised and positions become visible in
  increasing order (see each backend's note); committed when the block ends, rolled back when
  it raises. A unique-key violation inside it (a duplicate event id or (stream, version)
  written by a bulk append) comes out as `RecordConflict`.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

__all__ = [
    "AppendOutcome",
    "Appended",
    "Batch",
    "Conflict",
    "Duplicate",
    "EventRow",
    "KnownEvent",
    "NewTruncation",
    "PartlyKnown",
    "PendingEvent",
    "RecordConflict",
    "StaleVersion",
    "TailSpan",
    "wait_for_head",
]


class RecordConflict(Exception):
    """A write met a unique key (event id, or stream and version) already in the log.

    Not an `ArbiterError`: the log turns it into `EventIdConflict` where it expects one (a bulk
    append); anywhere else it is a bug. The message is the database's first line.
    """


# ------------------------------------------------------------------ what an append writes


@dataclass(frozen=True, slots=True)
class PendingEvent:
    """One event of an append, as the log stores it."""

    event_id: str
    event_type: str
    schema_version: int
    payload: str
    metadata: str


@dataclass(frozen=True, slots=True)
class Batch:
    """The events of one `Store.append`, to follow ``expected_version`` of ``stream_id``."""

    stream_id: str
    expected_version: int
    events: tuple[PendingEvent, ...]


@dataclass(frozen=True, slots=True)
class EventRow:
    """A new row of the events table: an event at its position, version and time, chained."""

    global_position: int
    stream_id: str
    stream_version: int
    event: PendingEvent
    recorded_at: dt.datetime
    stream_hash: str
    log_hash: str

    def values(self) -> tuple[object, ...]:
        """The row's values in the table's column order (`events.recorders.session.CHAINED_SQL`)."""
        e = self.event
        return (
            self.global_position,
            self.stream_id,
            self.stream_version,
            e.event_id,
            e.event_type,
            e.schema_version,
            e.payload,
            e.metadata,
            self.recorded_at,
            self.stream_hash,
            self.log_hash,
        )


class KnownEvent(NamedTuple):
    """An event of a batch whose id the log holds already, as stored."""

    event_id: str
    payload: str
    stream_version: int
    global_position: int


@dataclass(frozen=True, slots=True)
class TailSpan:
    """The events of a stream after a version: how many, and their first and last position."""

    count: int
    from_position: int | None
    to_position: int | None


@dataclass(frozen=True, slots=True)
class NewTruncation:
    """A truncation record to write: the stream's versions from..to moved to the archive."""

    truncation_id: int
    stream_id: str
    from_version: int
    to_version: int
    span: TailSpan
    actor: str
    reason: str


# ------------------------------------------------------------------ what an append came to


@dataclass(frozen=True, slots=True)
class Appended:
    """The batch is in the log, at these positions."""

    positions: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Duplicate:
    """Every event of the batch was in the log already, with the same payloads: nothing new."""

    first_version: int
    positions: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PartlyKnown:
    """Only ``known`` of the batch's event ids are in the log: refused."""

    known: int


@dataclass(frozen=True, slots=True)
class Conflict:
    """``event_id`` is in the log with another payload: refused."""

    event_id: str


@dataclass(frozen=True, slots=True)
class StaleVersion:
    """The stream is at ``actual``, not at the expected version: refused."""

    actual: int


AppendOutcome = Appended | Duplicate | PartlyKnown | Conflict | StaleVersion
"""What an append came to; `events.log.EventLog` turns it into a result or an error."""


def wait_for_head(
    head_position: Callable[[], int],
    after_position: int,
    timeout: float,
    pause: Callable[[float], None],
) -> bool:
    """`Recorder.wait_for_events`: True as soon as ``head_position()`` is past
    ``after_position``, False once ``timeout`` seconds have passed; ``pause(seconds)`` waits
    for the log to change (a poll's sleep, a NOTIFY), at most that long."""
    deadline = time.monotonic() + timeout
    while True:
        if head_position() > after_position:
            return True
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        pause(remaining)
