"""The shared event store: `EventLog` on a PostgreSQL database (`events.recorders.postgres`)."""

from __future__ import annotations

from typing import Unpack

from events.log import EventLog
from events.recorders.postgres import PostgresOptions, PostgresRecorder, display_url, init_schema
from events.recorders.postgres_schema import SCHEMA_VERSION

__all__ = ["SCHEMA_VERSION", "PostgresStore", "display_url", "init_schema"]


class PostgresStore(EventLog):
    """`events.store.Store` on a PostgreSQL database (any libpq URI, a unix socket included),
    open until `close`."""

    def __init__(self, url: str, **options: Unpack[PostgresOptions]) -> None:
        recorder = PostgresRecorder(url, **options)
        super().__init__(recorder)
        self.dsn = recorder.dsn
