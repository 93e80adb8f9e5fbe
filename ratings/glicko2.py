"""Glicko-2 (Glickman, "Example of the Glicko-2 system", ratings.md §6.1) over rating periods.

A period is either a calendar month or one event (SoL rates one period per tourney). Within a
period every player's games are rated against the opponents' ratings from before the period.
A known player without games in a period only gains deviation (φ' = √(φ² + σ²)), unless
``grow_inactive`` is off (SoL's behaviour).
"""

from __future__ import annotations

import datetime as dt
import enum
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl
from pydantic import BaseModel, ConfigDict, Field

from ratings.games import validate_games
from ratings.listing import ActivityParams, activity_listing, empty_rated

GLICKO2_SCALE = 173.7178
"""Points per Glicko-2 internal unit (400/ln 10)."""


class Period(enum.StrEnum):
    """How games are grouped into rating periods."""

    MONTH = "month"
    EVENT = "event"


class Glicko2Params(BaseModel):
    """Glicko-2 constants with Glickman's defaults."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rating: float = 1500.0
    deviation: float = Field(default=350.0, gt=0)
    volatility: float = Field(default=0.06, gt=0)
    tau: float = Field(default=0.5, gt=0)
    """System constant constraining volatility changes (0.3 to 1.2 is typical)."""
    epsilon: float = Field(default=1e-6, gt=0)
    """Convergence tolerance of the volatility iteration."""
    max_deviation: float = 350.0
    """Deviation never grows beyond this (applied on the Glicko scale)."""
    period: Period = Period.MONTH
    grow_inactive: bool = True


@dataclass(frozen=True)
class Glicko2Rating:
    """One player's rating, deviation and volatility on the Glicko scale."""

    rating: float
    deviation: float
    volatility: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _new_volatility(phi: float, sigma: float, v: float, delta: float, p: Glicko2Params) -> float:
    """Step 5: the Illinois iteration for σ'."""
    a = math.log(sigma * sigma)
    tau2 = p.tau * p.tau

    def f(x: float) -> float:
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / tau2

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * p.tau) < 0:
            k += 1
        big_b = a - k * p.tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > p.epsilon:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(
    player: Glicko2Rating,
    results: Sequence[tuple[Glicko2Rating, float]],
    params: Glicko2Params | None = None,
) -> Glicko2Rating:
    """One period's update of ``player`` from (opponent, score) pairs.

    >>> me = Glicko2Rating(1500, 200, 0.06)
    >>> games = [(Glicko2Rating(1400, 30, 0.06), 1.0), (Glicko2Rating(1550, 100, 0.06), 0.0),
    ...          (Glicko2Rating(1700, 300, 0.06), 0.0)]
    >>> new = update(me, games)
    >>> round(new.rating, 2), round(new.deviation, 2), round(new.volatility, 6)
    (1464.05, 151.52, 0.059996)
    """
    p = params or Glicko2Params()
    mu = (player.rating - p.rating) / GLICKO2_SCALE
    phi = player.deviation / GLICKO2_SCALE
    if not results:
        grown = math.sqrt(phi * phi + player.volatility**2) * GLICKO2_SCALE
        return Glicko2Rating(player.rating, min(grown, p.max_deviation), player.volatility)
    information = 0.0
    improvement = 0.0
    for opponent, score in results:
        mu_j = (opponent.rating - p.rating) / GLICKO2_SCALE
        g = _g(opponent.deviation / GLICKO2_SCALE)
        expected = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
        information += g * g * expected * (1.0 - expected)
        improvement += g * (score - expected)
    v = 1.0 / information
    delta = v * improvement
    sigma = _new_volatility(phi, player.volatility, v, delta, p)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Glicko2Rating(
        rating=p.rating + GLICKO2_SCALE * mu_new,
        deviation=GLICKO2_SCALE * phi_new,
        volatility=sigma,
    )


def rate_periods(
    games: pl.DataFrame,
    params: Glicko2Params | None = None,
    *,
    initial: dict[str, Glicko2Rating] | None = None,
) -> pl.DataFrame:
    """Fold Glicko-2 over the periods of ``games``; returns the history.

    Columns: period (the period's first date or event), player_id, rating, deviation,
    volatility, games. Players enter at the defaults (or ``initial``) with their first game.
    """
    p = params or Glicko2Params()
    validate_games(games)
    state: dict[str, Glicko2Rating] = dict(initial or {})
    default = Glicko2Rating(p.rating, p.deviation, p.volatility)
    key = (
        pl.col("date").dt.truncate("1mo").cast(pl.Utf8)
        if p.period is Period.MONTH
        else pl.concat_str([pl.col("date").cast(pl.Utf8), pl.col("event")], separator=" ")
    )
    ordered = games.with_row_index("_row").with_columns(_period=key).sort(["_period", "_row"])
    rows: list[tuple[str, str, float, float, float, int]] = []
    for (period,), block in ordered.group_by(["_period"], maintain_order=True):
        results: dict[str, list[tuple[Glicko2Rating, float]]] = defaultdict(list)
        before: dict[str, Glicko2Rating] = {}
        for a, b, score in block.select("player_a", "player_b", "score_a").iter_rows():
            ra = before.setdefault(a, state.get(a, default))
            rb = before.setdefault(b, state.get(b, default))
            results[a].append((rb, score))
            results[b].append((ra, 1.0 - score))
        movers = set(results) | (set(state) if p.grow_inactive else set())
        for pid in sorted(movers):
            current = before.get(pid, state.get(pid, default))
            state[pid] = update(current, results.get(pid, ()), p)
            new = state[pid]
            rows.append(
                (str(period), pid, new.rating, new.deviation, new.volatility, len(results[pid]))
            )
    return pl.DataFrame(
        rows,
        schema={
            "period": pl.Utf8,
            "player_id": pl.Utf8,
            "rating": pl.Float64,
            "deviation": pl.Float64,
            "volatility": pl.Float64,
            "games": pl.Int64,
        },
        orient="row",
    )


class Glicko2ListParams(BaseModel):
    """A Glicko-2 rating list: the system's constants, its period, and when a rating is
    official."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    glicko2: Glicko2Params = Glicko2Params(period=Period.MONTH)
    period_months: int = Field(default=1, ge=1, le=12)
    """Months per rating period (dates move to their period's first month)."""
    provisional_deviation: float = Field(default=110.0, gt=0)
    """Official below this deviation (lichess's provisional threshold)."""


def glicko2_list(
    games: pl.DataFrame,
    as_of: dt.date,
    params: Glicko2ListParams | None = None,
    activity: ActivityParams | None = None,
) -> pl.DataFrame:
    """The Glicko-2 list as of a date: :func:`rate_periods` over periods of
    ``period_months`` months before ``as_of``, listed by
    :func:`ratings.listing.activity_listing` with the deviation as the margin."""
    p = params or Glicko2ListParams()
    n = p.period_months
    before = games.filter(pl.col("date") < as_of)
    index = pl.col("date").dt.year() * 12 + pl.col("date").dt.month() - 1
    start = (index // n) * n
    bucketed = before.with_columns(pl.date(start // 12, start % 12 + 1, 1).alias("date"))
    history = rate_periods(bucketed, p.glicko2) if before.height else None
    if history is None or history.height == 0:
        rated = empty_rated()
    else:
        rated = (
            history.sort("period")
            .group_by("player_id")
            .agg(pl.col("rating").last(), pl.col("deviation").last().alias("margin"))
        )
    return activity_listing(
        rated,
        before,
        as_of,
        activity=activity,
        unrated="no game",
        provisional=pl.col("margin") >= p.provisional_deviation,
        provisional_reason=f"deviation not below {p.provisional_deviation:g}",
    )
