"""The FIDE list run from imported official lists: `arbiter ratings run --method fide` once a
FIDE list of the rating type is imported (`arbiter ratings import`).

The job reads, calls :func:`ratings.fide_run.run_fide_lists`, and writes; the rules are there.
The list of ``--as-of`` (the first day of a month) updates the latest imported list dated
before it, month by month: each tournament is rated whole on the list of the month after it
ended (``--late EVENT``: reported late, rated on the first list of this run), every rating in
it from the imported list in force when it started. Players are the games table's, whose id is
``fide:<FIDE id>`` for a player registered with one; that id is the list's row.

The folder has the files of every list run (``ratings.csv``/``.parquet`` with the columns of
:data:`OUTPUT_COLUMNS`, ``diff.csv`` against the list the run updated, ``index.html`` and
charts for the players who played, ``manifest.json``) and FIDE's calculation pages:
``changes.csv`` (one row per player who played, :data:`ratings.fide_run.CHANGE_SCHEMA`),
``tournaments.csv`` and ``games.csv`` (the audit frames: Ro, Rc, W, We, K, K·(W − We)).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import polars as pl
from pydantic import JsonValue

from events.errors import braced
from events.imported_lists import FIDE_LISTS, Kind, current_imports, from_table, imported_lists
from projections.csv_safe import neutralise_frame
from projections.games import tournament_marks
from ratings.fide_run import (
    FIDE_ID_PREFIX,
    LIST_SCHEMA,
    FideListRun,
    lists_needed,
    run_fide_lists,
    tournament_days,
)
from ratings.games import months_before
from ratings.late_reports import LateReport, ListEntered, RecordedTournament, late_reports
from ratings.listing import diff_lists
from ratings.lists import ComputedList, ListParams, ListRequestError, method_games
from ratings.methods import RatingType

if TYPE_CHECKING:
    from pathlib import Path

    from events.imported_lists import ListImport
    from events.store import Store
    from ratings.lists import ListKind

__all__ = [
    "OUTPUT_COLUMNS",
    "FrameGames",
    "FromLists",
    "GamesSource",
    "audit_frames",
    "fide_imports",
    "fide_list_name",
    "list_diff",
    "manifest_extra",
    "played_ids",
    "run_from_lists",
    "write_audit",
]

OUTPUT_COLUMNS: dict[str, pl.DataType] = {
    "rank": pl.Int64(),
    "player_id": pl.Utf8(),
    "fide_id": pl.Utf8(),
    "name": pl.Utf8(),
    "country": pl.Utf8(),
    "rating": pl.Int64(),
    "k": pl.Int64(),
    "games": pl.Int64(),
    "flag": pl.Utf8(),
    "margin": pl.Int64(),
    "official": pl.Boolean(),
    "provisional_reason": pl.Utf8(),
}
"""``ratings.csv`` of a run from imported lists: FIDE's columns (``fide_id``, ``rating``,
``k``, ``games`` rated in the period, ``flag``) with the columns every published list has
(rank among the rated active players, arbiter's ``player_id``, name, federation as
``country``; ``margin`` always empty), one row per player of the updated list and every player
who played."""


IDENTITY_COLUMNS = ("sex", "title", "birth_year")
"""What a list says of a player beyond name and federation (``fide.xml`` carries it over; the
title from the imported list)."""


def fide_list_name(rating_type: RatingType | None) -> str:
    """``fide-standard`` (the default), ``fide-rapid``, ``fide-blitz``."""
    return FIDE_LISTS[(rating_type or RatingType.STANDARD).value]


def fide_imports(store: Store, name: str, at_position: int | None) -> list[ListImport]:
    """The current imports of the list ``name`` (those recorded up to ``at_position``)."""
    return [
        i
        for i in current_imports(store)
        if i.list_name == name and (at_position is None or i.position <= at_position)
    ]


@dataclass(frozen=True)
class FromLists:
    """A run from imported lists, computed and shaped (before writing)."""

    listing: pl.DataFrame
    """:data:`OUTPUT_COLUMNS`, by rank then id."""
    previous: pl.DataFrame
    """The list the run updated, shaped as ``listing``: its :data:`DIFF_COLUMNS` (for the
    diff)."""
    runs: list[FideListRun]
    """One per month from the updated list to ``--as-of``."""
    computed: ComputedList
    """The listing and the parameters published with it."""
    games: int
    """Rated games of the run (each game once)."""
    late: tuple[LateReport, ...]
    """The tournaments rated late (:func:`ratings.late_reports.late_reports`)."""
    updated: dt.date
    """The date of the imported list the run updated."""
    identity: pl.DataFrame
    """``listing``'s rows with :data:`IDENTITY_COLUMNS` added (``fide.xml``)."""
    notes: list[str]


def _list_frame(store: Store, item: ListImport) -> pl.DataFrame:
    """An imported FIDE list as :data:`ratings.fide_run.LIST_SCHEMA` plus name and
    federation (ids as FIDE prints them, digits)."""
    rows = from_table(Kind.FIDE, store.list_rows(item.list_name, item.list_date))
    return rows.select(
        [pl.col(c).cast(t) for c, t in LIST_SCHEMA.items()]
        + [pl.col("name"), pl.col("federation").alias("country")]
        + [pl.col("title")]
    )


DIFF_COLUMNS = ("player_id", "name", "country", "rating", "rank")
"""What the diff reads of the list a run updated (:attr:`FromLists.previous`)."""


def _shaped(
    new_list: pl.DataFrame,
    names: pl.DataFrame,
    players: pl.DataFrame,
    columns: Sequence[str] = (*OUTPUT_COLUMNS, *IDENTITY_COLUMNS),
) -> pl.DataFrame:
    """A list (:data:`LIST_SCHEMA`, ids ``fide:``-prefixed or arbiter's) as ``columns`` of
    :data:`OUTPUT_COLUMNS` and :data:`IDENTITY_COLUMNS`: names (and titles) from the imported
    list, else from arbiter's players. Lazy: a column not asked for is neither made nor sorted
    (a million rows each)."""
    official = pl.col("rating").is_not_null() & ~pl.col("flag").fill_null("").str.contains("i")
    return (
        new_list.lazy()
        .join(names.lazy(), on="player_id", how="left")
        .join(
            players.lazy().select(
                "player_id",
                pl.col("name").alias("own_name"),
                pl.col("country").alias("own_country"),
            ),
            on="player_id",
            how="left",
        )
        .with_columns(
            pl.coalesce("name", "own_name").alias("name"),
            pl.coalesce("country", "own_country").alias("country"),
            pl.col("player_id").str.strip_prefix(FIDE_ID_PREFIX).alias("fide_id"),
            official.alias("official"),
            pl.when(official)
            .then(None)
            .when(pl.col("rating").is_null())
            .then(pl.lit("unrated"))
            .otherwise(pl.lit("inactive"))
            .alias("provisional_reason"),
            pl.lit(None, dtype=pl.Int64).alias("margin"),
        )
        .with_columns(
            pl.when(pl.col("fide_id") == pl.col("player_id"))
            .then(None)
            .otherwise(pl.col("fide_id"))
            .alias("fide_id")
        )
        # By id, then (stable) by official and rating: the order of one sort by the three,
        # without comparing ids of a million players at each rating.
        .sort("player_id")
        .sort(["official", "rating"], descending=[True, True], nulls_last=True, maintain_order=True)
        .with_columns(pl.when(pl.col("official")).then(pl.int_range(1, pl.len() + 1)).alias("rank"))
        .select(
            [
                pl.col(c).cast(OUTPUT_COLUMNS[c]) if c in OUTPUT_COLUMNS else pl.col(c)
                for c in columns
            ]
        )
        .collect()
    )


def _list_entered(
    store: Store, item: ListImport, published: Collection[int], at_position: int | None
) -> int:
    """The log position where the list of ``item``'s name and date entered the log: its first
    import, or a run's publication of a list of that kind and date (``published``, their
    positions) if one came first."""
    imports = [
        i.position
        for i in imported_lists(store)
        if (i.list_name, i.list_date) == (item.list_name, item.list_date)
    ]
    found = [p for p in (*imports, *published) if at_position is None or p <= at_position]
    return min(found, default=item.position)


class GamesSource(Protocol):
    """Where a run reads its games: the tournaments' marks first, then the games of those it
    may rate (`projections.games.GamesCache` reads only their rows from the cache)."""

    def tournaments(self, before: dt.date) -> pl.DataFrame:
        """:data:`projections.games.TOURNAMENT_MARKS` of the games dated before ``before``."""
        ...

    def games_of(self, events: Sequence[str], before: dt.date) -> pl.DataFrame:
        """The games (with their log columns) of ``events`` dated before ``before``."""
        ...


@dataclass(frozen=True)
class FrameGames:
    """A games table in memory as a `GamesSource`."""

    games: pl.DataFrame

    def all(self) -> pl.DataFrame:
        return self.games

    def tournaments(self, before: dt.date) -> pl.DataFrame:
        marked = self.games.filter(pl.col("date") < before)
        for column in ("event_end", "position"):  # a table without them: none stated, 0
            if column not in marked.columns:
                marked = marked.with_columns(pl.lit(None, dtype=pl.Int64).alias(column))
        return tournament_marks(marked.with_columns(pl.col("event_end").cast(pl.Date)))

    def games_of(self, events: Sequence[str], before: dt.date) -> pl.DataFrame:
        return self.games.filter((pl.col("date") < before) & pl.col("event").is_in(list(events)))


def _may_rate(
    marks: pl.DataFrame, *, since: dt.date, entered: int, named: Collection[str]
) -> list[str]:
    """The tournaments of ``marks`` a run updating the list of ``since`` (entered the log at
    position ``entered``) may rate: those that end on or after ``since`` (rated in a period of
    the run), those recorded after the list entered the log (late by the log), those the
    officer names. The others ended before that list and are in it: their games are not read,
    so a run reads the games of its period, not the log's history.

    >>> day = dt.date
    >>> marks = pl.DataFrame({"event": ["history", "reported", "named", "december"],
    ...     "last_day": [day(2025, 10, 9), day(2025, 11, 20), day(2025, 9, 3), day(2025, 12, 9)],
    ...     "last_position": [40, 900, 30, 950]})
    >>> _may_rate(marks, since=day(2025, 12, 1), entered=500, named=["named"])
    ['reported', 'named', 'december']
    """
    chosen = (
        (pl.col("last_day") >= since)
        | (pl.col("last_position").fill_null(0) > entered)
        | pl.col("event").is_in(list(named))
    )
    return marks.filter(chosen).get_column("event").to_list()


def _recorded(games: pl.DataFrame) -> list[RecordedTournament]:
    """Every tournament of ``games``: its days, and the log position of its first rated
    result (a games table without positions: all recorded at 0, none is late by the log)."""
    days = tournament_days(games)
    if "position" in games.columns:
        first = games.group_by("event").agg(pl.col("position").min().alias("recorded"))
        days = days.join(first, on="event", how="left")
    else:
        days = days.with_columns(pl.lit(0).alias("recorded"))
    return [
        RecordedTournament(event, start, end, int(recorded or 0))
        for event, start, end, recorded in days.select(
            "event", "event_start", "event_end", "recorded"
        ).iter_rows()
    ]


def run_from_lists(
    store: Store,
    kind: ListKind,
    games: pl.DataFrame | GamesSource,
    players: pl.DataFrame,
    *,
    as_of: dt.date,
    at_position: int | None = None,
    late: Collection[str] = (),
    not_late: Collection[str] = (),
    published: Mapping[dt.date, Collection[int]] | None = None,
) -> FromLists | None:
    """The list of ``as_of`` from the imported FIDE lists of ``kind``'s rating type, those
    recorded up to ``at_position`` (None when none is imported: the run computes from the
    log's own history).

    The tournaments rated late are those :func:`ratings.late_reports.late_reports` finds:
    ended before the list the run updates and recorded after it entered the log, with the
    officer's overrides ``late`` and ``not_late``; ``published``: the log positions of the
    lists of this kind runs published, by list date.

    :raises ListRequestError: an as-of date that is not the first of a month, or earlier than
        every imported list; an override that names no tournament the run could rate late; a
        late tournament that started before the earliest imported list.
    :raises SchemaError: a tournament that started before the earliest imported list
        (:func:`ratings.fide_run.run_fide_lists`).
    """
    name = fide_list_name(kind.rating_type)
    imports = fide_imports(store, name, at_position)
    if not imports:
        return None
    list_date = as_of
    if list_date.day != 1:
        raise ListRequestError.naming(
            "{0}: "
            + braced(
                f"found {list_date}, expected the first day of a month (a FIDE list "
                f"computed from the imported {name} lists is dated the 1st)"
            ),
            "as_of",
        )
    earlier = {i.list_date: i for i in imports if i.list_date < list_date}
    if not earlier:
        first_import = min(i.list_date for i in imports)
        raise ListRequestError.naming(
            "{0}: "
            + braced(
                f"found {list_date}, expected a date after an imported {name} list "
                f"(the earliest is dated {first_import})"
            ),
            "as_of",
        )
    previous_date = max(earlier)
    first = months_before(previous_date, -1)
    in_force = ListEntered(
        previous_date,
        _list_entered(
            store, earlier[previous_date], (published or {}).get(previous_date, ()), at_position
        ),
        min(earlier),
    )
    source = FrameGames(games) if isinstance(games, pl.DataFrame) else games
    chosen = _may_rate(
        source.tournaments(list_date),
        since=previous_date,
        entered=in_force.position,
        named=[*late, *not_late],
    )
    mine = method_games(source.games_of(chosen, list_date), kind)
    reports = late_reports(_recorded(mine), in_force=in_force, late=late, not_late=not_late)
    rated_late = [r.event for r in reports]
    needed = lists_needed(mine, list(earlier), first=first, last=list_date, late=rated_late)
    empty = pl.DataFrame(schema=dict(LIST_SCHEMA))
    frames = {d: _list_frame(store, earlier[d]) if d in needed else empty for d in earlier}
    base = frames[previous_date]
    lists = {d: f.select(list(LIST_SCHEMA)) for d, f in frames.items()}
    params = ListParams().fide
    runs = run_fide_lists(
        mine,
        lists,
        first=first,
        last=list_date,
        players=players,
        params=params,
        late=rated_late,
    )
    prefixed = (pl.lit(FIDE_ID_PREFIX) + pl.col("player_id")).alias("player_id")
    names = base.select(prefixed, "name", "country", "title")
    wide = _shaped(runs[-1].new_list, names, players)
    listing = wide.select(list(OUTPUT_COLUMNS))
    before = base.select(list(LIST_SCHEMA)).with_columns(names.get_column("player_id"))
    previous = _shaped(before, names, players, DIFF_COLUMNS)
    parameters: dict[str, JsonValue] = {
        "fide": params.model_dump(mode="json"),
        "from_list": f"{name} {previous_date.isoformat()}",
        "from_list_sha256": earlier[previous_date].source_sha256,
        "late": list[JsonValue](sorted(late)),
        "not_late": list[JsonValue](sorted(not_late)),
        "rated_late": list[JsonValue](rated_late),
    }
    rated = sum(r.games.select("event", "game_index").n_unique() for r in runs)
    notes = [f"from the imported {name} list of {previous_date}"]
    if len(runs) > 1:
        notes.append(f"{len(runs)} monthly runs, {first} to {list_date}")
    return FromLists(
        listing=listing,
        previous=previous,
        runs=runs,
        computed=ComputedList(listing, parameters),
        games=rated,
        late=reports,
        updated=previous_date,
        identity=wide,
        notes=notes,
    )


def audit_frames(result: FromLists) -> dict[str, pl.DataFrame]:
    """FIDE's calculation pages of the runs, each row with the list it is rated on;
    ``tournaments.csv`` says which tournaments were rated late (``late``: ``log``, recorded
    after the list the run updated; ``named``, given with --late; empty: in time)."""
    runs = result.runs

    def stacked(attr: str) -> pl.DataFrame:
        frames: list[pl.DataFrame] = [getattr(r, attr) for r in runs]
        return pl.concat(
            [
                frame.select(pl.lit(r.list_date, dtype=pl.Date).alias("rated_on"), pl.all())
                for r, frame in zip(runs, frames, strict=True)
            ]
        )

    late = pl.DataFrame(
        {"event": [r.event for r in result.late], "late": [r.reason for r in result.late]},
        schema={"event": pl.Utf8, "late": pl.Utf8},
    )
    return {
        "changes.csv": stacked("changes"),
        "tournaments.csv": stacked("tournaments").join(
            late, on="event", how="left", maintain_order="left"
        ),
        "games.csv": stacked("games"),
    }


def write_audit(out: Path, result: FromLists) -> None:
    """Write the audit CSVs into the list's staging folder ``out``."""
    for name, frame in audit_frames(result).items():  # straight to the file: no copy in memory
        neutralise_frame(frame).write_csv(
            out.joinpath(name), include_header=True, line_terminator="\n"
        )


def list_diff(result: FromLists) -> pl.DataFrame:
    """What changed against the list the run updated (new, dropped, moved)."""
    return diff_lists(result.previous, result.listing)


def played_ids(result: FromLists) -> set[str]:
    """The players who played in the run (their charts and the page's rows)."""
    return set(pl.concat([r.changes.get_column("player_id") for r in result.runs]).to_list())


def manifest_extra(result: FromLists) -> dict[str, object]:
    """What the manifest adds for a run from lists."""
    return {
        "from_lists": result.computed.parameters,
        "rated_games": result.games,
        "players_who_played": len(played_ids(result)),
    }
