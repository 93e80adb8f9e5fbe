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

import typer

from events.errors import UserError
from pipelines.cli_common import FormatOpt, app, err, open_store, user_errors
from pipelines.output import Format, emit
from pipelines.rating_methods import Method
from ratings.games import GameKind

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
        GameKind | None, typer.Option(help="Only this game's results (default: the method's).")
    ] = None,
    at_position: Annotated[
        int | None,
        typer.Option(min=0, help="Reproduce: read the log only up to this position."),
    ] = None,
    publish: Annotated[
        bool, typer.Option(help="Append RatingListPublished to the log (--no-publish: files only).")
    ] = True,
    fmt: FormatOpt = Format.TEXT,
) -> None:
    """Compute a rating list, write ratings.csv/.parquet, index.html and diff.csv, publish it."""
    from pipelines.ratings_job import RunRequest, run_list
    from projections.games import GamesCache, cache_path_for

    if (as_of is None) == (period is None):
        raise OptionError("give exactly one of --as-of YYYY-MM-DD and --period YYYY-MM")
    date = _date("--as-of", as_of) if as_of is not None else _period_end(str(period))
    request = RunRequest(
        method=method,
        as_of=date,
        output=output,
        game=game,
        period_months=period_months,
        at_position=at_position,
        publish=publish,
    )
    with open_store() as store, GamesCache(cache_path_for(store.path)) as cache:
        result = run_list(store, cache, request)
    summary: dict[str, Any] = {
        "method": method.value,
        "as_of": date.isoformat(),
        "output": str(result.output),
        "players": result.players,
        "official": result.official,
        "games": result.games,
        "as_of_position": result.as_of_position,
        "content_sha256": result.content_sha256,
        "previous": result.previous.as_of.isoformat() if result.previous else None,
        "diff": result.diff_counts,
        "published": result.published,
        "notes": result.notes,
    }
    if fmt is Format.JSON:
        sys.stdout.write(json.dumps(summary, indent=2) + "\n")
        return
    for note in result.notes:
        err.print(f"note: {note}", markup=False)
    status = "published" if result.published else "written (already published or --no-publish)"
    diff = ", ".join(f"{v} {k}" for k, v in sorted(result.diff_counts.items())) or "no changes"
    err.print(
        f"{method.value} list as of {date}: {result.players} players ({result.official} "
        f"official) from {result.games} games at log position {result.as_of_position}; "
        f"vs {summary['previous'] or 'no previous list'}: {diff}; {status}",
        markup=False,
    )
    sys.stdout.write(f"{result.output}\n")


@ratings_app.command("show")
@user_errors
def ratings_show(
    player: Annotated[str, typer.Argument(help="Player id, e.g. wof:123, egd:12345678.")],
    method: Annotated[Method, typer.Option(help="Rating method.", case_sensitive=False)] = (
        Method.WOF
    ),
    games: Annotated[int, typer.Option(min=0, help="Latest games to show (0: all).")] = 20,
    chart: Annotated[
        Path | None, typer.Option(help="Write the rating-history chart here (SVG).")
    ] = None,
    fmt: FormatOpt = Format.TEXT,
) -> None:
    """A player's rating in every published list of a method, margin, and latest games."""
    from pipelines.ratings_job import player_report, write_atomic
    from projections.charts import history_svg
    from projections.games import GamesCache, cache_path_for

    with open_store() as store, GamesCache(cache_path_for(store.path)) as cache:
        report = player_report(store, cache, method, player, games)
    if chart is not None:
        write_atomic(chart, history_svg(report.points(), f"{player} ({method.value})").encode())
        err.print(f"chart written to {chart}", markup=False)
    if fmt is Format.JSON:
        sys.stdout.write(json.dumps(report.as_json(), indent=2, ensure_ascii=False) + "\n")
        return
    if fmt is Format.CSV:
        emit(report.history, fmt)
        return
    sys.stdout.write(f"{player}  {report.name or ''}  {report.country or ''}".rstrip() + "\n")
    sys.stdout.write(f"\n{method.value} lists:\n")
    emit(report.history, Format.TEXT)
    sys.stdout.write(f"\ngames ({report.games_total} in the log; latest {len(report.games)}):\n")
    emit(report.games, Format.TEXT)


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
    from pipelines.scheduler import ScheduleConfig, build_scheduler, catch_up

    with open_store() as store:
        store_path = store.path
    overrides: dict[str, Any] = {
        "store": store_path,
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
    try:
        scheduler.start()
    except (KeyboardInterrupt, SystemExit):
        if scheduler.running:  # Ctrl-C may come while it is still starting
            scheduler.shutdown(wait=True)
        raise  # Ctrl-C: "interrupted", exit 130 (pipelines.exits)
