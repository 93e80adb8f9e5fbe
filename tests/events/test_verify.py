"""`arbiter verify`: the tamper-evident log on both backends (#17 part 5).

A director's session (with an undo, so the archive holds events too) is verified intact;
then one event row is deleted, two are swapped or one is rewritten with the database's own
client, as anyone with the file or a database login could, and `arbiter verify` must exit 1
with one line naming the first broken position. A first-release store (no chains) is
migrated by `arbiter store init` and verifies intact.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import duckdb
import psycopg
import pytest

from tests.events.test_store_cli import arbiter, director_session

Tamper = Callable[[str, int], None]


def _duckdb_sql(store: str, *statements: str) -> None:
    with duckdb.connect(store) as con:
        for statement in statements:
            con.execute(statement)


def _postgres_sql(store: str, *statements: str) -> None:
    with psycopg.connect(store, autocommit=True) as con:
        con.execute("ALTER TABLE events DISABLE TRIGGER USER")  # as the table's owner could
        for statement in statements:
            con.execute(statement)
        con.execute("ALTER TABLE events ENABLE TRIGGER USER")


def _run_sql(store: str, *statements: str) -> None:
    if store.startswith("postgresql://"):
        _postgres_sql(store, *statements)
    else:
        _duckdb_sql(store, *statements)


def delete(store: str, p: int) -> None:
    _run_sql(store, f"DELETE FROM events WHERE global_position = {p}")


def reorder(store: str, p: int) -> None:
    _run_sql(
        store,
        f"UPDATE events SET global_position = -1 WHERE global_position = {p}",
        f"UPDATE events SET global_position = {p} WHERE global_position = {p + 1}",
        f"UPDATE events SET global_position = {p + 1} WHERE global_position = -1",
    )


def rewrite(store: str, p: int) -> None:
    _run_sql(
        store,
        f"UPDATE events SET payload = replace(payload, 'Giri', 'Gira') WHERE global_position = {p}",
    )


@pytest.fixture(params=["duckdb", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "duckdb":
        return str(tmp_path / "log.duckdb")
    url: str = request.getfixturevalue("postgres_url")
    arbiter(url, "store", "init")
    return url


def _position_of_giri(store: str, tid: str) -> int:
    rows = json.loads(arbiter(store, "log", tid, "--format", "json").stdout)
    return next(int(r["position"]) for r in rows if "Giri" in json.dumps(r["payload"]))


@pytest.mark.parametrize("tamper", [delete, reorder, rewrite], ids=lambda t: t.__name__)
def test_verify_names_the_first_broken_position(store: str, tamper: Tamper, tmp_path: Path) -> None:
    # The session's log and the intact verify in one `arbiter batch` (one process).
    script = tmp_path / "intact.txt"
    script.write_text(f"log {director_session(store)} --format json\nverify\n", encoding="utf-8")
    intact = arbiter(store, "batch", str(script))
    rows, end = json.JSONDecoder().raw_decode(intact.stdout)
    p = next(int(r["position"]) for r in rows if "Giri" in json.dumps(r["payload"]))
    assert intact.stdout[end:].lstrip().startswith("log intact: ")
    tamper(store, p)
    broken = arbiter(store, "verify", code=1)
    lines = broken.stderr.strip().splitlines()
    assert len(lines) == 1, broken.stderr
    assert f"log broken at position {p}:" in lines[0]


def test_a_first_release_store_is_migrated_with_its_chains(tmp_path: Path) -> None:
    store = str(tmp_path / "old.duckdb")
    p = _position_of_giri(store, director_session(store))
    with duckdb.connect(store) as con:  # a store of schema version 1: no chains
        for table in ("events", "events_archive"):
            con.execute(f"ALTER TABLE {table} DROP COLUMN stream_hash")
            con.execute(f"ALTER TABLE {table} DROP COLUMN log_hash")
        con.execute("DELETE FROM schema_migrations WHERE version >= 2")
        archived = con.execute("SELECT count(*) FROM events_archive").fetchall()[0][0]
    assert archived > 0
    assert "migrated the store" in arbiter(store, "store", "init").stderr
    assert arbiter(store, "verify").stdout.startswith("log intact: ")
    rewrite(store, p)
    assert f"log broken at position {p}: event rewritten" in arbiter(store, "verify", code=1).stderr
