"""`arbiter ratings run/show` and `arbiter schedule --once` end to end on a generated season."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from events.duckdb_store import DuckDBStore
from pipelines.cli import app
from tests.pipelines._season import monthly, players, season


class Arbiter:
    def __init__(self, store: Path) -> None:
        self.runner = CliRunner()
        self.store = str(store)

    def __call__(self, *args: str) -> str:
        result = self.runner.invoke(app, ["--store", self.store, *args])
        assert result.exit_code == 0, (args, result.output, result.exception)
        return result.stdout

    def err(self, *args: str, code: int = 1) -> str:
        result = self.runner.invoke(app, ["--store", self.store, *args])
        assert result.exit_code == code, (args, result.output)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, result.stderr
        return lines[0]


@pytest.fixture
def arbiter(tmp_path: Path) -> Arbiter:
    path = tmp_path / "store.duckdb"
    with DuckDBStore(path) as store:
        season(store, players(30), monthly(dt.date(2024, 1, 6), 12))
    return Arbiter(path)


def test_run_show_and_reproduce(arbiter: Arbiter, tmp_path: Path) -> None:
    out = tmp_path / "lists" / "2025-01"
    printed = arbiter("ratings", "run", "--method", "wof", "--as-of", "2025-01-01", "-o", str(out))
    assert printed.strip() == str(out)
    for name in ("ratings.csv", "ratings.parquet", "index.html", "diff.csv", "manifest.json"):
        assert (out / name).is_file()
    again = json.loads(
        arbiter("ratings", "run", "--period", "2024-12", "-o", str(out), "-f", "json")
    )
    assert again["as_of"] == "2025-01-01"  # --period 2024-12: results up to the end of December
    assert again["published"] is False  # same list, same place: already published
    manifest = json.loads((out / "manifest.json").read_text())
    assert again["content_sha256"] == manifest["content_sha256"]
    other = tmp_path / "copy"
    arbiter("ratings", "run", "--as-of", "2025-01-01", "-o", str(other), "--no-publish")
    assert (other / "ratings.csv").read_bytes() == (out / "ratings.csv").read_bytes()
    assert (other / "index.html").read_bytes() == (out / "index.html").read_bytes()

    chart = tmp_path / "wof-3.svg"
    shown = json.loads(arbiter("ratings", "show", "wof:3", "--chart", str(chart), "-f", "json"))
    assert shown["player_id"] == "wof:3"
    assert [h["as_of"] for h in shown["history"]] == ["2025-01-01"]
    assert shown["games"]
    assert chart.read_text().startswith("<svg")
    text = arbiter("ratings", "show", "wof:3", "--games", "2")
    assert "wof lists:" in text
    assert "2025-01-01" in text


def test_user_errors_are_one_line(arbiter: Arbiter, tmp_path: Path) -> None:
    out = str(tmp_path / "x")
    both = arbiter.err("ratings", "run", "--as-of", "2025-01-01", "--period", "2024-12", "-o", out)
    assert "exactly one of --as-of" in both
    assert "--as-of: found '2025-13-01'" in arbiter.err(
        "ratings", "run", "--as-of", "2025-13-01", "-o", out
    )
    assert "--period: found 'Dec'" in arbiter.err("ratings", "run", "--period", "Dec", "-o", out)
    assert "unknown player 'wof:999'" in arbiter.err("ratings", "show", "wof:999")
    glicko = json.loads(
        arbiter("ratings", "run", "--method", "glicko2", "--period-months", "2", "--as-of",
                "2025-01-01", "-o", out, "-f", "json")
    )  # fmt: skip
    assert glicko["players"] == 30


def test_schedule_once_catches_up_and_is_idempotent(arbiter: Arbiter, tmp_path: Path) -> None:
    root = tmp_path / "scheduled"
    arbiter("schedule", "--once", "--output-root", str(root), "--timezone", "UTC")
    (folder,) = root.iterdir()
    assert folder.name.startswith("wof-")
    assert (folder / "ratings.csv").is_file()
    arbiter("schedule", "--once", "--output-root", str(root), "--timezone", "UTC")
    assert list(root.iterdir()) == [folder]
