"""The shared log from the command line, as an officer uses it: `arbiter store init`, a
director's commands on PostgreSQL, `store copy` both ways with `store verify`, `store backup`,
and who wrote every event."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipelines.cli import app

PLAYERS = ["Carlsen, Magnus", "Caruana, Fabiano", "Nakamura, Hikaru", "Giri, Anish"]


def arbiter(
    store: str, *args: str, code: int = 0, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "pipelines", "--store", store, *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, **(env or {})},
    )
    assert done.returncode == code, (args, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    return done


def quick(store: str, *args: str, env: dict[str, str] | None = None) -> str:
    """The same command line in this process (typer's runner): for setting a scene fast."""
    result = CliRunner().invoke(app, ["--store", store, *args], env=env)
    assert result.exit_code == 0, (args, result.output, result.exception)
    return result.stdout


def director_session(store: str) -> str:
    """A round-robin with one round paired and undone (a truncation in the archive), then
    paired again with a result: the log has events, an archive and a truncation record."""
    tid = quick(
        store, "--as", "Anna Arbiter", "tournament", "create", "--name", "Club Cup",
        "--game", "chess", "--system", "roundrobin", "--rounds", "3",
    ).strip()  # fmt: skip
    for name in PLAYERS:
        quick(store, "player", "add", tid, "--name", name, env={"ARBITER_USER": "Bob"})
    quick(store, "pair", tid)
    quick(store, "undo", tid, "--round", "1", "--reason", "wrong start list")
    quick(store, "pair", tid)
    arbiter(store, "result", tid, "1", "1", "1-0")  # a real process: its command line is logged
    return tid


def test_postgres_store_needs_init_then_runs_a_tournament(postgres_url: str) -> None:
    refused = arbiter(postgres_url, "tournament", "list", code=1)
    assert refused.stderr.strip().endswith("has no arbiter schema; run `arbiter store init`")
    assert "created the store" in arbiter(postgres_url, "store", "init").stderr
    assert "nothing to do" in arbiter(postgres_url, "store", "init").stderr

    tid = director_session(postgres_url)
    log = json.loads(arbiter(postgres_url, "log", tid, "--format", "json").stdout)
    assert [(e["type"], e["actor"]) for e in log[:2]] == [
        ("TournamentCreated", "Anna Arbiter"),
        ("PlayerRegistered", "Bob"),
    ]
    assert {e["source"] for e in log} == {"cli"}
    assert log[-1]["command"] == f"arbiter result {tid} 1 1 1-0"
    assert [e["type"] for e in log].count("RoundPaired") == 1  # the undone pairing is archived
    text = arbiter(postgres_url, "log", tid).stdout.splitlines()
    assert "TournamentCreated  Anna Arbiter via cli" in text[0]
    assert "PlayerRegistered   Bob via cli" in text[1]


def test_copy_duckdb_to_postgres_and_back_is_the_same_log(
    postgres_url: str, tmp_path: Path
) -> None:
    file_store = str(tmp_path / "club.duckdb")
    tid = director_session(file_store)
    copied = arbiter(file_store, "store", "copy", file_store, postgres_url)
    assert "copied and verified" in copied.stderr
    back = str(tmp_path / "back.duckdb")
    result = json.loads(
        arbiter(file_store, "store", "copy", postgres_url, back, "--format", "json").stdout
    )
    assert result["equal"]
    original = result["source"]
    assert original["truncations"] == 1
    assert original["archived"] > 0
    verified = arbiter(file_store, "store", "verify", file_store, back)
    assert verified.stderr.strip().endswith("logs equal")

    # The copy is a working store: it continues where the original would (a result and the
    # log after it, in one `arbiter batch` on each store).
    script = tmp_path / "continue.txt"
    script.write_text(f"result {tid} 1 2 0-1\nlog {tid} --format json\n", encoding="utf-8")
    pg_log = json.loads(arbiter(postgres_url, "batch", str(script)).stdout)
    file_log = json.loads(arbiter(file_store, "batch", str(script)).stdout)
    assert [(e["position"], e["version"], e["payload"]) for e in pg_log] == [
        (e["position"], e["version"], e["payload"]) for e in file_log
    ]
    # Two separate commands: a new event id and time each (and nothing else); verify says so.
    differs = arbiter(file_store, "store", "verify", file_store, postgres_url, code=1)
    last = pg_log[-1]["position"]
    assert differs.stderr.strip().splitlines()[-1] == (
        f"differs: events: position {last} differs in event_id, recorded_at, stream_hash, log_hash"
    )
    again = arbiter(file_store, "store", "copy", file_store, postgres_url, code=1)
    assert "is not empty; copy into an empty store" in again.stderr


def test_backup_is_one_consistent_file(postgres_url: str, tmp_path: Path) -> None:
    arbiter(postgres_url, "store", "init")
    tid = director_session(postgres_url)
    backup = tmp_path / "backups" / "club.duckdb"
    arbiter(postgres_url, "store", "backup", str(backup))
    assert sorted(p.name for p in backup.parent.iterdir()) == ["club.duckdb"]  # no WAL, no temp
    assert arbiter(postgres_url, "store", "verify", postgres_url, str(backup)).returncode == 0
    standings = arbiter(str(backup), "standings", tid).stdout
    assert standings == arbiter(postgres_url, "standings", tid).stdout
    refused = arbiter(postgres_url, "store", "backup", str(backup), code=1)
    assert "exists; give a new file name" in refused.stderr


def test_no_password_in_the_log_or_the_messages(postgres_url: str) -> None:
    with_password = postgres_url.replace("postgres@", "postgres:s3cret@")
    arbiter(with_password, "store", "init")
    tid = arbiter(
        with_password, "tournament", "create", "--name", "X", "--rounds", "1"
    ).stdout.strip()
    log = arbiter(with_password, "log", tid, "--format", "json").stdout
    assert "s3cret" not in log
    assert json.loads(log)[0]["command"] == "arbiter tournament create --name X --rounds 1"
    database = postgres_url.split("@/", 1)[1].split("?", 1)[0]
    missing = with_password.replace(f"@/{database}?", "@/nodb?")
    failed = arbiter(missing, "tournament", "list", code=3)
    assert "s3cret" not in failed.stderr
    (line,) = failed.stderr.splitlines()
    assert line.startswith("error: cannot connect to the store postgresql://postgres@/nodb?host=")
    assert line.endswith('database "nodb" does not exist')


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://host/db", "unsupported store URL 'mysql://host/db'"),
        ("duckdb:", "store URL 'duckdb:' names no file"),
    ],
)
def test_unknown_store_urls_are_refused(url: str, message: str) -> None:
    done = arbiter(url, "tournament", "list", code=1)
    assert done.stderr.strip() == f"error: {message}" + (
        ": use a DuckDB file path, :memory: or postgresql://…" if "mysql" in url else ""
    )


def test_wof_list_from_postgres_is_the_same_bytes_as_from_duckdb(
    postgres_url: str, tmp_path: Path
) -> None:
    """One archive year through `arbiter ingest` into each backend; `arbiter ratings run`
    then writes the same list from both (the games cache of the server store lives in
    $ARBITER_CACHE_DIR)."""
    from tests.conftest import require_testdata

    year = require_testdata("othello", "elo", "2013")
    env = {"ARBITER_CACHE_DIR": str(tmp_path / "cache")}
    arbiter(postgres_url, "store", "init")
    outputs = {}
    for name, store in (("postgres", postgres_url), ("duckdb", str(tmp_path / "wof.duckdb"))):
        arbiter(store, "ingest", str(year), code=1, env=env)  # the year has broken files
        out = tmp_path / f"list-{name}"
        run = arbiter(
            store, "ratings", "run", "--method", "wof", "--as-of", "2014-01-01",
            "-o", str(out), "-f", "json", env=env,
        )  # fmt: skip
        outputs[name] = (json.loads(run.stdout), out)
    (pg, pg_out), (duck, duck_out) = outputs["postgres"], outputs["duckdb"]
    assert pg["players"] == duck["players"] > 100
    assert pg["content_sha256"] == duck["content_sha256"]
    assert pg["as_of_position"] == duck["as_of_position"]
    for file in ("ratings.csv", "ratings.parquet", "diff.csv"):
        assert (pg_out / file).read_bytes() == (duck_out / file).read_bytes(), file
    assert list((tmp_path / "cache").glob("pg-*.games.duckdb"))
    # Ingested events say which file they came from, with its digest.
    first = json.loads(arbiter(postgres_url, "tournament", "list", "-f", "json").stdout)[0]
    log = json.loads(arbiter(postgres_url, "log", first["id"], "-f", "json").stdout)
    (source,) = {e["source"] for e in log}
    assert re.fullmatch(r"file \d{8}_.*\.ELO \(sha256 [0-9a-f]{12}\)", source), source
