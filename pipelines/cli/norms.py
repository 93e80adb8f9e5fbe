"""Title norms on the command line: who made a GM, IM, WGM or WIM norm (FIDE B.01 1.4)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from pipelines.cli.common import TournamentArg, open_store, player_of, user_errors
from pipelines.cli.print import Paper, PrintFormat, say_written, write_document
from pipelines.commands.base import CommandError, load
from pipelines.views.norms import norms_html, norms_rows, norms_text_rows, norms_title
from pipelines.views.output import Format, PageFormat, emit
from pipelines.views.rating_change import fide_in_force
from projections.norms import norm_report

app = typer.Typer()
"""This module's commands (`pipelines.cli` loads it when one of them is run)."""


@app.command("norms")
@user_errors
def norms(
    tournament: TournamentArg,
    fmt: Annotated[
        PageFormat, typer.Option("--format", "-f", case_sensitive=False, help="Output format.")
    ] = PageFormat.TEXT,
    exempt: Annotated[
        bool,
        typer.Option(
            "--federation-exempt",
            help="B.01 1.4.3a-c: a national championship's final, a national team championship "
            "or a zonal (the foreign-opponent rules 1.4.3 and 1.4.4 are waived).",
        ),
    ] = False,
    certificate: Annotated[
        str | None,
        typer.Option(
            "--certificate",
            metavar="PLAYER",
            help="Write FIDE form IT1 (the norm certificate) of this player (his pairing "
            "number; id:N his id).",
        ),
    ] = None,
    title: Annotated[
        str | None,
        typer.Option(help="With --certificate: the norm (GM, IM, WGM, WIM); default: the highest."),
    ] = None,
    report: Annotated[
        bool, typer.Option("--report", help="Write FIDE form IT3 (the tournament report).")
    ] = False,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="The form's file (default: T-it1-PLAYER.pdf, T-it3.pdf; - for standard output).",
        ),
    ] = None,
    paper: Annotated[Paper, typer.Option(case_sensitive=False, help="Paper size.")] = Paper.A4,
    form_format: Annotated[
        PrintFormat,
        typer.Option("--form-format", case_sensitive=False, help="The form as PDF or HTML."),
    ] = PrintFormat.PDF,
    force: Annotated[bool, typer.Option(help="Overwrite the form's file.")] = False,
) -> None:
    """Title norms (FIDE B.01 1.4): per player the games, the opponents' titles, federations
    and average, the performance, the norms made and the rounds left out to make them.

    --certificate PLAYER writes his IT1 form, --report the event's IT3 form (PDF or HTML),
    with the figures of this report and lines for the arbiters' signatures."""
    with open_store() as store:
        state = load(store, tournament).state
        pid = None if certificate is None else player_of(store, tournament, certificate)[0]
        in_force = fide_in_force(store, state).ratings
    found = norm_report(state, exempt=exempt, in_force=in_force)
    if pid is not None or report:
        if pid is not None and report:
            raise CommandError("give --certificate PLAYER or --report, not both")
        from pipelines.paper import norm_forms

        if pid is not None:
            mine = next((n for n in found if n.applicant.id == pid), None)
            if mine is None:
                raise CommandError(f"{tournament}: player {pid} is not checked for norms")
            doc = norm_forms.certificate(state, mine, title)
            name = f"{tournament}-it1-{pid}"
        else:
            doc = norm_forms.report(state, found)
            name = f"{tournament}-it3"
        path = output or Path(f"{name}.{form_format.value}")
        write_document(doc, path, paper.value, form_format, force)
        say_written(tournament, doc, path)
        return
    rows = norms_rows(state, found, in_force)
    if fmt is PageFormat.HTML:
        sys.stdout.write(norms_html(state, rows))
        return
    if fmt is PageFormat.JSON:
        emit(rows, Format.JSON)
        return
    if fmt is PageFormat.TEXT:
        sys.stdout.write(norms_title(state) + "\n")
    emit(norms_text_rows(rows), Format(fmt.value))
