"""Reference harness for the WOF reproduction: archive → games table, official snapshots.

Used by the reproduction test and by ``benchmarks/bench_ratings.py``. The games table is built
from :mod:`ingest.elo` (the one .ELO reader); the official player files (formats.md §7.6) are
small and only read here, to compare against.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from ingest.elo import parse_elo
from ratings.games import GAMES_SCHEMA, GameKind, validate_games
from ratings.wof import fit_wof

_PLAYER_LINE = re.compile(r"^\s*(?P<id>\d+)\s+(?P<name>.*?)\s*(?:%_<(?P<rating>-?\d+)>)?\s*$")
_SNAPSHOT_NAME = re.compile(r"joueurs_(\d{8})_")


LATE_REPORTERS = ("Japan",)
"""Countries whose events reached the 2018-2020 archive late (see :func:`as_reported`)."""
REPORTING_LAG = dt.timedelta(days=90)


def archive_games(root: Path) -> pl.DataFrame:
    """Every game of every ``.ELO`` file under ``root``, dated by the file's start date.

    Games with an unknown player (``??????``) or a player against themselves are skipped.
    """
    return _archive(str(root))[0]


def archive_events(root: Path) -> pl.DataFrame:
    """One row per ``.ELO`` file: event (file stem), country (``%%Country``), date."""
    return _archive(str(root))[1]


def as_reported(
    games: pl.DataFrame,
    events: pl.DataFrame,
    cutoff: dt.date,
    *,
    countries: tuple[str, ...] = LATE_REPORTERS,
    lag: dt.timedelta = REPORTING_LAG,
) -> pl.DataFrame:
    """The archive as it plausibly stood at ``cutoff``: events of ``countries`` dated within
    ``lag`` before the cutoff had not been reported yet.

    The current archive is not versioned. Against the 2018-2020 snapshots, European players
    reproduce to a few points while Japanese players (the bulk of the list) are off; leaving
    out the last ~3 months of Japanese events at each cutoff explains most of that gap, whereas
    the same lag applied to every country makes it worse.
    """
    late = events.filter(
        pl.col("country").is_in(list(countries)) & (pl.col("date") >= cutoff - lag)
    ).get_column("event")
    return games.filter(~pl.col("event").is_in(late.implode()))


@functools.cache
def _archive(root: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    event_rows: list[tuple[str, str, dt.date]] = []
    dates: list[dt.date] = []
    events: list[str] = []
    first: list[str] = []
    second: list[str] = []
    scores: list[float] = []
    for path in sorted(Path(root).rglob("*.ELO")):
        parsed = parse_elo(path)
        event_rows.append((path.stem, parsed.header.country.strip(), parsed.start))
        for game in parsed.games:
            if game.first is None or game.second is None or game.first == game.second:
                continue
            dates.append(parsed.start)
            events.append(path.stem)
            first.append(str(game.first))
            second.append(str(game.second))
            scores.append(game.first_score)
    n = len(dates)
    frame = pl.DataFrame(
        {
            "date": dates,
            "event": events,
            "player_a": first,
            "player_b": second,
            "score_a": scores,
            "weight": [1.0] * n,
            "game": [GameKind.OTHELLO.value] * n,
            "color_a": [None] * n,
            "handicap": [None] * n,
            "komi": [None] * n,
        },
        schema=dict(GAMES_SCHEMA),
    )
    events_frame = pl.DataFrame(
        event_rows,
        schema={"event": pl.Utf8, "country": pl.Utf8, "date": pl.Date},
        orient="row",
    )
    return validate_games(frame), events_frame


def read_player_file(path: Path) -> pl.DataFrame:
    """An official WOF player file: player_id, name, country, rating (null when unrated)."""
    ids: list[str] = []
    names: list[str] = []
    countries: list[str] = []
    ratings: list[int | None] = []
    country = ""
    for raw in path.read_text(encoding="latin-1").splitlines():
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        if line.startswith("pays"):
            country = line.split("=", 1)[1].strip()
            continue
        match = _PLAYER_LINE.match(line)
        if match is None:
            continue
        ids.append(match["id"])
        names.append(match["name"])
        countries.append(country)
        ratings.append(int(match["rating"]) if match["rating"] is not None else None)
    return pl.DataFrame(
        {"player_id": ids, "name": names, "country": countries, "rating": ratings},
        schema={"player_id": pl.Utf8, "name": pl.Utf8, "country": pl.Utf8, "rating": pl.Int64},
    )


def snapshot_date(path: Path) -> dt.date:
    """The publication date in a snapshot's file name (``joueurs_YYYYMMDD_*.txt``)."""
    match = _SNAPSHOT_NAME.search(path.name)
    if match is None:
        raise ValueError(f"{path}:1:1: found file name {path.name!r}, expected joueurs_YYYYMMDD_")
    return dt.datetime.strptime(match[1], "%Y%m%d").date()  # noqa: DTZ007 - a plain date


def months_before(day: dt.date, months: int) -> dt.date:
    """The first day of the month ``months`` before ``day``'s month."""
    index = day.year * 12 + day.month - 1 - months
    return dt.date(index // 12, index % 12 + 1, 1)


@dataclass(frozen=True)
class Agreement:
    """How our ratings agree with the official ones over players rated in both."""

    players: int
    median_abs_diff: float
    within_5: float
    within_20: float
    pearson_r: float

    def as_dict(self) -> dict[str, float | int]:
        return {
            "players": self.players,
            "median_abs_diff": round(self.median_abs_diff, 2),
            "within_5": round(self.within_5, 4),
            "within_20": round(self.within_20, 4),
            "pearson_r": round(self.pearson_r, 5),
        }


def agreement(ours: pl.DataFrame, official: pl.DataFrame) -> Agreement:
    """Compare ``ours`` (player_id, rating) with ``official`` (player_id, rating)."""
    both = (
        ours.select("player_id", pl.col("rating").alias("ours"))
        .join(official.select("player_id", pl.col("rating").alias("official")), on="player_id")
        .drop_nulls()
    )
    mine = both.get_column("ours").to_numpy()
    theirs = both.get_column("official").to_numpy().astype(float)
    diff = np.abs(np.round(mine) - theirs)
    return Agreement(
        players=both.height,
        median_abs_diff=float(np.median(diff)),
        within_5=float(np.mean(diff <= 5)),
        within_20=float(np.mean(diff <= 20)),
        pearson_r=float(np.corrcoef(mine, theirs)[0, 1]),
    )


SNAPSHOT_LAGS = (1, 2, 3)
"""Candidate lists for a snapshot: through the end of the month 1, 2 or 3 months before it."""


@dataclass(frozen=True)
class SnapshotResult:
    """The best-fitting candidate list for one official snapshot."""

    snapshot: dt.date
    list_through: dt.date
    """First day of the last month whose results the list uses."""
    agreement: Agreement


def reproduce_snapshot(
    path: Path, games: pl.DataFrame, events: pl.DataFrame | None
) -> SnapshotResult:
    """Fit the candidate lists for a snapshot and keep the one closest to it.

    With ``events`` the archive is first cut back to what was plausibly reported
    (:func:`as_reported`); with None the current archive is used as is. Comparison is over
    players active in our list and rated in both.
    """
    official = read_player_file(path)
    day = snapshot_date(path)
    best: SnapshotResult | None = None
    for k in SNAPSHOT_LAGS:
        as_of = months_before(day, k - 1)
        used = games if events is None else as_reported(games, events, as_of)
        players = fit_wof(used, as_of).players.filter(pl.col("active"))
        result = SnapshotResult(day, months_before(day, k), agreement(players, official))
        if best is None or result.agreement.median_abs_diff < best.agreement.median_abs_diff:
            best = result
    assert best is not None
    return best
