"""Storage backends of the event log: each a `Recorder` (the values it exchanges with the log
are in `events.recorder`, its storage primitives in `events.recorders.session`)."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Protocol

from events.recorder import AppendOutcome, Batch

if TYPE_CHECKING:
    import polars as pl

    from events.cache import TableCache
    from events.recorders.session import Session

__all__ = ["Recorder"]


class Recorder(Protocol):
    """A backend: connections, locks, schema, and the `Session`s the log works through."""

    url: str
    """Where the store is, fit to print."""

    def reading(self) -> AbstractContextManager[Session]:
        """A session for single reads, each seeing the latest commit."""
        ...

    def snapshot(self) -> AbstractContextManager[Session]:
        """A session whose reads all see one consistent state."""
        ...

    def writing(self) -> AbstractContextManager[Session]:
        """A transaction under the log's write lock (see the module's note)."""
        ...

    def append_in_one_statement(self, batch: Batch) -> AppendOutcome | None:
        """The whole append in one statement of the backend's own (PostgreSQL's
        ``arbiter_append``): the outcome; None when the backend has none, and the log runs
        the steps itself in `writing`."""
        ...

    def deciding(self, stream_id: str) -> AbstractContextManager[None]:
        """The stream held while a command reads, decides and appends (PostgreSQL: an
        advisory lock every process takes; DuckDB: the file is one process's at a time)."""
        ...

    def wait_for_events(self, after_position: int, timeout: float) -> bool: ...

    def open_cache(
        self, name: str, tables: Mapping[str, Mapping[str, pl.DataType]]
    ) -> TableCache: ...

    def close(self) -> None: ...
