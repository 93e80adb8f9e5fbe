"""FIDE's list run: one rating period computed as FIDE computes it, from imported official lists.

:func:`run_fide_list` takes the tournaments FIDE rates on a list (the list dated ``list_date``,
the first day of a month), the official lists imported so far, and arbiter's own history for
players the lists do not carry; it returns the new list and the audit trail FIDE shows on its
calculation pages. The rules, as FIDE's published calculations show them
(``../shared/testdata/chess/fide_ratings/README.md``; ratings.md §3):

1. A tournament is rated whole on one list (the caller chooses which: :func:`rated_on` takes
   those that ended in the month before, a late report is rated later). **Every rating in it,
   the player's and the opponents', comes from the list in force when it started**: the latest
   imported list dated on or before its first day (:func:`list_in_force`).
2. K is the K printed on the previous list, the one this run updates; rule 8.3.3
   (:func:`ratings.fide.k_factor`) gives it only for players that list does not carry or
   prints no K for. With n games in the period and n·K > 700, K = ⌊700/n⌋.
3. The 400-point rule (8.3.1) caps the difference for the player rated below 2650, in a
   period starting on or after 1 October 2025; before that for everyone
   (:class:`ratings.fide.FideParams`).
4. The change is K·Σ(W − We) over the period in exact hundredths (We is a hundredth of table
   8.1b, W a half point: every quantity is an integer number of hundredths), rounded half
   away from zero once per period (8.3.4: −2.50 → −3).
5. A run from a list dated before 1 March 2024 to one dated on or after it applies the
   one-time adjustment :func:`march_2024_adjustment`; first ratings follow the rule in force
   since then (8.2: two hypothetical 1800 opponents, both drawn; at most 2200).
6. Without any imported list every rating comes from arbiter's own history (``players``):
   :func:`history_list` folds the months from the first tournament. **Once a list is
   imported, a player on no list of the run is unrated** (7.1.4, 8.2) whatever rating arbiter
   holds for him (a rating typed at registration orders the pairing, nothing else); his games
   against rated players are not rated for them (8.3.1: "for each game played against a rated
   player").

Readings where the text or the reference data leave room (each documented where it is used):

* A player unrated on the list in force at a tournament's start but rated on the previous list
  is rated with that rating, and counts as unrated for the opponents (8.2.4).
* One K per player and period, the previous list's: the 700 cap is a rule of the period, and
  the K a tournament shows is "the current value of K for the player" (7.1.2). On every
  published case the list in force at a tournament's start prints the same K.
* The previous list's ratings are the base of the new ones; FIDE sometimes corrects a starting
  rating by hand (F-P04), which no run from the lists can reproduce.
* FIDE rounded one published period per tournament (F-P02, +5.40 listed as +6) against 13 of
  14 discriminating periods rounded once (the upstream record of the reference data); the run
  rounds once, as 8.3.4 is written.
* The March 2024 adjustment applies to the ratings of players rated on the previous list
  after the period's change; first ratings of that run are not adjusted (not verifiable from
  the reference data).
* The printed K is carried to the new list, and becomes 10 when the new rating reaches 2400;
  a K of 40 that ends (30 games, the end of a junior's year) needs a games count the lists do
  not carry and stays as printed until the next imported list.
* The inactivity flag (``i`` in ``i``/``wi``) is cleared for a player with a rated game; turning
  inactive needs a year of history the lists do not carry, so the previous flag is kept.
* ``Rp`` is FIDE's printed performance: for a rated player Rc + dp(p) (table 8.1a; FIDE's
  print for a rated player is not in the reference data); for an unrated one FIDE prints the
  archived 2022-24 rule (Rc + 20 for every half point above 50 %, else Rc + dp(p)), which
  F-N01 (1921) and FIDE's online initial-rating calculator show.
"""

from __future__ import annotations

import datetime as dt
import math
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

import polars as pl

from ratings.fide import MARCH_2024, FideParams, PendingGame, PlayerState, k_factor
from ratings.fide_tables import dp_for_percent, expected_percent
from ratings.games import SchemaError, months_before, validate_games, validate_players
from ratings.listing import ActivityParams, activity_listing

__all__ = [
    "CHANGE_SCHEMA",
    "FIDE_ID_PREFIX",
    "GAME_AUDIT_SCHEMA",
    "HUNDREDTHS",
    "LIST_SCHEMA",
    "MARCH_2024",
    "TOURNAMENT_AUDIT_SCHEMA",
    "FideListRun",
    "HistoryRun",
    "history_list",
    "history_runs",
    "initial_rating_exact",
    "list_in_force",
    "lists_needed",
    "march_2024_adjustment",
    "official_list",
    "rated_on",
    "run_fide_list",
    "run_fide_lists",
    "tournament_changes",
    "tournament_days",
]

FIDE_ID_PREFIX = "fide:"
"""A list's FIDE id ``2016192`` is the games table's ``fide:2016192``."""

HUNDREDTHS = pl.Decimal(18, 2)
"""Scores, expectations and changes: exact decimal hundredths, as FIDE prints them."""

LIST_SCHEMA: Mapping[str, pl.DataType] = {
    "player_id": pl.Utf8(),
    "rating": pl.Int64(),
    "k": pl.Int64(),
    "games": pl.Int64(),
    "birth_year": pl.Int64(),
    "sex": pl.Utf8(),
    "flag": pl.Utf8(),
}
"""An official list, imported or computed: one row per player. ``player_id`` is the FIDE id
(digits, read as ``fide:<digits>``, see :func:`official_list`) and never null; ``rating``
null: unrated; ``k`` null: not printed; ``games``: rated in the period; ``flag`` as FIDE prints
it (``i`` inactive, ``w`` woman, ``wi``). Everything but the id may be null."""

TOURNAMENT_AUDIT_SCHEMA: Mapping[str, pl.DataType] = {
    "player_id": pl.Utf8(),
    "event": pl.Utf8(),
    "event_start": pl.Date(),
    "event_end": pl.Date(),
    "list_date": pl.Date(),
    "rated": pl.Boolean(),
    "Ro": pl.Int64(),
    "Rc": pl.Int64(),
    "w": HUNDREDTHS,
    "n": pl.Int64(),
    "chg": HUNDREDTHS,
    "K": pl.Int64(),
    "K_chg": HUNDREDTHS,
    "Rp": pl.Int64(),
}
"""Per player and tournament, FIDE's calculation page: the list the tournament used
(``list_date``, null without imported lists), whether the player was rated in it, the
starting rating ``Ro``, the average of the opponents' ratings used ``Rc`` (rounded half up),
score ``w`` of ``n`` games against rated opponents, ``chg`` = Σ(W − We), ``K``,
``K_chg`` = K·chg, and the performance ``Rp``. An unrated player's rows have no Ro, chg, K,
K_chg."""

GAME_AUDIT_SCHEMA: Mapping[str, pl.DataType] = {
    "player_id": pl.Utf8(),
    "event": pl.Utf8(),
    "game_index": pl.Int64(),
    "opponent_id": pl.Utf8(),
    "colour": pl.Utf8(),
    "Ro": pl.Int64(),
    "opponent_rating": pl.Int64(),
    "opponent_rating_used": pl.Int64(),
    "capped": pl.Boolean(),
    "score": HUNDREDTHS,
    "We": HUNDREDTHS,
    "chg": HUNDREDTHS,
    "K": pl.Int64(),
    "K_chg": HUNDREDTHS,
}
"""Per player and game against a rated opponent (``game_index``: the row of the games
table): the opponent's rating on the list the tournament used, the one used after the
400-point rule (``capped``: they differ), W, We, ``chg`` = W − We, K and K·chg."""

CHANGE_SCHEMA: Mapping[str, pl.DataType] = {
    "player_id": pl.Utf8(),
    "status": pl.Utf8(),
    "rating_before": pl.Int64(),
    "games": pl.Int64(),
    "K": pl.Int64(),
    "K_chg": HUNDREDTHS,
    "change": pl.Int64(),
    "change_by_tournament": pl.Int64(),
    "rating_after": pl.Int64(),
}
"""Per player who played in the period: the previous list's rating (or arbiter's own),
``status`` (rated / below floor / initial / not rated / disregarded), the games that counted,
K, Σ K·chg, the change rounded once (the one applied), the sum of each tournament's rounded
K·chg (the alternative FIDE's list followed once, F-P02: shown for validation, never applied),
and the rating on the new list (null: unrated)."""

_STATUS_RATED = "rated"
_STATUS_BELOW_FLOOR = "below floor"
_STATUS_INITIAL = "initial"
_STATUS_NOT_RATED = "not rated"
_STATUS_DISREGARDED = "disregarded"

_MAX_TABLE_DIFFERENCE = 736
"""Table 8.1b: every difference above 735 has the same expectation."""

_EXPECTED_BY_DIFFERENCE = pl.Series(
    "expected", [expected_percent(d) for d in range(_MAX_TABLE_DIFFERENCE + 1)], pl.Int64
)
"""Table 8.1b in hundredths, indexed by |D| (the higher-rated side's expectation)."""

_DP_BY_PERCENT = pl.Series("dp", [dp_for_percent(p) for p in range(101)], pl.Int64)
"""Table 8.1a: dp by score percentage 0..100."""

_DIGITS = r"^\d+$"


# ------------------------------------------------------------------------------------ inputs


def official_list(
    frame: pl.DataFrame, *, frame_name: str = "list", prefix: str = FIDE_ID_PREFIX
) -> pl.DataFrame:
    """An official list checked and shaped to :data:`LIST_SCHEMA`; return the new frame.

    ``player_id`` and ``rating`` are required, the other columns are added as nulls when
    absent. An id of digits only (as FIDE's files print it) becomes ``prefix`` + id, the id
    of the player in the games table; an id that already has a scheme is kept.

    >>> official_list(pl.DataFrame({"player_id": ["2016192"], "rating": [2813]})).row(0)
    ('fide:2016192', 2813, None, None, None, None, None)

    :raises SchemaError: a missing or mistyped column, a null or duplicate id, a rating or K
        that is not positive.
    """
    return _shaped_list(frame, frame_name, prefix)


def _shaped_list(
    frame: pl.DataFrame, frame_name: str, prefix: str, rows: pl.Series | None = None
) -> pl.DataFrame:
    """:func:`official_list` of ``frame``, whose rows are the rows ``rows`` of the list named
    in messages (None: the whole list)."""
    for column in ("player_id", "rating"):
        if column not in frame.columns:
            raise SchemaError(
                f"{frame_name}:{column}: column missing; expected {LIST_SCHEMA[column]} "
                f"(found columns {', '.join(frame.columns)})"
            )
    for column, dtype in LIST_SCHEMA.items():
        found = frame.schema.get(column)
        if found is not None and found not in (dtype, pl.Null):
            raise SchemaError(f"{frame_name}:{column}: found dtype {found}, expected {dtype}")
    shaped = frame.select(
        [
            (pl.col(c) if c in frame.columns else pl.lit(None)).cast(dtype).alias(c)
            for c, dtype in LIST_SCHEMA.items()
        ]
    ).with_columns(
        pl.when(pl.col("player_id").str.contains(_DIGITS))
        .then(pl.lit(prefix) + pl.col("player_id"))
        .otherwise(pl.col("player_id"))
        .alias("player_id")
    )
    ids = shaped.get_column("player_id")
    # A duplicate is looked for row by row only when there is one (the count is 3x faster).
    duplicate = (
        ~pl.col("player_id").is_first_distinct()
        if ids.n_unique() + max(ids.null_count() - 1, 0) != shaped.height
        else pl.lit(value=False)
    )
    checks = (
        ("player_id", pl.col("player_id").is_null(), "an id"),
        ("player_id", duplicate, "unique ids"),
        ("rating", pl.col("rating") <= 0, "a positive rating or null"),
        ("k", pl.col("k") <= 0, "a positive K or null"),
    )
    flags = shaped.select(
        [e.fill_null(value=False).alias(str(i)) for i, (_, e, _) in enumerate(checks)]
    )
    for i, (column, _, expected) in enumerate(checks):
        mask = flags.get_column(str(i))
        if mask.any():
            row = int(mask.arg_max() or 0)
            found = frame.get_column(column)[row]
            where = row if rows is None else int(rows[row])
            raise SchemaError(
                f"{frame_name}:{column}:row {where}: found {found!r}, expected {expected}"
            )
    return shaped


def _players_of(frame: pl.DataFrame, ids: pl.Series, frame_name: str) -> pl.DataFrame:
    """The rows of an imported list about ``ids`` (games-table ids), checked and shaped as
    :func:`official_list` does (a list the run only reads a few players of is checked there)."""
    if frame.schema.get("player_id") != pl.Utf8:
        return _shaped_list(frame, frame_name, FIDE_ID_PREFIX)  # it says what is wrong
    keys = pl.concat([ids, ids.str.strip_prefix(FIDE_ID_PREFIX)]).unique().implode()
    indexed = frame.with_row_index("_row").filter(pl.col("player_id").is_in(keys))
    return _shaped_list(
        indexed.drop("_row"), frame_name, FIDE_ID_PREFIX, indexed.get_column("_row")
    )


def list_in_force(list_dates: Sequence[dt.date], day: dt.date) -> dt.date | None:
    """The latest of ``list_dates`` on or before ``day`` (None: every list is later).

    >>> dates = [dt.date(2025, 10, 1), dt.date(2025, 11, 1)]
    >>> list_in_force(dates, dt.date(2025, 10, 31)), list_in_force(dates, dt.date(2025, 11, 1))
    (datetime.date(2025, 10, 1), datetime.date(2025, 11, 1))
    """
    ordered = sorted(list_dates)
    i = bisect_right(ordered, day)
    return ordered[i - 1] if i else None


def _event_days(games: pl.DataFrame) -> pl.DataFrame:
    """event → event_start, event_end: the stated days, else the first and last game's date."""
    start = pl.col("event_start").min() if "event_start" in games.columns else pl.lit(None)
    end = pl.col("event_end").max() if "event_end" in games.columns else pl.lit(None)
    return (
        games.group_by("event")
        .agg(
            pl.coalesce(start.cast(pl.Date), pl.col("date").min()).alias("event_start"),
            pl.coalesce(end.cast(pl.Date), pl.col("date").max()).alias("event_end"),
        )
        .sort("event")
    )


def tournament_days(games: pl.DataFrame) -> pl.DataFrame:
    """event, event_start, event_end of every tournament of ``games``, sorted by event: the
    days it states, else its first and last game's."""
    return _event_days(games)


def rated_on(games: pl.DataFrame, list_date: dt.date, late: Collection[str] = ()) -> pl.DataFrame:
    """The games of the tournaments that ended in the month before ``list_date``: those FIDE
    rates on that list when they are reported in time; and those of the events ``late``, which
    ended earlier and were reported late (F-P05's first tournament, which ended in August
    2026 and was rated on the October list)."""
    days = _event_days(games)
    start = months_before(list_date, 1)
    ended = (pl.col("event_end") >= start) & (pl.col("event_end") < list_date)
    chosen = days.filter(ended | pl.col("event").is_in(list(late)))
    return games.filter(pl.col("event").is_in(chosen.get_column("event").implode()))


def lists_needed(
    games: pl.DataFrame,
    list_dates: Sequence[dt.date],
    *,
    first: dt.date,
    last: dt.date,
    late: Collection[str] = (),
) -> set[dt.date]:
    """The imported lists (of ``list_dates``) that :func:`run_fide_lists` over the same
    arguments reads whole or in part: the one before ``first`` (the list the run updates) and
    the one in force at the start of every tournament it rates. The others are only dates to
    it (a caller may load just these)."""
    dates = sorted(d for d in list_dates if d < first)
    needed = {dates[-1]} if dates else set()
    days = _event_days(games)
    ended = (pl.col("event_end") >= months_before(first, 1)) & (pl.col("event_end") < last)
    starts = days.filter(ended | pl.col("event").is_in(list(late))).get_column("event_start")
    for start in starts:
        found = list_in_force(dates, start)
        if found is not None:
            needed.add(found)
    return needed


# ----------------------------------------------------------------------------------- exact


def _round_half_up(x: Fraction) -> int:
    return math.floor(x + Fraction(1, 2))


def _round_half_up_expr(numerator: pl.Expr, denominator: pl.Expr) -> pl.Expr:
    """⌊numerator/denominator + ½⌋ in integers (denominator > 0)."""
    return (2 * numerator + denominator) // (2 * denominator)


def _round_half_away_hundredths(hundredths: pl.Expr) -> pl.Expr:
    """A change in hundredths rounded to a whole number, 0.5 away from zero (8.3.4)."""
    return (
        pl.when(hundredths < 0)
        .then(-((-hundredths + 50) // 100))
        .otherwise((hundredths + 50) // 100)
    )


_ONE_HUNDREDTH = pl.lit(Decimal("0.01"), dtype=HUNDREDTHS)


def _hundredths(column: pl.Expr) -> pl.Expr:
    """An integer number of hundredths as an exact decimal (integer times 0.01, no float)."""
    return column.cast(pl.Decimal(38, 0)) * _ONE_HUNDREDTH


def _percent(numerator: int, denominator: int) -> int:
    """A fraction as a percentage rounded half up (.005 up)."""
    return _round_half_up(Fraction(100 * numerator, denominator))


def initial_rating_exact(
    opponent_ratings: Sequence[int], halves: int, p: FideParams | None = None
) -> int | None:
    """Rule 8.2 in exact arithmetic: a first rating from games against rated opponents.

    ``halves``: the score in half points. Two hypothetical opponents rated 1800, both drawn,
    join the average and the score; p is rounded to hundredths half up, Ru half up, then
    limited to 2200; None below five games, for a zero score or a result below the floor.
    F-N01 (FIDE's list of December 2025): 3 of 5 against 9507 in all.

    >>> initial_rating_exact([1902, 1877, 1884, 2012, 1832], 6)
    1922
    """
    p = p or FideParams()
    n = len(opponent_ratings)
    if n < p.initial_min_games or halves <= 0:
        return None
    h = p.hypothetical_opponents
    average = Fraction(sum(opponent_ratings) + h * p.hypothetical_rating, n + h)
    percent = _percent(halves + h, 2 * (n + h))
    rating = min(p.initial_max, _round_half_up(average + dp_for_percent(percent)))
    return rating if rating >= p.floor else None


# ----------------------------------------------------------------------------------- output


@dataclass(frozen=True)
class FideListRun:
    """The outcome of one list run."""

    list_date: dt.date
    previous_date: dt.date | None
    """The imported list the run updated (None: arbiter's own history only)."""
    new_list: pl.DataFrame
    """:data:`LIST_SCHEMA`, sorted by id: every player of the previous list and everyone who
    played; ``games`` the rated games of the period."""
    changes: pl.DataFrame
    """:data:`CHANGE_SCHEMA`, one row per player who played, sorted by id."""
    tournaments: pl.DataFrame
    """:data:`TOURNAMENT_AUDIT_SCHEMA`, sorted by player, tournament start, event."""
    games: pl.DataFrame
    """:data:`GAME_AUDIT_SCHEMA`, sorted by player, tournament start, event, game."""
    pending: Mapping[str, tuple[PendingGame, ...]] = field(default_factory=dict)
    """Unrated players' results still waiting for enough games (pass to the next run)."""


# -------------------------------------------------------------------------------------- run


def _checked_list_date(list_date: dt.date) -> None:
    if list_date.day != 1:
        raise SchemaError(f"list_date: found {list_date}, expected the first day of a month")


def _events(games: pl.DataFrame, list_date: dt.date, list_dates: Sequence[dt.date]) -> pl.DataFrame:
    """event, event_start, event_end, list_date (the list in force at the start)."""
    days = _event_days(games)
    late = days.filter(pl.col("event_end") >= list_date)
    if late.height:
        event, _, end = late.row(0)
        raise SchemaError(
            f"games:event_end: tournament {event!r} ends on {end}, expected a day before "
            f"the list of {list_date} it is rated on"
        )
    in_force = [list_in_force(list_dates, start) for start in days.get_column("event_start")]
    if list_dates and None in in_force:
        event, start, _ = days.row(in_force.index(None))
        raise SchemaError(
            f"lists: tournament {event!r} starts on {start}, before the earliest imported list "
            f"({min(list_dates)}); expected the list in force on that day "
            f"({months_before(start, 0)})"
        )
    return days.with_columns(pl.Series("list_date", in_force, pl.Date))


def _sides(games: pl.DataFrame) -> pl.DataFrame:
    """Each game twice, once from each player: game_index, event, player, opponent, halves,
    colour."""
    indexed = games.with_row_index("game_index").with_columns(pl.col("game_index").cast(pl.Int64))
    flipped = pl.col("color_a").replace_strict(
        {"white": "black", "black": "white"}, default=None, return_dtype=pl.Utf8
    )
    return pl.concat(
        [
            indexed.select(
                "game_index",
                "event",
                pl.col("player_a").alias("player"),
                pl.col("player_b").alias("opponent"),
                (pl.col("score_a") * 2).round(0).cast(pl.Int64).alias("halves"),
                pl.col("color_a").alias("colour"),
            ),
            indexed.select(
                "game_index",
                "event",
                pl.col("player_b").alias("player"),
                pl.col("player_a").alias("opponent"),
                (2 - (pl.col("score_a") * 2).round(0).cast(pl.Int64)).alias("halves"),
                flipped.alias("colour"),
            ),
        ]
    )


def _history(players: pl.DataFrame | None, *, ratings: bool) -> pl.DataFrame:
    """Arbiter's own state of players the lists may not carry: hist_rating (rounded half up;
    a rating of 0 or less is no rating; null for everyone unless ``ratings``: once a list is
    imported, a player it does not carry is unrated), hist_games, hist_birth_year, hist_top."""
    schema = {
        "player_id": pl.Utf8,
        "hist_rating": pl.Int64,
        "hist_games": pl.Int64,
        "hist_birth_year": pl.Int64,
        "hist_top": pl.Boolean,
    }
    if players is None:
        return pl.DataFrame(schema=schema)
    validate_players(players)
    cols = players.columns
    rating = (
        pl.when(pl.col("rating") > 0).then((pl.col("rating") + 0.5).floor())
        if ratings and "rating" in cols
        else pl.lit(None)
    )
    return players.select(
        "player_id",
        rating.cast(pl.Int64).alias("hist_rating"),
        (pl.col("games") if "games" in cols else pl.lit(0))
        .fill_null(0)
        .cast(pl.Int64)
        .alias("hist_games"),
        pl.col("birth_year").alias("hist_birth_year"),
        (pl.col("k_reached_2400") if "k_reached_2400" in cols else pl.lit(value=False))
        .fill_null(value=False)
        .cast(pl.Boolean)
        .alias("hist_top"),
    )


def _states(
    sides: pl.DataFrame,
    official: Mapping[dt.date, pl.DataFrame],
    base: pl.DataFrame,
    history: pl.DataFrame,
) -> pl.DataFrame:
    """Per (list_date, player) of the period: ``own`` (the player's Ro) and ``seen`` (the
    rating the opponents use), then the player's previous-list values.

    rating_before: the previous list's rating; for a player it does not carry, arbiter's
    history (without imported lists only), else his rating on the list in force. own: null
    when rating_before is (a player the previous list shows unrated is unrated, 7.2.1); else
    his rating on the list in force, or rating_before when that list does not rate him (8.2.4).
    seen: the rating on the list in force if it carries the player; a player
    no list carries is seen with arbiter's rating (null once a list is imported: unrated); a
    player the previous list carries but the list in force does not is unrated to the
    opponents (8.2.4).
    """
    keys = sides.select("list_date", "player").unique()
    ids = keys.select(pl.col("player").alias("player_id")).unique()
    carried = [
        official[d]
        .join(ids, on="player_id", how="semi")
        .select(
            pl.lit(d, dtype=pl.Date).alias("list_date"),
            pl.col("player_id").alias("player"),
            pl.col("rating").alias("event_rating"),
            pl.lit(value=True).alias("on_event_list"),
        )
        for d in keys.get_column("list_date").drop_nulls().unique().sort()
    ]
    on_list = (
        pl.concat(carried)
        if carried
        else pl.DataFrame(
            schema={
                "list_date": pl.Date,
                "player": pl.Utf8,
                "event_rating": pl.Int64,
                "on_event_list": pl.Boolean,
            }
        )
    )
    previous = base.join(ids, on="player_id", how="semi").select(
        pl.col("player_id").alias("player"),
        pl.col("rating").alias("base_rating"),
        pl.col("k").alias("base_k"),
        pl.col("birth_year").alias("base_birth_year"),
        pl.lit(value=True).alias("on_base"),
    )
    mine = history.rename({"player_id": "player"})
    states = (
        keys.join(on_list, on=["list_date", "player"], how="left", nulls_equal=True)
        .join(previous, on="player", how="left")
        .join(mine, on="player", how="left")
        .with_columns(
            pl.col("on_event_list").fill_null(value=False),
            pl.col("on_base").fill_null(value=False),
        )
        .with_columns(
            pl.when(pl.col("on_base"))
            .then(pl.col("base_rating"))
            .otherwise(pl.coalesce("hist_rating", "event_rating"))
            .alias("rating_before")
        )
    )
    return states.with_columns(
        pl.when(pl.col("rating_before").is_not_null())
        .then(pl.coalesce("event_rating", "rating_before"))
        .alias("own"),
        pl.when(pl.col("on_event_list"))
        .then(pl.col("event_rating"))
        .when(~pl.col("on_base"))
        .then(pl.col("hist_rating"))
        .alias("seen"),
    )


def _period_k(players: pl.DataFrame, period_start: dt.date, p: FideParams) -> pl.DataFrame:
    """player, K for the period (printed K, or rule 8.3.3; then the 700 cap) and K_next (the K
    the new list prints for a rated player). Rule 8.3.3 takes a player an imported list rates
    without printing his K as having completed the 30 games of a new player (his rating is
    published); anyone else has the games of arbiter's history."""
    printed = players.filter(pl.col("base_k").is_not_null())
    computed = players.filter(pl.col("base_k").is_null())
    rows: list[tuple[str, int]] = []
    for player, rating, games, birth, top, listed in computed.select(
        "player", "rating_before", "hist_games", "birth_year", "hist_top", "listed"
    ).iter_rows():
        completed = max(games or 0, p.new_player_games) if listed else games or 0
        state = PlayerState(rating, completed, birth, bool(top))
        rows.append((player, k_factor(state, period_start, 0, p)))
    uncapped = pl.concat(
        [
            printed.select("player", pl.col("base_k").alias("K_printed")),
            pl.DataFrame(rows, schema={"player": pl.Utf8, "K_printed": pl.Int64}, orient="row"),
        ]
    )
    n = pl.col("n")
    return (
        players.select("player", "n")
        .join(uncapped, on="player", how="left")
        .select(
            "player",
            pl.when((n > 0) & (pl.col("K_printed") * n > p.k_games_cap))
            .then(p.k_games_cap // n)
            .otherwise(pl.col("K_printed"))
            .alias("K"),
            pl.col("K_printed"),
        )
    )


def run_fide_list(
    games: pl.DataFrame,
    lists: Mapping[dt.date, pl.DataFrame],
    *,
    list_date: dt.date,
    players: pl.DataFrame | None = None,
    pending: Mapping[str, tuple[PendingGame, ...]] | None = None,
    params: FideParams | None = None,
) -> FideListRun:
    """The FIDE list of ``list_date`` as FIDE computes it (module docstring, rules 1-6).

    :param games: the games table (:mod:`ratings.games`) of the tournaments rated on this list,
        every row rated (:func:`rated_on` chooses them by end date); ``event`` names the
        tournament, ``event_start``/``event_end`` give its days (else its games' dates). Every
        tournament must end before ``list_date``.
    :param lists: the official lists imported, by date (:data:`LIST_SCHEMA`, checked by
        :func:`official_list`); those dated on or after ``list_date`` are ignored. The latest
        is the previous list, the one updated; each tournament reads the list in force at its
        start, which must be imported when any list is.
    :param list_date: the first day of the month of the new list; its rating period starts a
        month before (the 400-point rule's 1 October 2025 boundary compares that day).
    :param players: arbiter's own players table (:func:`ratings.games.validate_players`, with
        the optional ``rating``, ``games``, ``k_reached_2400``) for players no list carries.
    :param pending: unrated players' earlier results (:attr:`FideListRun.pending`), pooled
        over ``pooling_months`` for a first rating.
    :raises SchemaError: a malformed games table or list, a tournament ending on or after
        ``list_date``, or one starting before every imported list.
    """
    p = params or FideParams()
    _checked_list_date(list_date)
    validate_games(games)
    imported = {d: frame for d, frame in lists.items() if d < list_date}
    dates = sorted(imported)
    previous_date = dates[-1] if dates else None
    base = (
        official_list(imported[previous_date], frame_name=f"list {previous_date}")
        if previous_date is not None
        else pl.DataFrame(schema=dict(LIST_SCHEMA))
    )
    period_start = months_before(list_date, 1)
    crosses = (previous_date or period_start) < MARCH_2024 <= list_date
    events = _events(games, list_date, dates)
    sides = _sides(games).join(events, on="event", how="left")
    ids = sides.get_column("player").unique()
    base_played = base.filter(pl.col("player_id").is_in(ids.implode()))
    official = {
        d: base_played if d == previous_date else _players_of(imported[d], ids, f"list {d}")
        for d in events.get_column("list_date").drop_nulls().unique()
    }
    states = _states(sides, official, base_played, _history(players, ratings=not dates))
    sides = sides.join(
        states.select("list_date", "player", "own"),
        on=["list_date", "player"],
        how="left",
        nulls_equal=True,
    ).join(
        states.select(
            "list_date",
            pl.col("player").alias("opponent"),
            pl.col("seen").alias("opponent_rating"),
        ),
        on=["list_date", "opponent"],
        how="left",
        nulls_equal=True,
    )
    per_player = states.group_by("player").agg(
        pl.col("rating_before").first(),
        pl.col("base_k").first(),
        pl.coalesce("base_birth_year", "hist_birth_year").first().alias("birth_year"),
        pl.col("hist_games").first(),
        pl.col("hist_top").first(),
        (pl.col("on_base") | pl.col("event_rating").is_not_null()).any().alias("listed"),
    )
    counted = sides.filter(pl.col("opponent_rating").is_not_null())

    # Rated players: K·Σ(W − We) in hundredths, rounded once.
    rated_sides = counted.filter(pl.col("own").is_not_null())
    n_rated = rated_sides.group_by("player").len("n").cast({"n": pl.Int64})
    rated_players = (
        per_player.filter(pl.col("rating_before").is_not_null())
        .join(n_rated, on="player", how="left")
        .with_columns(pl.col("n").fill_null(0))
    )
    k = _period_k(rated_players, period_start, p)
    game_rows = _rated_games(rated_sides.join(k, on="player", how="left"), period_start, p)
    by_tournament = game_rows.group_by("player", "event").agg(pl.col("K_chg_h").sum())
    totals = by_tournament.group_by("player").agg(
        pl.col("K_chg_h").sum(),
        _round_half_away_hundredths(pl.col("K_chg_h")).sum().alias("change_by_tournament"),
    )
    computed = pl.col("rating_before") + pl.col("change")
    if crosses:
        computed = march_2024_adjustment(computed)
    rated = (
        rated_players.join(k, on="player", how="left")
        .join(totals, on="player", how="left")
        .with_columns(pl.col("K_chg_h", "change_by_tournament").fill_null(0))
        .with_columns(_round_half_away_hundredths(pl.col("K_chg_h")).alias("change"))
        .with_columns(computed.alias("computed"))
        .with_columns(
            pl.when(pl.col("computed") >= p.floor).then(pl.col("computed")).alias("rating_after"),
            pl.when(pl.col("computed") >= p.floor)
            .then(pl.lit(_STATUS_RATED))
            .otherwise(pl.lit(_STATUS_BELOW_FLOOR))
            .alias("status"),
        )
    )

    # Unrated players: rule 8.2 over this period's results and the pooled earlier ones.
    unrated_games = counted.filter(pl.col("own").is_null()).with_columns(
        pl.col("opponent_rating").alias("opponent_rating_used"),
        pl.lit(value=False).alias("capped"),
    )
    initial, carried = _initials(unrated_games, per_player, pending or {}, period_start, p)

    changes = _changes(rated, initial)
    played = set(changes.get_column("player_id").to_list())
    still_pending = {pid: g for pid, g in (pending or {}).items() if pid not in played}
    return FideListRun(
        list_date=list_date,
        previous_date=previous_date,
        new_list=_new_list(base, changes, per_player, rated, initial, crosses=crosses, p=p),
        changes=changes,
        tournaments=_tournament_audit(game_rows, unrated_games, events),
        games=_game_audit(game_rows, unrated_games),
        pending={**still_pending, **carried},
    )


def _rated_games(sides: pl.DataFrame, period_start: dt.date, p: FideParams) -> pl.DataFrame:
    """Rated players' games against rated opponents: the 400-point rule, table 8.1b, and the
    change in hundredths."""
    difference = pl.col("own") - pl.col("opponent_rating")
    cap = p.difference_cap
    exempt = (
        pl.col("own") >= p.uncapped_from
        if p.uncapped_from is not None and period_start >= p.uncapped_since
        else pl.lit(value=False)
    )
    used = pl.when(exempt).then(difference).otherwise(difference.clip(-cap, cap))
    table = pl.lit(_EXPECTED_BY_DIFFERENCE).gather(
        pl.col("difference_used").abs().clip(0, _MAX_TABLE_DIFFERENCE)
    )
    return (
        sides.with_columns(used.alias("difference_used"))
        .with_columns(
            (pl.col("own") - pl.col("difference_used")).alias("opponent_rating_used"),
            (pl.col("difference_used") != difference).alias("capped"),
            pl.when(pl.col("difference_used") >= 0)
            .then(table)
            .otherwise(100 - table)
            .alias("We_h"),
        )
        .with_columns((50 * pl.col("halves") - pl.col("We_h")).alias("chg_h"))
        .with_columns((pl.col("K") * pl.col("chg_h")).alias("K_chg_h"))
    )


def _performance(total: pl.Expr, n: pl.Expr, halves: pl.Expr, *, archived_initial: bool) -> pl.Expr:
    """Rp: Rc + dp(p) (p to hundredths half up), or for ``archived_initial`` FIDE's print for
    an unrated player, Rc + 20 for each half point above 50 % (the 2022-24 rule)."""
    percent = _round_half_up_expr(100 * halves, 2 * n)
    dp = pl.lit(_DP_BY_PERCENT).gather(percent.clip(0, 100))
    add = pl.when(halves >= n).then(20 * (halves - n)).otherwise(dp) if archived_initial else dp
    return _round_half_up_expr(total + n * add, n)


def _tournament_rows(games: pl.DataFrame, *, rated: bool) -> pl.DataFrame:
    total = pl.col("used_sum")
    n = pl.col("n")
    halves = pl.col("halves_sum")
    none = pl.lit(None, dtype=pl.Int64)
    grouped = games.group_by("player", "event").agg(
        (pl.col("own").first() if rated else none).alias("Ro"),
        pl.col("opponent_rating_used").sum().alias("used_sum"),
        pl.len().cast(pl.Int64).alias("n"),
        pl.col("halves").sum().alias("halves_sum"),
        (pl.col("chg_h").sum() if rated else none).alias("chg_h"),
        (pl.col("K").first() if rated else none).alias("K"),
    )
    return grouped.select(
        "player",
        "event",
        pl.lit(value=rated).alias("rated"),
        "Ro",
        _round_half_up_expr(total, n).alias("Rc"),
        _hundredths(50 * halves).alias("w"),
        "n",
        _hundredths(pl.col("chg_h")).alias("chg"),
        "K",
        _hundredths(pl.col("K") * pl.col("chg_h")).alias("K_chg"),
        _performance(total, n, halves, archived_initial=not rated).alias("Rp"),
    )


def _tournament_audit(
    rated: pl.DataFrame, unrated: pl.DataFrame, events: pl.DataFrame
) -> pl.DataFrame:
    return (
        pl.concat([_tournament_rows(rated, rated=True), _tournament_rows(unrated, rated=False)])
        .join(events, on="event", how="left")
        .rename({"player": "player_id"})
        .sort("player_id", "event_start", "event")
        .select(list(TOURNAMENT_AUDIT_SCHEMA))
        .cast(pl.Schema(TOURNAMENT_AUDIT_SCHEMA))
    )


def _game_audit(rated: pl.DataFrame, unrated: pl.DataFrame) -> pl.DataFrame:
    # Lazy: only the page's columns are stacked and sorted (the games' own are left out).
    return (
        pl.concat([rated.lazy(), unrated.lazy()], how="diagonal_relaxed")
        .rename({"player": "player_id", "opponent": "opponent_id", "own": "Ro"})
        .with_columns(
            _hundredths(50 * pl.col("halves")).alias("score"),
            _hundredths(pl.col("We_h")).alias("We"),
            _hundredths(pl.col("chg_h")).alias("chg"),
            _hundredths(pl.col("K_chg_h")).alias("K_chg"),
        )
        .sort("player_id", "event_start", "event", "game_index")
        .select(list(GAME_AUDIT_SCHEMA))
        .cast(pl.Schema(GAME_AUDIT_SCHEMA))
        .collect()
    )


def _initials(
    games: pl.DataFrame,
    per_player: pl.DataFrame,
    pending: Mapping[str, tuple[PendingGame, ...]],
    period_start: dt.date,
    p: FideParams,
) -> tuple[pl.DataFrame, dict[str, tuple[PendingGame, ...]]]:
    """Unrated players who played (rule 8.2): their change rows (status, games of the period
    that count, first rating, the K the new list prints) and the results still pooled."""
    unrated = per_player.filter(pl.col("rating_before").is_null())
    window = months_before(period_start, p.pooling_months)
    by_event = (
        games.group_by("player", "event", "event_end", "event_start")
        .agg(pl.col("opponent_rating"), pl.col("halves"))
        .sort("player", "event_end", "event_start", "event")
    )
    results: dict[str, list[tuple[list[int], list[int]]]] = defaultdict(list)
    for player, _, _, _, ratings, halves in by_event.iter_rows():
        results[player].append((list(ratings), list(halves)))
    rows: list[tuple[str, str, int, int | None, int | None]] = []
    carried: dict[str, tuple[PendingGame, ...]] = {}
    for player, games_before, birth_year in (
        unrated.select("player", "hist_games", "birth_year").sort("player").iter_rows()
    ):
        earlier = tuple(g for g in pending.get(player, ()) if g.period_start >= window)
        events = results.get(player, [])
        if not earlier and events and sum(events[0][1]) == 0:
            # A zero score in the player's first event is disregarded (8.2.1).
            events = events[1:]
            if not events:
                rows.append((player, _STATUS_DISREGARDED, 0, None, None))
                continue
        new = tuple(
            PendingGame(period_start, r, h)
            for ratings, halves in events
            for r, h in zip(ratings, halves, strict=True)
        )
        pooled = (*earlier, *new)
        rating = initial_rating_exact(
            [g.opponent_rating for g in pooled], sum(g.halves for g in pooled), p
        )
        if rating is None:
            if pooled:
                carried[player] = pooled
            rows.append((player, _STATUS_NOT_RATED, len(new), None, None))
            continue
        state = PlayerState(rating, (games_before or 0) + len(pooled), birth_year)
        rows.append(
            (player, _STATUS_INITIAL, len(new), rating, k_factor(state, period_start, 0, p))
        )
    schema = {
        "player": pl.Utf8,
        "status": pl.Utf8,
        "games": pl.Int64,
        "rating_after": pl.Int64,
        "K_next": pl.Int64,
    }
    return pl.DataFrame(rows, schema=schema, orient="row"), carried


def _changes(rated: pl.DataFrame, initial: pl.DataFrame) -> pl.DataFrame:
    rated_rows = rated.select(
        pl.col("player").alias("player_id"),
        "status",
        "rating_before",
        pl.col("n").alias("games"),
        "K",
        _hundredths(pl.col("K_chg_h")).alias("K_chg"),
        "change",
        "change_by_tournament",
        "rating_after",
    )
    initial_rows = initial.select(
        pl.col("player").alias("player_id"), "status", "games", "rating_after"
    )
    return (
        pl.concat([rated_rows, initial_rows], how="diagonal_relaxed")
        .select(list(CHANGE_SCHEMA))
        .cast(pl.Schema(CHANGE_SCHEMA))
        .sort("player_id")
    )


def march_2024_adjustment(rating: pl.Expr) -> pl.Expr:
    """The one-time adjustment of 1 March 2024, R + 0.4·(2000 − R) for 1000 ≤ R < 2000, in
    integers: (3R + 4000)/5 rounded half up (never a half for a whole R: fifths).

    >>> ratings = pl.DataFrame({"r": [999, 1000, 1500, 1999, 2000, 2100]})
    >>> ratings.select(march_2024_adjustment(pl.col("r"))).to_series().to_list()
    [999, 1400, 1700, 1999, 2000, 2100]
    """
    return (
        pl.when((rating >= 1000) & (rating < 2000))
        .then((6 * rating + 8005) // 10)
        .otherwise(rating)
    )


def _new_list(
    base: pl.DataFrame,
    changes: pl.DataFrame,
    per_player: pl.DataFrame,
    rated: pl.DataFrame,
    initial: pl.DataFrame,
    *,
    crosses: bool,
    p: FideParams,
) -> pl.DataFrame:
    """The previous list with every player who played updated, and the newcomers; a run that
    crosses 1 March 2024 adjusts the ratings of the players who did not play too.

    Only the players who played are joined; the others keep their row (games 0) and are
    merged back in id order.
    """
    k_next = pl.concat(
        [
            rated.select(pl.col("player").alias("player_id"), pl.col("K_printed").alias("k_next")),
            initial.select(pl.col("player").alias("player_id"), pl.col("K_next").alias("k_next")),
        ]
    )
    played = changes.select(
        "player_id",
        pl.col("rating_after").alias("new_rating"),
        pl.col("games").alias("new_games"),
    ).join(k_next, on="player_id", how="left")
    if not base.get_column("player_id").is_sorted():
        base = base.sort("player_id")
    on_base = pl.col("player_id").is_in(played.get_column("player_id").implode())
    kept = base.filter(~on_base).with_columns(
        (march_2024_adjustment(pl.col("rating")) if crosses else pl.col("rating")).alias("rating"),
        pl.lit(0, dtype=pl.Int64).alias("games"),
    )
    before = base.filter(on_base)
    newcomers = (
        played.join(before.select("player_id"), on="player_id", how="anti")
        .join(
            per_player.select(pl.col("player").alias("player_id"), "birth_year"),
            on="player_id",
            how="left",
        )
        .select("player_id", "birth_year")
    )
    no_i = pl.col("flag").str.replace_all("i", "", literal=True)
    touched = (
        pl.concat([before, newcomers], how="diagonal_relaxed")
        .join(played, on="player_id", how="left")
        .with_columns(
            pl.col("new_rating").alias("rating"),
            pl.when(pl.col("new_rating") >= p.top_from)
            .then(pl.lit(p.k_top))
            .otherwise(pl.coalesce("k_next", "k"))
            .alias("k"),
            pl.col("new_games").alias("games"),
            pl.when(pl.col("new_games") == 0)
            .then(pl.col("flag"))
            .when(no_i != "")
            .then(no_i)
            .alias("flag"),
        )
        .select(list(LIST_SCHEMA))
        .cast(pl.Schema(LIST_SCHEMA))
        .sort("player_id")
    )
    return kept.cast(pl.Schema(LIST_SCHEMA)).merge_sorted(touched, key="player_id")


def run_fide_lists(
    games: pl.DataFrame,
    lists: Mapping[dt.date, pl.DataFrame],
    *,
    first: dt.date,
    last: dt.date,
    players: pl.DataFrame | None = None,
    pending: Mapping[str, tuple[PendingGame, ...]] | None = None,
    params: FideParams | None = None,
    late: Collection[str] = (),
) -> list[FideListRun]:
    """:func:`run_fide_list` for every month from ``first`` to ``last`` (list dates), each on
    the tournaments :func:`rated_on` that list; the events ``late`` (reported late: they ended
    before ``first``'s period) are rated on the first. A computed list becomes the previous
    list of the next run and the list in force for tournaments starting in its month, unless
    a list of that date is imported: the official one wins.

    :raises SchemaError: a late event that is not in ``games``, or that ends on or after the
        first list's period (it is rated in its own period).
    """
    _checked_list_date(first)
    _checked_list_date(last)
    if late:
        days = _event_days(games.filter(pl.col("event").is_in(list(late))))
        ends = dict(zip(days.get_column("event"), days.get_column("event_end"), strict=True))
        for event in sorted(late):
            if event not in ends:
                raise SchemaError(f"late: found event {event!r}, expected an event of the games")
            if ends[event] >= months_before(first, 1):
                raise SchemaError(
                    f"late: event {event!r} ends on {ends[event]}, in the period of a list this "
                    f"run computes; expected an event that ended before {months_before(first, 1)}"
                )
    known = dict(lists)
    runs: list[FideListRun] = []
    carried = pending
    day = first
    while day <= last:
        run = run_fide_list(
            rated_on(games, day, late if day == first else ()),
            known,
            list_date=day,
            players=players,
            pending=carried,
            params=params,
        )
        runs.append(run)
        carried = run.pending
        known.setdefault(day, run.new_list)
        day = months_before(day, -1)
    return runs


@dataclass(frozen=True)
class HistoryRun:
    """:func:`history_runs`: each month's run, and arbiter's players after the last."""

    runs: list[FideListRun]
    players: pl.DataFrame
    """The players table with ``rating`` (Float64, null: unrated), ``games`` (rated games
    completed) and ``k_reached_2400`` after the last run."""


def _with_state_columns(players: pl.DataFrame) -> pl.DataFrame:
    validate_players(players)
    defaults = {
        "rating": pl.lit(None, dtype=pl.Float64),
        "games": pl.lit(0, dtype=pl.Int64),
        "k_reached_2400": pl.lit(value=False),
    }
    return players.select(
        "player_id",
        "name",
        "country",
        "birth_year",
        *(
            (pl.col(c) if c in players.columns else default).alias(c)
            for c, default in defaults.items()
        ),
    ).with_columns(
        pl.when(pl.col("rating") > 0).then(pl.col("rating")).alias("rating"),
        pl.col("games").fill_null(0),
        pl.col("k_reached_2400").fill_null(value=False),
    )


def _after_run(
    players: pl.DataFrame, run: FideListRun, *, crosses: bool, p: FideParams
) -> pl.DataFrame:
    """The players table after one run from history: every player who played takes his new
    rating (an initial rating, or none below the floor) and adds his rated games; a run that
    crosses 1 March 2024 adjusts everyone else's rating."""
    played = run.changes.filter(
        pl.col("status").is_in([_STATUS_RATED, _STATUS_BELOW_FLOOR, _STATUS_INITIAL])
    ).select(
        "player_id",
        pl.col("rating_after").cast(pl.Float64).alias("new_rating"),
        pl.col("games").alias("new_games"),
    )
    newcomers = played.join(players.select("player_id"), on="player_id", how="anti").select(
        "player_id",
        pl.lit(None, dtype=pl.Utf8).alias("name"),
        pl.lit(None, dtype=pl.Utf8).alias("country"),
        pl.lit(None, dtype=pl.Int64).alias("birth_year"),
        pl.lit(None, dtype=pl.Float64).alias("rating"),
        pl.lit(0, dtype=pl.Int64).alias("games"),
        pl.lit(value=False).alias("k_reached_2400"),
    )
    kept = (
        march_2024_adjustment(pl.col("rating").cast(pl.Int64)).cast(pl.Float64)
        if crosses
        else pl.col("rating")
    )
    return (
        pl.concat([players, newcomers.cast(players.schema)])
        .join(played, on="player_id", how="left")
        .with_columns(
            pl.when(pl.col("new_games").is_not_null())
            .then(pl.col("new_rating"))
            .otherwise(kept)
            .alias("rating"),
            (pl.col("games") + pl.col("new_games").fill_null(0)).alias("games"),
            (
                pl.col("k_reached_2400")
                | (pl.col("new_rating") >= p.top_from).fill_null(value=False)
            ).alias("k_reached_2400"),
        )
        .drop("new_rating", "new_games")
    )


def history_runs(
    games: pl.DataFrame,
    players: pl.DataFrame,
    as_of: dt.date,
    params: FideParams | None = None,
) -> HistoryRun:
    """FIDE's list month after month from arbiter's own history, without any imported list
    (rule 6): from the list after the first tournament ended to the one that rates the last
    game before ``as_of``, each tournament rated whole on the list after the month it ended
    (:func:`rated_on`), by :func:`run_fide_list` with the ratings of the players table as the
    previous months left them. The stated tournament days are ignored: a tournament ends on its
    last game before ``as_of``.
    """
    p = params or FideParams()
    state = _with_state_columns(players)
    validate_games(games)
    before = games.filter(pl.col("date") < as_of).drop(
        [c for c in ("event_start", "event_end") if c in games.columns]
    )
    if before.height == 0:
        return HistoryRun([], state)
    day = months_before(before.get_column("date").min(), -1)  # type: ignore[arg-type]
    last = months_before(as_of - dt.timedelta(days=1), -1)
    runs: list[FideListRun] = []
    pending: Mapping[str, tuple[PendingGame, ...]] = {}
    while day <= last:
        run = run_fide_list(
            rated_on(before, day), {}, list_date=day, players=state, pending=pending, params=p
        )
        crosses = months_before(day, 1) < MARCH_2024 <= day
        state = _after_run(state, run, crosses=crosses, p=p)
        pending = run.pending
        runs.append(run)
        day = months_before(day, -1)
    return HistoryRun(runs, state)


def history_list(
    games: pl.DataFrame,
    players: pl.DataFrame,
    as_of: dt.date,
    params: FideParams | None = None,
    activity: ActivityParams | None = None,
) -> pl.DataFrame:
    """The FIDE list as of a date without imported lists: :func:`history_runs` over the games
    before ``as_of``, listed by :func:`ratings.listing.activity_listing` (float ratings, as
    every method's list). The ratings before a player's first tournament are the ones in
    ``players`` (an organiser's file states the published FIDE rating; 0 or null: unrated)."""
    p = params or FideParams()
    before = games.filter(pl.col("date") < as_of)
    state = history_runs(before, players, as_of, p).players
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


def tournament_changes(
    games: pl.DataFrame, ratings: pl.DataFrame, params: FideParams | None = None
) -> FideListRun:
    """One tournament rated alone, with FIDE's arithmetic (:func:`run_fide_list`): every
    rating and K from ``ratings`` (:data:`LIST_SCHEMA`, the list in force at its start; a K
    left null is rule 8.3.3's for a player with no history, 40), n·K ≤ 700 over its games, the
    400-point rule of the period it ends in, K·Σ(W − We) in hundredths rounded once: the
    change the tournament alone makes (``changes``, ``tournaments``, ``games`` as a list run's).

    ``games`` is a games table of one event; ids are the games table's (a digits-only id in
    ``ratings`` is read as ``fide:<id>``, as :func:`official_list` does). A player
    ``ratings`` does not rate is unrated: ``status`` initial / not rated, no change.

    >>> games = pl.DataFrame({
    ...     "date": [dt.date(2025, 11, 7)] * 2, "event": ["open"] * 2,
    ...     "player_a": ["p:1", "p:1"], "player_b": ["p:2", "p:3"], "score_a": [1.0, 0.5],
    ...     "weight": [1.0] * 2, "game": ["chess"] * 2, "color_a": ["white", "black"],
    ...     "handicap": [None, None], "komi": [None, None]},
    ...     schema_overrides={"handicap": pl.Int64, "komi": pl.Float64})
    >>> ratings = pl.DataFrame({"player_id": ["p:1", "p:2", "p:3"],
    ...     "rating": [2000, 1900, 2450], "k": [20, 40, 10]})
    >>> run = tournament_changes(games, ratings)
    >>> for row in run.changes.select("player_id", "K", "K_chg", "change").iter_rows():
    ...     print(row)
    ('p:1', 20, Decimal('15.60'), 16)
    ('p:2', 40, Decimal('-14.40'), -14)
    ('p:3', 10, Decimal('-4.20'), -4)
    >>> run.tournaments.filter(pl.col("player_id") == "p:1").select("Ro", "Rc", "w", "Rp").row(0)
    (2000, 2150, Decimal('1.50'), 2343)
    """
    days = _event_days(games)
    if days.height != 1:
        found = ", ".join(repr(e) for e in days.get_column("event").to_list()) or "none"
        raise SchemaError(f"games:event: found events {found}, expected one tournament")
    _, start, end = days.row(0)
    in_force = months_before(start, 0)
    return run_fide_list(
        games, {in_force: ratings}, list_date=months_before(end, -1), params=params
    )
