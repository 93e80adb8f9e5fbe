"""`ratings run` killed (SIGKILL, as a power cut) at ten points of writing its list folder: the
folder is always the old list or the new one, whole, and the next run cleans what the killed
one left (issue 17, part 3).

The kills are real: ``ARBITER_CRASH_AT=<point>`` makes the subprocess send itself SIGKILL
there (:mod:`pipelines.process.crashpoints`). Lists are written with ``--no-publish`` so that each
as-of date gives the same bytes whatever was published before.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from events.duckdb_store import DuckDBStore
from pipelines.process.crashpoints import CRASH_ENV
from tests.pipelines._season import monthly, players, season

ARBITER = str(Path(sys.executable).parent / "arbiter")
OLD, NEW = "2024-07-01", "2025-01-01"
POINTS = (
    "list:staging",
    "list:charts",
    "list:parquet",
    "list:csv",
    "list:diff",
    "list:html",
    "list:manifest",
    "swap:before",
    "swap:exchanged",
    "list:swapped",
)


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (relative path → sha256)."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def run_list(store: Path, out: Path, as_of: str, crash: str | None = None) -> int:
    env = {k: v for k, v in os.environ.items() if k != CRASH_ENV}
    if crash is not None:
        env[CRASH_ENV] = crash
    command = [ARBITER, "--store", str(store), "ratings", "run", "--as-of", as_of]
    done = subprocess.run(
        [*command, "--no-publish", "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("kill") / "store.duckdb"
    with DuckDBStore(path) as opened:
        season(opened, players(24), monthly(dt.date(2024, 1, 6), 12), size=8)
    return path


def test_kill_9_at_ten_points_leaves_the_old_list_or_the_new(store: Path, tmp_path: Path) -> None:
    lists = tmp_path / "lists"
    out = lists / "wof"
    expected = {}
    for as_of in (NEW, OLD):  # the list folder holds OLD to start with
        assert run_list(store, out, as_of) == 0
        expected[as_of] = snapshot(out)
    assert expected[OLD] != expected[NEW]
    current, left, cleaned = OLD, set[str](), 0
    seen = []
    for point in POINTS:
        other = NEW if current == OLD else OLD
        assert run_list(store, out, other, crash=point) == -signal.SIGKILL, point
        # What the run before this one left was cleaned before this one began.
        assert not left & set(os.listdir(lists)), point
        cleaned += len(left)
        left = set(os.listdir(lists)) - {"wof"}
        found = snapshot(out)
        assert found in (expected[current], expected[other]), point
        manifest = json.loads((out / "manifest.json").read_text())
        csv_hash = hashlib.sha256((out / "ratings.csv").read_bytes()).hexdigest()
        assert manifest["content_sha256"] == csv_hash, point
        seen.append("new" if found == expected[other] else "old")
        current = other if found == expected[other] else current
    assert cleaned >= 8, "each kill before the swap left a staging folder to clean"
    assert run_list(store, out, NEW) == 0
    assert sorted(os.listdir(lists)) == ["wof"]
    assert snapshot(out) == expected[NEW]
    # Killed before the swap: the old list; from the swap on: the new one.
    assert seen == ["old"] * 8 + ["new"] * 2
