"""The hash chains' formulas, one row at a time, without polars (see `events.chain`).

An append hashes its few new rows here: opening a store and appending an event imports
neither polars nor pyarrow. `events.chain` applies the same formulas to whole frames (bulk
appends, migrations, verification) and re-exports everything below.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass

__all__ = [
    "GENESIS",
    "TIME_FORMAT",
    "VERIFY_BATCH",
    "ChainHead",
    "log_hash",
    "record_text",
    "stream_hash",
    "time_text",
]

GENESIS = ""
"""The ``prev`` of a stream's version 0 and of position 1."""

TIME_FORMAT = "%Y-%m-%d %H:%M:%S.%f"

VERIFY_BATCH = 50_000
"""Positions per frame when `events.chain.verify_scan` reads a store: its memory is about this
many rows plus the chain state (`events.chain.ChainState`)."""


@dataclass(frozen=True, slots=True)
class ChainHead:
    """The log's last position and its ``log_hash``: what a published list was computed from."""

    position: int
    hash: str

    def as_json(self) -> dict[str, object]:
        return {"position": self.position, "log_hash": self.hash}


def time_text(recorded_at: dt.datetime) -> str:
    """A recording time as the chains hash it (UTC, naive, microseconds)."""
    return recorded_at.strftime(TIME_FORMAT)


def record_text(
    stream_id: str,
    version: int,
    event_id: str,
    event_type: str,
    schema_version: int,
    recorded_at: str,
    payload: str,
    metadata: str,
) -> str:
    """What the stream chain hashes of one event (see `events.chain`).

    >>> record_text("s", 0, "e", "T", 1, "2026-01-01 00:00:00.000000", "{}", "{}")
    '1:s|0|1:e|1:T|1|2026-01-01 00:00:00.000000|2:{}|2:{}'
    """
    return (
        f"{len(stream_id)}:{stream_id}|{version}|{len(event_id)}:{event_id}|"
        f"{len(event_type)}:{event_type}|{schema_version}|{recorded_at}|"
        f"{len(payload)}:{payload}|{len(metadata)}:{metadata}"
    )


def stream_hash(prev: str, record: str) -> str:
    """An event's ``stream_hash``: ``prev`` is its stream's previous version's."""
    return hashlib.sha256(f"{prev}|{record}".encode()).hexdigest()


def log_hash(prev: str, position: int, stream_hash_: str) -> str:
    """An event's ``log_hash``: ``prev`` is the one at the position before."""
    return hashlib.sha256(f"{prev}|{position}|{stream_hash_}".encode()).hexdigest()
