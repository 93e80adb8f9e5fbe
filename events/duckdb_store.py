"""The embedded event store: `EventLog` on a DuckDB file (`events.recorders.duckdb`)."""

from __future__ import annotations

from pathlib import Path

from events.log import EventLog
from events.recorders.duckdb import DuckDBRecorder

__all__ = ["DuckDBStore"]


class DuckDBStore(EventLog):
    """`events.store.Store` on a DuckDB file (or ``:memory:``; default ``$ARBITER_STORE``,
    else ``arbiter.duckdb``), open until `close`; ``busy_timeout`` bounds the wait for a file
    another process holds (default ``$ARBITER_STORE_TIMEOUT``, else 10 s)."""

    def __init__(self, path: str | Path | None = None, *, busy_timeout: float | None = None):
        recorder = DuckDBRecorder(path, busy_timeout=busy_timeout)
        super().__init__(recorder)
        self._duckdb = recorder
        self.path = recorder.path
        self.migrated = recorder.migrated
        """The schema version before and after opening (`events.stores.init_store`)."""

    def checkpoint(self) -> None:
        """Write everything into the file itself (no WAL beside it), e.g. for a backup."""
        self._duckdb.checkpoint()
