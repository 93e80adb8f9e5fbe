"""The World Othello Federation rating list (ratings.md §1).

Every list is a fresh weighted Bradley–Terry maximum-likelihood fit over all results dated
before ``as_of``; nothing carries over from earlier lists. Each game is weighted by its age in
whole months counted from ``as_of``'s month (150/100/60/30/1 by default). Ratings exist only
inside strongly connected components of at least ``min_component_size`` players, and each
component is anchored so that its mean rating, weighted by each player's number of games, is
``anchor``. Players with a game in the last ``activity_months`` months are listed; a rating is
official when its margin of error is below ``margin_limit``.

The margin definition is not published by the WOF (ratings.md §1.5). Ours, versioned as
``diag-fisher-v1``: margin = z · scale / √(Σ_j c_ij / unit), with c_ij the Hessian edge weight
and unit the weight of one recent game, so a fresh game counts as one unit of information.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from typing import Literal, Self

import numpy as np
import polars as pl
from pydantic import BaseModel, ConfigDict, Field, model_validator

from ratings import bradley_terry
from ratings.games import GameKind, validate_games


class WofParams(BaseModel):
    """Every element of the WOF model as a named, validated parameter (defaults: ratings.md)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    version: str = "wof-1"
    anchor: float = 1800.0
    """Games-weighted mean rating of every component."""
    odds_points: float = Field(default=200.0, gt=0)
    odds: float = Field(default=3.0, gt=1)
    """A gap of ``odds_points`` means ``odds``:1 odds of winning."""
    weight_windows: tuple[tuple[int, float], ...] = (
        (7, 150.0),
        (14, 100.0),
        (26, 60.0),
        (38, 30.0),
    )
    """(months, weight): a game younger than ``months`` gets ``weight`` (first match wins)."""
    old_weight: float = Field(default=1.0, gt=0)
    """Weight of a game at least as old as the last window."""
    activity_months: int = Field(default=38, gt=0)
    """Listed if a game is younger than this many months."""
    min_component_size: int = Field(default=10, ge=2)
    anchor_games: Literal["all", "active"] = "all"
    """Which game count weights the anchor mean: all history, or the activity window only."""
    margin_limit: float = Field(default=200.0, gt=0)
    margin_z: float = Field(default=1.0, gt=0)
    margin_unit: float = Field(default=150.0, gt=0)
    tolerance_points: float = Field(default=1e-4, gt=0)
    """The solver stops when no rating moves by more than this many points."""
    max_newton_steps: int = Field(default=200, gt=0)

    @model_validator(mode="after")
    def _windows_increase(self) -> Self:
        months = [m for m, _ in self.weight_windows]
        if any(m <= 0 for m in months) or months != sorted(set(months)):
            raise ValueError(f"weight_windows months must increase and be positive, got {months}")
        if any(w <= 0 for _, w in self.weight_windows):
            raise ValueError("weight_windows weights must be positive")
        return self

    @property
    def scale(self) -> float:
        """Points per natural-log unit of odds: 200/ln 3 ≈ 182.05 by default."""
        return self.odds_points / math.log(self.odds)


@dataclass(frozen=True)
class WofFit:
    """A computed list plus everything behind it."""

    listing: pl.DataFrame
    """The published list: rank, player_id, rating, margin, games, official, provisional_reason."""
    players: pl.DataFrame
    """Every player with a game before as_of: player_id, rating (null if unrated), margin,
    information (Σc), games_total, games_active, active, reason (null if rated)."""
    newton_steps: int
    cg_iterations: int
    components: int
    """Number of components large enough to be rated."""


def expected_score(rating_a: float, rating_b: float, params: WofParams | None = None) -> float:
    """A's expected score against B under the list's model: a gap of ``odds_points`` is
    ``odds``:1 (200 points, 3:1 by default), the fit's own logistic curve."""
    params = params or WofParams()
    gap = np.array([(rating_a - rating_b) / params.scale])
    return float(bradley_terry.win_probability(gap)[0])


def month_age(dates: pl.Expr, as_of: dt.date) -> pl.Expr:
    """Whole months between a game's month and ``as_of``'s month (0 in the same month)."""
    return (as_of.year - dates.dt.year().cast(pl.Int64)) * 12 + (
        as_of.month - dates.dt.month().cast(pl.Int64)
    )


def age_weight(ages: pl.Expr, params: WofParams) -> pl.Expr:
    """Time weight for integer month ages."""
    expr = pl.lit(params.old_weight)
    for months, weight in reversed(params.weight_windows):
        expr = pl.when(ages < months).then(pl.lit(weight)).otherwise(expr)
    return expr


def fit_wof(
    games: pl.DataFrame,
    as_of: dt.date,
    params: WofParams | None = None,
    *,
    game: GameKind | None = GameKind.OTHELLO,
) -> WofFit:
    """Compute the WOF list from every ``game`` result dated before ``as_of``.

    Ages count whole months from ``as_of``'s month. An official list is a calculation on some
    day C over every result recorded by then, ages counted from C's month: ``as_of`` = C + 1
    day. The official player files of 2018-2020 reproduce best that way (the calculation day
    read from each file; tests/ratings/wof_reference.py ``archive_state``). A list "through
    month M" computed early in M + 1 (ratings.md §1.2) is ``as_of`` = the first day of M + 1.
    ``game=None`` rates every row whatever its game.
    """
    params = params or WofParams()
    validate_games(games)
    selected = pl.col("date") < as_of
    if game is not None:
        selected &= pl.col("game") == game.value
    used = games.filter(selected).select(
        "player_a",
        "player_b",
        "score_a",
        (pl.col("weight") * age_weight(month_age(pl.col("date"), as_of), params)).alias("w"),
        (month_age(pl.col("date"), as_of) < params.activity_months).alias("active"),
    )
    ids = pl.concat([used.get_column("player_a"), used.get_column("player_b")]).unique().sort()
    n = ids.len()
    enum = pl.Enum(ids)
    coded = used.select(
        pl.col("player_a").cast(enum).to_physical().cast(pl.Int64).alias("a"),
        pl.col("player_b").cast(enum).to_physical().cast(pl.Int64).alias("b"),
        "score_a",
        "w",
        "active",
    )
    a = coded.get_column("a").to_numpy()
    b = coded.get_column("b").to_numpy()
    score = coded.get_column("score_a").to_numpy()
    weight = coded.get_column("w").to_numpy()
    active_game = coded.get_column("active").to_numpy()

    games_total = np.bincount(a, minlength=n) + np.bincount(b, minlength=n)
    games_active = np.bincount(a[active_game], minlength=n) + np.bincount(
        b[active_game], minlength=n
    )
    points = np.bincount(a, score, n) + np.bincount(b, 1.0 - score, n)

    pairs = bradley_terry.aggregate_pairs(a, b, score, weight, n)
    comps = bradley_terry.strong_components(pairs, n)
    size = comps.sizes[comps.labels]
    fitted = size >= params.min_component_size
    solution = bradley_terry.fit(
        pairs,
        n,
        fitted,
        comps.labels,
        tolerance=params.tolerance_points / params.scale,
        max_steps=params.max_newton_steps,
    )

    anchor_count = (games_total if params.anchor_games == "all" else games_active).astype(float)
    r = _anchor(solution.r, comps.labels, fitted, anchor_count)
    rating = params.anchor + params.scale * r
    with np.errstate(divide="ignore"):
        se = 1.0 / np.sqrt(solution.information / params.margin_unit)
    margin = params.margin_z * params.scale * se

    players = pl.DataFrame(
        {
            "player_id": ids,
            "rating": rating,
            "margin": margin,
            "information": solution.information,
            "games_total": games_total.astype(np.int64),
            "games_active": games_active.astype(np.int64),
            "active": games_active > 0,
            "reason": _unrated_reasons(fitted, points, games_total, size, params),
        }
    ).with_columns(pl.col("rating", "margin", "information").fill_nan(None))
    return WofFit(
        listing=_listing(players, params),
        players=players,
        newton_steps=solution.newton_steps,
        cg_iterations=solution.cg_iterations,
        components=int(np.count_nonzero(comps.sizes >= params.min_component_size)),
    )


def _anchor(r: np.ndarray, labels: np.ndarray, fitted: np.ndarray, count: np.ndarray) -> np.ndarray:
    """Shift each component so that its count-weighted mean is zero."""
    out = r.copy()
    members = np.flatnonzero(fitted)
    if members.size == 0:
        return out
    _, local = np.unique(labels[members], return_inverse=True)
    weighted = np.bincount(local, r[members] * count[members])
    total = np.bincount(local, count[members])
    # A component without counted games (possible with anchor_games="active") keeps mean 0.
    shift = np.divide(weighted, total, out=np.zeros_like(weighted), where=total > 0)
    out[members] -= shift[local]
    return out


def _unrated_reasons(
    fitted: np.ndarray,
    points: np.ndarray,
    games: np.ndarray,
    component_size: np.ndarray,
    params: WofParams,
) -> pl.Series:
    """Why each player has no rating (null for rated players)."""
    frame = pl.DataFrame(
        {"fitted": fitted, "points": points, "games": games, "size": component_size}
    )
    return frame.select(
        pl.when(pl.col("fitted"))
        .then(pl.lit(None, dtype=pl.Utf8))
        .when(pl.col("points") >= pl.col("games"))
        .then(pl.lit("won every game"))
        .when(pl.col("points") <= 0)
        .then(pl.lit("lost every game"))
        .otherwise(
            pl.format(
                "component of {} player(s), fewer than {}",
                pl.col("size"),
                pl.lit(params.min_component_size),
            )
        )
        .alias("reason")
    ).to_series()


def _listing(players: pl.DataFrame, params: WofParams) -> pl.DataFrame:
    limit = params.margin_limit
    listed = (
        players.filter(pl.col("active"))
        .with_columns(
            official=pl.col("margin").is_not_null() & (pl.col("margin") < limit),
        )
        .with_columns(
            provisional_reason=pl.when(pl.col("official"))
            .then(None)
            .when(pl.col("reason").is_not_null())
            .then(pl.col("reason"))
            .otherwise(
                pl.format(
                    "margin ±{} is not below ±{}",
                    pl.col("margin").round(0).cast(pl.Int64),
                    pl.lit(f"{limit:g}"),
                )
            )
        )
        .sort(["official", "rating", "player_id"], descending=[True, True, False], nulls_last=True)
        .with_columns(
            rank=pl.when(pl.col("official")).then(pl.int_range(1, pl.len() + 1)).otherwise(None)
        )
    )
    return listed.select(
        pl.col("rank").cast(pl.Int64),
        "player_id",
        "rating",
        "margin",
        pl.col("games_active").alias("games"),
        "official",
        "provisional_reason",
    )
