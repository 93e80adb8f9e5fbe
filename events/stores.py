"""One way in: `open_store(url)` picks the backend from the store URL.

| URL | store |
|---|---|
| a file path, or ``duckdb:PATH`` | a DuckDB file (created on first use) |
| ``:memory:`` (or ``duckdb::memory:``) | DuckDB in memory (tests, demos) |
| ``postgresql://…`` or ``postgres://…`` | a PostgreSQL database, any libpq URI, e.g. |
| | ``postgresql://user@/dbname?host=/run/postgresql`` (unix socket) |

Nothing outside `events/` imports a backend module; commands take a `Store`.
"""

from __future__ import annotations

import os

from events.store import Store, StoreError

__all__ = ["DEFAULT_STORE", "default_store_url", "init_store", "is_server_url", "open_store"]

DEFAULT_STORE = "arbiter.duckdb"
_SERVER_SCHEMES = ("postgresql://", "postgres://")
_DUCKDB_PREFIX = "duckdb:"


def default_store_url() -> str:
    """``$ARBITER_STORE``, else ``arbiter.duckdb`` in the current folder."""
    return os.environ.get("ARBITER_STORE") or DEFAULT_STORE


def is_server_url(url: str) -> bool:
    return url.startswith(_SERVER_SCHEMES)


def _duckdb_path(url: str) -> str:
    path = url.removeprefix(_DUCKDB_PREFIX) if url.startswith(_DUCKDB_PREFIX) else url
    if path.startswith("//"):
        path = path[2:]
    if not path:
        raise StoreError(f"store URL '{url}' names no file")
    scheme, sep, _ = path.partition("://")
    if sep and scheme.isalpha():
        raise StoreError(
            f"unsupported store URL '{url}': use a DuckDB file path, :memory: or postgresql://…"
        )
    return path


def open_store(url: str | None = None) -> Store:
    """The store at ``url`` (default: `default_store_url`), open; close it when done."""
    url = url or default_store_url()
    if is_server_url(url):
        from events.postgres_store import PostgresStore

        return PostgresStore(url)
    from events.duckdb_store import DuckDBStore

    return DuckDBStore(_duckdb_path(url))


def init_store(url: str | None = None) -> tuple[int, int]:
    """Create the store's schema, or migrate it; (schema version before, after)."""
    url = url or default_store_url()
    if is_server_url(url):
        from events.postgres_store import init_schema

        return init_schema(url)
    from events.duckdb_store import DuckDBStore

    with DuckDBStore(_duckdb_path(url)) as store:
        return store.migrated
