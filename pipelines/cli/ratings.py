"""`arbiter` commands for the ratings area; they register on the shared app when imported.

``ratings run`` computes and publishes a list, ``ratings show`` prints a player's history
and games (and can draw the history chart), ``schedule`` is the long-running bimonthly job.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import sys
from pathlib import Path
from typing import Annotated, Any

import polars as pl
import typer

from events.errors import UserError
from pipelines.cli.common import FormatOpt, err, open_store, store_url, user_errors
from pipelines.views.output import Format, emit
from ratings.games import GameKind
from ratings.methods import Method, RatingType

app = typer.Typer()
"""This module's commands (`pipelines.cli` loads it when one of them is run)."""

ratings_app = typer.Typer(help="Rating lists: compute, publish, inspect.", no_args_is_help=True)
app.add_typer(ratings_app, name="ratings")


class OptionError(UserError):
    """A command-line value that cannot be used."""


def _date(option: str, text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise OptionError(f"{option}: found '{text}', expected a date YYYY-MM-DD") from None


def _period_end(text: str) -> dt.date:
    """``--period 2025-01``: the list of results dated in or before January 2025."""
    try:
        year, month = (int(x) for x in text.split("-"))
        first = dt.date(year, month, 1)
    except ValueError:
        raise OptionError(f"--period: found '{text}', expected a month YYYY-MM") from None
    return dt.date(first.year + first.month // 12, first.month % 12 + 1, 1)


@ratings_app.command("run")
@user_errors
def ratings_run(
    output: Annotated[Path, typer.Option("--output", "-o", help="Folder for the list's files.")],
    method: Annotated[Method, typer.Option(help="Rating method.", case_sensitive=False)] = (
        Method.WOF
    ),
    as_of: Annotated[
        str | None,
        typer.Option(help="Calculation date YYYY-MM-DD: results dated before it count."),
    ] = None,
    period: Annotated[
        str | None, typer.Option(help="Rating period YYYY-MM (instead of --as-of).")
    ] = None,
    period_months: Annotated[
        int, typer.Option(min=1, max=12, help="Glicko-2: months per rating period.")
    ] = 1,
    game: Annotated[
        GameKind | None,
        typer.Option(
            help="The game to rate: wof rates othello, fide chess, egf go; glicko2 rates the "
            "game given here (default: the only game the log has).",
            case_sensitive=False,
        ),
    ] = None,
    rating_type: Annotated[
        RatingType | None,
        typer.Option(
            help="FIDE: the list's rating type; only tournaments rated for it count "
            "(default standard).",
            case_sensitive=False,
        ),
    ] = None,
    at_position: Annotated[
        int | None,
        typer.Option(min=0, help="Reproduce: read the log only up to this position."),
    ] = None,
    publish: Annotated[
        bool, typer.Option(help="Append RatingListPublished to the log (--no-publish: files only).")
    ] = True,
    late: Annotated[
        list[str] | None,
        typer.Option(
            help="FIDE from imported lists: a tournament reported late (repeat), rated on "
            "this list though it ended before the previous list and was recorded before it "
            "(one recorded after it is found late without this).",
        ),
    ] = None,
    not_late: Annotated[
        list[str] | None,
        typer.Option(
            help="FIDE from imported lists: a tournament recorded after the previous list "
            "that the list already took (repeat): not rated late.",
        ),
    ] = None,
    fmt: FormatOpt = Format.TEXT,
) -> None:
    """Compute a rating list of one game (FIDE: of one rating type) and publish it.

    FIDE, once a FIDE list is imported (ratings import): --as-of is the new list's date (the
    1st of a month); the run updates the latest imported list before it, rating each
    tournament in the month after it ended from the list in force when it started, and also
    writes changes.csv, tournaments.csv and games.csv (Ro, opponents' ratings used, W, We, K
    and the change per player, event and game) and fide.xml (the new list in FIDE's XML
    layout). A tournament that ended before the updated list and was recorded after that list
    was imported is rated late, on this list (named on stderr and in tournaments.csv);
    --late and --not-late override.

    Writes ratings.csv/.parquet, index.html, diff.csv (against the previous list of the same
    kind) and people.csv (players without a federation id counted as one person across
    tournaments, or left apart as ambiguous; the ambiguous ones are also printed).
    """
    from pipelines.jobs.ratings import RunRequest, run_list
    from projections.games import GamesCache

    if (as_of is None) == (period is None):
        raise OptionError("give exactly one of --as-of YYYY-MM-DD and --period YYYY-MM")
    date = _date("--as-of", as_of) if as_of is not None else _period_end(str(period))
    request = RunRequest(
        method=method,
        as_of=date,
        output=output,
        game=game,
        rating_type=rating_type,
        period_months=period_months,
        at_position=at_position,
        publish=publish,
        late=tuple(late or ()),
        not_late=tuple(not_late or ()),
    )
    with open_store() as store, GamesCache.for_store(store) as cache:
        result = run_list(store, cache, request)
    people = result.people
    summary: dict[str, Any] = {
        "method": method.value,
        "list": result.kind.name,
        "game": result.kind.game.value if result.kind.game is not None else None,
        "rating_type": result.kind.rating_type.value if result.kind.rating_type else None,
        "as_of": date.isoformat(),
        "output": str(result.output),
        "players": result.players,
        "official": result.official,
        "games": result.games,
        "as_of_position": result.as_of_position,
        "content_sha256": result.content_sha256,
        "previous": result.previous.as_of.isoformat() if result.previous else None,
        "compared_with": result.compared_with,
        "rated_late": [
            {"event": r.event, "ended": r.end.isoformat(), "reason": r.reason} for r in result.late
        ],
        "diff": result.diff_counts,
        "published": result.published,
        "people": {
            "merged": people.filter(pl.col("status") == "merged").to_dicts(),
            "ambiguous": people.filter(pl.col("status") == "ambiguous").to_dicts(),
        },
        "notes": result.notes,
    }
    if fmt is Format.JSON:
        sys.stdout.write(json.dumps(summary, indent=2) + "\n")
        return
    for note in result.notes:
        err.print(f"note: {note}", markup=False)
    for report in result.late:
        why = "recorded after the list" if report.reason == "log" else "--late"
        err.print(f"rated late: {report.event}, ended {report.end} ({why})", markup=False)
    ambiguous = summary["people"]["ambiguous"]
    for row in ambiguous:
        err.print(
            f"ambiguous: {row['player_id']} '{row['name']}' ({row['country'] or 'no federation'}"
            f", born {row['birth_year'] or '?'}) may be {row['candidates']}: {row['reason']}; "
            "kept apart",
            markup=False,
        )
    status = "published" if result.published else "written (already published or --no-publish)"
    diff = ", ".join(f"{v} {k}" for k, v in sorted(result.diff_counts.items())) or "no changes"
    merged = len(summary["people"]["merged"])
    identity = (
        f"; players without a federation id: {merged} merged, {len(ambiguous)} ambiguous "
        "(people.csv)"
        if merged or ambiguous
        else ""
    )
    err.print(
        f"{result.kind.title} list as of {date}: {result.players} players ({result.official} "
        f"official) from {result.games} games at log position {result.as_of_position}; "
        f"vs {result.compared_with or 'no previous list'}: {diff}; {status}{identity}",
        markup=False,
    )
    sys.stdout.write(f"{result.output}\n")


@ratings_app.command("show")
@user_errors
def ratings_show(
    player: Annotated[
        str,
        typer.Argument(
            help="A player id (fide:1503014, egd:12345678, wof:123), a federation id alone, "
            "or part of a name (case and accents ignored)."
        ),
    ],
    method: Annotated[Method, typer.Option(help="Rating method.", case_sensitive=False)] = (
        Method.WOF
    ),
    game: Annotated[
        GameKind | None,
        typer.Option(help="Glicko-2: the game of the list.", case_sensitive=False),
    ] = None,
    rating_type: Annotated[
        RatingType | None,
        typer.Option(help="FIDE: the list's rating type (default standard).", case_sensitive=False),
    ] = None,
    games: Annotated[int, typer.Option(min=0, help="Latest games to show (0: all).")] = 20,
    chart: Annotated[
        Path | None, typer.Option(help="Write the rating-history chart here (SVG).")
    ] = None,
    fmt: FormatOpt = Format.TEXT,
) -> None:
    """A player's rating in every published list of a method, margin, and latest games.

    Several players match a name: they are listed (id, name, country, birth year, games);
    run again with one of the ids.
    """
    from pipelines.process.files import write_atomic
    from pipelines.views.rating_player import find, player_report
    from projections.charts import history_svg
    from projections.games import GamesCache

    with open_store() as store, GamesCache.for_store(store) as cache:
        found = find(store, cache, player, method, game, rating_type)
        if found.hits.height > 1:
            _print_matches(player, found.hits, fmt)
            return
        pid = str(found.hits.item(0, "player_id"))
        report = player_report(
            store, cache, found.kind.name, pid, games, aliases=found.aliases.get(pid, frozenset())
        )
    if chart is not None:
        title = f"{pid} ({found.kind.title})"
        write_atomic(chart, history_svg(report.points(), title).encode())
        err.print(f"chart written to {chart}", markup=False)
    if fmt is Format.JSON:
        sys.stdout.write(json.dumps(report.as_json(), indent=2, ensure_ascii=False) + "\n")
        return
    if fmt is Format.CSV:
        emit(report.history, fmt)
        return
    sys.stdout.write(f"{pid}  {report.name or ''}  {report.country or ''}".rstrip() + "\n")
    if report.aliases:
        sys.stdout.write(f"also registered as {', '.join(report.aliases)}\n")
    sys.stdout.write(f"\n{found.kind.name} lists:\n")
    emit(report.history, Format.TEXT)
    sys.stdout.write(f"\ngames ({report.games_total} in the log; latest {len(report.games)}):\n")
    emit(report.games, Format.TEXT)
    if report.events:
        sys.stdout.write("\nevents rated (FIDE's calculation; opponents: their ratings used):\n")
        emit([{k: v for k, v in e.items() if k != "rated_games"} for e in report.events], fmt)
    if report.periods:
        sys.stdout.write("\nperiods (the change: K·Σ(W − We) rounded once):\n")
        emit(report.periods, fmt)


@ratings_app.command("import")
@user_errors
def ratings_import(
    file: Annotated[Path, typer.Argument(help="The list file (FIDE XML/TXT, EGD, AGA, CSV).")],
    date: Annotated[
        str | None,
        typer.Option(help="The list's date YYYY-MM-DD (default: the date the file states)."),
    ] = None,
    list_name: Annotated[
        str | None,
        typer.Option("--list", help="The list's name (a national CSV: NOR-elo)."),
    ] = None,
    skip_bad_lines: Annotated[
        bool, typer.Option(help="List the bad rows on stderr and import the others.")
    ] = False,
    replace: Annotated[
        bool, typer.Option(help="Replace a list of the same name and date from another file.")
    ] = False,
) -> None:
    """Import a published rating list: FIDE's XML or TXT list, the EGD's, the AGA's TD list,
    or a national CSV (id,name,federation,rating,...).

    The format is read from the file. A bad row refuses the file (one line FILE:LINE:COL) and
    nothing is imported, unless --skip-bad-lines. Importing the same file again changes
    nothing.
    """
    from pipelines.jobs.rating_lists import ImportRequest, import_list

    request = ImportRequest(
        path=file,
        list_name=list_name,
        date=_date("--date", date) if date is not None else None,
        skip_bad_lines=skip_bad_lines,
        replace=replace,
    )
    size = file.stat().st_size if file.is_file() else 0
    shown = [0]

    def progress(done: int) -> None:
        tenth = done * 10 // size if size else 10
        if tenth > shown[0] and tenth < 10:
            shown[0] = tenth
            err.print(f"{file.name}: {tenth * 10}% read", markup=False)

    with open_store() as store:
        outcome = import_list(store, request, progress if size > 32 * 2**20 else None)
    for skipped in outcome.skipped:
        err.print(f"skipped: {skipped}", markup=False)
    for one in outcome.lists:
        if one.status == "unchanged":
            line = f"{one.name} {one.date}: already imported from this file, nothing changed"
        else:
            line = f"{one.name} {one.date}: {one.players} players {one.status}"
        sys.stdout.write(line + "\n")
    skipped_note = f", {len(outcome.skipped)} rows skipped" if outcome.skipped else ""
    err.print(
        f"{outcome.source}: {outcome.format}, date from {outcome.date_source}, sha256 "
        f"{outcome.sha256[:12]}{skipped_note}",
        markup=False,
    )


@ratings_app.command("lists")
@user_errors
def ratings_lists(fmt: FormatOpt = Format.TEXT) -> None:
    """The imported rating lists: name, date, kind, players, source file and its sha256."""
    from events.imported_lists import current_imports

    with open_store() as store:
        imports = current_imports(store)
    rows = [
        {
            "list": i.list_name,
            "date": i.list_date.isoformat(),
            "kind": i.kind.value,
            "players": i.players,
            "skipped": i.skipped,
            "source": i.source,
            "format": i.source_format,
            "sha256": i.source_sha256 if fmt is not Format.TEXT else i.source_sha256[:16],
        }
        for i in imports
    ]
    if fmt is Format.JSON:
        sys.stdout.write(json.dumps(rows, indent=2) + "\n")
        return
    emit(rows, fmt)


def _print_matches(query: str, hits: pl.DataFrame, fmt: Format) -> None:
    rows = hits.select("player_id", "name", "country", "birth_year", "games").to_dicts()
    if fmt is Format.JSON:
        sys.stdout.write(json.dumps({"query": query, "matches": rows}, indent=2) + "\n")
        return
    emit(rows, fmt)
    err.print(f"{len(rows)} players match '{query}': run again with one of their ids", markup=False)


@app.command("schedule")
@user_errors
def schedule(
    config: Annotated[
        Path | None, typer.Option(help="TOML file with a [schedule] table (options override).")
    ] = None,
    inbox: Annotated[
        Path | None, typer.Option(help="Folder of result files ingested before every run.")
    ] = None,
    output_root: Annotated[
        Path | None, typer.Option(help="Lists go to <root>/<method>-<date> (default lists/).")
    ] = None,
    methods: Annotated[
        list[Method] | None,
        typer.Option("--method", case_sensitive=False, help="Method to run (repeat; default wof)."),
    ] = None,
    timezone: Annotated[str | None, typer.Option(help="Time zone, e.g. Europe/Paris.")] = None,
    cron: Annotated[
        str | None,
        typer.Option(
            help="Crontab fields 'min hour day month weekday' (default '30 3 1 1-11/2 *')."
        ),
    ] = None,
    once: Annotated[
        bool, typer.Option(help="Run what is due or missed, then exit (for cron/systemd timers).")
    ] = False,
) -> None:
    """Run the rating lists on a schedule (default 03:30 on the 1st of odd months).

    On start, a list whose due date passed without a publication runs once.
    """
    from pipelines.jobs.scheduler import (
        ScheduleConfig,
        build_scheduler,
        catch_up,
        run_until_interrupted,
    )

    overrides: dict[str, Any] = {
        "store": store_url(),
        "inbox": inbox,
        "output_root": output_root,
        "methods": tuple(methods) if methods else None,
        "timezone": timezone,
        "cron": cron,
    }
    if config is not None:
        settings = ScheduleConfig.from_toml(config, **overrides)
    else:
        settings = ScheduleConfig.from_options(**{k: v for k, v in overrides.items() if v})
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    for result in catch_up(settings, dt.datetime.now(settings.zone)):
        err.print(f"caught up: {result.output} ({result.players} players)", markup=False)
    if once:
        return
    scheduler = build_scheduler(settings)
    err.print(
        f"scheduler started ({settings.cron}, {settings.timezone}); Ctrl-C to stop", markup=False
    )
    run_until_interrupted(scheduler)  # Ctrl-C: "interrupted", exit 130 (pipelines.process.exits)
