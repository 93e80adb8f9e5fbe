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
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

import polars as pl
from pydantic import JsonValue

from events.errors import braced
from events.imported_lists import FIDE_LISTS, Kind, current_imports, from_table
from projections.csv_safe import neutralise_frame
from ratings.fide_run import (
    FIDE_ID_PREFIX,
    LIST_SCHEMA,
    FideListRun,
    lists_needed,
    run_fide_lists,
)
from ratings.games import months_before
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
    "FromLists",
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
    """The list the run updated, shaped as ``listing`` (for the diff)."""
    runs: list[FideListRun]
    """One per month from the updated list to ``--as-of``."""
    computed: ComputedList
    """The listing and the parameters published with it."""
    games: int
    """Rated games of the run."""
    notes: list[str]


def _list_frame(store: Store, item: ListImport) -> pl.DataFrame:
    """An imported FIDE list as :data:`ratings.fide_run.LIST_SCHEMA` plus name and
    federation (ids as FIDE prints them, digits)."""
    rows = from_table(Kind.FIDE, store.list_rows(item.list_name, item.list_date))
    return rows.select(
        [pl.col(c).cast(t) for c, t in LIST_SCHEMA.items()]
        + [pl.col("name"), pl.col("federation").alias("country")]
    )


def _shaped(new_list: pl.DataFrame, names: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
    """A list (:data:`LIST_SCHEMA`, ids ``fide:``-prefixed or arbiter's) as
    :data:`OUTPUT_COLUMNS`: names from the imported list, else from arbiter's players."""
    official = pl.col("rating").is_not_null() & ~pl.col("flag").fill_null("").str.contains("i")
    return (
        new_list.join(names, on="player_id", how="left")
        .join(
            players.select(
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
        .sort(["official", "rating", "player_id"], descending=[True, True, False], nulls_last=True)
        .with_columns(pl.when(pl.col("official")).then(pl.int_range(1, pl.len() + 1)).alias("rank"))
        .select([pl.col(c).cast(t) for c, t in OUTPUT_COLUMNS.items()])
    )


def run_from_lists(
    store: Store,
    kind: ListKind,
    games: pl.DataFrame,
    players: pl.DataFrame,
    *,
    as_of: dt.date,
    at_position: int | None = None,
    late: Collection[str] = (),
) -> FromLists | None:
    """The list of ``as_of`` from the imported FIDE lists of ``kind``'s rating type, those
    recorded up to ``at_position`` (None when none is imported: the run computes from the
    log's own history).

    :raises ListRequestError: an as-of date that is not the first of a month, or earlier than
        every imported list.
    :raises SchemaError: a tournament that started before the earliest imported list, a late
        event that is not one (:func:`ratings.fide_run.run_fide_lists`).
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
    mine = method_games(games, kind).filter(pl.col("date") < list_date)
    needed = lists_needed(mine, list(earlier), first=first, last=list_date, late=late)
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
        late=late,
    )
    names = base.select(
        (pl.lit(FIDE_ID_PREFIX) + pl.col("player_id")).alias("player_id"), "name", "country"
    )
    listing = _shaped(runs[-1].new_list, names, players)
    before = base.select(list(LIST_SCHEMA)).with_columns(
        (pl.lit(FIDE_ID_PREFIX) + pl.col("player_id")).alias("player_id")
    )
    previous = _shaped(before, names, players)
    parameters: dict[str, JsonValue] = {
        "fide": params.model_dump(mode="json"),
        "from_list": f"{name} {previous_date.isoformat()}",
        "from_list_sha256": earlier[previous_date].source_sha256,
        "late": list[JsonValue](sorted(late)),
    }
    rated = sum(r.games.filter(pl.col("Ro").is_not_null()).height for r in runs)
    notes = [f"from the imported {name} list of {previous_date}"]
    if len(runs) > 1:
        notes.append(f"{len(runs)} monthly runs, {first} to {list_date}")
    return FromLists(
        listing=listing,
        previous=previous,
        runs=runs,
        computed=ComputedList(listing, parameters),
        games=rated,
        notes=notes,
    )


def _csv(frame: pl.DataFrame) -> bytes:
    return neutralise_frame(frame).write_csv(include_header=True, line_terminator="\n").encode()


def audit_frames(runs: list[FideListRun]) -> dict[str, pl.DataFrame]:
    """FIDE's calculation pages of the runs, each row with the list it is rated on."""

    def stacked(attr: str) -> pl.DataFrame:
        frames: list[pl.DataFrame] = [getattr(r, attr) for r in runs]
        return pl.concat(
            [
                frame.select(pl.lit(r.list_date, dtype=pl.Date).alias("rated_on"), pl.all())
                for r, frame in zip(runs, frames, strict=True)
            ]
        )

    return {
        "changes.csv": stacked("changes"),
        "tournaments.csv": stacked("tournaments"),
        "games.csv": stacked("games"),
    }


def write_audit(out: Path, runs: list[FideListRun]) -> None:
    """Write the audit CSVs into the list's staging folder ``out``."""
    for name, frame in audit_frames(runs).items():
        out.joinpath(name).write_bytes(_csv(frame))


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
