"""Golden tests: our WOF list against official WOF numbers (ratings.md §1.3).

Two references: the ratings embedded in World Championship files (the list of the month
before the event, expected to reproduce to about 2 points) and the five official player files
of 2018-2020 (target: median |ours - official| at most 15 on every snapshot). The snapshots
are compared with the archive cut back to what was plausibly reported at the time
(``as_reported``); benchmarks/bench_ratings.py also reports the figures on the current archive.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from ingest.elo import parse_elo
from ratings.wof import fit_wof
from tests.conftest import require_testdata
from tests.ratings.wof_reference import (
    agreement,
    archive_events,
    archive_games,
    months_before,
    reproduce_snapshot,
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


@pytest.mark.parametrize("file_name", SNAPSHOTS)
def test_official_snapshot(archive: tuple[pl.DataFrame, pl.DataFrame], file_name: str) -> None:
    path: Path = require_testdata("othello", "ratings", file_name)
    games, events = archive
    reported = reproduce_snapshot(path, games, events)
    print(f"{file_name}: {reported.agreement.as_dict()} (list through {reported.list_through})")
    assert reported.agreement.players >= 2000
    assert reported.agreement.median_abs_diff <= 15.0
    assert reported.agreement.pearson_r >= 0.98
    assert reported.list_through < dt.date(reported.snapshot.year, reported.snapshot.month, 1)


def test_october_2025_list_counts(archive: tuple[pl.DataFrame, pl.DataFrame]) -> None:
    # ratings.md §1.5, list through October 2025: 3,977 active players, 3,171 rated, and 1,649
    # with a margin below ±200 under the default margin (diagonal Fisher SE, weights/150, 1·SE).
    listing = fit_wof(archive[0], dt.date(2025, 11, 1)).listing
    assert listing.height == 3977
    assert int(listing.get_column("rating").is_not_null().sum()) == 3171
    assert int(listing.get_column("official").sum()) == 1649
