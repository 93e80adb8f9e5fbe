"""The rating-list run: a method as of a date over the games table, written, diffed, published.

One run reads the games table (the materialised projection, brought up to the end of the log,
or a fresh projection of the log up to ``at_position`` to reproduce an old list), computes the
list with the method's pure function, and writes the output folder, built as a
staging folder beside it that takes its place in one rename:

* ``ratings.csv`` and ``ratings.parquet`` (Parquet key-value metadata: method, as-of date, log
  position, parameters): rank, player_id, name, country, rating, margin, games, official,
  provisional_reason;
* ``diff.csv`` against the previous published list of the same kind (new, dropped, movers);
* ``people.csv``: players without a federation id merged into one person across tournaments,
  or left apart as ambiguous (:mod:`ratings.identity`);
* ``index.html`` (searchable, sortable, filter by country) linking every player to
  ``charts/<player>.svg``, the rating history over the published lists;
* ``manifest.json``.

Then it appends ``RatingListPublished`` to stream ``ratinglist-<kind>`` (``wof``, ``fide``,
``fide-rapid``, ``glicko2-go``, ...: :attr:`ratings.lists.ListKind.name`) with the sha256 of
``ratings.csv`` and the last log position the list depends on. Nothing in the files depends on
the clock, so the same as-of date on the same log gives the same bytes.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import polars as pl
from pydantic import BaseModel, ConfigDict, Field
from threadpoolctl import threadpool_limits

from events.chain import ChainHead
from events.provenance import current_origin
from events.schema import TOURNAMENT_STREAM, RatingListPublished
from events.store import NewEvent, Store
from pipelines.jobs.fide_list_xml import fide_txt_parts, fide_xml_parts
from pipelines.jobs.fide_lists import (
    FrameGames,
    FromLists,
    GamesSource,
    list_diff,
    manifest_extra,
    played_ids,
    run_from_lists,
    write_audit,
)
from pipelines.jobs.list_folders import STREAM_PREFIX, manifest_publication, reconcile_all
from pipelines.process.crashpoints import crash_point
from pipelines.process.files import folder_swap, write_new_files
from projections.charts import HistoryPoint, history_svg
from projections.csv_safe import neutralise_frame
from projections.games import GamesCache, players_table, project
from projections.rating_list_html import rating_list_html
from ratings.games import GameKind
from ratings.glicko2 import Glicko2ListParams
from ratings.late_reports import LateReport
from ratings.listing import diff_lists, shape
from ratings.lists import (
    ComputedList,
    ListKind,
    ListParams,
    ListRequestError,
    compute_list,
    list_kind,
    method_games,
)
from ratings.methods import Method, RatingType
from ratings.wof import WofParams

if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "Publication",
    "RunRequest",
    "RunResult",
    "publications",
    "run_list",
]


class RunRequest(BaseModel):
    """What to compute and where to write it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    method: Method
    as_of: dt.date
    """Calculation date: the list uses results dated before it."""
    output: Path
    game: GameKind | None = None
    """The game to rate: WOF othello, FIDE chess, EGF go; Glicko-2 any one (default: the only
    game the log has results of). See :func:`ratings.lists.list_kind`."""
    rating_type: RatingType | None = None
    """FIDE: the list's rating type (default standard); a tournament is rated in one."""
    period_months: int = Field(1, ge=1, le=12)
    """Glicko-2: months per rating period."""
    at_position: int | None = Field(None, ge=0)
    """Reproduce: read the log only up to this position (else: the whole log)."""
    publish: bool = True
    """Append ``RatingListPublished`` (a dry run writes the files only)."""
    wof: WofParams = WofParams()
    """Parameters of the WOF method (defaults: the federation's, ratings.md §1.2)."""
    late: tuple[str, ...] = ()
    """FIDE from imported lists: tournaments rated late, on the first list of the run, though
    they ended before its period and were recorded before the list it updates (the log finds
    the others: :func:`ratings.late_reports.late_reports`)."""
    not_late: tuple[str, ...] = ()
    """FIDE from imported lists: tournaments recorded after the list the run updates though
    that list took them (never rated late)."""


def request_kind(request: RunRequest, games: pl.DataFrame | None) -> ListKind:
    """The list a request asks for, over the games table ``games`` (None: a method of one
    game, FIDE's, that needs no table to know it).

    :raises ListRequestError: see :func:`ratings.lists.list_kind`.
    """
    present = games.get_column("game").unique().to_list() if games is not None else []
    return list_kind(request.method, request.game, request.rating_type, present)


def _params(request: RunRequest) -> ListParams:
    return ListParams(
        wof=request.wof, glicko2=Glicko2ListParams(period_months=request.period_months)
    )


def _compute(
    request: RunRequest, kind: ListKind, games: pl.DataFrame, players: pl.DataFrame
) -> ComputedList:
    # Multi-threaded BLAS makes the fits' small dot products 15-30x slower on a shared
    # machine (ratings.md §1.6); one thread is also what makes the sums reproducible.
    with threadpool_limits(limits=1, user_api="blas"):
        return compute_list(kind, games, players, request.as_of, _params(request))


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
    kind: ListKind
    output: Path
    content_sha256: str
    as_of_position: int
    players: int
    official: int
    games: int
    previous: Publication | None
    diff_counts: dict[str, int]
    compared_with: str | None
    """What ``diff.csv`` compares the list with: the previous published list's date, or the
    imported list the run updated (None: nothing)."""
    published: bool
    """False when the same list was already published (or on a dry run)."""
    people: pl.DataFrame
    """Players without a federation id merged into one person, or left apart as ambiguous
    (:data:`ratings.identity.REPORT_SCHEMA`; also written to ``people.csv``)."""
    notes: list[str] = field(default_factory=list)
    late: tuple[LateReport, ...] = ()
    """FIDE from imported lists: the tournaments rated late."""


# ------------------------------------------------------------------------------ log reads


def publications(store: Store, name: str) -> list[Publication]:
    """The published lists of one kind (:attr:`ListKind.name`, e.g. ``wof``, ``fide-rapid``;
    a :class:`Method` names its standard list), in log order."""
    out = []
    for recorded in store.read_stream(STREAM_PREFIX + str(name)):
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


def latest_per_date(pubs: list[Publication], before: dt.date) -> list[Publication]:
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


class _Games(GamesSource, Protocol):
    """The games of a run: the whole table, or (a FIDE run from imported lists) only those
    of the tournaments it may rate."""

    def all(self) -> pl.DataFrame: ...


@dataclass(frozen=True)
class _CachedGames:
    """The games cache as `_Games`: a FIDE list reads the table with its rating_type column
    (the wide table: with the log columns)."""

    cache: GamesCache
    full: bool

    def all(self) -> pl.DataFrame:
        return self.cache.games(full=self.full)

    def tournaments(self, before: dt.date) -> pl.DataFrame:
        return self.cache.tournaments(before)

    def games_of(self, events: Sequence[str], before: dt.date) -> pl.DataFrame:
        return self.cache.games_of(events, before)


def _tables(
    store: Store, cache: GamesCache, request: RunRequest, at_position: int | None
) -> tuple[_Games, pl.DataFrame, int]:
    """(games, players, last log position they depend on): the games read when asked."""
    if at_position is None:
        report = cache.sync(store)
        games = _CachedGames(cache, full=request.method is Method.FIDE)
        return games, cache.players(), report.source_position
    events = store.read_frame().filter(pl.col("global_position") <= at_position)
    projection = project(events)
    relevant = projection.games.height + projection.registry.height
    position = 0
    if relevant:
        position = int(
            events.filter(
                pl.col("stream_id").str.starts_with(TOURNAMENT_STREAM)
                | pl.col("stream_id").str.starts_with("player-")
            )
            .select(pl.col("global_position").max())
            .item()
        )
    players = players_table(projection.registrations, projection.registry)
    return FrameGames(projection.games), players, position


# ------------------------------------------------------------------------------ writing


_PLAIN_ID = re.compile(r"[A-Za-z0-9.:-]*")


def chart_file(player_id: str) -> str:
    """A player's chart file name: ``wof:123`` → ``wof-123.svg``; other characters escaped."""
    if _PLAIN_ID.fullmatch(player_id):  # nothing to escape: a hundred thousand charts
        return f"{player_id.replace(':', '-')}.svg"
    safe = re.sub(r"[^A-Za-z0-9.-]", lambda m: f"_{ord(m.group()):x}_", player_id.replace(":", "-"))
    return f"{safe}.svg"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _csv(frame: pl.DataFrame) -> bytes:
    """A frame as CSV, its text cells safe in a spreadsheet (:mod:`projections.csv_safe`)."""
    csv = neutralise_frame(frame).write_csv(include_header=True, line_terminator="\n")
    return csv.encode("utf-8")


def _parquet(frame: pl.DataFrame, metadata: dict[str, str], folder: Path) -> bytes:
    fd, tmp = tempfile.mkstemp(prefix=".ratings.", suffix=".parquet.tmp", dir=folder)
    os.close(fd)
    try:
        # The row groups follow the frame's chunks: one chunk, the same file however the frame
        # was made (a lazy query's result comes in parts).
        frame.rechunk().write_parquet(tmp, compression="zstd", statistics=False, metadata=metadata)
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


def _write_files(
    out: Path,
    request: RunRequest,
    kind: ListKind,
    listing: pl.DataFrame,
    people: pl.DataFrame,
    diff: pl.DataFrame,
    meta: dict[str, str],
    histories: dict[str, list[HistoryPoint]],
    counts: dict[str, int],
    chain: ChainHead | None = None,
    from_lists: FromLists | None = None,
    publication: RatingListPublished | None = None,
    listing_csv: bytes | None = None,
) -> None:
    """The list's folder: charts, ratings.parquet/.csv (``listing_csv``: its bytes, when the
    caller made them already), diff.csv, index.html, manifest.json.

    Built in a staging folder beside ``out`` and swapped in with one rename
    (:func:`pipelines.process.files.folder_swap`): a reader, or the next run after a kill, finds the
    old list or the new one, never a mix of two.
    """
    with folder_swap(out) as staging:
        crash_point("list:staging")
        charts = staging / "charts"
        charts.mkdir()
        write_new_files(
            charts,
            (
                (chart_file(pid), history_svg(history, pid).encode())
                for pid, history in sorted(histories.items())
            ),
        )
        crash_point("list:charts")
        staging.joinpath("ratings.parquet").write_bytes(_parquet(listing, meta, staging))
        crash_point("list:parquet")
        staging.joinpath("ratings.csv").write_bytes(
            listing_csv if listing_csv is not None else _csv(listing)
        )
        crash_point("list:csv")
        staging.joinpath("diff.csv").write_bytes(_csv(diff))
        staging.joinpath("people.csv").write_bytes(_csv(people))
        if from_lists is not None:
            write_audit(staging, from_lists)
            with staging.joinpath("fide.xml").open("wb") as xml:
                for part in fide_xml_parts(from_lists.identity, kind.rating_type):
                    xml.write(part)
            with staging.joinpath("fide.txt").open("wb") as txt:
                for part in fide_txt_parts(from_lists.identity, kind.rating_type):
                    txt.write(part)
        crash_point("list:diff")
        title = f"{kind.title} rating list as of {request.as_of.isoformat()}"
        if from_lists is not None:
            title += f" (the {len(histories)} players rated in the period)"
        page = rating_list_html(
            title,
            listing
            if from_lists is None
            else listing.filter(pl.col("player_id").is_in(list(histories))),
            {
                "method": meta["method"],
                "results before": meta["as_of"],
                "log position": meta["as_of_position"],
                "sha256": meta["content_sha256"][:16],
            },
            chart_href=lambda pid: "charts/" + chart_file(pid),
        )
        staging.joinpath("index.html").write_bytes(page.encode("utf-8"))
        crash_point("list:html")
        manifest: dict[str, object] = {
            **meta,
            "players": listing.height,
            "diff": dict(sorted(counts.items())),
        }
        if from_lists is not None:
            manifest.update(manifest_extra(from_lists))
        if chain is not None:  # not in the parquet: the same log on two backends differs here
            manifest["log_chain_head"] = chain.as_json()
        if publication is not None:  # what the log gets next (`pipelines.jobs.list_folders`)
            manifest["publication"] = manifest_publication(STREAM_PREFIX + kind.name, publication)
        staging.joinpath("manifest.json").write_bytes(
            (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode()
        )
        crash_point("list:manifest")
    crash_point("list:swapped")


def run_list(store: Store, cache: GamesCache, request: RunRequest) -> RunResult:
    """Compute, write and publish one list (see the module docstring).

    :raises ListRequestError: a game or rating type the method does not rate.
    """
    notes: list[str] = [
        f"{d.folder}: the list a killed run had swapped in is now recorded as published"
        for d in reconcile_all(store, request.output)
    ]
    source, players, position = _tables(store, cache, request, request.at_position)
    # A FIDE run from imported lists reads only the games of the tournaments it may rate.
    games = None if request.method is Method.FIDE else source.all()
    kind = request_kind(request, games)
    from_lists = None
    pubs = publications(store, kind.name)
    if kind.method is Method.FIDE:
        published: dict[dt.date, list[int]] = {}
        for p in pubs:
            published.setdefault(p.as_of, []).append(p.position)
        from_lists = run_from_lists(
            store,
            kind,
            source,
            players,
            as_of=request.as_of,
            at_position=request.at_position,
            late=request.late,
            not_late=request.not_late,
            published=published,
        )
    for option, names in (("late", request.late), ("not_late", request.not_late)):
        if names and from_lists is None:
            raise ListRequestError.naming(
                "{0}: only a FIDE list computed from imported FIDE lists rates late events",
                option,
            )
    if from_lists is None:
        games = source.all() if games is None else games
        computed = _compute(request, kind, games, players)
        listing = shape(computed.listing, players)
    else:
        computed, listing = from_lists.computed, from_lists.listing
        notes += from_lists.notes

    earlier = [(p, read_published(p)) for p in latest_per_date(pubs, request.as_of)]
    previous, previous_list = earlier[-1] if earlier else (None, None)
    compared_with = previous.as_of.isoformat() if previous is not None else None
    if from_lists is not None:
        diff = list_diff(from_lists)  # against the official list the run updated
        compared_with = f"the imported list of {from_lists.updated.isoformat()}"
    else:
        if previous is not None and previous_list is None:
            previous_list = _reproduce(store, request, kind, previous)
            notes.append(f"previous list ({previous.as_of}) recomputed from the log")
        diff = diff_lists(previous_list, listing)

    out = request.output
    listing_csv = _csv(listing)
    digest = _sha256(listing_csv)
    meta = {
        "method": request.method.value,
        "as_of": request.as_of.isoformat(),
        "as_of_position": str(position),
        "game": kind.game.value if kind.game is not None else "none",
        "content_sha256": digest,
        "parameters": json.dumps(computed.parameters, sort_keys=True),
    }
    if kind.rating_type is not None:
        meta["rating_type"] = kind.rating_type.value
    charted = listing
    if from_lists is not None:  # a list of a million players: charts of those who played
        charted = listing.filter(pl.col("player_id").is_in(list(played_ids(from_lists))))
    histories, chart_notes = _histories(earlier, request.as_of, charted)
    notes += chart_notes
    counts = {str(k): int(v) for k, v in diff.group_by("change").len().iter_rows()}
    head = store.chain_at(position)
    event = _event(request, digest, position, listing.height, computed)
    _write_files(
        out, request, kind, listing, computed.people, diff, meta, histories, counts, head,
        from_lists, event if request.publish else None, listing_csv,
    )  # fmt: skip
    was_published = request.publish and not _published(store, kind, event)
    if was_published:
        _publish(store, kind, event)
    return RunResult(
        request=request,
        kind=kind,
        output=out,
        content_sha256=digest,
        as_of_position=position,
        players=listing.height,
        official=int(listing.get_column("official").sum()),
        games=(
            from_lists.games
            if from_lists is not None
            else method_games(source.all() if games is None else games, kind)
            .filter(pl.col("date") < request.as_of)
            .height
        ),
        previous=previous,
        diff_counts=counts,
        compared_with=compared_with,
        published=was_published,
        people=computed.people,
        notes=notes,
        late=from_lists.late if from_lists is not None else (),
    )


def _reproduce(store: Store, request: RunRequest, kind: ListKind, pub: Publication) -> pl.DataFrame:
    source, players, _ = _tables(store, GamesCache(), request, pub.as_of_position)
    games = source.all()
    again = request.model_copy(update={"as_of": pub.as_of, "at_position": pub.as_of_position})
    return shape(_compute(again, kind, games, players).listing, players)


def _event(
    request: RunRequest, digest: str, position: int, players: int, computed: ComputedList
) -> RatingListPublished:
    """The ``RatingListPublished`` a run appends (and announces in its manifest first)."""
    return RatingListPublished(
        method=request.method.value,
        as_of=request.as_of,
        as_of_position=position,
        content_sha256=digest,
        players=players,
        output=str(request.output.resolve()),
        parameters=computed.parameters,
    )


def _published(store: Store, kind: ListKind, event: RatingListPublished) -> bool:
    """Whether the log holds this very list, published to the same folder already."""
    return any(
        (p.as_of, p.as_of_position, p.content_sha256, p.output)
        == (event.as_of, event.as_of_position, event.content_sha256, event.output)
        for p in publications(store, kind.name)
    )


def _publish(store: Store, kind: ListKind, event: RatingListPublished) -> None:
    stream = STREAM_PREFIX + kind.name
    store.append(
        stream,
        [NewEvent(event, metadata=current_origin().metadata(job="ratings"))],
        store.stream_version(stream),
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
