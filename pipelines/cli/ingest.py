"""`arbiter ingest` and `arbiter export`; they register on the shared app when imported."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from events.errors import UserError
from ingest.detect import FileFormat
from pipelines.cli.common import TournamentArg, err, open_store, user_errors
from pipelines.commands import base as commands
from pipelines.process.files import write_atomic

app = typer.Typer()
"""This module's commands (`pipelines.cli` loads it when one of them is run)."""

if TYPE_CHECKING:
    from events.store import RecordedEvent
    from pipelines.jobs.ingest import IngestReport

SKIP_HINT = "--skip-bad-lines leaves the bad result records out and takes the rest"
"""Said after the error of a file refused for bad result records that the option would take."""


class IngestFormatChoice(StrEnum):
    """``--format`` of ``ingest``: a file format to force, or the report's format."""

    TEXT = "text"
    JSON = "json"
    ELO = "elo"
    H9 = "h9"
    TOU = "tou"
    TRF = "trf"
    OPENGOTHA = "opengotha"


def _with_skip_hint(report: IngestReport) -> IngestReport:
    """``report`` with `SKIP_HINT` after the error of each failed file that ``--skip-bad-lines``
    would take (the job found only bad result records in it)."""
    from dataclasses import replace

    return replace(
        report,
        files=tuple(
            replace(f, error=f"{f.error} ({SKIP_HINT})") if f.skippable and f.error else f
            for f in report.files
        ),
    )


def _print_report(report: IngestReport, as_json: bool) -> None:
    from pipelines.jobs.ingest import Status

    for f in report.files:
        for record in f.skipped:
            err.print(f"{record} (left out)", markup=False)
        for record in f.accepted:
            err.print(record, markup=False)
    if as_json:
        sys.stdout.write(json.dumps(report.as_json(), ensure_ascii=False, indent=2) + "\n")
        return
    for f in report.files:
        if f.status is Status.FAILED:
            sys.stdout.write(f"{f.error}\n")
    s = report.summary()
    sys.stdout.write(
        f"{s['ingested']} file(s) ingested, {s['duplicate']} already ingested, "
        f"{s['failed']} failed: {s['games']} games, {s['players']} players, "
        f"{s['seconds']:.1f} s\n"
    )
    if s["skipped_records"]:
        sys.stdout.write(
            f"{s['skipped_records']} bad result record(s) left out (listed on stderr)\n"
        )
    if s["accepted_records"]:
        sys.stdout.write(
            f"{s['accepted_records']} record(s) a live command would refuse taken as written "
            "(listed on stderr; --strict refuses them)\n"
        )
    if s["new_players_without_id"]:
        sys.stdout.write(
            f"{s['new_players_without_id']} player(s) without a federation id registered as "
            "new (details: --format json)\n"
        )


@app.command("ingest")
@user_errors
def ingest_command(
    paths: Annotated[
        list[Path], typer.Argument(help="Result files, or folders to walk (any mix of formats).")
    ],
    formats: Annotated[
        list[IngestFormatChoice] | None,
        typer.Option(
            "--format",
            "-f",
            case_sensitive=False,
            help="A file format to read every file as (elo, h9, tou, trf, opengotha; default: "
            "detected), and/or the report format (text, json). Repeat to give both.",
        ),
    ] = None,
    strict: Annotated[
        bool,
        typer.Option(
            help="Fail a file whose points column disagrees with its results, or with a "
            "record a live command would refuse (a second player of the same name, an id "
            "another player holds, a field out of its rule, a result on a bye). Without it "
            "each such record is taken as written and listed FILE:LINE:COL on stderr."
        ),
    ] = False,
    skip_bad_lines: Annotated[
        bool,
        typer.Option(
            help="Take a file with a few broken result records (an .ELO game line, an h9/.tou "
            "result cell, a TRF round block) without them: each is listed FILE:LINE:COL on "
            "stderr, the other half of its game is left out too, the rest lands. Without it "
            "such a file is refused whole."
        ),
    ] = False,
) -> None:
    """Ingest result files: each one atomically, each one once. Exit 1 if any file failed."""
    from ingest.limits import display_path
    from pipelines.jobs.ingest import LINK_NOT_FOLLOWED, IngestOptions, discover, ingest

    chosen = formats or []
    file_formats = [FileFormat(c.value) for c in chosen if c.value in set(FileFormat)]
    if len(file_formats) > 1:
        raise UserError("give at most one file format with --format")
    as_json = IngestFormatChoice.JSON in chosen
    links: list[Path] = []
    files = discover(paths, links)
    for link in links:
        err.print(f"{display_path(link)}: {LINK_NOT_FOLLOWED}", markup=False)
    options = IngestOptions(
        format=file_formats[0] if file_formats else None,
        strict=strict,
        skip_bad_lines=skip_bad_lines,
        actor=commands.actor(),
    )
    with open_store() as store:
        if err.is_terminal and files:
            with Progress(
                TextColumn("ingest"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=err,
                transient=True,
            ) as bar:
                task = bar.add_task("ingest", total=len(files))
                report = ingest(store, files, options, lambda _: bar.advance(task))
        else:
            report = ingest(store, files, options)
    if not report.ok:
        report = _with_skip_hint(report)
    _print_report(report, as_json)
    if not report.ok:
        raise typer.Exit(1)


def _round_one_colour_stated(events: Sequence[RecordedEvent]) -> Sequence[RecordedEvent]:
    """The events with the top seed's round-1 colour stated, as ingesting the TRF records it
    (`with_round_one_colour`): the export then reads back to the same file."""
    from events.domain import Game
    from events.schema import TournamentCreated
    from pipelines.jobs.ingest_read import with_round_one_colour

    first = events[0].event
    if not isinstance(first, TournamentCreated) or first.game is not Game.CHESS:
        return events
    created = with_round_one_colour([e.event for e in events])
    if created is first:
        return events
    return [replace(events[0], payload=created.model_dump_json()), *events[1:]]


@app.command("export")
@user_errors
def export_command(
    tournament: TournamentArg,
    file_format: Annotated[
        FileFormat,
        typer.Option("--format", "-f", case_sensitive=False, help="File format to write."),
    ],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="File to write (default: stdout).")
    ] = None,
    encoding: Annotated[
        str | None,
        typer.Option(
            "--encoding", help="h9: the file's encoding (default utf-8; latin-1 for old tools)."
        ),
    ] = None,
) -> None:
    """Write a tournament as a federation file: TRF (FIDE), h9 (EGD), .ELO (WOF), .tou, XML."""
    from pipelines.engines.macmahon_from_opengotha import go_sets
    from projections.exports.from_log import export_losses, export_tournament

    with open_store() as store:
        loaded = commands.load(store, tournament)
    events: Sequence[RecordedEvent] = loaded.events
    if file_format is FileFormat.TRF:
        events = _round_one_colour_stated(events)
    sets = go_sets(events) if file_format is FileFormat.OPENGOTHA else None
    data = export_tournament(events, file_format, sets, encoding=encoding)
    for line in export_losses(events, file_format):
        err.print(line, markup=False)
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        write_atomic(output, data)
        err.print(f"wrote {output} ({file_format.value})", markup=False)
