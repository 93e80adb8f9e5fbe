"""The DuckDB store's bulk path into a store that already holds a tournament (#17 part 4).

A 100,000-player .ELO into a non-empty store never finished: the bulk version check (a CTE
grouping the batch, semi-joined with the events) left DuckDB 2.0's executor waiting for ever
once the batch held ~64k streams. These tests drive that shape: a generated .ELO through the
command line, and 70,000 one-event streams through the store, both after a first tournament.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from events.store import BULK_COLUMNS, WrongExpectedVersion
from events.stores import open_store
from tests.conftest import require_testdata


def write_elo(path: Path, players: int) -> Path:
    """A WOF .ELO (formats.md §7) of ``players`` players and one round pairing them in order."""
    lines = ["%%Tournament: Big Open", "%%Country: Netherlands", "%%Date: 05/01/2019"]
    lines += ["%%Sender: Test", ""]
    lines += [f"%_% {900000 + i}, PLAYER{i}, Name{i}, NL, 1, 32" for i in range(players)]
    lines += ["", "% Round 1"]
    lines += [f"{900000 + i} (40)>(24) {900001 + i}  B" for i in range(0, players - 1, 2)]
    path.write_text("\n".join(lines) + "\n")
    return path


def arbiter(store: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pipelines", "--store", str(store), *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "ARBITER_STORE_TIMEOUT": "5"},
    )


def test_ten_thousand_player_elo_into_a_store_holding_a_tournament(tmp_path: Path) -> None:
    first = require_testdata("othello/elo/2019/20190105_92_Dutch_open.ELO")
    store = tmp_path / "log.duckdb"
    assert arbiter(store, "ingest", str(first)).returncode == 0
    big = write_elo(tmp_path / "20190106_Big_Open.ELO", 10_000)
    done = arbiter(store, "ingest", str(big))
    assert done.returncode == 0, done.stderr
    assert "1 file(s) ingested" in done.stdout + done.stderr
    assert "5000 games, 10000 players" in done.stdout + done.stderr
    listed = arbiter(store, "tournament", "list")
    assert "Big Open" in listed.stdout
    assert "Dutch" in listed.stdout


def _one_event_streams(prefix: str, n: int) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "stream_id": [f"{prefix}{i}" for i in range(n)],
            "stream_version": [0] * n,
            "event_id": [f"{prefix}e{i}" for i in range(n)],
            "event_type": ["FileIngested"] * n,
            "schema_version": [1] * n,
            "payload": ["{}"] * n,
            "metadata": ["{}"] * n,
        },
        schema=BULK_COLUMNS,
    )


def test_seventy_thousand_streams_after_a_skewed_batch(tmp_path: Path) -> None:
    """The shape of the hang: a store with a stream, then one long stream plus 70k short ones."""
    with open_store(str(tmp_path / "log.duckdb")) as store:
        store.append_frame(_one_event_streams("old-", 3))
        long = _one_event_streams("x", 1).select(pl.exclude("stream_version", "event_id"))
        long = pl.concat([long] * 1000).with_columns(
            pl.lit("tournament-big").alias("stream_id"),
            pl.int_range(0, 1000).alias("stream_version"),
            pl.format("t{}", pl.int_range(0, 1000)).alias("event_id"),
        )
        batch = pl.concat([long.select(list(BULK_COLUMNS)), _one_event_streams("p-", 70_000)])
        assert store.append_frame(batch) == 71_000
        assert store.head_position() == 71_003
        assert store.stream_version("tournament-big") == 999
        with pytest.raises(WrongExpectedVersion, match="p-5 changed meanwhile"):
            store.append_frame(_one_event_streams("p-", 10).slice(5, 1))
        assert store.head_position() == 71_003
