"""The throwaway PostgreSQL server for the store tests (see tests/postgres.py)."""

from tests.postgres import postgres_server, postgres_url  # noqa: F401
