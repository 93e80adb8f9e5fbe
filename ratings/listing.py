"""What every published rating list looks like, and the rules that decide who is on it.

A method computes ratings; this module turns them into the list a federation publishes:

* :func:`activity_listing`, the rule of the fold methods (FIDE, EGF, Glicko-2): everyone
  rated or active is listed, and a rating is official when the player is rated, active (a
  rated game in the last :attr:`ActivityParams.active_months` months) and not provisional;
* :func:`shape`, the published columns (:data:`LIST_COLUMNS`, ratings rounded to points) with
  each player's name and country;
* :func:`diff_lists`, what changed against the previous list of the same kind.

Every function is pure: frames in, frames out.
"""

from __future__ import annotations

import datetime as dt

import polars as pl
from pydantic import BaseModel, ConfigDict, Field

from ratings.games import months_before

__all__ = [
    "LIST_COLUMNS",
    "ActivityParams",
    "activity_listing",
    "diff_lists",
    "empty_rated",
    "shape",
]

LIST_COLUMNS: dict[str, pl.DataType] = {
    "rank": pl.Int64(),
    "player_id": pl.Utf8(),
    "name": pl.Utf8(),
    "country": pl.Utf8(),
    "rating": pl.Int64(),
    "margin": pl.Int64(),
    "games": pl.Int64(),
    "official": pl.Boolean(),
    "provisional_reason": pl.Utf8(),
}
"""Columns of ``ratings.csv`` / ``ratings.parquet``, in order; ratings are rounded points."""

_COMPUTED = ("rank", "player_id", "rating", "margin", "games", "official", "provisional_reason")
"""The columns a method's listing has before :func:`shape` (ratings as floats)."""


class ActivityParams(BaseModel):
    """Who is active on a fold method's list (FIDE, EGF, Glicko-2)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    active_months: int = Field(default=12, gt=0)
    """Active: a rated game in the calendar months from this many months before the as-of
    date's month (12: the last twelve months and the current one)."""


def empty_rated() -> pl.DataFrame:
    """A ``rated`` frame for :func:`activity_listing` with nobody in it."""
    return pl.DataFrame(schema={"player_id": pl.Utf8, "rating": pl.Float64, "margin": pl.Float64})


def activity_listing(
    rated: pl.DataFrame,
    games: pl.DataFrame,
    as_of: dt.date,
    *,
    unrated: str,
    activity: ActivityParams | None = None,
    provisional: pl.Expr | None = None,
    provisional_reason: str = "",
) -> pl.DataFrame:
    """The list of a fold method.

    ``rated`` (player_id, rating, margin) holds everyone the method rated, ``games`` the
    games dated before ``as_of``. Listed: rated or active; official: rated, active, and not
    ``provisional`` (an expression over ``rated``'s columns). The others say why in
    ``provisional_reason``: ``unrated``, inactive, or ``provisional_reason``. Official players
    are ranked by rating (ties by id).
    """
    months = (activity or ActivityParams()).active_months
    window = games.filter(pl.col("date") >= months_before(as_of, months))
    played = pl.concat([window.get_column("player_a"), window.get_column("player_b")])
    counts = pl.DataFrame({"player_id": played}).group_by("player_id").len("games")
    not_provisional = pl.lit(value=True) if provisional is None else ~provisional
    listed = (
        rated.join(counts.cast({"games": pl.Int64}), on="player_id", how="full", coalesce=True)
        .with_columns(pl.col("games").fill_null(0))
        .with_columns(
            official=(
                pl.col("rating").is_not_null() & (pl.col("games") > 0) & not_provisional
            ).fill_null(value=False)
        )
        .with_columns(
            provisional_reason=pl.when(pl.col("official"))
            .then(None)
            .when(pl.col("rating").is_null())
            .then(pl.lit(unrated))
            .when(pl.col("games") == 0)
            .then(pl.lit(f"inactive: no game in {months} months"))
            .otherwise(pl.lit(provisional_reason))
        )
        .sort(["official", "rating", "player_id"], descending=[True, True, False], nulls_last=True)
        .with_columns(
            rank=pl.when(pl.col("official")).then(pl.int_range(1, pl.len() + 1)).otherwise(None)
        )
    )
    return listed.select(*_COMPUTED)


def shape(listing: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
    """A method's listing as published: :data:`LIST_COLUMNS`, names and countries from
    ``players``, ratings and margins rounded to whole points."""
    named = listing.join(players.select("player_id", "name", "country"), on="player_id", how="left")
    return named.select(
        [
            (pl.col(c).round(0) if c in {"rating", "margin"} else pl.col(c)).cast(dtype)
            for c, dtype in LIST_COLUMNS.items()
        ]
    )


def diff_lists(previous: pl.DataFrame | None, current: pl.DataFrame) -> pl.DataFrame:
    """New and dropped players, then everyone whose rating moved, biggest moves first."""
    before = (previous if previous is not None else current.clear()).select(
        "player_id",
        pl.col("rating").alias("rating_before"),
        pl.col("rank").alias("rank_before"),
    )
    after = current.select(
        "player_id", "name", "country", pl.col("rating").alias("rating_after"),
        pl.col("rank").alias("rank_after"),
    )  # fmt: skip
    if previous is not None:
        names = previous.select("player_id", "name", "country")
        after = pl.concat([after, names.join(after, on="player_id", how="anti")], how="diagonal")
    both = after.join(before, on="player_id", how="full", coalesce=True)
    change = (
        pl.when(pl.col("rating_before").is_null() & pl.col("rating_after").is_not_null())
        .then(pl.lit("new"))
        .when(pl.col("rating_after").is_null() & pl.col("rating_before").is_not_null())
        .then(pl.lit("dropped"))
        .when(pl.col("rating_after") != pl.col("rating_before"))
        .then(pl.lit("moved"))
    )
    order = pl.col("change").replace_strict({"new": 0, "dropped": 1, "moved": 2})
    return (
        both.with_columns(change.alias("change"))
        .filter(pl.col("change").is_not_null())
        .with_columns((pl.col("rating_after") - pl.col("rating_before")).alias("delta"))
        .sort(
            [order, pl.col("delta").abs(), "rating_after", "rating_before", "player_id"],
            descending=[False, True, True, True, False],
            nulls_last=True,
        )
        .select(
            "change",
            "player_id",
            "name",
            "country",
            "rating_before",
            "rating_after",
            "delta",
            "rank_before",
            "rank_after",
        )
    )
