"""FIDE Elo: the rating regulations effective 1 March 2024, with the 2025 amendment to 8.3.1.

One rating period is a fold: every player's expectation uses the ratings at the start of the
period (the previous list), the change is K·Σ(W − We) over games against rated opponents,
rounded to a whole number. Unrated players get an initial rating from at least five games
against rated opponents (two hypothetical 1800 draws included). Ratings below the floor are
not published: the player is listed as unrated.

Modelled choices where the handbook text leaves room (each a parameter or documented here):

* A fractional rating difference is rounded half up before the table lookup.
* Games between two unrated players, and a rated player's games against an unrated opponent,
  are not rated.
* "A zero score in the first event is disregarded" is applied per period: an unrated player
  with nothing pooled yet and no points against rated opponents is left as if absent.
* Pooling for the initial rating is by period: results of periods starting within 26 months
  before the current one are kept in :attr:`FidePeriod.pending`.
"""

from __future__ import annotations

import datetime as dt
import math
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

import polars as pl
from pydantic import BaseModel, ConfigDict, Field

from ratings.fide_tables import dp_for_percent, expected_percent
from ratings.games import months_before, validate_games, validate_players
from ratings.listing import ActivityParams, activity_listing


class FideParams(BaseModel):
    """FIDE rating-regulation constants (1 March 2024 text, 1 October 2025 amendment)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    version: str = "fide-2024-03+2025-10"
    floor: int = 1400
    """Ratings below this are not published."""
    difference_cap: int = Field(default=400, gt=0)
    """Rule 8.3.1: a larger difference counts as this much …"""
    uncapped_from: int | None = 2650
    """… except for players rated at least this (None: the cap applies to everyone)."""
    uncapped_since: dt.date = dt.date(2025, 10, 1)
    """Periods starting before this date apply the cap to everyone."""
    k_new: int = 40
    new_player_games: int = 30
    """K = k_new until this many games are completed."""
    k_junior: int = 40
    junior_last_age: int = 18
    """Juniors keep k_junior until the end of the year they turn this old …"""
    junior_below: int = 2300
    """… while rated below this."""
    k_standard: int = 20
    k_top: int = 10
    top_from: int = 2400
    """K = k_top once a published rating has reached this, permanently."""
    k_games_cap: int = 700
    """If n·K exceeds this in one period, K becomes the largest integer with n·K ≤ cap."""
    initial_min_games: int = 5
    pooling_months: int = 26
    """An unrated player's results from periods within this many months are pooled."""
    initial_max: int = 2200
    hypothetical_opponents: int = 2
    hypothetical_rating: int = 1800


def expected_score(difference: float) -> float:
    """Table 8.1b: the expected score PD for a rating difference (own − opponent).

    >>> expected_score(0), expected_score(100), expected_score(-400), expected_score(800)
    (0.5, 0.64, 0.08, 1.0)
    """
    percent = expected_percent(_round_half_up(abs(difference)))
    return percent / 100 if difference >= 0 else (100 - percent) / 100


def performance_difference(fraction: float) -> int:
    """Table 8.1a: dp for a fractional score p (rounded half up to two decimals).

    >>> performance_difference(0.5), performance_difference(0.75), performance_difference(0.1)
    (0, 193, -366)
    """
    if not 0.0 <= fraction <= 1.0:
        raise ValueError(f"fractional score: found {fraction}, expected 0 ≤ p ≤ 1")
    return dp_for_percent(_round_half_up(fraction * 100))


def performance_rating(opponent_ratings: list[float], score: float) -> float:
    """Rp = Ra + dp(p): average opponent rating plus table 8.1a (no 400 cap).

    >>> performance_rating([2400, 2500, 2600], 2.0)
    2625.0
    """
    if not opponent_ratings:
        raise ValueError("performance rating: found no games, expected at least one")
    average = sum(opponent_ratings) / len(opponent_ratings)
    return average + performance_difference(score / len(opponent_ratings))


def capped_difference(
    own: float, opponent: float, params: FideParams, period_start: dt.date
) -> float:
    """Rule 8.3.1: the difference used for the expectation, with the 400-point cap."""
    difference = own - opponent
    exempt = (
        params.uncapped_from is not None
        and period_start >= params.uncapped_since
        and own >= params.uncapped_from
    )
    if exempt:
        return difference
    cap = params.difference_cap
    return max(-cap, min(cap, difference))


@dataclass(frozen=True)
class PlayerState:
    """What the K rules need to know about a player at the start of a period."""

    rating: float | None
    games: int = 0
    """Rated games completed before the period."""
    birth_year: int | None = None
    reached_top: bool = False
    """A published rating has reached ``top_from`` at some point."""


def k_factor(
    player: PlayerState, period_start: dt.date, games_in_period: int, p: FideParams
) -> int:
    """Rule 8.3.3: the development coefficient for this period.

    >>> k_factor(PlayerState(2100, games=50), dt.date(2024, 3, 1), 9, FideParams())
    20
    >>> k_factor(PlayerState(2100, games=50), dt.date(2024, 3, 1), 40, FideParams())
    17
    """
    rating = player.rating if player.rating is not None else 0.0
    junior = (
        player.birth_year is not None
        and period_start.year - player.birth_year <= p.junior_last_age
        and rating < p.junior_below
    )
    if player.reached_top or rating >= p.top_from:
        k = p.k_top
    elif player.games < p.new_player_games:
        k = p.k_new
    elif junior:
        k = p.k_junior
    else:
        k = p.k_standard
    if games_in_period > 0 and k * games_in_period > p.k_games_cap:
        k = p.k_games_cap // games_in_period
    return k


def initial_rating(opponent_ratings: list[float], score: float, p: FideParams) -> float | None:
    """Rule 8.2: initial rating from games against rated opponents, or None if not rateable.

    Two hypothetical opponents rated 1800, both drawn, join the average and the score; the
    result is capped at ``initial_max`` and published only if at least the floor.

    >>> initial_rating([1600, 1700, 1800, 1900, 2000], 3.0, FideParams())
    1850.0
    """
    n = len(opponent_ratings)
    if n < p.initial_min_games or score <= 0:
        return None
    h = p.hypothetical_opponents
    ratings = [*opponent_ratings, *([float(p.hypothetical_rating)] * h)]
    average = sum(ratings) / len(ratings)
    fraction = (score + 0.5 * h) / (n + h)
    rating = min(
        float(p.initial_max), float(_round_half_up(average + performance_difference(fraction)))
    )
    return rating if rating >= p.floor else None


MARCH_2024 = dt.date(2024, 3, 1)
"""The day of the one-time adjustment and of the initial-rating rule in force since."""


def _adjusted(rating: pl.Expr) -> pl.Expr:
    """:func:`march_2024_adjustment` over a column: ⌊0.6·R + 800.5⌋ = R + 0.4·(2000 − R)
    rounded half up, for 1000 ≤ R < 2000 (never a half for a whole R: the fraction is in
    fifths)."""
    return (
        pl.when((rating >= 1000) & (rating < 2000))
        .then(((6 * rating + 8005) / 10).floor())
        .otherwise(rating)
    )


def march_2024_adjustment(rating: float) -> float:
    """The one-time adjustment of 1 March 2024: R + 0.4·(2000 − R) for 1000 ≤ R < 2000.

    >>> march_2024_adjustment(1500), march_2024_adjustment(2100)
    (1700.0, 2100.0)
    """
    if 1000 <= rating < 2000:
        return float(_round_half_up(rating + 0.4 * (2000 - rating)))
    return float(rating)


@dataclass(frozen=True)
class FidePeriod:
    """The outcome of one rating period."""

    players: pl.DataFrame
    """The players table after the period (rating, games, k_reached_2400 updated)."""
    changes: pl.DataFrame
    """Per player who played: player_id, rating_before, k, games, score, expected, change,
    rating_after, status (rated / initial / not rated / below floor)."""
    game_deltas: pl.DataFrame
    """Per game and side: player_id, opponent_id, opponent_rating, difference_used, score,
    expected, k, delta (unrounded K·(W − We)) — the audit trail for "why did my rating move"."""
    pending: Mapping[str, tuple[PendingGame, ...]] = field(default_factory=dict)
    """Unrated players' results still waiting for enough games (pass to the next period)."""


@dataclass(frozen=True)
class PendingGame:
    """An unrated player's result against a rated opponent, kept for pooling."""

    period_start: dt.date
    opponent_rating: float
    score: float


def _round_half_up(x: float) -> int:
    return math.floor(x + 0.5)


_RatedGames = list[tuple[str, float, float]]
"""A player's games of the period against rated opponents: (opponent, score, its rating)."""


@dataclass(frozen=True)
class _Outcome:
    """One player's period: the change row, the state after (None: unchanged), the audit
    rows of a rated player, and an unrated player's results still pooled."""

    change: dict[str, object]
    state: PlayerState | None
    deltas: tuple[dict[str, object], ...] = ()
    pooled: tuple[PendingGame, ...] | None = None


def _initial(
    player_id: str,
    me: PlayerState,
    rated_games: _RatedGames,
    pending: tuple[PendingGame, ...],
    period_start: dt.date,
    p: FideParams,
) -> _Outcome:
    """An unrated player: rule 8.2 over this period's results and the pooled earlier ones."""
    n = len(rated_games)
    score = sum(s for _, s, _ in rated_games)
    window = months_before(period_start, p.pooling_months)
    earlier = [g for g in pending if g.period_start >= window]
    if not earlier and score <= 0:
        # A zero score in the first event is disregarded.
        change = _change(player_id, None, None, n, score, None, None, None, "disregarded")
        return _Outcome(change, None)
    pooled = (*earlier, *(PendingGame(period_start, r, s) for _, s, r in rated_games))
    total = sum(g.score for g in pooled)
    rating = initial_rating([g.opponent_rating for g in pooled], total, p)
    status = "initial" if rating is not None else "not rated"
    change = _change(player_id, None, None, len(pooled), total, None, None, rating, status)
    after = PlayerState(
        rating,
        me.games + (len(pooled) if rating is not None else 0),
        me.birth_year,
        rating is not None and rating >= p.top_from,
    )
    return _Outcome(change, after, pooled=pooled if rating is None else None)


def _rated(
    player_id: str,
    me: PlayerState,
    rated_games: _RatedGames,
    period_start: dt.date,
    p: FideParams,
) -> _Outcome:
    """A rated player: K·Σ(W − We) over the games against rated opponents, rounded."""
    assert me.rating is not None
    n = len(rated_games)
    k = k_factor(me, period_start, n, p)
    total = 0.0
    expected_total = 0.0
    deltas: list[dict[str, object]] = []
    for opp, s, opp_rating in rated_games:
        used = capped_difference(me.rating, opp_rating, p, period_start)
        expected = expected_score(used)
        delta = k * (s - expected)
        total += delta
        expected_total += expected
        deltas.append(
            {
                "player_id": player_id,
                "opponent_id": opp,
                "opponent_rating": float(opp_rating),
                "difference_used": float(used),
                "score": s,
                "expected": expected,
                "k": k,
                "delta": delta,
            }
        )
    change = _round_half_up(total)
    computed = me.rating + change
    after: float | None = computed if computed >= p.floor else None
    status = "rated" if after is not None else "below floor"
    score = sum(s for _, s, _ in rated_games)
    row = _change(player_id, me.rating, k, n, score, expected_total, change, after, status)
    state = PlayerState(
        after,
        me.games + n,
        me.birth_year,
        me.reached_top or (after is not None and after >= p.top_from),
    )
    return _Outcome(row, state, tuple(deltas))


def rate_period(
    players: pl.DataFrame,
    games: pl.DataFrame,
    *,
    period_start: dt.date,
    params: FideParams | None = None,
    pending: Mapping[str, tuple[PendingGame, ...]] | None = None,
) -> FidePeriod:
    """Rate one period's games (every row of ``games``) against the ratings in ``players``.

    ``players`` needs player_id and birth_year; optional rating (Float64, null = unrated),
    games (Int64, rated games completed) and k_reached_2400 (Boolean). Unknown players in
    ``games`` are treated as unrated newcomers. ``pending`` holds unrated players' earlier
    results (from :attr:`FidePeriod.pending`), pooled for the initial rating when they are
    less than ``pooling_months`` old.
    """
    p = params or FideParams()
    validate_players(players)
    validate_games(games)
    state = _states(players)
    sides: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for a, b, score in games.select("player_a", "player_b", "score_a").iter_rows():
        sides[a].append((b, score))
        sides[b].append((a, 1.0 - score))
        state.setdefault(a, PlayerState(None))
        state.setdefault(b, PlayerState(None))

    change_rows: list[dict[str, object]] = []
    delta_rows: list[dict[str, object]] = []
    updated: dict[str, PlayerState] = dict(state)
    # Unrated players who did not play this period keep their pooled results.
    carried: dict[str, tuple[PendingGame, ...]] = {
        pid: results for pid, results in (pending or {}).items() if pid not in sides
    }
    for player_id in sorted(sides):
        me = state[player_id]
        rated_games: _RatedGames = [
            (opp, s, rating)
            for opp, s in sides[player_id]
            if (rating := state[opp].rating) is not None
        ]
        if me.rating is None:
            earlier = (pending or {}).get(player_id, ())
            outcome = _initial(player_id, me, rated_games, earlier, period_start, p)
            if outcome.pooled is not None:
                carried[player_id] = outcome.pooled
        else:
            outcome = _rated(player_id, me, rated_games, period_start, p)
            delta_rows.extend(outcome.deltas)
        change_rows.append(outcome.change)
        if outcome.state is not None:
            updated[player_id] = outcome.state
    return FidePeriod(
        players=_players_after(players, updated),
        changes=pl.DataFrame(change_rows, schema=_CHANGE_SCHEMA),
        game_deltas=pl.DataFrame(delta_rows, schema=_DELTA_SCHEMA),
        pending=carried,
    )


_CHANGE_SCHEMA = {
    "player_id": pl.Utf8,
    "rating_before": pl.Float64,
    "k": pl.Int64,
    "games": pl.Int64,
    "score": pl.Float64,
    "expected": pl.Float64,
    "change": pl.Int64,
    "rating_after": pl.Float64,
    "status": pl.Utf8,
}
_DELTA_SCHEMA = {
    "player_id": pl.Utf8,
    "opponent_id": pl.Utf8,
    "opponent_rating": pl.Float64,
    "difference_used": pl.Float64,
    "score": pl.Float64,
    "expected": pl.Float64,
    "k": pl.Int64,
    "delta": pl.Float64,
}


def _change(
    player_id: str,
    before: float | None,
    k: int | None,
    n: int,
    score: float,
    expected: float | None,
    change: int | None,
    after: float | None,
    status: str,
) -> dict[str, object]:
    return {
        "player_id": player_id,
        "rating_before": before,
        "k": k,
        "games": n,
        "score": score,
        "expected": expected,
        "change": change,
        "rating_after": after,
        "status": status,
    }


def _states(players: pl.DataFrame) -> dict[str, PlayerState]:
    columns = players.columns
    out: dict[str, PlayerState] = {}
    for row in players.iter_rows(named=True):
        out[row["player_id"]] = PlayerState(
            rating=row["rating"] if "rating" in columns else None,
            games=(row["games"] or 0) if "games" in columns else 0,
            birth_year=row["birth_year"],
            reached_top=bool(row["k_reached_2400"]) if "k_reached_2400" in columns else False,
        )
    return out


def _players_after(players: pl.DataFrame, updated: dict[str, PlayerState]) -> pl.DataFrame:
    known = set(players.get_column("player_id").to_list())
    new_ids = sorted(set(updated) - known)
    base = players.select("player_id", "name", "country", "birth_year")
    if new_ids:
        base = pl.concat(
            [
                base,
                pl.DataFrame(
                    {"player_id": new_ids, "name": None, "country": None, "birth_year": None},
                    schema=base.schema,
                ),
            ]
        )
    ids = base.get_column("player_id").to_list()
    return base.with_columns(
        rating=pl.Series([updated[i].rating for i in ids], dtype=pl.Float64),
        games=pl.Series([updated[i].games for i in ids], dtype=pl.Int64),
        k_reached_2400=pl.Series([updated[i].reached_top for i in ids], dtype=pl.Boolean),
    )


def rate_months(
    players: pl.DataFrame, games: pl.DataFrame, params: FideParams | None = None
) -> FidePeriod:
    """Fold :func:`rate_period` over calendar months (FIDE publishes monthly lists).

    Returns the players after the last month; ``changes`` and ``game_deltas`` of every month
    with a ``period_start`` column. A fold from a month before March 2024 to one after it
    applies :func:`march_2024_adjustment` to every rating in between (the March 2024 list).
    """
    validate_games(games)
    changes: list[pl.DataFrame] = []
    deltas: list[pl.DataFrame] = []
    pending: Mapping[str, tuple[PendingGame, ...]] = {}
    months = games.with_columns(period_start=pl.col("date").dt.truncate("1mo"))
    previous: dt.date | None = None
    for (start,), block in months.sort("period_start").group_by(
        ["period_start"], maintain_order=True
    ):
        assert isinstance(start, dt.date)
        if previous is not None and previous < MARCH_2024 <= start and "rating" in players.columns:
            players = players.with_columns(_adjusted(pl.col("rating")).alias("rating"))
        previous = start
        period = rate_period(
            players,
            block.drop("period_start"),
            period_start=start,
            params=params,
            pending=pending,
        )
        players, pending = period.players, period.pending
        changes.append(period.changes.with_columns(period_start=pl.lit(start)))
        deltas.append(period.game_deltas.with_columns(period_start=pl.lit(start)))
    empty = rate_period(players, games.clear(), period_start=dt.date.min, params=params)
    return FidePeriod(
        players=players,
        changes=pl.concat(changes) if changes else empty.changes,
        game_deltas=pl.concat(deltas) if deltas else empty.game_deltas,
        pending=pending,
    )


def fide_list(
    games: pl.DataFrame,
    players: pl.DataFrame,
    as_of: dt.date,
    params: FideParams | None = None,
    activity: ActivityParams | None = None,
) -> pl.DataFrame:
    """The FIDE list as of a date: :func:`rate_months` over the games before ``as_of``
    (unrated players' results pooled over 26 months), listed by
    :func:`ratings.listing.activity_listing`.

    The ratings before a player's first period are the ones in ``players`` (an organiser's
    file states the published FIDE rating); everyone else starts unrated.
    """
    p = params or FideParams()
    before = games.filter(pl.col("date") < as_of)
    state = players.select("player_id", "name", "country", "birth_year", "rating")
    state = rate_months(state, before, p).players
    rated = state.filter(pl.col("rating").is_not_null()).select(
        "player_id", "rating", pl.lit(None, dtype=pl.Float64).alias("margin")
    )
    return activity_listing(
        rated,
        before,
        as_of,
        activity=activity,
        unrated=f"not rated yet (initial rating needs {p.initial_min_games} games against rated "
        "players)",
    )
