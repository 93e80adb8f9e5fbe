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
from ratings.games import GAMES_SCHEMA, GameKind, months_before, validate_games
from ratings.wof import fit_wof

_PLAYER_LINE = re.compile(r"^\s*(?P<id>\d+)\s+(?P<name>.*?)\s*(?:%_<(?P<rating>-?\d+)>)?\s*$")
_SNAPSHOT_NAME = re.compile(r"joueurs_(\d{8})_")


def archive_games(root: Path) -> pl.DataFrame:
    """Every game of every ``.ELO`` file under ``root``, dated by the file's start date.

    Games with an unknown player (``??????``) or a player against themselves are skipped.
    """
    return _archive(str(root))[0]


def archive_events(root: Path) -> pl.DataFrame:
    """One row per ``.ELO`` file: event (file stem), country (``%%Country``), date."""
    return _archive(str(root))[1]


def reporting_lag(
    games: pl.DataFrame,
    events: pl.DataFrame,
    cutoff: dt.date,
    lag: dt.timedelta,
    countries: tuple[str, ...] | None = None,
) -> pl.DataFrame:
    """``games`` without the events dated within ``lag`` before ``cutoff`` (of ``countries``
    only, or of every country with None), as if those had not been reported yet.

    A generic delay rule, kept to measure it against :func:`archive_state` (bench_ratings).
    """
    late = pl.col("date") >= cutoff - lag
    if countries is not None:
        late &= pl.col("country").is_in(list(countries))
    return games.filter(~pl.col("event").is_in(events.filter(late).get_column("event").implode()))


def debutants(games: pl.DataFrame) -> pl.DataFrame:
    """(event, player_id) for each player's first event day in ``games`` (every event of it)."""
    seen = pl.concat(
        [
            games.select("event", "date", pl.col(side).alias("player_id"))
            for side in ("player_a", "player_b")
        ]
    ).unique()
    return seen.filter(pl.col("date") == pl.col("date").min().over("player_id")).select(
        "event", "player_id"
    )


@dataclass(frozen=True)
class ArchiveState:
    """Which results an official player file was computed from, read from the file itself."""

    events: frozenset[str]
    """Events recorded in the database when the file was exported."""
    calculation_date: dt.date
    """Start date of the newest recorded event whose debuting players the file rates."""

    @property
    def as_of(self) -> dt.date:
        """The :func:`ratings.wof.fit_wof` date: games up to the calculation date, month ages
        counted from its month."""
        return self.calculation_date + dt.timedelta(days=1)


def archive_state(
    games: pl.DataFrame, events: pl.DataFrame, official: pl.DataFrame, snapshot: dt.date
) -> ArchiveState:
    """The archive as it stood when an official player file was exported (formats.md §7.6).

    The file lists every player of the database, rated or not, and a player's ID is created
    when the first event they play is imported. Hence, over the current archive:

    * an event with debuting players, dated up to the snapshot, was recorded iff at least half
      of them are in the file (IDs of later events are sometimes created in advance);
    * an event without debuting players was recorded iff an event of the same country dated on
      or after it, and not after the snapshot, was recorded by the first rule (results are
      reported per country in date order);
    * the list was calculated after the newest recorded event (up to the snapshot) that has a
      debutant with a rating in the file; the newest such event gives the calculation date.

    No rule is fitted to the ratings: only IDs and the presence of a rating are read.
    """
    known = official.select(
        "player_id", pl.lit(True).alias("listed"), pl.col("rating").is_not_null().alias("rated")
    )
    per_event = (
        debutants(games)
        .join(known, on="player_id", how="left")
        .group_by("event")
        .agg(
            pl.len().alias("debutants"),
            pl.col("listed").fill_null(False).sum().alias("listed"),
            pl.col("rated").fill_null(False).sum().alias("rated"),
        )
    )
    table = (
        events.join(per_event, on="event", how="left")
        .with_columns(pl.col("debutants", "listed", "rated").fill_null(0))
        .with_columns(
            recorded=(pl.col("debutants") > 0) & (2 * pl.col("listed") >= pl.col("debutants"))
        )
    )
    dated = table.filter(pl.col("recorded") & (pl.col("date") <= snapshot))
    watermark = dated.group_by("country").agg(pl.col("date").max().alias("reported_through"))
    included = table.join(watermark, on="country", how="left").filter(
        (pl.col("recorded") & (pl.col("date") <= snapshot))
        | ((pl.col("debutants") == 0) & (pl.col("date") <= pl.col("reported_through")))
    )
    rated = dated.filter(pl.col("rated") > 0).get_column("date")
    if rated.is_empty():
        raise ValueError(f"snapshot of {snapshot}: found no rated debutant, expected at least one")
    newest = rated.max()
    assert isinstance(newest, dt.date)
    return ArchiveState(frozenset(included.get_column("event").to_list()), newest)


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
"""Candidate lists for :func:`best_candidate`: results through the end of the month 1, 2 or 3
months before the snapshot, ages from the next month."""


@dataclass(frozen=True)
class SnapshotResult:
    """Our list against one official snapshot."""

    snapshot: dt.date
    as_of: dt.date
    """The :func:`ratings.wof.fit_wof` date used."""
    agreement: Agreement


def compare(games: pl.DataFrame, as_of: dt.date, official: pl.DataFrame) -> Agreement:
    """Fit the list as of ``as_of`` and compare its active players with ``official``."""
    return agreement(fit_wof(games, as_of).players.filter(pl.col("active")), official)


def reproduce_snapshot(path: Path, games: pl.DataFrame, events: pl.DataFrame) -> SnapshotResult:
    """Our list from the archive as the snapshot records it (:func:`archive_state`).

    Comparison is over players active in our list and rated in both.
    """
    official = read_player_file(path)
    day = snapshot_date(path)
    state = archive_state(games, events, official, day)
    used = games.filter(pl.col("event").is_in(list(state.events)))
    return SnapshotResult(day, state.as_of, compare(used, state.as_of, official))


def best_candidate(path: Path, games: pl.DataFrame) -> SnapshotResult:
    """The candidate list (:data:`SNAPSHOT_LAGS`) closest to the snapshot: a fit of the list
    month to the answer, kept only to compare with :func:`reproduce_snapshot`."""
    official = read_player_file(path)
    day = snapshot_date(path)
    results = [
        SnapshotResult(day, as_of, compare(games, as_of, official))
        for as_of in (months_before(day, k - 1) for k in SNAPSHOT_LAGS)
    ]
    return min(results, key=lambda r: r.agreement.median_abs_diff)
