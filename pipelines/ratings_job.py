"""The rating-list run: a method as of a date over the games table, written, diffed, published.

One run reads the games table (the materialised projection, brought up to the end of the log,
or a fresh projection of the log up to ``at_position`` to reproduce an old list), computes the
list with the method's pure function, and writes into the output folder, each file through a
temporary file and ``os.replace``:

* ``ratings.csv`` and ``ratings.parquet`` (Parquet key-value metadata: method, as-of date, log
  position, parameters): rank, player_id, name, country, rating, margin, games, official,
  provisional_reason;
* ``diff.csv`` against the previous published list of the same method (new, dropped, movers);
* ``index.html`` (searchable, sortable, filter by country) linking every player to
  ``charts/<player>.svg``, the rating history over the published lists;
* ``manifest.json``.

Then it appends ``RatingListPublished`` to stream ``ratinglist-<method>`` with the sha256 of
``ratings.csv`` and the last log position the list depends on. Nothing in the files depends on
the clock, so the same as-of date on the same log gives the same bytes.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl
from pydantic import BaseModel, ConfigDict, Field, JsonValue
from threadpoolctl import threadpool_limits

from events.errors import NotFound, UserError
from events.schema import RatingListPublished
from events.store import NewEvent, Store
from pipelines.rating_methods import Method
from projections.charts import HistoryPoint, history_svg
from projections.games import GamesCache, players_table, project
from projections.rating_list_html import rating_list_html
from ratings.games import GAMES_SCHEMA, GameKind, months_before
from ratings.wof import WofParams, fit_wof

if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "LIST_COLUMNS",
    "Method",
    "Publication",
    "RunRequest",
    "RunResult",
    "diff_lists",
    "publications",
    "run_list",
]

STREAM_PREFIX = "ratinglist-"


DEFAULT_GAME: Mapping[Method, GameKind | None] = {
    Method.WOF: GameKind.OTHELLO,
    Method.FIDE: GameKind.CHESS,
    Method.EGF: GameKind.GO,
    Method.GLICKO2: None,
}
"""The games a method rates unless the request names one (None: every game in the table)."""

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


class RatingRunError(UserError):
    """A run that cannot be made as asked (unknown method input, unreadable previous list)."""


class RunRequest(BaseModel):
    """What to compute and where to write it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    method: Method
    as_of: dt.date
    """Calculation date: the list uses results dated before it."""
    output: Path
    game: GameKind | None = None
    """Rate only this game's results; default: the method's (see :data:`DEFAULT_GAME`)."""
    period_months: int = Field(1, ge=1, le=12)
    """Glicko-2: months per rating period."""
    at_position: int | None = Field(None, ge=0)
    """Reproduce: read the log only up to this position (else: the whole log)."""
    publish: bool = True
    """Append ``RatingListPublished`` (a dry run writes the files only)."""
    wof: WofParams = WofParams()
    """Parameters of the WOF method (defaults: the federation's, ratings.md §1.2)."""


@dataclass(frozen=True)
class MethodInput:
    games: pl.DataFrame
    players: pl.DataFrame
    request: RunRequest


@dataclass(frozen=True)
class MethodOutput:
    listing: pl.DataFrame
    """rank, player_id, rating, margin, games, official, provisional_reason (float ratings)."""
    parameters: dict[str, JsonValue]


def _wof(data: MethodInput) -> MethodOutput:
    params = data.request.wof
    fit = fit_wof(data.games, data.request.as_of, params)
    return MethodOutput(fit.listing, {"wof": params.model_dump(mode="json")})


ACTIVE_MONTHS = 12
"""FIDE, EGF and Glicko-2 lists: active with a rated game in the last twelve months."""

GLICKO2_PROVISIONAL_DEVIATION = 110.0
"""A Glicko-2 rating is official below this deviation (lichess's provisional threshold)."""


def _activity_listing(
    rated: pl.DataFrame,
    games: pl.DataFrame,
    as_of: dt.date,
    *,
    unrated: str,
    provisional: pl.Expr | None = None,
    provisional_reason: str = "",
) -> pl.DataFrame:
    """The list of a fold method: ``rated`` (player_id, rating, margin) of everyone rated,
    ``games`` those before ``as_of``. Listed: rated or active; official: rated, active, and
    not ``provisional``."""
    window = games.filter(pl.col("date") >= months_before(as_of, ACTIVE_MONTHS))
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
            .then(pl.lit(f"inactive: no game in {ACTIVE_MONTHS} months"))
            .otherwise(pl.lit(provisional_reason))
        )
        .sort(["official", "rating", "player_id"], descending=[True, True, False], nulls_last=True)
        .with_columns(
            rank=pl.when(pl.col("official")).then(pl.int_range(1, pl.len() + 1)).otherwise(None)
        )
    )
    return listed.select(
        "rank", "player_id", "rating", "margin", "games", "official", "provisional_reason"
    )


def _before(data: MethodInput) -> pl.DataFrame:
    return data.games.filter(pl.col("date") < data.request.as_of)


def _fide(data: MethodInput) -> MethodOutput:
    """Monthly FIDE periods folded from the first game up to the as-of date.

    The ratings before a player's first period are the ones their earliest registration gave
    (an organiser's file states the published FIDE rating); everyone else starts unrated.
    """
    from ratings.fide import FideParams, rate_period

    params = FideParams()
    games = _before(data)
    players = data.players.select("player_id", "name", "country", "birth_year", "rating")
    periods = games.with_columns(pl.col("date").dt.truncate("1mo").alias("_period"))
    for (period,), chunk in periods.sort("_period").group_by("_period", maintain_order=True):
        assert isinstance(period, dt.date)
        players = rate_period(
            players, chunk.drop("_period"), period_start=period, params=params
        ).players
    rated = players.filter(pl.col("rating").is_not_null()).select(
        "player_id", "rating", pl.lit(None, dtype=pl.Float64).alias("margin")
    )
    listing = _activity_listing(
        rated,
        games,
        data.request.as_of,
        unrated="not rated yet (initial rating needs 5 games against rated players)",
    )
    return MethodOutput(listing, {"fide": params.model_dump(mode="json")})


def _egf(data: MethodInput) -> MethodOutput:
    """GoR folded over the events before the as-of date.

    Starting GoR: the earliest registration's rating, else its grade's value, else 20k (100).
    """
    from ratings.egf import EgfParams, rate_events, rating_from_grade

    params = EgfParams(start_rating=rating_from_grade("20k"))

    def grade_value(grade: str | None) -> float | None:
        try:
            return None if grade is None else rating_from_grade(grade)
        except ValueError:
            return None

    players = data.players.with_columns(
        pl.coalesce(
            "rating",
            pl.col("grade").map_elements(grade_value, return_dtype=pl.Float64),
        ).alias("rating")
    )
    games = _before(data)
    result = rate_events(players.select("player_id", "rating"), games, params)
    played = set(result.changes.get_column("player_id").to_list())
    rated = result.ratings.filter(pl.col("player_id").is_in(played)).select(
        "player_id", "rating", pl.lit(None, dtype=pl.Float64).alias("margin")
    )
    listing = _activity_listing(rated, games, data.request.as_of, unrated="no rated game")
    return MethodOutput(listing, {"egf": params.model_dump(mode="json")})


def _glicko2(data: MethodInput) -> MethodOutput:
    """Glicko-2 over periods of ``period_months`` months (dates moved to their period's
    first month, so the library's monthly grouping makes the longer periods)."""
    from ratings.glicko2 import Glicko2Params, Period, rate_periods

    params = Glicko2Params(period=Period.MONTH)
    n = data.request.period_months
    games = _before(data)
    index = pl.col("date").dt.year() * 12 + pl.col("date").dt.month() - 1
    start = (index // n) * n
    bucketed = games.with_columns(pl.date(start // 12, start % 12 + 1, 1).alias("date"))
    history = rate_periods(bucketed, params) if games.height else None
    if history is None or history.height == 0:
        rated = pl.DataFrame(
            schema={"player_id": pl.Utf8, "rating": pl.Float64, "margin": pl.Float64}
        )
    else:
        rated = (
            history.sort("period")
            .group_by("player_id")
            .agg(pl.col("rating").last(), pl.col("deviation").last().alias("margin"))
        )
    listing = _activity_listing(
        rated,
        games,
        data.request.as_of,
        unrated="no game",
        provisional=pl.col("margin") >= GLICKO2_PROVISIONAL_DEVIATION,
        provisional_reason=f"deviation not below {GLICKO2_PROVISIONAL_DEVIATION:g}",
    )
    return MethodOutput(listing, {"glicko2": params.model_dump(mode="json"), "period_months": n})


_METHODS: Mapping[Method, Callable[[MethodInput], MethodOutput]] = {
    Method.WOF: _wof,
    Method.FIDE: _fide,
    Method.EGF: _egf,
    Method.GLICKO2: _glicko2,
}


def _game(request: RunRequest) -> GameKind | None:
    """The game a request rates: its own, else the method's default."""
    return request.game if request.game is not None else DEFAULT_GAME[request.method]


def _only(games: pl.DataFrame, game: GameKind | None) -> pl.DataFrame:
    return games if game is None else games.filter(pl.col("game") == game.value)


def _compute(request: RunRequest, data: MethodInput) -> MethodOutput:
    # Multi-threaded BLAS makes the fits' small dot products 15-30x slower on a shared
    # machine (ratings.md §1.6); one thread is also what makes the sums reproducible.
    with threadpool_limits(limits=1, user_api="blas"):
        return _METHODS[request.method](data)


@dataclass(frozen=True, slots=True)
class Publication:
    """A ``RatingListPublished`` event as read back from the log."""

    position: int
    method: str
    as_of: dt.date
    as_of_position: int
    content_sha256: str
    players: int
    output: str


@dataclass(frozen=True)
class RunResult:
    request: RunRequest
    output: Path
    content_sha256: str
    as_of_position: int
    players: int
    official: int
    games: int
    previous: Publication | None
    diff_counts: dict[str, int]
    published: bool
    """False when the same list was already published (or on a dry run)."""
    notes: list[str] = field(default_factory=list)


# ------------------------------------------------------------------------------ log reads


def publications(store: Store, method: Method) -> list[Publication]:
    """The published lists of a method, in log order."""
    out = []
    for recorded in store.read_stream(STREAM_PREFIX + method.value):
        event = recorded.event
        if isinstance(event, RatingListPublished):
            out.append(
                Publication(
                    recorded.position,
                    event.method,
                    event.as_of,
                    event.as_of_position,
                    event.content_sha256,
                    event.players,
                    event.output,
                )
            )
    return out


def _latest_per_date(pubs: list[Publication], before: dt.date) -> list[Publication]:
    """The last publication of every as-of date earlier than ``before``, oldest first."""
    latest: dict[dt.date, Publication] = {}
    for p in pubs:
        if p.as_of < before:
            latest[p.as_of] = p
    return [latest[d] for d in sorted(latest)]


def read_published(pub: Publication) -> pl.DataFrame | None:
    """A published list from its folder, if its ``ratings.csv`` still has the published hash."""
    folder = Path(pub.output)
    try:
        if _sha256(folder.joinpath("ratings.csv").read_bytes()) != pub.content_sha256:
            return None
        return pl.read_parquet(folder / "ratings.parquet")
    except OSError:
        return None


def _tables(
    store: Store, cache: GamesCache, at_position: int | None
) -> tuple[pl.DataFrame, pl.DataFrame, int]:
    """(games, players, last log position they depend on)."""
    if at_position is None:
        report = cache.sync(store)
        return cache.games(), cache.players(), report.source_position
    events = store.read_frame().filter(pl.col("global_position") <= at_position)
    projection = project(events)
    relevant = projection.games.height + projection.registry.height
    position = 0
    if relevant:
        position = int(
            events.filter(
                pl.col("stream_id").str.starts_with("tournament-")
                | pl.col("stream_id").str.starts_with("player-")
            )
            .select(pl.col("global_position").max())
            .item()
        )
    games = projection.games.select(list(GAMES_SCHEMA))
    return games, players_table(projection.registrations, projection.registry), position


# ------------------------------------------------------------------------------ list shaping


def _shape(listing: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
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


def chart_file(player_id: str) -> str:
    """A player's chart file name: ``wof:123`` → ``wof-123.svg``; other characters escaped."""
    safe = re.sub(r"[^A-Za-z0-9.-]", lambda m: f"_{ord(m.group()):x}_", player_id.replace(":", "-"))
    return f"{safe}.svg"


# ------------------------------------------------------------------------------ writing


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write_atomic(path: Path, data: bytes) -> None:
    """Write through a temporary file in the same folder, then ``os.replace`` it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, _FILE_MODE)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


_FILE_MODE = 0o644


def write_folder_atomic(path: Path, files: Mapping[str, bytes]) -> None:
    """Replace the folder ``path`` by one holding exactly ``files``.

    The files go to a fresh temporary folder first (thousands of charts: one rename instead of
    one per file), which then takes the old folder's place.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent))
    try:
        for name, data in files.items():
            staging.joinpath(name).write_bytes(data)
        os.chmod(staging, 0o755)
        old = None
        if path.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".old", dir=path.parent))
            os.replace(path, old / path.name)
        os.replace(staging, path)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _csv(frame: pl.DataFrame) -> bytes:
    return frame.write_csv(include_header=True, line_terminator="\n").encode("utf-8")


def _parquet(frame: pl.DataFrame, metadata: dict[str, str], folder: Path) -> bytes:
    fd, tmp = tempfile.mkstemp(prefix=".ratings.", suffix=".parquet.tmp", dir=folder)
    os.close(fd)
    try:
        frame.write_parquet(tmp, compression="zstd", statistics=False, metadata=metadata)
        return Path(tmp).read_bytes()
    finally:
        Path(tmp).unlink(missing_ok=True)


def _histories(
    earlier: list[tuple[Publication, pl.DataFrame | None]], as_of: dt.date, current: pl.DataFrame
) -> tuple[dict[str, list[HistoryPoint]], list[str]]:
    """Every listed player's rating in the earlier published lists (as read back, None when
    unreadable) and in this one."""
    notes: list[str] = []
    points: dict[str, list[HistoryPoint]] = {}
    lists: list[tuple[dt.date, pl.DataFrame | None, Publication | None]] = [
        (p.as_of, frame, p) for p, frame in earlier
    ]
    lists.append((as_of, current, None))
    wanted = set(current.get_column("player_id").to_list())
    for date, frame, pub in lists:
        if frame is None:
            assert pub is not None
            notes.append(f"list of {date} not readable in {pub.output}; left out of the charts")
            continue
        rows = frame.filter(pl.col("rating").is_not_null() & pl.col("player_id").is_in(wanted))
        for pid, rating, margin in rows.select("player_id", "rating", "margin").iter_rows():
            points.setdefault(pid, []).append(
                HistoryPoint(date, float(rating), None if margin is None else float(margin))
            )
    return points, notes


def run_list(store: Store, cache: GamesCache, request: RunRequest) -> RunResult:
    """Compute, write and publish one list (see the module docstring).

    :raises RatingRunError: the method has no implementation in this build.
    """
    if request.method not in _METHODS:
        available = ", ".join(m.value for m in _METHODS)
        raise RatingRunError(
            f"method {request.method.value} is not available yet (available: {available})"
        )
    games, players, position = _tables(store, cache, request.at_position)
    game = _game(request)
    games = _only(games, game)
    computed = _compute(request, MethodInput(games, players, request))
    listing = _shape(computed.listing, players)

    pubs = publications(store, request.method)
    earlier = [(p, read_published(p)) for p in _latest_per_date(pubs, request.as_of)]
    previous, previous_list = earlier[-1] if earlier else (None, None)
    notes: list[str] = []
    if previous is not None and previous_list is None:
        previous_list = _reproduce(store, request, previous)
        notes.append(f"previous list ({previous.as_of}) recomputed from the log")
    diff = diff_lists(previous_list, listing)

    out = request.output
    out.mkdir(parents=True, exist_ok=True)
    csv = _csv(listing)
    digest = _sha256(csv)
    meta = {
        "method": request.method.value,
        "as_of": request.as_of.isoformat(),
        "as_of_position": str(position),
        "game": game.value if game is not None else "all",
        "content_sha256": digest,
        "parameters": json.dumps(computed.parameters, sort_keys=True),
    }
    histories, chart_notes = _histories(earlier, request.as_of, listing)
    notes += chart_notes
    write_folder_atomic(
        out / "charts",
        {chart_file(pid): history_svg(h, pid).encode() for pid, h in sorted(histories.items())},
    )
    write_atomic(out / "ratings.parquet", _parquet(listing, meta, out))
    write_atomic(out / "ratings.csv", csv)
    write_atomic(out / "diff.csv", _csv(diff))
    title = f"{request.method.value.upper()} rating list as of {request.as_of.isoformat()}"
    page = rating_list_html(
        title,
        listing,
        {
            "method": meta["method"],
            "results before": meta["as_of"],
            "log position": meta["as_of_position"],
            "sha256": digest[:16],
        },
        chart_href=lambda pid: "charts/" + chart_file(pid),
    )
    write_atomic(out / "index.html", page.encode("utf-8"))
    counts = {str(k): int(v) for k, v in diff.group_by("change").len().iter_rows()}
    manifest = {**meta, "players": listing.height, "diff": dict(sorted(counts.items()))}
    write_atomic(
        out / "manifest.json", (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode()
    )

    published = False
    if request.publish:
        published = _publish(store, request, digest, position, listing.height, computed, pubs)
    return RunResult(
        request=request,
        output=out,
        content_sha256=digest,
        as_of_position=position,
        players=listing.height,
        official=int(listing.get_column("official").sum()),
        games=games.filter(pl.col("date") < request.as_of).height,
        previous=previous,
        diff_counts=counts,
        published=published,
        notes=notes,
    )


def _reproduce(store: Store, request: RunRequest, pub: Publication) -> pl.DataFrame:
    games, players, _ = _tables(store, GamesCache(), pub.as_of_position)
    games = _only(games, _game(request))
    again = request.model_copy(update={"as_of": pub.as_of, "at_position": pub.as_of_position})
    return _shape(_compute(again, MethodInput(games, players, again)).listing, players)


def _publish(
    store: Store,
    request: RunRequest,
    digest: str,
    position: int,
    players: int,
    computed: MethodOutput,
    pubs: list[Publication],
) -> bool:
    output = str(request.output.resolve())
    for p in pubs:
        if (p.as_of, p.as_of_position, p.content_sha256, p.output) == (
            request.as_of, position, digest, output
        ):  # fmt: skip
            return False
    stream = STREAM_PREFIX + request.method.value
    event = RatingListPublished(
        method=request.method.value,
        as_of=request.as_of,
        as_of_position=position,
        content_sha256=digest,
        players=players,
        output=output,
        parameters=computed.parameters,
    )
    store.append(
        stream, [NewEvent(event, metadata={"job": "ratings"})], store.stream_version(stream)
    )
    return True


# ------------------------------------------------------------------------------ player view


class UnknownPlayer(NotFound):
    """A player id with no game in the log and no entry in any published list."""


@dataclass(frozen=True)
class PlayerReport:
    """A player's entries in a method's published lists, and their latest games."""

    player_id: str
    name: str | None
    country: str | None
    history: list[dict[str, JsonValue]]
    """One row per published list (oldest first) in which the player appears."""
    games: list[dict[str, JsonValue]]
    """The latest games, newest first, from the player's side."""
    games_total: int
    unreadable: list[str]

    def points(self) -> list[HistoryPoint]:
        return [
            HistoryPoint(
                dt.date.fromisoformat(str(r["as_of"])),
                float(r["rating"]),  # type: ignore[arg-type]
                None if r["margin"] is None else float(r["margin"]),  # type: ignore[arg-type]
            )
            for r in self.history
            if r["rating"] is not None
        ]

    def as_json(self) -> dict[str, JsonValue]:
        return {
            "player_id": self.player_id,
            "name": self.name,
            "country": self.country,
            "history": list(self.history),
            "games_total": self.games_total,
            "games": list(self.games),
            "unreadable_lists": list(self.unreadable),
        }


def player_report(
    store: Store, cache: GamesCache, method: Method, player_id: str, latest_games: int = 20
) -> PlayerReport:
    """History over the published lists of ``method``, and games, of one player.

    :raises UnknownPlayer: when neither the games table nor any list knows the id.
    """
    cache.sync(store)
    history: list[dict[str, JsonValue]] = []
    unreadable: list[str] = []
    for pub in _latest_per_date(publications(store, method), dt.date.max):
        frame = read_published(pub)
        if frame is None:
            unreadable.append(f"{pub.as_of} ({pub.output})")
            continue
        for row in frame.filter(pl.col("player_id") == player_id).iter_rows(named=True):
            history.append(
                {
                    "as_of": pub.as_of.isoformat(),
                    "rank": row["rank"],
                    "rating": row["rating"],
                    "margin": row["margin"],
                    "games": row["games"],
                    "official": row["official"],
                    "note": row["provisional_reason"],
                }
            )
    games = cache.games(full=True)
    mine = games.filter((pl.col("player_a") == player_id) | (pl.col("player_b") == player_id))
    first = pl.col("player_a") == player_id
    players = cache.players()
    rows = (
        mine.select(
            "date",
            "event",
            "round",
            pl.when(first).then(pl.col("player_b")).otherwise(pl.col("player_a")).alias("opponent"),
            pl.when(first)
            .then(pl.col("color_a"))
            .otherwise(pl.col("color_a").replace({"white": "black", "black": "white"}))
            .alias("colour"),
            pl.when(first).then(pl.col("score_a")).otherwise(1 - pl.col("score_a")).alias("score"),
        )
        .join(
            players.select(pl.col("player_id").alias("opponent"), pl.col("name").alias("opp_name")),
            on="opponent",
            how="left",
        )
        .sort(["date", "event", "round"], descending=True)
    )
    shown = rows if latest_games == 0 else rows.head(latest_games)
    me = players.filter(pl.col("player_id") == player_id)
    if mine.height == 0 and not history and me.height == 0:
        raise UnknownPlayer(
            f"unknown player '{player_id}': no game in the log and no {method.value} list "
            "entry (ids look like wof:123, egd:12345678, fide:1503014)"
        )
    return PlayerReport(
        player_id=player_id,
        name=me.item(0, "name") if me.height else None,
        country=me.item(0, "country") if me.height else None,
        history=history,
        games=[{**r, "date": r["date"].isoformat()} for r in shown.iter_rows(named=True)],
        games_total=mine.height,
        unreadable=unreadable,
    )


def demo_list(store: Store, out: Path, console: Console) -> None:
    """`arbiter demo`: the WOF list of the season's othello event, top rows on ``console``.

    The demo's events are small, so components of two players are rated (the federation's
    minimum is ten).
    """
    from rich.table import Table

    with GamesCache() as cache:
        cache.sync(store)
        games = cache.games().filter(pl.col("game") == GameKind.OTHELLO.value)
        if games.height == 0:
            return
        last = games.select(pl.col("date").max()).item()
        as_of = dt.date.fromisoformat(str(last)) + dt.timedelta(days=1)
        request = RunRequest(
            method=Method.WOF,
            as_of=as_of,
            output=out / "ratings-wof",
            wof=WofParams(min_component_size=2),
        )
        result = run_list(store, cache, request)
    listing = pl.read_csv(result.output / "ratings.csv")
    table = Table(title=f"WOF list as of {as_of} (othello, {result.games} games)")
    columns = ("rank", "name", "country", "rating", "margin", "games")
    for column in columns:
        table.add_column(column, justify="left" if column in {"name", "country"} else "right")
    for row in listing.head(10).iter_rows(named=True):
        table.add_row(*("" if row[c] is None else str(row[c]) for c in columns))
    console.print(table)
    console.print(f"rating list written to {result.output}/ (index.html, ratings.csv, diff.csv)")
