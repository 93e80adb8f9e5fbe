"""EGF GoR (ratings.md §4): the 2021 formula, and the 1998–2020 formula as an option.

Events are rated one by one in date order (ties by event name). Inside an event every game
uses the ratings from before the event, and each player's changes are summed and applied at
its end. The tournament class weight (games.weight: A 1.0, B 0.75, C 0.5, D 0.25) scales the
change of every game.

Handicap (not confirmed for the 2021 formula, ratings.md §4.3): h stones given to the black
player count as 100·(h − ½) rating points added to black's rating for the expectation only;
h = 0 is an even game with komi. Komi is not used otherwise. Without a colour the lower rated
player is taken to receive the stones.
"""

from __future__ import annotations

import bisect
import datetime as dt
import enum
import math
import re
from collections import defaultdict
from dataclasses import dataclass

import polars as pl
from pydantic import BaseModel, ConfigDict

from events.errors import NotFound
from ratings.games import validate_games
from ratings.listing import ActivityParams, activity_listing


class Formula(enum.StrEnum):
    """Which GoR update rule."""

    EGF_2021 = "egf-2021"
    EGF_1998 = "egf-1998"


CLASS_WEIGHTS: dict[str, float] = {"A": 1.0, "B": 0.75, "C": 0.5, "D": 0.25}
"""Tournament class → weight of its games (EGF, ratings.md §4.4; D is internet play); class X
events are not rated."""

_CON_POINTS = tuple(range(100, 2701, 100))
_CON_VALUES = (116, 110, 105, 100, 95, 90, 85, 80, 75, 70, 65, 60, 55, 51, 47, 43, 39, 35, 31,
               27, 24, 21, 18, 15, 13, 11, 10)  # fmt: skip


class EgfParams(BaseModel):
    """GoR constants; the floor defaults to the formula's own (−900 since 2021, 100 before)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    formula: Formula = Formula.EGF_2021
    epsilon: float = 0.016
    """1998 formula: the anti-deflation term taken from the stronger player's expectation."""
    handicap_stone_points: float = 100.0
    floor: float | None = None
    start_rating: float | None = None
    """Rating of a player absent from the players table; None: such a player is an error."""

    @property
    def effective_floor(self) -> float:
        if self.floor is not None:
            return self.floor
        return -900.0 if self.formula is Formula.EGF_2021 else 100.0


class UnknownPlayerError(NotFound):
    """A game names a player who has no starting rating."""


def rating_from_grade(grade: str) -> float:
    """GoR of a grade: 20k = 100, 1k = 2000, 1d = 2100, 7d = 1p = 2700, 9p = 2940.

    >>> rating_from_grade("1d"), rating_from_grade("20k"), rating_from_grade("3p")
    (2100.0, 100.0, 2760.0)
    """
    match = re.fullmatch(r"\s*(\d+)\s*([kKdDpP])\s*", grade)
    if match is None:
        raise ValueError(f"grade: found {grade!r}, expected like 5k, 2d or 1p")
    n, kind = int(match[1]), match[2].lower()
    if kind == "k" and 1 <= n <= 30:
        return 2100.0 - 100.0 * n
    if kind == "d" and 1 <= n <= 7:
        return 2000.0 + 100.0 * n
    if kind == "p" and 1 <= n <= 9:
        return 2700.0 + 30.0 * (n - 1)
    raise ValueError(f"grade: found {grade!r}, expected 1–30k, 1–7d or 1–9p")


def con_1998(rating: float) -> float:
    """The 1998 con, interpolated in the published table (116 at ≤ 100, 10 at ≥ 2700)."""
    if rating <= _CON_POINTS[0]:
        return float(_CON_VALUES[0])
    if rating >= _CON_POINTS[-1]:
        return float(_CON_VALUES[-1])
    i = bisect.bisect_right(_CON_POINTS, rating) - 1
    x0, x1 = _CON_POINTS[i], _CON_POINTS[i + 1]
    y0, y1 = _CON_VALUES[i], _CON_VALUES[i + 1]
    return y0 + (y1 - y0) * (rating - x0) / (x1 - x0)


def expected_1998(own: float, opponent: float, epsilon: float) -> float:
    """1998 expected score of ``own`` against ``opponent`` (ratings already handicap-adjusted)."""
    low, high = min(own, opponent), max(own, opponent)
    a = max(70.0, (4100.0 - low) / 20.0)
    se_low = 1.0 / (math.exp((high - low) / a) + 1.0)
    if own < opponent:
        return se_low
    if own > opponent:
        return 1.0 - epsilon - se_low
    return 0.5 - epsilon / 2.0


def _beta(rating: float) -> float:
    return -7.0 * math.log(3300.0 - rating)


def expected_2021(own: float, opponent: float) -> float:
    """2021 expected score: Se = 1 / (1 + exp(β(r2) − β(r1))), β(r) = −7·ln(3300 − r)."""
    return 1.0 / (1.0 + math.exp(_beta(opponent) - _beta(own)))


def con_2021(rating: float) -> float:
    """((3300 − r)/200)^1.6."""
    return float(((3300.0 - rating) / 200.0) ** 1.6)


def bonus_2021(rating: float) -> float:
    """ln(1 + exp((2300 − r)/80)) / 5, the anti-deflation bonus of every game."""
    return math.log1p(math.exp((2300.0 - rating) / 80.0)) / 5.0


def game_change(
    own: float,
    opponent: float,
    score: float,
    params: EgfParams,
    *,
    own_handicap: float = 0.0,
    opponent_handicap: float = 0.0,
) -> float:
    """Change of ``own`` for one game (before the class weight).

    The handicap, in rating points, is added to the receiving side's rating for the
    expectation only (so both players of a game see the same adjusted pair).

    >>> round(2100 + game_change(2100, 2100, 1.0, EgfParams()), 3)
    2109.306
    """
    adjusted_own = own + own_handicap
    adjusted_opponent = opponent + opponent_handicap
    if params.formula is Formula.EGF_2021:
        expected = expected_2021(adjusted_own, adjusted_opponent)
        return con_2021(own) * (score - expected) + bonus_2021(own)
    expected = expected_1998(adjusted_own, adjusted_opponent, params.epsilon)
    return con_1998(own) * (score - expected)


@dataclass(frozen=True)
class EgfResult:
    """Ratings after every event, and the change per player and event."""

    ratings: pl.DataFrame
    """player_id, rating (after the last event)."""
    changes: pl.DataFrame
    """date, event, player_id, rating_before, games, change, rating_after."""


def _handicap_points(stones: int | None, params: EgfParams) -> float:
    if not stones:
        return 0.0
    return params.handicap_stone_points * (stones - 0.5)


def rate_events(
    players: pl.DataFrame, games: pl.DataFrame, params: EgfParams | None = None
) -> EgfResult:
    """Fold GoR over the events of ``games`` in date order.

    ``players`` needs player_id and rating (the starting GoR, e.g. from
    :func:`rating_from_grade`).

    :raises UnknownPlayerError: a player has no starting rating and no ``start_rating`` is set.
    """
    p = params or EgfParams()
    validate_games(games)
    current: dict[str, float] = {
        pid: float(r)
        for pid, r in players.select("player_id", "rating").iter_rows()
        if r is not None
    }
    floor = p.effective_floor
    change_rows: list[dict[str, object]] = []
    ordered = games.with_row_index("_row").sort(["date", "event", "_row"])
    for (day, event), block in ordered.group_by(["date", "event"], maintain_order=True):
        deltas: dict[str, float] = defaultdict(float)
        counts: dict[str, int] = defaultdict(int)
        before: dict[str, float] = {}
        rows = block.select("player_a", "player_b", "score_a", "weight", "color_a", "handicap")
        for a, b, score, weight, color_a, stones in rows.iter_rows():
            ra = before.setdefault(a, _start(current, a, p, str(event)))
            rb = before.setdefault(b, _start(current, b, p, str(event)))
            points = _handicap_points(stones, p)
            a_receives = color_a == "black" if color_a is not None else ra < rb
            ha, hb = (points, 0.0) if a_receives else (0.0, points)
            deltas[a] += weight * game_change(
                ra, rb, score, p, own_handicap=ha, opponent_handicap=hb
            )
            deltas[b] += weight * game_change(
                rb, ra, 1.0 - score, p, own_handicap=hb, opponent_handicap=ha
            )
            counts[a] += 1
            counts[b] += 1
        for pid in sorted(deltas):
            after = max(floor, before[pid] + deltas[pid])
            current[pid] = after
            change_rows.append(
                {
                    "date": day,
                    "event": event,
                    "player_id": pid,
                    "rating_before": before[pid],
                    "games": counts[pid],
                    "change": after - before[pid],
                    "rating_after": after,
                }
            )
    ratings = pl.DataFrame(
        {"player_id": sorted(current), "rating": [current[k] for k in sorted(current)]},
        schema={"player_id": pl.Utf8, "rating": pl.Float64},
    )
    changes = pl.DataFrame(
        change_rows,
        schema={
            "date": pl.Date,
            "event": pl.Utf8,
            "player_id": pl.Utf8,
            "rating_before": pl.Float64,
            "games": pl.Int64,
            "change": pl.Float64,
            "rating_after": pl.Float64,
        },
    )
    return EgfResult(ratings=ratings, changes=changes)


def _start(current: dict[str, float], player_id: str, p: EgfParams, event: str) -> float:
    if player_id in current:
        return current[player_id]
    if p.start_rating is None:
        raise UnknownPlayerError(
            f"{event}:{player_id}: found a player without a starting rating, "
            "expected a rating in the players table (or EgfParams.start_rating)"
        )
    return p.start_rating


LIST_START_GRADE = "20k"
"""The starting grade of a listed player whom no registration gives a rating or a grade."""


def _grade_rating(grade: str | None) -> float | None:
    try:
        return None if grade is None else rating_from_grade(grade)
    except ValueError:
        return None


def egf_list(
    games: pl.DataFrame,
    players: pl.DataFrame,
    as_of: dt.date,
    params: EgfParams | None = None,
    activity: ActivityParams | None = None,
) -> pl.DataFrame:
    """The GoR list as of a date: :func:`rate_events` over the events before ``as_of``,
    listed by :func:`ratings.listing.activity_listing`.

    Starting GoR: the rating in ``players``, else the value of its ``grade`` (when the column
    is there and the grade reads), else ``params.start_rating`` (default: 20k, 100).
    """
    p = params or EgfParams(start_rating=rating_from_grade(LIST_START_GRADE))
    start = pl.col("rating")
    if "grade" in players.columns:
        grades = pl.col("grade").map_elements(_grade_rating, return_dtype=pl.Float64)
        start = pl.coalesce(start, grades)
    before = games.filter(pl.col("date") < as_of)
    result = rate_events(players.select("player_id", start.alias("rating")), before, p)
    played = set(result.changes.get_column("player_id").to_list())
    rated = result.ratings.filter(pl.col("player_id").is_in(played)).select(
        "player_id", "rating", pl.lit(None, dtype=pl.Float64).alias("margin")
    )
    return activity_listing(rated, before, as_of, activity=activity, unrated="no rated game")
