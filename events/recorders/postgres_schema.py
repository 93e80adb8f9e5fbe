"""The PostgreSQL store's schema: tables, the append function, the triggers, and migrations.

``arbiter_schema`` records the applied migrations; `migrate` (``arbiter store init``) creates
and migrates, one migrator at a time; `check` refuses a store whose schema is missing, older
or newer than this arbiter's.

Integrity. ``UNIQUE (stream_id, stream_version)`` and ``UNIQUE (event_id)`` are constraints, the
backstop behind the version check. Triggers refuse UPDATE, DELETE and TRUNCATE of the log and
its archive; the only DELETE allowed is the truncation's own, which sets a transaction-local
flag the trigger checks. Payloads are stored as text, byte for byte as written, so the same
log in DuckDB and PostgreSQL has the same payload hashes.

``arbiter_append`` is the whole of a single append in one statement (lock, idempotency check,
expected-version check, positions, both hash chains, insert, NOTIFY), so the append lock is
held for microseconds plus the commit. It restates the rule of `events.log` (its steps and its
outcomes ``ok | duplicate | partial | conflict | wrong_version``) and the chain formulas of
`events.hashes`; the contract tests run the log's own steps and this function against the
same expectations (tests/events/test_store_contract.py), and `events.log` turns both ways'
outcomes into results and errors in one place.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql

from events.store import StoreNotInitialized

__all__ = ["APPEND_LOCK", "CHANNEL", "SCHEMA_VERSION", "check", "migrate"]

APPEND_LOCK = 0x6172_6269_7465_72  # 'arbiter': the one advisory lock every log writer takes
CHANNEL = "arbiter_events"

_APPEND_HEAD = """arbiter_append(
    p_stream text, p_expected bigint, p_ids text[], p_types text[], p_schema integer[],
    p_payloads text[], p_metadata text[],
    OUT outcome text, OUT version bigint, OUT positions bigint[], OUT detail text
) LANGUAGE plpgsql AS $$
DECLARE
    v_found integer;
    v_same integer;
    v_other text;
    v_first bigint;
    v_next bigint;
    v_count integer := cardinality(p_ids);"""
"""``arbiter_append``'s signature and the variables of every version of it."""

_KNOWN_IDS = f"""    PERFORM pg_advisory_xact_lock({APPEND_LOCK});
    SELECT count(*), count(*) FILTER (WHERE e.payload = n.payload),
           min(n.id) FILTER (WHERE e.payload <> n.payload), min(e.stream_version),
           array_agg(e.global_position ORDER BY e.stream_version)
      INTO v_found, v_same, v_other, v_first, positions
      FROM unnest(p_ids, p_payloads) AS n(id, payload)
      JOIN events e ON e.event_id = n.id;
    IF v_found > 0 THEN
        IF v_found <> v_count THEN
            outcome := 'partial'; version := v_found; positions := NULL; RETURN;
        END IF;
        IF v_same <> v_found THEN
            outcome := 'conflict'; detail := v_other; positions := NULL; RETURN;
        END IF;
        outcome := 'duplicate'; version := v_first; RETURN;
    END IF;"""
"""``arbiter_append``'s first steps, under the append lock: the rule of `events.log` for a
batch some of whose event ids are in the log (partial, conflict or duplicate)."""

_APPEND_END = f"""          FROM unnest(p_ids, p_types, p_schema, p_payloads, p_metadata)
               WITH ORDINALITY AS u(id, typ, sv, pl, md, n);
    positions := ARRAY(SELECT generate_series(v_next, v_next + v_count - 1));
    PERFORM pg_notify('{CHANNEL}', (v_next + v_count - 1)::text);
    outcome := 'ok';
END $$;"""
"""``arbiter_append``'s last steps: the batch's rows, numbered from 1, end its insert; then
the positions given, and the followers told."""

_MIGRATIONS: tuple[tuple[int, str, str], ...] = (
    (
        1,
        "events, counters, truncations, archive, append function, immutability triggers",
        f"""
CREATE TABLE log_meta (key text PRIMARY KEY, value bigint NOT NULL);
INSERT INTO log_meta VALUES ('next_position', 1), ('epoch', 0), ('next_truncation', 1);

CREATE TABLE events (
    global_position bigint PRIMARY KEY,
    stream_id text COLLATE "C" NOT NULL,
    stream_version bigint NOT NULL CHECK (stream_version >= 0),
    event_id text COLLATE "C" NOT NULL,
    event_type text NOT NULL,
    schema_version integer NOT NULL,
    payload text NOT NULL,
    metadata text NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT events_stream_version_key UNIQUE (stream_id, stream_version),
    CONSTRAINT events_event_id_key UNIQUE (event_id)
);

CREATE TABLE truncations (
    truncation_id bigint PRIMARY KEY,
    stream_id text COLLATE "C" NOT NULL,
    from_version bigint NOT NULL,
    to_version bigint NOT NULL,
    from_position bigint NOT NULL,
    to_position bigint NOT NULL,
    event_count bigint NOT NULL,
    actor text NOT NULL,
    reason text NOT NULL,
    truncated_at timestamptz NOT NULL,
    restored_at timestamptz,
    restored_by text
);

CREATE TABLE events_archive (
    truncation_id bigint NOT NULL,
    global_position bigint NOT NULL,
    stream_id text COLLATE "C" NOT NULL,
    stream_version bigint NOT NULL,
    event_id text COLLATE "C" NOT NULL,
    event_type text NOT NULL,
    schema_version integer NOT NULL,
    payload text NOT NULL,
    metadata text NOT NULL,
    recorded_at timestamptz NOT NULL,
    PRIMARY KEY (truncation_id, stream_version)
);

CREATE FUNCTION arbiter_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' AND TG_TABLE_NAME = 'events'
       AND current_setting('arbiter.truncating', true) = 'on' THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'arbiter: % of % refused: the log is append-only (undo is a truncation)',
        TG_OP, TG_TABLE_NAME;
END $$;

CREATE TRIGGER events_immutable BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION arbiter_immutable();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION arbiter_immutable();
CREATE TRIGGER archive_immutable BEFORE UPDATE OR DELETE ON events_archive
    FOR EACH ROW EXECUTE FUNCTION arbiter_immutable();
CREATE TRIGGER archive_no_truncate BEFORE TRUNCATE ON events_archive
    FOR EACH STATEMENT EXECUTE FUNCTION arbiter_immutable();
CREATE TRIGGER truncations_kept BEFORE DELETE ON truncations
    FOR EACH ROW EXECUTE FUNCTION arbiter_immutable();
CREATE TRIGGER truncations_no_truncate BEFORE TRUNCATE ON truncations
    FOR EACH STATEMENT EXECUTE FUNCTION arbiter_immutable();

-- One append in one statement: lock, idempotency, expected version, insert, notify.
-- outcome: ok | duplicate | partial | conflict | wrong_version.
CREATE FUNCTION {_APPEND_HEAD}
BEGIN
{_KNOWN_IDS}
    SELECT coalesce(max(stream_version), -1) INTO version FROM events WHERE stream_id = p_stream;
    IF version <> p_expected THEN
        outcome := 'wrong_version'; RETURN;
    END IF;
    UPDATE log_meta SET value = value + v_count WHERE key = 'next_position'
        RETURNING value - v_count INTO v_next;
    INSERT INTO events (global_position, stream_id, stream_version, event_id, event_type,
                        schema_version, payload, metadata)
        SELECT v_next + n - 1, p_stream, p_expected + n, id, typ, sv, pl, md
{_APPEND_END}
""",
    ),
)

_MIGRATIONS += (
    (
        2,
        "hash chains: stream_hash and log_hash on every event (tamper-evident log)",
        f"""
ALTER TABLE events ADD COLUMN stream_hash text, ADD COLUMN log_hash text;
ALTER TABLE events_archive ADD COLUMN stream_hash text, ADD COLUMN log_hash text;

-- As version 1, and each event's hashes (events.chain: the same formula as the Python side).
CREATE OR REPLACE FUNCTION {_APPEND_HEAD}
    v_now timestamptz := now();
    v_when text;
    v_stream text;
    v_log text;
    v_sh text[];
    v_lh text[];
BEGIN
{_KNOWN_IDS}
    SELECT e.stream_version, e.stream_hash INTO version, v_stream FROM events e
        WHERE e.stream_id = p_stream ORDER BY e.stream_version DESC LIMIT 1;
    IF NOT FOUND THEN
        version := -1;
    END IF;
    IF version <> p_expected THEN
        outcome := 'wrong_version'; RETURN;
    END IF;
    UPDATE log_meta SET value = value + v_count WHERE key = 'next_position'
        RETURNING value - v_count INTO v_next;
    SELECT e.log_hash INTO v_log FROM events e WHERE e.global_position = v_next - 1;
    IF NOT FOUND THEN
        SELECT a.log_hash INTO v_log FROM events_archive a
            WHERE a.global_position = v_next - 1 LIMIT 1;
    END IF;
    v_stream := coalesce(v_stream, '');
    v_log := coalesce(v_log, '');
    v_when := to_char(v_now AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US');
    FOR i IN 1..v_count LOOP
        v_stream := encode(sha256(convert_to(
            v_stream || '|' || char_length(p_stream) || ':' || p_stream || '|'
            || (p_expected + i) || '|' || char_length(p_ids[i]) || ':' || p_ids[i] || '|'
            || char_length(p_types[i]) || ':' || p_types[i] || '|' || p_schema[i] || '|'
            || v_when || '|' || char_length(p_payloads[i]) || ':' || p_payloads[i] || '|'
            || char_length(p_metadata[i]) || ':' || p_metadata[i], 'UTF8')), 'hex');
        v_log := encode(sha256(convert_to(
            v_log || '|' || (v_next + i - 1) || '|' || v_stream, 'UTF8')), 'hex');
        v_sh[i] := v_stream;
        v_lh[i] := v_log;
    END LOOP;
    INSERT INTO events (global_position, stream_id, stream_version, event_id, event_type,
                        schema_version, payload, metadata, recorded_at, stream_hash, log_hash)
        SELECT v_next + n - 1, p_stream, p_expected + n, id, typ, sv, pl, md, v_now,
               v_sh[n], v_lh[n]
{_APPEND_END}
""",
    ),
)

_MIGRATIONS += (
    (
        3,
        "rating_list_rows: the rows of imported rating lists (FIDE, EGD, AGA, national)",
        """
CREATE TABLE rating_list_rows (
    list_name text COLLATE "C" NOT NULL,
    list_date date NOT NULL,
    player_id text COLLATE "C" NOT NULL,
    name text NOT NULL,
    country text,
    sex text,
    title text,
    birth_year integer,
    rating double precision,
    games integer,
    k integer,
    flag text,
    club text,
    grade text,
    expires date,
    PRIMARY KEY (list_name, list_date, player_id)
);

-- Written beside their RatingListImported event; never changed. The only DELETE is a
-- ``ratings import --replace``, which sets a transaction-local flag the trigger checks.
CREATE FUNCTION arbiter_list_rows_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' AND current_setting('arbiter.replacing_list', true) = 'on' THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'arbiter: % of % refused: an imported list is replaced only by an import',
        TG_OP, TG_TABLE_NAME;
END $$;

CREATE TRIGGER list_rows_kept BEFORE UPDATE OR DELETE ON rating_list_rows
    FOR EACH ROW EXECUTE FUNCTION arbiter_list_rows_kept();
CREATE TRIGGER list_rows_no_truncate BEFORE TRUNCATE ON rating_list_rows
    FOR EACH STATEMENT EXECUTE FUNCTION arbiter_list_rows_kept();
""",
    ),
)

SCHEMA_VERSION = _MIGRATIONS[-1][0]


def migrate(con: psycopg.Connection[Any], shown: str) -> tuple[int, int]:
    """Create or migrate the arbiter schema in one transaction; (version before, after)."""
    with con.transaction():
        # One migrator at a time; a second `store init` waits, then finds nothing to do.
        con.execute("SELECT pg_advisory_xact_lock(%s)", [APPEND_LOCK + 1])
        con.execute(
            "CREATE TABLE IF NOT EXISTS arbiter_schema (version integer PRIMARY KEY, "
            "description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        row = con.execute("SELECT coalesce(max(version), 0) FROM arbiter_schema").fetchone()
        found = int(row[0]) if row else 0
        if found > SCHEMA_VERSION:
            raise StoreNotInitialized(
                f"store {shown} has schema version {found}, newer than this arbiter's "
                f"{SCHEMA_VERSION}; upgrade arbiter"
            )
        for version, description, ddl in _MIGRATIONS:
            if version > found:
                con.execute(sql.SQL(ddl))
                if version == 2:
                    _backfill_chains(con)
                con.execute(
                    "INSERT INTO arbiter_schema (version, description) VALUES (%s, %s)",
                    [version, description],
                )
    return found, SCHEMA_VERSION


def check(con: psycopg.Connection[Any], shown: str) -> None:
    """Refuse a store whose schema is not this arbiter's (`StoreNotInitialized`)."""
    row = con.execute("SELECT to_regclass('arbiter_schema') IS NOT NULL").fetchone()
    found = 0
    if row and row[0]:
        v = con.execute("SELECT coalesce(max(version), 0) FROM arbiter_schema").fetchone()
        found = int(v[0]) if v else 0
    if found == SCHEMA_VERSION:
        return
    if found == 0:
        raise StoreNotInitialized(f"store {shown} has no arbiter schema; run `arbiter store init`")
    if found < SCHEMA_VERSION:
        raise StoreNotInitialized(
            f"store {shown} has schema version {found}, this arbiter needs "
            f"{SCHEMA_VERSION}; run `arbiter store init` to migrate it"
        )
    raise StoreNotInitialized(
        f"store {shown} has schema version {found}, newer than this arbiter's "
        f"{SCHEMA_VERSION}; upgrade arbiter"
    )


def _backfill_chains(con: psycopg.Connection[Any]) -> None:
    """Compute the hash chains of the events a store held before it had them."""
    held = con.execute(
        "SELECT (SELECT count(*) FROM events) + (SELECT count(*) FROM events_archive)"
    ).fetchone()
    if held is None or not held[0]:
        return  # a new store: nothing to chain, and no need of polars
    import polars as pl

    from events import chain
    from events.columns import EVENT_COLUMNS
    from events.recorders.pg_copy import copy_lines, copy_out, read_csv, select_list

    columns = select_list(EVENT_COLUMNS)
    query = sql.SQL(
        f"SELECT {columns}, NULL::bigint AS truncation_id FROM events UNION ALL "
        f"SELECT {columns}, truncation_id FROM events_archive "
        "ORDER BY global_position, truncation_id NULLS FIRST"
    )
    history = read_csv(copy_out(con, query), {**EVENT_COLUMNS, "truncation_id": pl.Int64()})
    chained = chain.chain_rows(history, {}, chain.GENESIS)
    con.execute(
        "CREATE TEMP TABLE _chains (global_position bigint, truncation_id bigint, "
        "stream_hash text, log_hash text) ON COMMIT DROP"
    )
    schema = {
        "global_position": pl.Int64(),
        "truncation_id": pl.Int64(),
        "stream_hash": pl.String(),
        "log_hash": pl.String(),
    }
    with con.cursor().copy(
        "COPY _chains (global_position, truncation_id, stream_hash, log_hash) FROM STDIN"
    ) as copy:
        for chunk in copy_lines(chained.select(list(schema)), schema):
            copy.write(chunk)
    con.execute("ALTER TABLE events DISABLE TRIGGER events_immutable")
    con.execute("ALTER TABLE events_archive DISABLE TRIGGER archive_immutable")
    con.execute(
        "UPDATE events e SET stream_hash = c.stream_hash, log_hash = c.log_hash FROM _chains c "
        "WHERE c.truncation_id IS NULL AND e.global_position = c.global_position"
    )
    con.execute(
        "UPDATE events_archive a SET stream_hash = c.stream_hash, log_hash = c.log_hash "
        "FROM _chains c WHERE a.truncation_id = c.truncation_id "
        "AND a.global_position = c.global_position"
    )
    con.execute("ALTER TABLE events ENABLE TRIGGER events_immutable")
    con.execute("ALTER TABLE events_archive ENABLE TRIGGER archive_immutable")
