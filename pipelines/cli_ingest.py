"""`arbiter ingest` and `arbiter export`; they register on the shared app when imported."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from events.errors import UserError
from ingest.detect import FileFormat
from pipelines import commands
from pipelines.cli_common import TournamentArg, app, err, open_store, user_errors

if TYPE_CHECKING:
    from pipelines.ingest_job import IngestReport


class IngestFormatChoice(StrEnum):
    """``--format`` of ``ingest``: a file format to force, or the report's format."""

    TEXT = "text"
    JSON = "json"
    ELO = "elo"
    H9 = "h9"
    TOU = "tou"
    TRF = "trf"
    OPENGOTHA = "opengotha"


def _print_report(report: IngestReport, as_json: bool) -> None:
    from pipelines.ingest_job import Status

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
        typer.Option(help="Fail a file whose points column disagrees with its results."),
    ] = False,
) -> None:
    """Ingest result files: each one atomically, each one once. Exit 1 if any file failed."""
    from pipelines.ingest_job import IngestOptions, discover, ingest

    chosen = formats or []
    file_formats = [FileFormat(c.value) for c in chosen if c.value in set(FileFormat)]
    if len(file_formats) > 1:
        raise UserError("give at most one file format with --format")
    as_json = IngestFormatChoice.JSON in chosen
    files = discover(paths)
    options = IngestOptions(
        format=file_formats[0] if file_formats else None,
        strict=strict,
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
    _print_report(report, as_json)
    if not report.ok:
        raise typer.Exit(1)


def _write_atomically(target: Path, data: bytes) -> None:
    """Readers never see a half-written file: write beside it, then rename."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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
) -> None:
    """Write a tournament as a federation file: TRF (FIDE), h9 (EGD), .ELO (WOF), .tou, XML."""
    from projections.exports.from_log import export_tournament

    with open_store() as store:
        loaded = commands.load(store, tournament)
    data = export_tournament(loaded.events, file_format)
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        _write_atomically(output, data)
        err.print(f"wrote {output} ({file_format.value})", markup=False)
