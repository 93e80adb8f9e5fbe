"""The DuckDB store's schema: its migrations, and bringing a file up to date when it opens.

Migration n brings a store from version n-1 to n; ``schema_migrations`` records the applied
ones. Files made before that table existed are adopted: their version is read off their
tables (version 1 without the hash columns, 2 with them). A file newer than this arbiter is
refused. Migration 2 adds the hash chains and computes them for the events already held;
migration 3 the table of imported rating lists' rows (`events.imported_lists`). That table has
no key constraint here: an ART index would triple the time and the file size of a 1.2-million
-row import, and a list's rows are inserted sorted by player id, so DuckDB's zone maps find one
player in a few milliseconds; one row per (list, date, player) is the import's rule (the reader
refuses a repeated id, a second import of a list and date replaces the rows).
"""

from __future__ import annotations

import datetime as dt

import duckdb

from events.recorders.duckdb_sql import transaction
from events.recorders.session import EVENT_COLUMNS_SQL
from events.store import StoreNotInitialized

__all__ = ["SCHEMA_VERSION", "migrate"]

# Version 1 is the layout of the first release (files made before the version table existed
# are at version 1).
_MIGRATIONS: tuple[tuple[int, str, str], ...] = (
    (
        1,
        "events, counters, truncations, archive",
        """
CREATE TABLE IF NOT EXISTS log_meta (key VARCHAR PRIMARY KEY, value BIGINT NOT NULL);
INSERT INTO log_meta VALUES ('next_position', 1), ('epoch', 0), ('next_truncation', 1)
    ON CONFLICT DO NOTHING;
CREATE TABLE IF NOT EXISTS events (
    global_position BIGINT NOT NULL,
    stream_id VARCHAR NOT NULL,
    stream_version BIGINT NOT NULL,
    event_id VARCHAR NOT NULL UNIQUE,
    event_type VARCHAR NOT NULL,
    schema_version BIGINT NOT NULL,
    payload VARCHAR NOT NULL,
    metadata VARCHAR NOT NULL,
    recorded_at TIMESTAMP NOT NULL,
    PRIMARY KEY (stream_id, stream_version)
);
CREATE TABLE IF NOT EXISTS truncations (
    truncation_id BIGINT PRIMARY KEY,
    stream_id VARCHAR NOT NULL,
    from_version BIGINT NOT NULL,
    to_version BIGINT NOT NULL,
    from_position BIGINT NOT NULL,
    to_position BIGINT NOT NULL,
    event_count BIGINT NOT NULL,
    actor VARCHAR NOT NULL,
    reason VARCHAR NOT NULL,
    truncated_at TIMESTAMP NOT NULL,
    restored_at TIMESTAMP,
    restored_by VARCHAR
);
CREATE TABLE IF NOT EXISTS events_archive (
    truncation_id BIGINT NOT NULL,
    global_position BIGINT NOT NULL,
    stream_id VARCHAR NOT NULL,
    stream_version BIGINT NOT NULL,
    event_id VARCHAR NOT NULL,
    event_type VARCHAR NOT NULL,
    schema_version BIGINT NOT NULL,
    payload VARCHAR NOT NULL,
    metadata VARCHAR NOT NULL,
    recorded_at TIMESTAMP NOT NULL
);
""",
    ),
)

_MIGRATIONS += (
    (
        2,
        "hash chains: stream_hash and log_hash on every event (tamper-evident log)",
        """
ALTER TABLE events ADD COLUMN stream_hash VARCHAR;
ALTER TABLE events ADD COLUMN log_hash VARCHAR;
ALTER TABLE events_archive ADD COLUMN stream_hash VARCHAR;
ALTER TABLE events_archive ADD COLUMN log_hash VARCHAR;
""",
    ),
)

_MIGRATIONS += (
    (
        3,
        "rating_list_rows: the rows of imported rating lists (FIDE, EGD, AGA, national)",
        """
CREATE TABLE IF NOT EXISTS rating_list_rows (
    list_name VARCHAR NOT NULL,
    list_date DATE NOT NULL,
    player_id VARCHAR NOT NULL,
    name VARCHAR NOT NULL,
    country VARCHAR,
    sex VARCHAR,
    title VARCHAR,
    birth_year INTEGER,
    rating DOUBLE,
    games INTEGER,
    k INTEGER,
    flag VARCHAR,
    club VARCHAR,
    grade VARCHAR,
    expires DATE
);
""",
    ),
)

SCHEMA_VERSION = _MIGRATIONS[-1][0]


def _version_table(con: duckdb.DuckDBPyConnection) -> int | None:
    """The version ``schema_migrations`` records, None when the file has no such table."""
    try:
        rows = con.execute("SELECT max(version) FROM schema_migrations").fetchall()
    except duckdb.CatalogException:
        return None
    return int(rows[0][0] or 0)


def migrate(con: duckdb.DuckDBPyConnection, path: str) -> tuple[int, int]:
    """Create or bring the schema up to date; (version before, version now)."""
    recorded = _version_table(con)
    if recorded == SCHEMA_VERSION:  # the usual open: one query, no scan of the catalog
        return recorded, recorded
    tables = {str(r[0]) for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    if recorded is not None:
        found = recorded
    else:
        found = 1 if "truncations" in tables else 0
        columns = con.execute(
            "SELECT count(*) FROM duckdb_columns() WHERE table_name = 'events' "
            "AND column_name = 'log_hash'"
        ).fetchall()
        if found and columns[0][0]:
            found = 2
    if found > SCHEMA_VERSION:
        raise StoreNotInitialized(
            f"store {path} has schema version {found}, newer than this arbiter's "
            f"{SCHEMA_VERSION}; upgrade arbiter"
        )
    if found == SCHEMA_VERSION and "schema_migrations" in tables:
        return found, found
    legacy = "schema_migrations" not in tables
    with transaction(con):
        con.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, "
            "description VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)"
        )
        for version, description, sql in _MIGRATIONS:
            if version > found:
                con.execute(sql)
                if version == 2:
                    _backfill_chains(con)
            elif not legacy:
                continue
            con.execute(
                "INSERT INTO schema_migrations VALUES (?, ?, ?)",
                [version, description, dt.datetime.now(dt.UTC).replace(tzinfo=None)],
            )
    return found, SCHEMA_VERSION


def _backfill_chains(con: duckdb.DuckDBPyConnection) -> None:
    """Compute the hash chains of the events a store held before it had them."""
    held = con.execute(
        "SELECT (SELECT count(*) FROM events) + (SELECT count(*) FROM events_archive)"
    ).fetchall()
    if not held[0][0]:
        return  # a new store: nothing to chain, and no need of polars
    from events import chain

    history = con.sql(
        f"SELECT {EVENT_COLUMNS_SQL}, NULL::BIGINT AS truncation_id FROM events UNION ALL "
        f"SELECT {EVENT_COLUMNS_SQL}, truncation_id FROM events_archive "
        "ORDER BY global_position, truncation_id NULLS FIRST"
    ).pl()
    chained = chain.chain_rows(history, {}, chain.GENESIS)
    con.register(
        "_chains",
        chained.select("global_position", "truncation_id", "stream_hash", "log_hash").to_arrow(),
    )
    try:
        con.execute(
            "UPDATE events SET stream_hash = c.stream_hash, log_hash = c.log_hash FROM _chains c "
            "WHERE c.truncation_id IS NULL AND events.global_position = c.global_position"
        )
        con.execute(
            "UPDATE events_archive SET stream_hash = c.stream_hash, log_hash = c.log_hash "
            "FROM _chains c WHERE events_archive.truncation_id = c.truncation_id "
            "AND events_archive.global_position = c.global_position"
        )
    finally:
        con.unregister("_chains")
