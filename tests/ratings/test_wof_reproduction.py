"""Golden tests: our WOF list against official WOF numbers (ratings.md §1.3).

Two references: the ratings embedded in World Championship files (the list of the month
before the event, expected to reproduce to about 2 points) and the five official player files
of 2018-2020 (target: median |ours - official| at most 15 on every snapshot). Each snapshot is
compared with the list computed from the archive as the snapshot itself records it
(``archive_state``: which events' new players it lists, and the newest one it rates);
benchmarks/bench_ratings.py also reports the other variants (current archive, reporting lags).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from ingest.elo import parse_elo
from ratings.games import months_before
from ratings.wof import fit_wof
from tests.conftest import require_testdata
from tests.ratings.wof_reference import (
    agreement,
    archive_events,
    archive_games,
    archive_state,
    read_player_file,
    reproduce_snapshot,
    snapshot_date,
)

pytestmark = pytest.mark.golden

SNAPSHOTS = (
    "joueurs_20180509_7ebfa38.txt",
    "joueurs_20180612_cf75365.txt",
    "joueurs_20180705_b31963a.txt",
    "joueurs_20190221_b989627.txt",
    "joueurs_20201128_27786a7.txt",
)


@pytest.fixture(scope="module")
def archive() -> tuple[pl.DataFrame, pl.DataFrame]:
    root = require_testdata("othello", "elo")
    return archive_games(root), archive_events(root)


@pytest.mark.parametrize(
    "file_name",
    ["2013/20131024_WOC_2013.ELO", "2015/20151029_WOC_2015.ELO", "2025/20251113_WOC_2025.ELO"],
)
def test_world_championship_embedded_ratings(
    archive: tuple[pl.DataFrame, pl.DataFrame], file_name: str
) -> None:
    path = require_testdata("othello", "elo") / file_name
    event = parse_elo(path)
    official = pl.DataFrame(
        {
            "player_id": [str(p.wof_id) for p in event.players],
            "rating": [p.rating or None for p in event.players],
        },
        schema={"player_id": pl.Utf8, "rating": pl.Int64},
    )
    as_of = months_before(event.start, 0)  # the list through the month before the event
    ours = fit_wof(archive[0], as_of).players
    result = agreement(ours, official)
    print(f"{file_name}: {result.as_dict()}")
    assert result.players >= 50
    assert result.median_abs_diff <= 3.0
    assert result.pearson_r >= 0.99


# Measured medians (bench_ratings): 9, 10, 8, 8, 8. The bounds leave 2 points of slack for
# solver and parser changes; the target is 15 on every snapshot.
SNAPSHOT_MEDIAN_BOUNDS = {
    "joueurs_20180509_7ebfa38.txt": 11.0,
    "joueurs_20180612_cf75365.txt": 12.0,
    "joueurs_20180705_b31963a.txt": 10.0,
    "joueurs_20190221_b989627.txt": 10.0,
    "joueurs_20201128_27786a7.txt": 10.0,
}


@pytest.mark.parametrize("file_name", SNAPSHOTS)
def test_official_snapshot(archive: tuple[pl.DataFrame, pl.DataFrame], file_name: str) -> None:
    path: Path = require_testdata("othello", "ratings", file_name)
    games, events = archive
    result = reproduce_snapshot(path, games, events)
    print(f"{file_name}: {result.agreement.as_dict()} (as of {result.as_of})")
    assert result.agreement.players >= 2000
    assert result.agreement.median_abs_diff <= SNAPSHOT_MEDIAN_BOUNDS[file_name]
    assert result.agreement.pearson_r >= 0.99
    assert result.snapshot - dt.timedelta(days=90) < result.as_of <= result.snapshot


def test_snapshot_archive_state(archive: tuple[pl.DataFrame, pl.DataFrame]) -> None:
    # The 2020-11 player file lists nobody who debuted in a Japanese event after 24 November
    # 2019 (the results of the pandemic year had not been imported), while European events up
    # to September 2020 are in. The state must keep the former out and the latter in.
    path = require_testdata("othello", "ratings", "joueurs_20201128_27786a7.txt")
    games, events = archive
    state = archive_state(games, events, read_player_file(path), snapshot_date(path))
    assert dt.date(2020, 9, 1) <= state.calculation_date <= dt.date(2020, 11, 28)
    dated = events.filter(pl.col("event").is_in(list(state.events)))
    japan = dated.filter(pl.col("country") == "Japan").get_column("date").max()
    assert isinstance(japan, dt.date)
    assert japan < dt.date(2019, 12, 1)
    assert "20200906_tournoi_C_Paris" in state.events
    assert "20191130_150_Shinagawa_open" not in state.events


def test_october_2025_list_counts(archive: tuple[pl.DataFrame, pl.DataFrame]) -> None:
    # ratings.md §1.5, list through October 2025: 3,977 active players, 3,171 rated, and 1,649
    # with a margin below ±200 under the default margin (diagonal Fisher SE, weights/150, 1·SE).
    listing = fit_wof(archive[0], dt.date(2025, 11, 1)).listing
    assert listing.height == 3977
    assert int(listing.get_column("rating").is_not_null().sum()) == 3171
    assert int(listing.get_column("official").sum()) == 1649
