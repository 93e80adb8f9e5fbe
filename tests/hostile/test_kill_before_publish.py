"""`ratings run` killed (SIGKILL) after its new list was swapped into the folder and before
``RatingListPublished`` was appended (issue 46, item 7): at ``swap:exchanged`` and
``list:swapped`` the folder shows a list the log never published. `arbiter verify` reports
the folder; the next run records the publication its manifest announced (one event, the
folder's own hash), and the two agree again.

The kills are real (``ARBITER_CRASH_AT``, :mod:`pipelines.process.crashpoints`).
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
from events.schema import RatingListPublished
from pipelines.process.crashpoints import CRASH_ENV
from tests.pipelines._season import monthly, players, season

ARBITER = str(Path(sys.executable).parent / "arbiter")
OLD, NEW = "2024-07-01", "2025-01-01"


def arbiter(store: Path, *args: str, crash: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != CRASH_ENV}
    if crash is not None:
        env[CRASH_ENV] = crash
    done = subprocess.run(
        [ARBITER, "--store", str(store), *args],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
        env=env,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


def run(store: Path, out: Path, as_of: str, crash: str | None = None) -> int:
    done = arbiter(store, "ratings", "run", "--as-of", as_of, "-o", str(out), crash=crash)
    return done.returncode


def published(store: Path, out: Path) -> list[str]:
    """The content hashes the log has published to ``out``, in log order."""
    with DuckDBStore(store) as opened:
        return [
            r.event.content_sha256
            for r in opened.read_stream("ratinglist-wof")
            if isinstance(r.event, RatingListPublished) and r.event.output == str(out.resolve())
        ]


def shown(out: Path) -> str:
    """The hash of the list the folder shows (its manifest's, which is its ratings.csv's)."""
    manifest = json.loads((out / "manifest.json").read_text())
    digest = hashlib.sha256((out / "ratings.csv").read_bytes()).hexdigest()
    assert manifest["content_sha256"] == digest
    return digest


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("kill-publish") / "store.duckdb"
    with DuckDBStore(path) as opened:
        season(opened, players(24), monthly(dt.date(2024, 1, 6), 12), size=8)
    return path


@pytest.mark.parametrize("point", ["swap:exchanged", "list:swapped"])
def test_a_kill_after_the_swap_is_recorded_by_the_next_run(
    store: Path, tmp_path: Path, point: str
) -> None:
    out = tmp_path / "lists" / "wof"
    assert run(store, out, OLD) == 0
    old = shown(out)
    assert published(store, out) == [old]
    assert arbiter(store, "verify").returncode == 0

    assert run(store, out, NEW, crash=point) == -signal.SIGKILL
    new = shown(out)
    assert new != old  # the folder shows the new list; the log has not published it
    assert published(store, out) == [old]
    report = arbiter(store, "verify")
    assert report.returncode == 1
    assert f"error: {out.resolve()}: shows the list as of {NEW}" in report.stderr
    assert "the log never published" in report.stderr

    again = arbiter(store, "ratings", "run", "--as-of", NEW, "-o", str(out))
    assert again.returncode == 0, again.stderr
    assert "now recorded as published" in again.stdout + again.stderr
    assert published(store, out) == [old, new]  # recorded once: the run found it published
    assert shown(out) == new
    assert arbiter(store, "verify").returncode == 0


def test_a_kill_in_a_new_folder_is_recorded_by_its_next_run(store: Path, tmp_path: Path) -> None:
    out = tmp_path / "fresh"
    assert run(store, out, NEW, crash="list:swapped") == -signal.SIGKILL
    new = shown(out)
    assert published(store, out) == []
    # The next run into the folder records the list it finds before replacing it.
    assert run(store, out, OLD) == 0
    assert published(store, out) == [new, shown(out)]
