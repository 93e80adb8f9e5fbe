"""Frames for `Store.append_frame` built from typed events: the store tests' and benchmark's
way to append many events at once (the ingest job packs its own, `pipelines.jobs.ingest`)."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from events.columns import BULK_COLUMNS
from events.schema import schema_version
from events.store import NewEvent

__all__ = ["bulk_frame"]


def bulk_frame(stream_id: str, first_version: int, events: Sequence[NewEvent]) -> pl.DataFrame:
    """A frame for `Store.append_frame` from typed events of one stream."""
    return pl.DataFrame(
        {
            "stream_id": [stream_id] * len(events),
            "stream_version": list(range(first_version, first_version + len(events))),
            "event_id": [e.event_id for e in events],
            "event_type": [e.event_type for e in events],
            "schema_version": [schema_version(e.event_type) for e in events],
            "payload": [e.payload() for e in events],
            "metadata": [e.metadata_text() for e in events],
        },
        schema=BULK_COLUMNS,
    )
