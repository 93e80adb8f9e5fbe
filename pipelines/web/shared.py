"""Login sessions and rate limits in the shared log's PostgreSQL database, for several
`arbiter serve` processes behind one load balancer.

With a PostgreSQL store every server keeps its sessions and counts its limits in two tables of
that database (created at start if missing, ``arbiter_web_sessions`` and
``arbiter_web_attempts``; ``arbiter_web_idempotency`` keeps `pipelines.web.idempotency`'s
answers), so a login made through one server works through every other, a
logout or a revoke ends it everywhere at once, and N servers give the limits of one. The rules
are those of `pipelines.web.security` (`Sessions`, `LoginLimiter`), which keeps them in memory
for the DuckDB single-server mode:

* a session is a random id; the table keeps its SHA-256 only (a copy of the table logs nobody
  in), the account's name and identity (``created``), and when it expires;
* an attempt is counted, before its password is checked, under a transaction-level advisory
  lock on its key, so however many arrive at once through however many servers, at most
  ``attempts`` of a key are checked per ``window`` seconds. Times are the database's clock, so
  servers whose clocks differ agree.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from events.store import StoreUnavailable
from pipelines.web.accounts import Account, Accounts
from pipelines.web.security import SESSION_SECONDS, LoginLimiter, bound_account

__all__ = ["SharedLimiter", "SharedSessions", "SharedTables"]

_LIMIT_LOCK = 0x6C696D69  # 'limi': the first key of every limiter key's advisory lock
_TABLES_LOCK = 0x7765_6274_6162  # 'webtab': one server at a time creates the tables
_SWEEP_EVERY = 200
"""One attempt in this many also forgets every key of its scope whose attempts are all old."""

_TABLES = """
CREATE TABLE IF NOT EXISTS arbiter_web_sessions (
    id_sha256 text PRIMARY KEY,
    account text NOT NULL,
    created bigint NOT NULL,
    expires timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS arbiter_web_sessions_expires ON arbiter_web_sessions (expires);
CREATE TABLE IF NOT EXISTS arbiter_web_attempts (
    scope text NOT NULL,
    client text NOT NULL,
    name text NOT NULL,
    at double precision NOT NULL
);
CREATE INDEX IF NOT EXISTS arbiter_web_attempts_key ON arbiter_web_attempts (scope, client, name);
CREATE TABLE IF NOT EXISTS arbiter_web_idempotency (
    owner text NOT NULL,
    key text NOT NULL,
    fingerprint text NOT NULL,
    created timestamptz NOT NULL,
    status integer,
    content_type text,
    body bytea,
    PRIMARY KEY (owner, key)
);
ALTER TABLE arbiter_web_idempotency ADD COLUMN IF NOT EXISTS headers text;
"""


class SharedTables:
    """A small connection pool on the store's database, the tables made if missing."""

    def __init__(self, url: str, pool_size: int = 4) -> None:
        self.pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
            url, min_size=1, max_size=pool_size, kwargs={"autocommit": True}, open=False
        )
        try:
            self.pool.open(wait=True, timeout=10)
        except PoolTimeout as exc:
            self.pool.close()
            raise StoreUnavailable("cannot connect to the store for sessions") from exc
        with self.pool.connection() as con, con.transaction():
            con.execute("SELECT pg_advisory_xact_lock(%s)", [_TABLES_LOCK])
            con.execute(_TABLES)

    def close(self) -> None:
        self.pool.close()


def _digest(sid: str) -> str:
    return hashlib.sha256(sid.encode()).hexdigest()


class SharedSessions:
    """`pipelines.web.security.Sessions` in the database (see the module's note)."""

    def __init__(self, tables: SharedTables, accounts: Callable[[], Accounts]) -> None:
        self._pool = tables.pool
        self._accounts = accounts

    def create(self, account: str | Account) -> str:
        found = bound_account(account, self._accounts)
        sid = secrets.token_urlsafe(32)
        with self._pool.connection() as con, con.transaction():
            con.execute("DELETE FROM arbiter_web_sessions WHERE expires < now()")
            con.execute(
                "INSERT INTO arbiter_web_sessions VALUES "
                "(%s, %s, %s, now() + make_interval(secs => %s))",
                [_digest(sid), found.name, found.created, SESSION_SECONDS],
            )
        return sid

    def account(self, sid: str | None, accounts: Accounts) -> Account | None:
        if not sid:
            return None
        with self._pool.connection() as con:
            row = con.execute(
                "SELECT account, created FROM arbiter_web_sessions "
                "WHERE id_sha256 = %s AND expires >= now()",
                [_digest(sid)],
            ).fetchone()
        if row is None:
            return None
        acc = accounts.by_name.get(row[0])
        if acc is None or not acc.active or acc.created != row[1]:
            # Revoked (or revoked and re-created: another account): the session ends for good.
            self.drop(sid)
            return None
        return acc

    def drop(self, sid: str | None) -> None:
        if sid:
            with self._pool.connection() as con:
                con.execute("DELETE FROM arbiter_web_sessions WHERE id_sha256 = %s", [_digest(sid)])


class SharedLimiter:
    """`pipelines.web.security.LoginLimiter` counted in the database; ``scope`` keeps the
    limiters of one database apart (the login throttle, the public writes)."""

    def __init__(self, tables: SharedTables, scope: str, rule: LoginLimiter) -> None:
        self._pool = tables.pool
        self.scope = scope
        self.attempts = rule.attempts
        self.window = rule.window

    def begin(self, client: str, name: str) -> int:
        """0: the attempt may be checked now (it counts as failed until `succeeded`); else the
        seconds until this client may try this name again."""
        key = [self.scope, client, name]
        with self._pool.connection() as con, con.transaction():
            con.execute(
                "SELECT pg_advisory_xact_lock(%s, hashtext(%s || chr(1) || %s || chr(1) || %s))",
                [_LIMIT_LOCK, *key],
            )
            now_row = con.execute("SELECT extract(epoch FROM clock_timestamp())::float8").fetchone()
            assert now_row is not None
            now = float(now_row[0])
            con.execute(
                "DELETE FROM arbiter_web_attempts "
                "WHERE scope = %s AND client = %s AND name = %s AND at <= %s",
                [*key, now - self.window],
            )
            if secrets.randbelow(_SWEEP_EVERY) == 0:  # the keys nobody tries again
                con.execute(
                    "DELETE FROM arbiter_web_attempts WHERE scope = %s AND at <= %s",
                    [self.scope, now - self.window],
                )
            count, first = con.execute(
                "SELECT count(*), min(at) FROM arbiter_web_attempts "
                "WHERE scope = %s AND client = %s AND name = %s",
                key,
            ).fetchone() or (0, None)
            if count >= self.attempts and first is not None:
                return int(first + self.window - now) + 1
            con.execute("INSERT INTO arbiter_web_attempts VALUES (%s, %s, %s, %s)", [*key, now])
            return 0

    def succeeded(self, client: str, name: str) -> None:
        with self._pool.connection() as con:
            con.execute(
                "DELETE FROM arbiter_web_attempts WHERE scope = %s AND client = %s AND name = %s",
                [self.scope, client, name],
            )
